/*
 * json_scan's structural scanning paths give the same answers: the byte
 * loop (TL_JSON_SCAN=scalar), and the 64-byte masks computed the portable
 * way, with SSE2, with AVX2 and with AVX-512 (json_block.h).  Each document (hand-made
 * edge cases, the trace files named on the command line, and seeded
 * random mutations of their events) is scanned on every path the CPU has,
 * fed whole and in random pieces; everything json_scan_next says (items,
 * their compact copies, offsets, flagged bad strings, errors) must be the
 * same bytes as on the byte loop.
 *
 * usage: test-json-scan-paths [--paths] [TRACE.json...]
 *	--paths: print the paths this CPU has, one a line, and exit
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_block.h"
#include "json_scan.h"
#include "tap.h"
#include "xorshift.h"

struct log {
	char *b;
	size_t n, cap;
};

static unsigned long ndocs, ndiff;


static void put(struct log *l, const void *p, size_t n)
{
	if (l->n + n + 1 > l->cap) {
		l->cap = (l->n + n + 1) * 2;
		l->b = realloc(l->b, l->cap);
		if (!l->b)
			abort();
	}
	if (n)
		memcpy(l->b + l->n, p, n);
	l->n += n;
}

static void putf(struct log *l, const char *what, unsigned long long v)
{
	char t[64];
	int k = snprintf(t, sizeof(t), "%s=%llu ", what, v);

	put(l, t, (size_t)k);
}

static void record(struct log *l, int r, const struct json_scan *s, const struct json_scan_item *it)
{
	putf(l, "r", (unsigned long long)(r + 1));
	if (r == JSON_SCAN_ERROR) {
		put(l, s->err_msg, strlen(s->err_msg));
		putf(l, " at", s->err_off);
	} else if (r == JSON_SCAN_EVENT || r == JSON_SCAN_TOP) {
		putf(l, "off", it->off);
		putf(l, "len", it->len);
		putf(l, "esc", (unsigned long long)it->escapes);
		put(l, it->ctext, it->clen + 1);	/* with its NUL */
		if (r == JSON_SCAN_TOP)
			put(l, it->key, it->keylen);
		if (it->bad_msg) {
			put(l, it->bad_msg, strlen(it->bad_msg));
			putf(l, " at", it->bad_off);
		}
	}
	put(l, "\n", 1);
}

/*
 * Scan doc[0..len) fed in pieces of about piece bytes (0: whole), each
 * buffer a fresh allocation of its exact size so that ASan sees a read
 * past it; log what the scanner says.
 */
static void scan(const char *doc, size_t len, size_t piece, struct log *l)
{
	struct json_scan s;
	struct json_scan_item it;
	char *win = NULL, *buf = NULL;
	size_t have = 0, fed = 0;
	int r;

	win = malloc(len + 1);
	json_scan_init(&s);
	for (;;) {
		size_t take = piece ? 1 + rnd((unsigned)piece) : len;

		if (take > len - fed)
			take = len - fed;
		memcpy(win + have, doc + fed, take);
		have += take;
		fed += take;
		free(buf);
		buf = malloc(have ? have : 1);
		memcpy(buf, win, have);
		json_scan_set_buf(&s, buf, have, take > 0);
		while ((r = json_scan_next(&s, &it)) > JSON_SCAN_MORE) {
			record(l, r, &s, &it);
			if (r == JSON_SCAN_DONE)
				break;
		}
		if (r != JSON_SCAN_MORE) {
			if (r == JSON_SCAN_ERROR)
				record(l, r, &s, &it);
			break;
		}
		memmove(win, win + json_scan_consumed(&s), have - json_scan_consumed(&s));
		have -= json_scan_consumed(&s);
	}
	json_scan_release(&s);
	free(buf);
	free(win);
}

static int paths[JSON_BLOCK_AVX512 + 1], npaths;

/* Scan doc on every path, whole and in pieces, against the byte loop. */
static void compare(const char *doc, size_t len, size_t piece)
{
	struct log want = { 0 }, got = { 0 };
	unsigned long long keep = rnd_state;

	ndocs++;
	json_block_use(JSON_BLOCK_SCALAR);
	scan(doc, len, piece, &want);
	for (int i = 0; i < npaths; i++) {
		if (paths[i] == JSON_BLOCK_SCALAR)
			continue;
		rnd_state = keep;	/* the same pieces */
		got.n = 0;
		json_block_use(paths[i]);
		scan(doc, len, piece, &got);
		if (got.n != want.n || memcmp(got.b, want.b, got.n)) {
			if (ndiff++ < 10)
				printf("# %s differs from scalar on: %.*s\n",
				       json_block_name(paths[i]), (int)(len > 300 ? 300 : len), doc);
		}
	}
	free(want.b);
	free(got.b);
}

/* A document with one event: the text, wrapped. */
static void event_doc(const char *ev, size_t n, int pretty)
{
	static const char head[] = "{\"traceEvents\": [\n  ", tail[] = "\n  ]\n}\n";
	static const char head2[] = "[", tail2[] = "]";
	size_t hl = pretty ? sizeof(head) - 1 : 1, tl = pretty ? sizeof(tail) - 1 : 1;
	char *d = malloc(hl + n + tl + 1);

	memcpy(d, pretty ? head : head2, hl);
	memcpy(d + hl, ev, n);
	memcpy(d + hl + n, pretty ? tail : tail2, tl);
	compare(d, hl + n + tl, 0);
	compare(d, hl + n + tl, 1 + rnd(80));
	free(d);
}

