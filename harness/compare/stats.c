/*
 * Statistics: mmtests' summaries, Welch's t-test, Mann-Whitney U, the
 * mmtests band rule, 0-day's separation rule and Benjamini-Hochberg.
 * Everything in C with libm only (no R); the distributions are in
 * harness/base/dist.c.
 */
#include "stats.h"
#include "util.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define Z975 1.959963984540054	/* qnorm(0.975): mmtests' hard-coded alpha 0.05 */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Insertion sort of x[0..n): stable, for short arrays. */
static void insertion_sort(double *x, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		for (; j > 0 && v < x[j - 1]; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* The unsigned key whose order is the order of the (not NaN, not -0) doubles. */
static uint64_t dkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static double dval(uint64_t k)
{
	double d;

	k = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	memcpy(&d, &k, sizeof(d));
	return d;
}

/*
 * Sort x[0..n) ascending as qsort() with cmp_double() sorts it.  A stable
 * sort gives the one order of equal keys, so the result is glibc's merge
 * sort's: here an LSD radix sort, a byte a pass, the passes where every
 * key has the same byte skipped (about 7x faster on 5000 values).  Equal
 * doubles are equal bits but for -0 and 0, and a NaN has no order: then
 * qsort() as before.  k: room for 2n keys (n >= 64).
 */
static void sort_keys(double *x, size_t n, uint64_t *k)
{
	uint32_t count[8][256];
	uint64_t *t, lo = UINT64_MAX, hi = 0, span;
	int bytes = 0;

	if (n < 64) {
		for (size_t i = 0; i < n; i++)
			if (isnan(x[i])) {
				qsort(x, n, sizeof(*x), cmp_double);
				return;
			}
		insertion_sort(x, n);
		return;
	}
	t = k + n;
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]) || (x[i] == 0 && signbit(x[i]))) {
			qsort(x, n, sizeof(*x), cmp_double);
			return;
		}
		k[i] = dkey(x[i]);
		lo = k[i] < lo ? k[i] : lo;
		hi = k[i] > hi ? k[i] : hi;
	}
	/*
	 * The keys less the least: only the bytes their range spans take a
	 * pass (samples of one binade and a few digits: 6 of 8).
	 */
	for (span = hi - lo; span; span >>= 8)
		bytes++;
	memset(count, 0, sizeof(count));
	for (size_t i = 0; i < n; i++) {
		k[i] -= lo;
		for (int b = 0; b < bytes; b++)
			count[b][(k[i] >> (8 * b)) & 0xff]++;
	}
	for (int b = 0; b < bytes; b++) {
		uint32_t pos = 0, c;
		uint64_t *swap;

		if (count[b][(k[0] >> (8 * b)) & 0xff] == n)
			continue;	/* one byte value: the pass would not move anything */
		for (int d = 0; d < 256; d++) {
			c = count[b][d];
			count[b][d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			t[count[b][(k[i] >> (8 * b)) & 0xff]++] = k[i];
		swap = k;
		k = t;
		t = swap;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = dval(k[i] + lo);
}

/* room for n values and the sort's 2n keys */
static void scratch_reserve(struct stats_scratch *room, size_t n)
{
	if (n <= room->alloc)
		return;
	stats_scratch_release(room);
	room->v = xmalloc((n ? n : 1) * sizeof(*room->v));
	room->k = xmalloc((n ? 2 * n : 1) * sizeof(*room->k));
	room->alloc = n;
}

void stats_scratch_release(struct stats_scratch *room)
{
	free(room->v);
	free(room->k);
	memset(room, 0, sizeof(*room));
}

static void sort_doubles(double *x, size_t n)
{
	uint64_t *k = n < 64 ? NULL : xmalloc(2 * n * sizeof(*k));

	sort_keys(x, n, k);
	free(k);
}

void stats_sort(double *x, size_t n)
{
	sort_doubles(x, n);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		abort();
	memcpy(s, x, n * sizeof(*s));
	sort_doubles(s, n);
	return s;
}

/* R type 7 / numpy default: linear interpolation between order statistics. */
double stats_quantile_sorted(const double *s, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

static double hmean_of(const double *x, size_t n)
{
	double inv = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		inv += 1.0 / x[i];
	}
	return n ? (double)n / inv : NAN;
}

/* callers pass values stats_scale_exp() leaves alone: the sum is finite */
static double amean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / (double)n : NAN;
}

/* Sum of squared deviations, two-pass for accuracy. */
static double ssd(const double *x, size_t n, double mean)
{
	double s = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double d = x[i] - mean;

		s += d * d;
		c += d;
	}
	return s - c * c / (double)n;
}

