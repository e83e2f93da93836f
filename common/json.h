/*
 * json: one JSON value at a time, tokenised as jsmn does (strict mode,
 * parent links; jsmn's own walk up the parents at every closing bracket
 * made deep nesting quadratic, so json.c keeps a stack and is linear) and
 * then checked against the full JSON grammar, which the tokeniser alone
 * does not enforce (it accepts "1.2.3", "tru", "{"a" 1}" and "[1,]").
 * Tokens and checks are linear in the nesting depth and do not recurse.
 *
 * HowTo:
 *
 *	struct json j;
 *	json_init(&j);
 *	if (json_parse(&j, text, len) < 0)
 *		report j.err_msg at byte j.err_off of text;
 *	for (i = 1; i < j.ntok; i = json_skip(&j, i + 1)) ...  walk members
 *	json_compact(&j, i, ob, 1);                            write a value
 *	json_release(&j);
 *
 * json_parse first copies the value to j.text in compact form (below) and
 * tokenises that: the tokeniser then never walks white space (a third of an
 * indented trace), and a value's compact JSON is a plain copy of its text.
 * Tokens index j.text, in document order (pre-order).  For a string
 * token, start and end delimit the text between the quotes (escapes not
 * decoded); for other tokens the value's whole text.  An object's size is
 * its number of keys, an array's its number of elements; a key's only
 * child is its value.  Buffers are reused between calls.
 *
 * Compact text (every trace event) is tokenised in one pass that builds
 * jsmn's tokens and checks the grammar at once; anything it does not
 * accept goes through jsmn and the grammar check, which find and word the
 * error, so messages and offsets do not depend on the path.  TL_JSON=jsmn
 * in the environment (read by json_init) takes the jsmn path always: the
 * tests compare the two.
 *
 * Compact JSON (tl-stream(5)): the source text with white space outside
 * strings removed; every string and number byte for byte as written.
 */
#ifndef TL_JSON_H
#define TL_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct outbuf;

enum json_type { JSON_UNDEF = 0, JSON_OBJECT = 1, JSON_ARRAY = 2,
		 JSON_STRING = 3, JSON_PRIMITIVE = 4 };

/*
 * The deepest nesting tl reads: an element of traceEvents (or a top-level
 * value) nested deeper is refused by tl-cat ("nested deeper than 1000
 * levels"), and json_value_parse refuses deeper args.  Python's json, and
 * so TraceLens, cannot load a trace nested this deep at all (RecursionError
 * near 1000 levels); SQLite's JSON has the same limit.  No trace comes near
 * it: args nest three or four levels.
 */
#define JSON_MAX_DEPTH 1000

/*
 * jsmn's jsmntok_t with JSMN_PARENT_LINKS, and for an object or array the
 * index of the first token after its last descendant once it is closed
 * (0 until then), so that json_skip jumps over it in one step.
 */
struct json_tok {
	int type;
	int start;
	int end;
	int size;
	int parent;
	int next;
};

struct json {
	const char *text;	/* the compact text the tokens index */
	size_t len;
	int escapes;		/* 0: text holds no backslash at all */
	char *buf;		/* json_parse's compact copy */
	size_t buf_alloc;
	struct json_tok *tok;
	unsigned ntok;
	size_t alloc;
	/* scratch stack for the grammar check: open containers */
	struct json_open { int tok, n; } *open;
	size_t open_alloc;
	/* set when json_parse fails: offset into the caller's text, reason */
	size_t err_off;
	const char *err_msg;
	/* 0: always tokenise with jsmn (TL_JSON=jsmn), else compact text
	 * goes through the one-pass tokeniser first (json.c) */
	int fast;
};

void json_init(struct json *j);
void json_release(struct json *j);

/*
 * Tokenise and check one complete JSON value (white space around it is
 * allowed).  Returns 0, or -1 with err_off/err_msg set.  len must be below
 * 2 GiB (tokens count in int).
 */
int json_parse(struct json *j, const char *text, size_t len);
/* The same for text whose strings were already checked for control bytes
 * (by json_scan): skips that one check. */
