/*
 * What compare.c and the files it calls (verdict.c, monlist.c) share of
 * the value's rows: a row's release and the tally of verdicts the
 * headline counts.  Below all three, so they form no cycle.
 */
#include "compare.h"

#include <stdlib.h>

void compare_row_release(struct compare_row *row, size_t nl)
{
	free(row->sum);
	free(row->test);
	free(row->verdict);
	free(row->tested);
	free(row->interval);
	free(row->interval_ok);
	free(row->level);
	free(row->comp);
	free(row->side);
	for (size_t i = 0; row->why && i < nl; i++)
		free(row->why[i]);
	free(row->why);
}

void compare_tally(struct compare *c, enum compare_verdict v, bool add)
{
	size_t *n;

	switch (v) {
	case VERDICT_BETTER: n = &c->nbetter; break;
	case VERDICT_WORSE: n = &c->nworse; break;
	case VERDICT_NONE: n = &c->nnone; break;
	case VERDICT_UNTESTED: n = &c->nuntested; break;
	case VERDICT_INCONCLUSIVE: n = &c->ninconclusive; break;
	default: return;
	}
	if (add)
		(*n)++;
	else
		(*n)--;
}
