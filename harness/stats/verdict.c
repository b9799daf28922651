/*
 * Honest verdicts: a significant change only stands when the machine's
 * state can back it.  compare_build() runs the tests on the clean values
 * (query_load() left the disturbed iterations' values out unless
 * --keep-disturbed); this pass then turns a verdict inconclusive when
 *
 *  - a side has fewer than GUARD_MIN_CLEAN clean values while some were
 *    left out as disturbed (too few clean samples to say anything);
 *  - a change was found but more than GUARD_BUSY_SHARE of a side's
 *    values came from disturbed iterations (the machine was busy: the
 *    "clean" rest sat just under the limits);
 *  - a change was found and the two sides' mean interference level
 *    (others' CPU + steal share of the iteration's CPUs) differs by more
 *    than GUARD_LEVEL_DIFF: the difference in load can explain it.
 *
 * "No significant change" stays unless the first rule applies: noise can
 * hide a change, but it cannot fake its absence any more than the test
 * already allows for.  With --keep-disturbed the user vouches for the
 * disturbed values: only the third rule still applies.
 */
#include "compare.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double mean_level(const struct query_series *s, size_t *nmeasured)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < s->n; k++)
		if (s->level && !isnan(s->level[k])) {
			sum += s->level[k];
			n++;
		}
	*nmeasured = n;
	return n ? sum / n : NAN;
}

/* Share of a side's values that came from disturbed iterations. */
static double busy_share(const struct query_series *s, bool kept)
{
	size_t all = kept ? s->n : s->n + s->ndisturbed;

	return all ? (double)s->ndisturbed / all : 0;
}

static size_t clean_n(const struct query_series *s, bool kept)
{
	return kept ? s->n - s->ndisturbed : s->n;
}

static char *why_inconclusive(const struct compare *c, const struct compare_row *row, size_t i)
{
	const struct query_series *b = &row->q->series[0], *s = &row->q->series[i];
	const char *lb = c->qs->kernels[0].label, *ls = c->qs->kernels[i].label;
	enum compare_verdict v = row->verdict[i];
	bool kept = c->kept_disturbed, change = v == VERDICT_BETTER || v == VERDICT_WORSE;
	size_t nb = clean_n(b, kept), ns = clean_n(s, kept), mb, ms;
	double lvb, lvs;

	/* --keep-disturbed: the user vouches for those values; only the load rule stays */
	if (!kept && (b->ndisturbed || s->ndisturbed) &&
	    (nb < GUARD_MIN_CLEAN || ns < GUARD_MIN_CLEAN))
		return xasprintf("too few clean samples: %s %zu (%zu disturbed), %s %zu "
				 "(%zu disturbed), need %d a side", lb, nb, b->ndisturbed, ls, ns,
				 s->ndisturbed, GUARD_MIN_CLEAN);
	if (!change)
		return NULL;
	if (!kept &&
	    (busy_share(b, kept) > GUARD_BUSY_SHARE || busy_share(s, kept) > GUARD_BUSY_SHARE)) {
		const struct query_series *x = busy_share(b, kept) >= busy_share(s, kept) ? b : s;

		return xasprintf("machine busy: %zu of %zu %s values from disturbed iterations",
				 x->ndisturbed, kept ? x->n : x->n + x->ndisturbed,
				 x == b ? lb : ls);
	}
	lvb = mean_level(b, &mb);
	lvs = mean_level(s, &ms);
	if (mb && ms && fabs(lvs - lvb) > GUARD_LEVEL_DIFF)
		return xasprintf("interference differs: others used %.0f%% of the CPUs during %s, "
				 "%.0f%% during %s (limit %.0f points)", 100 * lvs, ls, 100 * lvb,
				 lb, 100 * GUARD_LEVEL_DIFF);
	return NULL;
}