int json_parse_checked(struct json *j, const char *text, size_t len);
/*
 * Readable bytes after the end of every text the tokens index (json_scan's
 * compact copies have them, and json_parse's own copy): a reader may copy a
 * token's bytes 16 at a time, past its end, without a test per byte.
 */
#define JSON_TEXT_SLACK 32

/*
 * Tokenise text that is compact already (json_scan's copy), without copying:
 * j.text points to it, so it must outlive the use of j, and JSON_TEXT_SLACK
 * bytes after text[len] must be readable.  On failure, parse
 * the original text with json_parse to learn where it goes wrong.
 * escapes is 0 when the caller knows text holds no backslash (json_scan
 * does): decoding and TSV escaping are then skipped.
 */
int json_parse_compact(struct json *j, const char *text, size_t len,
		       int escapes);
/*
 * Walking compact text that holds no backslash, without tokens (tl-cat's
 * rows, cat_event_row_text).  Each takes only what json_parse_compact's
 * one-pass tokeniser takes at that place, nesting aside (to
 * JSON_MAX_DEPTH, where jsmn takes over from it), and refuses (-1, 0)
 * wherever it would not, so that a caller refused can tokenise the text
 * as before.
 *
 * json_compact_quote_next: the offset of the first quote at or after p
 * (the end of a string whose text starts at p, the text having no
 * backslash), or -1 when none is left before len.  16 bytes at a time
 * with SSE2, reading into the slack: json_scan once handed over the
 * quotes as bits, packed from its blocks' masks, and making them cost
 * more than this search.
 */
static inline long json_compact_quote_next(const char *text, size_t len, size_t p)
{
#ifdef __SSE2__
	while (p < len) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(text + p)),
			_mm_set1_epi8('"')));

		if (m) {
			p += (size_t)__builtin_ctz(m);
			return p < len ? (long)p : -1;
		}
		p += 16;
	}
	return -1;
#else
	const char *q = p < len ? memchr(text + p, '"', len - p) : NULL;

	return q ? (long)(q - text) : -1;
#endif
}

/*
 * The end (one past it) of the literal or number at text[p] when , ] or }
 * follows it before len; else 0.
 */
size_t json_compact_prim_end(const char *text, size_t len, size_t p);
/*
 * The same for a number (text[p] a digit) that json_compact_int_end did
 * not take: a timestamp, most of them.
 */
size_t json_compact_number_end(const char *text, size_t len, size_t p);

/*
 * The end of the integer of one to seven digits at text[i] (its first
 * digit, past any minus), no leading zero, when , ] or } follows it (the
 * caller checks that this is before len); else 0, and the caller reads the
 * number the long way.  Most numbers are such integers (ids, pids,
 * counts): their digits a run of the eight bytes from the first (the
 * text's slack makes them readable), the first byte that is not a digit
 * being the lowest with its top bit set in (t + 0x76) | t.  Inline: the
 * call to find a number's end cost a fifth of the finding.
 */
static inline size_t json_compact_int_end(const char *text, size_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x, t, stop;
	size_t n, e;

	memcpy(&x, text + i, 8);
	t = x ^ 0x3030303030303030u;
	stop = ((t + 0x7676767676767676u) | t) & 0x8080808080808080u;
	if (!stop)
		return 0;
	n = (size_t)__builtin_ctzll(stop) / 8;
	e = i + n;
	if (n && (text[i] != '0' || n == 1) &&
	    (text[e] == ',' || text[e] == '}' || text[e] == ']'))
		return e;
#else
	(void)text;
	(void)i;
#endif
	return 0;
}

/*
 * json_compact_prim_end's answer, for most numbers without its call: the
 * end of the number or literal at text[p], or 0.
 */
static inline size_t json_compact_scalar_end(const char *text, size_t len, size_t p)
{
	size_t e;

	if (text[p] >= '0' && text[p] <= '9') {
		if ((e = json_compact_int_end(text, p)) != 0)
			return e < len ? e : 0;
		return json_compact_number_end(text, len, p);
	}
	return json_compact_prim_end(text, len, p);
}

/* json_compact_value_end's way for an object or array. */
size_t json_compact_container_end(const char *text, size_t len, size_t p, unsigned depth);

