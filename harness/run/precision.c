#include "precision.h"
#include "parse-options.h"
#include "dist.h"
#include "units.h"
#include "util.h"

#include <math.h>

bool precision_look(size_t n, size_t nmin)
{
	if (nmin < 2 || n < nmin || n % nmin)
		return false;
	n /= nmin;
	return (n & (n - 1)) == 0;
}

double precision_rel_halfwidth(const double *x, size_t n)
{
	double m = 0, ss = 0;

	if (n < 2)
		return INFINITY;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	if (m == 0)
		return INFINITY;
	return stats_t_quantile(0.975, (double)(n - 1)) * sqrt(ss / (double)(n - 1)) /
	       sqrt((double)n) / fabs(m);
}

int precision_opt(const struct option *opt, const char *v)
{
	double d;

	if (units_parse_share(v, &d) || !(d > 0 && d < 1))
		return error("--precision wants a share like 1%% (0-100%%, exclusive), not '%s'", v);
	*(double *)opt->value = d;
	return 0;
}
