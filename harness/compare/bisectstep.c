/* Bisect's statistics (bisectstep.h): the endpoint test and the SPRT of one step. */
#include "bisectstep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *bisect_decision_name(enum bisect_decision d)
{
	static const char *const names[] = {
		[BISECT_MORE] = "more", [BISECT_GOOD] = "good",
		[BISECT_BAD] = "bad", [BISECT_SKIP] = "skip",
	};

	return (unsigned int)d < sizeof(names) / sizeof(names[0]) ? names[d] : "?";
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static double ssd_of(const double *x, size_t n, double m)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s;
}

int bisect_endpoints(const double *good, size_t ng, const double *bad, size_t nb, double alpha,
		     struct stats_test *out)
{
	if (ng < 2 || nb < 2)
		return -1;
	if (stats_welch(good, ng, bad, nb, out) < 0)
		return -1;
	return isfinite(out->p) && out->p < (alpha > 0 ? alpha : 0.01);
}

int bisect_step_decide(const double *good, size_t ng, const double *bad, size_t nb,
		       const double *mid, size_t nm, const struct bisect_step_opts *o,
		       struct bisect_step *out)
{
	double alpha = o && o->alpha > 0 ? o->alpha : 0.01, beta = o && o->beta > 0 ? o->beta : 0.01;
	int max_rounds = o && o->max_rounds > 0 ? o->max_rounds : 10;
	double mg, mb, var;

	memset(out, 0, sizeof(*out));
	out->error_bound = 1;
	if (ng < 2 || nb < 2)
		return -1;
	mg = mean_of(good, ng);
	mb = mean_of(bad, nb);
	if (mg == mb)
		return -1;
	/* the pooled run-to-run variance of the endpoints */
	var = (ssd_of(good, ng, mg) + ssd_of(bad, nb, mb)) / (double)(ng + nb - 2);
	if (!(var > 0))
		var = 1e-300;
	/*
	 * Wald's bounds at half the error rates: the statistic is looked at
	 * after every run (not a pure SPRT of independent terms), and at the
	 * full rates the errors at 2 sd came to 1.5% for a 1% bound.
	 */
	out->lower = log((beta / 2) / (1 - alpha / 2));
	out->upper = log((1 - beta / 2) / (alpha / 2));
	out->decision = BISECT_MORE;
	for (size_t i = 0; i < nm; i++) {
		/*
		 * The likelihood ratio of the midpoint's mean of k runs: under
		 * "good" it lies about the good endpoints' mean with variance
		 * var (1/k + 1/ng), the endpoint's own uncertainty included (a
		 * few runs only; plugged in as exact, the errors at 2 sd were
		 * 1.75% for a 1% bound); likewise under "bad".
		 */
		double k = (double)(i + 1), x = mean_of(mid, i + 1);
		double v0 = var * (1 / k + 1 / (double)ng), v1 = var * (1 / k + 1 / (double)nb);

		out->llr = 0.5 * log(v0 / v1) + (x - mg) * (x - mg) / (2 * v0) -
			   (x - mb) * (x - mb) / (2 * v1);
		out->rounds = (int)i + 1;
		if (out->llr >= out->upper) {
			out->decision = BISECT_BAD;
			out->error_bound = alpha;
			break;
		}
		if (out->llr <= out->lower) {
			out->decision = BISECT_GOOD;
			out->error_bound = beta;
			break;
		}
	}
	if (out->rounds) {
		out->mean = mean_of(mid, (size_t)out->rounds);
		out->change_pct = mg != 0 ? 100 * (out->mean - mg) / fabs(mg) : NAN;
	}
	if (out->decision == BISECT_MORE && out->rounds >= max_rounds)
		out->decision = BISECT_SKIP;
	switch (out->decision) {
	case BISECT_GOOD:
	case BISECT_BAD:
		snprintf(out->why, sizeof(out->why), "%s after %d run%s (LLR %.2f past %.2f; error <= %g)",
			 bisect_decision_name(out->decision), out->rounds, out->rounds == 1 ? "" : "s",
			 out->llr, out->decision == BISECT_BAD ? out->upper : out->lower,
			 out->error_bound);
		break;
	case BISECT_SKIP:
		snprintf(out->why, sizeof(out->why), "skip: undecided after %d runs (LLR %.2f within"
			 " [%.2f, %.2f]): the midpoint's mean is between good and bad", out->rounds,
			 out->llr, out->lower, out->upper);
		break;
	case BISECT_MORE:
		snprintf(out->why, sizeof(out->why), "undecided after %d run%s (LLR %.2f within"
			 " [%.2f, %.2f]): another round", out->rounds, out->rounds == 1 ? "" : "s",
			 out->llr, out->lower, out->upper);
		break;
	}
	return 0;
}
