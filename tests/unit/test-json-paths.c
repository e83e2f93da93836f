/*
 * json.c's two tokenisers give the same answers: the one-pass tokeniser
 * for compact text and jsmn with the grammar check (TL_JSON=jsmn).  For
 * every value (hand-written edge cases, each event of the trace files
 * named on the command line, and seeded random mutations of them): both
 * accept or both refuse, accepted values get byte-identical tokens, and a
 * refusal gets the same message at the same offset.  And for values
 * without a backslash or control byte, tl-cat's two ways to a row agree:
 * cat_event_row_text, from the text, writes the bytes cat_event_row writes
 * from the tokens, with the same ts/dur findings, or refuses (writing nothing)
 * where the tokeniser refuses; it refuses no object of the traces.
 *
 * usage: test-json-paths [TRACE.json...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_event.h"
#include "cat_number.h"
#include "json.h"
#include "json_scan.h"
#include "outbuf.h"
#include "tap.h"
#include "xorshift.h"

static struct json fast, slow;
static unsigned long nvalues, ndiff, nplain;
/* rows: made from the text; refused where the tokens made one (not
 * counting mutations, which may add blanks the one-pass tokeniser refuses) */
static unsigned long nrows, nrefused;
static int mutating;
static struct outbuf *ob_tok, *ob_text;
static struct cat_event_out *w_tok, *w_text;


static void differ(const char *how, const char *t, size_t n)
{
	if (ndiff++ < 10)
		printf("# %s: %.*s\n", how, (int)(n > 200 ? 200 : n), t);
}

/* The two paths' answers a (fast) and b (slow) for what, on t[0..n). */
static void agree(int a, int b, const char *what, const char *t, size_t n)
{
	char how[96];

	if (a != b)
		snprintf(how, sizeof(how), "%s accepts on one path only", what);
	else if (a < 0 && (fast.err_off != slow.err_off || strcmp(fast.err_msg, slow.err_msg)))
		snprintf(how, sizeof(how), "%s: another message or offset", what);
	else if (a == 0 && (fast.ntok != slow.ntok ||
			    memcmp(fast.tok, slow.tok, fast.ntok * sizeof(*fast.tok))))
		snprintf(how, sizeof(how), "%s: other tokens", what);
	else
		return;
	differ(how, t, n);
}

/*
 * tl-cat's row of the object t[0..n) (tokens: fast holds its tokens) and
 * from the text: the same bytes and number findings,
 * or a refusal with nothing written where the tokens have no row.
 */
static void compare_rows(const char *t, size_t n, int tokens)
{
	struct cat_number cn_tok = { 0 }, cn_text = { 0 };
	int r;

	if (n > 16384)	/* a row stays in the buffer, never flushed */
		return;
	ob_tok->len = ob_text->len = 0;
	r = cat_event_row_text(w_text, 3, nvalues, t, n, &cn_text);
	if (r < 0 && ob_text->len)
		differ("cat_event_row_text refused after writing", t, n);
	if (r == 0 && !tokens)
		differ("cat_event_row_text took what the tokeniser refuses", t, n);
	if (!tokens || r < 0) {
		nrefused += tokens && !mutating;
		return;
	}
	nrows++;
	cat_event_row(w_tok, 3, nvalues, &fast, &cn_tok);
	if (ob_tok->len != ob_text->len || memcmp(ob_tok->buf, ob_text->buf, ob_tok->len))
		differ("cat_event_row_text: another row", t, n);
	if (memcmp(&cn_tok, &cn_text, sizeof(cn_tok)))
		differ("cat_event_row_text: other ts/dur findings", t, n);
}

/*
 * Text without a backslash or a control byte, as json_scan hands tl-cat
 * most events: its row from the text, against the tokens' row.
 */
static void compare_plain(const char *t, size_t n)
{
	int a, b;

	for (size_t i = 0; i < n; i++)
		if (t[i] == '\\' || (unsigned char)t[i] < 0x20)
			return;
	nplain++;
	a = json_parse_compact(&fast, t, n, 0);
	b = json_parse_compact(&slow, t, n, 0);
	agree(a, b, "json_parse_compact, no backslash", t, n);
	compare_rows(t, n, a == 0 && fast.tok[0].type == JSON_OBJECT);
}

/*
 * Compare both paths on t[0..n), t NUL-terminated: a copy with the
 * JSON_TEXT_SLACK bytes after it that json.h asks of a text, as zeros or
 * (every other call) as digits, which no reader may take for the text's.
 */
