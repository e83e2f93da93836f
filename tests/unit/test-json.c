/*
 * Unit tests for tl-cat's common/ pieces: the push scanner (json_scan), the
 * jsmn wrapper (json: grammar, numbers, escapes, compact text) and the
 * TSV escaping of event rows.  Expectations are hand-derived from the
 * JSON grammar (RFC 8259) and tl-stream(5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cat_event.h"
#include "cat_number.h"
#include "json_scan.h"
#include "json.h"
#include "outbuf.h"
#include "tap.h"

/* Feed doc to a scanner in pieces of step bytes; describe the items. */
static void scan_pieces(const char *doc, size_t step, char *out, size_t cap)
{
	size_t len = strlen(doc), fed = 0, have = 0, o = 0;
	char *win = malloc(len + 1);
	struct json_scan s;
	struct json_scan_item it;

	json_scan_init(&s);
	out[0] = '\0';
	for (;;) {
		size_t k = fed + step > len ? len - fed : step;
		int r;
		memcpy(win + have, doc + fed, k);
		have += k;
		fed += k;
		json_scan_set_buf(&s, win, have, fed < len);
		while ((r = json_scan_next(&s, &it)) > JSON_SCAN_MORE && r != JSON_SCAN_DONE)
			o += (size_t)snprintf(out + o, cap - o, "%c%s|%.*s|%.*s@%llu;",
				 r == JSON_SCAN_EVENT ? 'E' : 'T', r == JSON_SCAN_TOP ? it.key : "",
				 (int)it.len, it.text, (int)it.clen, it.ctext,
				 (unsigned long long)it.off);
		if (r == JSON_SCAN_DONE) {
			snprintf(out + o, cap - o, "DONE");
			break;
		}
		if (r == JSON_SCAN_ERROR) {
			snprintf(out + o, cap - o, "ERR %s @%llu", s.err_msg,
				 (unsigned long long)s.err_off);
			break;
		}
		{
			size_t used = json_scan_consumed(&s);
			memmove(win, win + used, have - used);
			have -= used;
		}
		if (fed == len && step) {
			/* the partial=0 call above must have ended it */
			snprintf(out + o, cap - o, "HANG");
			break;
		}
	}
	json_scan_release(&s);
	free(win);
}

static void scan_case(const char *doc, const char *want, const char *what)
{
	char whole[2048], piece[2048];
	int same = 1;

	scan_pieces(doc, strlen(doc) + 1, whole, sizeof(whole));
	tap_str(whole, want, what);
	for (size_t step = 1; step <= strlen(doc); step++) {
		scan_pieces(doc, step, piece, sizeof(piece));
		if (strcmp(piece, whole)) {
			printf("#   step %zu: %s\n", step, piece);
			same = 0;
			break;
		}
	}
	tap_ok(same, "same items whatever the piece size");
}

static void test_jscan(void)
{
	scan_case("{\"a\": 1, \"traceEvents\": [ {\"x\": [1, 2]} ,{}], \"b\":\"s\"}",
		  "Ta|1|1@6;E|{\"x\": [1, 2]}|{\"x\":[1,2]}@26;E|{}|{}@41;"
		  "Tb|\"s\"|\"s\"@50;DONE",
		  "object form: top keys before and after, events");
	scan_case("[{\"ph\":\"X\"},\n {\"s\":\"}]\\\"{\"}]\n",
		  "E|{\"ph\":\"X\"}|{\"ph\":\"X\"}@1;E|{\"s\":\"}]\\\"{\"}|{\"s\":\"}]\\\"{\"}@14;DONE",
		  "array form; brackets and escaped quotes inside strings");
	scan_case("{\"traceEvents\":[5, \"x\", [1 ,2]]}",
		  "E|5|5@16;E|\"x\"|\"x\"@19;E|[1 ,2]|[1,2]@24;DONE",
		  "non-object elements are handed out (the caller rejects them)");
	scan_case("{\"trace\\u0045vents\":[{}]}", "E|{}|{}@21;DONE",
		  "keys are compared decoded");
	scan_case("[[1 2]]", "E|[1 2]|[1 2]@1;DONE",
		  "a blank between primitives is kept so the copy stays invalid");
	scan_case("", "ERR empty input @0", "empty input");
	scan_case("  \n", "ERR empty input @3", "only white space");
	scan_case("hello", "ERR not a JSON object or array @0", "not JSON");
	scan_case("{\"traceEvents\":[{\"a\":1}", "E|{\"a\":1}|{\"a\":1}@16;ERR truncated JSON: unexpected end of input @23",
		  "truncated after an event");
	scan_case("{\"traceEvents\":[{\"a\":1", "ERR truncated JSON: unexpected end of input @22",
		  "truncated inside an event");
	scan_case("{\"a\":1}", "Ta|1|1@5;ERR no traceEvents array in the top-level object @6",
		  "object without traceEvents");
	scan_case("{\"traceEvents\":3}", "ERR traceEvents is not an array @15",
		  "traceEvents not an array");
	scan_case("[{}] x", "E|{}|{}@1;ERR trailing data after the JSON document @5",
		  "trailing data");
	scan_case("[{}, ]", "E|{}|{}@1;ERR expected an event after ',' @5", "trailing comma");
	scan_case("[{]}]", "ERR unmatched ']' @2", "mismatched brackets");
	scan_case("{\"traceEvents\":[],\"traceEvents\":[]}",
		  "ERR traceEvents appears twice @32", "traceEvents twice");
}

