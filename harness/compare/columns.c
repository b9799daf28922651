/*
 * The comparison's named columns (columns.h): each a name, its JSON key and
 * how to get one cell from the value.  Computed from the value alone: no
 * layout reaches past it.
 */
#include "columns.h"
#include "monlist.h"
#include "plugin.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BASELINE: return "baseline";
	case VERDICT_MISSING: return "no samples";
	case VERDICT_UNTESTED: return "too few samples";
	case VERDICT_NONE: return "no significant change";
	case VERDICT_BETTER: return "improvement";
	case VERDICT_WORSE: return "regression";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	}
	return "?";
}

static void text(struct compare_cell *cell, const char *s)
{
	cell->kind = CELL_TEXT;
	cell->text = s;
}

static void num(struct compare_cell *cell, double v)
{
	cell->kind = CELL_NUM;
	cell->num = v;
}

static void count(struct compare_cell *cell, size_t n)
{
	cell->kind = CELL_COUNT;
	cell->count = n;
}

/* What the row measures. */
#define WHAT_TEXT(field)								\
	static void get_##field(const struct compare *c, size_t r, size_t i,		\
				struct compare_cell *cell)				\
	{										\
		(void)i;								\
		text(cell, c->rows[r].what.field);					\
	}
WHAT_TEXT(workload)
WHAT_TEXT(variant)
WHAT_TEXT(metric)
WHAT_TEXT(unit)

static void get_better(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)i;
	text(cell, c->rows[r].what.better > 0 ? "higher" : "lower");
}

static void get_kernel(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)r;
	text(cell, c->label[i]);
}

static void get_baseline(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)r;
	(void)i;
	text(cell, c->label[0]);
}

/* One label's summary of the row's values. */
static void get_n(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	count(cell, c->rows[r].sum[i].n);
}

#define SUMMARY_NUM(field)								\
	static void get_##field(const struct compare *c, size_t r, size_t i,		\
				struct compare_cell *cell)				\
	{										\
		num(cell, c->rows[r].sum[i].field);					\
	}
SUMMARY_NUM(min)
SUMMARY_NUM(q1)
SUMMARY_NUM(median)
SUMMARY_NUM(q3)
SUMMARY_NUM(max)
SUMMARY_NUM(amean)
SUMMARY_NUM(hmean)
SUMMARY_NUM(gmean)
SUMMARY_NUM(stddev)
SUMMARY_NUM(pstddev)
SUMMARY_NUM(hstddev)
SUMMARY_NUM(coeffvar)
SUMMARY_NUM(hcoeffvar)
SUMMARY_NUM(best95)

/* The test against the baseline: empty for the baseline and a missing label. */
static bool tested(const struct compare *c, size_t r, size_t i)
{
	return i > 0 && c->rows[r].verdict[i] != VERDICT_MISSING;
}

static void get_test(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	if (tested(c, r, i))
		text(cell, stats_test_name(c->test));
}

#define TEST_NUM(name, field)								\
	static void get_##name(const struct compare *c, size_t r, size_t i,		\
			       struct compare_cell *cell)				\
	{										\
		if (tested(c, r, i))							\
			num(cell, c->rows[r].test[i].field);				\
	}
TEST_NUM(statistic, statistic)
TEST_NUM(df, df)
TEST_NUM(p, p)
TEST_NUM(p_bh, q)
TEST_NUM(diff, diff)
TEST_NUM(diff_lo, diff_lo)
TEST_NUM(diff_hi, diff_hi)
TEST_NUM(rel_pct, rel)
TEST_NUM(rel_lo_pct, rel_lo)
TEST_NUM(rel_hi_pct, rel_hi)

static void get_significant(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	if (tested(c, r, i)) {
		cell->kind = CELL_FLAG;
		cell->flag = compare_significant(c, r, i);
	}
}

/* The verdict, an inconclusive one with its reason. */
static void get_verdict(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];

	if (row->why[i]) {
		cell->own = xasprintf("inconclusive: %s", row->why[i]);
		text(cell, cell->own);
	} else {
		text(cell, compare_verdict_name(row->verdict[i]));
	}
}