static void compare(const char *t0, size_t n, int escapes)
{
	static char *t;
	static size_t cap;
	static unsigned calls;
	int a, b;

	if (cap < n + 1 + JSON_TEXT_SLACK) {
		cap = n + 1 + JSON_TEXT_SLACK;
		t = realloc(t, cap);
		if (!t)
			abort();
	}
	memcpy(t, t0, n);
	t[n] = '\0';
	memset(t + n + 1, calls++ % 2 ? '7' : 0, JSON_TEXT_SLACK);

	nvalues++;
	a = json_parse(&fast, t, n);
	b = json_parse(&slow, t, n);
	agree(a, b, "json_parse", t, n);
	a = json_parse_compact(&fast, t, n, escapes);
	b = json_parse_compact(&slow, t, n, escapes);
	agree(a, b, "json_parse_compact", t, n);
	compare_plain(t, n);
}

/* A few random edits (replace, insert, delete a byte) of t, compared. */
static void mutate(const char *t, size_t n, char *m)
{
	static const char pool[] = "{}[]\",:\\ 0123456789-+.eEtrufalsnu\x01\x7f\xc3";

	for (int k = 0; k < 8; k++) {
		size_t len = n;
		memcpy(m, t, n);
		for (int e = 1 + (int)rnd(3); e > 0 && len > 1; e--) {
			size_t at = rnd((unsigned)len);
			char c = pool[rnd(sizeof(pool) - 1)];
			switch (rnd(3)) {
			case 0: m[at] = c; break;
			case 1: memmove(m + at + 1, m + at, len - at); m[at] = c; len++; break;
			default: memmove(m + at, m + at + 1, len - at - 1); len--; break;
			}
		}
		m[len] = '\0';
		mutating = 1;
		compare(m, len, 1);
		mutating = 0;
	}
}

static const char *cases[] = {
	"{}", "[]", "{\"a\":{}}", "[[],{}]", "{\"a\":[1,2,{\"b\":null}],\"c\":\"d\"}",
	"[1,-0,0.5,-1.5e+3,1E-2,true,false,null]", "[01]", "[1.]", "[.5]", "[1e]",
	"[-]", "[tru]", "[nulll]", "[1 2]", "[1,]", "{\"a\":1,}", "{\"a\"}", "{\"a\":}",
	"{\"a\" :1}", "{1:2}", "{\"a\":1 }", "[\"a\\\"b\"]", "[\"\\u00e9\\ud83d\\ude00\"]",
	"[\"\\ud83d\"]", "[\"\\x\"]", "[\"\\u12\"]", "[\"a\x01\"]", "[\"a", "{\"a\":[1,2}",
	"[1]]", "[1]x", "{\"a\":1}{", "\"s\"", "1", " {} ", "{\"\":\"\"}", "[[[[[[[[[[1]]]]]]]]]]",
	/* events, for tl-cat's two ways to a row: repeated, misplaced and
	 * mistyped members of every column, literals, empty and long keys */
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":\"7\",\"ts\":1.5,"
	"\"dur\":2,\"args\":{\"correlation\":5,\"External id\":6,\"stream\":7,\"device\":0,"
	"\"Input Dims\":[[1,2],[]],\"Input type\":[\"float\",\"\"],\"x\":{\"y\":[true,null]}}}",
	"{\"ts\":1,\"ts\":2,\"dur\":-3,\"dur\":\"4\",\"ts\":true,\"ts\":1e400,\"dur\":5}",
	"{\"args\":1,\"args\":{\"stream\":\"7\",\"stream\":8,\"stream\":9},\"args\":{}}",
	"{\"args\":{},\"ph\":\"\",\"ph\":\"i\",\"name\":null,\"name\":[\"n\"],\"id\":{},\"id\":false}",
	"{\"pid\":[],\"pid\":\"\",\"tid\":null,\"\":1,\"Sequence number\":2,\"Concrete Inputs\":3}",
	"{\"args\":{\"Concrete Inputs\":[\"[]\",\"\"],\"Input Strides\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	"[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}",
	"{\"args\":{\"Input Strides\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}",
	"{\"args\":{\"Input Strides\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}",
	"{\"a\":{\"b\":{\"c\":[1,{\"d\":\"e\"}]}},\"args\":{\"a\":{}}}", "{\"ph\":\"X\"}x",
	"{\"ph\":\"X\",}", "{\"ph\":\"X\"", "{\"ph\"}", "{\"ts\":01}", "{\"ts\":1.}",
	"{\"k\":\"\xc3\xa9\"}", "[\"a\x00b\"]", "{\"a\":1:2}", "[\"a\":1]", "{,}", "[,1]",
	"[1,,2]", "{\"a\":1,,\"b\":2}", "[{\"a\":[{\"b\":[{}]}]}]", "[\"\\/\\b\\f\\n\\r\\t\\\\\"]",
	/* integers at the edges of the eight bytes read at once */
	"[0,-0,7,-7,10,-10,1234567,-1234567,12345678,-12345678,123456789]", "[00]", "[-01]",
	"[-00]", "{\"a\":1234567}", "{\"a\":12345678}", "[1234567a]", "[1234567.]", "[12e3]",
	"[1x]", "[-x]", "[--1]", "[1-]", "[0x10]", "{\"pid\":1234567,\"tid\":-1}",
	/* ts and dur at the edges of what tl-cat tells without cat_number */
	"{\"ts\":9007199254740992,\"dur\":9007199254740993}",
	"{\"ts\":123456789012345,\"dur\":1234567890123456}",
	"{\"ts\":1.5E3,\"dur\":2e-3}", "{\"dur\":-0.0,\"ts\":-1}", "{\"dur\":-0,\"ts\":1e400}",
	"{\"ts\":12345678901234567890123456789.12,\"dur\":123456789012345678901234567890123}",
};

