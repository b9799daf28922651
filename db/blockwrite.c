/* The sample_blocks writer (import, the run packer, old JSON blocks converted); see blockwrite.h. */
#include "blockwrite.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdio.h>
#include <stdlib.h>

struct db_blocks {
	struct mmb_db *db;
	int64_t run_id;
	sqlite3_stmt *ins;
};

static int import_fail(struct mmb_db *db)
{
	return error("%s: cannot import: %s", db->c->path, db_errmsg(db));
}

struct db_blocks *db_blocks_begin(struct mmb_db *db, int64_t run_id)
{
	struct db_blocks *b = xcalloc(1, sizeof(*b));

	b->db = db;
	b->run_id = run_id;
	if (sqlite3_prepare_v2(db->c->sql, "INSERT INTO sample_blocks (run_id, series_id, n, data)"
			       " VALUES (?, ?, ?, ?)", -1, &b->ins, NULL) != SQLITE_OK) {
		import_fail(db);
		free(b);
		return NULL;
	}
	return b;
}

int db_blocks_add(struct db_blocks *b, int64_t series_id, size_t n, const void *data, size_t len)
{
	int rc;

	sqlite3_bind_int64(b->ins, 1, b->run_id);
	sqlite3_bind_int64(b->ins, 2, series_id);
	sqlite3_bind_int64(b->ins, 3, (sqlite3_int64)n);
	sqlite3_bind_blob(b->ins, 4, data, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(b->ins);
	if (rc != SQLITE_DONE)
		import_fail(b->db);
	sqlite3_reset(b->ins);
	sqlite3_clear_bindings(b->ins);
	return rc == SQLITE_DONE ? 0 : -1;
}

void db_blocks_end(struct db_blocks *b)
{
	if (!b)
		return;
	sqlite3_finalize(b->ins);
	free(b);
}

void db_blocks_set_run(struct db_blocks *b, int64_t run_id)
{
	b->run_id = run_id;
}

/* Blocks converted per transaction: a kill loses at most one batch's work. */
#define CONVERT_BATCH 256

/* One step of st with ?1 = id: *out gets column 0 (0 for NULL or no row). */
static int step_int64(struct mmb_db *db, sqlite3_stmt *st, int64_t id, int64_t *out)
{
	int rc;

	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		error("%s: cannot convert sample blocks: %s", db->c->path, db_errmsg(db));
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int db_blocks_convert(struct mmb_db *db, int64_t after_id, bool progress)
{
	sqlite3_stmt *count = NULL, *next = NULL, *upd = NULL;
	int64_t id = after_id, hi = 0, total = 0, done = 0, none;
	int ret = -1;

	if (db_prepare(db, "SELECT count(*) FROM main.sample_blocks"
		       " WHERE id > ?1 AND typeof(data) = 'text'", &count) ||
	    db_prepare(db, "SELECT max(id) FROM (SELECT id FROM main.sample_blocks"
		       " WHERE id > ?1 AND typeof(data) = 'text' ORDER BY id LIMIT 256)", &next) ||
	    db_prepare(db, "UPDATE main.sample_blocks SET data = mmb_block_pack(data, n)"
		       " WHERE id > ?1 AND id <= ?2 AND typeof(data) = 'text'", &upd))
		goto out;
	if (step_int64(db, count, after_id, &total))
		goto out;
	/* each batch of 256 blocks is one statement: its own transaction outside one */
	while (total) {
		if (step_int64(db, next, id, &hi))
			goto out;
		if (!hi)
			break;
		sqlite3_bind_int64(upd, 2, hi);
		if (step_int64(db, upd, id, &none))
			goto out;
		done += sqlite3_changes(db->c->sql);
		id = hi;
		if (progress)
			fprintf(stderr, "\rconverting sample blocks to binary: %lld of %lld",
				(long long)done, (long long)total);
	}
	if (progress && total)
		fputc('\n', stderr);
	ret = 0;
out:
	sqlite3_finalize(count);
	sqlite3_finalize(next);
	sqlite3_finalize(upd);
	return ret;
}