static void summarise(const double *x, size_t n, int better, struct stats_summary *out,
		      struct stats_scratch *room);

/* A summary of values scaled by 2^-e back to theirs: what has their unit. */
static void unscale_summary(struct stats_summary *out, int e)
{
	out->min = ldexp(out->min, e);
	out->max = ldexp(out->max, e);
	out->q1 = ldexp(out->q1, e);
	out->median = ldexp(out->median, e);
	out->q3 = ldexp(out->q3, e);
	out->amean = ldexp(out->amean, e);
	out->hmean = ldexp(out->hmean, e);
	out->gmean = ldexp(out->gmean, e);
	out->stddev = ldexp(out->stddev, e);
	out->pstddev = ldexp(out->pstddev, e);
	out->hstddev = ldexp(out->hstddev, e);
	out->best95 = ldexp(out->best95, e);
}

void stats_summarise(const double *x, size_t n, int better, struct stats_summary *out)
{
	struct stats_scratch room = { 0 };

	stats_summarise_in(x, n, better, out, &room);
	stats_scratch_release(&room);
}

void stats_summarise_in(const double *x, size_t n, int better, struct stats_summary *out,
			struct stats_scratch *room)
{
	int e = stats_scale_exp(x, n, NULL, 0);
	double *y;

	if (!e) {
		summarise(x, n, better, out, room);
		return;
	}
	/* values near DBL_MAX or 0: summarise them scaled (exact), scale back what has their unit */
	y = stats_scaled_copy(x, n, e);
	summarise(y, n, better, out, room);
	free(y);
	unscale_summary(out, e);
}

static void summarise(const double *x, size_t n, int better, struct stats_summary *out,
		      struct stats_scratch *room)
{
	double *s;
	double logsum = 0, hsum = 0, dev;
	bool positive = true;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n) {
		out->min = out->max = out->q1 = out->median = out->q3 = NAN;
		out->amean = out->hmean = out->gmean = NAN;
		out->stddev = out->pstddev = out->hstddev = NAN;
		out->coeffvar = out->hcoeffvar = out->best95 = NAN;
		return;
	}
	/* sorted in room: a row's summaries reuse one buffer, not a fresh heap each */
	scratch_reserve(room, n);
	s = room->v;
	memcpy(s, x, n * sizeof(*s));
	sort_keys(s, n, room->k);
	out->min = s[0];
	out->max = s[n - 1];
	out->q1 = stats_quantile_sorted(s, n, 0.25);
	out->median = stats_quantile_sorted(s, n, 0.5);
	out->q3 = stats_quantile_sorted(s, n, 0.75);
	out->amean = amean_of(x, n);
	out->hmean = hmean_of(x, n);
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			positive = false;
		else
			logsum += log(x[i]);
	}
	out->gmean = positive ? exp(logsum / (double)n) : NAN;
	dev = ssd(x, n, out->amean);
	out->stddev = n > 1 ? sqrt(dev / (double)(n - 1)) : NAN;
	out->pstddev = sqrt(dev / (double)n);
	if (positive) {
		double ih = 1.0 / out->hmean, h2 = out->hmean * out->hmean;

		for (size_t i = 0; i < n; i++) {
			double d = 1.0 / x[i] - ih;

			hsum += d * d;
		}
		out->hstddev = sqrt(h2 * h2 * hsum / (double)n);
	} else {
		out->hstddev = NAN;
	}
	out->coeffvar = 100.0 * out->stddev / out->amean;
	out->hcoeffvar = 100.0 * out->hstddev / out->hmean;

	/* best max(1, int(0.95 n)) samples: the top when higher is better */
	k = (size_t)(0.95 * (double)n);
	if (k < 1)
		k = 1;
	if (better > 0)
		out->best95 = hmean_of(s + (n - k), k);
	else
		out->best95 = amean_of(s, k);
}

