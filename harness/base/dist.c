/*
 * Probability distributions in C with libm only: the Student t distribution
 * from the regularised incomplete beta function (Lentz's continued
 * fraction), its quantile from a safeguarded Newton iteration, and the
 * normal distribution.  A numeric library like libm, so any layer may use
 * it (run's iteration planner does); the tests built on it live in
 * harness/compare/stats.c.
 */
#include "dist.h"

#include <float.h>
#include <math.h>

#define LENTZ_TINY 1e-300

/*
 * lgamma() without its write of the global signgam: compare computes rows
 * on two threads (glibc's lgamma() is this with &signgam; the same value).
 */
static double lgam(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

/* One term aa of the continued fraction into Lentz's c and d: the factor h takes. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		int m2 = 2 * m;
		double del;

		/* the even term, then the odd one */
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
double stats_ibeta(double x, double a, double b)
{
	double lbt;

	if (isnan(x) || isnan(a) || isnan(b))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgam(a + b) - lgam(a) - lgam(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0, computed directly so small tails keep precision. */
double stats_t_upper_tail(double t, double df)
{
	double x = df / (df + t * t);

	return 0.5 * stats_ibeta(x, df / 2, 0.5);
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (isinf(df))
		return stats_norm_cdf(t);
	return t >= 0 ? 1 - stats_t_upper_tail(t, df) : stats_t_upper_tail(-t, df);
}

static double t_pdf(double t, double df)
{
	return exp(lgam((df + 1) / 2) - lgam(df / 2) - 0.5 * log(df * M_PI) -
		   (df + 1) / 2 * log1p(t * t / df));
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Acklam's rational approximation refined by one Halley step. */
double stats_norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;

	if (!(p > 0) || !(p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p > 1 - 0.02425) {
		q = sqrt(-2 * log1p(-p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	for (int i = 0; i < 2; i++) {
		e = stats_norm_cdf(x) - p;
		u = e * sqrt(2 * M_PI) * exp(x * x / 2);
		x = x - u / (1 + x * u / 2);
	}
	return x;
}

double stats_t_quantile(double p, double df)
{
	double lo, hi, x;

	if (isnan(p) || !(df > 0) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (isinf(df))
		return stats_norm_quantile(p);
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	/* bracket, then Newton steps kept inside the bracket */
	lo = 0;
	hi = 1;
	while (stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	x = stats_norm_quantile(p);
	if (!(x > lo && x < hi))
		x = (lo + hi) / 2;
	for (int i = 0; i < 500; i++) {
		double f = stats_t_cdf(x, df) - p, nx;

		if (f == 0)
			break;
		if (f < 0)
			lo = x;
		else
			hi = x;
		nx = x - f / t_pdf(x, df);
		if (!(nx > lo && nx < hi))
			nx = (lo + hi) / 2;
		if (fabs(nx - x) <= 1e-15 * fabs(x))
			return nx;
		x = nx;
	}
	return x;
}
