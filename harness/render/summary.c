#include "fmtnum.h"
#include "summary.h"
#include "read.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int width(int cur, const char *s)
{
	int l = (int)strlen(s);

	return l > cur ? l : cur;
}

static void n_cell(char *buf, size_t len, const struct db_run_series *r)
{
	if (r->ndisturbed)
		snprintf(buf, len, "%zu (%zu disturbed)", r->n, r->ndisturbed);
	else
		snprintf(buf, len, "%zu", r->n);
}

static void print_row(FILE *f, const struct db_run_series *r, const int *w)
{
	struct stats_summary s;
	bool higher = r->better > 0;
	const char *better = r->better > 0 ? "(higher is better)" : "(lower is better)";
	double mean, cov;
	char n[48];

	n_cell(n, sizeof(n), r);
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  ", w[0], r->workload, w[1], r->variant, w[2],
		r->metric, w[3], r->unit, w[4], n);
	if (!r->n) {
		/* every value was disturbed: no statistic, rather than "nan" */
		fprintf(f, "%-5s  %16s  %7s  %s\n", "-", "-", "-", better);
		return;
	}
	stats_summarise(r->v, r->n, r->better, &s);
	/* a harmonic mean needs positive samples (deltas may be negative) */
	if (s.min <= 0)
		higher = false;
	mean = higher ? s.hmean : s.amean;
	cov = higher ? s.hcoeffvar : s.coeffvar;
	fprintf(f, "%-5s  %16s  ", higher ? "Hmean" : "Amean", FMT_F(mean, 4));
	if (r->n > 1 && isfinite(cov))
		fprintf(f, "%6s%%  %s\n", FMT_F(cov, 2), better);
	else
		fprintf(f, "%7s  %s\n", "-", better);	/* one value has no spread */
}

int summary_print_run(FILE *f, struct mmb_db *db, int64_t run_id)
{
	struct db_run_series *rows;
	size_t nr, nempty = 0;
	int w[5] = { 8, 7, 6, 4, 4 };	/* workload variant metric unit n */

	if (db_run_series(db, run_id, &rows, &nr))
		return -1;
	if (!nr) {
		fprintf(f, "no samples recorded\n");
		return 0;
	}
	for (size_t i = 0; i < nr; i++) {
		char n[48];

		n_cell(n, sizeof(n), &rows[i]);
		w[0] = width(w[0], rows[i].workload);
		w[1] = width(w[1], rows[i].variant);
		w[2] = width(w[2], rows[i].metric);
		w[3] = width(w[3], rows[i].unit);
		w[4] = width(w[4], n);
		nempty += !rows[i].n;
	}
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  %-23s  %7s\n", w[0], "workload", w[1],
		"variant", w[2], "metric", w[3], "unit", w[4], "n", "mean", "CoV");
	for (size_t i = 0; i < nr; i++)
		print_row(f, &rows[i], w);
	if (nempty)
		fprintf(f, "%zu row%s without a clean value: every iteration was disturbed (a busy "
			"machine; `mmbench show %lld` says by what). Run again on a quieter machine, "
			"or compare --keep-disturbed to pool them anyway.\n", nempty,
			nempty == 1 ? "" : "s", (long long)run_id);
	db_run_series_free(rows, nr);
	return 0;
}
