/*
 * Level-aware tests (harness/compare/levels.c): the arithmetic on small
 * known cases, then a seeded simulation of two-level data (runs with a
 * random effect, iterations inside them) that the default test must keep
 * at its nominal false-verdict rate and CI coverage in every cell, while
 * the pooled rule (every iteration independent) is shown failing on the
 * same draws.  MMBENCH_SIM_TABLE=1 prints the table docs/statistics.md
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
#include "levels.h"
#include "precision.h"
#include "stats.h"
#include "seeded.h"

static void test_unit_names(void **state)
{
	enum stats_unit u;

	(void)state;
	assert_int_equal(stats_unit_parse("run", &u), 0);
	assert_int_equal(u, STATS_UNIT_RUN);
	assert_int_equal(stats_unit_parse("iteration", &u), 0);
	assert_int_equal(u, STATS_UNIT_ITERATION);
	assert_int_equal(stats_unit_parse("auto", &u), 0);
	assert_int_equal(u, STATS_UNIT_AUTO);
	assert_int_equal(stats_unit_parse("boot", &u), -1);
	assert_string_equal(stats_unit_name(STATS_UNIT_RUN), "run");
}

static void test_components(void **state)
{
	const double v[] = { 1, 2, 3, 11, 12, 13 };
	const int64_t run[] = { 4, 4, 4, 9, 9, 9 }, one[] = { 1, 1, 1, 1, 1, 1 };
	const int64_t each[] = { 1, 2, 3, 4, 5, 6 };
	struct stats_components c;

	(void)state;
	/* MSW 1, MSB 150, n0 3: between (150 - 1) / 3 around a grand mean of 7 */
	stats_components(v, run, 6, &c);
	assert_int_equal(c.nruns, 2);
	assert_true(fabs(c.within_cov - 100.0 / 7) < 1e-9);
	assert_true(fabs(c.between_cov - 100 * sqrt(149.0 / 3) / 7) < 1e-9);
	assert_true(fabs(c.between_share - (149.0 / 3) / (149.0 / 3 + 1)) < 1e-12);
	assert_true(fabs(c.runmean_cov - 100 * sqrt(50) / 7) < 1e-9);
	/* one run: nothing between; one value a run: nothing within */
	stats_components(v, one, 6, &c);
	assert_int_equal(c.nruns, 1);
	assert_true(isnan(c.between_cov) && isnan(c.between_share) && !isnan(c.within_cov));
	stats_components(v, each, 6, &c);
	assert_int_equal(c.nruns, 6);
	assert_true(isnan(c.within_cov) && isnan(c.between_cov) && !isnan(c.runmean_cov));
	assert_int_equal(stats_count_runs(each, 6), 6);
	assert_int_equal(stats_count_runs(run, 0), 0);
}

static void test_fieller(void **state)
{
	double lo, hi;

	(void)state;
	/* (5 - 10 R)^2 = 4 (0.25 + R^2): R = 0.375 or 2/3 */
	assert_int_equal(stats_fieller(10, 1, 5, 0.25, 2, &lo, &hi), 0);
	assert_true(fabs(lo - 0.375) < 1e-12 && fabs(hi - 2.0 / 3) < 1e-12);
	/* a baseline mean not bounded away from 0: no interval */
	assert_int_equal(stats_fieller(1, 1, 5, 0.25, 2, &lo, &hi), -1);
}

/*
 * The plan of the figures: boot-to-boot 11.9%, within 5.4%, a boot
 * costs 5 iterations: sqrt(5 * 5.4^2 / 11.9^2) = 1.01, one iteration a
 * boot; then t(0.975, n-1) * sqrt(11.9^2 + 5.4^2) / sqrt(n) <= 5%.
 */
static void test_plan(void **state)
{
	size_t r, n;

	(void)state;
	assert_int_equal(stats_plan_levels(11.9, 5.4, 5, 1, 5, &r, &n), 0);
	assert_int_equal(r, 1);
	assert_int_equal(n, 29);
	/* within-run noise dominates and boots are dear: more iterations a boot */
	assert_int_equal(stats_plan_levels(1, 10, 100, 1, 2, &r, &n), 0);
	assert_int_equal(r, 100);
	assert_true(n >= 2 && n < 10);
	assert_int_equal(stats_plan_levels(NAN, 5, 5, 1, 5, &r, &n), -1);
}