/* ---- tests of a difference ---- */

void stats_test_init(struct stats_test *t, enum stats_test_kind kind)
{
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->statistic = t->df = t->p = t->q = NAN;
	t->diff = t->diff_lo = t->diff_hi = NAN;
	t->rel = t->rel_lo = t->rel_hi = NAN;
}

/* Relative to |base|: a rise from -100 to -50 is +50%, as the difference says. */
static void set_rel(struct stats_test *t, double base_mean)
{
	double b = fabs(base_mean);

	if (b == 0 || isnan(b))
		return;		/* no relative change from 0: rel* stay NaN */
	/* divide first: 100 * diff overflows near DBL_MAX */
	t->rel = t->diff / b * 100.0;
	t->rel_lo = t->diff_lo / b * 100.0;
	t->rel_hi = t->diff_hi / b * 100.0;
}

/* Welch's p, df and CI of the difference of arithmetic means. */
static void welch_core(const double *b, size_t nb, const double *x, size_t nn,
		       struct stats_test *out)
{
	double mb = amean_of(b, nb), mn = amean_of(x, nn);
	double vb, vn, se2, se, tq;

	out->diff = mn - mb;
	if (nb < 2 || nn < 2)
		return;		/* no variance estimate: no test, no CI */
	vb = ssd(b, nb, mb) / (double)(nb - 1) / (double)nb;
	vn = ssd(x, nn, mn) / (double)(nn - 1) / (double)nn;
	se2 = vb + vn;
	se = sqrt(se2);
	if (se2 > 0) {
		out->df = se2 * se2 / (vb * vb / (double)(nb - 1) + vn * vn / (double)(nn - 1));
		out->statistic = out->diff / se;
		out->p = 2 * stats_t_upper_tail(fabs(out->statistic), out->df);
		if (out->p > 1)
			out->p = 1;
	} else {
		/* both samples constant: differ or not, with certainty */
		out->df = (double)(nb + nn - 2);
		out->statistic = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
	}
	tq = se2 > 0 ? stats_t_quantile(0.975, out->df) : 0;
	out->diff_lo = out->diff - tq * se;
	out->diff_hi = out->diff + tq * se;
}

static int welch_test(const double *base, size_t nb, const double *new_, size_t nn,
		      struct stats_test *out)
{
	stats_test_init(out, STATS_WELCH);
	if (!nb || !nn)
		return -1;
	welch_core(base, nb, new_, nn, out);
	set_rel(out, amean_of(base, nb));
	out->significant = out->p < 0.05;
	return isnan(out->p) ? -1 : 0;
}

/*
 * Number of orderings giving each U for samples of sizes m and n (the
 * distribution is the same with m and n swapped, so m is the smaller):
 * f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u), rolling over j, so memory is
 * (m+1) x (mn+1) and time m^2 n^2.
 */
static double *mwu_exact_counts(size_t m, size_t n)
{
	size_t umax, w;
	double *f, *res;

	if (m > n) {
		size_t t = m;

		m = n;
		n = t;
	}
	umax = m * n;
	w = umax + 1;
	f = calloc((m + 1) * w, sizeof(double));
	if (!f)
		abort();
	for (size_t i = 0; i <= m; i++)
		f[i * w] = 1;		/* j = 0: U = 0 only */
	for (size_t j = 1; j <= n; j++)
		for (size_t i = 1; i <= m; i++) {
			double *cur = f + i * w;
			const double *below = f + (i - 1) * w;	/* already at j */

			for (size_t u = i * j; u >= j; u--)
				cur[u] += below[u - j];
		}
	res = malloc(w * sizeof(double));
	if (!res)
		abort();
	memcpy(res, f + m * w, w * sizeof(double));
	free(f);
	return res;
}

