/*
 * Bisect's step decision (harness/compare/bisectstep.c), by seeded
 * simulation of run-level means at known effect sizes: the per-step error
 * bounds (alpha: a good commit called bad; beta: a bad one called good)
 * hold, and the endpoint test calls an A/A "nothing to bisect".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "bisectstep.h"
#include "seeded.h"

#include <stdio.h>
#include <string.h>

#define TRIALS 2000
#define NEND 5		/* runs of each endpoint */
#define MAXR 20		/* midpoint runs before skip */

struct outcome {
	int wrong, skipped;
	double rounds;
};

/* One case: endpoints good ~ N(0,1), bad ~ N(d,1); the midpoint truly good or bad. */
static struct outcome simulate(double d, int mid_is_bad, double alpha)
{
	struct bisect_step_opts o = { .alpha = alpha, .beta = alpha, .max_rounds = MAXR };
	struct outcome out = { 0, 0, 0 };

	for (int t = 0; t < TRIALS; t++) {
		double g[NEND], b[NEND], m[MAXR];
		struct bisect_step st;

		for (int i = 0; i < NEND; i++) {
			g[i] = seeded_gauss2();
			b[i] = d + seeded_gauss2();
		}
		for (int i = 0; i < MAXR; i++)
			m[i] = (mid_is_bad ? d : 0) + seeded_gauss2();
		assert_int_equal(bisect_step_decide(g, NEND, b, NEND, m, MAXR, &o, &st), 0);
		if (st.decision == BISECT_SKIP)
			out.skipped++;
		else if ((st.decision == BISECT_BAD) != mid_is_bad)
			out.wrong++;
		out.rounds += st.rounds;
	}
	out.rounds /= TRIALS;
	return out;
}

/*
 * 2000 trials a case: at a true rate of 1% the count of wrong decisions
 * is 20 +- 4.5; the bound is taken as held below 1% + 3 sd (1.67%).
 */
static void test_error_bounds(void **state)
{
	static const double effects[] = { 2, 4, 8 };

	(void)state;
	seeded_state = 0x5eed0b15ec7ull;
	for (size_t e = 0; e < sizeof(effects) / sizeof(effects[0]); e++)
		for (int truth = 0; truth < 2; truth++) {
			struct outcome r = simulate(effects[e], truth, 0.01);
			double rate = (double)r.wrong / TRIALS;

			print_message("effect %.0f sd, midpoint %s: %d wrong (%.2f%%), %d skipped,"
				      " %.1f runs a step\n", effects[e], truth ? "bad" : "good", r.wrong,
				      100 * rate, r.skipped, r.rounds);
			if (rate > 0.0167)
				fail_msg("effect %.0f: error rate %.2f%% over the 1%% bound", effects[e],
					 100 * rate);
			/* a clear effect decides well before the cap */
			if (effects[e] >= 4 && r.skipped > TRIALS / 100)
				fail_msg("effect %.0f: %d skips", effects[e], r.skipped);
		}
}

/* A midpoint halfway between good and bad: no side may win often; it ends in skip. */
static void test_halfway_skips(void **state)
{
	struct bisect_step_opts o = { .max_rounds = 6 };
	double g[] = { 100, 101, 99, 100, 100 }, b[] = { 110, 111, 109, 110, 110 };
	double m[] = { 105, 105, 105, 105, 105, 105 };
	struct bisect_step st;

	(void)state;
	assert_int_equal(bisect_step_decide(g, 5, b, 5, m, 6, &o, &st), 0);
	assert_int_equal(st.decision, BISECT_SKIP);
	assert_non_null(strstr(st.why, "skip: undecided after 6 runs"));
	/* fewer runs than the cap: ask for more */
	assert_int_equal(bisect_step_decide(g, 5, b, 5, m, 3, &o, &st), 0);
	assert_int_equal(st.decision, BISECT_MORE);
	/* endpoints that do not define the test */
	assert_int_equal(bisect_step_decide(g, 1, b, 5, m, 3, &o, &st), -1);
	assert_int_equal(bisect_step_decide(g, 5, g, 5, m, 3, &o, &st), -1);
}

/* A clear step: one run decides, and the bound it risks is reported. */
static void test_clear_step(void **state)
{
	double g[] = { 100, 101, 99, 100, 100 }, b[] = { 130, 131, 129, 130, 130 };
	double bad[] = { 130.5 }, good[] = { 99.5 };
	struct bisect_step st;

	(void)state;
	assert_int_equal(bisect_step_decide(g, 5, b, 5, bad, 1, NULL, &st), 0);
	assert_int_equal(st.decision, BISECT_BAD);
	assert_true(st.error_bound == 0.01);
	assert_true(st.change_pct > 29 && st.change_pct < 31);
	assert_int_equal(bisect_step_decide(g, 5, b, 5, good, 1, NULL, &st), 0);
	assert_int_equal(st.decision, BISECT_GOOD);
}

/* Endpoints: an A/A is "nothing to bisect" at most alpha of the time; a real change is found. */
static void test_endpoints(void **state)
{
	int differ_aa = 0, differ_ab = 0;

	(void)state;
	seeded_state = 0xe4d0ull;
	for (int t = 0; t < TRIALS; t++) {
		double g[NEND], b[NEND], c[NEND];
		struct stats_test st;

		for (int i = 0; i < NEND; i++) {
			g[i] = seeded_gauss2();
			b[i] = seeded_gauss2();
			c[i] = 4 + seeded_gauss2();
		}
		differ_aa += bisect_endpoints(g, NEND, b, NEND, 0.01, &st) == 1;
		differ_ab += bisect_endpoints(g, NEND, c, NEND, 0.01, &st) == 1;
	}
	print_message("endpoints: A/A called different %d/%d, 4 sd found %d/%d\n", differ_aa,
		      TRIALS, differ_ab, TRIALS);
	assert_true(differ_aa <= TRIALS * 0.0167);
	assert_true(differ_ab >= TRIALS * 0.95);
	{
		double one[] = { 1 };
		struct stats_test st;

		assert_int_equal(bisect_endpoints(one, 1, one, 1, 0.01, &st), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_bounds),
		cmocka_unit_test(test_halfway_skips),
		cmocka_unit_test(test_clear_step),
		cmocka_unit_test(test_endpoints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
