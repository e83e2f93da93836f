/*
 * Iteration-annotation labels → chunk statistics (TraceLens
 * IterationAnnotation.chunk_stats, spec perf_model §9).  TraceLens matches
 * its regexes with re.match in a fixed order; their literal prefixes are
 * disjoint, so the label's prefix picks the one grammar that can apply.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perf_annot.h"
#include "banned.h"

static int isword(int ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* "\d+" at *p: the value, *p advanced; -1 if no digit */
static double digits(const char **p)
{
	double v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s))
		v = v * 10 + (*s++ - '0');
	*p = s;
	return v;
}

static int lit(const char **p, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*p, w, n))
		return 0;
	*p += n;
	return 1;
}

/* "(sq\d+sk\d+sqsq\d+sqsk\d+)" into v[0..3] */
static int vllm_group(const char **p, double *v)
{
	static const char *const key[4] = { "(sq", "sk", "sqsq", "sqsk" };

	for (int i = 0; i < 4; i++)
		if (!lit(p, key[i]) || (v[i] = digits(p)) < 0)
			return 0;
	return lit(p, ")");
}

/* execute_\d+_context_\d+(...)_generation_\d+(...) */
static int vllm_detailed(const char *s, struct perf_annot_stats *st)
{
	double c[4], g[4];

	if (!lit(&s, "execute_") || digits(&s) < 0 || !lit(&s, "_context_") ||
	    digits(&s) < 0 || !vllm_group(&s, c) || !lit(&s, "_generation_") ||
	    digits(&s) < 0 || !vllm_group(&s, g))
		return 0;
	st->c_sq = c[0], st->c_sk = c[1], st->c_sqsq = c[2], st->c_sqsk = c[3];
	st->g_sq = g[0], st->g_sk = g[1], st->g_sqsq = g[2], st->g_sqsk = g[3];
	return 1;
}

/* The body of "<head>[...]": from after the first '[' to the last ']'. */
static int body(const char *s, const char **b, const char **e)
{
	const char *open = strchr(s, '['), *close = strrchr(s, ']');

	if (!open || !close || close < open)
		return 0;
	*b = open + 1;
	*e = close;
	return 1;
}

/* Python re.findall over [b, e) with a key "\w+=" and a value matcher;
 * calls fn for each pair (later pairs overwrite earlier ones, as dict()). */
struct kv {
	const char *k, *v;
	size_t klen, vlen;
};

/* value: "\d+" (sglang) or "\[[^\]]*\](\.\.\.\+\d+)?|\S+" (atom) */
static size_t value_len(const char *v, const char *e, int atom)
{
	const char *p = v;

	if (!atom) {
		while (p < e && isdigit((unsigned char)*p))
			p++;
		return (size_t)(p - v);
	}
	if (*v == '[') {
		const char *c = memchr(v, ']', (size_t)(e - v));
		if (c) {
			p = c + 1;
			if (e - p > 4 && !strncmp(p, "...+", 4) &&
			    isdigit((unsigned char)p[4])) {
				p += 4;
				while (p < e && isdigit((unsigned char)*p))
					p++;
			}
			return (size_t)(p - v);
		}
	}
	while (p < e && !isspace((unsigned char)*p))
		p++;
	return (size_t)(p - v);
}

static int find_pairs(const char *b, const char *e, int atom, struct kv *out, int max)
{
	int n = 0;

	for (const char *p = b; p < e;) {
		const char *q = p;
		size_t vl;
		while (q < e && isword(*q))
			q++;
		if (q == p || q >= e || *q != '=' || !(vl = value_len(q + 1, e, atom))) {
			p++;
			continue;
		}
		if (n < max)
			out[n++] = (struct kv){ p, q + 1, (size_t)(q - p), vl };
		p = q + 1 + vl;
	}
	return n;
}

/* the last pair named key: 1 with *v its integer value, 0 if absent,
 * -1 if not an integer (Python int() raises) */
static int get(const struct kv *kv, int n, const char *key, double *v)
{
	for (int i = n - 1; i >= 0; i--) {
		const char *p = kv[i].v;
		if (kv[i].klen != strlen(key) || strncmp(kv[i].k, key, kv[i].klen))
			continue;
		if ((*v = digits(&p)) < 0 || p != kv[i].v + kv[i].vlen)
			return -1;
		return 1;
	}
	*v = 0;
	return 0;
}

/* step\[(EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\] */
static int sglang_detailed(const char *s, struct perf_annot_stats *st)
{
	static const char *const mode[] = { "step[EXTEND", "step[DECODE", "step[MIXED" };
	const char *p = s, *close, *b, *e, *q;
	struct kv kv[64];
	int n, ok = 0;
	double *f[8] = { &st->c_sq, &st->c_sk, &st->c_sqsq, &st->c_sqsk,
			 &st->g_sq, &st->g_sk, &st->g_sqsq, &st->g_sqsk };
	static const char *const key[8] = { "c_sq", "c_sk", "c_sqsq", "c_sqsk",
					     "g_sq", "g_sk", "g_sqsq", "g_sqsk" };

	for (int i = 0; i < 3 && !ok; i++)
		ok = lit(&p, mode[i]);
	if (!ok || isword(*p) || !(close = strchr(p, ']')))
		return 0;
	for (q = p; (q = strstr(q, "sqsq=")) && q < close; q++)
		if (isdigit((unsigned char)q[5]))
			break;
	if (!q || q >= close || !body(s, &b, &e))
		return 0;
	n = find_pairs(b, e, 0, kv, 64);
	for (int i = 0; i < 8; i++)
		get(kv, n, key[i], f[i]);
	return 1;
}

/* ^(prefill|decode)\[.*sqsq=\d+.*\], stats only with both sqsq and sqsk */
static int atom_detailed(const char *s, struct perf_annot_stats *st)
{
	const char *p = s, *b, *e;
	struct kv kv[64];
	double v[4];
	int n, gen;

	if (lit(&p, "prefill["))
		gen = 0;
	else if (lit(&p, "decode["))
		gen = 1;
	else
		return 0;
	if (strchr(s, '\n') || !body(s, &b, &e))
		return 0;
	n = find_pairs(b, e, 1, kv, 64);
	if (get(kv, n, "sqsq", &v[2]) != 1 || get(kv, n, "sqsk", &v[3]) != 1 ||
	    get(kv, n, "tok", &v[0]) < 0 || get(kv, n, "sk", &v[1]) < 0)
		return 0;
	if (gen)
		st->g_sq = v[0], st->g_sk = v[1], st->g_sqsq = v[2], st->g_sqsk = v[3];
	else
		st->c_sq = v[0], st->c_sk = v[1], st->c_sqsq = v[2], st->c_sqsk = v[3];
	return 1;
}

int perf_annot_chunk_stats(const char *label, struct perf_annot_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!label)
		return 0;
	if (vllm_detailed(label, st) || sglang_detailed(label, st) || atom_detailed(label, st))
		return 1;
	memset(st, 0, sizeof(*st));
	return 0;
}
