#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cat_event.h"
#include "cat_number.h"
#include "json.h"
#include "outbuf.h"
#include "tree_nodes.h"
#include "xalloc.h"
#include "banned.h"

/* Columns, in stream order. */
enum {
	C_UID, C_SRC, C_PH, C_CAT, C_NAME, C_PID, C_TID, C_TS, C_DUR, C_ID,
	C_CORR, C_EXT, C_SEQ, C_STREAM, C_DEVICE,
	C_DIMS, C_TYPES, C_STRIDES, C_CONCRETE, C_ARGS, C_EXTRA, NCOLS
};

static const char header[] =
	"#tl-events 1\n"
	"uid\tsrc\tph\tcat\tname\tpid\ttid\tts\tdur\tid\tcorr\text\tseq\t"
	"stream\tdevice\tdims\ttypes\tstrides\tconcrete\targs\textra\n";

/* How a column takes its value. */
enum { T_STRING, T_SCALAR, T_NUMBER, T_ARGS, T_ANY };

struct key {
	char name[16];		/* NUL-padded: compared 16 bytes at once */
	size_t len;
	int col;
	int take;
};

#define KEY(s, col, take) { s, sizeof(s) - 1, col, take }

static const struct key event_keys[] = {
	KEY("ph", C_PH, T_STRING), KEY("cat", C_CAT, T_STRING),
	KEY("name", C_NAME, T_STRING), KEY("pid", C_PID, T_SCALAR),
	KEY("tid", C_TID, T_SCALAR), KEY("ts", C_TS, T_NUMBER),
	KEY("dur", C_DUR, T_NUMBER), KEY("id", C_ID, T_SCALAR),
	KEY("args", C_ARGS, T_ARGS),
};

static const struct key arg_keys[] = {
	KEY("correlation", C_CORR, T_NUMBER),
	KEY("External id", C_EXT, T_NUMBER),
	KEY("Sequence number", C_SEQ, T_NUMBER),
	KEY("stream", C_STREAM, T_NUMBER), KEY("device", C_DEVICE, T_NUMBER),
	KEY("Input Dims", C_DIMS, T_ANY), KEY("Input type", C_TYPES, T_ANY),
	KEY("Input Strides", C_STRIDES, T_ANY),
	KEY("Concrete Inputs", C_CONCRETE, T_ANY),
};

/*
 * Finding a key among the nine of a table: a 64-slot hash on the length
 * and the first and last bytes, free of collisions for both tables
 * (checked when the slots are filled), then one memcmp.
 */
#define HASH(s, n) (((n) + 5u * (unsigned char)(s)[0] + (unsigned char)(s)[(ptrdiff_t)(n) - 1]) & 63)

static signed char event_slots[64], arg_slots[64];

/*
 * The walk's guess of a key from the key before it (walk_key): the
 * profiler writes an event's members, and its args', in the same order
 * event after event, so the key after "ph" is "cat" again, and the key
 * after "External id" in a cpu_op's args is "Record function id" again
 * (on owlv2, 85 % of the keys are the one that followed the key before
 * them last time).  Where the text holds the guess's "KEY": the key is
 * known by one compare, without looking for its closing quote, hashing
 * it and comparing it with the table's.  A state is where a guess is
 * kept: 0 at an object's start, 1 + i after the table's key i, and
 * GUESS_TAB + 1 + its hash after a key not in the table.
 */
enum { GUESS_TAB = 16, GUESS_STATES = 1 + GUESS_TAB + 64 };

struct key_guess {
	char pat[32];		/* "KEY": and what followed it when seen */
	uint32_t mask;		/* bit i: pat[i] is part of "KEY": */
	unsigned char plen;	/* the length of "KEY":, 0 for no guess */
	unsigned char state;	/* the state after KEY */
	const struct key *key;	/* KEY's table entry, or NULL */
};

/*
 * Which ways of taking a value (bit T_...) a value's first byte suits
 * (text_takes): a table, where the tests made per member were 3 % of
 * tl-cat.
 */
