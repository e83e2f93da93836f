/*
 * xorshift.h: the unit tests' seeded random numbers (Marsaglia's
 * xorshift64), the same sequence on every run, so a failure repeats.
 */
#ifndef TL_XORSHIFT_H
#define TL_XORSHIFT_H

static unsigned long long rnd_state = 88172645463325252ULL;

/* A number in [0, n). */
static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

#endif
