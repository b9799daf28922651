/* The mailing-list mean_rel tables in markdown (docs/report-formats.md §3). */
#include "fmtnum.h"
#include "render.h"
#include "render-internal.h"
#include "monlist.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void md_row(struct strbuf *out, char *const *cells, const size_t *w, const bool *right,
		   size_t ncol)
{
	for (size_t k = 0; k < ncol; k++)
		strbuf_addf(out, right[k] ? "| %*s " : "| %-*s ", (int)w[k], cells[k]);
	strbuf_addstr(out, "|\n");
}

/* A row's title line: what is measured, and which way is better. */
static void md_title(struct strbuf *out, const struct compare *c, size_t r)
{
	const struct compare_row *row = &c->rows[r];
	/* names are text, never markup: "<img onerror=...>" is shown, not rendered */
	char *mw = md_text(row->what.workload), *mv = md_text(row->what.variant);
	char *mm = md_text(row->what.metric), *mu = md_text(row->what.unit);

	if (r >= monitors_kpi_rows(c))	/* neutral: no direction, never a verdict */
		strbuf_addf(out, "%s%s%s, %s (%s%smonitor, not in the verdict; %s):\n", mw,
			    *mv ? ", " : "", mv, mm, mu, *mu ? ", " : "",
			    stats_mean_title(row->mean));
	else
		strbuf_addf(out, "%s%s%s, %s (%s%s%s is better; %s):\n", mw, *mv ? ", " : "",
			    mv, mm, mu, *mu ? ", " : "", row->what.better > 0 ? "higher" : "lower",
			    stats_mean_title(row->mean));
	free(mw);
	free(mv);
	free(mm);
	free(mu);
}

/*
 * The table's columns: the label, then cells of the comparison table
 * (columns.h), each printed by md_cell(); the p / CI cell is the test's.
 */
static const char *const md_cols[] = { "change_pct", "std_rel_pct" };

/* A percentage cell: "n/a" without a value (*na: a zero baseline's). */
static char *md_cell(const char *col, const struct compare_cell *cell, bool *na)
{
	if (cell->kind == CELL_TEXT)
		*na = true;
	if (cell->kind != CELL_NUM)
		return xstrdup("n/a");
	/* -0.0% reads oddly: print the baseline's change as 0.0% */
	if (!strcmp(col, "change_pct") && !strcmp(FMT_F(cell->num, 1), "-0.0"))
		return xstrdup("0.0%");
	return xasprintf("%s%%", FMT_F(cell->num, 1));
}

/* The p / CI cell of label i against the baseline, both with samples. */
static char *md_p_cell(const struct compare *c, size_t r, size_t i)
{
	const struct compare_row *row = &c->rows[r];
	const struct stats_test *t = &row->test[i];
	const char *p;
	char *cell, ci[64];
	bool sig = compare_cell_flag("significant", c, r, i);

	if (!i)
		return xstrdup("");
	if (row->verdict[i] == VERDICT_UNTESTED)
		return xstrdup("too few samples");
	p = FMT_P(c->test == STATS_WELCH || c->test == STATS_MWU ? t->q : t->p, "n/a");
	compare_ci_cell(ci, sizeof(ci), c, r, i, 1);
	if (!*ci)
		cell = xasprintf("%s [n/a]%s", p, sig ? " *" : "");
	else
		cell = xasprintf("%s %s%s", p, ci, sig ? " *" : "");
	return cell;
}

/* The four cells of label i in row r; *na is set for a zero baseline. */
static char **md_cells(const struct compare *c, size_t r, size_t i, bool *na)
{
	const struct compare_row *row = &c->rows[r];
	char **cells = xcalloc(1 + ARRAY_SIZE(md_cols) + 1, sizeof(char *));
	bool tested = row->sum[i].n && row->sum[0].n;

	cells[0] = md_text(render_label_of(c, i));
	for (size_t k = 0; k < ARRAY_SIZE(md_cols); k++) {
		struct compare_cell cell;

		compare_cell_named(md_cols[k], c, r, i, &cell);
		cells[1 + k] = md_cell(md_cols[k], &cell, na);
		compare_cell_release(&cell);
	}
	cells[3] = tested ? md_p_cell(c, r, i) :
		   xstrdup(!i ? "" : !row->sum[i].n ? "no samples" : "no baseline samples");
	return cells;
}

/* The table: head, alignment row and the labels' rows; frees the cells. */
static void md_table(struct strbuf *out, char ***cells, size_t nl)
{
	static const char *const head[] = { "kernel", "mean_rel", "std_rel", "p / 95% CI" };
	static const bool right[] = { false, true, true, true };
	size_t w[4];

	for (size_t k = 0; k < 4; k++)
		w[k] = strlen(head[k]) + 2;
	for (size_t i = 0; i < nl; i++)
		for (size_t k = 0; k < 4; k++)
			if (strlen(cells[i][k]) > w[k])
				w[k] = strlen(cells[i][k]);
	md_row(out, (char *const *)head, w, right, 4);
	for (size_t k = 0; k < 4; k++) {
		strbuf_addch(out, '|');
		if (!right[k])
			strbuf_addch(out, ':');
		for (size_t d = 0; d < w[k] + 1; d++)
			strbuf_addch(out, '-');
		if (right[k])
			strbuf_addch(out, ':');
	}
	strbuf_addstr(out, "|\n");
	for (size_t i = 0; i < nl; i++) {
		md_row(out, cells[i], w, right, 4);
		for (size_t k = 0; k < 4; k++)
			free(cells[i][k]);
		free(cells[i]);
	}
}

/*
 * Each line of text as markdown text (md_text()): the notes name labels,
 * settings' values, metrics and reasons from the database, so they are
 * escaped like the table cells ("<img onerror=...>" is shown, not run).
 */
static void md_lines(struct strbuf *out, const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchrnul(p, '\n');
		char *line = xstrndup(p, (size_t)(nl - p)), *e = md_text(line);

		strbuf_addstr(out, e);
		if (*nl)
			strbuf_addch(out, '\n');
		free(line);
		free(e);
		p = *nl ? nl + 1 : nl;
	}
}

void render_markdown(struct strbuf *out, const struct compare *c)
{
	size_t nl = render_nlabels(c);
	bool na = false;

	for (size_t r = 0; r < c->nr; r++) {
		char ***cells = xcalloc(nl, sizeof(*cells));

		if (r)
			strbuf_addch(out, '\n');
		md_title(out, c, r);
		for (size_t i = 0; i < nl; i++)
			cells[i] = md_cells(c, r, i, &na);
		md_table(out, cells, nl);
		free(cells);
	}
	if (c->nr) {
		strbuf_addstr(out, "\nmean_rel: change of the statistic named in the title vs the baseline"
			      "\n  (+ = larger value);\n"
			      "std_rel: sample stddev / own mean; [..]: 95% CI of mean_rel;\n");
		if (c->test == STATS_WELCH || c->test == STATS_MWU)
			strbuf_addstr(out, "p: adjusted (Benjamini-Hochberg); * significant.\n");
		else
			strbuf_addstr(out, "p: n/a for this rule; * significant.\n");
		struct strbuf notes = STRBUF_INIT;

		render_describe_test(out, c, "Test: ");
		compare_guard_notes(&notes, c);
		md_lines(out, notes.buf);
		strbuf_release(&notes);
	}
	if (na)
		strbuf_addstr(out, ZERO_BASE_NOTE);
}

DEFINE_RENDERER(markdown, 40, render_markdown, RENDER_NOTES, render_by_machine_markdown);
