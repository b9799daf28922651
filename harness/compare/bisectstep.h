/*
 * The decisions of `mmbench bisect` on run-level means (one number per
 * boot or run: the level where kernel-to-kernel variance lives):
 *  - the endpoints: does bad differ from good at all (Welch, the run
 *    means as units)?  If not there is nothing to bisect;
 *  - a step: is the midpoint good or bad?  A sequential probability ratio
 *    test between "its mean is the good mean" and "its mean is the bad
 *    mean", with stated error bounds alpha (calling a good commit bad)
 *    and beta (calling a bad commit good); more rounds until one side
 *    wins, "skip" after max_rounds.
 */
#ifndef MMB_BISECTSTEP_H
#define MMB_BISECTSTEP_H

#include <stddef.h>

#include "stats.h"

struct bisect_step_opts {
	double alpha, beta;	/* per-step error bounds; 0: 0.01 each */
	int max_rounds;		/* midpoint runs before "skip"; 0: 10 */
};

enum bisect_decision { BISECT_MORE, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

struct bisect_step {
	enum bisect_decision decision;
	double llr;		/* log-likelihood ratio, bad over good */
	double lower, upper;	/* the SPRT's bounds: ln(beta/(1-alpha)), ln((1-beta)/alpha) */
	double mean;		/* the midpoint's mean of run means */
	double change_pct;	/* vs the good mean */
	double error_bound;	/* alpha or beta, whichever the decision risks; 1 when none */
	int rounds;		/* midpoint runs used */
	char why[160];		/* a line for the step table */
};

const char *bisect_decision_name(enum bisect_decision d);

/*
 * Good vs bad at the run level, Welch on the run means: 1 when they
 * differ at level alpha (0: 0.01), 0 when not (nothing to bisect), -1
 * when either side has fewer than 2 runs.  out: the test, its change
 * and 95% CI.
 */
int bisect_endpoints(const double *good, size_t ng, const double *bad, size_t nb, double alpha,
		     struct stats_test *out);

/*
 * The step's decision from the endpoints' run means and the midpoint's
 * (in the order measured: the SPRT stops at the first run that decides).
 * 0, or -1 when the endpoints cannot define the test (fewer than 2 runs
 * a side, or equal means).
 */
int bisect_step_decide(const double *good, size_t ng, const double *bad, size_t nb,
		       const double *mid, size_t nm, const struct bisect_step_opts *o,
		       struct bisect_step *out);

#endif