static unsigned char takes_by[256];

static void fill_takes(void)
{
	for (int c = 0; c < 256; c++) {
		int prim = c != '"' && c != '{' && c != '[';
		unsigned t = 1u << T_ANY;

		if (c == '"')
			t |= 1u << T_STRING;
		if (c == '"' || prim)
			t |= 1u << T_SCALAR;
		if (prim && c != 't' && c != 'f' && c != 'n')
			t |= 1u << T_NUMBER;
		if (c == '{')
			t |= 1u << T_ARGS;
		takes_by[c] = (unsigned char)t;
	}
}

static void fill_slots(signed char *slots, const struct key *tab, size_t n)
{
	memset(slots, -1, 64);
	for (size_t i = 0; i < n; i++) {
		if (tab[i].len >= sizeof(tab[i].name) || i >= GUESS_TAB)
			abort();	/* a new key is too long for lookup */
		unsigned h = HASH(tab[i].name, tab[i].len);
		if (slots[h] >= 0)
			abort();	/* a new key collides: change HASH */
		slots[h] = (signed char)i;
	}
}

struct cat_event_out {
	struct outbuf *ob;
	int ndjson;
	int lean;		/* thin rows as "#dropped" lines (cat_event_lean) */
	char *scratch;
	size_t scratch_alloc;
	/*
	 * Per row, made from the tokens (split) or the text (walk_event):
	 * the columns' values as spans of the compact text (a string's with
	 * its quotes), which columns have one (bit c), the spans "key":value
	 * of the members left for "args" (rest_a) and "extra" (rest_e); for
	 * the walk, the ts and dur numbers to check once it is done
	 */
	struct span { uint32_t b, e; } span[NCOLS], *rest_a, *rest_e;
	uint32_t have;
	size_t na, ne, a_alloc, e_alloc;
	struct num_span { uint32_t b, e; int is_dur; } num[4];
	int nnum;
	/*
	 * The last row's "uid<TAB>src" as written (lead_len: its length,
	 * ulen: the uid's digits; 20 + 1 + 10 at most), for row_raw to count
	 * up in place: uids go up by one a row, and two divisions a digit
	 * were 2 % of tl-cat
	 */
	char lead[32];
	size_t lead_len, ulen;
	uint64_t lead_uid;
	unsigned lead_src;
	/* the walk's guesses of the next key, in events and in args */
	struct key_guess guess_e[GUESS_STATES], guess_a[GUESS_STATES];
};

struct cat_event_out *cat_event_out_new(struct outbuf *ob, int ndjson)
{
	struct cat_event_out *w = xcalloc(1, sizeof(*w));
	w->ob = ob;
	w->ndjson = ndjson;
	fill_slots(event_slots, event_keys, sizeof(event_keys) / sizeof(*event_keys));
	fill_slots(arg_slots, arg_keys, sizeof(arg_keys) / sizeof(*arg_keys));
	fill_takes();
	return w;
}

void cat_event_lean(struct cat_event_out *w)
{
	w->lean = !w->ndjson;
}

void cat_event_out_free(struct cat_event_out *w)
{
	if (!w)
		return;
	free(w->scratch);
	free(w->rest_a);
	free(w->rest_e);
	free(w);
}

void cat_event_header(struct cat_event_out *w)
{
	if (!w->ndjson)
		outbuf_put(w->ob, header, sizeof(header) - 1);
}

void cat_event_put_json_string(struct outbuf *ob, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	outbuf_putc(ob, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			outbuf_putc(ob, '\\');
			outbuf_putc(ob, (char)c);
		} else if (c < 0x20) {
			outbuf_put(ob, "\\u00", 4);
			outbuf_putc(ob, hex[c >> 4]);
			outbuf_putc(ob, hex[c & 15]);
		} else {
			outbuf_putc(ob, (char)c);
		}
	}
	outbuf_putc(ob, '"');
}