/* A ratio's interval stays inside (-100%, +inf), where a difference's need not. */
static void test_ratio_bounds(void **state)
{
	const double b[] = { 1.0, 0.2, 1.8 }, x[] = { 0.03, 0.035, 0.04 };
	const int64_t rb[] = { 1, 2, 3 }, rx[] = { 4, 5, 6 };
	const struct stats_side sb = { b, rb, 3 }, sx = { x, rx, 3 };
	struct stats_test t;
	struct stats_level_info li;

	(void)state;
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sx, -1,
					   STATS_UNIT_AUTO, &t, &li), 0);
	assert_int_equal(li.unit, STATS_UNIT_RUN);
	assert_true(li.ratio);
	assert_true(t.rel_lo >= -100 && t.rel_lo < t.rel && t.rel < t.rel_hi);
	/* the old interval, difference / baseline: far below -100% */
	assert_true(100 * t.diff_lo / 1.0 < -100);
	/* Hmean of a rate: bounded above where the data bound it */
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_HMEAN, &sx, &sb, 1,
					   STATS_UNIT_AUTO, &t, &li), 0);
	assert_true(t.rel_lo > -100 && t.rel_hi > t.rel);
}

/* One run a side: iterations are the unit; one run against three: run level. */
static void test_unit_choice(void **state)
{
	const double b[] = { 10, 11, 9, 10 }, x[] = { 12, 13, 11, 12, 14, 12 };
	const int64_t r1[] = { 1, 1, 1, 1 }, r2[] = { 2, 2, 3, 3, 4, 4 };
	const struct stats_side sb = { b, r1, 4 }, sx1 = { x, r2, 4 }, sx = { x, r2, 6 };
	const int64_t same[] = { 2, 2, 2, 2 };
	const struct stats_side sone = { x, same, 4 };
	struct stats_test t;
	struct stats_level_info li;

	(void)state;
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sone, 1,
					   STATS_UNIT_AUTO, &t, &li), 0);
	assert_int_equal(li.unit, STATS_UNIT_ITERATION);
	assert_int_equal(li.nb, 4);
	/* 1 run v 3: the single run borrows the other side's run variance */
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sx, 1,
					   STATS_UNIT_AUTO, &t, &li), 0);
	assert_int_equal(li.unit, STATS_UNIT_RUN);
	assert_int_equal(li.nb, 1);
	assert_int_equal(li.nn, 3);
	assert_true(li.shared_var);
	assert_true(fabs(t.df - 2) < 1e-12);
	/* 1 run v 2 runs, forced to the pooled rule: 4 v 4 values */
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sx1, 1,
					   STATS_UNIT_ITERATION, &t, &li), 0);
	assert_int_equal(li.unit, STATS_UNIT_ITERATION);
	assert_int_equal(li.nn, 4);
	/* --unit run with one run a side: no test */
	assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sone, 1,
					   STATS_UNIT_RUN, &t, &li), -1);
	assert_true(isnan(t.p));
}

/* ---- the simulation ---- */

struct cell {
	double between, within;	/* CoV, as a fraction */
	size_t runs, iters;
	int lognormal;
};

/* One side: runs x iters values around mu, grouped by run. */
static void draw(const struct cell *c, double mu, double *v, int64_t *run, int64_t first)
{
	double sb = c->lognormal ? sqrt(log1p(c->between * c->between)) : c->between;
	double sw = c->lognormal ? sqrt(log1p(c->within * c->within)) : c->within;
	size_t k = 0;

	for (size_t r = 0; r < c->runs; r++) {
		double b = seeded_gauss2() * sb;

		for (size_t i = 0; i < c->iters; i++, k++) {
			double z = b + seeded_gauss2() * sw;

			v[k] = c->lognormal ? mu * exp(z) : mu * (1 + z);
			run[k] = first + (int64_t)r;
		}
	}
}

