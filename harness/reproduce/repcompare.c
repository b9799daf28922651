/*
 * reproduce's comparison: the 0-day table (our row under the report's) for
 * the KPI and the report's "why" rows, read from one comparison value.
 */
#include "fmtnum.h"
#include "repcompare.h"

#include "compare.h"
#include "monlist.h"
#include "query.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The cells of one table line, per commit column. */
struct cells {
	double mean[LKP_MAX_COLS];
	int sd[LKP_MAX_COLS];		/* % of the mean; -1: blank */
	double chg[LKP_MAX_COLS];	/* [0] unused; NaN: blank */
	bool absolute;			/* chg is mean_i - mean_0, as lkp's rate% rows */
};

/* A report row beside the KPI and the comparison row that measures it. */
struct why_row {
	const struct lkp_row *rep;
	size_t crow;			/* index in the comparison */
	double q[LKP_MAX_COLS];		/* BH over the listed rows, per column */
};

struct repro_view {
	const struct lkp_report *r;
	const struct repro_plan *p;
	const struct repro_columns *cols;
	struct compare cmp;
	size_t kpi;			/* the KPI's row in cmp */
	struct why_row *why;
	size_t nwhy;
};

const char *repro_monitor_name(const char *lkp_name, char *buf, size_t len)
{
	static const char *const qualifiers[] = { "i.", "ps.", "overall.", "total." };
	const char *rest = lkp_name + strlen("perf-stat.");

	if (!starts_with(lkp_name, "perf-stat."))
		return lkp_name;
	for (size_t i = 0; i < ARRAY_SIZE(qualifiers); i++)
		if (starts_with(rest, qualifiers[i])) {
			snprintf(buf, len, "perf-stat.%s", rest + strlen(qualifiers[i]));
			return buf;
		}
	return lkp_name;
}

static void fmt_sd(struct strbuf *sb, int pct)
{
	if (pct > 2)
		strbuf_addf(sb, " ±%3d%%", pct);
	else
		strbuf_addstr(sb, "      ");
}

static void fmt_lkp_row(struct strbuf *sb, const struct cells *cl, size_t n, const char *name)
{
	for (size_t c = 0; c < n; c++) {
		if (c > 0) {
			if (isnan(cl->chg[c]))
				strbuf_addstr(sb, "            ");
			else if (cl->absolute)
				strbuf_addf(sb, "%10s  ", FMT_FP(cl->chg[c], 1));
			else
				strbuf_addf(sb, "%10s%% ", FMT_FP(cl->chg[c], 1));
		}
		if (isnan(cl->mean[c]))
			strbuf_addstr(sb, "          ");
		else
			lkp_fmt_mean(sb, cl->mean[c]);
		fmt_sd(sb, cl->sd[c]);
	}
	strbuf_addf(sb, "  %s\n", name);
}

/* Our cells of comparison row cr: its summaries, as the report computes them. */
static void here_cells(const struct compare_row *cr, size_t n, bool absolute, struct cells *cl)
{
	cl->absolute = absolute;
	for (size_t c = 0; c < n; c++) {
		const struct stats_summary *s = &cr->sum[c];

		cl->mean[c] = NAN;
		cl->sd[c] = -1;
		cl->chg[c] = NAN;
		if (!cr->q->series[c].n)
			continue;
		cl->mean[c] = s->amean;
		if (cr->q->series[c].n > 1 && s->amean != 0)
			cl->sd[c] = (int)fmin(stats_pct_of(s->pstddev, s->amean), 1e9);
		if (c > 0 && !isnan(cl->mean[0]))
			cl->chg[c] = absolute ? cl->mean[c] - cl->mean[0] :
				cl->mean[0] ? stats_rel_pct(cl->mean[0], cl->mean[c]) *
					      (cl->mean[0] < 0 ? -1 : 1) :
				100.0 * cl->mean[c] / 1e-100;
	}
}

/* The report's cells of row, under the columns they belong to. */
static void lkp_report_cells(const struct lkp_row *row, const struct repro_columns *cols,
			 struct cells *cl)
{
	cl->absolute = row->absolute;
	for (size_t c = 0; c < cols->n; c++) {
		int k = cols->rcol[c];

		cl->mean[c] = k >= 0 ? row->mean[k] : NAN;
		cl->sd[c] = k >= 0 ? row->stddev[k] : -1;
		cl->chg[c] = k > 0 ? row->change[k] : NAN;
	}
}