/* The values of one run start at a (they come grouped by run); returns its end. */
static size_t run_span(const struct query_series *s, size_t a, double *mean)
{
	double m = 0;
	size_t b;

	for (b = a; b < s->n && s->run_id[b] == s->run_id[a]; b++)
		m += s->v[b];
	*mean = m / (double)(b - a);
	return b;
}

/*
 * Run-to-run drift: do the runs of one label agree as well as their
 * within-run noise says they should?  One-way ANOVA across the label's
 * runs (each with >= 2 values); p < DRIFT_ALPHA, strict because every row
 * of every label is tested, flags it.  0 and the numbers, or -1.
 */
static int drift_test(const struct query_series *s, double *F, double *p, size_t *nruns,
		      size_t *lo, size_t *hi)
{
	double sum = 0, grand, ssb = 0, ssw = 0, lomean = INFINITY, himean = -INFINITY, m;
	size_t k = 0, n = 0;

	for (size_t a = 0, b; a < s->n; a = b) {
		b = run_span(s, a, &m);
		if (b - a < 2)
			continue;
		for (size_t j = a; j < b; j++)
			ssw += (s->v[j] - m) * (s->v[j] - m);
		sum += (double)(b - a) * m;
		k++;
		n += b - a;
		if (m < lomean) {
			lomean = m;
			*lo = a;
		}
		if (m > himean) {
			himean = m;
			*hi = a;
		}
	}
	if (k < 2 || n <= k)
		return -1;
	grand = sum / (double)n;	/* over the runs that take part */
	for (size_t a = 0, b; a < s->n; a = b) {
		b = run_span(s, a, &m);
		if (b - a >= 2)
			ssb += (double)(b - a) * (m - grand) * (m - grand);
	}
	*nruns = k;
	if (ssw <= 0) {
		*F = ssb > 0 ? INFINITY : 0;
		*p = ssb > 0 ? 0 : 1;
		return 0;
	}
	*F = (ssb / (double)(k - 1)) / (ssw / (double)(n - k));
	*p = stats_ibeta((double)(n - k) / ((double)(n - k) + (double)(k - 1) * *F),
			 (double)(n - k) / 2, (double)(k - 1) / 2);
	return 0;
}

static double run_mean(const struct query_series *s, size_t a)
{
	double m;

	run_span(s, a, &m);
	return m;
}

/* The drift warning of label i, or NULL. */
static char *drift_of(const struct compare *c, size_t i)
{
	struct strbuf out = STRBUF_INIT;
	size_t more = 0;
	bool said = false;

	for (size_t r = 0; r < c->nr; r++) {
		const struct query_row *q = c->rows[r].q;
		const struct query_series *s = &q->series[i];
		double F, p;
		size_t k, lo = 0, hi = 0;

		/* monitor rows never drive drift warnings: the KPIs' alone */
		if (q->monitor || drift_test(s, &F, &p, &k, &lo, &hi) || !(p < DRIFT_ALPHA))
			continue;
		if (said) {
			more++;
			continue;
		}
		said = true;
		strbuf_addf(&out, "drift: the runs of %s disagree more than their own noise"
			    " allows on %s%s%s%s %s (one-way ANOVA across %zu runs: F = %.3g,"
			    " p = %.2g < %g): run %lld mean %.6g, run %lld mean %.6g",
			    c->qs->kernels[i].label, q->workload, *q->variant ? " (" : "",
			    q->variant, *q->variant ? ")" : "", q->metric, k, F, p,
			    DRIFT_ALPHA, (long long)s->run_id[lo], run_mean(s, lo),
			    (long long)s->run_id[hi], run_mean(s, hi));
	}
	if (!said)
		return NULL;
	strbuf_addf(&out, more ? " (and %zu more row%s)\n" : "\n", more, more == 1 ? "" : "s");
	return strbuf_detach(&out);
}

