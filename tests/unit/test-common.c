/* Unit tests for common/: py_fmt, strpool, outbuf TSV escaping, display, path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "display.h"
#include "hmap.h"
#include "outbuf.h"
#include "path.h"
#include "py_fmt.h"
#include "strpool.h"
#include "tap.h"

static void repr(double x, const char *want)
{
	char buf[PY_FLOAT_MAX], what[96];
	py_float_repr(x, buf);
	snprintf(what, sizeof(what), "repr(%.17g) is %s", x, want);
	tap_str(buf, want, what);
}

static void test_repr(void)
{
	/* expectations are Python 3's repr() of the same doubles */
	repr(0.0, "0.0");
	repr(100.0, "100.0");
	repr(1.6752, "1.6752");
	repr(9.044799999999999, "9.044799999999999");
	repr(7.2192e-05, "7.2192e-05");
	repr(0.0001, "0.0001");
	repr(1e-05, "1e-05");
	repr(1e16, "1e+16");
	repr(1.5e16, "1.5e+16");
	repr(1e15, "1000000000000000.0");
	repr(197.59814453125, "197.59814453125");
	repr(0.30719775390625, "0.30719775390625");
	repr(7.86109300556382, "7.86109300556382");
	repr(0.1 + 0.2, "0.30000000000000004");
	repr(-2.5, "-2.5");
	repr(123456789.0, "123456789.0");
	repr(1419247333894.317, "1419247333894.317");
	repr(5e-324, "5e-324");
	repr(1.7976931348623157e308, "1.7976931348623157e+308");
	repr(NAN, "nan");
	repr(-INFINITY, "-inf");
}

/*
 * Decimals (ids and correlations) hash by their value, in runs: counted
 * up, a power of two apart, with leading zeros, past nine digits and
 * beside names, each must keep its own id, and the strides that would
 * crowd one stretch of the table must not make interning quadratic (a
 * million ids 65536 apart: seconds, not hours).
 */
static void test_strpool_decimals(void)
{
	static const long stride[] = { 1, 2, 256, 65536, 1000003 };
	int ok = 1;

	for (size_t k = 0; k < sizeof(stride) / sizeof(stride[0]); k++) {
		struct strpool *sp = strpool_new();
		uint32_t before = strpool_count(sp);
		for (long i = 1; i <= 200000; i++) {
			char t[32];
			int n = snprintf(t, sizeof(t), i % 7 ? "%ld" : i % 2 ? "0%ld" : "x%ld",
					 (i * stride[k]) % 9999999999L);
			uint32_t id = strpool_intern(sp, t, (size_t)n);
			if (id != strpool_count(sp) - 1 || strcmp(strpool_str(sp, id), t))
				ok = 0;
		}
		for (long i = 1; i <= 200000 && ok; i++) {
			char t[32];
			int n = snprintf(t, sizeof(t), i % 7 ? "%ld" : i % 2 ? "0%ld" : "x%ld",
					 (i * stride[k]) % 9999999999L);
			uint32_t id = strpool_find(sp, t, (size_t)n);
			if (id == UINT32_MAX || strcmp(strpool_str(sp, id), t))
				ok = 0;
		}
		if (strpool_count(sp) != before + 200000)
			ok = 0;
		strpool_free(sp);
	}
	tap_ok(ok, "decimal ids at strides 1 to 10^6, with zeros and names: one id each, found again");
}

static void test_strpool(void)
{
	struct strpool *sp = strpool_new();
	uint32_t a = strpool_intern(sp, "aten::addmm", 11);
	uint32_t b = strpool_intern(sp, "aten::mm", 8);
	int same = 1;

	tap_ok(a != b && a != 0 && b != 0, "distinct strings get distinct ids");
	tap_ok(strpool_intern(sp, "aten::addmm", 11) == a, "equal strings get equal ids");
	tap_ok(strpool_intern(sp, "", 0) == 0, "the empty string is id 0");
	tap_ok(strpool_intern(sp, "a\0b", 3) != strpool_intern(sp, "a", 1),
	       "embedded NUL is part of the string");
	for (int i = 0; i < 100000; i++) {
		char k[32];
		int n = snprintf(k, sizeof(k), "key%d", i);
		uint32_t id = strpool_intern(sp, k, (size_t)n);
		if (strcmp(strpool_str(sp, id), k))
			same = 0;
	}
	tap_ok(same, "100000 strings survive rehashing");
	tap_ok(strpool_find(sp, "key99999", 8) != UINT32_MAX, "find sees interned");
	tap_ok(strpool_find(sp, "nope", 4) == UINT32_MAX, "find does not add");
	strpool_free(sp);
	test_strpool_decimals();
}

