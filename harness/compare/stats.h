/*
 * Statistics library: summaries (mmtests' formulas) and tests of a
 * difference.  Definitions: docs/statistics.md and docs/report-formats.md;
 * tests/unit/test_stats.c checks them against tests/fixtures/stats-vectors.json
 * (numpy/scipy, tools/gen-stats-vectors.py).
 * (Contract header: implemented in stats.c.)
 */
#ifndef MMB_STATS_H
#define MMB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dist.h"

struct stats_summary {
	size_t n;
	double min, max, q1, median, q3;	/* quartiles: linear interpolation (R type 7) */
	double amean, hmean, gmean;
	double stddev;		/* sample, n-1 */
	double pstddev;		/* population, n */
	double hstddev;		/* mmtests: sqrt(H^4 * sum((1/x - 1/H)^2) / n) */
	double coeffvar;	/* 100 * stddev / amean */
	double hcoeffvar;	/* 100 * hstddev / hmean */
	double best95;		/* BHmean.95 (higher better) or BAmean.95 (lower better) */
};

/*
 * Values near DBL_MAX or 0 (1.7e308, 1e-310) have squares, sums or
 * reciprocals that overflow or underflow.  Every statistic here is
 * computed on the values scaled by one power of two, 2^-e (exact), when
 * some nonzero |value| of a[0..na) and b[0..nb) is over 2^250 or under
 * 2^-250 (e = 0 otherwise: every other value is computed unscaled), and
 * what has the values' unit is scaled back; p, t, df and relative changes
 * do not depend on the scale.
 */
int stats_scale_exp(const double *a, size_t na, const double *b, size_t nb);
/* x[0..n) times 2^-e, malloc'ed (free() it) */
double *stats_scaled_copy(const double *x, size_t n, int e);
/*
 * 100 (new - base) / |base|, the change every layout prints, computed so
 * that it is finite whenever the true value is (1.6e308 vs 1.7e308 is
 * -5.88%, not -inf%); NaN when base is 0 or either is NaN.
 */
double stats_rel_pct(double base, double new_);
/* 100 part / |whole| (a CoV) without overflow; NaN when whole is 0 */
double stats_pct_of(double part, double whole);

/* better: +1 higher is better, -1 lower is better. x need not be sorted. */
void stats_summarise(const double *x, size_t n, int better, struct stats_summary *out);
/*
 * Room a summary sorts in, kept from call to call (one per thread): a
 * fresh heap per row was page faults and, with two threads, the TLB
 * shootdowns of the heap's trimming.  Zero-initialised; released once.
 */
struct stats_scratch {
	double *v;
	uint64_t *k;
	size_t alloc;
};
void stats_summarise_in(const double *x, size_t n, int better, struct stats_summary *out,
			struct stats_scratch *room);
void stats_scratch_release(struct stats_scratch *room);

enum stats_test_kind { STATS_WELCH, STATS_MWU, STATS_MMTESTS, STATS_LKP };

/*
 * What each test fills in:
 *   welch:   statistic t, df, p; diff = difference of arithmetic means and
 *            its 95% CI (t(0.975, df) * SE); significant = p < 0.05.
 *   mwu:     statistic U (of new vs base), p (exact or normal, see stats.c);
 *            diff = Hodges-Lehmann shift with its distribution-free 95% CI;
 *            significant = p < 0.05.
 *   mmtests: statistic = band ratio (|ratio| > 1 is mmtests' star), p NaN;
 *            diff = mean_new - mean_base (Hmean or Amean per direction) and
 *            [diff - s, diff + s] with s the two 1.96 sigma half-widths:
 *            the band rule as an interval, NOT a confidence interval.
 *   lkp:     statistic = median ratio (capped at 5), p NaN; diff and CI are
 *            Welch's (the rule has none); significant = separated and
 *            ratio > 1.01 (needs >= 3 runs on at least one side).
 * rel* are diff* in % of the baseline mean (arithmetic, or the rule's mean
 * for mmtests).  The sign is raw (new - base); direction is the caller's.
 */