/* A few random edits (replace, insert, delete a byte) of t, compared. */
static void mutate(const char *t, size_t n)
{
	static const char pool[] = "{}[]\",:\\ \n\t0123456789-+.eEtrufalsnu\x01\x7f\xc3";
	char *m = malloc(n + 8);

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
		event_doc(m, len, (int)rnd(2));
	}
	free(m);
}

static const char *cases[] = {
	"{}", "[]", "{\"a\":{}}", "[[],{}]", "{\"a\":[1,2,{\"b\":null}],\"c\":\"d\"}",
	"[1,-0,0.5,-1.5e+3,1E-2,true,false,null]", "[1 2]", "[1 \n\t 2]", "[true false]",
	"{\"a\" :1}", "{\"a\":1 }", "[\"a\\\"b\"]", "[\"\\u00e9\\ud83d\\ude00\"]",
	"[\"a\x01\"]", "[\"a\nb\"]", "{\"a\":[1,2}", "[1]]", "{\"a\":1]", "[\"a\\\\\"]",
	"{ \"name\" : \"a long string of more than sixty-four bytes, to cross a block end\" , "
	"\"ts\" : 1419116104994.671 , \"args\" : { \"x\" : [ 1 , 2 , 3 ] } }",
	"{\"name\":\"0123456789012345678901234567890123456789012345678901234567\\\"89\\\\\","
	"\"b\":\"\\\\\\\\\\\"\",\"c\":[1  ,  2]}",
	"{\"k\":\"\xc3\xa9\"}", "[\"a\x00b\"]", "{\"a\":1:2}", "[\"a\":1]", "{,}", "[,1]",
	"[{\"a\":[{\"b\":[{}]}]}]", "[\"\\/\\b\\f\\n\\r\\t\\\\\"]", "[1\x7f 2]", "[1\x01 2]",
	"{\"a\":tru e}", "{\"a\":\"x\"   \"y\"}", "{\"a\":1}   {", "[1,\x0b 2]",
};

/* Every element's text of a trace file as an event document, some mutated. */
static void trace(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *doc;
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
	if (fread(doc, 1, (size_t)size, f) != (size_t)size)
		size = 0;
	fclose(f);
	compare(doc, (size_t)size, 0);
	compare(doc, (size_t)size, 65536);
	json_block_use(JSON_BLOCK_SCALAR);
	json_scan_init(&s);
	json_scan_set_buf(&s, doc, (size_t)size, 0);
	while ((r = json_scan_next(&s, &it)) > JSON_SCAN_MORE && r != JSON_SCAN_DONE) {
		if (++k % 37 == 0 && it.len < 4096)
			mutate(it.text, it.len);
	}
	json_scan_release(&s);
	free(doc);
	printf("# %s: %lu elements\n", path, k);
}

int main(int argc, char **argv)
{
	char m[4200];
	const char *def;
	int a = 1;

	unsetenv("TL_JSON_SCAN");
	def = json_block_name(json_block_path());
	for (int p = JSON_BLOCK_SCALAR; p <= JSON_BLOCK_AVX512; p++)
		if (json_block_use(p) == 0)
			paths[npaths++] = p;
	if (argc > 1 && !strcmp(argv[1], "--paths")) {
		for (int i = 0; i < npaths; i++)
			printf("%s\n", json_block_name(paths[i]));
		return 0;
	}
	for (int i = 0; i < npaths; i++)
		printf("# path %s\n", json_block_name(paths[i]));
	tap_str(def, json_block_name(paths[npaths - 1] == JSON_BLOCK_PORTABLE ? JSON_BLOCK_SCALAR
				     : paths[npaths - 1]), "the default path is the CPU's fastest");
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		event_doc(cases[i], strlen(cases[i]), 0);
		event_doc(cases[i], strlen(cases[i]), 1);
		for (int k = 0; k < 300; k++)
			mutate(cases[i], strlen(cases[i]));
	}
	/* nesting past the limit, and blanks before each byte position of a block */
	memset(m, '[', 1100);
	memset(m + 1100, ']', 1100);
	event_doc(m, 2200, 1);
	for (int pad = 0; pad < 70; pad++) {
		int n = snprintf(m, sizeof(m), "{\"a\":\"%*s\",\"b\":[1 ,%*s2],\"c\":\"\\\"\"}",
				 pad, "", pad % 7, "");
		event_doc(m, (size_t)n, 1);
		event_doc(m, (size_t)n, 0);
		/*
		 * blanks between two numbers (bad) and between a number and a
		 * comma (good), the blank run and the bytes around it at each
		 * place across a block's start (a block whole after it: the
		 * carry a block takes in from the one before)
		 */
		for (int run = 1; run <= 3; run++) {
			n = snprintf(m, sizeof(m), "{\"a\":\"%*s\",\"b\":[12%*s3],\"c\":\"%70s\"}",
				     pad, "", run, "", "");
			event_doc(m, (size_t)n, 1);
			n = snprintf(m, sizeof(m), "{\"a\":\"%*s\",\"b\":[12%*s,3],\"c\":\"%70s\"}",
				     pad, "", run, "", "");
			event_doc(m, (size_t)n, 1);
		}
	}
	tap_ok(ndiff == 0, "edge cases and their mutations: the same on every path");
	for (; a < argc; a++) {
		unsigned long before = ndiff;
		trace(argv[a]);
		tap_ok(ndiff == before, "a trace, its events and their mutations: the same on every path");
	}
	printf("# %lu documents scanned on %d paths, %lu differences\n", ndocs, npaths, ndiff);
	return tap_done();
}
