/*
 * Level-aware tests: the run (boot) as the unit when a side has several
 * runs, variance components, ratio intervals and Kalibera-Jones planning.
 * Why Welch on run means and not REML: docs/statistics.md.
 */
#include "levels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const unit_names[] = {
	[STATS_UNIT_AUTO] = "auto",
	[STATS_UNIT_RUN] = "run",
	[STATS_UNIT_ITERATION] = "iteration",
};

int stats_unit_parse(const char *name, enum stats_unit *u)
{
	for (size_t i = 0; i < sizeof(unit_names) / sizeof(unit_names[0]); i++)
		if (!strcmp(name, unit_names[i])) {
			*u = (enum stats_unit)i;
			return 0;
		}
	return -1;
}

const char *stats_unit_name(enum stats_unit u)
{
	return (size_t)u < sizeof(unit_names) / sizeof(unit_names[0]) ? unit_names[u] : "?";
}

static void *xalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

size_t stats_count_runs(const int64_t *run, size_t n)
{
	size_t k = 0;

	for (size_t a = 0; a < n; a++)
		k += a == 0 || run[a] != run[a - 1];
	return k;
}

static void components(const double *v, const int64_t *run, size_t n,
		       struct stats_components *out);

/* CoVs do not depend on the scale: values near DBL_MAX or 0 are taken scaled */
void stats_components(const double *v, const int64_t *run, size_t n,
		      struct stats_components *out)
{
	int e = stats_scale_exp(v, n, NULL, 0);
	double *y;

	if (!e) {
		components(v, run, n, out);
		return;
	}
	y = stats_scaled_copy(v, n, e);
	components(y, run, n, out);
	free(y);
}

static void components(const double *v, const int64_t *run, size_t n,
		       struct stats_components *out)
{
	double ssw = 0, sumsq_n = 0, wsum = 0, msum = 0, ssb = 0, grand, wgrand, msb, msw, n0;
	double *m = xalloc(n * sizeof(*m));
	size_t *cnt = xalloc(n * sizeof(*cnt)), k = 0;

	memset(out, 0, sizeof(*out));
	out->between_cov = out->within_cov = out->between_share = out->runmean_cov = NAN;
	out->n = n;
	for (size_t a = 0, b; a < n; a = b, k++) {
		double s = 0;

		for (b = a; b < n && run[b] == run[a]; b++)
			s += v[b];
		cnt[k] = b - a;
		m[k] = s / (double)cnt[k];
		for (size_t j = a; j < b; j++)
			ssw += (v[j] - m[k]) * (v[j] - m[k]);
		wsum += s;
		msum += m[k];
		sumsq_n += (double)cnt[k] * (double)cnt[k];
	}
	out->nruns = k;
	if (!k)
		goto out;
	grand = msum / (double)k;	/* the mean of the run means: each run counts once */
	wgrand = wsum / (double)n;
	if (n > k && grand != 0)
		out->within_cov = 100 * sqrt(ssw / (double)(n - k)) / fabs(grand);
	if (k < 2 || grand == 0)
		goto out;
	for (size_t j = 0; j < k; j++)
		ssb += (double)cnt[j] * (m[j] - wgrand) * (m[j] - wgrand);
	{
		double sdm = 0;

		for (size_t j = 0; j < k; j++)
			sdm += (m[j] - grand) * (m[j] - grand);
		out->runmean_cov = 100 * sqrt(sdm / (double)(k - 1)) / fabs(grand);
	}
	if (n <= k)
		goto out;	/* one value a run: between and within cannot be told apart */
	msb = ssb / (double)(k - 1);
	msw = ssw / (double)(n - k);
	n0 = ((double)n - sumsq_n / (double)n) / (double)(k - 1);
	{
		double between = msb > msw ? (msb - msw) / n0 : 0;

		out->between_cov = 100 * sqrt(between) / fabs(grand);
		out->between_share = between + msw > 0 ? between / (between + msw) : 0;
	}
out:
	free(m);
	free(cnt);
}

/* ---- the test ---- */

static double transform(double x, enum stats_mean_kind k)
{
	return k == STATS_HMEAN ? 1 / x : k == STATS_GMEAN ? log(x) : x;
}

static bool all_positive(const struct stats_side *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!(s->v[i] > 0))
			return false;
	return true;
}

/* The mean of values [a, b) transformed, divided first (values near DBL_MAX). */
static double mean_of_transformed(const struct stats_side *s, size_t a, size_t b,
				  enum stats_mean_kind k)
{
	double m = 0;

	for (size_t i = a; i < b; i++)
		m += transform(s->v[i], k) / (double)(b - a);
	return m;
}

