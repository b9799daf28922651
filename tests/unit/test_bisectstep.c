/*
 * The bisect step decision (harness/compare/bisectstep.c): small known
 * cases, then seeded simulations of run-level data at known effect sizes
 * (2000 trials per case) showing the per-step error bound holds: a good
 * commit is called bad, or a bad one good, in at most error_bound of the
 * trials.  Each round measures the good endpoint, the bad endpoint and the
 * candidate once (interleaved), after 3 runs of each endpoint from the
 * endpoint check.  MMBENCH_SIM_TABLE=1 prints the table docs/bisect.md
 * quotes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bisectstep.h"
#include "stats.h"
#include "seeded.h"

#define TRIALS 2000
#define MAXR 40

static void test_known(void **state)
{
	const double good[] = { 100, 101, 99 }, bad[] = { 80, 81, 79 };
	const double at_good[] = { 100.5, 99.5 }, at_bad[] = { 80.2, 79.9 };
	const double between[] = { 90, 90 };
	struct bisect_step_opts o;
	struct bisect_step_result r;

	(void)state;
	bisect_step_opts_default(&o);
	assert_int_equal(bisect_step_decide(good, 3, bad, 3, at_good, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_GOOD);
	assert_true(fabs(r.error_bound - 0.01 / 0.99) < 1e-12);
	assert_int_equal(bisect_step_decide(good, 3, bad, 3, at_bad, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_BAD);
	assert_true(fabs(r.position - 0.9975) < 1e-9);
	assert_true(fabs(r.change + 0.1995) < 1e-9);
	/* one round is below the minimum */
	assert_int_equal(bisect_step_decide(good, 3, bad, 3, at_bad, 1, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_MORE);
	/* exactly halfway: more, then skip at --max-rounds with the reason */
	assert_int_equal(bisect_step_decide(good, 3, bad, 3, between, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_MORE);
	o.max_rounds = 2;
	assert_int_equal(bisect_step_decide(good, 3, bad, 3, between, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_SKIP);
	assert_non_null(strstr(r.reason, "--max-rounds"));
	assert_non_null(strstr(r.reason, "50%"));
	assert_string_equal(bisect_decision_name(r.decision), "skip");
	/* endpoints with one run are not enough */
	assert_int_equal(bisect_step_decide(good, 1, bad, 3, at_good, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_MORE);
	assert_non_null(strstr(r.reason, "2 runs each"));
}

static void test_no_spread(void **state)
{
	const double good[] = { 5, 5 }, bad[] = { 9, 9 }, c9[] = { 9, 9 }, c5[] = { 5, 5 };
	struct bisect_step_opts o;
	struct bisect_step_result r;

	(void)state;
	bisect_step_opts_default(&o);
	assert_int_equal(bisect_step_decide(good, 2, bad, 2, c9, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_BAD);
	assert_int_equal(bisect_step_decide(good, 2, bad, 2, c5, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_GOOD);
	/* no change between the endpoints: never decided */
	assert_int_equal(bisect_step_decide(good, 2, good, 2, c5, 2, &o, &r), 0);
	assert_int_equal(r.decision, BISECT_MORE);
	assert_non_null(strstr(r.reason, "do not separate"));
}

static void test_bad_opts(void **state)
{
	const double g[] = { 1, 2 };
	struct bisect_step_opts o;
	struct bisect_step_result r;

	(void)state;
	bisect_step_opts_default(&o);
	o.alpha = 0.7;
	assert_int_equal(bisect_step_decide(g, 2, g, 2, g, 2, &o, &r), -1);
	assert_non_null(strstr(r.reason, "alpha"));
	bisect_step_opts_default(&o);
	o.max_rounds = 1;
	assert_int_equal(bisect_step_decide(g, 2, g, 2, g, 2, &o, &r), -1);
	assert_non_null(strstr(r.reason, "--max-rounds"));
}

struct sim {
	double d;		/* |bad - good| in run standard deviations */
	int truth_bad;
	int wrong, skipped, rounds;
};

/* One step: rounds until decided; 1 when the decision is wrong. */
static enum bisect_decision sim_step(double d, int truth_bad, const struct bisect_step_opts *o,
				     int *rounds)
{
	double g[MAXR + 3], b[MAXR + 3], c[MAXR];
	double mu = truth_bad ? -d : 0;	/* bad is lower (a throughput regression) */
	struct bisect_step_result r;
	size_t n = 3;

	for (size_t i = 0; i < 3; i++) {
		g[i] = 100 + seeded_gauss2();
		b[i] = 100 - d + seeded_gauss2();
	}
	for (size_t k = 0; k < (size_t)o->max_rounds; k++) {
		g[n] = 100 + seeded_gauss2();
		b[n] = 100 - d + seeded_gauss2();
		c[k] = 100 + mu + seeded_gauss2();
		n++;
		assert_int_equal(bisect_step_decide(g, n, b, n, c, k + 1, o, &r), 0);
		if (r.decision != BISECT_MORE) {
			*rounds = (int)k + 1;
			return r.decision;
		}
	}
	fail_msg("the step neither decided nor skipped at --max-rounds");
	return BISECT_MORE;
}

static void run_case(struct sim *s, const struct bisect_step_opts *o)
{
	int rounds;

	s->wrong = s->skipped = s->rounds = 0;
	for (int t = 0; t < TRIALS; t++) {
		enum bisect_decision dec = sim_step(s->d, s->truth_bad, o, &rounds);

		s->rounds += rounds;
		if (dec == BISECT_SKIP)
			s->skipped++;
		else if ((dec == BISECT_BAD) != s->truth_bad)
			s->wrong++;
	}
}

static void test_error_bound(void **state)
{
	const double ds[] = { 0.5, 1, 2, 3, 5, 10 };
	struct bisect_step_opts o;
	int table = getenv("MMBENCH_SIM_TABLE") != NULL;

	(void)state;
	bisect_step_opts_default(&o);
	seeded_state = 0x5eedb15ec7ull;
	if (table)
		printf("| effect (sd) | truth | wrong | skipped | mean rounds |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		for (int tb = 0; tb <= 1; tb++) {
			struct sim s = { .d = ds[i], .truth_bad = tb };
			double bound = o.alpha / (1 - o.beta);

			run_case(&s, &o);
			if (table)
				printf("| %g | %s | %.2f%% | %.1f%% | %.2f |\n", s.d,
				       tb ? "bad" : "good", 100.0 * s.wrong / TRIALS,
				       100.0 * s.skipped / TRIALS, (double)s.rounds / TRIALS);
			if (s.wrong > bound * TRIALS)
				fail_msg("effect %g sd, truth %s: %d of %d wrong, bound %.3f",
					 s.d, tb ? "bad" : "good", s.wrong, TRIALS, bound);
			/* a large effect is decided, not skipped */
			if (ds[i] >= 5)
				assert_true(s.skipped <= TRIALS / 100);
		}
	}
}

/* long sequences (--max-rounds 30) at small effects: more chances to cross */
static void test_error_bound_long(void **state)
{
	const double ds[] = { 0.5, 1 };
	struct bisect_step_opts o;

	(void)state;
	bisect_step_opts_default(&o);
	o.max_rounds = 30;
	seeded_state = 0x10e65eedull;
	for (size_t i = 0; i < 2; i++) {
		for (int tb = 0; tb <= 1; tb++) {
			struct sim s = { .d = ds[i], .truth_bad = tb };

			run_case(&s, &o);
			if (getenv("MMBENCH_SIM_TABLE"))
				printf("| %g (30 rounds) | %s | %.2f%% | %.1f%% | %.2f |\n", s.d,
				       tb ? "bad" : "good", 100.0 * s.wrong / TRIALS,
				       100.0 * s.skipped / TRIALS, (double)s.rounds / TRIALS);
			if (s.wrong > o.alpha / (1 - o.beta) * TRIALS)
				fail_msg("effect %g sd over 30 rounds: %d of %d wrong", s.d,
					 s.wrong, TRIALS);
		}
	}
}

/*
 * The endpoint check with rounds added (bisect_endpoints_decide()): one
 * endpoint pair, measured n0 runs a side, then up to each next look.
 * Returns the runs a side it ended with; *found when it called them
 * different.
 */
static size_t sim_endpoints(double d, double sd_bad, size_t n0, int *found)
{
	double g[BISECT_ENDPOINT_LOOKS * 8], b[BISECT_ENDPOINT_LOOKS * 8];
	struct stats_test t;
	size_t n = 0, want = n0;

	for (;;) {
		for (; n < want; n++) {
			g[n] = 100 + seeded_gauss2();
			b[n] = 100 - d + sd_bad * seeded_gauss2();
		}
		switch (bisect_endpoints_decide(g, n, b, n, n0, &t)) {
		case BISECT_ENDPOINTS_DIFFER:
			*found = 1;
			return n;
		case BISECT_ENDPOINTS_SAME:
			*found = 0;
			/* the ratio CI is stated, and never below -100% */
			assert_true(t.rel_lo >= -100 && t.rel_lo <= t.rel && t.rel <= t.rel_hi);
			return n;
		case BISECT_ENDPOINTS_MORE:
			want = bisect_endpoints_next(n, n0);
			assert_true(want <= BISECT_ENDPOINT_LOOKS * n0);
			break;
		}
	}
}

/*
 * The endpoint check's false "there is a change" rate stays under its 5%
 * over all its looks (A/As, equal and unequal spreads), and it finds a
 * change the first look at 3 runs mostly misses.
 */
static void test_endpoints_sequential(void **state)
{
	const struct { double d, sd_bad; size_t n0; } cases[] = {
		{ 0, 1, 3 }, { 0, 2, 3 }, { 0, 1, 5 }, { 1.5, 1, 3 }, { 2, 1, 3 }, { 3, 1, 3 },
	};
	int table = getenv("MMBENCH_SIM_TABLE") != NULL;

	(void)state;
	seeded_state = 0xe4d901e7ull;
	if (table)
		printf("\n| change (sd) | sd of bad | first look | found | mean runs a side |\n"
		       "|---|---|---|---|---|\n");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int found = 0, f;
		size_t runs = 0;

		for (int t = 0; t < TRIALS; t++) {
			runs += sim_endpoints(cases[c].d, cases[c].sd_bad, cases[c].n0, &f);
			found += f;
		}
		if (table)
			printf("| %g | %g | %zu | %.1f%% | %.1f |\n", cases[c].d, cases[c].sd_bad,
			       cases[c].n0, 100.0 * found / TRIALS, (double)runs / TRIALS);
		if (cases[c].d == 0 && found > 0.05 * TRIALS)
			fail_msg("A/A, sd %g, n0 %zu: %d of %d called different", cases[c].sd_bad,
				 cases[c].n0, found, TRIALS);
		/* 3 sd is found at 9 runs a side nearly always */
		if (cases[c].d >= 3)
			assert_true(found >= 0.95 * TRIALS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_no_spread),
		cmocka_unit_test(test_bad_opts),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_error_bound_long),
		cmocka_unit_test(test_endpoints_sequential),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
