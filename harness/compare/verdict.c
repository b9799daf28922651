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
#include "fmtnum.h"
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

/* One cell's two sides, as the guard's rules see them. */
struct guard_cell {
	const struct query_series *b, *s;	/* baseline, this label (counts only) */
	const struct compare_side *sb, *ss;	/* what was measured of their values */
	const char *lb, *ls;
	bool kept;				/* --keep-disturbed */
};

/* A side left with too few clean values after the disturbed ones went. */
static char *rule_too_few_clean(const struct guard_cell *g)
{
	size_t nb = clean_n(g->b, g->kept), ns = clean_n(g->s, g->kept);

	/* --keep-disturbed: the user vouches for those values */
	if (g->kept || !(g->b->ndisturbed || g->s->ndisturbed) ||
	    (nb >= GUARD_MIN_CLEAN && ns >= GUARD_MIN_CLEAN))
		return NULL;
	return xasprintf("too few clean samples: %s %zu (%zu disturbed), %s %zu "
			 "(%zu disturbed), need %d a side", g->lb, nb, g->b->ndisturbed, g->ls, ns,
			 g->s->ndisturbed, GUARD_MIN_CLEAN);
}

/* Most of a side's values came from disturbed iterations. */
static char *rule_machine_busy(const struct guard_cell *g)
{
	const struct query_series *x;

	if (g->kept || (busy_share(g->b, g->kept) <= GUARD_BUSY_SHARE &&
			busy_share(g->s, g->kept) <= GUARD_BUSY_SHARE))
		return NULL;
	x = busy_share(g->b, g->kept) >= busy_share(g->s, g->kept) ? g->b : g->s;
	return xasprintf("machine busy: %zu of %zu %s values from disturbed iterations",
			 x->ndisturbed, g->kept ? x->n : x->n + x->ndisturbed,
			 x == g->b ? g->lb : g->ls);
}

/* The sides ran under different loads: the load can explain the change. */
static char *rule_interference_differs(const struct guard_cell *g)
{
	size_t mb = g->sb->nlevel, ms = g->ss->nlevel;
	double lvb = g->sb->level, lvs = g->ss->level;

	if (!mb || !ms || fabs(lvs - lvb) <= GUARD_LEVEL_DIFF)
		return NULL;
	return xasprintf("interference differs: others used %.0f%% of the CPUs during %s, "
			 "%.0f%% during %s (limit %.0f points)", 100 * lvs, g->ls, 100 * lvb,
			 g->lb, 100 * GUARD_LEVEL_DIFF);
}

/*
 * The reasons a verdict turns inconclusive, in the order they are tried;
 * the first that applies is the reason given.  A rule returns NULL or the
 * reason (malloc'ed).  Rules for changes only leave "no significant
 * change" alone: noise can hide a change but not fake its absence.  A new
 * reason is a function and a line here, and its case in test_verdict.c.
 */
static const struct {
	char *(*rule)(const struct guard_cell *g);
	bool changes_only;
} guard_rules[] = {
	{ rule_too_few_clean, false },
	{ rule_machine_busy, true },
	{ rule_interference_differs, true },
};

static char *why_inconclusive(const struct compare *c, const struct compare_row *row, size_t i)
{
	enum compare_verdict v = row->verdict[i];
	bool change = v == VERDICT_BETTER || v == VERDICT_WORSE;
	const struct guard_cell g = {
		.b = &row->q->series[0], .s = &row->q->series[i],
		.sb = &row->side[0], .ss = &row->side[i],
		.lb = c->qs->kernels[0].label, .ls = c->qs->kernels[i].label,
		.kept = c->kept_disturbed,
	};
	char *why = NULL;

	for (size_t k = 0; k < ARRAY_SIZE(guard_rules) && !why; k++)
		if (change || !guard_rules[k].changes_only)
			why = guard_rules[k].rule(&g);
	return why;
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
static int drift_test(const struct query_series *s, struct compare_side *d)
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
			d->lo_run = s->run_id[a];
		}
		if (m > himean) {
			himean = m;
			d->hi_run = s->run_id[a];
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
	d->druns = k;
	d->lo_mean = lomean;
	d->hi_mean = himean;
	if (ssw <= 0) {
		d->F = ssb > 0 ? INFINITY : 0;
		d->p = ssb > 0 ? 0 : 1;
		return 0;
	}
	d->F = (ssb / (double)(k - 1)) / (ssw / (double)(n - k));
	d->p = stats_ibeta((double)(n - k) / ((double)(n - k) + (double)(k - 1) * d->F),
			   (double)(n - k) / 2, (double)(k - 1) / 2);
	return 0;
}