/* the statistic diff and rel_* are of */
static void get_mean(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)i;
	text(cell, stats_mean_name(c->rows[r].mean));
}

/* a monitor row (1 for a why row: monlist.h) */
static void get_monitor(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)i;
	cell->kind = CELL_FLAG;
	cell->flag = c->rows[r].what.monitor;
}

static void get_test_unit(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	text(cell, compare_unit_name(c, r, i));
}

static void get_units_base(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	if (*compare_unit_name(c, r, i))
		count(cell, c->rows[r].level[i].nb);
}

static void get_units(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	if (*compare_unit_name(c, r, i))
		count(cell, c->rows[r].level[i].nn);
}

/* Each label's run-to-run and within-run variation. */
static void get_runs(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	count(cell, c->rows[r].comp[i].nruns);
}

#define COMP_NUM(name, field)								\
	static void get_##name(const struct compare *c, size_t r, size_t i,		\
			       struct compare_cell *cell)				\
	{										\
		num(cell, c->rows[r].comp[i].field);					\
	}
COMP_NUM(between_run_cov, between_cov)
COMP_NUM(within_run_cov, within_cov)
COMP_NUM(between_run_share, between_share)

/* What the whole comparison shares. */
static void get_clock(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)r;
	(void)i;
	text(cell, compare_clock_name(c));
}

/* the keys whose recorded values differ between the labels, ';'-joined */
static void get_settings_differ(const struct compare *c, size_t r, size_t i,
				struct compare_cell *cell)
{
	struct strbuf keys = STRBUF_INIT;

	(void)r;
	(void)i;
	for (size_t k = 0; k < c->nsettings; k++)
		strbuf_addf(&keys, "%s%s", k ? ";" : "", c->setting[k].key);
	cell->own = strbuf_detach(&keys);
	text(cell, cell->own);
}

/*
 * The cells the layouts for people show and CSV/JSON do not (those print
 * the data these come from): computed here once, formatted by a layout.
 */

/* the row's statistic (row->mean) of label i: text's mean cell */
static void get_stat_value(const struct compare *c, size_t r, size_t i,
			   struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];

	if (row->sum[i].n)
		num(cell, stats_mean_of(&row->sum[i], row->mean));
}

/* the baseline's statistic is 0: no relative change (compare_change_pct's "n/a") */
static bool zero_base(const struct compare_row *row)
{
	return row->sum[0].n && stats_mean_of(&row->sum[0], row->mean) == 0;
}

/* the change of the row's statistic vs the baseline's, in %: text and markdown */
static void get_change_pct(const struct compare *c, size_t r, size_t i,
			   struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];

	if (!row->sum[i].n || !row->sum[0].n)
		return;
	if (zero_base(row))
		text(cell, "n/a");
	else
		num(cell, stats_rel_pct(stats_mean_of(&row->sum[0], row->mean),
					stats_mean_of(&row->sum[i], row->mean)));
}

/* sample stddev / own arithmetic mean, in % (markdown's std_rel) */
static void get_std_rel_pct(const struct compare *c, size_t r, size_t i,
			    struct compare_cell *cell)
{
	const struct stats_summary *s = &c->rows[r].sum[i];

	if (s->n > 1 && s->amean)
		num(cell, stats_pct_of(s->stddev, s->amean));
}

/* the verdict a table for people shows: a monitor "changed", a label without a baseline */
static void get_shown_verdict(const struct compare *c, size_t r, size_t i,
			      struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];
	enum compare_verdict v = row->verdict[i];

	if (i && row->sum[i].n && !row->sum[0].n && !row->why[i])
		text(cell, "no baseline samples");
	else if (r >= monitors_kpi_rows(c) && (v == VERDICT_BETTER || v == VERDICT_WORSE))
		text(cell, "changed");
	else
		text(cell, compare_verdict_name(v));
}