/* Average ranks of the pooled sample; returns sum over tie groups of t^3 - t. */
struct ranked {
	double v;
	int from_new;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/*
 * How many of the smallest (and largest) pairwise differences the 95% CI
 * of the shift leaves out: the largest c with P(U < c) <= 2.5%.  Exact at
 * small n (the same table as the p-value's; the normal approximation's c
 * undercovers there: 90% at 3 v 3), normal beyond (never 0 there).  0: no
 * c keeps 95%, the interval is unbounded (3 v 3: P(U = 0) = 5%).
 */
static size_t mwu_ci_rank(size_t nb, size_t nn)
{
	size_t m = nb * nn, c = 0;
	double mu = (double)m / 2, cut;

	if ((nb <= 8 || nn <= 8) && m <= 10000) {
		double *cnt = mwu_exact_counts(nb, nn), total = 0, below = 0;

		for (size_t k = 0; k <= m; k++)
			total += cnt[k];
		/* P(U <= c) <= 2.5%: c + 1 values may be left out on each side */
		while (c < m && (below + cnt[c]) / total <= 0.025)
			below += cnt[c++];
		free(cnt);
		return c;
	}
	/* large samples: the normal approximation's rank, at least the extremes */
	cut = mu - Z975 * sqrt((double)m * (double)(nb + nn + 1) / 12);
	return (cut > 0 ? (size_t)floor(cut) : 0) + 1;
}

/*
 * The Hodges-Lehmann shift (median of all new - base differences) and its
 * distribution-free 95% CI: the c-th smallest and largest differences
 * (c = mwu_ci_rank()), or -inf/+inf when too few values bound it.
 */
static void mwu_shift_ci(const double *base, size_t nb, const double *new_, size_t nn,
			 struct stats_test *out)
{
	size_t m = nb * nn, c = mwu_ci_rank(nb, nn), idx = 0;
	double *d = malloc(m * sizeof(*d));

	if (!d)
		abort();
	for (size_t a = 0; a < nb; a++)
		for (size_t b = 0; b < nn; b++)
			d[idx++] = new_[b] - base[a];
	sort_doubles(d, m);
	out->diff = stats_quantile_sorted(d, m, 0.5);
	if (c == 0) {
		out->diff_lo = -INFINITY;
		out->diff_hi = INFINITY;
	} else {
		if (c > (m + 1) / 2)
			c = (m + 1) / 2;
		out->diff_lo = d[c - 1];
		out->diff_hi = d[m - c];
	}
	free(d);
}

static int mwu_test(const double *base, size_t nb, const double *new_, size_t nn,
		    struct stats_test *out)
{
	size_t N = nb + nn, i = 0;
	struct ranked *r;
	double rsum = 0, ties = 0, u, mu;