/* The events of a trace file, each compared and every seventh mutated. */
static void trace(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *doc, *m;
	long size;
	struct json_scan s;
	struct json_scan_item it;
	unsigned long k = 0;
	int r;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		tap_ok(0, path);
		return;
	}
	doc = malloc((size_t)size + 1);
	m = malloc((size_t)size + 4);
	if (fread(doc, 1, (size_t)size, f) != (size_t)size)
		size = 0;
	fclose(f);
	json_scan_init(&s);
	json_scan_set_buf(&s, doc, (size_t)size, 0);
	while ((r = json_scan_next(&s, &it)) > JSON_SCAN_MORE && r != JSON_SCAN_DONE) {
		compare(it.ctext, it.clen, it.escapes);
		if (++k % 7 == 0)
			mutate(it.ctext, it.clen, m);
	}
	json_scan_release(&s);
	free(doc);
	free(m);
	printf("# %s: %lu elements\n", path, k);
	tap_str(r == JSON_SCAN_DONE && k > 0 ? "done" : "stopped", "done",
		"the trace scans to its end");
}

int main(int argc, char **argv)
{
	char m[4096];
	unsigned long before;

	json_init(&fast);
	json_init(&slow);
	ob_tok = outbuf_open_fd(-1);	/* never flushed: rows are compared in place */
	ob_text = outbuf_open_fd(-1);
	w_tok = cat_event_out_new(ob_tok, 0);
	w_text = cat_event_out_new(ob_text, 0);
	fast.fast = 1;
	slow.fast = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		compare(cases[i], strlen(cases[i]), 1);
		for (int k = 0; k < 40; k++)
			mutate(cases[i], strlen(cases[i]), m);
	}
	/* a value nested deeper than the one-pass tokeniser goes */
	memset(m, '[', 100);
	memset(m + 100, ']', 100);
	m[200] = '\0';
	compare(m, 200, 0);
	tap_ok(ndiff == 0, "edge cases and their mutations: the same on both paths");
	for (int a = 1; a < argc; a++) {
		unsigned long refused = nrefused;
		before = ndiff;
		trace(argv[a]);
		tap_ok(ndiff == before, "trace events and their mutations: the same on both paths");
		tap_ok(nrefused == refused, "cat_event_row_text refuses no event of the trace");
	}
	printf("# %lu values compared (%lu also as rows from the text), %lu differences\n", nvalues, nplain, ndiff);
	printf("# %lu rows compared, %lu refused by cat_event_row_text\n", nrows, nrefused);
	tap_ok(nrows > 0, "rows from text and from tokens were compared");
	cat_event_out_free(w_tok);
	cat_event_out_free(w_text);
	ob_tok->len = ob_text->len = 0;
	outbuf_close(ob_tok);
	outbuf_close(ob_text);
	json_release(&fast);
	json_release(&slow);
	return tap_done();
}
