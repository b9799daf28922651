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

/* The mean and CoV cells of values v[n]: Hmean for higher is better (positive values). */
static void stat_cells(FILE *f, const double *v, size_t n, int better)
{
	struct stats_summary s;
	bool higher = better > 0;
	double mean, cov;

	stats_summarise(v, n, better, &s);
	/* a harmonic mean needs positive samples (deltas may be negative) */
	if (s.min <= 0)
		higher = false;
	mean = higher ? s.hmean : s.amean;
	cov = higher ? s.hcoeffvar : s.coeffvar;
	fprintf(f, "%-5s  %16s  ", higher ? "Hmean" : "Amean", FMT_F(mean, 4));
	if (n > 1 && isfinite(cov))
		fprintf(f, "%6s%%  ", FMT_F(cov, 2));
	else
		fprintf(f, "%7s  ", "-");	/* one value has no spread */
}

static void print_row(FILE *f, const struct db_run_series *r, const int *w)
{
	const char *better = r->better > 0 ? "(higher is better" : "(lower is better";
	char n[48];

	n_cell(n, sizeof(n), r);
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  ", w[0], r->workload, w[1], r->variant, w[2],
		r->metric, w[3], r->unit, w[4], n);
	if (r->n) {
		stat_cells(f, r->v, r->n, r->better);
		fprintf(f, "%s)\n", better);
	} else if (r->ndisturbed) {
		/* every value was disturbed: still the run's numbers, marked as such */
		stat_cells(f, r->dv, r->ndisturbed, r->better);
		fprintf(f, "%s; disturbed values)\n", better);
	} else {
		fprintf(f, "%-5s  %16s  %7s  %s)\n", "-", "-", "-", better);
	}
}

/* The rows measured only in disturbed iterations: what their numbers are, and why. */
static void disturbed_note(FILE *f, struct mmb_db *db, int64_t run_id, size_t nempty)
{
	char *why = NULL;

	if (db_run_disturbed_reason(db, run_id, &why) < 0)
		why = NULL;
	fprintf(f, "%zu row%s measured only in disturbed iterations: %s numbers are of those "
		"values, which compare leaves out (a verdict needs clean samples; --keep-disturbed "
		"pools them).\ndisturbed: %s (`mmbench show %lld` lists each iteration; `run "
		"--wait-quiet` waits for a quiet machine)\n", nempty, nempty == 1 ? "" : "s",
		nempty == 1 ? "its" : "their", why ? why : "the machine was busy", (long long)run_id);
	free(why);
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
		nempty += !rows[i].n && rows[i].ndisturbed;
	}
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  %-23s  %7s\n", w[0], "workload", w[1],
		"variant", w[2], "metric", w[3], "unit", w[4], "n", "mean", "CoV");
	for (size_t i = 0; i < nr; i++)
		print_row(f, &rows[i], w);
	if (nempty)
		disturbed_note(f, db, run_id, nempty);
	db_run_series_free(rows, nr);
	return 0;
}
