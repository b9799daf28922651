/* The default readable table. */
#include "render.h"
#include "render-internal.h"
#include "report-emit.h"
#include "monlist.h"
#include "fmtnum.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* About 6 significant digits, plain notation for everyday magnitudes. */
static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int mag, dec;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	mag = (int)floor(log10(a));
	if (mag >= 12 || mag < -4) {
		snprintf(buf, len, "%.5e", v);
		return;
	}
	dec = 5 - mag;
	if (dec < 2)
		dec = 2;
	snprintf(buf, len, "%.*f", dec, v);
}

/*
 * The cells of label i in row r, as both layouts print them: the n and
 * the test's cells, and the comparison table's (columns.h) statistic,
 * change and shown verdict, each only formatted here.
 */
struct text_cells {
	char n[48], mean[64], chg[32], ci[64], p[FMT_P_MAX], q[FMT_P_MAX];
	const char *verdict;	/* the verdict shown (shown_verdict) */
	char *own;		/* what verdict points into, freed by text_cells_release() */
	bool na;		/* the baseline is 0 */
};

static void text_cells(const struct compare *c, size_t r, size_t i, struct text_cells *x)
{
	const struct compare_row *row = &c->rows[r];
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;
	struct compare_cell stat, chg, verdict;

	memset(x, 0, sizeof(*x));
	compare_n_cell(x->n, sizeof(x->n), c, r, i);
	compare_cell_named("stat_value", c, r, i, &stat);
	fmt_num(x->mean, sizeof(x->mean), stat.kind == CELL_NUM ? stat.num : NAN);
	compare_cell_named("shown_verdict", c, r, i, &verdict);
	x->verdict = verdict.text;
	x->own = verdict.own;
	/* the baseline, and a side without samples: its verdict alone */
	if (i == 0 || row->verdict[i] == VERDICT_MISSING || !row->sum[i].n || !row->sum[0].n)
		return;
	compare_cell_named("change_pct", c, r, i, &chg);
	x->na = chg.kind == CELL_TEXT;
	if (x->na) {
		snprintf(x->chg, sizeof(x->chg), "%s", chg.text);
		snprintf(x->ci, sizeof(x->ci), "%s", chg.text);
	} else {
		snprintf(x->chg, sizeof(x->chg), "%s%%", FMT_FP(chg.num, 2));
		compare_ci_cell(x->ci, sizeof(x->ci), c, r, i, 2);
		if (!*x->ci)
			snprintf(x->ci, sizeof(x->ci), "-");
	}
	compare_cell_release(&chg);
	fmt_p(x->p, compare_cell_num("p", c, r, i), false, "-");
	if (rank)
		fmt_p(x->q, compare_cell_num("p_bh", c, r, i), false, "-");
	else
		snprintf(x->q, sizeof(x->q), "%s", FMT_F(compare_cell_num("statistic", c, r, i), 3));
}

static void text_cells_release(struct text_cells *x)
{
	free(x->own);
	x->own = NULL;
}

/* --verbose: a block per row, every kernel on its line, each reason beside its verdict. */
static void text_blocks(struct strbuf *out, const struct compare *c, size_t lw, bool *na)
{
	size_t nl = render_nlabels(c);
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;

	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct compare_what *q = &row->what;
		int nw = 4;

		strbuf_addf(out, "\n%s%s%s%s %s [%s%s%s]\n", ctl_show(q->workload),
			    *q->variant ? " (" : "", ctl_show(q->variant), *q->variant ? ")" : "",
			    ctl_show(q->metric), ctl_show(q->unit), *q->unit ? ", " : "",
			    q->monitor ? "monitor, not in the verdict" :
			    q->better > 0 ? "higher is better" : "lower is better");
		/* "10 (8 disturbed)" widens the n column for the whole table */
		for (size_t i = 0; i < nl; i++) {
			char ncell[48];

			compare_n_cell(ncell, sizeof(ncell), c, r, i);
			if ((int)strlen(ncell) > nw)
				nw = (int)strlen(ncell);
		}
		strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s\n", (int)lw, "kernel", nw, "n",
			    stats_mean_title(row->mean), "change", "95% CI of change", "p",
			    rank ? "p(BH)" : "ratio", "verdict");
		for (size_t i = 0; i < nl; i++) {
			struct text_cells x;

			text_cells(c, r, i, &x);
			*na |= x.na;
			strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s%s%s\n", (int)lw,
				    ctl_show(render_label_of(c, i)), nw, x.n, x.mean, x.chg, x.ci, x.p,
				    x.q, x.verdict, row->why[i] ? ": " : "",
				    row->why[i] ? row->why[i] : "");
			text_cells_release(&x);
		}
	}
}