void cat_event_source(struct cat_event_out *w, unsigned src, const char *name)
{
	if (w->ndjson) {
		outbuf_puts(w->ob, "{\"src\":");
		outbuf_u64(w->ob, src);
		outbuf_puts(w->ob, ",\"source\":");
		cat_event_put_json_string(w->ob, name, strlen(name));
		outbuf_puts(w->ob, "}\n");
		return;
	}
	outbuf_puts(w->ob, "#source\t");
	outbuf_u64(w->ob, src);
	outbuf_putc(w->ob, '\t');
	outbuf_tsv(w->ob, name, strlen(name));
	outbuf_putc(w->ob, '\n');
}

void cat_event_end(struct cat_event_out *w, unsigned src, uint64_t elements,
	       uint64_t skipped)
{
	outbuf_puts(w->ob, w->ndjson ? "{\"src\":" : "#end\t");
	outbuf_u64(w->ob, src);
	outbuf_puts(w->ob, w->ndjson ? ",\"end\":" : "\t");
	outbuf_u64(w->ob, elements);
	outbuf_puts(w->ob, w->ndjson ? ",\"skipped\":" : "\t");
	outbuf_u64(w->ob, skipped);
	outbuf_puts(w->ob, w->ndjson ? "}\n" : "\n");
}

void cat_event_top(struct cat_event_out *w, unsigned src, const char *key,
	       size_t keylen, const struct json *j)
{
	if (w->ndjson) {
		outbuf_puts(w->ob, "{\"src\":");
		outbuf_u64(w->ob, src);
		outbuf_puts(w->ob, ",\"top\":");
		cat_event_put_json_string(w->ob, key, keylen);
		outbuf_puts(w->ob, ",\"value\":");
		json_compact(j, 0, w->ob, 0);
		outbuf_puts(w->ob, "}\n");
		return;
	}
	outbuf_puts(w->ob, "#top\t");
	outbuf_u64(w->ob, src);
	outbuf_putc(w->ob, '\t');
	outbuf_tsv(w->ob, key, keylen);
	outbuf_putc(w->ob, '\t');
	json_compact(j, 0, w->ob, 1);
	outbuf_putc(w->ob, '\n');
}

/*
 * The key text s (len bytes, 16 readable, and the byte before it: an
 * empty key's hash reads s[-1], and no entry is empty) found in the table,
 * or NULL.
 */
static inline const struct key *key_find(const char *s, size_t len, const struct key *tab,
					 const signed char *slots)
{
	int i = slots[HASH(s, len)];

	if (i < 0 || tab[i].len != len)
		return NULL;
#ifdef __SSE2__
	{
		/* len < 16: the bytes past it are the text's slack or scratch's */
		unsigned eq = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)s),
			_mm_loadu_si128((const __m128i *)tab[i].name)));
		return ((eq | 0xffffu << len) & 0xffff) == 0xffff ? &tab[i] : NULL;
	}
#else
	/* keys are short: a loop, not a memcmp call per member */
	for (size_t k = 0; k < len; k++)
		if (tab[i].name[k] != s[k])
			return NULL;
	return &tab[i];
#endif
}

/* A key with escapes, decoded into scratch first. */
static const struct key *lookup_escaped(struct cat_event_out *w, const char *s, size_t len,
					const struct key *tab, const signed char *slots)
{
	/* 16 bytes more than the key: key_find reads 16 at a time */
	xgrow((void **)&w->scratch, &w->scratch_alloc, st_add(len, 16), 1);
	len = json_decode_string(s, len, w->scratch);
	memset(w->scratch + len, 0, 16);
	return len ? key_find(w->scratch, len, tab, slots) : NULL;
}

/*
 * The key token k, escapes decoded when it has any, found in the table;
 * the matching entry or NULL.  Inline: a call per member was a third of
 * the lookup's time.
 */
static inline const struct key *lookup(struct cat_event_out *w, const struct json *j,
				       unsigned k, const struct key *tab,
				       const signed char *slots)
{
	const struct json_tok *t = &j->tok[k];
	const char *s = j->text + t->start;
	size_t len = (size_t)(t->end - t->start);

	if (j->escapes && memchr(s, '\\', len))
		return lookup_escaped(w, s, len, tab, slots);
	return key_find(s, len, tab, slots);
}

