/* The questions of `list`, `show` and the run summary; see read.h. */
#include "read.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdlib.h>
#include <string.h>

static const struct db_cols run_line_cols = { sizeof(struct db_run_line), {
		DB_COL(INT64, struct db_run_line, id),
		DB_COL(STR, struct db_run_line, label),
		DB_COL(STR, struct db_run_line, experiment),
		DB_COL(STR, struct db_run_line, status),
		DB_COL(STR, struct db_run_line, accel),
		DB_COL(DOUBLE, struct db_run_line, started),
		DB_COL(INT, struct db_run_line, iterations),
		DB_COL(INT, struct db_run_line, failed),
		DB_COL(INT, struct db_run_line, samples),
		DB_COL(INT, struct db_run_line, disturbed),
	}
};

int db_list_runs(struct mmb_db *db, struct db_run_line **out, size_t *n)
{
	return db_query_rows(db,
			     "SELECT r.id, k.label, coalesce(r.experiment, ''), r.status,"
			     " coalesce(r.accel, ''), r.started,"
			     /* imported runs have no iterations rows: a block holds
				one sample per iteration, so its size is the count */
			     " coalesce(nullif((SELECT count(*) FROM iterations i WHERE i.run_id = r.id"
			     "   AND i.status = 'ok' AND i.warmup = 0), 0),"
			     "  (SELECT max(n) FROM sample_blocks b WHERE b.run_id = r.id), 0),"
			     " (SELECT count(*) FROM iterations i WHERE i.run_id = r.id AND i.status = 'failed'),"
			     " (SELECT count(*) FROM sample_values s WHERE s.run_id = r.id) +"
			     /* each block read and checked: n alone is any number a file holds */
			     " (SELECT coalesce(sum(mmb_block_n(b.data, b.n, b.id)), 0) FROM sample_blocks b"
			     "   WHERE b.run_id = r.id),"
			     " (SELECT count(*) FROM iterations i WHERE i.run_id = r.id AND i.status = 'ok'"
			     "   AND i.warmup = 0 AND coalesce(i.disturbed, '') <> '')"
			     " FROM runs r JOIN kernels k ON k.id = r.kernel_id ORDER BY r.id",
			     NULL, &run_line_cols, out, n);
}

void db_run_lines_free(struct db_run_line *v, size_t n)
{
	db_rows_free(&run_line_cols, v, n);
}

static const struct db_cols kernel_line_cols = { sizeof(struct db_kernel_line), {
		DB_COL(STR, struct db_kernel_line, label),
		DB_COL(STR, struct db_kernel_line, release),
		DB_COL(STR, struct db_kernel_line, base_commit),
		DB_COL(INT, struct db_kernel_line, runs),
		DB_COL(INT, struct db_kernel_line, samples),
	}
};

int db_list_kernels(struct mmb_db *db, struct db_kernel_line **out, size_t *n)
{
	return db_query_rows(db,
			     "SELECT k.label, coalesce(k.release, ''), coalesce(k.base_commit, ''),"
			     " (SELECT count(*) FROM runs r WHERE r.kernel_id = k.id),"
			     " (SELECT count(*) FROM sample_values s JOIN runs r ON r.id = s.run_id"
			     "   WHERE r.kernel_id = k.id) +"
			     " (SELECT coalesce(sum(mmb_block_n(b.data, b.n, b.id)), 0) FROM sample_blocks b"
			     "   JOIN runs r ON r.id = b.run_id WHERE r.kernel_id = k.id)"
			     " FROM kernels k ORDER BY k.id",
			     NULL, &kernel_line_cols, out, n);
}

void db_kernel_lines_free(struct db_kernel_line *v, size_t n)
{
	db_rows_free(&kernel_line_cols, v, n);
}

static const struct db_cols run_detail_cols = { sizeof(struct db_run_detail), {
		DB_COL(STR, struct db_run_detail, label),
		DB_COL(STR, struct db_run_detail, experiment),
		DB_COL(STR, struct db_run_detail, config_path),
		DB_COL(STR, struct db_run_detail, status),
		DB_COL(STR, struct db_run_detail, accel),
		DB_COL(STR, struct db_run_detail, release),
		DB_COL(STR, struct db_run_detail, version),
		DB_COL(STR, struct db_run_detail, cmdline),
		DB_COL(STR, struct db_run_detail, config_hash),
		DB_COL(STR, struct db_run_detail, harness_version),
		DB_COL(STR, struct db_run_detail, git_sha),
		DB_COL(STR, struct db_run_detail, compiler),
		DB_COL(DOUBLE, struct db_run_detail, started),
		DB_COL(DOUBLE, struct db_run_detail, finished),
		DB_COL(STR, struct db_run_detail, hostname),
		DB_COL(STR, struct db_run_detail, cpu_model),
		DB_COL(INT, struct db_run_detail, ncpus),
		DB_COL(INT64, struct db_run_detail, mem_bytes),
		DB_COL(LINES, struct db_run_detail, config_text),
		DB_COL(RAW, struct db_run_detail, options),
		DB_COL(STR, struct db_run_detail, host),
		DB_COL(INT, struct db_run_detail, pid),
		DB_COL(RAW, struct db_run_detail, config_raw),
	}
};