/* "workload (variant) metric [unit, higher]": the row's name in the compact table. */
static char *row_title(const struct compare_what *q)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%s%s%s %s [", ctl_show(q->workload), *q->variant ? " (" : "",
		    ctl_show(q->variant), *q->variant ? ")" : "", ctl_show(q->metric));
	strbuf_addf(&sb, "%s%s%s]", ctl_show(q->unit), *q->unit ? ", " : "",
		    q->monitor ? "monitor" : q->better > 0 ? "higher" : "lower");
	return strbuf_detach(&sb);
}

static int widest(int w, const char *s)
{
	return (int)strlen(s) > w ? (int)strlen(s) : w;
}

/* A paste must fit a mail: the compact table folds its rows beyond this. */
#define TEXT_COLUMNS 80

/* Lines of text longer than a mail's TEXT_COLUMNS wrapped at words, indented under their start. */
static void text_fold_lines(struct strbuf *out, const char *text)
{
	for (const char *p = text, *nl; *p; p = nl + 1) {
		size_t ind = strspn(p, " ");
		char *line, *first, *cont;

		nl = strchrnul(p, '\n');
		if ((size_t)(nl - p) <= TEXT_COLUMNS) {
			strbuf_add(out, p, (size_t)(nl - p));
			strbuf_addch(out, '\n');
		} else {
			line = xstrndup(p + ind, (size_t)(nl - p) - ind);
			first = xstrndup(p, ind);
			cont = xasprintf("%s  ", first);
			report_wrap(out, first, cont, line);
			free(line);
			free(first);
			free(cont);
		}
		if (!*nl)
			break;
	}
}

/* The compact table's column widths for label i against the baseline. */
struct text_widths {
	int tw, nb, nn, mb, mn, cw, ciw, qw, vw;
};

static void text_widths(const struct compare *c, size_t i, char **titles, size_t nrows,
			struct text_widths *w)
{
	struct text_cells x, b;

	*w = (struct text_widths){ .tw = 3, .nb = 1, .nn = 1, .mb = 9, .mn = 9, .cw = 8,
				   .ciw = 16, .qw = 8, .vw = 7 };
	for (size_t r = 0; r < nrows; r++) {
		text_cells(c, r, 0, &b);
		text_cells(c, r, i, &x);
		w->tw = widest(w->tw, titles[r]);
		w->nb = widest(w->nb, b.n);
		w->nn = widest(w->nn, x.n);
		w->mb = widest(w->mb, b.mean);
		w->mn = widest(w->mn, x.mean);
		w->cw = widest(w->cw, x.chg);
		w->ciw = widest(w->ciw, x.ci);
		w->qw = widest(w->qw, x.q);
		w->vw = widest(w->vw, x.verdict);
		text_cells_release(&b);
		text_cells_release(&x);
	}
}

/* The one-line table's header names the labels over their columns. */
static void text_widths_labels(const struct compare *c, size_t i, struct text_widths *w)
{
	w->mb = widest(w->mb, ctl_show(render_label_of(c, 0)));
	w->mn = widest(w->mn, ctl_show(render_label_of(c, i)));
}

/* The one-line table's width: the title, stat, n, means, change, CI, p and verdict. */
static int text_wide(const struct text_widths *w)
{
	return w->tw + 2 + 6 + 1 + w->nb + 1 + w->mb + 1 + w->nn + 1 + w->mn + 1 + w->cw + 1 +
	       w->ciw + 1 + w->qw + 2 + w->vw;
}

/*
 * Row r against label i: one line when the table fits TEXT_COLUMNS, else
 * two: the title, n and verdict, then the statistic's values, change, CI
 * and p.  Every cell's format is text_cells()'s.
 */
static void text_row(struct strbuf *out, const struct compare *c, size_t r, size_t i,
		     const char *title, const struct text_widths *w, bool fold, bool *na)
{
	struct text_cells x, b;
	const char *stat = stats_mean_title(c->rows[r].mean);
	const char *v;
	char *tail;

	text_cells(c, r, 0, &b);
	text_cells(c, r, i, &x);
	*na |= x.na;
	v = x.verdict;
	if (!fold) {
		strbuf_addf(out, "%-*s  %-6s %*s %*s %*s %*s %*s %*s %*s  %s\n", w->tw, title, stat,
			    w->nb, b.n, w->mb, b.mean, w->nn, x.n, w->mn, x.mean, w->cw, x.chg,
			    w->ciw, x.ci, w->qw, x.q, v);
		text_cells_release(&b);
		text_cells_release(&x);
		return;
	}
	tail = xasprintf("n %s v %s: %s", b.n, x.n, v);
	/* a long name: its n and verdict on a line of their own */
	if (strlen(title) + 2 + strlen(tail) <= TEXT_COLUMNS)
		strbuf_addf(out, "%s, %s\n", title, tail);
	else
		strbuf_addf(out, "%s\n  %s\n", title, tail);
	free(tail);
	strbuf_addf(out, "  %-6s %*s -> %-*s %*s %*s %*s", stat, w->mb, b.mean, w->mn, x.mean,
		    w->cw, x.chg, w->ciw, x.ci, w->qw, x.q);
	while (out->len && out->buf[out->len - 1] == ' ')	/* a row without a test */
		out->buf[--out->len] = '\0';
	strbuf_addch(out, '\n');
	text_cells_release(&b);
	text_cells_release(&x);
}

