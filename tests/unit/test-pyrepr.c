/*
 * Unit tests of json_value, py_repr and npstat.  Expected strings are Python 3's
 * repr() of json.loads(text) (lists through TraceLens's list_to_tuple where
 * PY_REPR_TUPLE); the statistics are numpy's results on the 17 durations of
 * one bert H100 GEMM kernel, as printed in TraceLens's reference
 * ops_unique_args.csv and kernel_summary.csv.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_stat.h"
#include "py_stat.h"
#include "sort.h"
#include "py_fmt.h"
#include "py_repr.h"
#include "tap.h"
#include "banned.h"

static void rep(const char *json, int flags, const char *want)
{
	struct pystr ps = {0};
	char what[200];

	snprintf(what, sizeof(what), "repr %s", json);
	if (py_repr_json(&ps, json, strlen(json), flags)) {
		tap_ok(want == NULL, what);
	} else {
		tap_ok(want != NULL, what);
		if (want)
			tap_str(ps.buf, want, what);
	}
	pystr_release(&ps);
}

static void test_repr(void)
{
	rep("[[512],[141,512],[512,512],[],[]]", PY_REPR_TUPLE,
	    "((512,), (141, 512), (512, 512), (), ())");
	rep("[[512],[141,512]]", 0, "[[512], [141, 512]]");
	rep("[\"c10::BFloat16\",\"Scalar\"]", PY_REPR_TUPLE, "('c10::BFloat16', 'Scalar')");
	rep("[\"\",\"1\"]", PY_REPR_TUPLE, "('', '1')");
	rep("{\"name\":\"k\",\"stream\":7}", 0, "{'name': 'k', 'stream': 7}");
	rep("[null,true,false]", PY_REPR_TUPLE, "(None, True, False)");
	rep("\"it's\"", 0, "\"it's\"");
	rep("\"a'b\\\"c\"", 0, "'a\\'b\"c'");
	rep("\"t\\tn\\n\\\\\"", 0, "'t\\tn\\n\\\\'");
	rep("\"\\u0001\"", 0, "'\\x01'");
	rep("\"\\u00e9\"", 0, "'\xc3\xa9'");
	/* a surrogate pair is one code point; bad escapes are not JSON */
	rep("\"\\ud83d\\ude00\"", 0, "'\xf0\x9f\x98\x80'");
	rep("\"\\/\\b\"", 0, "'/\\x08'");
	rep("\"\\x41\"", 0, NULL);
	rep("\"\\u12g4\"", 0, NULL);
	rep("\"abc", 0, NULL);
	rep("[1.0,1e-05,0.5,-3]", 0, "[1.0, 1e-05, 0.5, -3]");
	rep("[9.9999999999999998e-13]", 0, "[1e-12]");
	rep("[[]]", PY_REPR_TUPLE, "((),)");
	rep("[1,", 0, NULL);
	rep("{\"a\"1}", 0, NULL);
	rep("tru", 0, NULL);
}

static void num(double got, const char *want, const char *what)
{
	char buf[PY_FLOAT_MAX];
	py_float_repr(got, buf);
	tap_str(buf, want, what);
}

static void test_stats(void)
{
	double d[17] = { 5.824, 5.727, 5.887, 5.664, 5.824, 5.792, 5.952, 5.888, 5.792,
			 5.728, 5.663, 5.76, 5.92, 5.76, 5.633, 5.824, 6.08 };
	double small[3] = { 3, 1, 2 }, even[4] = { 4, 1, 3, 2 };
	struct timeline_interval iv[4] = { {10, 20}, {0, 5}, {5, 7}, {30, 31} };

	num(np_sum(d, 17), "98.718", "np.sum pairwise");
	num(np_mean(d, 17), "5.8069411764705885", "np.mean");
	num(np_std(d, 17), "0.11144002374700734", "np.std ddof=0");
	num(np_round(np_mean(d, 17), 2), "5.81", "np.round(mean, 2)");
	num(np_median(d, 17), "5.792", "np.median odd");
	num(np_median(even, 4), "2.5", "np.median even");
	num(np_median(small, 3), "2.0", "np.median small");
	/* statistics.median's middle of two ints: Python's (a + b) / 2 */
	num(py_mid_int(INT64_C(6030055555554959550), INT64_C(6030055555554959550)),
	    "6.030055555554959e+18", "(a + b) / 2 past int64");
	num(py_mid_int(INT64_MAX, INT64_MAX - 1), "9.223372036854776e+18", "(a + b) / 2 at INT64_MAX");
	num(py_mid_int(INT64_MIN, INT64_MIN + 1), "-9.223372036854776e+18", "(a + b) / 2 at INT64_MIN");
	num(py_mid_int(INT64_C(9007199254740993), INT64_C(9007199254740994)), "9007199254740994.0",
	    "(a + b) / 2 rounded once, as Python");
	num(py_mid_int(3, 4), "3.5", "(3 + 4) / 2");
	num(pd_std(small, 3), "1.0", "pandas std ddof=1");
	tap_ok(isnan(pd_std(small, 1)), "pandas std of one value is NaN");
	/* [0,5) and [5,7) touch and merge: 7 + 10 + 1 */
	num(np_busy_time(iv, 4), "18.0", "busy time merges touching intervals");
}

