/*
 * The comparison's named columns (columns.h): each a name, its JSON key and
 * how to get one cell from the value.  Computed from the value alone: no
 * layout reaches past it.
 */
#include "columns.h"
#include "util.h"

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

const struct compare_column *compare_column_find(const char *name)
{
	for (size_t k = 0; k < ncompare_columns; k++)
		if (!strcmp(compare_columns[k].name, name))
			return &compare_columns[k];
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