/*
 * hmap hashes a key by its run of 256 values: keys counted up, 256 or a
 * power of two apart, ids of many threads in the high word (tl-tree's
 * links), each must keep its value, absent keys stay absent, and no
 * stride may crowd one stretch of the table (200,000 keys: milliseconds,
 * not minutes).
 */
static void test_hmap(void)
{
	static const uint64_t stride[] = { 1, 2, 3, 256, 4096, 65536, UINT64_C(1) << 32,
					   UINT64_C(0x9e3779b97f4a7c15) };
	int ok = 1;

	for (size_t k = 0; k < sizeof(stride) / sizeof(stride[0]); k++) {
		struct hmap h = HMAP_INIT;
		uint32_t v;
		for (uint32_t i = 1; i <= 200000; i++)
			hmap_put(&h, i * stride[k] + (i % 3 == 0 ? UINT64_C(1) << 62 : 0), i);
		for (uint32_t i = 1; i <= 200000 && ok; i++) {
			uint64_t key = i * stride[k] + (i % 3 == 0 ? UINT64_C(1) << 62 : 0);
			ok = hmap_get(&h, key, &v) && v == i;
		}
		ok = ok && h.n == 200000 && !hmap_get(&h, UINT64_C(7) << 50, &v);
		hmap_release(&h);
	}
	tap_ok(ok, "hmap: 200000 keys at strides 1 to 2^32 and at random, each found, no more");
}

/*
 * hmap_reserve: room for n more keys, so that n puts do not grow the table
 * (tl-tree's link map), keys already in kept; a reserve that fits changes
 * nothing.
 */
static void test_hmap_reserve(void)
{
	struct hmap h = HMAP_INIT;
	uint32_t v;
	size_t cap;
	int ok = 1;

	for (uint32_t i = 1; i <= 100; i++)
		hmap_put(&h, (uint64_t)i << 40 | i, i);
	hmap_reserve(&h, 100000);
	cap = h.cap;
	ok = cap >= 2 * 100100 && cap < 4 * 100100;
	for (uint32_t i = 101; i <= 100100; i++)
		hmap_put(&h, (uint64_t)i << 40 | i, i);
	ok = ok && h.cap == cap && h.n == 100100;
	for (uint32_t i = 1; i <= 100100 && ok; i++)
		ok = hmap_get(&h, (uint64_t)i << 40 | i, &v) && v == i;
	hmap_reserve(&h, 10);
	ok = ok && h.cap == cap;
	hmap_release(&h);
	tap_ok(ok, "hmap_reserve: 100000 more keys put without growing, the first 100 kept");
}

/* key 0 (an int64 key of INT64_MIN with its sign bit flipped) is a key like any */
static void test_hmap_zero(void)
{
	struct hmap h = HMAP_INIT;
	uint32_t v = 7;
	int ok = !hmap_get(&h, 0, &v) && v == 7;

	hmap_put(&h, 0, 5);
	hmap_put(&h, 1, 6);
	ok = ok && hmap_get(&h, 0, &v) && v == 5 && hmap_get(&h, 1, &v) && v == 6;
	hmap_put(&h, 0, 9);
	ok = ok && hmap_get(&h, 0, &v) && v == 9 && h.n == 1;
	hmap_clear(&h);
	ok = ok && !hmap_get(&h, 0, &v) && !hmap_get(&h, 1, &v);
	hmap_put(&h, 0, 3);
	hmap_release(&h);
	ok = ok && !hmap_get(&h, 0, &v);
	tap_ok(ok, "hmap: key 0 is put, found, replaced, cleared and released like any key");
}

