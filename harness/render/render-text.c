/* The default readable table. */
#include "render.h"
#include "render-internal.h"
#include "monitors.h"
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

/* The cells of label i in row r, as both layouts print them. */
struct text_cells {
	char n[48], mean[64], chg[32], ci[64], p[32], q[32];
	const char *verdict;	/* a cell without a test: its verdict's name, else NULL */
	bool na;		/* the baseline is 0 */
};

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "%.1e", p);
	else
		snprintf(buf, len, "%.4f", p);
}

static void text_cells(const struct compare *c, size_t r, size_t i, struct text_cells *x)
{
	const struct compare_row *row = &c->rows[r];
	const struct stats_summary *s = &row->sum[i];
	const struct stats_test *t = &row->test[i];
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;

	memset(x, 0, sizeof(*x));
	compare_n_cell(x->n, sizeof(x->n), c, r, i);
	fmt_num(x->mean, sizeof(x->mean), s->n ? stats_mean_of(s, row->mean) : NAN);
	if (i == 0 || row->verdict[i] == VERDICT_MISSING || !s->n || !row->sum[0].n) {
		x->verdict = render_verdict_name(row->verdict[i]);
		if (i && s->n && !row->sum[0].n && !row->why[i])
			x->verdict = "no baseline samples";
		return;
	}
	x->na = render_zero_base(row);
	if (x->na) {
		snprintf(x->chg, sizeof(x->chg), "n/a");
		snprintf(x->ci, sizeof(x->ci), "n/a");
	} else {
		double mb = stats_mean_of(&row->sum[0], row->mean);

		snprintf(x->chg, sizeof(x->chg), "%s%%",
			 FMT_FP(stats_rel_pct(mb, stats_mean_of(s, row->mean)), 2));
		if (isnan(t->rel_lo))
			snprintf(x->ci, sizeof(x->ci), "-");
		else
			snprintf(x->ci, sizeof(x->ci), "[%s%%, %s%%]", FMT_FP(t->rel_lo, 2),
				 FMT_FP(t->rel_hi, 2));
	}
	fmt_p(x->p, sizeof(x->p), t->p);
	if (rank)
		fmt_p(x->q, sizeof(x->q), t->q);
	else
		snprintf(x->q, sizeof(x->q), "%s", FMT_F(t->statistic, 3));
}

/* --verbose: a block per row, every kernel on its line, each reason beside its verdict. */
static void text_blocks(struct strbuf *out, const struct compare *c, size_t lw, bool *na)
{
	size_t nl = render_nlabels(c);
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;

	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct query_row *q = row->q;
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
				    x.q, x.verdict ? x.verdict : render_row_verdict(c, r, i),
				    row->why[i] ? ": " : "", row->why[i] ? row->why[i] : "");
		}
	}
}

/* "workload (variant) metric [unit, higher]": the row's name in the compact table. */
static char *row_title(const struct query_row *q)
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

/*
 * The default: one line per row and compared kernel, as benchstat does;
 * why a row is inconclusive is said once, in the notes under the table.
 */
static void text_compact(struct strbuf *out, const struct compare *c, bool *na)
{
	size_t nl = render_nlabels(c);
	bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;
	char **titles = xcalloc(c->nr ? c->nr : 1, sizeof(*titles));
	int tw = 3;

	for (size_t r = 0; r < c->nr; r++)
		tw = widest(tw, titles[r] = row_title(c->rows[r].q));
	for (size_t i = 1; i < nl; i++) {
		int nb = 1, nn = 1, mb = 9, mn = 9, cw = 8, ciw = 16, qw = 8;
		struct text_cells x, b;

		for (size_t r = 0; r < c->nr; r++) {
			text_cells(c, r, 0, &b);
			text_cells(c, r, i, &x);
			nb = widest(nb, b.n);
			nn = widest(nn, x.n);
			mb = widest(mb, b.mean);
			mn = widest(mn, x.mean);
			cw = widest(cw, x.chg);
			ciw = widest(ciw, x.ci);
			qw = widest(qw, x.q);
		}
		mb = widest(mb, ctl_show(render_label_of(c, 0)));
		mn = widest(mn, ctl_show(render_label_of(c, i)));
		if (nl > 2)
			strbuf_addf(out, "\n-- %s vs %s --", ctl_show(render_label_of(c, i)),
				    ctl_show(render_label_of(c, 0)));
		strbuf_addf(out, "\n%-*s  %-6s %*s %*s %*s %*s %*s %*s %*s  %s\n", tw, "row", "stat",
			    nb, "n", mb, ctl_show(render_label_of(c, 0)), nn, "n", mn,
			    ctl_show(render_label_of(c, i)), cw, "change", ciw, "95% CI of change",
			    qw, rank ? "p(BH)" : "ratio", "verdict");
		for (size_t r = 0; r < c->nr; r++) {
			const struct compare_row *row = &c->rows[r];

			text_cells(c, r, 0, &b);
			text_cells(c, r, i, &x);
			*na |= x.na;
			strbuf_addf(out, "%-*s  %-6s %*s %*s %*s %*s %*s %*s %*s  %s\n", tw, titles[r],
				    stats_mean_title(row->mean), nb, b.n, mb, b.mean, nn, x.n, mn,
				    x.mean, cw, x.chg, ciw, x.ci, qw, x.q,
				    x.verdict ? x.verdict : render_row_verdict(c, r, i));
		}
	}
	for (size_t r = 0; r < c->nr; r++)
		free(titles[r]);
	free(titles);
}

void compare_text(struct strbuf *out, const struct compare *c)
{
	size_t nl = render_nlabels(c), lw = 6;
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
	strbuf_addstr(out, "change, 95% CI: relative to the baseline's value of the row's statistic;"
		      "\n  verdicts follow each metric's direction (higher or lower is better)\n");
	render_describe_mean(out, c, "statistic: ");
	if (c->verbose)
		text_blocks(out, c, lw, &na);
	else
		text_compact(out, c, &na);
	strbuf_addch(out, '\n');
	if (na)
		strbuf_addf(out, "%s\n", ZERO_BASE_NOTE);
	compare_guard_notes(out, c);
	compare_verdict_line(out, c);
}

/* Were values recorded for a series (counting those left out as disturbed)? */

DEFINE_RENDERER(text, 10, compare_text, RENDER_NOTES, render_by_machine_text);