static void print_here_and_report(struct strbuf *sb, const struct repro_view *v, size_t crow,
				  const struct lkp_row *rep, const char *name)
{
	const struct compare_row *cr = &v->cmp.rows[crow];
	const char *tbox = lkp_table_axis(v->p->table, "tbox_group");
	struct strbuf ns = STRBUF_INIT;
	struct cells cl;
	char *nm;

	for (size_t c = 0; c < v->cols->n; c++)
		strbuf_addf(&ns, "%s%zu", c ? "/" : "", cr->q->series[c].n);
	here_cells(cr, v->cols->n, rep && rep->absolute, &cl);
	nm = xasprintf("%s  (here, n=%s)", name, ns.buf ? ns.buf : "");
	fmt_lkp_row(sb, &cl, v->cols->n, nm);
	free(nm);
	strbuf_release(&ns);
	if (!rep)
		return;
	lkp_report_cells(rep, v->cols, &cl);
	nm = xasprintf("%s  (report%s%s)", name, tbox ? ", " : "", tbox ? tbox : "");
	fmt_lkp_row(sb, &cl, v->cols->n, nm);
	free(nm);
}

static void print_header(struct strbuf *sb, const struct repro_view *v)
{
	const struct lkp_table *t = v->p->table;
	size_t n = v->cols->n;

	strbuf_addf(sb, "\n=========================================================================================\n");
	strbuf_addf(sb, "%s:\n  %s\n\ncommit:\n", t->axes_keys, t->axes_values);
	for (size_t c = 0; c < n; c++)
		strbuf_addf(sb, "  %s\n", v->cols->titles[c]);
	strbuf_addch(sb, '\n');
	for (size_t c = 0; c < n; c++)
		strbuf_addf(sb, c == 0 ? "%16.16s " : "%27.27s ", v->cols->labels[c]);
	strbuf_addch(sb, '\n');
	for (size_t c = 0; c < n; c++)
		strbuf_addstr(sb, c == 0 ? "---------------- " : "--------------------------- ");
	strbuf_addstr(sb, "\n         %stddev");
	for (size_t c = 1; c < n; c++)
		strbuf_addstr(sb, "     %change         %stddev");
	strbuf_addstr(sb, "\n             \\  ");
	for (size_t c = 1; c < n; c++)
		strbuf_addstr(sb, "        |                \\  ");
	strbuf_addch(sb, '\n');
}

/* Which labels have nothing recorded: said per label; 1 when any, -1 error. */
static int labels_missing(struct mmb_db *db, const struct repro_columns *cols)
{
	char **have;
	size_t nhave, missing = 0;

	if (query_labels(db, &have, &nhave) < 0)
		return -1;
	for (size_t c = 0; c < cols->n; c++) {
		bool found = false;

		for (size_t k = 0; k < nhave; k++)
			found |= !strcmp(have[k], cols->labels[c]);
		if (!found) {
			printf("%s %s: nothing recorded yet\n", c == 0 ? "base" : "column",
			       cols->labels[c]);
			missing++;
		}
	}
	query_free_strv(have, nhave);
	return missing > 0;
}

static ssize_t find_row(const struct compare *c, const char *workload, const char *metric,
			bool monitor)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct query_row *q = c->rows[i].q;

		if (q->monitor == monitor && !strcmp(q->workload, workload) &&
		    !strcmp(q->metric, metric))
			return (ssize_t)i;
	}
	return -1;
}

/*
 * The report's rows beside the KPI that a comparison row measures, with
 * their p-values adjusted together (BH) per column: the report chose them,
 * so they are tested as one family of their own, apart from the KPI.
 */
