/* The default readable table. */
#include "render.h"
#include "render-internal.h"
#include "monitors.h"
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

	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct query_row *q = row->q;
		bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;

		strbuf_addf(out, "\n%s%s%s%s %s [%s%s%s is better]\n", ctl_show(q->workload),
			    *q->variant ? " (" : "", ctl_show(q->variant), *q->variant ? ")" : "",
			    ctl_show(q->metric), ctl_show(q->unit), *q->unit ? ", " : "",
			    q->better > 0 ? "higher" : "lower");
		/* "10 (8 disturbed)" widens the n column for the whole table */
		int nw = 4;
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
			const struct stats_summary *s = &row->sum[i];
			const struct stats_test *t = &row->test[i];
			char mean[64], chg[32], ci[64], p[32], q2[32];

			char ncell[48];

			compare_n_cell(ncell, sizeof(ncell), c, r, i);
			fmt_num(mean, sizeof(mean), s->n ? stats_mean_of(s, row->mean) : NAN);
			if (i == 0 || row->verdict[i] == VERDICT_MISSING || !s->n || !row->sum[0].n) {
				const char *v = render_verdict_name(row->verdict[i]);

				if (i && s->n && !row->sum[0].n && !row->why[i])
					v = "no baseline samples";
				strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s%s%s\n", (int)lw,
					    ctl_show(render_label_of(c, i)), nw, ncell, mean, "", "", "", "", v,
					    row->why[i] ? ": " : "", row->why[i] ? row->why[i] : "");
				continue;
			}
			if (render_zero_base(row)) {
				snprintf(chg, sizeof(chg), "n/a");
				na = true;
			} else {
				double mb = stats_mean_of(&row->sum[0], row->mean);

				snprintf(chg, sizeof(chg), "%+.2f%%", 100 * (stats_mean_of(s, row->mean) - mb)
					 / fabs(mb));
			}
			if (render_zero_base(row))
				snprintf(ci, sizeof(ci), "n/a");
			else if (isnan(t->rel_lo))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", t->rel_lo, t->rel_hi);
			if (isnan(t->p))
				snprintf(p, sizeof(p), "-");
			else if (t->p < 0.0001)
				snprintf(p, sizeof(p), "%.1e", t->p);
			else
				snprintf(p, sizeof(p), "%.4f", t->p);
			if (rank) {
				if (isnan(t->q))
					snprintf(q2, sizeof(q2), "-");
				else if (t->q < 0.0001)
					snprintf(q2, sizeof(q2), "%.1e", t->q);
				else
					snprintf(q2, sizeof(q2), "%.4f", t->q);
			} else {
				snprintf(q2, sizeof(q2), "%.3f", t->statistic);
			}
			strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s%s%s\n", (int)lw,
				    ctl_show(render_label_of(c, i)), nw, ncell, mean, chg, ci, p, q2,
				    render_verdict_name(row->verdict[i]), row->why[i] ? ": " : "",
				    row->why[i] ? row->why[i] : "");
		}
	}
	strbuf_addch(out, '\n');
	if (na)
		strbuf_addf(out, "%s\n", ZERO_BASE_NOTE);
	compare_guard_notes(out, c);
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

/* Were values recorded for a series (counting those left out as disturbed)? */
