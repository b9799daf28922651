/*
 * bench/power.c: how many iterations does a comparison need on this
 * machine?  (make bench material, built by bench/sensitivity.sh.)
 *
 * Takes a pool of real samples of one metric of one kernel (from an mmbench
 * DB, or a file of numbers) and bootstraps pairs of groups of size n:
 *   A/A: both groups drawn from the pool (any verdict is a false positive);
 *   A/B: the new group scaled by a regression of --shift % (x 0.98 for a
 *        higher-is-better metric, x 1.02 for a lower-is-better one).
 * Each pair goes through the tests of `mmbench compare` (stats.c): welch
 * (the default), mwu, the mmtests band rule and the lkp separation rule.
 * Prints, for each n, the A/A false-positive rate, the detection rate of the
 * regression (significant AND in the regression's direction) and the median
 * width of Welch's 95% CI of the relative change.
 *
 * Caveat: resampling treats the pool as i.i.d.  Real samples drift (thermal,
 * other tenants, page cache), which this cannot see; interleaving the two
 * kernels (A B A B ...) is what keeps drift out of a real comparison.
 * --find80 MAX goes on past --nmax (welch only, growing steps, then
 * bisecting) until welch reaches 80% power.
 * --disjoint N also splits the pool into disjoint A/A pairs, once shuffled
 * and once in recording order (the latter keeps the drift in).
 */
#include "db.h"
#include "read.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE \
	"usage: power (--db FILE --label L [--label L...] --workload W --metric M\n" \
	"              [--variant V] | --file FILE --better higher|lower)\n" \
	"             [--shift PCT] [--trials N] [--seed S] [--nmin N] [--nmax N]\n" \
	"             [--find80 MAX] [--disjoint N]\n"

enum { T_WELCH, T_MWU, T_MMTESTS, T_LKP, NTESTS };
static const char *const tname[NTESTS] = { "welch", "mwu", "mmtests", "lkp" };

struct pool {
	double *v;
	size_t n, alloc;
	int better;
};

/* splitmix64: small, seedable, the same sequence everywhere */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t rng_below(size_t n)
{
	/* rejection keeps it unbiased; n is tiny next to 2^64 */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = rng_next();
	while (r >= lim);
	return (size_t)(r % n);
}

static void pool_add(struct pool *p, double v)
{
	ALLOC_GROW(p->v, p->n + 1, p->alloc);
	p->v[p->n++] = v;
}

static int load_file(const char *path, struct pool *p)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned lineno = 0;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *end;
		double v;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		errno = 0;
		v = strtod(s, &end);
		while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
			end++;
		if (end == s || *end || errno || !isfinite(v)) {
			fclose(f);
			s[strcspn(s, "\r\n")] = 0;
			return error("%s:%u:%d: not a finite number: '%s'", path, lineno,
				     (int)(s - line) + 1, s);
		}
		pool_add(p, v);
	}
	fclose(f);
	return 0;
}

/* Samples of usable runs of the labels, in recording order (db_label_samples). */
static int load_db(const char *path, const char **labels, size_t nl, const char *workload,
		   const char *variant, const char *metric, struct pool *p)
{
	struct mmb_db db;
	double *v;
	size_t n;
	int ret;

	if (db_open_existing(&db, path))
		return -1;
	ret = db_label_samples(&db, labels, nl, workload, variant, metric, &v, &n, &p->better);
	for (size_t i = 0; !ret && i < n; i++)
		pool_add(p, v[i]);
	free(v);
	db_close(&db);
	return ret;
}

