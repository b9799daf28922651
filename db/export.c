/*
 * db_export_samples() (read.h): run by run, the runner's rows and then the
 * blocks decoded here, which is the order of the samples view's ids
 * (block samples come after 2^62, by block id then index) without asking
 * SQLite to sort every sample of the file.
 */
#include "read.h"
#include "block.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdlib.h>

struct export_ctx {
	struct db_export_row r;
	int (*fn)(const struct db_export_row *r, void *arg);
	void *arg;
};

/* export is the data as stored (its CSV imports back byte for byte): not shown text */
static void row_names(struct db_export_row *r, sqlite3_stmt *st, int i)
{
	r->workload = db_col_raw(st, i);
	r->variant = db_col_raw(st, i + 1);
	r->metric = db_col_raw(st, i + 2);
	r->unit = db_col_raw(st, i + 3);
	r->better = sqlite3_column_int(st, i + 4) < 0 ? -1 : 1;
}

static int block_sample(void *arg, int64_t k, int iteration, int seq, double value)
{
	struct export_ctx *x = arg;

	x->r.same_names = k > 0;
	x->r.iteration = iteration;
	x->r.seq = seq;
	x->r.value = value;
	return x->fn(&x->r, x->arg);
}

/* The runner's rows of one run, then its blocks: fn's value, -1 on a bad block or DB error. */
static int export_run(struct mmb_db *db, sqlite3_stmt *vals, sqlite3_stmt *blocks,
		      struct export_ctx *x)
{
	int rc, ret = 0;

	sqlite3_bind_int64(vals, 1, x->r.run_id);
	while (!ret && (rc = sqlite3_step(vals)) == SQLITE_ROW) {
		row_names(&x->r, vals, 0);
		x->r.same_names = false;
		x->r.iteration = sqlite3_column_int(vals, 5);
		x->r.seq = sqlite3_column_int(vals, 6);
		x->r.value = sqlite3_column_double(vals, 7);
		ret = x->fn(&x->r, x->arg);
	}
	sqlite3_reset(vals);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db);
	sqlite3_bind_int64(blocks, 1, x->r.run_id);
	while (!ret && (rc = sqlite3_step(blocks)) == SQLITE_ROW) {
		const void *data = sqlite3_column_type(blocks, 5) == SQLITE_TEXT
					   ? (const void *)db_col_raw(blocks, 5)
					   : sqlite3_column_blob(blocks, 5);
		const char *why = "no data";
		sqlite3_int64 n = sqlite3_column_int64(blocks, 6);

		row_names(&x->r, blocks, 0);
		ret = n < 1 ? -1 : db_block_decode(data, (size_t)sqlite3_column_bytes(blocks, 5),
						   (size_t)n, block_sample, x, &why);
		if (ret == -1)
			error("%s: sample block %lld is not a valid block: %s", db_path(db),
			      (long long)sqlite3_column_int64(blocks, 7), why);
	}
	sqlite3_reset(blocks);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db);
	return ret;
}

int db_export_samples(struct mmb_db *db, const char *const *labels, size_t nl,
		      const int64_t *runs, size_t nr,
		      int (*fn)(const struct db_export_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL, *vals = NULL, *blocks = NULL;
	struct export_ctx x = { .fn = fn, .arg = arg };
	int rc = SQLITE_DONE, ret = db_export_check(db, labels, nl, runs, nr);

	if (ret)
		return ret;
	if (db_prepare_run_filter(db, "SELECT r.id, k.label FROM runs r"
				  " JOIN kernels k ON k.id = r.kernel_id WHERE usable_run(r.status)",
				  " ORDER BY r.id", labels, nl, runs, nr, &st) ||
	    db_prepare(db, "SELECT s.workload, s.variant, s.metric, s.unit, s.better,"
		       " v.iteration, v.seq, v.value FROM sample_values v"
		       " JOIN series s ON s.id = v.series_id WHERE v.run_id = ?1 ORDER BY v.id",
		       &vals) ||
	    db_prepare(db, "SELECT s.workload, s.variant, s.metric, s.unit, s.better,"
		       " b.data, b.n, b.id FROM sample_blocks b"
		       " JOIN series s ON s.id = b.series_id WHERE b.run_id = ?1 ORDER BY b.id",
		       &blocks)) {
		ret = -1;
		goto out;
	}
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		x.r.run_id = sqlite3_column_int64(st, 0);
		x.r.label = db_col_raw(st, 1);
		ret = export_run(db, vals, blocks, &x);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db);
out:
	sqlite3_finalize(st);
	sqlite3_finalize(vals);
	sqlite3_finalize(blocks);
	return ret;
}