/* The side's units on the transformed scale: run means, or every value. */
static size_t units_of(const struct stats_side *s, enum stats_mean_kind k, bool by_run, double *u)
{
	size_t nu = 0;

	if (!by_run) {
		for (size_t i = 0; i < s->n; i++)
			u[i] = transform(s->v[i], k);
		return s->n;
	}
	for (size_t a = 0, b; a < s->n; a = b) {
		double sum = 0;

		for (b = a; b < s->n && s->run[b] == s->run[a]; b++)
			sum += transform(s->v[b], k);
		u[nu++] = isfinite(sum) ? sum / (double)(b - a) : mean_of_transformed(s, a, b, k);
	}
	return nu;
}

size_t stats_run_means(const double *v, const int64_t *run, size_t n, double *m)
{
	const struct stats_side s = { v, run, n };

	return units_of(&s, STATS_AMEAN, true, m);
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	if (!isfinite(s)) {
		/* values near DBL_MAX: their sum overflows, their mean does not */
		s = 0;
		for (size_t i = 0; i < n; i++)
			s += x[i] / (double)n;
		return s;
	}
	return s / (double)n;
}

/* Sample variance; deviations scaled by the largest so values near DBL_MAX do not overflow. */
static double var_of(const double *x, size_t n, double m)
{
	double s = 0, big = 0;

	for (size_t i = 0; i < n; i++)
		if (fabs(x[i] - m) > big)
			big = fabs(x[i] - m);
	if (!(big > 0) || !isfinite(big))
		return big > 0 ? INFINITY : 0;
	for (size_t i = 0; i < n; i++)
		s += ((x[i] - m) / big) * ((x[i] - m) / big);
	return s / (double)(n - 1) * big * big;
}

/*
 * Welch on the units; with one unit on a side, that unit's variance is
 * the other side's (a t-test with the other side's df).  Fills p, t, df,
 * diff and its CI on the transformed scale; *vb, *vn the squared standard
 * errors and *tq the t quantile the CI used (for the ratio).  -1: no test.
 */
static int unit_test(const double *yb, size_t nb, const double *yn, size_t nn,
		     struct stats_test *t, double *vb, double *vn, double *tq)
{
	double mb = mean_of(yb, nb), mn = mean_of(yn, nn), se2, s2;

	t->diff = mn - mb;
	if (nb >= 2 && nn >= 2) {
		if (stats_welch(yb, nb, yn, nn, t))
			return -1;
		*vb = var_of(yb, nb, mb) / (double)nb;
		*vn = var_of(yn, nn, mn) / (double)nn;
		*tq = *vb + *vn > 0 ? stats_t_quantile(0.975, t->df) : 0;
		return 0;
	}
	if (nb < 2 && nn < 2)
		return -1;
	s2 = nb >= 2 ? var_of(yb, nb, mb) : var_of(yn, nn, mn);
	t->df = (double)(nb >= 2 ? nb - 1 : nn - 1);
	*vb = s2 / (double)nb;
	*vn = s2 / (double)nn;
	se2 = *vb + *vn;
	if (se2 > 0) {
		t->statistic = t->diff / sqrt(se2);
		t->p = 2 * (1 - stats_t_cdf(fabs(t->statistic), t->df));
		if (t->p > 1)
			t->p = 1;
		*tq = stats_t_quantile(0.975, t->df);
	} else {
		t->statistic = t->diff == 0 ? 0 : copysign(INFINITY, t->diff);
		t->p = t->diff == 0 ? 1 : 0;
		*tq = 0;
	}
	t->diff_lo = t->diff - *tq * sqrt(se2);
	t->diff_hi = t->diff + *tq * sqrt(se2);
	return 0;
}

int stats_fieller(double mb, double vb, double mn, double vn, double tq, double *lo, double *hi)
{
	double k = fmax(fabs(mb), fabs(mn)), t2 = tq * tq, a, b, c, disc;

	/* the ratio does not depend on the scale: keep the squares finite */
	if (k > 0x1p500 && isfinite(k)) {
		mb /= k;
		mn /= k;
		vb = vb / k / k;
		vn = vn / k / k;
	}
	a = mb * mb - t2 * vb;
	b = mn * mb;
	c = mn * mn - t2 * vn;

	if (a <= 0)
		return -1;
	disc = b * b - a * c;
	if (disc < 0)
		disc = 0;	/* rounding: the interval is the point */
	*lo = (b - sqrt(disc)) / a;
	*hi = (b + sqrt(disc)) / a;
	if (mb < 0) {
		double x = *lo;

		*lo = *hi;
		*hi = x;
	}
	return 0;
}