static void test_ctl(void)
{
	struct json_scan s;
	struct json_scan_item it;
	const char doc[] = "[{\"a\":\"x\ty\"},{}]";
	int r;

	json_scan_init(&s);
	json_scan_set_buf(&s, doc, strlen(doc), 0);
	r = json_scan_next(&s, &it);
	tap_ok(r == JSON_SCAN_EVENT && it.bad_msg && it.bad_off == 8,
	       "raw control byte in a string: element marked bad at its offset");
	r = json_scan_next(&s, &it);
	tap_ok(r == JSON_SCAN_EVENT && !it.bad_msg, "the next element is fine");
	json_scan_release(&s);
}

static int parses(const char *text)
{
	struct json j;
	int r;

	json_init(&j);
	r = json_parse(&j, text, strlen(text));
	json_release(&j);
	return r == 0;
}

static void test_grammar(void)
{
	static const char *good[] = {
		"{}", "[]", "{\"a\":[1,-2.5e+3,0,true,false,null,\"x\"]}",
		" { \"a\" : { \"b\" : [ ] } } ", "[1E5,-0.0,1e-7]", "\"s\"", "12",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	static const char *bad[] = {
		"{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\"}", "{1:2}",
		"[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[tru]", "[nul]", "[1.2.3]",
		"[\"a\" \"b\"]", "{\"a\":1}}", "[\"\\x\"]", "[\"\\u12g4\"]", "[\"a\tb\"]",
		"[1]x", "", "[-]", "{\"a\":1 \"b\":2}", "[[1],,[2]]",
	};
	char what[128];

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		snprintf(what, sizeof(what), "valid: %.60s", good[i]);
		tap_ok(parses(good[i]), what);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(what, sizeof(what), "invalid: %s", bad[i]);
		tap_ok(!parses(bad[i]), what);
	}
}

static void test_numbers(void)
{
	tap_ok(json_number_ok("1419247333894.317", 17), "decimal timestamp");
	tap_ok(json_number_ok("-1.5E-7", 7), "negative exponent form");
	tap_ok(json_number_ok("0", 1) && !json_number_ok("00", 2), "leading zero");
	tap_ok(!json_number_ok("1e+", 3) && !json_number_ok("-", 1), "incomplete");
	tap_ok(json_literal_ok("null", 4) && !json_literal_ok("nulll", 5), "literals");
	tap_ok(!json_literal_ok("NaN", 3) && !json_literal_ok("Infinity", 8),
	       "NaN and Infinity are not JSON");
}

/* Decode into a buffer of exactly strlen(in) bytes: ASan sees any overrun. */
static void decode(const char *in, const char *want, size_t wantlen, const char *what)
{
	size_t len = strlen(in);
	char *out = malloc(len ? len : 1);
	size_t n = json_decode_string(in, len, out);
	tap_ok(n == wantlen && !memcmp(out, want, n), what);
	free(out);
}

