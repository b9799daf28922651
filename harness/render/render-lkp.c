/* 0-day's ncompare layout (docs/report-formats.md §2). */
#include "fmtnum.h"
#include "render.h"
#include "render-internal.h"
#include "monlist.h"
#include "json.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct axis {
	char *key, *value;
};

static int axis_cmp(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->key, ((const struct axis *)b)->key);
}

static void axis_add(struct axis **ax, size_t *n, size_t *alloc, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*ax)[i].key, k))
			return;
	ALLOC_GROW(*ax, *n + 1, *alloc);
	(*ax)[*n].key = xstrdup(k);
	(*ax)[*n].value = xstrdup(v);
	(*n)++;
}

/* A value shared by every label, or NULL. */
static const char *shared_meta(const struct compare *c, char *const *v)
{
	if (!v || !v[0] || !*v[0])
		return NULL;
	for (size_t i = 1; i < render_nlabels(c); i++)
		if (!v[i] || strcmp(v[i], v[0]))
			return NULL;
	return v[0];
}

/*
 * lkp's spelling of a compiler, "gcc-12" or "clang-14", from the text a
 * kernel's /proc/version gives ("gcc-12 (Debian 12.2.0-14) 12.2.0",
 * "gcc (GCC) 15.3.0", "Debian clang version 14.0.6"); lkp's own value
 * (an imported matrix) is kept.  NULL: nothing recognisable.
 */
static char *lkp_compiler(const char *v)
{
	const char *name = NULL, *p;
	int major = -1;

	if (!v)
		return NULL;
	if (!strchr(v, ' '))
		return xstrdup(v);
	for (p = v; *p && !name; p++)
		if ((p == v || p[-1] == ' ') && (!strncmp(p, "gcc", 3) || !strncmp(p, "clang", 5)))
			name = *p == 'g' ? "gcc" : "clang";
	/* the first number with a '.' is the version: its major */
	for (p = v; name && *p && major < 0; p++)
		if (isdigit((unsigned char)*p) && (p == v || p[-1] == ' ')) {
			char *e;
			long m = strtol(p, &e, 10);

			if (*e == '.')
				major = (int)m;
		}
	return name && major >= 0 ? xasprintf("%s-%d", name, major) : NULL;
}

/* What identifies a label in the sha header and commit lines. */
static void lkp_commit_id(const struct compare *c, size_t i, char **id, char **line)
{
	const char *label = c->label[i];
	const char *meta_sha = c->meta.commit ? c->meta.commit[i] : NULL;
	const char *subject = c->meta.subject ? c->meta.subject[i] : NULL;

	if (meta_sha && *meta_sha) {
		*id = xstrdup(meta_sha);
		*line = xasprintf("%.10s (\"%s\")", meta_sha,
				  subject && *subject ? subject : label);
	} else {
		*id = xstrdup(label);
		*line = xstrdup(label);
	}
}

/* The header axes, sorted: testcase, the variant's params, shared metadata. */
static struct axis *lkp_axes(const struct compare *c, const struct compare_what *q0, size_t *nax)
{
	struct axis *ax = NULL;
	size_t alloc = 0;
	const char *v = q0->variant;
	char *compiler;

	*nax = 0;
	axis_add(&ax, nax, &alloc, "testcase", q0->workload);
	while (*v) {
		const char *comma = strchr(v, ','), *eq = strchr(v, '=');
		size_t end = comma ? (size_t)(comma - v) : strlen(v);

		if (eq && (size_t)(eq - v) < end) {
			char *k = xstrndup(v, (size_t)(eq - v));
			char *val = xstrndup(eq + 1, end - (size_t)(eq - v) - 1);

			axis_add(&ax, nax, &alloc, k, val);
			free(k);
			free(val);
		}
		v += end;
		if (*v == ',')
			v++;
	}
	compiler = lkp_compiler(shared_meta(c, c->meta.compiler));
	axis_add(&ax, nax, &alloc, "compiler", compiler);
	free(compiler);
	axis_add(&ax, nax, &alloc, "cpufreq_governor", shared_meta(c, c->meta.governor));
	axis_add(&ax, nax, &alloc, "tbox_group", shared_meta(c, c->meta.tbox_group));
	axis_add(&ax, nax, &alloc, "kconfig", shared_meta(c, c->meta.kconfig));
	qsort(ax, *nax, sizeof(*ax), axis_cmp);
	return ax;
}