void compare_side_measure(const struct query_series *s, struct compare_side *side)
{
	side->ndisturbed = s->ndisturbed;
	side->level = mean_level(s, &side->nlevel);
	side->nruns = stats_count_runs(s->run_id, s->n);
	side->drift = !drift_test(s, side);
}

/* The drift restated from the variance components, and what the test made of it. */
static void drift_components(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	const struct stats_components *k = &c->rows[r].comp[i];

	if (!isnan(k->between_cov))
		strbuf_addf(out, "; between-run CoV %s%%, within a run %s%% (%.0f%% of the"
			    " variance between runs)", FMT_F(k->between_cov, 1),
			    FMT_F(k->within_cov, 1), 100 * k->between_share);
	if (c->unit == STATS_UNIT_ITERATION || c->test == STATS_MMTESTS || c->test == STATS_LKP)
		strbuf_addstr(out, "; the test pools the iterations and ignores it (the default"
			      " --unit auto tests runs)");
	else
		strbuf_addstr(out, "; the test's unit is the run, so this spread is in its CI");
}

/* The drift warning of label i, or NULL. */
static char *drift_of(const struct compare *c, size_t i)
{
	struct strbuf out = STRBUF_INIT;
	size_t more = 0;
	bool said = false;

	for (size_t r = 0; r < c->nr; r++) {
		const struct query_row *q = c->rows[r].q;
		const struct compare_side *d = &c->rows[r].side[i];

		/* monitor rows never drive drift warnings: the KPIs' alone */
		if (q->monitor || !d->drift || !(d->p < DRIFT_ALPHA))
			continue;
		if (said) {
			more++;
			continue;
		}
		said = true;
		strbuf_addf(&out, "drift: the runs of %s disagree more than their own noise"
			    " allows on %s%s%s%s %s (one-way ANOVA across %zu runs: F = %.3g,"
			    " p = %s < %g): run %lld mean %.6g, run %lld mean %.6g",
			    c->qs->kernels[i].label, q->workload, *q->variant ? " (" : "",
			    q->variant, *q->variant ? ")" : "", q->metric, d->druns, d->F, FMT_P_PROSE(d->p),
			    DRIFT_ALPHA, (long long)d->lo_run, d->lo_mean, (long long)d->hi_run,
			    d->hi_mean);
		drift_components(&out, c, r, i);
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
			bool all_disturbed = v == VERDICT_MISSING && !c->kept_disturbed &&
				(row->q->series[0].ndisturbed || row->q->series[i].ndisturbed);

			if (!all_disturbed && v != VERDICT_BETTER && v != VERDICT_WORSE &&
			    v != VERDICT_NONE && v != VERDICT_UNTESTED)
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

/* The length of a reason's kind: "interference differs" of "interference differs: ...". */
static size_t why_kind_len(const char *why)
{
	const char *colon = strchr(why, ':');

	return colon ? (size_t)(colon - why) : strlen(why);
}

static bool same_kind(const char *a, const char *b)
{
	return why_kind_len(a) == why_kind_len(b) && !strncmp(a, b, why_kind_len(a));
}

/*
 * Label i's inconclusive reasons.  One row: its line.  Rows sharing a
 * reason are said once with the rows counted (61 near-identical lines
 * made a paste unreadable); when their numbers differ, the kind is said
 * and --verbose gives each row's.  --verbose: a line per row, as before.
 */
static void why_lines(struct strbuf *out, const struct compare *c, size_t i)
{
	const char *lb = c->qs->kernels[0].label, *li = c->qs->kernels[i].label;

	for (size_t r = 0; r < c->nr; r++) {
		const char *why = c->rows[r].why[i];
		const struct query_row *q = c->rows[r].q;
		size_t n = 0;
		bool same = true, first = true;

		if (!why)
			continue;
		for (size_t k = 0; k < c->nr && !c->verbose; k++) {
			const char *w = c->rows[k].why[i];

			if (!w || !same_kind(w, why))
				continue;
			first &= k >= r;
			n++;
			same &= !strcmp(w, why);
		}
		if (!c->verbose && !first)
			continue;	/* said with the first row of its kind */
		if (n > 1 && same)
			strbuf_addf(out, "inconclusive: %zu rows, %s vs %s: %s\n", n, li, lb, why);
		else if (n > 1)
			strbuf_addf(out, "inconclusive: %zu rows, %s vs %s: %.*s (each row's numbers:"
				    " --verbose)\n", n, li, lb, (int)why_kind_len(why), why);
		else
			strbuf_addf(out, "inconclusive: %s%s%s%s %s, %s vs %s: %s\n", q->workload,
				    *q->variant ? " (" : "", q->variant, *q->variant ? ")" : "",
				    q->metric, li, lb, why);
	}
}

static void unbounded_note(struct strbuf *out, const struct compare *c);

void compare_guard_notes(struct strbuf *out, const struct compare *c)
{
	size_t nl = c->qs->nlabels;
	bool any = false;

	compare_unit_line(out, c, "unit: ");
	compare_clock_line(out, c, "clock: ");
	compare_arch_line(out, c, "arch: ");
	if (c->settings)
		strbuf_addstr(out, c->settings);
	if (c->verbose)
		compare_components_lines(out, c);

	for (size_t i = 0; i < nl; i++)
		any |= c->ndisturbed[i] > 0;
	if (any) {
		strbuf_addstr(out, c->kept_disturbed ?
			      "disturbed: values kept (--keep-disturbed):" :
			      "disturbed: values left out (--keep-disturbed keeps them):");
		for (size_t i = 0; i < nl; i++)
			strbuf_addf(out, "%s %s %zu", i ? "," : "", c->qs->kernels[i].label,
				    c->ndisturbed[i]);
		strbuf_addstr(out, " (`mmbench show RUN` says which)\n");
	}
	if (c->drift)
		strbuf_addstr(out, c->drift);
	unbounded_note(out, c);
	for (size_t i = 1; i < nl; i++)
		why_lines(out, c, i);
}

void disturbed_sentence(struct strbuf *why, const char *what, size_t left)
{
	strbuf_addf(why, "every iteration of %s was disturbed (%zu value%s left out: the machine"
		    " was busy or its settings changed; `mmbench show` says which): measure on a"
		    " quiet machine (`run --wait-quiet`), keep them with --keep-disturbed, or relax"
		    " the `interference:` limits (docs/experiments.md)", what, left,
		    left == 1 ? "" : "s");
}

bool compare_all_disturbed(const struct compare *c, struct strbuf *why)
{
	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 0; i < c->qs->nlabels; i++) {
			const struct query_series *s = &c->rows[r].q->series[i];
			const struct query_row *q = c->rows[r].q;
			char *what;

			if (!s->ndisturbed || s->n)
				continue;
			what = xasprintf("%s%s%s %s under '%s'", q->workload, *q->variant ? " " : "",
					 q->variant, q->metric, c->qs->kernels[i].label);
			disturbed_sentence(why, what, s->ndisturbed);
			free(what);
			return true;
		}
	return false;
}

void compare_verdict_line(struct strbuf *out, const struct compare *c)
{
	if (!c->nbetter && !c->nworse && c->ninconclusive && !c->nnone)
		strbuf_addf(out, "verdict: inconclusive (%zu comparison%s: the machine's state cannot"
			    " back a verdict", c->ninconclusive, c->ninconclusive == 1 ? "" : "s");
	else if (!c->nbetter && !c->nworse)
		strbuf_addf(out, "verdict: no significant change (%zu comparison%s tested",
			    c->nnone, c->nnone == 1 ? "" : "s");
	else
		strbuf_addf(out, "verdict: %zu regression%s, %zu improvement%s, %zu with no"
			    " significant change", c->nworse, c->nworse == 1 ? "" : "s",
			    c->nbetter, c->nbetter == 1 ? "" : "s", c->nnone);
	if (c->nuntested)
		strbuf_addf(out, "; %zu with too few samples to test", c->nuntested);
	if (!c->nbetter && !c->nworse)
		strbuf_addch(out, ')');
	if (c->ninconclusive && (c->nbetter || c->nworse || c->nnone))
		strbuf_addf(out, "; %zu inconclusive (the machine's state cannot back a verdict)",
			    c->ninconclusive);
	strbuf_addch(out, '\n');
}

/* ---- the CI as every layout prints it ---- */

/* The lower bound says nothing: -inf, or a fall of 100% or more of positive values. */
static bool lo_unbounded(const struct compare_row *row, size_t i)
{
	const struct stats_test *t = &row->test[i];

	return isinf(t->rel_lo) ||
	       (t->rel_lo <= -100 && row->sum[0].min > 0 && row->sum[i].min > 0);
}

bool compare_ci_unbounded(const struct compare *c, size_t r, size_t i)
{
	const struct stats_test *t = &c->rows[r].test[i];

	if (isnan(t->rel_lo) || isnan(t->rel_hi))
		return false;	/* no CI at all */
	return isinf(t->rel_hi) || lo_unbounded(&c->rows[r], i);
}

void compare_ci_cell(char *buf, size_t len, const struct compare *c, size_t r, size_t i, int dec)
{
	const struct stats_test *t = &c->rows[r].test[i];
	bool lo_unb = lo_unbounded(&c->rows[r], i), hi_unb = isinf(t->rel_hi);

	if (isnan(t->rel_lo) || isnan(t->rel_hi))
		snprintf(buf, len, "%s", "");
	else if (lo_unb && hi_unb)
		snprintf(buf, len, "unbounded");
	else if (lo_unb)
		snprintf(buf, len, "[unbounded, %s%%]", FMT_FP(t->rel_hi, dec));
	else if (hi_unb)
		snprintf(buf, len, "[%s%%, unbounded]", FMT_FP(t->rel_lo, dec));
	else
		snprintf(buf, len, "[%s%%, %s%%]", FMT_FP(t->rel_lo, dec), FMT_FP(t->rel_hi, dec));
}

/*
 * Said once under a table with unbounded CIs: why, in words, with each
 * distinct n of those rows ("too few runs to bound the change: n = 3 v 3").
 */
static void unbounded_note(struct strbuf *out, const struct compare *c)
{
	struct strbuf seen = STRBUF_INIT;
	size_t n = 0;
	bool runs = false;

	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 1; i < c->qs->nlabels; i++) {
			const struct stats_level_info *lv = &c->rows[r].level[i];
			char one[64];

			if (!compare_ci_unbounded(c, r, i))
				continue;
			n++;
			runs |= lv->unit == STATS_UNIT_RUN;
			snprintf(one, sizeof(one), "%zu v %zu", lv->nb, lv->nn);
			if (!seen.len || !strstr(seen.buf, one))
				strbuf_addf(&seen, "%s%s", seen.len ? ", " : "", one);
		}
	if (n)
		strbuf_addf(out, "unbounded: too few %s to bound the change at 95%%: n = %s (%zu"
			    " comparison%s)\n", runs ? "runs" : "values", seen.buf, n,
			    n == 1 ? "" : "s");
	strbuf_release(&seen);
}