static void check(const char *in, long want, const char *what)
{
	long got = json_string_check(in, strlen(in));
	tap_ok(got == want, what);
	if (got != want)
		printf("#   got %ld, want %ld\n", got, want);
}

static void test_escapes(void)
{
	decode("a\\tb\\n\\\\\\/\\\"", "a\tb\n\\/\"", 7, "simple escapes");
	decode("\\u00b5s", "\xc2\xb5s", 3, "\\u00b5 is 2-byte UTF-8");
	decode("\\u20ac", "\xe2\x82\xac", 3, "\\u20ac is 3-byte UTF-8");
	decode("\\ud83d\\ude00", "\xf0\x9f\x98\x80", 4, "surrogate pair is one 4-byte char");
	decode("\\u0000", "\\u0000", 6, "\\u0000 stays as written: a NUL would cut every C string");
	decode("a\\u0000b\\u00e9", "a\\u0000b\xc3\xa9", 10, "\\u0000 inside a name, with other escapes");
	decode("plain", "plain", 5, "no escapes");
	/* invalid text (json_string_check refuses it): still within bounds */
	decode("aaaaaaaaaaaaaaaaaaaaaaa\\u", "aaaaaaaaaaaaaaaaaaaaaaa\\u", 25,
	       "cut-off \\u at the end: kept as bytes, nothing written past n");
	decode("\\ud", "\\ud", 3, "\\u with one hex digit kept as bytes");
	decode("\\uzzzz", "\\uzzzz", 6, "\\uzzzz kept as bytes (no made-up character)");
	decode("x\\", "x\\", 2, "a trailing backslash kept");

	check("plain", -1, "check: no escapes");
	check("a\\tb\\u00e9\\ud83d\\ude00\\/", -1, "check: valid escapes and a pair");
	check("aaaa\\u", 4, "check: cut-off \\u");
	check("\\ud", 0, "check: \\u with one digit");
	check("x\\uzzzz", 1, "check: \\uzzzz");
	check("ab\\u12g4", 2, "check: non-hex digit");
	check("\\q", 0, "check: unknown escape letter");
	check("ab\\", 2, "check: trailing backslash");
	check("\\ud800", 0, "check: lone high surrogate at the end");
	check("\\ud800\\u0041", 0, "check: high surrogate then a non-low escape");
	check("\\ud800x", 0, "check: high surrogate then a plain byte");
	check("a\\udc00", 1, "check: lone low surrogate");
	check("\\ud800\\ud800\\udc00", 0, "check: two highs");
	check("\\uD83D\\uDE00", -1, "check: upper-case hex pair");
}

/* Run f writing to an outbuf on a pipe; return what it wrote. */
static void capture(void (*f)(struct outbuf *, void *), void *arg, char *got, size_t cap)
{
	int fds[2];
	struct outbuf *ob;
	ssize_t n;

	if (pipe(fds))
		abort();
	ob = outbuf_open_fd(fds[1]);
	f(ob, arg);
	outbuf_close(ob);
	close(fds[1]);
	n = read(fds[0], got, cap - 1);
	got[n < 0 ? 0 : n] = '\0';
	close(fds[0]);
}

static void write_row(struct outbuf *ob, void *arg)
{
	struct json j;
	struct cat_event_out *w = cat_event_out_new(ob, 0);
	const char *ev = arg;

	json_init(&j);
	if (json_parse(&j, ev, strlen(ev)) == 0)
		cat_event_row(w, 3, 7, &j, NULL);
	json_release(&j);
	cat_event_out_free(w);
}

static void write_ndjson(struct outbuf *ob, void *arg)
{
	struct json j;
	struct cat_event_out *w = cat_event_out_new(ob, 1);
	const char *ev = arg;

	json_init(&j);
	if (json_parse(&j, ev, strlen(ev)) == 0)
		cat_event_row(w, 0, 1, &j, NULL);
	json_release(&j);
	cat_event_source(w, 2, "a\"b\\c\td");
	cat_event_out_free(w);
}

