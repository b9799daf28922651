/* Probability distributions (libm only), usable from any layer. */
#ifndef MMB_DIST_H
#define MMB_DIST_H

/* Student t distribution. */
double stats_t_cdf(double t, double df);
/* P(T > t) for t >= 0, computed directly so small tails keep precision. */
double stats_t_upper_tail(double t, double df);
double stats_t_quantile(double p, double df);
double stats_norm_cdf(double z);
double stats_norm_quantile(double p);
/* Regularised incomplete beta I_x(a, b). */
double stats_ibeta(double x, double a, double b);

#endif
