/*
 * infer_annot: TraceLens's annotation_utils.py in C.  The patterns are
 * its regular expressions in POSIX extended syntax with the GNU \w, \s and
 * \b escapes; each is anchored at the start (re.match).
 */
#include <ctype.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "infer_annot.h"
#include "xalloc.h"
#include "banned.h"

enum {
	P_VLLM_DETAILED, P_VLLM_NATIVE, P_SGLANG_DETAILED, P_SGLANG_NATIVE,
	P_ATOM_NATIVE, P_ATOM_DETAILED, P_DIFFUSION, P_CAPTURE, P_SGLANG_FILL,
	P_KV_DIGITS, P_KV_ATOM, NPAT
};

static const char *const pat_src[NPAT] = {
	("^execute_[0-9]+_context_[0-9]+\\(sq[0-9]+sk[0-9]+sqsq[0-9]+sqsk[0-9]+\\)"
	 "_generation_[0-9]+\\(sq[0-9]+sk[0-9]+sqsq[0-9]+sqsk[0-9]+\\)"),
	"^execute_context_[0-9]+\\([0-9]+\\)_generation_[0-9]+\\([0-9]+\\)",
	"^step\\[(EXTEND|DECODE|MIXED)\\b[^]]*sqsq=[0-9]+[^]]*\\]",
	"^step\\[(EXTEND|DECODE|MIXED)\\b.*\\]",
	"^(prefill|decode)\\[(.*)\\]",
	"^(prefill|decode)\\[.*sqsq=[0-9]+.*\\]",
	"^execute_diffusion_([0-9]+)_([0-9]+x[0-9]+)",
	"^capture_([0-9]+)_(.*)",
	"^step\\[(\\w+)\\s+bs=([0-9]+)(\\s+toks=([0-9]+))?\\]",
	"(\\w+)=([0-9]+)",
	"(\\w+)=(\\[[^]]*\\](\\.\\.\\.\\+[0-9]+)?|\\S+)",
};

static regex_t pat[NPAT];
static int compiled;

static void compile(void)
{
	if (compiled)
		return;
	for (int i = 0; i < NPAT; i++)
		if (regcomp(&pat[i], pat_src[i], REG_EXTENDED))
			tl_die("internal error: bad pattern %d", i);
	compiled = 1;
}

static int match(int p, const char *s, regmatch_t *m, size_t nm)
{
	compile();
	return regexec(&pat[p], s, nm, m, 0) == 0;
}

int64_t infer_int(const char *s, size_t n, int *ok)
{
	size_t i = 0, end = n;
	int neg = 0, digits = 0;
	int64_t v = 0;

	*ok = 0;
	while (i < end && isspace((unsigned char)s[i]))
		i++;
	while (end > i && isspace((unsigned char)s[end - 1]))
		end--;
	if (i < end && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < end; i++) {
		if (s[i] == '_' && digits && i + 1 < end && isdigit((unsigned char)s[i + 1]))
			continue;	/* int("1_000") is 1000 */
		if (!isdigit((unsigned char)s[i]))
			return 0;
		v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (s[i] - '0');
		digits++;
	}
	if (!digits)
		return 0;
	*ok = 1;
	return neg ? -v : v;
}

/* _safe_int: int(v), or 0 when that raises */
static int64_t safe_int(const char *s, size_t n)
{
	int ok;
	int64_t v = infer_int(s, n, &ok);

	return ok ? v : 0;
}

/*
 * _tokenize: "(" and ")" to "_", every run of s, q, k to "_", split on
 * "_".  Returns the number of parts; part i is s[off[i] .. off[i]+len[i]).
 */
static size_t tokenize(const char *name, char **buf, size_t **off, size_t **len)
{
	size_t n = strlen(name), np = 1, k = 0, start = 0;
	char *b = xmalloc(n + 1);

	for (size_t i = 0; i < n; i++) {
		char c = name[i] == '(' || name[i] == ')' ? '_' : name[i];
		if (c == 's' || c == 'q' || c == 'k') {
			while (i + 1 < n && (name[i + 1] == 's' || name[i + 1] == 'q' || name[i + 1] == 'k'))
				i++;
			c = '_';
		}
		b[k++] = c;
	}
	b[k] = '\0';
	for (size_t i = 0; i < k; i++)
		np += b[i] == '_';
	*off = xmalloc(st_mult(np, sizeof(**off)));
	*len = xmalloc(st_mult(np, sizeof(**len)));
	np = 0;
	for (size_t i = 0; i <= k; i++)
		if (i == k || b[i] == '_') {
			(*off)[np] = start;
			(*len)[np++] = i - start;
			start = i + 1;
		}
	*buf = b;
	return np;
}

static int64_t part(const char *b, const size_t *off, const size_t *len, size_t np, size_t i)
{
	return i < np ? safe_int(b + off[i], len[i]) : 0;
}

