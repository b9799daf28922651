#include "summary.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct sum_row {
	char *workload, *variant, *metric, *unit;
	int better;
	double *v;
	size_t n, alloc;
	size_t ndisturbed;	/* values of disturbed iterations, not in v */
};

static int width(int cur, const char *s)
{
	int l = (int)strlen(s);

	return l > cur ? l : cur;
}

static void rows_free(struct sum_row *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(rows[i].workload);
		free(rows[i].variant);
		free(rows[i].metric);
		free(rows[i].unit);
		free(rows[i].v);
	}
	free(rows);
}

int summary_print_run(FILE *f, struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	struct sum_row *rows = NULL;
	size_t nr = 0, alloc = 0;
	int ww = 8, wv = 7, wm = 6, wu = 4, rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT s.workload, s.variant, s.metric, coalesce(s.unit, ''), s.better,"
			       " s.value, i.disturbed IS NOT NULL FROM samples s"
			       " LEFT JOIN iterations i ON i.id = s.iteration_id"
			       " WHERE s.run_id = ? ORDER BY s.id", -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		const char *m = (const char *)sqlite3_column_text(st, 2);
		struct sum_row *r = NULL;

		/* samples come grouped by iteration: search from the end */
		for (size_t i = nr; i-- > 0;)
			if (!strcmp(rows[i].workload, w) && !strcmp(rows[i].variant, v) &&
			    !strcmp(rows[i].metric, m)) {
				r = &rows[i];
				break;
			}
		if (!r) {
			ALLOC_GROW(rows, nr + 1, alloc);
			r = &rows[nr++];
			memset(r, 0, sizeof(*r));
			r->workload = xstrdup(w);
			r->variant = xstrdup(v);
			r->metric = xstrdup(m);
			r->unit = xstrdup((const char *)sqlite3_column_text(st, 3));
			r->better = sqlite3_column_int(st, 4);
			ww = width(ww, w);
			wv = width(wv, v);
			wm = width(wm, m);
			wu = width(wu, r->unit);
		}
		/* as compare does: the summary is of the clean iterations */
		if (sqlite3_column_int(st, 6)) {
			r->ndisturbed++;
			continue;
		}
		ALLOC_GROW(r->v, r->n + 1, r->alloc);
		r->v[r->n++] = sqlite3_column_double(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rows_free(rows, nr);
		return error("%s: %s", db->path, db_errmsg(db));
	}
	if (!nr) {
		fprintf(f, "no samples recorded\n");
		return 0;
	}
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %4s  %-23s  %7s\n", ww, "workload", wv,
		"variant", wm, "metric", wu, "unit", "n", "mean", "CoV");
	for (size_t i = 0; i < nr; i++) {
		struct sum_row *r = &rows[i];
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
	rows_free(rows, nr);
	return 0;
}