/* The block's head: the axes, the commits and the column heads. */
static void lkp_header(struct strbuf *out, const struct compare *c, const struct axis *ax,
		       size_t nax)
{
	size_t nl = render_nlabels(c);

	for (int i = 0; i < 89; i++)
		strbuf_addch(out, '=');
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nax; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", ax[i].key);
	strbuf_addstr(out, ":\n  ");
	for (size_t i = 0; i < nax; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", ax[i].value);
	strbuf_addstr(out, "\n\ncommit: \n");	/* lkp's own line ends in a space */
	for (size_t i = 0; i < nl; i++) {
		char *id, *line;

		lkp_commit_id(c, i, &id, &line);
		strbuf_addf(out, "  %s\n", line);
		free(id);
		free(line);
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nl; i++) {
		char *id, *line;

		lkp_commit_id(c, i, &id, &line);
		if (i == 0)
			strbuf_addf(out, "%16.16s ", id);
		else
			strbuf_addf(out, "%27.27s ", id);
		free(id);
		free(line);
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nl; i++)
		strbuf_addstr(out, i ? "--------------------------- " : "---------------- ");
	strbuf_addch(out, '\n');
	strbuf_addstr(out, "         %stddev");
	for (size_t i = 1; i < nl; i++)
		strbuf_addstr(out, "     %change         %stddev");
	strbuf_addch(out, '\n');
	strbuf_addstr(out, "             \\  ");
	for (size_t i = 1; i < nl; i++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');
}

/*
 * 0-day's layout of a row: the columns of the comparison table (columns.h)
 * it shows, the baseline's then each other label's, and how it prints a
 * cell of each.  The %change is the difference of means for the stats
 * 0-day shows that way (lkp_change_abs), else the change in % of the signed
 * base (lkp_change_pct): one of the two has a cell.
 */
static const char *const lkp_base_cols[] = { "lkp_mean", "lkp_stddev_pct" };
static const char *const lkp_cols[] = { "lkp_change_abs", "lkp_change_pct", "lkp_mean",
					"lkp_stddev_pct" };

struct lkp_line {
	struct strbuf *out;
	bool abs;	/* the row's change was a difference */
	bool na;	/* a change against a zero base showed n/a */
};

static void lkp_print(struct lkp_line *l, const char *col, const struct compare_cell *cell)
{
	struct strbuf *out = l->out;
	double v = cell->num;

	if (!strcmp(col, "lkp_mean")) {
		compare_lkp_value(out, cell->kind == CELL_NUM ? v : NAN);
	} else if (!strcmp(col, "lkp_stddev_pct")) {
		if (cell->kind == CELL_NUM && v >= 1e9)	/* no int holds it */
			strbuf_addf(out, " \xc2\xb1%.0e%%", v);
		else if (cell->kind == CELL_NUM && v > 2)
			strbuf_addf(out, " \xc2\xb1%3d%%", (int)v);
		else
			strbuf_addstr(out, "      ");
	} else if (!strcmp(col, "lkp_change_abs")) {
		l->abs = cell->kind == CELL_NUM;
		if (l->abs)
			strbuf_addf(out, "%10s  ", FMT_FP(v, 1));
	} else if (cell->kind == CELL_TEXT) {	/* lkp_change_pct against a zero base */
		strbuf_addf(out, "%11s ", cell->text);
		l->na = true;
	} else if (cell->kind == CELL_NUM) {
		strbuf_addf(out, fabs(v) >= 100000 ? "%+10.2g%% " : "%+10.1f%% ", v);
	} else if (!l->abs) {
		strbuf_addf(out, "%12s", "");
	}
}

static void lkp_cells(struct lkp_line *l, const struct compare *c, size_t r, size_t i,
		      const char *const *cols, size_t ncols)
{
	for (size_t k = 0; k < ncols; k++) {
		struct compare_cell cell;

		compare_cell_named(cols[k], c, r, i, &cell);
		lkp_print(l, cols[k], &cell);
		compare_cell_release(&cell);
	}
}

/* One metric's line; true when a change against a zero base showed n/a. */
static bool lkp_row(struct strbuf *out, const struct compare *c, size_t r)
{
	const struct compare_what *q = &c->rows[r].what;
	struct lkp_line l = { .out = out };

	lkp_cells(&l, c, r, 0, lkp_base_cols, ARRAY_SIZE(lkp_base_cols));
	for (size_t i = 1; i < render_nlabels(c); i++)
		lkp_cells(&l, c, r, i, lkp_cols, ARRAY_SIZE(lkp_cols));
	/* a monitor row's metric is already its lkp name */
	if (q->monitor)
		strbuf_addf(out, "  %s\n", q->metric);
	else
		strbuf_addf(out, "  %s.%s\n", q->workload, q->metric);
	return l.na;
}

static bool lkp_block(struct strbuf *out, const struct compare *c, const size_t *rows,
		      size_t nrows)
{
	bool any_na = false;
	size_t nax;
	struct axis *ax = lkp_axes(c, &c->rows[rows[0]].what, &nax);

	lkp_header(out, c, ax, nax);
	for (size_t k = 0; k < nrows; k++)
		any_na |= lkp_row(out, c, rows[k]);
	for (size_t i = 0; i < nax; i++) {
		free(ax[i].key);
		free(ax[i].value);
	}
	free(ax);
	return any_na;
}

/*
 * Does row r go in the mail?  0-day's ncompare shows only the stats that
 * changed (docs/report-formats.md 2.4): a KPI whose test called a change
 * for some label, the guard's inconclusive ones included (their reason
 * follows the table); a monitor row listed is one monitors_settle() kept.
 */
static bool lkp_listed(const struct compare *c, size_t r)
{
	const struct compare_row *row = &c->rows[r];

	if (row->what.monitor)
		return true;
	for (size_t i = 1; i < render_nlabels(c); i++) {
		enum compare_verdict v = row->verdict[i];

		if (v == VERDICT_INCONCLUSIVE && row->tested)
			v = row->tested[i];
		if (v == VERDICT_BETTER || v == VERDICT_WORSE)
			return true;
	}
	return false;
}

void render_lkp(struct strbuf *out, const struct compare *c)
{
	bool *done = xcalloc(c->nr + 1, sizeof(*done));
	size_t *rows = xmalloc((c->nr + 1) * sizeof(*rows)), n, left = 0;
	bool first = true, na = false;

	for (size_t r = 0; r < c->nr; r++)
		left += done[r] = !lkp_listed(c, r);
	while ((n = render_next_group(c, done, render_same_variant, rows))) {
		if (!first)
			strbuf_addch(out, '\n');
		first = false;
		na |= lkp_block(out, c, rows, n);
	}
	if (left == c->nr && c->nr)
		strbuf_addstr(out, "no stat changed under the test: 0-day lists only the changed ones"
			      "\n  (--format mmtests lists every row)\n");
	else if (left)
		strbuf_addf(out, "\n%zu unchanged stat%s left out, as 0-day does (--format mmtests"
			    " lists every row)\n", left, left == 1 ? "" : "s");
	if (c->nr)
		strbuf_addstr(out, "\nvalues: arithmetic means (0-day's convention); %change of those\n");
	if (c->ninconclusive || c->nr) {
		struct strbuf notes = STRBUF_INIT;

		compare_guard_notes(&notes, c);
		if (notes.len)
			strbuf_addf(out, "\n%s", notes.buf);
		strbuf_release(&notes);
	}
	if (na)
		strbuf_addf(out, "\n%s", ZERO_BASE_NOTE);
	free(done);
	free(rows);
}

DEFINE_RENDERER(lkp, 30, render_lkp, RENDER_NOTES, render_by_machine_text);