/* 100 (R - 1), R's interval [lo, hi] clipped at 0: a ratio of positive means */
static void set_ratio(struct stats_test *t, double r, int bounded, double lo, double hi)
{
	t->rel = 100 * (r - 1);
	if (bounded) {
		t->rel_lo = 100 * ((lo > 0 ? lo : 0) - 1);
		t->rel_hi = 100 * (hi - 1);
	} else {
		t->rel_lo = -100;
		t->rel_hi = INFINITY;
	}
}

/* rel* of statistic k from the units' means (mb, mn) and their variances. */
static void ratio_interval(struct stats_test *t, enum stats_mean_kind k, double mb, double mn,
			   double vb, double vn, double tq)
{
	double lo, hi;
	int ok;

	if (k == STATS_GMEAN) {
		t->rel = 100 * expm1(t->diff);
		t->rel_lo = 100 * expm1(t->diff_lo);
		t->rel_hi = 100 * expm1(t->diff_hi);
		return;
	}
	ok = !stats_fieller(mb, vb, mn, vn, tq, &lo, &hi);
	if (k == STATS_AMEAN) {
		set_ratio(t, mn / mb, ok, lo, hi);
		return;
	}
	/* Hmean: H_new / H_base = mb / mn of the reciprocals' means */
	t->rel = 100 * (mb / mn - 1);
	if (!ok) {
		t->rel_lo = -100;
		t->rel_hi = INFINITY;
		return;
	}
	t->rel_lo = 100 * (1 / hi - 1);
	t->rel_hi = lo > 0 ? 100 * (1 / lo - 1) : INFINITY;
}

/* The baseline's statistic k over every value (a median needs the sort). */
static double center_of(const struct stats_side *s, enum stats_mean_kind k, int better)
{
	struct stats_summary sum;
	double acc = 0;

	if (k == STATS_MEDIAN) {
		stats_summarise(s->v, s->n, better, &sum);
		return sum.median;
	}
	acc = mean_of_transformed(s, 0, s->n, k);
	return k == STATS_HMEAN ? 1 / acc : k == STATS_GMEAN ? exp(acc) : acc;
}

/* Mann-Whitney on the units; its Hodges-Lehmann interval as a ratio on ln x. */
static int rank_test(const double *ub, size_t nb, const double *un, size_t nn, bool positive,
		     double center, struct stats_test *out)
{
	int ret = stats_mwu(ub, nb, un, nn, out);

	if (ret && isnan(out->p))
		return ret;
	if (positive) {
		double *lb = xalloc(nb * sizeof(*lb)), *ln = xalloc(nn * sizeof(*ln));
		struct stats_test lt;

		for (size_t i = 0; i < nb; i++)
			lb[i] = log(ub[i]);
		for (size_t i = 0; i < nn; i++)
			ln[i] = log(un[i]);
		stats_mwu(lb, nb, ln, nn, &lt);
		out->rel = 100 * expm1(lt.diff);
		out->rel_lo = 100 * expm1(lt.diff_lo);
		out->rel_hi = 100 * expm1(lt.diff_hi);
		free(lb);
		free(ln);
	} else if (center != 0 && isfinite(center)) {
		out->rel = 100 * out->diff / fabs(center);
		out->rel_lo = 100 * out->diff_lo / fabs(center);
		out->rel_hi = 100 * out->diff_hi / fabs(center);
	}
	return ret;
}

/* stats_test_levels() on values stats_scale_exp() leaves as they are */
static int levels_test(enum stats_test_kind kind, enum stats_mean_kind mean,
		       const struct stats_side *base, const struct stats_side *new_, int better,
		       enum stats_unit want, struct stats_test *out, struct stats_level_info *info)
{
	size_t kb = stats_count_runs(base->run, base->n), kn = stats_count_runs(new_->run, new_->n);
	bool positive = all_positive(base) && all_positive(new_), by_run;
	enum stats_mean_kind k = mean == STATS_MEAN_AUTO ? STATS_AMEAN : mean;
	double *ub, *un, vb = 0, vn = 0, tq = 0, center;
	size_t nb, nn;
	int ret;