static void test_rows(void)
{
	char got[1024];

	capture(write_row, "{\"name\": \"a\\tb\\\\c\", \"ph\": \"X\", \"pid\": \"P\\\\1\","
		" \"ts\": 1.5e3, \"args\": {\"k\": \"v\\\"w\", \"correlation\": 9,"
		" \"Input Dims\": [[1, 2]], \"stream\": \"7\"}, \"cat\": \"\", \"bp\": \"e\"}",
		got, sizeof(got));
	tap_str(got, "7\t3\tX\t\ta\\tb\\\\c\t\"P\\\\\\\\1\"\t\t1.5e3\t\t\t9\t\t\t\t\t"
		"[[1,2]]\t\t\t\t{\"k\":\"v\\\\\"w\",\"stream\":\"7\"}\t{\"cat\":\"\",\"bp\":\"e\"}\n",
		"row: decoded name TSV-escaped, JSON columns keep escapes, backslashes doubled");
	capture(write_row, "{\"ph\":\"i\",\"args\":5,\"dur\":\"3\",\"id\":{\"a\":1}}",
		got, sizeof(got));
	tap_str(got, "7\t3\ti\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
		"{\"args\":5,\"dur\":\"3\",\"id\":{\"a\":1}}\n",
		"values of the wrong type stay in extra");
	capture(write_ndjson, "{ \"ph\" : \"X\",\n \"args\": {\"a\": [1, 2.50]} }",
		got, sizeof(got));
	tap_str(got, "{\"uid\":1,\"src\":0,\"ph\":\"X\",\"args\":{\"a\":[1,2.50]}}\n"
		"{\"src\":2,\"source\":\"a\\\"b\\\\c\\u0009d\"}\n",
		"ndjson: members compacted, numbers as written; names JSON-escaped");
}

/* A row and the number check of ev, through the compact (1) or jsmn path. */
struct row_case {
	const char *ev;
	int compact;
	struct cat_number cn;
};

static void write_row_case(struct outbuf *ob, void *arg)
{
	struct row_case *rc = arg;
	struct cat_event_out *w = cat_event_out_new(ob, 0);
	size_t n = strlen(rc->ev);
	char *text = malloc(n + JSON_TEXT_SLACK + 1);
	struct json j;
	int r;

	memcpy(text, rc->ev, n + 1);
	memset(text + n + 1, 'x', JSON_TEXT_SLACK);
	json_init(&j);
	r = rc->compact ? json_parse_compact(&j, text, n, 0) : json_parse(&j, text, n);
	if (r == 0)
		cat_event_row(w, 2, 9, &j, &rc->cn);
	json_release(&j);
	cat_event_out_free(w);
	free(text);
}

/* A random member value for the row test: every type a column may refuse. */
static void row_value(char *o, size_t *n, size_t cap, unsigned *seed)
{
	static const char *const v[] = {
		"\"X\"", "\"\"", "\"gpu_op\"", "12", "-3", "1.5", "1419116104654.576",
		"1e400", "-0.0", "-2.5", "9007199254740993", "true", "null", "{}",
		"{\"a\":1}", "[]", "[[1,2],[3]]", "[\"\",\"4\"]",
	};

	*seed = *seed * 1103515245u + 12345u;
	*n += (size_t)snprintf(o + *n, cap - *n, "%s", v[(*seed >> 16) % (sizeof(v) / sizeof(*v))]);
}

static void row_members(char *o, size_t *n, size_t cap, unsigned *seed, int top)
{
	static const char *const keys[] = {
		"ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "args", "s", "bp",
		"correlation", "External id", "Sequence number", "stream", "device",
		"Input Dims", "Input type", "Input Strides", "Concrete Inputs", "Ev Idx",
		"t", "tsx", "Python id",
	};
	unsigned m;

	*seed = *seed * 1103515245u + 12345u;
	m = (*seed >> 16) % 9;
	o[(*n)++] = '{';
	for (unsigned k = 0; k < m; k++) {
		const char *key;
		if (k)
			o[(*n)++] = ',';
		*seed = *seed * 1103515245u + 12345u;
		key = keys[(*seed >> 16) % (sizeof(keys) / sizeof(*keys))];
		*n += (size_t)snprintf(o + *n, cap - *n, "\"%s\":", key);
		if (top && !strcmp(key, "args") && (*seed >> 20) % 4)
			row_members(o, n, cap, seed, 0);
		else
			row_value(o, n, cap, seed);
	}
	o[(*n)++] = '}';
	o[*n] = '\0';
}