static void test_tsv(void)
{
	int fds[2];
	char got[64] = { 0 };
	struct outbuf *ob;

	if (pipe(fds))
		abort();
	ob = outbuf_open_fd(fds[1]);
	outbuf_tsv(ob, "a\tb\\c\nd\0e\r", 10);
	outbuf_close(ob);
	close(fds[1]);
	if (read(fds[0], got, sizeof(got) - 1) < 0)
		abort();
	close(fds[0]);
	tap_str(got, "a\\tb\\\\c\\nd\\0e\\r", "TSV escapes tab, backslash, newline, NUL, CR");
}

/* display_escape's output for s[0..n), through a pipe. */
static void shown(const char *s, size_t n, int mode, const char *want, const char *what)
{
	int fds[2];
	char got[256] = { 0 };
	struct outbuf *ob;

	if (pipe(fds))
		abort();
	ob = outbuf_open_fd(fds[1]);
	display_escape(ob, s, n, mode);
	outbuf_close(ob);
	close(fds[1]);
	if (read(fds[0], got, sizeof(got) - 1) < 0)
		abort();
	close(fds[0]);
	tap_str(got, want, what);
}

static void test_display(void)
{
	char *d;

	shown("aten::mm", 8, DISPLAY_TERMINAL, "aten::mm", "plain text unchanged");
	shown("\x1b]0;owned\x07x", 11, DISPLAY_TERMINAL, "\\x1b]0;owned\\x07x",
	      "OSC title sequence: ESC and BEL escaped");
	shown("\x1b[2J", 4, DISPLAY_TERMINAL, "\\x1b[2J", "clear screen escaped");
	shown("a\tb\nc\rd\x7f", 8, DISPLAY_TERMINAL, "a\\tb\\nc\\rd\\x7f",
	      "tab, newline, CR and DEL escaped");
	shown("x\0y", 3, DISPLAY_TERMINAL, "x\\x00y", "NUL shown, name not cut");
	shown("\xc2\x9b" "31m", 5, DISPLAY_TERMINAL, "\\xc2\\x9b31m", "C1 CSI (U+009B) escaped");
	shown("\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80", 12, DISPLAY_TERMINAL,
	      "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80", "valid UTF-8 passes");
	shown("a\xff" "b\xe2\x82", 5, DISPLAY_TERMINAL, "a\\xffb\\xe2\\x82",
	      "invalid and cut-off UTF-8 bytes escaped");
	shown("\xed\xa0\xbd", 3, DISPLAY_TERMINAL, "\\xed\\xa0\\xbd", "UTF-8 surrogate form escaped");
	shown("a|b\\c", 5, DISPLAY_MARKDOWN, "a\\|b\\\\c", "Markdown: pipe and backslash escaped");
	shown("a|b", 3, DISPLAY_TERMINAL, "a|b", "terminal: pipe kept");

	d = display_demangle("_ZN5aiter3fooEv");
	tap_str(d ? d : "(null)", "aiter::foo()", "demangle a function name");
	free(d);
	d = display_demangle("_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_22gpu_kernel_impl_nocastIZZZNS0_23direct_copy_kernel_cudaERNS_18TensorIteratorBaseEENKUlvE1_clEvENKUlvE8_clEvEUlN3c104HalfEE_EEvS4_RKT_EUliE_EEviT1_");
	tap_ok(d && !strncmp(d, "void at::native::elementwise_kernel<128, 4, ", 44),
	       "demangle a real CUDA kernel name");
	free(d);
	tap_ok(display_demangle("aten::mm") == NULL, "a plain name is not demangled");
	tap_ok(display_demangle("_Znotmangled!!") == NULL, "a bad mangled name gives NULL");
}

static void join_case(const char *dir, const char *name, const char *suffix,
		      const char *want, const char *what)
{
	char *p = path_join(dir, name, suffix);
	tap_str(p, want, what);
	free(p);
}

static void test_path(void)
{
	join_case("out", "gpu_timeline", ".csv", "out/gpu_timeline.csv", "path_join: folder, name, suffix");
	join_case("a/b", "idle", "", "a/b/idle", "path_join: no suffix");
	join_case("out/", "x", "", "out//x", "path_join: the folder as given, one '/' added");
	join_case("", "x", ".csv", "/x.csv", "path_join: an empty folder");
}

int main(void)
{
	test_display();
	test_repr();
	test_strpool();
	test_hmap();
	test_hmap_zero();
	test_hmap_reserve();
	test_tsv();
	test_path();
	return tap_done();
}