	memset(info, 0, sizeof(*info));
	if (want == STATS_UNIT_AUTO)
		want = kb >= 2 || kn >= 2 ? STATS_UNIT_RUN : STATS_UNIT_ITERATION;
	by_run = want == STATS_UNIT_RUN;
	info->unit = want;
	info->nb = by_run ? kb : base->n;
	info->nn = by_run ? kn : new_->n;
	if (kind == STATS_MMTESTS || kind == STATS_LKP || !base->n || !new_->n) {
		/* the mmtests and 0-day rules are defined on every value */
		info->unit = STATS_UNIT_ITERATION;
		info->nb = base->n;
		info->nn = new_->n;
		return stats_test_mean(kind, mean, base->v, base->n, new_->v, new_->n, better, out);
	}
	if ((k == STATS_HMEAN || k == STATS_GMEAN) && !positive)
		k = STATS_AMEAN;	/* the caller's row_mean() says the same */
	center = center_of(base, k, better);
	ub = xalloc(base->n * sizeof(*ub));
	un = xalloc(new_->n * sizeof(*un));
	if (kind == STATS_MWU || k == STATS_MEDIAN) {
		/* ranks: any monotone scale gives the same p; the units are of x */
		nb = units_of(base, STATS_AMEAN, by_run, ub);
		nn = units_of(new_, STATS_AMEAN, by_run, un);
		ret = rank_test(ub, nb, un, nn, positive, center, out);
		info->ratio = positive;
		info->shared_var = false;
		goto done;
	}
	nb = units_of(base, k, by_run, ub);
	nn = units_of(new_, k, by_run, un);
	stats_test_init(out, STATS_WELCH);
	/* one value against several: only a run can borrow the other side's variance */
	ret = !by_run && (nb < 2 || nn < 2) ? -1 : unit_test(ub, nb, un, nn, out, &vb, &vn, &tq);
	info->shared_var = !ret && (nb < 2 || nn < 2);
	if (ret)
		goto done;
	if (k == STATS_AMEAN && !positive) {
		/* no ratio for values that can be <= 0: the difference over |baseline| */
		double mb = mean_of(ub, nb);

		if (mb != 0) {
			out->rel = 100 * out->diff / fabs(mb);
			out->rel_lo = 100 * out->diff_lo / fabs(mb);
			out->rel_hi = 100 * out->diff_hi / fabs(mb);
		}
	} else {
		double d = out->diff;

		ratio_interval(out, k, mean_of(ub, nb), mean_of(un, nn), vb, vn, tq);
		info->ratio = true;
		if (k != STATS_AMEAN) {
			/* the difference on the statistic's own scale */
			out->diff = isnan(out->rel) ? d : center * out->rel / 100;
			out->diff_lo = center * out->rel_lo / 100;
			out->diff_hi = center * out->rel_hi / 100;
		}
	}
	out->significant = out->p < 0.05;
done:
	free(ub);
	free(un);
	return ret;
}

/* values near DBL_MAX or 0 are tested scaled, as every test of stats.c */
int stats_test_levels(enum stats_test_kind kind, enum stats_mean_kind mean,
		      const struct stats_side *base, const struct stats_side *new_, int better,
		      enum stats_unit want, struct stats_test *out, struct stats_level_info *info)
{
	int e = stats_scale_exp(base->v, base->n, new_->v, new_->n), ret;
	struct stats_side sb = *base, sn = *new_;
	double *vb, *vn;

	if (!e)
		return levels_test(kind, mean, base, new_, better, want, out, info);
	sb.v = vb = stats_scaled_copy(base->v, base->n, e);
	sn.v = vn = stats_scaled_copy(new_->v, new_->n, e);
	ret = levels_test(kind, mean, &sb, &sn, better, want, out, info);
	free(vb);
	free(vn);
	stats_test_unscale(out, e);
	return ret;
}

/* ---- planning ---- */

int stats_plan_levels(double between_cov, double within_cov, double cost_run, double cost_iter,
		      double precision, size_t *iters_per_run, size_t *runs)
{
	double b2 = between_cov * between_cov, w2 = within_cov * within_cov, r, var;

	if (isnan(b2) || isnan(w2) || !(precision > 0) || !(cost_iter > 0) || cost_run < 0 ||
	    b2 + w2 <= 0)
		return -1;
	/* Kalibera & Jones (ISMM 2013): the iterations that minimise the cost of a CI width */
	r = b2 > 0 ? round(sqrt(cost_run / cost_iter * w2 / b2)) : 1000;
	if (r < 1)
		r = 1;
	if (r > 1000)
		r = 1000;
	*iters_per_run = (size_t)r;
	var = b2 + w2 / r;	/* of one run's mean, in %^2 */
	for (size_t n = 2; n <= 100000; n++)
		if (stats_t_quantile(0.975, (double)(n - 1)) * sqrt(var / (double)n) <= precision) {
			*runs = n;
			return 0;
		}
	return -1;
}

size_t stats_rounds_next(size_t k, bool precise, bool *was_precise, size_t max)
{
	if ((precise && *was_precise) || k >= max)
		return 0;
	*was_precise = precise;
	return 2 * k < max ? 2 * k : max;
}