struct tally {
	size_t trials, level_sig, pooled_sig, covered;
};

/* A/A and a true -10% change on the same kind of data; the default statistic of a rate. */
static void sim_cell(const struct cell *c, size_t trials, struct tally *t)
{
	size_t n = c->runs * c->iters;
	double *vb = malloc(n * sizeof(double)), *vn = malloc(n * sizeof(double));
	int64_t *rb = malloc(n * sizeof(int64_t)), *rn = malloc(n * sizeof(int64_t));
	const struct stats_side sb = { vb, rb, n }, sn = { vn, rn, n };

	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < trials; k++) {
		struct stats_test st;
		struct stats_level_info li;

		draw(c, 1000, vb, rb, 1);
		draw(c, 1000, vn, rn, 1000);
		if (!stats_test_levels(STATS_WELCH, STATS_HMEAN, &sb, &sn, 1, STATS_UNIT_AUTO,
				       &st, &li))
			t->level_sig += st.p < 0.05;
		if (!stats_test_levels(STATS_WELCH, STATS_HMEAN, &sb, &sn, 1,
				       STATS_UNIT_ITERATION, &st, &li))
			t->pooled_sig += st.p < 0.05;
		/* coverage: the new side 10% lower (the same draws scaled: an honest sample
		 * of the lower mean, and no second set of draws to pay for) */
		for (size_t j = 0; j < n; j++)
			vn[j] *= 0.9;
		if (!stats_test_levels(STATS_WELCH, STATS_HMEAN, &sb, &sn, 1, STATS_UNIT_AUTO,
				       &st, &li))
			t->covered += st.rel_lo <= -10 && -10 <= st.rel_hi;
		t->trials++;
	}
	free(vb);
	free(vn);
	free(rb);
	free(rn);
}

static void test_simulation(void **state)
{
	const double betweens[] = { 0.02, 0.20 }, withins[] = { 0.01, 0.10 };
	const size_t runs[] = { 2, 3, 10 }, iters[] = { 1, 3, 30 };
	bool table = getenv("MMBENCH_SIM_TABLE") != NULL;
	double worst_rate = 0, worst_cover = 1, pooled_max = 0;
	size_t bad = 0;

	(void)state;
	seeded_state = 0x5deece66dull;
	if (table)
		printf("| dist | between | within | runs x iters | level-aware false | "
		       "pooled false | coverage (-10%%) |\n|---|---|---|---|---|---|---|\n");
	for (int ln = 0; ln < 2; ln++)
		for (size_t a = 0; a < 2; a++)
			for (size_t b = 0; b < 2; b++)
				for (size_t r = 0; r < 3; r++)
					for (size_t i = 0; i < 3; i++) {
						const struct cell c = { betweens[a], withins[b], runs[r],
									iters[i], ln };
						struct tally t;
						double rate, pooled, cover;

						/*
						 * >= 4000 trials a cell; 10000 where the test is at its
						 * nominal 5% (10 runs a side), so that 5.5% is 3 standard
						 * errors away and not a coin toss of the seed
						 */
						sim_cell(&c, c.runs >= 10 ? 10000 : 4000, &t);
						rate = (double)t.level_sig / (double)t.trials;
						pooled = (double)t.pooled_sig / (double)t.trials;
						cover = (double)t.covered / (double)t.trials;
						if (table)
							printf("| %s | %.0f%% | %.0f%% | %zu x %zu | "
							       "%.2f%% | %.2f%% | %.2f%% |\n",
							       ln ? "log-normal" : "normal",
							       100 * c.between, 100 * c.within, c.runs,
							       c.iters, 100 * rate, 100 * pooled,
							       100 * cover);
						if (rate > worst_rate)
							worst_rate = rate;
						if (cover < worst_cover)
							worst_cover = cover;
						if (pooled > pooled_max)
							pooled_max = pooled;
						/* the bounds, per cell: every cell is reported first */
						if (rate > 0.055 || cover < 0.94) {
							printf("cell out of bounds: %s between %.0f%% within "
							       "%.0f%% %zu x %zu: false %.2f%%, coverage "
							       "%.2f%%\n", ln ? "log-normal" : "normal",
							       100 * c.between, 100 * c.within, c.runs,
							       c.iters, 100 * rate, 100 * cover);
							bad++;
						}
					}
	printf("level-aware: worst false-verdict rate %.2f%%, worst coverage %.2f%%; "
	       "pooled rule: up to %.1f%%\n", 100 * worst_rate, 100 * worst_cover,
	       100 * pooled_max);
	assert_int_equal(bad, 0);
	/* the old rule is not a bound at all once runs differ */
	assert_true(pooled_max > 0.5);
}

