/* One CSV row per comparison (docs/report-formats.md). */
#include "render.h"
#include "render-internal.h"
#include "monitors.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void csv_num(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (!isnan(v) && !isinf(v))
		strbuf_addf(out, "%.17g", v);
}

/* The keys whose recorded values differ between the labels, ';'-joined. */
static void csv_settings(struct strbuf *out, const struct compare *c)
{
	struct strbuf keys = STRBUF_INIT;

	for (size_t k = 0; k < c->nsettings; k++)
		strbuf_addf(&keys, "%s%s", k ? ";" : "", c->setting[k].key);
	strbuf_add_csv(out, keys.len ? keys.buf : "");
	strbuf_release(&keys);
}

/*
 * The test's columns, test .. significant: empty for the baseline and a
 * missing label, so every row has the header's fields.
 */
#define CSV_TEST_COLS 12

static void csv_test(struct strbuf *out, const struct compare *c, size_t r, size_t i)
{
	const struct stats_test *t = &c->rows[r].test[i];

	if (i == 0 || c->rows[r].verdict[i] == VERDICT_MISSING) {
		for (int k = 0; k < CSV_TEST_COLS; k++)
			strbuf_addch(out, ',');
		return;
	}
	strbuf_addf(out, ",%s", stats_test_name(c->test));
	csv_num(out, t->statistic);
	csv_num(out, t->df);
	csv_num(out, t->p);
	csv_num(out, t->q);
	csv_num(out, t->diff);
	csv_num(out, t->diff_lo);
	csv_num(out, t->diff_hi);
	csv_num(out, t->rel);
	csv_num(out, t->rel_lo);
	csv_num(out, t->rel_hi);
	strbuf_addf(out, ",%d", compare_significant(c, r, i));
}

void compare_csv(struct strbuf *out, const struct compare *c)
{
	strbuf_addstr(out, "workload,variant,metric,unit,better,kernel,baseline,n,min,q1,median,"
		      "q3,max,amean,hmean,gmean,stddev,pstddev,hstddev,coeffvar,hcoeffvar,best95,"
		      "test,statistic,df,p,p_bh,diff,diff_lo,diff_hi,rel_pct,rel_lo_pct,rel_hi_pct,"
		      "significant,verdict,mean,monitor,test_unit,units_base,units,runs,between_run_cov,"
		      "within_run_cov,between_run_share,clock,settings_differ\n");
	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];

		for (size_t i = 0; i < render_nlabels(c); i++) {
			const struct stats_summary *s = &row->sum[i];

			strbuf_add_csv(out, row->what.workload);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->what.variant);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->what.metric);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->what.unit);
			strbuf_addf(out, ",%s,", row->what.better > 0 ? "higher" : "lower");
			strbuf_add_csv(out, render_label_of(c, i));
			strbuf_addch(out, ',');
			strbuf_add_csv(out, render_label_of(c, 0));
			strbuf_addf(out, ",%zu", s->n);
			csv_num(out, s->min);
			csv_num(out, s->q1);
			csv_num(out, s->median);
			csv_num(out, s->q3);
			csv_num(out, s->max);
			csv_num(out, s->amean);
			csv_num(out, s->hmean);
			csv_num(out, s->gmean);
			csv_num(out, s->stddev);
			csv_num(out, s->pstddev);
			csv_num(out, s->hstddev);
			csv_num(out, s->coeffvar);
			csv_num(out, s->hcoeffvar);
			csv_num(out, s->best95);
			csv_test(out, c, r, i);
			strbuf_addch(out, ',');
			if (row->why[i]) {
				char *v = xasprintf("inconclusive: %s", row->why[i]);

				strbuf_add_csv(out, v);
				free(v);
			} else {
				strbuf_add_csv(out, render_verdict_name(row->verdict[i]));
			}
			/* the statistic diff and rel_* are of; monitor: 1 for a why row (monitors.h) */
			strbuf_addf(out, ",%s,%d,%s,", stats_mean_name(row->mean), row->what.monitor,
				    compare_unit_name(c, r, i));
			if (*compare_unit_name(c, r, i))
				strbuf_addf(out, "%zu,%zu", row->level[i].nb, row->level[i].nn);
			else
				strbuf_addch(out, ',');
			strbuf_addf(out, ",%zu", row->comp[i].nruns);
			csv_num(out, row->comp[i].between_cov);
			csv_num(out, row->comp[i].within_cov);
			csv_num(out, row->comp[i].between_share);
			/* the clock before the settings: settings_differ stays the last column */
			strbuf_addf(out, ",%s,", compare_clock_name(c));
			csv_settings(out, c);
			strbuf_addch(out, '\n');
		}
	}
}

DEFINE_RENDERER(csv, 50, compare_csv, 0, render_by_machine_csv);