/*
 * Does the value text[b..e) suit a column that takes values this way?  By
 * its first byte (takes_by): a string's is its quote, a container's its
 * bracket, and the other values are numbers or literals (the text is
 * valid JSON).
 */
static inline int text_takes(const char *text, size_t b, size_t e, int take)
{
	/* a string must not be empty */
	return (takes_by[(unsigned char)text[b]] >> take & 1) && (take != T_STRING || e - b > 2);
}

static void add_span(struct span **v, size_t *n, size_t *alloc, size_t b, size_t e)
{
	if (*n == *alloc)
		xgrow((void **)v, alloc, *n + 1, sizeof(**v));
	(*v)[*n].b = (uint32_t)b;
	(*v)[(*n)++].e = (uint32_t)e;
}

/*
 * The member whose key (a table entry or NULL) starts at kb, its value at
 * text[b..e): the value to the key's column when the column is still free
 * and the value suits it (1), else the member, "key":value, to rest (0).
 * Both ways to a row place members by it.
 */
static inline int place(struct cat_event_out *w, const char *text, const struct key *key,
			size_t kb, size_t b, size_t e, struct span **rest, size_t *nrest,
			size_t *alloc)
{
	if (key && !(w->have >> key->col & 1) && text_takes(text, b, e, key->take)) {
		w->have |= (uint32_t)1 << key->col;
		w->span[key->col].b = (uint32_t)b;
		w->span[key->col].e = (uint32_t)e;
		return 1;
	}
	add_span(rest, nrest, alloc, kb, e);
	return 0;
}

/* Key token k and its value by place(). */
static int place_tok(struct cat_event_out *w, const struct json *j, const struct key *key,
		     unsigned k, struct span **rest, size_t *nrest, size_t *alloc)
{
	const struct json_tok *v = &j->tok[k + 1];

	return place(w, j->text, key, json_tok_begin(&j->tok[k]), json_tok_begin(v),
		     json_tok_finish(v), rest, nrest, alloc);
}

static void split_args(struct cat_event_out *w, const struct json *j,
		       unsigned a)
{
	unsigned end = json_skip(j, a);

	for (unsigned k = a + 1; k < end; k = json_skip(j, k + 1)) {
		const struct key *key = lookup(w, j, k, arg_keys, arg_slots);
		place_tok(w, j, key, k, &w->rest_a, &w->na, &w->a_alloc);
	}
}

/*
 * Sort the event's members into columns, "args" and "extra"; with cn,
 * check each ts and dur number (the keys as written, cat_number_check's
 * way, since text without escapes has them so).
 */
static void split(struct cat_event_out *w, const struct json *j, struct cat_number *cn,
		  uint64_t uid)
{
	unsigned end = json_skip(j, 0);

	w->have = 0;
	w->na = w->ne = 0;
	for (unsigned k = 1; k < end; k = json_skip(j, k + 1)) {
		const struct key *key = lookup(w, j, k, event_keys, event_slots);
		if (cn && key && (key->col == C_TS || key->col == C_DUR) &&
		    json_tok_is_number(j, k + 1))
			cat_number_value(cn, uid, key->col == C_DUR, j->text + j->tok[k + 1].start,
					 (size_t)(j->tok[k + 1].end - j->tok[k + 1].start));
		if (place_tok(w, j, key, k, &w->rest_e, &w->ne, &w->e_alloc) &&
		    key->col == C_ARGS)
			split_args(w, j, k + 1);
	}
}

/* Members' spans, comma-separated, in braces (escaped: text with backslashes). */
static void put_members(struct cat_event_out *w, const char *text, const struct span *v,
			size_t n, int escaped)
{
	outbuf_putc(w->ob, '{');
	for (size_t i = 0; i < n; i++) {
		if (i)
			outbuf_putc(w->ob, ',');
		json_put_text(w->ob, text + v[i].b, v[i].e - v[i].b, escaped);
	}
	outbuf_putc(w->ob, '}');
}

