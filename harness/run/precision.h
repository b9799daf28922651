/*
 * `run --precision P`: keep iterating a variant until the 95% CI of each
 * metric's mean is within P of the mean.  Optional stopping on the data's
 * own spread makes the final interval too narrow when it may stop at any
 * n (a naive rule covers 91-93% at the nominal 95%), so the rule only
 * looks at n = min, 2 min, 4 min, ... with min >= 20; the simulation in
 * tests/unit/test_precision.c and docs/statistics.md shows its coverage
 * stays within Monte Carlo error of 95% (>= 94%).  Stopping depends only
 * on the variant's own values, never on another label's.
 */
#ifndef MMB_PRECISION_H
#define MMB_PRECISION_H

#include <stdbool.h>
#include <stddef.h>

#define PRECISION_MIN_N 20

/* Is n a point where the rule looks (nmin, 2 nmin, 4 nmin, ...)? */
bool precision_look(size_t n, size_t nmin);
/* t(0.975, n-1) * s / sqrt(n) / |mean|; INFINITY when n < 2 or mean == 0. */
double precision_rel_halfwidth(const double *x, size_t n);

/* --precision: "1%" or "0.01", a fraction in (0, 1), into a double (run, ab). */
struct option;
int precision_opt(const struct option *opt, const char *v);

#endif