	stats_test_init(out, STATS_MWU);
	if (!nb || !nn)
		return -1;
	r = malloc(N * sizeof(*r));
	if (!r)
		abort();
	for (size_t k = 0; k < nb; k++)
		r[k] = (struct ranked){ base[k], 0 };
	for (size_t k = 0; k < nn; k++)
		r[nb + k] = (struct ranked){ new_[k], 1 };
	qsort(r, N, sizeof(*r), cmp_ranked);
	while (i < N) {
		size_t j = i;
		double rank, t;

		while (j + 1 < N && r[j + 1].v == r[i].v)
			j++;
		rank = (double)(i + j) / 2 + 1;	/* average of ranks i+1..j+1 */
		for (size_t k = i; k <= j; k++)
			if (r[k].from_new)
				rsum += rank;
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	u = rsum - (double)nn * (double)(nn + 1) / 2;	/* U of new vs base */
	mu = (double)nb * (double)nn / 2;
	out->statistic = u;
	/*
	 * Exact when the smaller sample has at most 8 values and there are no
	 * ties (scipy's "auto" rule, which the reference vectors follow), as
	 * long as the table stays small (8 x 1250); beyond that the normal
	 * approximation is as good as exact.
	 */
	if ((nb <= 8 || nn <= 8) && ties == 0 && nb * nn <= 10000) {
		double *cnt = mwu_exact_counts(nb, nn), total = 0, le = 0, ge = 0;
		size_t umax = nb * nn, ui = (size_t)u;

		for (size_t k = 0; k <= umax; k++) {
			total += cnt[k];
			if (k <= ui)
				le += cnt[k];
			if (k >= ui)
				ge += cnt[k];
		}
		free(cnt);
		out->p = 2 * fmin(le, ge) / total;
	} else {
		double var = (double)nb * (double)nn / 12 *
			     ((double)(N + 1) - ties / ((double)N * (double)(N - 1)));
		double z;

		if (var > 0) {
			z = (fabs(u - mu) - 0.5) / sqrt(var);
			if (z < 0)
				z = 0;
			out->p = erfc(z / M_SQRT2);	/* 2 * (1 - Phi(z)), no cancellation */
		} else {
			out->p = 1;
		}
	}
	if (out->p > 1)
		out->p = 1;

	mwu_shift_ci(base, nb, new_, nn, out);
	set_rel(out, amean_of(base, nb));
	out->significant = out->p < 0.05;
	return 0;
}

/* e: the values were scaled by 2^-e (a difference of no spread is the statistic) */
static int mmtests_test(const double *base, size_t nb, const double *new_, size_t nn,
			int better, int e, struct stats_test *out)
{
	struct stats_summary sb, sn;
	double mb, mn, qb, qn, delta, s;

	stats_test_init(out, STATS_MMTESTS);
	if (!nb || !nn)
		return -1;
	stats_summarise(base, nb, better, &sb);
	stats_summarise(new_, nn, better, &sn);
	if (better > 0) {
		mb = sb.hmean;
		mn = sn.hmean;
		qb = Z975 * sb.hstddev;
		qn = Z975 * sn.hstddev;
	} else {
		mb = sb.amean;
		mn = sn.amean;
		qb = Z975 * sb.stddev;
		qn = Z975 * sn.stddev;
	}
	/* a single sample has no spread in mmtests' eyes (empty q) */
	if (isnan(qb))
		qb = 0;
	if (isnan(qn))
		qn = 0;
	delta = mn - mb;
	/* the half-widths facing each other; symmetric bands, so one sum */
	s = qb + qn;
	out->statistic = s == 0 ? ldexp(delta, e) : delta / s;
	out->significant = fabs(out->statistic) > 1;
	out->diff = delta;
	out->diff_lo = delta - s;
	out->diff_hi = delta + s;
	set_rel(out, mb);
	return 0;
}

/* Trim, then min, max and the median element sorted[n/2] (lib/stats.rb). */
static void lkp_summary(const double *x, size_t n, size_t nbase, double *min, double *med,
			double *max)
{
	double *s = sorted_copy(x, n);
	size_t trim = n >= 32 ? n >> 5 : 0, m;

	if (trim > 3)
		trim = 3;
	if (nbase <= 3 && trim > 1)
		trim = 1;
	m = n - 2 * trim;
	*min = s[trim];
	*max = s[trim + m - 1];
	*med = s[trim + m / 2];
	free(s);
}

static int lkp_test(const double *base, size_t nb, const double *new_, size_t nn,
		    struct stats_test *out)
{
	double minb, medb, maxb, mina, meda, maxa, hi, lo, ratio;
	bool changed;