/* A string column, the text between the quotes: decoded, then TSV-escaped. */
static void put_string(struct cat_event_out *w, const char *s, size_t n, int escaped)
{
	/* without escapes the text cannot hold a byte TSV escapes */
	if (!escaped || !memchr(s, '\\', n)) {
		outbuf_put_slow(w->ob, s, n);	/* memcpy: names can be long */
		return;
	}
	xgrow((void **)&w->scratch, &w->scratch_alloc, n + 1, 1);
	n = json_decode_string(s, n, w->scratch);
	outbuf_tsv(w->ob, w->scratch, n);
}

static void put_col(struct cat_event_out *w, int c, const char *text, int escaped)
{
	const struct span *v = &w->span[c];

	if (c == C_ARGS) {
		if (w->have >> C_ARGS & 1)
			put_members(w, text, w->rest_a, w->na, escaped);
	} else if (c == C_EXTRA) {
		if (w->ne)
			put_members(w, text, w->rest_e, w->ne, escaped);
	} else if (w->have >> c & 1) {
		if (c == C_PH || c == C_CAT || c == C_NAME)
			put_string(w, text + v->b + 1, v->e - v->b - 2, escaped);
		else
			json_put_text(w->ob, text + v->b, v->e - v->b, escaped);
	}
}

static void row_ndjson(struct cat_event_out *w, unsigned src, uint64_t uid,
		       const struct json *j)
{
	unsigned end = json_skip(j, 0);

	outbuf_puts(w->ob, "{\"uid\":");
	outbuf_u64(w->ob, uid);
	outbuf_puts(w->ob, ",\"src\":");
	outbuf_u64(w->ob, src);
	for (unsigned k = 1; k < end; k = json_skip(j, k + 1)) {
		outbuf_putc(w->ob, ',');
		json_compact(j, k, w->ob, 0);
		outbuf_putc(w->ob, ':');
		json_compact(j, k + 1, w->ob, 0);
	}
	outbuf_puts(w->ob, "}\n");
}

/*
 * The row of text without a backslash, where json_compact copies bytes as
 * they are and no byte needs TSV escaping, goes by plain stores: room for
 * the whole row first, then each piece copied 16 bytes at a time, past its
 * end (JSON_TEXT_SLACK on the text's side, ROW_SLOP on this one), with no
 * test for room per piece.  Every member of the text is copied at most
 * once, with no more separators than it has there, so a row is at most the
 * text's length plus ROW_EXTRA: the uid, the src, the tabs, two braces.
 */
#define ROW_SLOP 16
#define ROW_EXTRA (20 + 1 + 20 + NCOLS + 2 + ROW_SLOP)

static char *put_bytes(char *o, const char *s, size_t n)
{
#ifdef __SSE2__
	/* the first 16 whatever n: most pieces are shorter */
	_mm_storeu_si128((__m128i *)o, _mm_loadu_si128((const __m128i *)s));
	for (size_t i = 16; i < n; i += 16)
		_mm_storeu_si128((__m128i *)(o + i), _mm_loadu_si128((const __m128i *)(s + i)));
#else
	tl_memcpy(o, s, n);
#endif
	return o + n;
}

static char *put_u64(char *o, uint64_t v)
{
	size_t n = 1;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	for (size_t i = n; i-- > 0; v /= 10)
		o[i] = (char)('0' + v % 10);
	return o + n;
}

/*
 * "uid<TAB>src" at o: the last row's with its uid counted up by one where
 * this row is the next of the same source (a carry out of the first digit
 * makes it once more by put_u64), else made by put_u64 and kept.
 */