static void match_why_rows(struct repro_view *v)
{
	const struct lkp_table *t = v->p->table;
	size_t tl = strlen(v->p->testcase);
	char buf[256];

	v->why = xcalloc(t->nrows ? t->nrows : 1, sizeof(*v->why));
	for (size_t i = 0; i < t->nrows; i++) {
		const char *name = t->rows[i].metric;
		ssize_t k;

		if (!strcmp(name, v->p->lkp_metric))
			continue;
		k = find_row(&v->cmp, v->p->workload, repro_monitor_name(name, buf, sizeof(buf)),
			     true);
		/* "<testcase>.<metric>" the workload itself measures (vm-scalability.median) */
		if (k < 0 && !strncmp(name, v->p->testcase, tl) && name[tl] == '.')
			k = find_row(&v->cmp, v->p->workload, name + tl + 1, false);
		if (k < 0)
			continue;
		v->why[v->nwhy].rep = &t->rows[i];
		v->why[v->nwhy++].crow = (size_t)k;
	}
	for (size_t c = 1; c < v->cols->n; c++) {
		double *p = xcalloc(v->nwhy ? v->nwhy : 1, sizeof(*p));
		double *q = xcalloc(v->nwhy ? v->nwhy : 1, sizeof(*q));

		for (size_t w = 0; w < v->nwhy; w++) {
			const struct compare_row *cr = &v->cmp.rows[v->why[w].crow];

			p[w] = cr->verdict[c] == VERDICT_NONE || cr->verdict[c] == VERDICT_BETTER ||
			       cr->verdict[c] == VERDICT_WORSE ? cr->test[c].p : NAN;
		}
		stats_bh(p, v->nwhy, q);
		for (size_t w = 0; w < v->nwhy; w++)
			v->why[w].q[c] = q[w];
		free(p);
		free(q);
	}
}

/* One line per column for a why row: the report's change, ours, the outcome. */
static void why_verdict(struct strbuf *sb, const struct repro_view *v, const struct why_row *w,
			size_t c)
{
	const struct compare_row *cr = &v->cmp.rows[w->crow];
	const struct stats_test *st = &cr->test[c];
	int k = v->cols->rcol[c];
	double rep = k > 0 ? w->rep->change[k] : NAN;
	bool abs = w->rep->absolute;
	const char *pct = abs ? "" : "%";
	bool sig, same;

	strbuf_addf(sb, "  %s %s: ", w->rep->metric, v->cols->labels[c]);
	if (cr->verdict[c] == VERDICT_INCONCLUSIVE) {
		strbuf_addf(sb, "inconclusive: %s\n", cr->why[c]);
		return;
	}
	if (cr->verdict[c] != VERDICT_NONE && cr->verdict[c] != VERDICT_BETTER &&
	    cr->verdict[c] != VERDICT_WORSE) {
		strbuf_addf(sb, "not tested here (n=%zu/%zu)\n", cr->q->series[0].n,
			    cr->q->series[c].n);
		return;
	}
	if (!isnan(rep))
		strbuf_addf(sb, "report %s%s, ", FMT_FP(rep, 1), pct);
	if (abs)
		strbuf_addf(sb, "here %+.4g [CI %+.4g, %+.4g]", st->diff, st->diff_lo, st->diff_hi);
	else
		strbuf_addf(sb, "here %s%% [CI %s, %s]", FMT_FP(st->rel, 1), FMT_FP(st->rel_lo, 1),
			    FMT_FP(st->rel_hi, 1));
	strbuf_addf(sb, ", p=%s, q=%s", FMT_P(st->p, "n/a"), FMT_P(w->q[c], "n/a"));
	sig = !isnan(w->q[c]) && w->q[c] < COMPARE_ALPHA && (st->diff_lo > 0 || st->diff_hi < 0);
	same = (rep < 0 && st->diff < 0) || (rep > 0 && st->diff > 0);
	if (isnan(rep))
		strbuf_addstr(sb, sig ? ": changed here\n" : ": no significant change here\n");
	else if (!sig)
		strbuf_addstr(sb, ": no significant change here\n");
	else
		strbuf_addstr(sb, same ? ": agrees\n" : ": opposite direction\n");
}

