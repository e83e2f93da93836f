#include <math.h>
#include <string.h>

#include "py_stat.h"
#include "banned.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

#define NW 6			/* 384-bit unsigned integers */
struct big { uint64_t w[NW]; };

static struct big big_u128(u128 v)
{
	struct big b;

	memset(&b, 0, sizeof(b));
	b.w[0] = (uint64_t)v;
	b.w[1] = (uint64_t)(v >> 64);
	return b;
}

static struct big big_mul(struct big a, struct big b)
{
	struct big r;

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < NW; i++) {
		u128 carry = 0;
		if (!a.w[i])
			continue;
		for (int j = 0; i + j < NW; j++) {
			u128 t = (u128)a.w[i] * b.w[j] + r.w[i + j] + carry;
			r.w[i + j] = (uint64_t)t;
			carry = t >> 64;
		}
	}
	return r;
}

static struct big big_shl(struct big a, int s)
{
	struct big r;
	int q = s / 64, k = s % 64;

	memset(&r, 0, sizeof(r));
	for (int i = NW - 1; i >= q; i--) {
		r.w[i] = a.w[i - q] << k;
		if (k && i - q - 1 >= 0)
			r.w[i] |= a.w[i - q - 1] >> (64 - k);
	}
	return r;
}

static int big_cmp(const struct big *a, const struct big *b)
{
	for (int i = NW - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

double py_mean_int(const int64_t *x, size_t n)
{
	i128 s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	if (s > -((i128)1 << 53) && s < ((i128)1 << 53))
		return (double)s / (double)n;
	return (double)((long double)s / (long double)n);
}

/*
 * Sign of sqrt(N)/n - P*2^q (P > 0): compare N with P^2 n^2 2^(2q), both
 * sides scaled to integers.
 */
static int cmp_mid(u128 N, uint64_t n, uint64_t P, int q)
{
	struct big lhs = big_u128(N), p = big_u128(P), nn = big_u128(n);
	struct big rhs = big_mul(big_mul(p, p), big_mul(nn, nn));

	if (q >= 0)
		rhs = big_shl(rhs, 2 * q);
	else
		lhs = big_shl(lhs, -2 * q);
	return big_cmp(&lhs, &rhs);
}

double py_pstdev_int(const int64_t *x, size_t n)
{
	i128 sx = 0;
	u128 sxx = 0, N;
	int ovf = 0;
	double y;

	if (n < 1)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		u128 sq = (u128)((i128)x[i] * x[i]);
		sx += x[i];
		ovf |= __builtin_add_overflow(sxx, sq, &sxx);
	}
	/* N = n*sxx - sx^2 >= 0 */
	{
		u128 a, b, asx = (u128)(sx < 0 ? -sx : sx);
		ovf |= __builtin_mul_overflow(sxx, (u128)n, &a);
		ovf |= __builtin_mul_overflow(asx, asx, &b);
		N = a - b;
	}
	if (ovf) {
		long double m = (long double)sx / n, ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (x[i] - m) * (x[i] - m);
		return (double)sqrtl(ss / n);
	}
	if (N == 0)
		return 0.0;
	y = (double)(sqrtl((long double)N) / (long double)n);
	for (int iter = 0; iter < 8; iter++) {
		int e, c;
		double f = frexp(y, &e);
		uint64_t M = (uint64_t)ldexp(f, 53);
		int q = e - 53;		/* y = M * 2^q */

		/* upper midpoint (2M+1) 2^(q-1) */
		c = cmp_mid(N, n, 2 * M + 1, q - 1);
		if (c > 0 || (c == 0 && (M & 1))) {
			y = nextafter(y, INFINITY);
			continue;
		}
		/* lower midpoint: (2M-1) 2^(q-1), or (4M-1) 2^(q-2) at a power of two */
		if (M == (uint64_t)1 << 52)
			c = cmp_mid(N, n, 4 * M - 1, q - 2);
		else
			c = cmp_mid(N, n, 2 * M - 1, q - 1);
		if (c < 0 || (c == 0 && (M & 1))) {
			y = nextafter(y, 0);
			continue;
		}
		break;
	}
	return y;
}

/*
 * Python adds the two ints exactly and divides correctly rounded; the sum
 * in 128 bits converts to the nearest double, and halving it is exact.
 */
double py_mid_int(int64_t a, int64_t b)
{
	return (double)((i128)a + b) / 2.0;
}