static char *put_lead(char *o, struct cat_event_out *w, uint64_t uid, unsigned src)
{
	int next = w->lead_len && src == w->lead_src && uid == w->lead_uid + 1;
	size_t i;
	char *e;

	if (next) {
		for (i = w->ulen; i-- > 0 && w->lead[i] == '9';)
			w->lead[i] = '0';
		if (i < w->ulen)
			w->lead[i]++;
		else
			next = 0;	/* one digit more */
	}
	if (!next) {
		e = put_u64(w->lead, uid);
		w->ulen = (size_t)(e - w->lead);
		*e++ = '\t';
		e = put_u64(e, src);
		w->lead_len = (size_t)(e - w->lead);
		w->lead_src = src;
	}
	w->lead_uid = uid;
	/* the whole array in one copy: ROW_EXTRA holds 41 bytes for it */
	tl_memcpy(o, w->lead, sizeof(w->lead));
	return o + w->lead_len;
}

/*
 * Members' spans by runs: "key":value is one span of the text, and
 * members next to each other there (one comma between) are one span
 * together.
 */
static char *put_spans(char *o, const char *text, const struct span *v, size_t n)
{
	size_t i = 0;

	*o++ = '{';
	while (i < n) {
		size_t b = v[i].b, e = v[i].e;
		while (++i < n && v[i].b == e + 1)
			e = v[i].e;
		o = put_bytes(o, text + b, e - b);
		if (i < n)
			*o++ = ',';
	}
	*o++ = '}';
	return o;
}

/*
 * The scalar and array columns, pid to concrete, each after its tab: the
 * tabs up to a column with a value stored 16 at once (ROW_SLOP covers the
 * store's reach), so a row pays for the columns it has, not for the 14.
 */
static char *put_scalars(char *o, const struct cat_event_out *w, const char *text)
{
	uint32_t m = (w->have >> C_PID) & ((UINT32_C(1) << (C_ARGS - C_PID)) - 1);
	int c = C_PID;	/* the first column whose tab is not written */

	while (m) {
		int k = C_PID + __builtin_ctz(m);
		const struct span *v = &w->span[k];

		m &= m - 1;
		memset(o, '\t', 16);	/* one store; k - c + 1 <= 14 kept */
		o += k - c + 1;
		c = k + 1;
		o = put_bytes(o, text + v->b, v->e - v->b);
	}
	while (c++ < C_ARGS)
		*o++ = '\t';
	return o;
}

/*
 * A lean stream's row the tree keeps nothing of (tree_nodes_thin): a
 * category but no corr, ext, seq, stream or device column.
 */
static int row_thin(const struct cat_event_out *w, const char *text)
{
	const struct span *ph = &w->span[C_PH], *cat = &w->span[C_CAT];

	if (!w->lean || !(w->have >> C_CAT & 1) ||
	    (w->have & ((UINT32_C(1) << (C_DEVICE + 1)) - (UINT32_C(1) << C_CORR))))
		return 0;
	/* the text between the quotes; a ph that is not a string is none */
	return tree_nodes_thin(w->have >> C_PH & 1 ? text + ph->b + 1 : "",
			       w->have >> C_PH & 1 ? ph->e - ph->b - 2 : 0,
			       text + cat->b + 1, cat->e - cat->b - 2, 0);
}

/* Its "#dropped" line: the first nine columns. */
static char *put_thin(char *o, const struct cat_event_out *w, const char *text)
{
	for (int c = C_PID; c <= C_DUR; c++) {
		*o++ = '\t';
		if (w->have >> c & 1)
			o = put_bytes(o, text + w->span[c].b, w->span[c].e - w->span[c].b);
	}
	*o++ = '\n';
	return o;
}

/* The row of text without escapes by plain stores: 0, or -1 when it may not fit. */
static int row_raw(struct cat_event_out *w, unsigned src, uint64_t uid, const char *text,
		   size_t len)
{
	int thin = row_thin(w, text);
	char *o = outbuf_room(w->ob, st_add(len, ROW_EXTRA + (thin ? 9 : 0)));

	if (!o)
		return -1;
	if (thin) {
		tl_memcpy(o, "#dropped\t", 9);
		o += 9;
	}
	o = put_lead(o, w, uid, src);
	for (int c = C_PH; c <= C_NAME; c++) {	/* the text between the quotes */
		*o++ = '\t';
		if (w->have >> c & 1)
			o = put_bytes(o, text + w->span[c].b + 1, w->span[c].e - w->span[c].b - 2);
	}
	if (thin) {
		outbuf_wrote(w->ob, put_thin(o, w, text));
		return 0;
	}
	o = put_scalars(o, w, text);
	*o++ = '\t';
	if (w->have >> C_ARGS & 1)
		o = put_spans(o, text, w->rest_a, w->na);
	*o++ = '\t';
	if (w->ne)
		o = put_spans(o, text, w->rest_e, w->ne);
	*o++ = '\n';
	outbuf_wrote(w->ob, o);
	return 0;
}