static void fill_vllm(struct infer_iter *a, const char *name, int detailed)
{
	char *b;
	size_t *off, *len, np = tokenize(name, &b, &off, &len);

	if (detailed) {
		a->context_requests = part(b, off, len, np, 3);
		a->c_sq = part(b, off, len, np, 5);
		a->c_sk = part(b, off, len, np, 6);
		a->c_sqsq = part(b, off, len, np, 7);
		a->c_sqsk = part(b, off, len, np, 8);
		a->generation_requests = part(b, off, len, np, 11);
		a->g_sq = part(b, off, len, np, 13);
		a->g_sk = part(b, off, len, np, 14);
		a->g_sqsq = part(b, off, len, np, 15);
		a->g_sqsk = part(b, off, len, np, 16);
		a->context_sum = a->c_sq;
		a->generation_sum = a->g_sq;
		a->has_sqsk = 1;
	} else {
		a->context_requests = part(b, off, len, np, 2);
		a->generation_requests = part(b, off, len, np, 6);
		a->context_sum = a->c_sq = part(b, off, len, np, 3);
		a->generation_sum = a->g_sq = part(b, off, len, np, 7);
	}
	a->batch_size = a->c_sq + a->g_sq;
	free(b);
	free(off);
	free(len);
}

/* dict(re.findall(KEY=VALUE, body)): the last value of key, or NULL */
static const char *kv_find(int p, const char *body, const char *key, size_t *vlen)
{
	regmatch_t m[3];
	const char *s = body, *found = NULL;
	size_t klen = strlen(key);

	while (*s && match(p, s, m, 3)) {
		if ((size_t)(m[1].rm_eo - m[1].rm_so) == klen && !strncmp(s + m[1].rm_so, key, klen)) {
			found = s + m[2].rm_so;
			*vlen = (size_t)(m[2].rm_eo - m[2].rm_so);
		}
		s += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_so + 1;
	}
	return found;
}

static int64_t kv_int(int p, const char *body, const char *key, int *has)
{
	size_t n;
	const char *v = kv_find(p, body, key, &n);

	if (has)
		*has = v != NULL;
	return v ? safe_int(v, n) : 0;
}

static int fill_sglang_native(struct infer_iter *a, const char *name)
{
	regmatch_t m[5];
	int64_t bs, toks;

	if (!match(P_SGLANG_FILL, name, m, 5))
		return 0;
	bs = safe_int(name + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so));
	toks = m[4].rm_so >= 0 ? safe_int(name + m[4].rm_so, (size_t)(m[4].rm_eo - m[4].rm_so)) : 0;
	if ((size_t)(m[1].rm_eo - m[1].rm_so) == 6 && !strncmp(name + m[1].rm_so, "DECODE", 6)) {
		a->generation_requests = a->generation_sum = a->g_sq = bs;
	} else {
		a->context_requests = bs;
		a->context_sum = a->c_sq = toks;
	}
	a->batch_size = a->c_sq + a->g_sq ? a->c_sq + a->g_sq : bs;
	return 1;
}

static int fill_sglang_detailed(struct infer_iter *a, const char *name)
{
	const char *lb = strchr(name, '['), *rb = strrchr(name, ']');
	char *body, mode[16] = "";
	int64_t bs, toks;
	size_t i;

	if (!lb || !rb || rb < lb)
		return 0;
	body = xstrndup(lb + 1, (size_t)(rb - lb - 1));
	for (i = 0; body[i] && !isspace((unsigned char)body[i]) && i + 1 < sizeof(mode); i++)
		mode[i] = body[i];
	mode[i] = '\0';
	bs = kv_int(P_KV_DIGITS, body, "bs", NULL);
	toks = kv_int(P_KV_DIGITS, body, "toks", NULL);
	a->c_sq = kv_int(P_KV_DIGITS, body, "c_sq", NULL);
	a->c_sk = kv_int(P_KV_DIGITS, body, "c_sk", NULL);
	a->c_sqsq = kv_int(P_KV_DIGITS, body, "c_sqsq", NULL);
	a->c_sqsk = kv_int(P_KV_DIGITS, body, "c_sqsk", NULL);
	a->g_sq = kv_int(P_KV_DIGITS, body, "g_sq", NULL);
	a->g_sk = kv_int(P_KV_DIGITS, body, "g_sk", NULL);
	a->g_sqsq = kv_int(P_KV_DIGITS, body, "g_sqsq", NULL);
	a->g_sqsk = kv_int(P_KV_DIGITS, body, "g_sqsk", NULL);
	if (!strcmp(mode, "DECODE")) {
		a->generation_requests = bs;
		a->generation_sum = a->g_sq;
	} else if (!strcmp(mode, "EXTEND")) {
		a->context_requests = bs;
		a->context_sum = a->c_sq;
	} else {
		a->context_requests = kv_int(P_KV_DIGITS, body, "c", NULL);
		a->generation_requests = kv_int(P_KV_DIGITS, body, "g", NULL);
		a->context_sum = a->c_sq;
		a->generation_sum = a->g_sq;
	}
	a->batch_size = a->c_sq + a->g_sq ? a->c_sq + a->g_sq : toks ? toks : bs;
	a->has_sqsk = 1;
	free(body);
	return 1;
}