struct stats_test {
	enum stats_test_kind kind;
	double statistic;	/* t, U, band ratio, median ratio */
	double df;		/* Welch only, else NaN */
	double p;		/* two-sided p-value; NaN when the test has none */
	double q;		/* BH-adjusted p (filled by the caller via stats_bh) */
	double diff;		/* new - base (see above) */
	double diff_lo, diff_hi;	/* 95% interval of diff */
	double rel, rel_lo, rel_hi;	/* same, in % of the baseline mean */
	bool significant;	/* the test's own verdict, before BH */
};

/* t as no test has filled it: kind, every number NaN, not significant. */
void stats_test_init(struct stats_test *t, enum stats_test_kind kind);
int stats_welch(const double *base, size_t nb, const double *new_, size_t nn,
		struct stats_test *out);
int stats_mwu(const double *base, size_t nb, const double *new_, size_t nn,
	      struct stats_test *out);
/* mmtests' +-1.96 sigma band rule; better selects Hmean/HStddev or Amean/Stddev. */
int stats_mmtests(const double *base, size_t nb, const double *new_, size_t nn,
		  int better, struct stats_test *out);
/* 0-day's min/median separation plus the 1.01 median ratio rule. */
int stats_lkp(const double *base, size_t nb, const double *new_, size_t nn,
	      struct stats_test *out);
int stats_test_run(enum stats_test_kind kind, const double *base, size_t nb,
		   const double *new_, size_t nn, int better, struct stats_test *out);
int stats_test_parse(const char *name, enum stats_test_kind *kind);
const char *stats_test_name(enum stats_test_kind kind);

/*
 * The central statistic a comparison shows (--mean).  AUTO is the run
 * summary's choice: Hmean for a higher-is-better metric whose samples are
 * all > 0, else Amean.
 */
enum stats_mean_kind { STATS_MEAN_AUTO, STATS_AMEAN, STATS_HMEAN, STATS_GMEAN, STATS_MEDIAN };
int stats_mean_parse(const char *name, enum stats_mean_kind *kind);
const char *stats_mean_name(enum stats_mean_kind kind);		/* "hmean" */
const char *stats_mean_title(enum stats_mean_kind kind);	/* "Hmean" */
double stats_mean_of(const struct stats_summary *s, enum stats_mean_kind kind);
/* Can x[0..n) have this mean (Hmean, Gmean: every x > 0)? */
bool stats_mean_defined(enum stats_mean_kind kind, const double *x, size_t n);
/*
 * The test of that statistic.  With STATS_WELCH: amean on x; hmean on 1/x
 * and gmean on log x, the difference and its CI mapped back to the mean's
 * scale (rel* relative to the baseline's Hmean / Gmean); median with
 * Mann-Whitney U (Welch has no median), the Hodges-Lehmann CI relative to
 * the baseline median.  Other tests run as stats_test_run(), rel* relative
 * to the baseline's value of the chosen statistic.
 */
int stats_test_mean(enum stats_test_kind kind, enum stats_mean_kind mean, const double *base,
		    size_t nb, const double *new_, size_t nn, int better, struct stats_test *out);

/* a test's difference and its CI (what has the values' unit) times 2^e */
void stats_test_unscale(struct stats_test *t, int e);

/* Benjamini-Hochberg adjusted p-values, in input order; NaN p stays NaN. */
void stats_bh(const double *p, size_t n, double *q);

/* x[0..n) ascending, exactly as qsort() with a < b sorts it (a radix sort). */
void stats_sort(double *x, size_t n);
/* Quantile p of sorted s[0..n), linear interpolation (R type 7). */
double stats_quantile_sorted(const double *s, size_t n, double p);

/*
 * The statistic kind of x[0..n) with its (1 - alpha) confidence interval
 * (what a plot draws for one kernel): Amean +- t SE; Hmean and Gmean the
 * same interval on 1/x and log x mapped back; a median the order
 * statistics of the distribution-free 95% interval.  An undefined Hmean or
 * Gmean falls back to the Amean; n < 2: lo = hi = mean; n = 0: NaN.
 */
void stats_mean_ci(const double *x, size_t n, int better, enum stats_mean_kind kind, double alpha,
		   double *mean, double *lo, double *hi);

#endif
