/* The sample_blocks writer import uses; see import.h. */
#include "import.h"
#include "db-internal.h"
#include "../harness/base/util.h"

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

int db_blocks_add(struct db_blocks *b, int64_t series_id, size_t n, const char *data, size_t len)
{
	int rc;

	sqlite3_bind_int64(b->ins, 1, b->run_id);
	sqlite3_bind_int64(b->ins, 2, series_id);
	sqlite3_bind_int64(b->ins, 3, (sqlite3_int64)n);
	sqlite3_bind_text(b->ins, 4, data, (int)len, SQLITE_STATIC);
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
