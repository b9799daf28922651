/* Seeded draws for the simulation tests: the same numbers on every run. */
#ifndef MMB_TEST_SEEDED_H
#define MMB_TEST_SEEDED_H

#include <math.h>
#include <stdint.h>

/* xorshift64; seed it with a constant before use */
static uint64_t seeded_state = 0x9e3779b97f4a7c15ull;

static inline double seeded_uniform(void)
{
	seeded_state ^= seeded_state << 13;
	seeded_state ^= seeded_state >> 7;
	seeded_state ^= seeded_state << 17;
	return ((seeded_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller: one standard normal draw */
static inline double seeded_gauss(void)
{
	return sqrt(-2 * log(seeded_uniform())) * cos(2 * M_PI * seeded_uniform());
}

/* Box-Muller's pair, both used (the simulations that need millions of draws) */
static inline double seeded_gauss2(void)
{
	static double spare;
	static int have;
	double r, a;

	if (have) {
		have = 0;
		return spare;
	}
	r = sqrt(-2 * log(seeded_uniform()));
	a = 2 * M_PI * seeded_uniform();
	spare = r * sin(a);
	have = 1;
	return r * cos(a);
}

#endif
