/*
 * Tests at the level where the variance lives (docs/statistics.md,
 * "Runs and iterations").  A label's values come from runs (one boot, or
 * one `mmbench run`), each run from iterations.  Runs differ from each
 * other by more than their iterations do (boot-to-boot layout, caches,
 * frequency), so iterations of one run are not independent samples of the
 * kernel: with two or more runs on a side the test's unit is the run (its
 * mean), otherwise the iteration, and the caller says so.
 * (Contract header: implemented in levels.c.)
 */
#ifndef MMB_LEVELS_H
#define MMB_LEVELS_H

#include "stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The unit a test treated as independent. */
enum stats_unit {
	STATS_UNIT_AUTO,	/* asked for: run when a side has >= 2 runs, else iteration */
	STATS_UNIT_RUN,		/* run means */
	STATS_UNIT_ITERATION,	/* every value pooled (the pre-levels rule, --unit iteration) */
};
int stats_unit_parse(const char *name, enum stats_unit *u);
const char *stats_unit_name(enum stats_unit u);		/* "run", "iteration" */

/*
 * Variance components of one label's values (raw scale), one-way random
 * effects by the method of moments (unbalanced: Searle's n0):
 *   within  = MSW,  between = max(0, (MSB - MSW) / n0).
 * CoVs are in % of the mean of the run means; NaN where not estimable
 * (between: fewer than 2 runs; within: no run with 2 values).
 */
struct stats_components {
	size_t nruns, n;
	double between_cov;	/* the run effect's standard deviation */
	double within_cov;	/* one value's, inside a run */
	double between_share;	/* between / (between + within), 0..1 */
	double runmean_cov;	/* the spread of the run means themselves */
};
/* v[0..n) grouped by run (equal run[] values are consecutive). */
void stats_components(const double *v, const int64_t *run, size_t n,
		      struct stats_components *out);
/* Each run's mean of v[0..n) (grouped by run) into m[] (room for n); returns the runs. */
size_t stats_run_means(const double *v, const int64_t *run, size_t n, double *m);
/* Number of runs in run[0..n) (consecutive equal ids are one run). */
size_t stats_count_runs(const int64_t *run, size_t n);

/* One side of a test: its values and the run of each (grouped by run). */
struct stats_side {
	const double *v;
	const int64_t *run;
	size_t n;
};

/* What a level-aware test used. */
struct stats_level_info {
	enum stats_unit unit;	/* RUN or ITERATION (never AUTO) */
	size_t nb, nn;		/* units a side: runs, or values */
	bool shared_var;	/* a side had one run: its variance is the other side's */
	bool ratio;		/* rel* are a ratio's interval (all values > 0) */
};

/*
 * The test of statistic `mean` between base and new at unit `want`,
 * for the p-value tests (welch, mwu; others run pooled as
 * stats_test_mean()).  At the run level the unit is each run's mean of
 * the transformed values (x, 1/x, ln x); with one run on a side its run
 * mean's variance is taken from the other side's runs (df of that side).
 * rel, rel_lo, rel_hi are the change of the statistic as a ratio and its
 * CI (Fieller for means of x and 1/x, exp for ln x, Hodges-Lehmann of
 * ln x for ranks) whenever every value is > 0, so they stay inside
 * (-100%, +inf); otherwise the difference's CI over |baseline|.
 * 0, or -1 when there is no test (too few units).
 */
int stats_test_levels(enum stats_test_kind kind, enum stats_mean_kind mean,
		      const struct stats_side *base, const struct stats_side *new_, int better,
		      enum stats_unit want, struct stats_test *out, struct stats_level_info *info);

/*
 * Fieller's interval of the ratio mn / mb of two independent means with
 * squared standard errors vb, vn at t quantile tq.  0 and [lo, hi] when
 * the baseline mean is bounded away from 0; lo may be <= 0 when mn is
 * not.  -1 when the interval is unbounded.
 */
int stats_fieller(double mb, double vb, double mn, double vn, double tq, double *lo, double *hi);

/*
 * Kalibera & Jones's plan for a two-level experiment: iterations per run
 * r = round(sqrt(cost_run / cost_iter * within^2 / between^2)) (at least
 * 1), and the runs per side for a 95% CI half-width of the mean within
 * `precision` % (CoVs in %).  0, or -1 when the components do not allow a
 * plan (NaN, or no spread at all).
 */
int stats_plan_levels(double between_cov, double within_cov, double cost_run, double cost_iter,
		      double precision, size_t *iters_per_run, size_t *runs);

/*
 * `ab --precision`: the rounds to have after a look at k rounds (a pilot
 * first, then doubling, at most max), or 0: stop.  It stops when every
 * label was precise at two looks in a row (once is too eager: a look
 * that happens to see a small spread ends the series early and leaves the
 * interval too narrow); *was_precise carries the last look's answer.
 * Simulated coverage: tests/unit/test_levels.c, docs/statistics.md.
 */
size_t stats_rounds_next(size_t k, bool precise, bool *was_precise, size_t max);

#endif