/* 0-day's value: the arithmetic mean, none without samples */
static void get_lkp_mean(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	if (c->rows[r].sum[i].n)
		num(cell, c->rows[r].sum[i].amean);
}

/* 0-day's %stddev: population stddev over the signed mean (none for a mean <= 0) */
static void get_lkp_stddev_pct(const struct compare *c, size_t r, size_t i,
			       struct compare_cell *cell)
{
	const struct stats_summary *s = &c->rows[r].sum[i];

	if (s->n >= 2 && s->amean > 0)
		num(cell, stats_pct_of(s->pstddev, s->amean));
}

/* 0-day shows perf-profile and percentage stats as a difference, not a %change */
static bool lkp_absolute(const struct compare_what *q)
{
	/*
	 * The lkp name is workload.metric (a monitor row's metric is already
	 * it): its head is the workload's, its tail the metric's, so no name
	 * is built for every cell.
	 */
	const char *head = q->monitor ? q->metric : q->workload;

	return starts_with(head, "perf-profile") || ends_with(q->metric, "%");
}

static bool lkp_changed(const struct compare *c, size_t r, size_t i)
{
	return i > 0 && c->rows[r].sum[i].n && c->rows[r].sum[0].n;
}

/* 0-day's %change: over the signed base; "n/a" for a zero base (0-day: +6.1e+99%) */
static void get_lkp_change_pct(const struct compare *c, size_t r, size_t i,
			       struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];
	double base = row->sum[0].amean;

	if (!lkp_changed(c, r, i) || lkp_absolute(&row->what))
		return;
	if (base == 0)
		text(cell, "n/a");
	else
		num(cell, stats_rel_pct(base, row->sum[i].amean) * (base < 0 ? -1 : 1));
}

/* ... and its difference of means where it shows one (lkp_absolute()) */
static void get_lkp_change_abs(const struct compare *c, size_t r, size_t i,
			       struct compare_cell *cell)
{
	const struct compare_row *row = &c->rows[r];

	if (lkp_changed(c, r, i) && lkp_absolute(&row->what))
		num(cell, row->sum[i].amean - row->sum[0].amean);
}

/*
 * mmtests' DecimalPlaces: 2 unless the benchmark's shellpack says
 * otherwise, whatever the size of the mean.  A benchmark name finds its
 * shellpack as mmtests looks it up: the name, then the name without its
 * last "-part", and so on ("hackbench-process-pipes" -> "hackbench").
 * These are mmtests' facts about its own shellpacks (pft's too, which
 * mmbench's pft plugin declares alike); a workload mmtests does not have
 * declares its own in its metric table (mmb_metric_def.places: 6 for
 * pte-mapped-folio, a few ms in seconds), asked first.
 */
static const struct {
	const char *workload, *metric;	/* metric NULL: every metric */
	int places;
} mm_places[] = {
	{ "pft", NULL, 4 },
	{ "bonniepp", NULL, 4 },
	{ "dbench", NULL, 4 },
	{ "fio", NULL, 6 },
	{ "hackbench", NULL, 4 },
	{ "libmicro", NULL, 5 },
	{ "perfnuma", NULL, 4 },
	{ "perfpipe", NULL, 4 },
	{ "perfsyscall", NULL, 4 },
	{ "stutterp", NULL, 4 },
	{ "trunc", NULL, 4 },
};

static int places_of(const char *name, size_t len, const char *metric)
{
	for (size_t i = 0; i < ARRAY_SIZE(mm_places); i++)
		if (strlen(mm_places[i].workload) == len &&
		    !strncmp(name, mm_places[i].workload, len) &&
		    (!mm_places[i].metric || !strcmp(metric, mm_places[i].metric)))
			return mm_places[i].places;
	return -1;
}