void cat_event_row(struct cat_event_out *w, unsigned src, uint64_t uid,
	       const struct json *j, struct cat_number *cn)
{
	/* escaped keys are checked as written, not decoded as split has them */
	if (cn && (w->ndjson || j->escapes))
		cat_number_check(cn, j, uid);
	if (w->ndjson) {
		row_ndjson(w, src, uid, j);
		return;
	}
	split(w, j, j->escapes ? NULL : cn, uid);
	if (!j->escapes && row_raw(w, src, uid, j->text, j->len) == 0)
		return;
	outbuf_u64(w->ob, uid);
	outbuf_putc(w->ob, '\t');
	outbuf_u64(w->ob, src);
	for (int c = C_PH; c < NCOLS; c++) {
		outbuf_putc(w->ob, '\t');
		put_col(w, c, j->text, j->escapes);
	}
	outbuf_putc(w->ob, '\n');
}

/*
 * cat_event_row_text: the row straight from the event's compact text, in
 * one walk, without tokens: members placed as split()
 * places them, then written by row_raw().
 */

/* Whether the text at t starts with the guess's "KEY": (32 bytes readable). */
static inline int guess_holds(const char *t, const struct key_guess *g)
{
#ifdef __SSE2__
	uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_loadu_si128((const __m128i *)t), _mm_loadu_si128((const __m128i *)g->pat)));

	if (g->plen > 16)
		eq |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(t + 16)),
			_mm_loadu_si128((const __m128i *)(g->pat + 16)))) << 16;
	return (eq & g->mask) == g->mask;
#else
	return !memcmp(t, g->pat, g->plen);
#endif
}

/*
 * walk_key without a guess: the key found by its closing quote and the
 * table, and made the guess g of the state it came in.
 */
static int walk_key_found(const char *text, size_t len, size_t *pp, const struct key *tab,
			  const signed char *slots, struct key_guess *g, unsigned *state,
			  const struct key **key)
{
	size_t p = *pp, n, q;
	long e;

	if (text[p] != '"' || (e = json_compact_quote_next(text, len, p + 1)) < 0)
		return -1;
	n = (size_t)e - p - 1;
	*key = key_find(text + p + 1, n, tab, slots);
	q = (size_t)e + 1;
	if (q + 1 >= len || text[q] != ':')
		return -1;
	*state = *key ? 1 + (unsigned)(*key - tab) : 1 + GUESS_TAB + HASH(text + p + 1, n);
	if (n + 3 <= sizeof(g->pat)) {
		tl_memcpy(g->pat, text + p, sizeof(g->pat));
		g->plen = (unsigned char)(n + 3);
		g->mask = n + 3 == 32 ? UINT32_MAX : (UINT32_C(1) << (n + 3)) - 1;
		g->state = (unsigned char)*state;
		g->key = *key;
	}
	*pp = q + 1;
	return 0;
}

/*
 * The key whose opening quote is at text[*pp], and the colon after it:
 * *key its entry in the table or NULL, *pp moved to the value, *state to
 * the key's (key_guess); -1 where the tokeniser would refuse.  The text
 * has no backslash, so "KEY": where the guess has it is that key.  Inline
 * in the walk: a call a member cost what the guess saves.
 */
