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

int summary_print_run(FILE *f, struct mmb_db *db, int64_t run_id)
{
	struct db_run_series *rows;
	size_t nr;
	int ww = 8, wv = 7, wm = 6, wu = 4;

	if (db_run_series(db, run_id, &rows, &nr))
		return -1;
	if (!nr) {
		fprintf(f, "no samples recorded\n");
		return 0;
	}
	for (size_t i = 0; i < nr; i++) {
		ww = width(ww, rows[i].workload);
		wv = width(wv, rows[i].variant);
		wm = width(wm, rows[i].metric);
		wu = width(wu, rows[i].unit);
	}
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %4s  %-23s  %7s\n", ww, "workload", wv,
		"variant", wm, "metric", wu, "unit", "n", "mean", "CoV");
	for (size_t i = 0; i < nr; i++) {
		struct db_run_series *r = &rows[i];
		struct stats_summary s;
		bool higher = r->better > 0;
		double mean, cov;

		stats_summarise(r->v, r->n, r->better, &s);
		/* a harmonic mean needs positive samples (deltas may be negative) */
		if (s.min <= 0)
			higher = false;
		mean = higher ? s.hmean : s.amean;
		cov = higher ? s.hcoeffvar : s.coeffvar;
		char n[48];

		if (r->ndisturbed)
			snprintf(n, sizeof(n), "%zu (%zu disturbed)", r->n, r->ndisturbed);
		else
			snprintf(n, sizeof(n), "%zu", r->n);
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %4s  %-5s  %16.4f  %6.2f%%  %s\n", ww,
			r->workload, wv, r->variant, wm, r->metric, wu, r->unit, n,
			higher ? "Hmean" : "Amean", r->n ? mean : NAN,
			r->n > 1 && isfinite(cov) ? cov : 0.0,
			r->better > 0 ? "(higher is better)" : "(lower is better)");
	}
	db_run_series_free(rows, nr);
	return 0;
}
