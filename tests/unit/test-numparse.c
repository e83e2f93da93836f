/*
 * num_strtod() against glibc's strtod(3), which rounds correctly: the same
 * double, bit for bit (so -0.0 too), and the same end, for fixed edge cases
 * and 200000 generated decimals of 1 to 20 digits with the point anywhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num_parse.h"
#include "tap.h"

static int bad;

static int same(const char *s)
{
	char *e1, *e2;
	double a = num_strtod(s, &e1), b = strtod(s, &e2);

	if (!memcmp(&a, &b, sizeof(a)) && e1 == e2)
		return 1;
	if (bad++ < 20)
		printf("# '%s': got %.17g end +%td, strtod %.17g end +%td\n", s, a, e1 - s, b, e2 - s);
	return 0;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(void)
{
	static const char *edge[] = {
		"0", "-0", "-0.0", "0.", ".5", "-.5", ".", "-", "", "5.", "1.5.3", "12abc",
		"1e5", "1E-5", "2.5e", "0x1p3", "0x10", "inf", "-inf", "nan", " 1.5", "+1.5",
		"1.5\t2", "3.25,", "9007199254740992", "9007199254740993", "9007199254740991.5",
		"900719925474099.3", "0.1234567890123456789012", "0.12345678901234567890123",
		"1.0000000000000000000001", "123456789012345678901234567890",
		"0.0000000000000000000001", "0.00000000000000000000001", "6234567890123.456",
		"1752829956.515358", "-1.7976931348623157", "4.9406564584124654",
		/* around the bounds: 2^53, 19 digits (the most m holds), 20 (wrapping) */
		"9007199254740992.0", "900719925474099.25", "1234567890123456789",
		"1234567890.123456789", "18446744073709551615", "18446744073709551616.5",
		"99999999999999999999", "-0000000000000000000001", "00000000000000000001.5",
	};
	uint64_t x = 88172645463325252ULL;
	(void)tap_str;	/* tap.h's, unused here */
	int ok = 1;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		ok &= same(edge[i]);
	tap_ok(ok, "edge cases read as strtod reads them");
	ok = 1;
	for (int i = 0; i < 200000; i++) {
		char s[32];
		int n = 1 + (int)(rnd(&x) % 20), dot = (int)(rnd(&x) % (unsigned)(n + 2)), k = 0;

		if (rnd(&x) % 4 == 0)
			s[k++] = '-';
		for (int j = 0; j < n; j++) {
			if (j == dot)
				s[k++] = '.';
			s[k++] = (char)('0' + rnd(&x) % 10);
		}
		s[k] = '\0';
		ok &= same(s);
	}
	tap_ok(ok, "200000 generated decimals read as strtod reads them");

	/* num_u64: runs of 1 to 19 digits read as strtoul reads them, else NULL */
	ok = 1;
	for (int i = 0; i < 100000; i++) {
		char s[32], *e2;
		int n = 1 + (int)(rnd(&x) % 22), k;
		uint64_t v;
		const char *e1;

		for (k = 0; k < n; k++)
			s[k] = (char)('0' + rnd(&x) % 10);
		s[k++] = "\t,x"[rnd(&x) % 3];
		s[k] = '\0';
		e1 = num_u64(s, &v);
		unsigned long w = strtoul(s, &e2, 10);
		if (n <= 19 ? !e1 || e1 != e2 || v != w : e1 != NULL) {
			if (bad++ < 20)
				printf("# num_u64('%s') differs from strtoul\n", s);
			ok = 0;
		}
	}
	ok &= !num_u64("", &(uint64_t){0}) && !num_u64("-1", &(uint64_t){0}) &&
	      !num_u64(" 1", &(uint64_t){0}) && !num_u64("+1", &(uint64_t){0});
	tap_ok(ok, "num_u64 reads 100000 digit runs as strtoul, and refuses signs and spaces");

	/* num_strtou64, num_strtoi64: strtoull's and strtoll's values, whatever the text */
	ok = 1;
	for (int i = 0; i < 100000; i++) {
		static const char *const odd[] = {
			"", "-", "+7", " 12", "-3", "12abc", "0x1f", "007", "1e3", "2.5",
			"18446744073709551615", "18446744073709551616", "9223372036854775807",
			"9223372036854775808", "99999999999999999999999", "-9223372036854775809",
		};
		char s[32];
		int k = 0, n = 1 + (int)(rnd(&x) % 21);

		if (i < (int)(sizeof(odd) / sizeof(*odd))) {
			snprintf(s, sizeof(s), "%s", odd[i]);
		} else {
			if (rnd(&x) % 8 == 0)
				s[k++] = '-';
			while (k < n)
				s[k++] = (char)('0' + rnd(&x) % 10);
			s[k] = '\0';
		}
		if (num_strtou64(s) != strtoull(s, NULL, 10) ||
		    num_strtoi64(s) != strtoll(s, NULL, 10)) {
			if (bad++ < 20)
				printf("# num_strtou64/num_strtoi64('%s') differ from strtoull/strtoll\n", s);
			ok = 0;
		}
	}
	tap_ok(ok, "num_strtou64 and num_strtoi64 read 100000 texts as strtoull and strtoll");
	return tap_done();
}
