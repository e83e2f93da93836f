/*
 * Unit tests for common/coll_name (TraceLens's is_communication_string):
 * names Python's re.search(..., re.IGNORECASE) was asked about, then
 * random names built from the patterns' pieces in mixed case, the three
 * non-ASCII letters sre folds onto 'i' and 's', other UTF-8 and cut-off
 * sequences, each compared with a plain reference here that decodes the
 * name into code points, lowers them and searches the lowered text.
 */
#include <stdio.h>
#include <string.h>

#include "coll_name.h"
#include "tap.h"
#include "xorshift.h"

/* Code points of name, lowered as sre's IGNORECASE lowers them; -1 for a
 * byte that is no code point a pattern letter can match. */
static size_t lowered(const unsigned char *s, size_t n, long *cp)
{
	size_t k = 0;

	for (size_t i = 0; i < n; k++) {
		if (i + 1 < n && s[i] == 0xc4 && (s[i + 1] == 0xb0 || s[i + 1] == 0xb1)) {
			cp[k] = 'i';	/* U+0130 lowers to i; sre folds U+0131 to i */
			i += 2;
		} else if (i + 1 < n && s[i] == 0xc5 && s[i + 1] == 0xbf) {
			cp[k] = 's';	/* U+017F, long s */
			i += 2;
		} else if (s[i] < 0x80) {
			cp[k] = s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i];
			i++;
		} else {
			cp[k] = -1;
			i++;
		}
	}
	return k;
}

static int reference(const char *name, size_t n)
{
	static const char *const pats[] = { "rccl", "nccl", "cross_device_reduce" };
	long cp[256];
	size_t k = lowered((const unsigned char *)name, n, cp);

	for (size_t p = 0; p < 3; p++) {
		size_t m = strlen(pats[p]);
		for (size_t i = 0; i + m <= k; i++) {
			size_t j = 0;
			while (j < m && cp[i + j] == pats[p][j])
				j++;
			if (j == m)
				return 1;
		}
	}
	return 0;
}

static void test_python(void)
{
	/* re.search("rccl|nccl|cross_device_reduce", s, re.I) in Python 3.11 */
	static const struct { const char *s; int want; } cases[] = {
		{ "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", 1 },
		{ "void RCCL_kernel", 1 },
		{ "vllm::Cross_Device_Reduce_1stage", 1 },
		{ "cro\xc5\xbf\xc5\xbf_dev\xc4\xb1" "ce_reduce", 1 },
		{ "CROSS_DEV\xc4\xb0" "CE_REDUCE", 1 },
		{ "cross_device_reduc", 0 },
		{ "ncc", 0 },
		{ "nccL", 1 },
		{ "n ccl", 0 },
		{ "rcc\xc4\xb1", 0 },
		{ "ampere_sgemm_128x64_nn", 0 },
		{ "", 0 },
	};

	char what[120];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "Python's answer (%d) for case %zu", cases[i].want, i);
		tap_ok(coll_name_match(cases[i].s, strlen(cases[i].s)) == cases[i].want, what);
	}
	tap_ok(coll_name_search("x_CROSS_device_reduce", 21, "cross_device_reduce"),
	       "coll_name_search finds one pattern in any case");
	tap_ok(!coll_name_search("nccl", 4, "rccl"), "and not another");
	tap_ok(!coll_name_match("nccl", 3), "the length bounds the name");
}

/* The memo byte: asked once, then answered from the byte alone. */
static void test_memo(void)
{
	unsigned char yes = 0, no = 0;

	tap_ok(coll_name_match_memo(&yes, "ncclKernel", 10) && yes == 2,
	       "memo: a communication name answers 1 and keeps 2");
	tap_ok(!coll_name_match_memo(&no, "gemm", 4) && no == 1,
	       "memo: another answers 0 and keeps 1");
	tap_ok(coll_name_match_memo(&yes, "gemm", 4) && !coll_name_match_memo(&no, "nccl", 4),
	       "memo: a kept byte answers, not the name");
}

static void test_random(void)
{
	static const char *const pieces[] = {
		"n", "N", "r", "R", "c", "C", "l", "L", "ccl", "cCl", "cross", "CRO",
		"ss", "_dev", "ice", "_reduce", "_RED", "uce", "s", "i", "_", "x",
		"\xc4\xb0", "\xc4\xb1", "\xc5\xbf", "\xc3\xa9", "\xc4", "\xc5",
		"kernel", "<4096ul>", " ",
	};
	size_t np = sizeof(pieces) / sizeof(pieces[0]), bad = 0, hits = 0;
	char name[200], what[120];

	for (int t = 0; t < 200000; t++) {
		size_t n = 0, parts = 1 + rnd(12);
		for (size_t p = 0; p < parts; p++) {
			const char *piece = pieces[rnd((unsigned)np)];
			size_t m = strlen(piece);
			if (n + m >= sizeof(name))
				break;
			memcpy(name + n, piece, m);
			n += m;
		}
		/* sometimes cut the name short, maybe inside a UTF-8 sequence */
		if (n && !rnd(4))
			n = rnd((unsigned)n + 1);
		int want = reference(name, n);
		hits += want;
		if (coll_name_match(name, n) != want && bad++ < 5)
			printf("# mismatch: '%.*s' (%zu bytes), want %d\n", (int)n, name, n, want);
	}
	snprintf(what, sizeof(what), "200000 random names agree with the reference (%zu differ)", bad);
	tap_ok(bad == 0, what);
	snprintf(what, sizeof(what), "both answers are common (%zu matches)", hits);
	tap_ok(hits > 1000 && hits < 199000, what);
}

int main(void)
{
	(void)tap_str;	/* tap.h's, unused here */
	test_python();
	test_memo();
	test_random();
	return tap_done();
}