	stats_test_init(out, STATS_LKP);
	if (!nb || !nn)
		return -1;
	/* CI for the table: Welch's, the rule itself has none */
	welch_core(base, nb, new_, nn, out);
	out->p = NAN;
	out->df = NAN;
	set_rel(out, amean_of(base, nb));
	if (nb < 3 && nn < 3)
		return 0;	/* 0-day skips a stat with < 3 runs on both sides */
	lkp_summary(base, nb, nb, &minb, &medb, &maxb);
	lkp_summary(new_, nn, nb, &mina, &meda, &maxa);
	changed = (minb > meda && medb > maxa) || (mina > medb && meda > maxb);
	hi = fmax(medb, meda);
	lo = fmin(medb, meda);
	ratio = lo > 0 ? hi / lo : 5;
	if (ratio > 5 || isnan(ratio))
		ratio = 5;
	out->statistic = ratio;
	/* a perf metric: separation plus a median ratio above 1.01 */
	out->significant = changed && ratio > 1.01;
	return 0;
}

static int test_run(enum stats_test_kind kind, const double *base, size_t nb,
		    const double *new_, size_t nn, int better, int e, struct stats_test *out)
{
	switch (kind) {
	case STATS_WELCH:
		return welch_test(base, nb, new_, nn, out);
	case STATS_MWU:
		return mwu_test(base, nb, new_, nn, out);
	case STATS_MMTESTS:
		return mmtests_test(base, nb, new_, nn, better, e, out);
	case STATS_LKP:
		return lkp_test(base, nb, new_, nn, out);
	}
	stats_test_init(out, kind);
	return -1;
}

/* names[i], or "?" outside the table. */
static const char *name_at(const char *const *names, size_t n, size_t i)
{
	return i < n && names[i] ? names[i] : "?";
}

static const char *const test_names[] = {
	[STATS_WELCH] = "welch", [STATS_MWU] = "mwu",
	[STATS_MMTESTS] = "mmtests", [STATS_LKP] = "lkp",
};

int stats_test_parse(const char *name, enum stats_test_kind *kind)
{
	return NAME_PARSE(test_names, 0, name, kind);
}

const char *stats_test_name(enum stats_test_kind kind)
{
	return name_at(test_names, ARRAY_SIZE(test_names), (size_t)kind);
}

static const char *const mean_names[] = {
	[STATS_MEAN_AUTO] = "auto", [STATS_AMEAN] = "amean", [STATS_HMEAN] = "hmean",
	[STATS_GMEAN] = "gmean", [STATS_MEDIAN] = "median",
};
static const char *const mean_titles[] = {
	[STATS_MEAN_AUTO] = "Mean", [STATS_AMEAN] = "Amean", [STATS_HMEAN] = "Hmean",
	[STATS_GMEAN] = "Gmean", [STATS_MEDIAN] = "Median",
};

/* "auto" is the default, not a name to parse */
int stats_mean_parse(const char *name, enum stats_mean_kind *kind)
{
	return NAME_PARSE(mean_names, 1, name, kind);
}

const char *stats_mean_name(enum stats_mean_kind kind)
{
	return name_at(mean_names, ARRAY_SIZE(mean_names), (size_t)kind);
}

const char *stats_mean_title(enum stats_mean_kind kind)
{
	return name_at(mean_titles, ARRAY_SIZE(mean_titles), (size_t)kind);
}

double stats_mean_of(const struct stats_summary *s, enum stats_mean_kind kind)
{
	switch (kind) {
	case STATS_HMEAN: return s->hmean;
	case STATS_GMEAN: return s->gmean;
	case STATS_MEDIAN: return s->median;
	default: return s->amean;
	}
}

bool stats_mean_defined(enum stats_mean_kind kind, const double *x, size_t n)
{
	if (kind != STATS_HMEAN && kind != STATS_GMEAN)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

static double *transformed(const double *x, size_t n, enum stats_mean_kind kind)
{
	double *y = malloc((n + 1) * sizeof(*y));

	if (!y)
		abort();
	for (size_t i = 0; i < n; i++)
		y[i] = kind == STATS_HMEAN ? 1 / x[i] : log(x[i]);
	return y;
}

/* rel* of the chosen statistic from a difference d (and CI) of the transformed means */
static void map_back(struct stats_test *t, enum stats_mean_kind kind, double ybase, double mbase)
{
	double d = t->diff, lo = t->diff_lo, hi = t->diff_hi;

	if (kind == STATS_GMEAN) {
		/* log-scale difference: a ratio of geometric means */
		t->rel = 100 * expm1(d);
		t->rel_lo = 100 * expm1(lo);
		t->rel_hi = 100 * expm1(hi);
	} else {
		/* H = 1/mean(1/x): H_new / H_base = ybase / (ybase + d), decreasing in d */
		t->rel = 100 * (ybase / (ybase + d) - 1);
		t->rel_lo = ybase + hi > 0 ? 100 * (ybase / (ybase + hi) - 1) : NAN;
		/* the CI of mean(1/x) reaching 0: the harmonic mean is unbounded above */
		t->rel_hi = ybase + lo > 0 ? 100 * (ybase / (ybase + lo) - 1) :
			    ybase + hi > 0 ? INFINITY : NAN;
	}
	t->diff = mbase * t->rel / 100;
	t->diff_lo = mbase * t->rel_lo / 100;
	t->diff_hi = mbase * t->rel_hi / 100;
}

/* stats_test_mean() on values scaled by 2^-e */
static int test_mean(enum stats_test_kind kind, enum stats_mean_kind mean, const double *base,
		     size_t nb, const double *new_, size_t nn, int better, int e,
		     struct stats_test *out)
{
	struct stats_summary sb;
	double *yb, *yn, ybase, center;
	int ret;

	/* the mmtests and 0-day rules have their own statistics */
	if (mean == STATS_MEAN_AUTO || mean == STATS_AMEAN || !nb || !nn ||
	    kind == STATS_MMTESTS || kind == STATS_LKP ||
	    !stats_mean_defined(mean, base, nb) || !stats_mean_defined(mean, new_, nn))
		return test_run(kind, base, nb, new_, nn, better, e, out);
	stats_summarise(base, nb, better, &sb);
	center = stats_mean_of(&sb, mean);
	if (kind == STATS_MWU || mean == STATS_MEDIAN) {
		/* ranks: the same p on any monotone scale; Welch has no median */
		ret = stats_mwu(base, nb, new_, nn, out);
		if (center != 0 && isfinite(center)) {
			out->rel = 100 * out->diff / fabs(center);
			out->rel_lo = 100 * out->diff_lo / fabs(center);
			out->rel_hi = 100 * out->diff_hi / fabs(center);
		}
		return ret;
	}
	yb = transformed(base, nb, mean);
	yn = transformed(new_, nn, mean);
	ybase = amean_of(yb, nb);
	ret = stats_welch(yb, nb, yn, nn, out);
	if (!isnan(out->diff))
		map_back(out, mean, ybase, center);
	free(yb);
	free(yn);
	return ret;
}

/*
 * Every test runs on the values scaled by one power of two
 * (stats_scale_exp()): exact, and p, t, df and the relative changes do not
 * depend on the scale, while squares, sums and reciprocals of values near
 * DBL_MAX or 0 would overflow or underflow.  What has the values' unit is
 * scaled back.
 */
static int test_scaled(enum stats_test_kind kind, enum stats_mean_kind mean, const double *base,
		       size_t nb, const double *new_, size_t nn, int better,
		       struct stats_test *out)
{
	int e = stats_scale_exp(base, nb, new_, nn), ret;
	double *b, *x;

	if (!e)
		return test_mean(kind, mean, base, nb, new_, nn, better, 0, out);
	b = stats_scaled_copy(base, nb, e);
	x = stats_scaled_copy(new_, nn, e);
	ret = test_mean(kind, mean, b, nb, x, nn, better, e, out);
	free(b);
	free(x);
	stats_test_unscale(out, e);
	return ret;
}

int stats_test_mean(enum stats_test_kind kind, enum stats_mean_kind mean, const double *base,
		    size_t nb, const double *new_, size_t nn, int better, struct stats_test *out)
{
	return test_scaled(kind, mean, base, nb, new_, nn, better, out);
}

int stats_test_run(enum stats_test_kind kind, const double *base, size_t nb,
		   const double *new_, size_t nn, int better, struct stats_test *out)
{
	return test_scaled(kind, STATS_AMEAN, base, nb, new_, nn, better, out);
}

int stats_welch(const double *base, size_t nb, const double *new_, size_t nn,
		struct stats_test *out)
{
	return test_scaled(STATS_WELCH, STATS_AMEAN, base, nb, new_, nn, 1, out);
}

int stats_mwu(const double *base, size_t nb, const double *new_, size_t nn,
	      struct stats_test *out)
{
	return test_scaled(STATS_MWU, STATS_AMEAN, base, nb, new_, nn, 1, out);
}

int stats_mmtests(const double *base, size_t nb, const double *new_, size_t nn,
		  int better, struct stats_test *out)
{
	return test_scaled(STATS_MMTESTS, STATS_AMEAN, base, nb, new_, nn, better, out);
}

int stats_lkp(const double *base, size_t nb, const double *new_, size_t nn,
	      struct stats_test *out)
{
	return test_scaled(STATS_LKP, STATS_AMEAN, base, nb, new_, nn, 1, out);
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void stats_bh(const double *p, size_t n, double *q)
{
	struct pidx *v = malloc((n ? n : 1) * sizeof(*v));
	size_t m = 0;
	double run = 1;

	if (!v)
		abort();
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			v[m++] = (struct pidx){ p[i], i };
	}
	qsort(v, m, sizeof(*v), cmp_pidx);
	/* q_(k) = min over j >= k of m/j * p_(j), capped at 1 */
	for (size_t k = m; k-- > 0;) {
		double adj = v[k].p * (double)m / (double)(k + 1);

		if (adj < run)
			run = adj;
		q[v[k].i] = run;
	}
	free(v);
}

/*
 * The statistic with its 95% CI, as the plots draw one kernel's cell:
 * Amean +- t SE; Hmean and Gmean the same interval on 1/x and log x mapped
 * back; a median the order statistics of the distribution-free interval.
 */
void stats_mean_ci(const double *x, size_t n, int better, enum stats_mean_kind kind, double alpha,
		   double *mean, double *lo, double *hi)
{
	struct stats_summary s;
	double half, tq;
	int e = stats_scale_exp(x, n, NULL, 0);

	if (!n) {
		*mean = *lo = *hi = NAN;
		return;
	}
	if (e) {
		/* values near DBL_MAX or 0: on the scaled values (stats_scale_exp()) */
		double *y = stats_scaled_copy(x, n, e);

		stats_mean_ci(y, n, better, kind, alpha, mean, lo, hi);
		free(y);
		*mean = ldexp(*mean, e);
		*lo = ldexp(*lo, e);
		*hi = ldexp(*hi, e);
		return;
	}
	stats_summarise(x, n, better, &s);
	if (!stats_mean_defined(kind, x, n))
		kind = STATS_AMEAN;
	*mean = stats_mean_of(&s, kind);
	*lo = *hi = *mean;
	if (n < 2 || !isfinite(s.stddev))
		return;
	tq = stats_t_quantile(1.0 - alpha / 2.0, (double)(n - 1));
	switch (kind) {
	case STATS_HMEAN:
	case STATS_GMEAN: {
		struct stats_summary sy;
		double *y = transformed(x, n, kind);

		stats_summarise(y, n, -1, &sy);
		free(y);
		half = tq * sy.stddev / sqrt((double)n);
		if (kind == STATS_GMEAN) {
			*lo = exp(sy.amean - half);
			*hi = exp(sy.amean + half);
		} else {
			*lo = 1 / (sy.amean + half);
			*hi = sy.amean - half > 0 ? 1 / (sy.amean - half) : NAN;
		}
		return;
	}
	case STATS_MEDIAN: {
		double *sorted = sorted_copy(x, n);
		double kk = floor((n - 1.96 * sqrt((double)n)) / 2);
		size_t k = kk > 0 ? (size_t)kk : 0;

		*lo = sorted[k];
		*hi = sorted[n - 1 - k];
		free(sorted);
		return;
	}
	default:
		half = tq * s.stddev / sqrt((double)n);
		*lo = s.amean - half;
		*hi = s.amean + half;
	}
}