static inline __attribute__((always_inline)) int
walk_key(const char *text, size_t len, size_t *pp, const struct key *tab,
	 const signed char *slots, struct key_guess *guess, unsigned *state,
	 const struct key **key)
{
	struct key_guess *g = &guess[*state];
	size_t p = *pp;

	/* the text's JSON_TEXT_SLACK covers the 32 bytes read past p */
	if (g->plen && p + g->plen < len && guess_holds(text + p, g)) {
		*key = g->key;
		*state = g->state;
		*pp = p + g->plen;
		return 0;
	}
	return walk_key_found(text, len, pp, tab, slots, g, state, key);
}

/*
 * After a member ending at text[p]: the next member's start (1), the end
 * of the object after its '}' (0), or -1.
 */
static inline int walk_next(const char *text, size_t len, size_t *pp)
{
	size_t p = *pp;

	if (p >= len)
		return -1;
	if (text[p] == ',') {
		*pp = p + 1;
		return p + 1 < len ? 1 : -1;
	}
	if (text[p] != '}')
		return -1;
	*pp = p + 1;
	return 0;
}

/* The args object at text[p] (its '{'): the end after its '}', or 0. */
static size_t walk_args(struct cat_event_out *w, const char *text, size_t len, size_t p)
{
	const struct key *key;
	size_t kb, e;
	unsigned state = 0;
	int r;

	if (++p >= len)
		return 0;
	if (text[p] == '}')
		return p + 1;
	do {
		kb = p;
		if (walk_key(text, len, &p, arg_keys, arg_slots, w->guess_a, &state, &key) < 0 ||
		    (e = json_compact_value_end(text, len, p, 2)) == 0)
			return 0;
		place(w, text, key, kb, p, e, &w->rest_a, &w->na, &w->a_alloc);
		p = e;
	} while ((r = walk_next(text, len, &p)) > 0);
	return r < 0 ? 0 : p;
}

/* The event's members into spans: 0, or -1 where the tokeniser would refuse. */
static int walk_event(struct cat_event_out *w, const char *text, size_t len)
{
	const struct key *key;
	size_t p = 1, kb, e;
	unsigned state = 0;
	int r;

	w->have = 0;
	w->na = w->ne = 0;
	w->nnum = 0;
	if (len < 2 || len >= (size_t)1 << 31 || text[0] != '{')
		return -1;
	if (text[1] == '}')
		return len == 2 ? 0 : -1;
	do {
		kb = p;
		if (walk_key(text, len, &p, event_keys, event_slots, w->guess_e, &state, &key) < 0)
			return -1;
		if (key && key->col == C_ARGS && !(w->have >> C_ARGS & 1) && text[p] == '{') {
			if ((e = walk_args(w, text, len, p)) == 0)
				return -1;
			w->have |= (uint32_t)1 << C_ARGS;
			p = e;
			continue;
		}
		if ((e = json_compact_value_end(text, len, p, 1)) == 0)
			return -1;
		if (key && (key->col == C_TS || key->col == C_DUR) &&
		    text_takes(text, p, e, T_NUMBER)) {
			if (w->nnum == (int)(sizeof(w->num) / sizeof(*w->num)))
				return -1;	/* the tokens' way has no such limit */
			w->num[w->nnum].b = (uint32_t)p;
			w->num[w->nnum].e = (uint32_t)e;
			w->num[w->nnum++].is_dur = key->col == C_DUR;
		}
		place(w, text, key, kb, p, e, &w->rest_e, &w->ne, &w->e_alloc);
		p = e;
	} while ((r = walk_next(text, len, &p)) > 0);
	return r < 0 || p != len ? -1 : 0;
}

int cat_event_row_text(struct cat_event_out *w, unsigned src, uint64_t uid, const char *text,
		       size_t len, struct cat_number *cn)
{
	if (w->ndjson || walk_event(w, text, len) < 0 ||
	    row_raw(w, src, uid, text, len) < 0)
		return -1;
	for (int i = 0; cn && i < w->nnum; i++)
		cat_number_value(cn, uid, w->num[i].is_dur, text + w->num[i].b,
				 w->num[i].e - w->num[i].b);
	return 0;
}