/*
 * The end (one past it) of the value that starts at text[p], inside depth
 * open containers: a string, a literal or number followed by , ] or }, or
 * a whole object or array; 0 where the tokeniser would refuse it.  What
 * follows a string or container is the caller's to check.  Inline: most
 * values are strings and numbers, and the container walk's frame cost as
 * much as finding their ends.
 */
static inline __attribute__((always_inline)) size_t
json_compact_value_end(const char *text, size_t len, size_t p, unsigned depth)
{
	long e;

	if (text[p] == '"') {
		e = json_compact_quote_next(text, len, p + 1);
		return e < 0 ? 0 : (size_t)e + 1;
	}
	if (text[p] == '{' || text[p] == '[')
		return json_compact_container_end(text, len, p, depth);
	return json_compact_scalar_end(text, len, p);
}

/* json_skip's walk for a container without its next index (not closed). */
unsigned json_skip_open(const struct json *j, unsigned i);

/*
 * Index of the first token after token i and all its descendants (inline:
 * every reader of an event steps through its members with it).
 */
static inline unsigned json_skip(const struct json *j, unsigned i)
{
	const struct json_tok *t = &j->tok[i];

	if (t->type == JSON_STRING || t->type == JSON_PRIMITIVE)
		return i + 1;
	if (t->next > 0)	/* a closed container */
		return (unsigned)t->next;
	return json_skip_open(j, i);
}

/*
 * Write token i's value as compact JSON.  With tsv set, backslashes are
 * doubled as tl-stream(5) TSV fields need (compact JSON never holds a raw
 * tab, newline, carriage return or NUL: the checks reject them in strings).
 */
void json_compact(const struct json *j, unsigned i, struct outbuf *ob, int tsv);
/* The same for compact text s[0..n) itself (a span of a token's text). */
void json_put_text(struct outbuf *ob, const char *s, size_t n, int tsv);

/*
 * Check the escapes of a JSON string's inner text s[0..n) as Python's
 * json does, and more: a backslash starts one of \" \\ \/ \b \f \n \r \t or
 * \u and four hex digits, and surrogates come in pairs (high then low).
 * Returns -1 when every escape is valid, else the offset in s of the
 * first bad one.  Every path that reads a JSON string checks it so.
 */
long json_string_check(const char *s, size_t n);

/*
 * Decode the escapes of a JSON string's inner text s[0..n) into out, which
 * must have room for n bytes (decoding never grows the text).  \uXXXX
 * becomes UTF-8, surrogate pairs one 4-byte character; \u0000 alone stays
 * as written (the six characters), since a NUL byte would end the text
 * wherever it is used as a C string.  Returns the
 * decoded length.  The text should have passed json_string_check; on text
 * that did not, it still reads only s[0..n) and writes at most n bytes
 * (a bad \u escape is kept as its bytes).
 */
size_t json_decode_string(const char *s, size_t n, char *out);

/* Is s[0..n) a JSON number?  A JSON literal (number, true, false, null)? */
int json_number_ok(const char *s, size_t n);
int json_literal_ok(const char *s, size_t n);

/*
 * Where token t's compact JSON text begins and ends: a string's with its
 * quotes (json_compact's extent; tl-cat's rows copy such spans).
 */
static inline size_t json_tok_begin(const struct json_tok *t)
{
	return (size_t)t->start - (t->type == JSON_STRING);
}

static inline size_t json_tok_finish(const struct json_tok *t)
{
	return (size_t)t->end + (t->type == JSON_STRING);
}

/*
 * Is token i's text equal to the n-byte string key (raw text, no escapes)?
 * Inline: tl-cat asks it of every member of every event, and with a
 * literal key the compiler compares a few bytes instead of calling memcmp.
 */
static inline int json_tok_eq(const struct json *j, unsigned i, const char *key, size_t n)
{
	const struct json_tok *t = &j->tok[i];
	return (size_t)(t->end - t->start) == n && !memcmp(j->text + t->start, key, n);
}

/* Is the token a number (a primitive that is not true/false/null)? */
int json_tok_is_number(const struct json *j, unsigned i);

#endif