/* Why a report row has no row here. */
static const char *unmeasured_reason(const char *name, const char *testcase)
{
	size_t tl = strlen(testcase);

	if (starts_with(name, "perf-profile."))
		return "profiles are not part of reproduce; see run --profile, compare --profile";
	if (starts_with(name, "perf-stat."))
		return "not among the run's counters, or unsupported here: show lists counters.unsupported";
	if (starts_with(name, "proc-vmstat.") || starts_with(name, "meminfo."))
		return "stayed 0 here, or this kernel has no such key";
	if (!strncmp(name, testcase, tl) && starts_with(name + tl, ".time."))
		return "not recorded here";
	return "no such monitor in mmbench";
}

/* Is report row i in the table: the KPI or a measured why row? */
static bool row_shown(const struct repro_view *v, size_t i)
{
	const struct lkp_row *row = &v->p->table->rows[i];

	if (!strcmp(row->metric, v->p->lkp_metric))
		return true;
	for (size_t w = 0; w < v->nwhy; w++)
		if (v->why[w].rep == row)
			return true;
	return false;
}

static void print_unmeasured(struct strbuf *sb, const struct repro_view *v)
{
	const struct lkp_table *t = v->p->table;
	const char *reasons[16];
	size_t nreasons = 0;

	for (size_t i = 0; i < t->nrows; i++) {
		const char *name = t->rows[i].metric, *why;
		bool seen = false;

		if (row_shown(v, i))
			continue;
		why = unmeasured_reason(name, v->p->testcase);
		for (size_t k = 0; k < nreasons; k++)
			seen |= reasons[k] == why;
		if (!seen && nreasons < ARRAY_SIZE(reasons))
			reasons[nreasons++] = why;
	}
	for (size_t k = 0; k < nreasons; k++) {
		strbuf_addf(sb, "  not measured here (%s): ", reasons[k]);
		for (size_t i = 0, first = 1; i < t->nrows; i++) {
			const char *name = t->rows[i].metric;

			if (row_shown(v, i) || unmeasured_reason(name, v->p->testcase) != reasons[k])
				continue;
			strbuf_addf(sb, "%s%s", first ? "" : ", ", name);
			first = 0;
		}
		strbuf_addch(sb, '\n');
	}
}

/* The KPI's verdict per non-base column; returns how many reproduced. */
static int kpi_verdicts(const struct repro_view *v, bool *complete)
{
	const struct compare_row *cr = &v->cmp.rows[v->kpi];
	const struct repro_columns *cols = v->cols;
	int reproduced = 0;

	for (size_t c = 1; c < cols->n; c++) {
		const struct stats_test *st = &cr->test[c];
		size_t nb = cr->q->series[0].n, ns = cr->q->series[c].n;
		struct strbuf out = STRBUF_INIT;
		double rep = NAN;

		if (cr->verdict[c] == VERDICT_INCONCLUSIVE) {
			printf("%s %s: inconclusive: %s\n", cols->rcol[c] == 1 ? "suspect" : "column",
			       cols->labels[c], cr->why[c]);
			continue;
		}
		if (v->p->row && cols->rcol[c] > 0)
			rep = v->p->row->change[cols->rcol[c]];
		else if (cols->rcol[c] == 1)
			rep = v->r->headline_change;
		if (nb < 2 || ns < 2) {
			printf("%s vs %s: need 2+ runs of each (have %zu and %zu)\n", cols->labels[c],
			       cols->labels[0], nb, ns);
			*complete = false;
			continue;
		}
		if (cr->verdict[c] == VERDICT_UNTESTED || isnan(st->p)) {
			printf("%s vs %s: no test possible (constant samples?)\n", cols->labels[c],
			       cols->labels[0]);
			continue;
		}
		if (isnan(rep)) {
			printf("%s: here: %s%% [CI %s, %s], p=%s\n", cols->labels[c],
			       FMT_FP(st->rel, 1), FMT_FP(st->rel_lo, 1), FMT_FP(st->rel_hi, 1),
			       FMT_P(st->p, "n/a"));
			continue;
		}
		reproduced += repro_verdict(rep, st->rel, st->rel_lo, st->rel_hi, st->p, &out);
		printf("%s %s: %s\n", cols->rcol[c] == 1 ? "suspect" : "column", cols->labels[c],
		       out.buf);
		strbuf_release(&out);
	}
	return reproduced;
}

