/* The whole comparison value as JSON (docs/report-formats.md). */
#include "render.h"
#include "render-internal.h"
#include "monitors.h"
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

static void jnum(struct strbuf *out, const char *k, double v, bool comma)
{
	jkey(out, k);
	json_add_number(out, v);
	if (comma)
		strbuf_addch(out, ',');
}

/* "k":[lo,hi], (a confidence interval, then the next key) */
static void jinterval(struct strbuf *out, const char *k, double lo, double hi)
{
	jkey(out, k);
	strbuf_addch(out, '[');
	json_add_number(out, lo);
	strbuf_addch(out, ',');
	json_add_number(out, hi);
	strbuf_addstr(out, "],");
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

/* ,"test":{...} of label i against the baseline */
static void json_test(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	const struct compare_row *row = &c->rows[r];
	const struct stats_test *t = &row->test[i];

	strbuf_addstr(out, ",\"test\":{");
	jkey(out, "unit");
	json_add_string(out, compare_unit_name(c, r, i));
	strbuf_addf(out, ",\"units\":[%zu,%zu],", row->level[i].nb, row->level[i].nn);
	jnum(out, "statistic", t->statistic, true);
	jnum(out, "df", t->df, true);
	jnum(out, "p", t->p, true);
	jnum(out, "p_bh", t->q, true);
	jnum(out, "diff", t->diff, true);
	jinterval(out, "diff_ci95", t->diff_lo, t->diff_hi);
	jnum(out, "rel_pct", t->rel, true);
	jinterval(out, "rel_ci95_pct", t->rel_lo, t->rel_hi);
	strbuf_addf(out, "\"significant\":%s}", compare_significant(c, r, i) ? "true" : "false");
}

/* {"kernel":...} of label i in row r: its summary, verdict and test */
static void json_kernel(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	const struct compare_row *row = &c->rows[r];
	const struct stats_summary *s = &row->sum[i];

	strbuf_addstr(out, i ? ",{" : "{");
	jkey(out, "kernel");
	json_add_string(out, render_label_of(c, i));
	strbuf_addf(out, ",\"n\":%zu,", s->n);
	jnum(out, "min", s->min, true);
	jnum(out, "q1", s->q1, true);
	jnum(out, "median", s->median, true);
	jnum(out, "q3", s->q3, true);
	jnum(out, "max", s->max, true);
	jnum(out, "amean", s->amean, true);
	jnum(out, "hmean", s->hmean, true);
	jnum(out, "gmean", s->gmean, true);
	jnum(out, "stddev", s->stddev, true);
	jnum(out, "pstddev", s->pstddev, true);
	jnum(out, "hstddev", s->hstddev, true);
	jnum(out, "coeffvar", s->coeffvar, true);
	jnum(out, "hcoeffvar", s->hcoeffvar, true);
	jnum(out, "best95", s->best95, true);
	jkey(out, "verdict");
	json_add_string(out, render_verdict_name(row->verdict[i]));
	if (row->why[i]) {
		strbuf_addch(out, ',');
		jkey(out, "why");
		json_add_string(out, row->why[i]);
	}
	if (row->side[i].ndisturbed)
		strbuf_addf(out, ",\"disturbed\":%zu", row->side[i].ndisturbed);
	strbuf_addf(out, ",\"runs\":%zu,", row->comp[i].nruns);
	jnum(out, "between_run_cov_pct", row->comp[i].between_cov, true);
	jnum(out, "within_run_cov_pct", row->comp[i].within_cov, true);
	jnum(out, "between_run_share", row->comp[i].between_share, false);
	if (i > 0 && row->verdict[i] != VERDICT_MISSING)
		json_test(out, c, r, i);
	strbuf_addch(out, '}');
}

static void json_row(struct strbuf *out, const struct compare *c, size_t r)
{
	const struct compare_row *row = &c->rows[r];

	strbuf_addstr(out, r ? ",\n{" : "\n{");
	jkey(out, "workload");
	json_add_string(out, row->what.workload);
	strbuf_addch(out, ',');
	jkey(out, "variant");
	json_add_string(out, row->what.variant);
	strbuf_addch(out, ',');
	jkey(out, "metric");
	json_add_string(out, row->what.metric);
	strbuf_addch(out, ',');
	jkey(out, "unit");
	json_add_string(out, row->what.unit);
	/* always there, so a script can filter either way (monitors.h) */
	strbuf_addf(out, ",\"monitor\":%s", row->what.monitor ? "true" : "false");
	strbuf_addf(out, ",\"better\":\"%s\",\"mean\":\"%s\",\"kernels\":[",
		    row->what.better > 0 ? "higher" : "lower", stats_mean_name(row->mean));
	for (size_t i = 0; i < render_nlabels(c); i++)
		json_kernel(out, c, r, i);
	strbuf_addstr(out, "]}");
}

void compare_json(struct strbuf *out, const struct compare *c)
{
	strbuf_addstr(out, "{");
	json_head(out, c);
	strbuf_addstr(out, "\"rows\":[");
	for (size_t r = 0; r < c->nr; r++)
		json_row(out, c, r);
	strbuf_addstr(out, "\n]}\n");
}

DEFINE_RENDERER(json, 60, compare_json, 0, render_by_machine_json);
