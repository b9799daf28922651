/*
 * The unit the KPI rows were tested at, said in one line (compare_unit_line()),
 * its name per cell, and compare --verbose's variance components (levels.h).
 */
#include "fmtnum.h"
#include "compare.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs of label i among the KPI rows' tests: the most any row used (0: none). */
static size_t label_runs(const struct compare *c, size_t i)
{
	size_t most = 0;

	for (size_t r = 0; r < c->nr; r++) {
		size_t k;

		if (c->rows[r].q->monitor)
			continue;
		k = c->rows[r].side[i].nruns;
		if (k > most)
			most = k;
	}
	return most;
}

/* "3 v 3": the runs each label pooled. */
static void pooled_runs(struct strbuf *out, const struct compare *c)
{
	for (size_t i = 0; i < c->qs->nlabels; i++)
		strbuf_addf(out, "%s%zu", i ? " v " : "", c->qs->kernels[i].nruns_pooled);
}

/*
 * When the tests saw fewer runs than the labels pooled (every value of
 * the others left out as disturbed, or without the compared rows), say
 * which runs exist and what was left out: the line above describes only
 * the runs that had values.
 */
static void unit_left_out(struct strbuf *out, const struct compare *c)
{
	size_t nl = c->qs->nlabels, left = 0;
	bool fewer = false;

	for (size_t i = 0; i < nl; i++) {
		fewer |= label_runs(c, i) < c->qs->kernels[i].nruns_pooled;
		left += c->kept_disturbed ? 0 : c->ndisturbed[i];
	}
	if (!fewer)
		return;
	strbuf_addstr(out, "  runs with values: ");
	for (size_t i = 0; i < nl; i++)
		strbuf_addf(out, "%s%zu", i ? " v " : "", label_runs(c, i));
	strbuf_addstr(out, " of the ");
	pooled_runs(out, c);
	strbuf_addstr(out, left ? " pooled (the others' values were disturbed: left out)" :
		      " pooled (the others have none of these rows)");
	strbuf_addch(out, '\n');
}

void compare_unit_line(struct strbuf *out, const struct compare *c, const char *prefix)
{
	size_t nl = c->qs->nlabels, by_run = 0, by_iter = 0, most = 0;
	bool rule = c->test == STATS_MMTESTS || c->test == STATS_LKP;

	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 1; i < nl && !c->rows[r].q->monitor; i++) {
			const struct stats_level_info *lv = &c->rows[r].level[i];

			/* the verdict before the guard: an all-disturbed row had no test */
			if ((c->rows[r].tested ? c->rows[r].tested[i] : c->rows[r].verdict[i]) ==
			    VERDICT_MISSING)
				continue;
			if (lv->unit == STATS_UNIT_RUN)
				by_run++;
			else
				by_iter++;
		}
	for (size_t i = 0; i < nl; i++) {
		size_t k = label_runs(c, i);

		if (k > most)
			most = k;
	}
	strbuf_addf(out, "%s", prefix);
	if (rule) {
		strbuf_addf(out, "iteration (the %s rule is defined on every value; --test welch"
			    " tests runs)\n", c->test == STATS_MMTESTS ? "mmtests" : "0-day");
		return;
	}
	if (by_run && !by_iter) {
		strbuf_addstr(out, "run, ");
		for (size_t i = 0; i < nl; i++)
			strbuf_addf(out, "%s%zu", i ? " v " : "", label_runs(c, i));
		strbuf_addstr(out, ": each run's mean is one sample (run-to-run variation tested)\n");
	} else if (!by_run && c->unit == STATS_UNIT_ITERATION && most >= 2) {
		strbuf_addstr(out, "iteration (--unit iteration): every value taken as independent"
			      "\n  although a label has several runs: run-to-run variation ignored\n");
	} else if (!by_run && !by_iter) {
		strbuf_addstr(out, "none: no KPI row had values on both sides to test\n");
	} else if (!by_run) {
		strbuf_addstr(out, "iteration: 1 run per label: run-to-run variation not measured;"
			      "\n  the CI covers iteration noise only\n");
	} else {
		strbuf_addf(out, "run for %zu comparison%s, iteration for %zu (1 run a side"
			    " there)\n", by_run, by_run == 1 ? "" : "s", by_iter);
	}
	unit_left_out(out, c);
}

const char *compare_unit_name(const struct compare *c, size_t r, size_t i)
{
	if (c->rows[r].verdict[i] == VERDICT_MISSING || !i)
		return "";
	return stats_unit_name(c->rows[r].level[i].unit);
}

void compare_components_lines(struct strbuf *out, const struct compare *c)
{
	size_t nl = c->qs->nlabels;

	strbuf_addstr(out, "variance components (CoV between runs, within a run; the share of\n"
		      "  the variance that lies between runs):\n");
	for (size_t r = 0; r < c->nr; r++) {
		const struct query_row *q = c->rows[r].q;

		if (q->monitor)
			continue;
		strbuf_addf(out, "  %s%s%s%s %s\n", q->workload, *q->variant ? " (" : "", q->variant,
			    *q->variant ? ")" : "", q->metric);
		for (size_t i = 0; i < nl; i++) {
			const struct stats_components *k = &c->rows[r].comp[i];

			strbuf_addf(out, "    %s: %zu run%s", c->qs->kernels[i].label, k->nruns,
				    k->nruns == 1 ? "" : "s");
			if (!isnan(k->between_cov))
				strbuf_addf(out, ", between %s%%, within %s%% (%.0f%% between)",
					    FMT_F(k->between_cov, 1), FMT_F(k->within_cov, 1),
					    100 * k->between_share);
			else if (!isnan(k->runmean_cov))
				strbuf_addf(out, ", run means %s%% (1 value a run)",
					    FMT_F(k->runmean_cov, 1));
			else if (!isnan(k->within_cov))
				strbuf_addf(out, ", within %s%%", FMT_F(k->within_cov, 1));
			strbuf_addch(out, '\n');
		}
	}
}