/*
 * Text without a backslash takes cat_event_row's plain-store path (and
 * split's number check); the same text through json_parse takes the
 * general one.  On random events they write the same rows and count the
 * same numbers.
 */
static void test_row_paths(void)
{
	static char ev[4096], fast[8192], slow[8192];
	unsigned seed = 11, differ = 0, checked = 0, nums = 0;

	for (int d = 0; d < 3000; d++) {
		struct row_case a, b;
		size_t n = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.ev = b.ev = ev;
		a.compact = 1;

		row_members(ev, &n, sizeof(ev), &seed, 1);
		capture(write_row_case, &a, fast, sizeof(fast));
		capture(write_row_case, &b, slow, sizeof(slow));
		checked++;
		for (int c = 0; c < CN_CLASSES; c++)
			nums += (unsigned)a.cn.count[c];
		if ((strcmp(fast, slow) || memcmp(&a.cn, &b.cn, sizeof(a.cn))) && differ++ < 3)
			printf("# %s\n# fast %s# slow %s", ev, fast, slow);
	}
	printf("# %u events, %u numbers of note, %u differ\n", checked, nums, differ);
	tap_ok(differ == 0 && checked == 3000 && nums > 100,
	       "rows and number checks: plain-store path = general path on random events");
}

/* A random JSON value, at most depth levels deep. */
static void random_value(char *o, size_t *n, size_t cap, int depth, unsigned *seed)
{
	unsigned r;

	*seed = *seed * 1103515245u + 12345u;
	r = (*seed >> 16) % 6;
	if (*n + 8 >= cap || depth == 0 || r < 2) {
		*n += (size_t)snprintf(o + *n, cap - *n, r & 1 ? "\"s%u\"" : "%u", r);
		return;
	}
	o[(*n)++] = r & 1 ? '{' : '[';
	for (unsigned k = 0; k < r - 1 && *n + 16 < cap; k++) {
		if (k)
			o[(*n)++] = ',';
		if (r & 1)
			*n += (size_t)snprintf(o + *n, cap - *n, "\"k%u\":", k);
		random_value(o, n, cap, depth - 1, seed);
	}
	o[(*n)++] = r & 1 ? '}' : ']';
}

/*
 * json_skip jumps over a closed object or array in one step (its token
 * notes where it ends): on random documents, through the fast tokenizer
 * and, nested past its 32 levels, through jsmn's, every token's skip is
 * the first token not inside it, found here by the offsets.
 */
static void test_skip(void)
{
	static char doc[1 << 16];
	unsigned seed = 7, bad = 0, docs = 0, toks = 0;
	struct json j;

	json_init(&j);
	for (int d = 0; d < 400; d++) {
		size_t n = 0;
		int deep = d % 4 == 3;
		if (deep)	/* 40 levels: past the fast tokenizer's depth */
			for (int k = 0; k < 40; k++)
				doc[n++] = '[';
		random_value(doc, &n, sizeof(doc) - 64, 6, &seed);
		if (deep)
			for (int k = 0; k < 40; k++)
				doc[n++] = ']';
		doc[n] = '\0';
		if (doc[0] != '{' && doc[0] != '[')
			continue;
		if (json_parse_compact(&j, doc, n, 0) < 0) {
			bad++;
			continue;
		}
		docs++;
		for (unsigned i = 0; i < j.ntok; i++) {
			unsigned want = i + 1;
			while (want < j.ntok && j.tok[want].start < j.tok[i].end)
				want++;
			toks++;
			if (json_skip(&j, i) != want && bad++ < 3)
				printf("# doc %d token %u: skip %u, want %u\n", d, i,
				       json_skip(&j, i), want);
		}
	}
	json_release(&j);
	tap_ok(bad == 0 && docs > 200 && toks > 10000,
	       "json_skip: the first token after each value, fast and jsmn tokenizers");
}

int main(void)
{
	test_jscan();
	test_ctl();
	test_grammar();
	test_numbers();
	test_escapes();
	test_rows();
	test_row_paths();
	test_skip();
	return tap_done();
}
