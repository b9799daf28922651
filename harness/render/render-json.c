/* The whole comparison value as JSON (docs/report-formats.md). */
#include "render.h"
#include "render-internal.h"
#include "columns.h"
#include "monlist.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void jkey(struct strbuf *out, const char *k)
{
	json_add_string(out, k);
	strbuf_addch(out, ':');
}

/* "unit":"...", "same_kernel":b, "settings_differ":[{"key":K,"values":[...]}], */
static void json_settings(struct strbuf *out, const struct compare *c)
{
	struct strbuf unit = STRBUF_INIT;

	compare_unit_line(&unit, c, "");
	/* one line: the text's wrap "\n  " becomes a space */
	for (size_t i = 0, j = 0; i <= unit.len; i++) {
		if (unit.buf[i] == '\n') {
			while (unit.buf[i + 1] == ' ')
				i++;
			if (unit.buf[i + 1])
				unit.buf[j++] = ' ';
			continue;
		}
		unit.buf[j++] = unit.buf[i];
		if (!unit.buf[i])
			unit.len = j - 1;
	}
	jkey(out, "unit");
	json_add_string(out, unit.buf);
	strbuf_release(&unit);
	strbuf_addstr(out, ",");
	jkey(out, "clock");
	json_add_string(out, compare_clock_name(c));
	if (c->arch[0]) {	/* VM runs: the guest's arch */
		strbuf_addstr(out, ",");
		jkey(out, "arch");
		json_add_string(out, c->arch);
	}
	/* true: one kernel build under different settings (an export loses the build) */
	strbuf_addf(out, ",\"compares_settings\":%s,\"settings_differ\":[",
		    c->same_kernel && c->nsettings ? "true" : "false");
	for (size_t k = 0; k < c->nsettings; k++) {
		strbuf_addstr(out, k ? ",{" : "{");
		jkey(out, "key");
		json_add_string(out, c->setting[k].key);
		strbuf_addstr(out, ",\"values\":[");
		for (size_t i = 0; i < c->nlabels; i++) {
			if (i)
				strbuf_addch(out, ',');
			json_add_string(out, c->setting[k].values[i] ? c->setting[k].values[i] : "");
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "],");
}

/* The comparison's head: labels, the test, settings and verdict counts. */
static void json_head(struct strbuf *out, const struct compare *c)
{
	jkey(out, "baseline");
	json_add_string(out, render_label_of(c, 0));
	strbuf_addstr(out, ",\"kernels\":[");
	for (size_t i = 0; i < render_nlabels(c); i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_string(out, render_label_of(c, i));
	}
	strbuf_addstr(out, "],");
	jkey(out, "test");
	json_add_string(out, stats_test_name(c->test));
	strbuf_addch(out, ',');
	jkey(out, "multiple_comparisons");
	json_add_string(out, c->test == STATS_WELCH || c->test == STATS_MWU ?
			"benjamini-hochberg" : "none");
	strbuf_addf(out, ",\"comparisons_adjusted\":%zu,\"monitor_comparisons_adjusted\":%zu,"
		    "\"alpha\":%.2f,", c->ntests, c->nmonitor_tests, COMPARE_ALPHA);
	json_settings(out, c);
	strbuf_addf(out, "\"counts\":{\"improvement\":%zu,\"regression\":%zu,"
		    "\"no_significant_change\":%zu,\"too_few_samples\":%zu,\"inconclusive\":%zu},",
		    c->nbetter, c->nworse, c->nnone, c->nuntested, c->ninconclusive);
}

/* A cell as JSON prints it: null when there is none. */
static void json_cell(struct strbuf *out, const struct compare_cell *cell)
{
	switch (cell->kind) {
	case CELL_EMPTY:
		strbuf_addstr(out, "null");
		break;
	case CELL_TEXT:
		json_add_string(out, cell->text);
		break;
	case CELL_NUM:
		json_add_number(out, cell->num);
		break;
	case CELL_COUNT:
		strbuf_addf(out, "%zu", cell->count);
		break;
	case CELL_FLAG:
		strbuf_addstr(out, cell->flag ? "true" : "false");
		break;
	}
}

/* "key":cell,... of the named columns for label i of row r, comma-separated. */
static void json_cols(struct strbuf *out, const char *const *names, size_t n,
		      const struct compare *c, size_t r, size_t i)
{
	for (size_t k = 0; k < n; k++) {
		const struct compare_column *col = compare_column_find(names[k]);
		struct compare_cell cell;

		if (k)
			strbuf_addch(out, ',');
		jkey(out, col->key);
		compare_cell_get(col, c, r, i, &cell);
		json_cell(out, &cell);
		compare_cell_release(&cell);
	}
}

#define JSON_COLS(out, names, c, r, i) \
	json_cols(out, names, sizeof(names) / sizeof((names)[0]), c, r, i)

/* "key":[lo,hi] of two columns (a confidence interval) */
static void json_interval(struct strbuf *out, const char *key, const char *lo, const char *hi,
			  const struct compare *c, size_t r, size_t i)
{
	const char *const ends[] = { lo, hi };

	jkey(out, key);
	strbuf_addch(out, '[');
	for (size_t k = 0; k < 2; k++) {
		struct compare_cell cell;

		if (k)
			strbuf_addch(out, ',');
		compare_cell_get(compare_column_find(ends[k]), c, r, i, &cell);
		json_cell(out, &cell);
		compare_cell_release(&cell);
	}
	strbuf_addch(out, ']');
}

/* ,"test":{...} of label i against the baseline */
static void json_test(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	static const char *const head[] = { "test_unit" };
	static const char *const nums[] = { "statistic", "df", "p", "p_bh", "diff" };
	const struct compare_row *row = &c->rows[r];

	strbuf_addstr(out, ",\"test\":{");
	JSON_COLS(out, head, c, r, i);
	strbuf_addf(out, ",\"units\":[%zu,%zu],", row->level[i].nb, row->level[i].nn);
	JSON_COLS(out, nums, c, r, i);
	strbuf_addch(out, ',');
	json_interval(out, "diff_ci95", "diff_lo", "diff_hi", c, r, i);
	strbuf_addch(out, ',');
	json_cols(out, (const char *const[]){ "rel_pct" }, 1, c, r, i);
	strbuf_addch(out, ',');
	json_interval(out, "rel_ci95_pct", "rel_lo_pct", "rel_hi_pct", c, r, i);
	strbuf_addch(out, ',');
	json_cols(out, (const char *const[]){ "significant" }, 1, c, r, i);
	strbuf_addch(out, '}');
}

/* {"kernel":...} of label i in row r: its summary, verdict and test */
static void json_kernel(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	static const char *const sums[] = {
		"kernel", "n", "min", "q1", "median", "q3", "max", "amean", "hmean", "gmean",
		"stddev", "pstddev", "hstddev", "coeffvar", "hcoeffvar", "best95",
	};
	static const char *const runs[] = {
		"runs", "between_run_cov", "within_run_cov", "between_run_share",
	};
	const struct compare_row *row = &c->rows[r];

	strbuf_addstr(out, i ? ",{" : "{");
	JSON_COLS(out, sums, c, r, i);
	strbuf_addch(out, ',');
	/* the verdict's name; its reason apart (CSV's verdict column joins them) */
	jkey(out, "verdict");
	json_add_string(out, compare_verdict_name(row->verdict[i]));
	if (row->why[i]) {
		strbuf_addch(out, ',');
		jkey(out, "why");
		json_add_string(out, row->why[i]);
	}
	if (row->side[i].ndisturbed)
		strbuf_addf(out, ",\"disturbed\":%zu", row->side[i].ndisturbed);
	strbuf_addch(out, ',');
	JSON_COLS(out, runs, c, r, i);
	if (i > 0 && row->verdict[i] != VERDICT_MISSING)
		json_test(out, c, r, i);
	strbuf_addch(out, '}');
}

static void json_row(struct strbuf *out, const struct compare *c, size_t r)
{
	/* monitor always there, so a script can filter either way (monlist.h) */
	static const char *const what[] = {
		"workload", "variant", "metric", "unit", "monitor", "better", "mean",
	};

	strbuf_addstr(out, r ? ",\n{" : "\n{");
	JSON_COLS(out, what, c, r, 0);
	strbuf_addstr(out, ",\"kernels\":[");
	for (size_t i = 0; i < render_nlabels(c); i++)
		json_kernel(out, c, r, i);
	strbuf_addstr(out, "]}");
}

void render_json(struct strbuf *out, const struct compare *c)
{
	strbuf_addstr(out, "{");
	json_head(out, c);
	strbuf_addstr(out, "\"rows\":[");
	for (size_t r = 0; r < c->nr; r++)
		json_row(out, c, r);
	strbuf_addstr(out, "\n]}\n");
}

DEFINE_RENDERER(json, 60, render_json, 0, render_by_machine_json);