/* _first_int: the first run of digits in the value (bs=117/128 → 117) */
static int64_t first_int(const char *v, size_t n)
{
	size_t i = 0, j;

	while (i < n && !isdigit((unsigned char)v[i]))
		i++;
	for (j = i; j < n && isdigit((unsigned char)v[j]); j++)
		;
	return i < n ? safe_int(v + i, j - i) : 0;
}

static int fill_atom(struct infer_iter *a, const char *name)
{
	regmatch_t m[3];
	char *body;
	const char *v;
	size_t n;
	int64_t bs = 0, tokens, sk, sqsq, sqsk;
	int has_sqsq, has_sqsk;

	if (!match(P_ATOM_NATIVE, name, m, 3))
		return 0;
	body = xstrndup(name + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so));
	if ((v = kv_find(P_KV_ATOM, body, "bs", &n)))
		bs = first_int(v, n);
	tokens = kv_int(P_KV_ATOM, body, "tok", NULL);
	sk = kv_int(P_KV_ATOM, body, "sk", NULL);
	sqsq = kv_int(P_KV_ATOM, body, "sqsq", &has_sqsq);
	sqsk = kv_int(P_KV_ATOM, body, "sqsk", &has_sqsk);
	if (name[0] == 'p') {
		a->context_requests = bs;
		a->context_sum = a->c_sq = tokens;
		a->c_sk = sk;
		a->c_sqsq = sqsq;
		a->c_sqsk = sqsk;
	} else {
		a->generation_requests = bs;
		a->generation_sum = a->g_sq = tokens;
		a->g_sk = sk;
		a->g_sqsq = sqsq;
		a->g_sqsk = sqsk;
	}
	a->batch_size = tokens;
	a->has_sqsk = has_sqsq && has_sqsk;
	free(body);
	return 1;
}

static int fill_diffusion(struct infer_iter *a, const char *name)
{
	regmatch_t m[3];

	if (!match(P_DIFFUSION, name, m, 3))
		return 0;
	a->batch_size = safe_int(name + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	return 1;
}

void infer_iter_parse(struct infer_iter *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->batch_size = 1;
	/* FORMATS, in priority order; a parser that fails passes on */
	if (match(P_VLLM_DETAILED, name, NULL, 0)) {
		fill_vllm(a, name, 1);
		a->kind = "vllm_detailed";
	} else if (match(P_VLLM_NATIVE, name, NULL, 0)) {
		fill_vllm(a, name, 0);
		a->kind = "vllm_native";
	} else if (match(P_SGLANG_DETAILED, name, NULL, 0) && fill_sglang_detailed(a, name)) {
		a->kind = "sglang_detailed";
	} else if (match(P_SGLANG_NATIVE, name, NULL, 0) && fill_sglang_native(a, name)) {
		a->kind = "sglang_native";
	} else if (match(P_ATOM_DETAILED, name, NULL, 0) && fill_atom(a, name)) {
		a->kind = "atom_detailed";
	} else if (match(P_ATOM_NATIVE, name, NULL, 0) && fill_atom(a, name)) {
		a->kind = "atom_native";
	} else if (fill_diffusion(a, name)) {
		a->kind = "diffusion_native";
	}
}

int infer_iter_tier(const char *name)
{
	if (match(P_VLLM_DETAILED, name, NULL, 0) || match(P_ATOM_DETAILED, name, NULL, 0) ||
	    match(P_SGLANG_DETAILED, name, NULL, 0))
		return 1;
	if (match(P_VLLM_NATIVE, name, NULL, 0) || match(P_SGLANG_NATIVE, name, NULL, 0) ||
	    match(P_ATOM_NATIVE, name, NULL, 0) || match(P_DIFFUSION, name, NULL, 0))
		return 2;
	return 0;
}

void infer_iter_details(const struct infer_iter *a, int64_t *batch_size, int64_t *num_requests,
			int64_t *context_requests, int64_t *context_sum,
			int64_t *generation_requests, int64_t *generation_sum)
{
	if (!a->kind) {
		*batch_size = *num_requests = *generation_requests = *generation_sum = 1;
		*context_requests = *context_sum = 0;
		return;
	}
	*batch_size = a->batch_size;
	*num_requests = a->context_requests + a->generation_requests;
	*context_requests = a->context_requests;
	*context_sum = a->context_sum;
	*generation_requests = a->generation_requests;
	*generation_sum = a->generation_sum;
}

int infer_capture_parse(const char *name, int64_t *batch_size, char *mode, size_t modesize)
{
	regmatch_t m[3];
	size_t n;

	if (!match(P_CAPTURE, name, m, 3))
		return 0;
	*batch_size = safe_int(name + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	n = (size_t)(m[2].rm_eo - m[2].rm_so);
	if (n >= modesize)
		n = modesize - 1;
	tl_memcpy(mode, name + m[2].rm_so, n);
	mode[n] = '\0';
	return 1;
}
