/*
 * Values near DBL_MAX or 0 (stats.h): the one power of two every statistic
 * scales them by, and the printed change computed without overflow.
 */
#include "stats.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* the binary exponents (frexp) of the largest and the smallest nonzero finite |x[i]| */
static void exp_range(const double *x, size_t n, int *hi, int *lo)
{
	for (size_t i = 0; i < n; i++) {
		int e;

		if (!isfinite(x[i]) || x[i] == 0)
			continue;
		frexp(x[i], &e);
		*hi = e > *hi ? e : *hi;
		*lo = e < *lo ? e : *lo;
	}
}

/* |values| between 2^-SAFE_EXP and 2^SAFE_EXP: squares, sums and reciprocals stay finite and normal */
#define SAFE_EXP 250

int stats_scale_exp(const double *a, size_t na, const double *b, size_t nb)
{
	int hi = INT_MIN, lo = INT_MAX, e;

	exp_range(a, na, &hi, &lo);
	exp_range(b, nb, &hi, &lo);
	if (hi == INT_MIN || (hi <= SAFE_EXP && lo >= -SAFE_EXP))
		return 0;
	/* centre the range; a range wider than the safe one keeps its top finite */
	e = hi / 2 + lo / 2;
	if (hi - e > SAFE_EXP)
		e = hi - SAFE_EXP;
	return e;
}

double *stats_scaled_copy(const double *x, size_t n, int e)
{
	double *y = xmalloc((n ? n : 1) * sizeof(*y));

	for (size_t i = 0; i < n; i++)
		y[i] = ldexp(x[i], -e);
	return y;
}

void stats_test_unscale(struct stats_test *t, int e)
{
	t->diff = ldexp(t->diff, e);
	t->diff_lo = ldexp(t->diff_lo, e);
	t->diff_hi = ldexp(t->diff_hi, e);
}

double stats_rel_pct(double base, double new_)
{
	double r = 100 * (new_ - base) / fabs(base);
	int e;

	if (isfinite(r) || base == 0 || !isfinite(base) || !isfinite(new_))
		return base == 0 ? NAN : r;
	/* new - base or 100 times it overflowed: the same on both scaled below 1 */
	frexp(fabs(new_) > fabs(base) ? new_ : base, &e);
	base = ldexp(base, -e);
	new_ = ldexp(new_, -e);
	return (new_ - base) / fabs(base) * 100;
}

double stats_pct_of(double part, double whole)
{
	double r = 100 * part / fabs(whole);

	if (whole == 0)
		return NAN;
	return isfinite(r) || !isfinite(part) ? r : part / fabs(whole) * 100;
}