static void select_kpi(struct compare_select *sel, const struct repro_view *v,
		       enum monitors_mode m)
{
	compare_select_init(sel, v->cols->labels, v->cols->n);
	sel->filter.workload = v->p->workload;
	sel->filter.metric = v->p->metric;
	sel->test = STATS_WELCH;
	sel->mean = STATS_AMEAN;	/* 0-day's cells are arithmetic means */
	sel->need = COMPARE_NEED_ROWS;
	sel->monitors = m;
	sel->filter.keep_disturbed = v->cols->keep_disturbed;
}

/*
 * Whatever else changed here, by compare's own rules (as ab lists it): a
 * cause the report did not print may show up on this machine.
 */
static int print_changed_monitors(struct mmb_db *db, const struct repro_view *v)
{
	struct compare_select sel;
	struct compare c;
	struct strbuf lines = STRBUF_INIT;

	select_kpi(&sel, v, MONITORS_CHANGED);
	if (compare_open(db, &sel, &c))
		return -1;
	monitors_lines(&lines, &c, false);
	if (lines.len) {
		printf("\nmonitor rows that changed here (lkp's rules, never in the verdict; docs/monitors.md):\n");
		for (char *l = lines.buf, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			printf("  %.*s\n", (int)(nl - l), l);
		}
	}
	strbuf_release(&lines);
	compare_release(&c);
	return 0;
}

static int open_view(struct mmb_db *db, struct repro_view *v)
{
	struct compare_select sel;
	ssize_t kpi;
	int rc;

	/*
	 * all monitor rows and all the workload's metrics: the report picks
	 * which it lists beside the KPI, not lkp's filters (the KPI's verdict
	 * is its own test's, whatever else the table holds)
	 */
	select_kpi(&sel, v, MONITORS_ALL);
	sel.filter.metric = NULL;
	rc = compare_open(db, &sel, &v->cmp);
	if (rc)
		return rc < 0 ? -1 : 2;	/* > 0: compare said why */
	kpi = find_row(&v->cmp, v->p->workload, v->p->metric, false);
	if (kpi < 0) {
		compare_release(&v->cmp);
		return 0;
	}
	v->kpi = (size_t)kpi;
	match_why_rows(v);
	return 1;
}

int repro_print_comparison(struct mmb_db *db, const struct lkp_report *r,
			   const struct repro_plan *p, const struct repro_columns *cols,
			   bool *complete)
{
	struct repro_view v = { .r = r, .p = p, .cols = cols };
	struct strbuf sb = STRBUF_INIT;
	int rc, reproduced;

	*complete = false;
	rc = labels_missing(db, cols);
	if (rc)
		return rc < 0 ? -1 : 0;
	rc = open_view(db, &v);
	if (rc != 1) {
		if (rc == 0)
			printf("\nno %s.%s samples recorded yet for %s\n", p->workload, p->metric,
			       cols->labels[0]);
		return rc < 0 ? -1 : 0;
	}

	print_header(&sb, &v);
	print_here_and_report(&sb, &v, v.kpi, p->row && !p->row->absolute ? p->row : NULL,
			      p->lkp_metric);
	for (size_t w = 0; w < v.nwhy; w++)
		print_here_and_report(&sb, &v, v.why[w].crow, v.why[w].rep, v.why[w].rep->metric);
	fputs(sb.buf, stdout);
	strbuf_reset(&sb);

	*complete = true;
	reproduced = kpi_verdicts(&v, complete);
	/* what the verdicts rest on: the unit tested, and settings that differ */
	compare_unit_line(&sb, &v.cmp, "unit: ");
	compare_clock_line(&sb, &v.cmp, "clock: ");
	compare_arch_line(&sb, &v.cmp, "arch: ");
	if (v.cmp.settings)
		strbuf_addstr(&sb, v.cmp.settings);

	if (v.nwhy || p->table->nrows > 1)
		strbuf_addstr(&sb, "\nthe report's rows beside the KPI:\n");
	for (size_t w = 0; w < v.nwhy; w++)
		for (size_t c = 1; c < cols->n; c++)
			why_verdict(&sb, &v, &v.why[w], c);
	print_unmeasured(&sb, &v);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	free(v.why);
	compare_release(&v.cmp);
	if (print_changed_monitors(db, &v) < 0)
		return -1;
	return reproduced;
}