/* The header of label i's table (fold: of its two-line rows). */
static void text_header(struct strbuf *out, const struct compare *c, size_t i,
			const struct text_widths *w, bool fold)
{
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;
	const char *lb = ctl_show(render_label_of(c, 0)), *li = ctl_show(render_label_of(c, i));

	if (!fold) {
		strbuf_addf(out, "\n%-*s  %-6s %*s %*s %*s %*s %*s %*s %*s  %s\n", w->tw, "row",
			    "stat", w->nb, "n", w->mb, lb, w->nn, "n", w->mn, li, w->cw, "change",
			    w->ciw, "95% CI of change", w->qw, rank ? "p(BH)" : "ratio", "verdict");
		return;
	}
	/* the labels are named above: a long one must not widen the table */
	strbuf_addstr(out, "\nrow [unit, better], n base v new: verdict\n");
	strbuf_addf(out, "  %-6s %*s -> %-*s %*s %*s %*s\n", "stat", w->mb, "base", w->mn, "new",
		    w->cw, "change", w->ciw, "95% CI of change", w->qw, rank ? "p(BH)" : "ratio");
}

/*
 * The default: one line per row and compared kernel, as benchstat does,
 * two when that would not fit a mail; why a row is inconclusive is said
 * once, in the notes under the table.  Monitor rows are counted under it,
 * not listed (--verbose lists them: RENDER_MON_VERBOSE).
 */
static void text_compact(struct strbuf *out, const struct compare *c, bool *na)
{
	size_t nl = render_nlabels(c), shown = monitors_kpi_rows(c);
	char **titles = xcalloc(c->nr ? c->nr : 1, sizeof(*titles));

	for (size_t r = 0; r < c->nr; r++)
		titles[r] = row_title(&c->rows[r].what);
	for (size_t i = 1; i < nl; i++) {
		struct text_widths w, wl;
		bool fold;

		text_widths(c, i, titles, shown, &w);
		wl = w;
		text_widths_labels(c, i, &wl);
		fold = text_wide(&wl) > TEXT_COLUMNS;
		if (!fold)
			w = wl;
		if (nl > 2)
			strbuf_addf(out, "\n-- %s vs %s --", ctl_show(render_label_of(c, i)),
				    ctl_show(render_label_of(c, 0)));
		text_header(out, c, i, &w, fold);
		for (size_t r = 0; r < shown; r++)
			text_row(out, c, r, i, titles[r], &w, fold, na);
	}
	for (size_t r = 0; r < c->nr; r++)
		free(titles[r]);
	free(titles);
}

void render_text(struct strbuf *out, const struct compare *c)
{
	size_t nl = render_nlabels(c), lw = 6;
	struct strbuf notes = STRBUF_INIT;
	bool na = false;

	for (size_t i = 0; i < nl; i++)
		if (strlen(render_label_of(c, i)) > lw)
			lw = strlen(render_label_of(c, i));
	/* names from a database written before the door refused control bytes: escaped */
	strbuf_addf(out, "baseline: %s; compared: ", ctl_show(render_label_of(c, 0)));
	for (size_t i = 1; i < nl; i++)
		strbuf_addf(out, "%s%s", i > 1 ? ", " : "", ctl_show(render_label_of(c, i)));
	strbuf_addch(out, '\n');
	render_describe_test(out, c, "test: ");
	strbuf_addstr(out, "change, 95% CI: of the row's statistic vs the baseline's value\n");
	render_describe_mean(out, c, "statistic: ");
	if (c->verbose)
		text_blocks(out, c, lw, &na);
	else
		text_compact(out, c, &na);
	strbuf_addch(out, '\n');
	if (na)
		strbuf_addf(out, "%s\n", ZERO_BASE_NOTE);
	compare_guard_notes(&notes, c);
	compare_verdict_line(&notes, c);
	text_fold_lines(out, notes.buf);
	strbuf_release(&notes);
}

/* Were values recorded for a series (counting those left out as disturbed)? */

DEFINE_RENDERER(text, 10, render_text, RENDER_NOTES | RENDER_MON_VERBOSE, render_by_machine_text);