/* One pair through every test; flags[t] = the test calls it significant. */
static void run_tests(const double *a, const double *b, size_t n, int better, int ntests,
		      bool *sig, int *dir, double *welch_ci_width)
{
	struct stats_test t;

	for (int k = 0; k < ntests; k++) {
		switch (k) {
		case T_WELCH:
			stats_welch(a, n, b, n, &t);
			sig[k] = !isnan(t.p) && t.p < 0.05;
			if (welch_ci_width)
				*welch_ci_width = t.rel_hi - t.rel_lo;
			break;
		case T_MWU:
			stats_mwu(a, n, b, n, &t);
			sig[k] = t.p < 0.05;
			break;
		case T_MMTESTS:
			stats_mmtests(a, n, b, n, better, &t);
			sig[k] = t.significant;
			break;
		default:
			stats_lkp(a, n, b, n, &t);
			sig[k] = t.significant;
			break;
		}
		/* +1 better, -1 worse, as compare's verdict reads it */
		dir[k] = t.diff * better > 0 ? 1 : t.diff * better < 0 ? -1 : 0;
	}
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void draw(const struct pool *p, double *out, size_t n, double scale)
{
	for (size_t i = 0; i < n; i++)
		out[i] = p->v[rng_below(p->n)] * scale;
}

/* A/A on disjoint pairs of groups of n: shuffled, or in recording order. */
static void disjoint(const struct pool *p, size_t n, bool shuffle)
{
	double *v = xmalloc(p->n * sizeof(*v));
	size_t pairs = p->n / (2 * n), fp[NTESTS] = { 0 };
	bool sig[NTESTS];
	int dir[NTESTS];

	memcpy(v, p->v, p->n * sizeof(*v));
	if (shuffle)
		for (size_t i = p->n - 1; i > 0; i--) {
			size_t j = rng_below(i + 1);
			double t = v[i];

			v[i] = v[j];
			v[j] = t;
		}
	for (size_t k = 0; k < pairs; k++) {
		run_tests(v + 2 * k * n, v + (2 * k + 1) * n, n, p->better, NTESTS, sig, dir, NULL);
		for (int t = 0; t < NTESTS; t++)
			fp[t] += sig[t];
	}
	printf("disjoint A/A, %s: %zu pairs of n=%zu, \"no significant change\":",
	       shuffle ? "shuffled         " : "in recording order", pairs, n);
	for (int t = 0; t < NTESTS; t++)
		printf(" %s %zu/%zu", tname[t], pairs - fp[t], pairs);
	printf("\n");
	free(v);
}

struct row {
	size_t n;
	double fp[NTESTS], power[NTESTS];	/* % of trials */
	double width;				/* median welch CI95 width, % */
};

/*
 * trials A/A and A/B pairs of size n, through the first ntests tests
 * (1 = welch only: mwu's Hodges-Lehmann CI costs n^2 log n per pair).
 */
static void one_n(const struct pool *p, size_t n, size_t trials, double scale, int ntests,
		  struct row *r)
{
	double *a = xmalloc(n * sizeof(*a)), *b = xmalloc(n * sizeof(*b));
	double *width = xmalloc(trials * sizeof(*width));
	size_t fp[NTESTS] = { 0 }, hit[NTESTS] = { 0 };
	bool sig[NTESTS];
	int dir[NTESTS];

	for (size_t k = 0; k < trials; k++) {
		draw(p, a, n, 1);
		draw(p, b, n, 1);
		run_tests(a, b, n, p->better, ntests, sig, dir, NULL);
		for (int t = 0; t < ntests; t++)
			fp[t] += sig[t];
		draw(p, a, n, 1);
		draw(p, b, n, scale);
		run_tests(a, b, n, p->better, ntests, sig, dir, &width[k]);
		for (int t = 0; t < ntests; t++)
			hit[t] += sig[t] && dir[t] < 0;
	}
	qsort(width, trials, sizeof(*width), cmp_dbl);
	r->n = n;
	for (int t = 0; t < NTESTS; t++) {
		r->fp[t] = t < ntests ? 100.0 * (double)fp[t] / (double)trials : NAN;
		r->power[t] = t < ntests ? 100.0 * (double)hit[t] / (double)trials : NAN;
	}
	r->width = stats_quantile_sorted(width, trials, 0.5);
	free(a);
	free(b);
	free(width);
}

static void print_pct(double v)
{
	if (isnan(v))
		printf(" %6s", "-");	/* not run at this n */
	else
		printf(" %6.1f", v);
}

static void print_row(const struct row *r, size_t trials)
{
	(void)trials;
	printf("%4zu |", r->n);
	for (int t = 0; t < NTESTS; t++)
		print_pct(r->fp[t]);
	printf(" |");
	for (int t = 0; t < NTESTS; t++)
		print_pct(r->power[t]);
	printf(" | %6.2f\n", r->width);
}

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !(*out >= lo && *out <= hi))
		return error("%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dbpath = NULL, *file = NULL, *workload = NULL, *metric = NULL;
	const char *variant = "", *better_s = NULL;
	const char **labels = xcalloc((size_t)argc, sizeof(*labels));
	size_t nl = 0;
	double shift = 2, trials_d = 2000, seed_d = 1, nmin_d = 3, nmax_d = 30, disj_d = 0,
	       find80_d = 0;
	struct pool p = { 0 };
	struct stats_summary sum;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;

		if (!v) {
			error("%s: needs a value (argument %d)", a, i);
			fputs(USAGE, stderr);
			return EXIT_USAGE;
		}
		i++;
		if (!strcmp(a, "--db"))
			dbpath = v;
		else if (!strcmp(a, "--file"))
			file = v;
		else if (!strcmp(a, "--label"))
			labels[nl++] = v;
		else if (!strcmp(a, "--workload"))
			workload = v;
		else if (!strcmp(a, "--metric"))
			metric = v;
		else if (!strcmp(a, "--variant"))
			variant = v;
		else if (!strcmp(a, "--better"))
			better_s = v;
		else if (!strcmp(a, "--shift"))
			bad = parse_num(a, v, 0.01, 50, &shift);
		else if (!strcmp(a, "--trials"))
			bad = parse_num(a, v, 100, 1e6, &trials_d);
		else if (!strcmp(a, "--seed"))
			bad = parse_num(a, v, 0, 1e15, &seed_d);
		else if (!strcmp(a, "--nmin"))
			bad = parse_num(a, v, 2, 1000, &nmin_d);
		else if (!strcmp(a, "--nmax"))
			bad = parse_num(a, v, 2, 1000, &nmax_d);
		else if (!strcmp(a, "--find80"))
			bad = parse_num(a, v, 2, 100000, &find80_d);
		else if (!strcmp(a, "--disjoint"))
			bad = parse_num(a, v, 2, 1000, &disj_d);
		else {
			error("unknown option '%s' (argument %d)", a, i - 1);
			fputs(USAGE, stderr);
			return EXIT_USAGE;
		}
		if (bad)
			return EXIT_USAGE;
	}
	if (!!dbpath == !!file) {
		error("give exactly one of --db FILE and --file FILE");
		fputs(USAGE, stderr);
		return EXIT_USAGE;
	}
	if (dbpath && (!nl || !workload || !metric)) {
		error("--db needs --label, --workload and --metric");
		return EXIT_USAGE;
	}
	if (file && (!better_s || (strcmp(better_s, "higher") && strcmp(better_s, "lower")))) {
		error("--file needs --better higher|lower");
		return EXIT_USAGE;
	}
	if (nmin_d > nmax_d) {
		error("--nmin %g is above --nmax %g", nmin_d, nmax_d);
		return EXIT_USAGE;
	}
	if (file ? load_file(file, &p)
		 : load_db(dbpath, labels, nl, workload, variant, metric, &p))
		return EXIT_USAGE;
	if (file)
		p.better = strcmp(better_s, "higher") ? -1 : 1;
	if (p.n < 4) {
		if (file)
			error("%s: %zu numbers: need at least 4 to resample", file, p.n);
		else
			error("%s: %zu samples of %s %s%s%s in complete/interrupted runs of"
			      " the given labels: need at least 4 to resample", dbpath, p.n,
			      workload, metric, *variant ? " variant " : "", variant);
		return EXIT_USAGE;
	}

	size_t trials = (size_t)trials_d, nmin = (size_t)nmin_d, nmax = (size_t)nmax_d;
	/* a regression: higher-is-better values shrink, lower-is-better grow */
	double scale = 1 - p.better * shift / 100;
	size_t find80 = (size_t)find80_d;
	size_t n80[NTESTS];

	rng_state = (uint64_t)seed_d;
	stats_summarise(p.v, p.n, p.better, &sum);
	if (file)
		printf("pool: %zu samples from %s, %s is better\n", p.n, file,
		       p.better > 0 ? "higher" : "lower");
	else {
		printf("pool: %zu samples of %s %s%s%s%s from %s, labels", p.n, workload, metric,
		       *variant ? " [" : "", variant, *variant ? "]" : "", dbpath);
		for (size_t i = 0; i < nl; i++)
			printf(" %s", labels[i]);
		printf(", %s is better\n", p.better > 0 ? "higher" : "lower");
	}
	printf("pool: mean %.6g, median %.6g, min %.6g, max %.6g, CV %.2f%%\n", sum.amean,
	       sum.median, sum.min, sum.max, sum.coeffvar);
	printf("bootstrap: %zu resampled pairs per n and case, seed %llu; A/B = new x %.4f"
	       " (a %.2f%% regression)\n", trials, (unsigned long long)seed_d, scale, shift);
	printf("caveat: resampling assumes i.i.d. samples; drift over time is not in it"
	       " (interleave A B A B to keep drift out of real comparisons)\n");
	printf("detection = significant at alpha 0.05 AND in the regression's direction;"
	       " one row, so BH changes nothing here\n\n");
	printf("     |  A/A false positive %%         |  %.0f%% regression detected %%     | welch\n",
	       shift);
	printf("   n |  welch    mwu mmtests    lkp |  welch    mwu mmtests    lkp | CI95 width %%\n");

	for (int t = 0; t < NTESTS; t++)
		n80[t] = 0;
	for (size_t n = nmin; n <= nmax; n++) {
		struct row r;

		one_n(&p, n, trials, scale, NTESTS, &r);
		print_row(&r, trials);
		for (int t = 0; t < NTESTS; t++)
			if (!n80[t] && r.power[t] >= 80)
				n80[t] = n;
	}
	/*
	 * Beyond the table, welch only: steps of 10% of n (at least 10), then
	 * bisect the last step (power grows with n, up to resampling noise).
	 */
	size_t reach = nmax;

	if (find80 > nmax && !n80[T_WELCH]) {
		size_t lo = nmax, hi = 0, step;

		for (size_t n = nmax; n < find80 && !n80[T_WELCH]; n += step) {
			struct row r;

			step = n / 10 > 10 ? n / 10 : 10;
			if (n + step > find80)
				step = find80 - n;
			one_n(&p, n + step, trials, scale, 1, &r);
			print_row(&r, trials);
			reach = n + step;
			if (r.power[T_WELCH] >= 80)
				n80[T_WELCH] = hi = n + step;
			else
				lo = n + step;
		}
		while (hi && hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			struct row r;

			one_n(&p, mid, trials, scale, 1, &r);
			if (r.power[T_WELCH] >= 80)
				hi = mid;
			else
				lo = mid;
		}
		if (hi)
			n80[T_WELCH] = hi;
	}
	printf("\n");
	for (int t = 0; t < NTESTS; t++) {
		if (n80[t])
			printf("%-8s reaches 80%% power for a %.0f%% regression at n=%zu\n",
			       tname[t], shift, n80[t]);
		else
			printf("%-8s does not reach 80%% power for a %.0f%% regression by n=%zu\n",
			       tname[t], shift, t == T_WELCH ? reach : nmax);
	}
	printf("result:");
	for (int t = 0; t < NTESTS; t++) {
		if (n80[t])
			printf(" n80.%s=%zu", tname[t], n80[t]);
		else
			printf(" n80.%s=none", tname[t]);
	}
	printf("\n");
	if (disj_d > 0) {
		size_t dn = (size_t)disj_d;

		if (p.n < 4 * dn)
			printf("disjoint A/A: pool too small for 2 pairs of n=%zu\n", dn);
		else {
			disjoint(&p, dn, true);
			disjoint(&p, dn, false);
		}
	}
	free(p.v);
	free(labels);
	return 0;
}