int db_run_detail(struct mmb_db *db, int64_t run_id, struct db_run_detail *out)
{
	return db_query_row(db,
			    "SELECT k.label, r.experiment, r.config_path, r.status, r.accel,"
			    " r.release, r.version, r.cmdline, r.config_hash, r.harness_version,"
			    " r.git_sha, r.compiler, r.started, r.finished, m.hostname, m.cpu_model,"
			    " m.ncpus, m.mem_bytes, r.config_text, r.options, r.host, r.pid,"
			    " coalesce(r.config_text, '')"
			    " FROM runs r JOIN kernels k ON k.id = r.kernel_id"
			    " LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = ?",
			    DB_ARGS(DB_I64(run_id)), &run_detail_cols, out);
}

void db_run_detail_release(struct db_run_detail *r)
{
	db_row_release(&run_detail_cols, r);
	memset(r, 0, sizeof(*r));
}

static const struct db_cols variant_done_cols = { sizeof(struct db_variant_done), {
		DB_COL(STR, struct db_variant_done, workload),
		DB_COL(STR, struct db_variant_done, variant),
		DB_COL(STR, struct db_variant_done, params),
		DB_COL(INT, struct db_variant_done, measured),
		DB_COL(INT, struct db_variant_done, last),
		DB_COL(INT, struct db_variant_done, warmups),
		DB_COL(BOOL, struct db_variant_done, skipped),	/* a count: not 0 is > 0 */
	}
};

int db_run_recorded(struct mmb_db *db, int64_t run_id, struct db_variant_done **out, size_t *n)
{
	return db_query_rows(db,
			     "SELECT workload, variant, params, count(CASE WHEN warmup = 0 AND iteration > 0"
			     " THEN 1 END), ifnull(max(CASE WHEN warmup = 0 THEN iteration END), 0),"
			     " count(CASE WHEN warmup <> 0 THEN 1 END), count(CASE WHEN status = 'skipped'"
			     " THEN 1 END) FROM iterations WHERE run_id = ? GROUP BY workload, variant, params"
			     " ORDER BY min(id)",
			     DB_ARGS(DB_I64(run_id)), &variant_done_cols, out, n);
}

void db_variant_done_free(struct db_variant_done *v, size_t n)
{
	db_rows_free(&variant_done_cols, v, n);
}

