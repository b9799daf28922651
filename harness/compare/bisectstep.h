/*
 * One bisect step's decision (docs/bisect.md): is the candidate commit's
 * run-level mean the good endpoint's or the bad endpoint's?  A sequential
 * probability ratio test (Wald) between the two simple hypotheses
 *   H_good: run mean ~ N(mu_good, s^2)   H_bad: run mean ~ N(mu_bad, s^2)
 * with mu_good, mu_bad and s estimated from the endpoint runs measured
 * beside the candidate (interleaved).  The caller feeds run means only
 * (disturbed runs already left out) and asks again after every round:
 * the answer is good, bad, more rounds, or skip (with the reason) once
 * --max-rounds candidate runs have not decided it.
 *
 * The plug-in estimates make the plain SPRT overconfident with few
 * endpoint runs, so the spread is taken as its upper confidence bound
 * (chi-square, one-sided 90%), the change good -> bad as its lower bound
 * (one-sided 90%), and the estimated midpoint's variance joins the
 * candidate mean's; tests/unit/test_bisectstep.c shows the stated bound
 * holding at known effect sizes.
 * (Contract header: implemented in bisectstep.c.)
 */
#ifndef MMB_BISECTSTEP_H
#define MMB_BISECTSTEP_H

#include <stddef.h>

enum bisect_decision {
	BISECT_MORE,	/* not decided yet: measure another round */
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,	/* --max-rounds reached, or the endpoints do not separate */
};
const char *bisect_decision_name(enum bisect_decision d);	/* "good", "bad", "more", "skip" */

struct bisect_step_opts {
	double alpha;		/* P(call a good commit bad), default 0.01 */
	double beta;		/* P(call a bad commit good), default 0.01 */
	int min_rounds;		/* candidate runs before a decision, default 2 */
	int max_rounds;		/* candidate runs before skip, default 10 */
};
void bisect_step_opts_default(struct bisect_step_opts *o);

struct bisect_step_result {
	enum bisect_decision decision;
	double llr;		/* log likelihood ratio, bad over good */
	double lower, upper;	/* Wald's thresholds: good at <= lower, bad at >= upper */
	double mean;		/* the candidate's mean of run means */
	double change;		/* (mean - good mean) / good mean, NaN when good mean is 0 */
	double position;	/* (mean - good) / (bad - good): 0 good, 1 bad */
	double error_bound;	/* Wald's bound on this step's error: max(a/(1-b), b/(1-a)) */
	size_t nruns;		/* candidate runs used */
	char reason[160];	/* why skip or more, empty otherwise */
};

/*
 * Decide from the run means good[0..ng), bad[0..nb), cand[0..nc).
 * 0, or -1 with reason set on bad options (alpha/beta outside (0, 0.5),
 * max_rounds < min_rounds).  Fewer than 2 runs at an endpoint is MORE.
 */
int bisect_step_decide(const double *good, size_t ng, const double *bad, size_t nb,
		       const double *cand, size_t nc, const struct bisect_step_opts *o,
		       struct bisect_step_result *r);

/*
 * The endpoint check before any step: do good and bad differ at all?
 * Looks at n0, 2 n0 ... BISECT_ENDPOINT_LOOKS x n0 runs a side, each a
 * Welch test of the run means at alpha / BISECT_ENDPOINT_LOOKS
 * (Bonferroni over the looks), so adding rounds to a change too small to
 * see at n0 does not raise the chance of bisecting an A/A above alpha
 * (tests/unit/test_bisectstep.c simulates it).  t gets the test with the
 * change as a ratio and its 95% CI (Fieller, as compare states it).
 */
#define BISECT_ENDPOINT_LOOKS 3
#define BISECT_ENDPOINT_ALPHA 0.05
enum bisect_endpoints {
	BISECT_ENDPOINTS_DIFFER,	/* significant at this look: bisect */
	BISECT_ENDPOINTS_MORE,		/* not yet: measure up to the next look */
	BISECT_ENDPOINTS_SAME,		/* not at the last look: nothing to bisect */
};
struct stats_test;
enum bisect_endpoints bisect_endpoints_decide(const double *good, size_t ng, const double *bad,
					      size_t nb, size_t n0, struct stats_test *t);
/* The runs a side the look after one at n runs wants (n0 the first look's). */
size_t bisect_endpoints_next(size_t n, size_t n0);

#endif