/*
 * ab --precision's schedule under optional stopping: runs with a random
 * effect, the pilot's 3 rounds, then 6, 12, ... until precise at two
 * looks in a row.  Coverage of the final run-level 95% CI of a label's
 * mean (the interval compare reports), and the rounds it took.
 */
static double runs_mean(const double *x, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	return m / (double)n;
}

static void test_rounds_schedule(void **state)
{
	const double betweens[] = { 0.02, 0.12, 0.20 }, precisions[] = { 0.02, 0.05, 0.10 };
	const size_t iters[] = { 1, 10 }, max = 400, trials = 4000;
	bool table = getenv("MMBENCH_SIM_TABLE") != NULL;
	double *x = malloc(max * sizeof(*x)), worst = 1;
	bool was = false;

	(void)state;
	/* the schedule itself */
	assert_int_equal(stats_rounds_next(3, true, &was, 30), 6);	/* once is not enough */
	assert_int_equal(stats_rounds_next(6, true, &was, 30), 0);
	was = false;
	assert_int_equal(stats_rounds_next(3, false, &was, 30), 6);
	assert_int_equal(stats_rounds_next(24, false, &was, 30), 30);
	assert_int_equal(stats_rounds_next(30, false, &was, 30), 0);
	seeded_state = 0x853c49e6748fea9bull;
	for (int ln = 0; ln < 2; ln++)
		for (size_t a = 0; a < 3; a++)
			for (size_t i = 0; i < 2; i++)
				for (size_t p = 0; p < 3; p++) {
					size_t covered = 0, rounds = 0;
					double cov, truth = ln ? 1000 * exp((betweens[a] * betweens[a] +
									     0.0025) / 2) : 1000;

					for (size_t t = 0; t < trials; t++) {
						size_t k = 0, target = 3;
						double hw;

						was = false;
						for (;;) {
							for (; k < target; k++) {
								double b = seeded_gauss2() * betweens[a], s = 0;

								for (size_t j = 0; j < iters[i]; j++) {
									double z = b + seeded_gauss2() * 0.05;

									s += ln ? 1000 * exp(z) : 1000 * (1 + z);
								}
								x[k] = s / (double)iters[i];
							}
							hw = precision_rel_halfwidth(x, k);
							target = stats_rounds_next(k, hw <= precisions[p], &was, max);
							if (!target)
								break;
						}
						covered += fabs(runs_mean(x, k) - truth) <= hw * fabs(runs_mean(x, k));
						rounds += k;
					}
					cov = (double)covered / (double)trials;
					if (table)
						printf("| %s | %.0f%% | 5%% | %zu | +-%.0f%% | %.1f | %.2f%% |\n",
						       ln ? "log-normal" : "normal", 100 * betweens[a], iters[i],
						       100 * precisions[p], (double)rounds / (double)trials,
						       100 * cov);
					if (cov < worst)
						worst = cov;
				}
	printf("ab --precision schedule: worst coverage %.2f%%\n", 100 * worst);
	free(x);
	assert_true(worst >= 0.92);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit_names),
		cmocka_unit_test(test_components),
		cmocka_unit_test(test_fieller),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_ratio_bounds),
		cmocka_unit_test(test_unit_choice),
		cmocka_unit_test(test_simulation),
		cmocka_unit_test(test_rounds_schedule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