int compare_mmtests_places(const char *workload, const char *metric)
{
	size_t len = strlen(workload);
	int declared = plugin_metric_places(workload, metric);

	if (declared > 0)
		return declared;

	for (;;) {
		int p = places_of(workload, len, metric);
		const char *dash;

		if (p >= 0)
			return p;
		/* mmtests strips a last "-[A-Za-z_.0-9]*" part */
		dash = NULL;
		for (size_t i = len; i-- > 0;)
			if (workload[i] == '-') {
				dash = workload + i;
				break;
			}
		if (!dash)
			return 2;
		for (const char *q = dash + 1; q < workload + len; q++)
			if (!isalnum((unsigned char)*q) && *q != '_' && *q != '.')
				return 2;
		len = (size_t)(dash - workload);
	}
}

/* mmtests' decimal places of the row's values (compare_mmtests_places()) */
static void get_places(const struct compare *c, size_t r, size_t i, struct compare_cell *cell)
{
	(void)i;
	count(cell, (size_t)compare_mmtests_places(c->rows[r].what.workload,
						   c->rows[r].what.metric));
}

#define COL(name) { #name, #name, get_##name }
#define COL_KEY(name, key) { #name, key, get_##name }

const struct compare_column compare_columns[] = {
	COL(workload), COL(variant), COL(metric), COL(unit), COL(better), COL(kernel),
	COL(baseline), COL(n), COL(min), COL(q1), COL(median), COL(q3), COL(max), COL(amean),
	COL(hmean), COL(gmean), COL(stddev), COL(pstddev), COL(hstddev), COL(coeffvar),
	COL(hcoeffvar), COL(best95), COL(test), COL(statistic), COL(df), COL(p), COL(p_bh),
	COL(diff), COL(diff_lo), COL(diff_hi), COL(rel_pct), COL(rel_lo_pct), COL(rel_hi_pct),
	COL(significant), COL(verdict), COL(mean), COL(monitor), COL_KEY(test_unit, "unit"),
	COL(units_base), COL(units), COL(runs), COL_KEY(between_run_cov, "between_run_cov_pct"),
	COL_KEY(within_run_cov, "within_run_cov_pct"), COL(between_run_share), COL(clock),
	COL(settings_differ),
};
const size_t ncompare_columns = sizeof(compare_columns) / sizeof(compare_columns[0]);

const struct compare_column compare_view_columns[] = {
	COL(stat_value), COL(change_pct), COL(std_rel_pct), COL(shown_verdict), COL(lkp_mean),
	COL(lkp_stddev_pct), COL(lkp_change_pct), COL(lkp_change_abs), COL(places),
};
const size_t ncompare_view_columns = sizeof(compare_view_columns) /
				     sizeof(compare_view_columns[0]);

const struct compare_column *compare_column_find(const char *name)
{
	for (size_t k = 0; k < ncompare_columns; k++)
		if (!strcmp(compare_columns[k].name, name))
			return &compare_columns[k];
	for (size_t k = 0; k < ncompare_view_columns; k++)
		if (!strcmp(compare_view_columns[k].name, name))
			return &compare_view_columns[k];
	die("BUG: no comparison column '%s'", name);
}

void compare_cell_get(const struct compare_column *col, const struct compare *c, size_t r,
		      size_t i, struct compare_cell *cell)
{
	memset(cell, 0, sizeof(*cell));
	col->get(c, r, i, cell);
}

void compare_cell_release(struct compare_cell *cell)
{
	free(cell->own);
	cell->own = NULL;
}

void compare_cell_named(const char *name, const struct compare *c, size_t r, size_t i,
			struct compare_cell *cell)
{
	compare_cell_get(compare_column_find(name), c, r, i, cell);
}

double compare_cell_num(const char *name, const struct compare *c, size_t r, size_t i)
{
	struct compare_cell cell;

	compare_cell_named(name, c, r, i, &cell);
	compare_cell_release(&cell);
	return cell.kind == CELL_NUM ? cell.num : NAN;
}

bool compare_cell_flag(const char *name, const struct compare *c, size_t r, size_t i)
{
	struct compare_cell cell;

	compare_cell_named(name, c, r, i, &cell);
	compare_cell_release(&cell);
	return cell.kind == CELL_FLAG && cell.flag;
}