int db_last_run_id(struct mmb_db *db, int64_t *id)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	if (db_prepare(db, "SELECT max(id) FROM runs", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);	/* NULL (no runs) reads 0 */
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

static const struct db_cols iteration_line_cols = { sizeof(struct db_iteration_line), {
		DB_COL(STR, struct db_iteration_line, workload),
		DB_COL(STR, struct db_iteration_line, variant),
		DB_COL(INT, struct db_iteration_line, iteration),
		DB_COL(STR, struct db_iteration_line, status),
		DB_COL(STR, struct db_iteration_line, reason),
	}
};

int db_run_unsuccessful(struct mmb_db *db, int64_t run_id, struct db_iteration_line **out,
			size_t *n)
{
	return db_query_rows(db,
			     "SELECT workload, variant, iteration, status, reason FROM iterations"
			     " WHERE run_id = ? AND status != 'ok' ORDER BY id",
			     DB_ARGS(DB_I64(run_id)), &iteration_line_cols, out, n);
}

void db_iteration_lines_free(struct db_iteration_line *v, size_t n)
{
	db_rows_free(&iteration_line_cols, v, n);
}

static const struct db_cols counter_mean_cols = { sizeof(struct db_counter_mean), {
		DB_COL(STR, struct db_counter_mean, workload),
		DB_COL(STR, struct db_counter_mean, variant),
		DB_COL(STR, struct db_counter_mean, key),
		DB_COL(DOUBLE, struct db_counter_mean, mean),
	}
};

int db_run_vmstat_means(struct mmb_db *db, int64_t run_id, struct db_counter_mean **out,
			size_t *n)
{
	return db_query_rows(db,
			     "SELECT i.workload, i.variant, m.key, avg(m.delta), count(*)"
			     " FROM monitors m JOIN iterations i ON i.id = m.iteration_id"
			     " WHERE i.run_id = ? AND i.warmup = 0 AND i.status = 'ok'"
			     " AND m.source = 'vmstat' AND m.key IN ('pgfault', 'pgmajfault',"
			     " 'thp_fault_alloc', 'thp_fault_fallback', 'thp_split_pmd',"
			     " 'pswpin', 'pswpout', 'pgsteal_direct', 'pgscan_direct', 'compact_stall',"
			     " 'numa_hint_faults', 'pgmigrate_success', 'thp_deferred_split_page')"
			     " GROUP BY i.workload, i.variant, m.key ORDER BY min(i.id), m.key",
			     DB_ARGS(DB_I64(run_id)), &counter_mean_cols, out, n);
}

void db_counter_means_free(struct db_counter_mean *v, size_t n)
{
	db_rows_free(&counter_mean_cols, v, n);
}

/* Samples come grouped by iteration: a row's series is searched for from the end. */
static int read_series_sample(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct strbuf *esc = arg;	/* [3] */
	const char *w = db_col_text(st, 0, &esc[0]);
	const char *va = db_col_text(st, 1, &esc[1]);
	const char *m = db_col_text(st, 2, &esc[2]);
	struct db_run_series *v = list->v, *r = NULL;

	if (!w || !va || !m)
		return 0;	/* the view's columns are NOT NULL: a crafted file's */
	for (size_t i = list->n; i-- > 0;)
		if (!strcmp(v[i].workload, w) && !strcmp(v[i].variant, va) &&
		    !strcmp(v[i].metric, m)) {
			r = &v[i];
			break;
		}
	if (!r) {
		r = db_list_add(list);
		r->workload = xstrdup(w);
		r->variant = xstrdup(va);
		r->metric = xstrdup(m);
		r->unit = db_col_str(st, 3);
		r->better = sqlite3_column_int(st, 4);
	}
	/* as compare does: the values are of the clean iterations; the others aside */
	if (sqlite3_column_int(st, 6)) {
		ALLOC_GROW(r->dv, r->ndisturbed + 1, r->dalloc);
		r->dv[r->ndisturbed++] = sqlite3_column_double(st, 5);
		return 0;
	}
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	r->v[r->n++] = sqlite3_column_double(st, 5);
	return 0;
}

static void release_run_series(void *elem)
{
	struct db_run_series *r = elem;

	free(r->workload);
	free(r->variant);
	free(r->metric);
	free(r->unit);
	free(r->v);
	free(r->dv);
}

int db_run_series(struct mmb_db *db, int64_t run_id, struct db_run_series **out, size_t *n)
{
	struct strbuf esc[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int ret = db_query_list(db,
				"SELECT s.workload, s.variant, s.metric, coalesce(s.unit, ''), s.better,"
				" s.value, i.disturbed IS NOT NULL FROM samples s"
				" LEFT JOIN iterations i ON i.id = s.iteration_id"
				" WHERE s.run_id = ? ORDER BY s.id",
				DB_ARGS(DB_I64(run_id)), read_series_sample, esc, release_run_series,
				sizeof(**out), out, n);

	for (size_t i = 0; i < 3; i++)
		strbuf_release(&esc[i]);
	return ret;
}

void db_run_series_free(struct db_run_series *v, size_t n)
{
	db_list_free(v, n, sizeof(*v), release_run_series);
}

int db_run_disturbed_reason(struct mmb_db *db, int64_t run_id, char **why)
{
	sqlite3_stmt *st;
	int rc;

	*why = NULL;
	if (db_prepare(db, "SELECT disturbed FROM iterations WHERE run_id = ? AND disturbed IS NOT"
		       " NULL GROUP BY disturbed ORDER BY count(*) DESC, min(id) LIMIT 1", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*why = db_col_str(st, 0);
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

int db_previous_label(struct mmb_db *db, const char *label, char **out)
{
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	if (db_prepare(db,
		       "SELECT k.label FROM runs r JOIN kernels k ON k.id = r.kernel_id"
		       " WHERE k.label != ? AND usable_run(r.status)"
		       " ORDER BY r.id DESC LIMIT 1", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *l = db_col_raw(st, 0);	/* a label to select by: as stored */

		*out = xstrdup(l ? l : "");
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

/* One count(*) with text parameters (NULL ends the list). */
/* One row of sql with text params: column 0 an int into *n, column 1 a double into *x (if x). */
static int one_row(struct mmb_db *db, const char *sql, const char *const *params, int *n, double *x)
{
	sqlite3_stmt *st;
	int rc;

	*n = 0;
	if (x)
		*x = 0;
	if (db_prepare(db, sql, &st))
		return -1;
	for (int i = 0; params[i]; i++)
		sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*n = sqlite3_column_int(st, 0);
		if (x && *n)
			*x = sqlite3_column_double(st, 1);
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

static int count_one(struct mmb_db *db, const char *sql, int *n, const char *const *params)
{
	return one_row(db, sql, params, n, NULL);
}

int db_count_rounds(struct mmb_db *db, const char *label, const char *config_text,
		    const char *accel, int *n)
{
	return count_one(db, "SELECT count(*) FROM runs r JOIN kernels k ON r.kernel_id = k.id"
			 " WHERE k.label = ? AND r.config_text = ? AND r.accel = ?"
			 " AND r.status = 'complete'", n,
			 (const char *const[]){ label, config_text, accel, NULL });
}

int db_newest_run(struct mmb_db *db, const char *label, int *id)
{
	return count_one(db, "SELECT coalesce(max(r.id), 0) FROM runs r JOIN kernels k"
			 " ON r.kernel_id = k.id WHERE k.label = ?", id,
			 (const char *const[]){ label, NULL });
}

int db_count_usable(struct mmb_db *db, const char *label, int *n)
{
	return count_one(db, "SELECT count(*) FROM runs r JOIN kernels k ON r.kernel_id = k.id"
			 " WHERE k.label = ? AND usable_run(r.status)", n,
			 (const char *const[]){ label, NULL });
}

int db_iteration_seconds(struct mmb_db *db, const char *experiment, const char *workload,
			 double *mean_s, int *n)
{
	return one_row(db, "SELECT count(*), avg(i.elapsed) FROM iterations i"
		       " JOIN runs r ON r.id = i.run_id"
		       " WHERE r.experiment = ? AND i.workload = ? AND i.status = 'ok'"
		       " AND i.warmup = 0 AND i.elapsed > 0",
		       (const char *const[]){ experiment, workload, NULL }, n, mean_s);
}

int db_usable_accels(struct mmb_db *db, const char *a, const char *b, struct strbuf *out, int *n)
{
	sqlite3_stmt *st;
	int rc;

	*n = 0;
	if (db_prepare(db,
		       "SELECT DISTINCT coalesce(r.accel, 'host') FROM runs r"
		       " JOIN kernels k ON r.kernel_id = k.id"
		       " WHERE k.label IN (?, ?) AND usable_run(r.status) ORDER BY 1", &st))
		return -1;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((*n)++)
			strbuf_addstr(out, ", ");
		char *a = db_col_str(st, 0);

		strbuf_addstr(out, a);
		free(a);
	}
	return db_done(db, st, rc);
}

int db_label_samples(struct mmb_db *db, const char *const *labels, size_t nl,
		     const char *workload, const char *variant, const char *metric,
		     double **vals, size_t *n, int *better)
{
	struct strbuf sql = STRBUF_INIT;
	size_t alloc = 0;
	sqlite3_stmt *st;
	int rc, bind = 1;

	*vals = NULL;
	*n = 0;
	*better = 0;
	strbuf_addstr(&sql, "SELECT s.value, s.better FROM samples s"
			    " JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id"
			    " WHERE usable_run(r.status) AND k.label IN (");
	for (size_t i = 0; i < nl; i++)
		strbuf_addstr(&sql, i ? ",?" : "?");
	strbuf_addstr(&sql, ") AND s.workload = ? AND s.variant = ? AND s.metric = ?"
			    " ORDER BY r.id, s.iteration, s.seq, s.id");
	rc = db_prepare(db, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	for (size_t i = 0; i < nl; i++)
		sqlite3_bind_text(st, bind++, labels[i], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, bind++, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, bind++, variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, bind++, metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int b = sqlite3_column_int(st, 1);

		if (*better && b != *better) {
			sqlite3_finalize(st);
			*better = -1;
			return error("%s: metric %s of %s has both directions recorded",
				     db_path(db), metric, workload);
		}
		*better = b;
		ALLOC_GROW(*vals, *n + 1, alloc);
		(*vals)[(*n)++] = sqlite3_column_double(st, 0);
	}
	return db_done(db, st, rc);
}

int db_export_check(struct mmb_db *db, const char *const *labels, size_t nl,
		    const int64_t *runs, size_t nr)
{
	for (size_t i = 0; i < nl; i++)
		if (db_kernel_find(db, labels[i]) <= 0)
			return db_kernel_find(db, labels[i]) < 0 ? -1 :
				error("unknown kernel label '%s' (see `mmbench list kernels`)", labels[i]) - 1;
	for (size_t i = 0; i < nr; i++) {
		struct db_run_detail d;
		int r = db_run_detail(db, runs[i], &d);

		if (r < 0)
			return -1;
		if (r > 0)
			return error("no run %lld in %s (see `mmbench list runs`)",
				     (long long)runs[i], db->c->path) - 1;
		db_run_detail_release(&d);
	}
	return 0;
}