void compare_join_drift(struct compare *c)
{
	struct strbuf out = STRBUF_INIT;
	size_t nl = c->qs->nlabels;

	for (size_t i = 0; i < nl; i++) {
		bool dup = false;

		/* a label given twice is one kernel: said once */
		for (size_t j = 0; j < i; j++)
			dup |= c->qs->kernels[j].id == c->qs->kernels[i].id;
		if (!dup && c->drift_label[i])
			strbuf_addstr(&out, c->drift_label[i]);
	}
	free(c->drift);
	c->drift = out.len ? strbuf_detach(&out) : NULL;
	strbuf_release(&out);
}

static void find_drift(struct compare *c)
{
	size_t nl = c->qs->nlabels;

	c->drift_label = xcalloc(nl, sizeof(*c->drift_label));
	for (size_t i = 0; i < nl; i++)
		c->drift_label[i] = drift_of(c, i);
	compare_join_drift(c);
}

void compare_guard(struct compare *c)
{
	size_t nl = c->qs->nlabels;

	c->kept_disturbed = c->qs->kept_disturbed;
	c->ndisturbed = xcalloc(nl, sizeof(*c->ndisturbed));
	for (size_t r = 0; r < c->nr; r++) {
		struct compare_row *row = &c->rows[r];

		row->why = xcalloc(nl, sizeof(*row->why));
		row->tested = xmalloc(nl * sizeof(*row->tested));
		memcpy(row->tested, row->verdict, nl * sizeof(*row->tested));
		for (size_t i = 0; i < nl; i++)
			c->ndisturbed[i] += row->q->series[i].ndisturbed;
		for (size_t i = 1; i < nl && !c->qs->no_guard; i++) {
			enum compare_verdict v = row->verdict[i];

			/* "no samples" because every value was disturbed is no verdict either */
			if (v == VERDICT_MISSING && !c->kept_disturbed &&
			    (row->q->series[0].ndisturbed || row->q->series[i].ndisturbed))
				v = VERDICT_UNTESTED;
			else if (v != VERDICT_BETTER && v != VERDICT_WORSE && v != VERDICT_NONE &&
				 v != VERDICT_UNTESTED)
				continue;
			row->why[i] = why_inconclusive(c, row, i);
			if (!row->why[i])
				continue;
			compare_tally(c, row->verdict[i], false);
			row->verdict[i] = VERDICT_INCONCLUSIVE;
			compare_tally(c, VERDICT_INCONCLUSIVE, true);
		}
	}
	find_drift(c);
}

void compare_n_cell(char *buf, size_t len, const struct compare *c, size_t r, size_t i)
{
	const struct query_series *s = &c->rows[r].q->series[i];

	if (s->ndisturbed)
		snprintf(buf, len, "%zu (%zu disturbed)", s->n, s->ndisturbed);
	else
		snprintf(buf, len, "%zu", s->n);
}

void compare_guard_notes(struct strbuf *out, const struct compare *c)
{
	size_t nl = c->qs->nlabels;
	bool any = false;

	for (size_t i = 0; i < nl; i++)
		any |= c->ndisturbed[i] > 0;
	if (any) {
		strbuf_addstr(out, c->kept_disturbed ?
			      "disturbed: values from disturbed iterations are kept (--keep-disturbed):" :
			      "disturbed: values from disturbed iterations are left out"
			      " (--keep-disturbed keeps them):");
		for (size_t i = 0; i < nl; i++)
			strbuf_addf(out, "%s %s %zu", i ? "," : "", c->qs->kernels[i].label,
				    c->ndisturbed[i]);
		strbuf_addstr(out, "\n  (`mmbench show RUN` lists each iteration's interference)\n");
	}
	if (c->drift)
		strbuf_addstr(out, c->drift);
	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct query_row *q = row->q;

		for (size_t i = 1; i < nl; i++)
			if (row->why[i])
				strbuf_addf(out, "inconclusive: %s%s%s%s %s, %s vs %s: %s\n",
					    q->workload, *q->variant ? " (" : "", q->variant,
					    *q->variant ? ")" : "", q->metric, c->qs->kernels[i].label,
					    c->qs->kernels[0].label, row->why[i]);
	}
}
