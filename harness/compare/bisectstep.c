/*
 * One bisect step's decision: a sequential probability ratio test between
 * the good and the bad endpoint's run-level means (bisectstep.h).
 */
#include "bisectstep.h"
#include "levels.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

const char *bisect_decision_name(enum bisect_decision d)
{
	switch (d) {
	case BISECT_GOOD: return "good";
	case BISECT_BAD: return "bad";
	case BISECT_SKIP: return "skip";
	case BISECT_MORE: break;
	}
	return "more";
}

void bisect_step_opts_default(struct bisect_step_opts *o)
{
	o->alpha = 0.01;
	o->beta = 0.01;
	o->min_rounds = 2;
	o->max_rounds = 10;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static double ss_of(const double *x, size_t n, double m)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s;
}

/* The chi-square distribution's 10% quantile at df (Wilson-Hilferty). */
static double chi2_q10(double df)
{
	const double z = -1.2815515655446004;
	double a = 2 / (9 * df), c = 1 - a + z * sqrt(a);

	return df * c * c * c;
}

/*
 * The spread of one run mean: pooled within the endpoints (df ng+nb-2),
 * raised to its one-sided 90% upper confidence bound.
 */
static double spread_upper(const double *good, size_t ng, double mg,
			   const double *bad, size_t nb, double mb)
{
	double df = (double)(ng + nb - 2);
	double s2 = (ss_of(good, ng, mg) + ss_of(bad, nb, mb)) / df;

	return s2 * df / chi2_q10(df);
}

static int check_opts(const struct bisect_step_opts *o, struct bisect_step_result *r)
{
	if (!(o->alpha > 0 && o->alpha < 0.5) || !(o->beta > 0 && o->beta < 0.5)) {
		snprintf(r->reason, sizeof(r->reason),
			 "alpha and beta must be in (0, 0.5), not %g and %g", o->alpha, o->beta);
		return -1;
	}
	if (o->min_rounds < 1 || o->max_rounds < o->min_rounds) {
		snprintf(r->reason, sizeof(r->reason),
			 "--max-rounds %d must be at least the minimum of %d rounds",
			 o->max_rounds, o->min_rounds < 1 ? 1 : o->min_rounds);
		return -1;
	}
	return 0;
}

static void decide(const struct bisect_step_opts *o, size_t nc, struct bisect_step_result *r)
{
	if (nc < (size_t)o->min_rounds) {
		snprintf(r->reason, sizeof(r->reason), "%zu of at least %d rounds", nc,
			 o->min_rounds);
		return;
	}
	if (r->llr >= r->upper)
		r->decision = BISECT_BAD;
	else if (r->llr <= r->lower)
		r->decision = BISECT_GOOD;
	if (r->decision != BISECT_MORE)
		return;
	if (nc >= (size_t)o->max_rounds) {
		r->decision = BISECT_SKIP;
		snprintf(r->reason, sizeof(r->reason),
			 "undecided after %zu rounds (--max-rounds): at %.0f%% of the way from good to bad, log LR %.2f in (%.2f, %.2f)",
			 nc, 100 * r->position, r->llr, r->lower, r->upper);
		return;
	}
	snprintf(r->reason, sizeof(r->reason), "log LR %.2f in (%.2f, %.2f)", r->llr,
		 r->lower, r->upper);
}

int bisect_step_decide(const double *good, size_t ng, const double *bad, size_t nb,
		       const double *cand, size_t nc, const struct bisect_step_opts *o,
		       struct bisect_step_result *r)
{
	double mg, mb, s2, mid, delta;

	*r = (struct bisect_step_result){ .decision = BISECT_MORE, .llr = 0,
		.mean = NAN, .change = NAN, .position = NAN, .nruns = nc };
	if (check_opts(o, r))
		return -1;
	r->lower = log(o->beta / (1 - o->alpha));
	r->upper = log((1 - o->beta) / o->alpha);
	r->error_bound = fmax(o->alpha / (1 - o->beta), o->beta / (1 - o->alpha));
	if (ng < 2 || nb < 2) {
		snprintf(r->reason, sizeof(r->reason),
			 "the endpoints need 2 runs each (good %zu, bad %zu)", ng, nb);
		return 0;
	}
	mg = mean_of(good, ng);
	mb = mean_of(bad, nb);
	delta = mb - mg;
	if (nc) {
		r->mean = mean_of(cand, nc);
		r->change = mg != 0 ? (r->mean - mg) / fabs(mg) : NAN;
		r->position = delta != 0 ? (r->mean - mg) / delta : NAN;
	}
	s2 = spread_upper(good, ng, mg, bad, nb, mb);
	mid = (mg + mb) / 2;
	if (delta != 0 && !(s2 > 0)) {
		/* no spread at all (a synthetic measurement): the side it lies on */
		for (size_t i = 0; i < nc; i++)
			r->llr += cand[i] - mid;
		r->llr = r->llr == 0 ? 0 : copysign(INFINITY, r->llr * delta);
		decide(o, nc, r);
		return 0;
	}
	if (delta == 0) {
		r->decision = nc >= (size_t)o->max_rounds ? BISECT_SKIP : BISECT_MORE;
		snprintf(r->reason, sizeof(r->reason),
			 "the endpoints do not separate: good and bad runs have one mean");
		return 0;
	}
	if (nc) {
		/*
		 * The candidate's mean against the estimated midpoint: the
		 * midpoint's variance is common to every candidate run, so it
		 * joins the mean's once, not each run's.
		 */
		double inv = 1.0 / (double)ng + 1.0 / (double)nb;
		double v = s2 / (double)nc + s2 / 4 * inv;
		/* the change as its one-sided 90% lower bound: never overstated */
		double dlo = fmax(0, fabs(delta) - 1.2815515655446004 * sqrt(s2 * inv));

		r->llr = copysign(dlo, delta) * (r->mean - mid) / v;
	}
	decide(o, nc, r);
	return 0;
}

size_t bisect_endpoints_next(size_t n, size_t n0)
{
	return (n / n0 + 1) * n0;
}

enum bisect_endpoints bisect_endpoints_decide(const double *good, size_t ng, const double *bad,
					      size_t nb, size_t n0, struct stats_test *t)
{
	int64_t *ids = xmalloc((ng > nb ? ng : nb) * sizeof(*ids));
	struct stats_level_info info;
	bool last = (ng < nb ? ng : nb) >= BISECT_ENDPOINT_LOOKS * n0, tested;

	/* one run mean is one unit */
	for (size_t i = 0; i < (ng > nb ? ng : nb); i++)
		ids[i] = (int64_t)i;
	tested = stats_test_levels(STATS_WELCH, STATS_AMEAN,
				   &(struct stats_side){ good, ids, ng },
				   &(struct stats_side){ bad, ids, nb }, 1, STATS_UNIT_RUN, t,
				   &info) == 0;
	free(ids);
	if (!tested)
		t->p = t->rel = t->rel_lo = t->rel_hi = NAN;
	if (tested && t->p < BISECT_ENDPOINT_ALPHA / BISECT_ENDPOINT_LOOKS)
		return BISECT_ENDPOINTS_DIFFER;
	return last ? BISECT_ENDPOINTS_SAME : BISECT_ENDPOINTS_MORE;
}