/* The fewest significant digits (1..17) whose %e reads back as x: the
 * definition, by trying every precision in turn. */
static int fewest_digits(double x)
{
	char tmp[40];

	for (int p = 1; p < 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, x);
		if (strtod(tmp, NULL) == x)
			return p;
	}
	return 17;
}

/* Significant digits of a repr: leading and trailing zeros left out. */
static int repr_digits(const char *s)
{
	int n = 0, lead = 1, zeros = 0;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = 0;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	return n - zeros ? n - zeros : 1;
}

/* Python's repr() of floats (printed by python3), and shortest round trips
 * of many doubles of every magnitude against the definition. */
static void test_float_repr(void)
{
	static const struct { double x; const char *want; } py[] = {
		{ 0.1, "0.1" }, { 0.30000000000000004, "0.30000000000000004" },
		{ 1.0 / 3, "0.3333333333333333" }, { 2.0 / 3, "0.6666666666666666" },
		{ 5880123456789.123, "5880123456789.123" },
		{ 123456789012345.67, "123456789012345.67" }, { 1e16, "1e+16" },
		{ 1e-05, "1e-05" }, { 9.999999999999999e22, "1e+23" }, { 1234.5, "1234.5" },
		{ 5e-324, "5e-324" }, { 1.7976931348623157e308, "1.7976931348623157e+308" },
		{ 0.000123, "0.000123" }, { 100.0, "100.0" }, { 9007199254740992.0, "9007199254740992.0" },
		{ 1e15, "1000000000000000.0" }, { 123456.789e-10, "1.23456789e-05" },
		{ 5.1825040094912456e-311, "5.182504009491e-311" },
	};
	unsigned long long r = 88172645463325252ULL;
	char buf[PY_FLOAT_MAX], what[80];
	int bad = 0;

	for (size_t i = 0; i < sizeof(py) / sizeof(py[0]); i++) {
		snprintf(what, sizeof(what), "py_float_repr(%.17g)", py[i].x);
		num(py[i].x, py[i].want, what);
	}
	for (int i = 0; i < 60000; i++) {
		double x;
		/* xorshift64: random bit patterns, and short decimals (ms, us) */
		r ^= r << 13; r ^= r >> 7; r ^= r << 17;
		if (i % 2) {
			/* one in eight a subnormal (exponent bits 0) */
			unsigned long long bits = i % 16 == 1 ? r & 0x800fffffffffffffULL : r;
			tl_memcpy(&x, &bits, sizeof(x));
			if (!isfinite(x) || x == 0)
				continue;
		} else {
			x = (double)(r % 100000000000ULL) / 1000.0;
			if (i % 4 == 0)
				x /= 1e6;
		}
		py_float_repr(x, buf);
		if (strtod(buf, NULL) != x || repr_digits(buf) != fewest_digits(x)) {
			if (bad++ < 5)
				printf("# %.17g: %s (fewest digits %d)\n", x, buf, fewest_digits(x));
		}
	}
	tap_ok(bad == 0, "py_float_repr: the fewest digits that read back, 60000 doubles");
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * np_median selects instead of sorting: against the median of a sorted
 * copy, on arrays of every length to 300 and a few large ones, values
 * drawn from few (many equal) to many, sorted and reversed inputs too.
 */
static void test_median_select(void)
{
	static double x[40000], y[40000];
	unsigned long r = 12345;
	int bad = 0, tried = 0;

	for (size_t n = 1; n <= 40000; n = n < 300 ? n + 1 : n * 3) {
		for (int shape = 0; shape < 4; shape++) {
			unsigned range = shape == 0 ? 3 : shape == 1 ? 1000 : 1u << 30;
			double want, got;
			for (size_t i = 0; i < n; i++) {
				r = r * 6364136223846793005UL + 1442695040888963407UL;
				x[i] = (double)((r >> 33) % range) / 7.0;
			}
			if (shape == 3)	/* sorted, then reversed: a pivot's worst cases */
				tl_qsort(x, n, sizeof(*x), cmp_d);
			for (size_t i = 0; shape == 3 && i < n / 2; i++) {
				double t = x[i];
				x[i] = x[n - 1 - i];
				x[n - 1 - i] = t;
			}
			for (size_t i = 0; i < n; i++)
				y[i] = x[i];
			tl_qsort(y, n, sizeof(*y), cmp_d);
			want = n % 2 ? y[n / 2] : (0.0 + y[n / 2 - 1] + y[n / 2]) / 2.0;
			got = np_median(x, n);
			tried++;
			if (memcmp(&got, &want, sizeof(got)) && bad++ < 5)
				printf("# n %zu shape %d: %.17g, want %.17g\n", n, shape, got, want);
		}
	}
	printf("# %d arrays\n", tried);
	tap_ok(bad == 0, "np_median: the sorted array's middle, selected");
}

int main(void)
{
	test_repr();
	test_stats();
	test_median_select();
	test_float_repr();
	return tap_done();
}
