/*
 * Reading back what a run recorded beside its samples: the machine it ran
 * on and its environment (query.h).
 */
#include "query.h"
#include "db-internal.h"

#include <stdlib.h>
#include <string.h>

int query_machine(struct mmb_db *db, int64_t machine_id, struct query_machine *out)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (db_prepare(db, "SELECT id, hostname, cpu_model, ncpus, mem_bytes FROM machines"
		       " WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, machine_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->hostname = db_col_str(st, 1);
		out->cpu_model = db_col_str(st, 2);
		out->ncpus = sqlite3_column_int(st, 3);
		out->mem_bytes = (uint64_t)sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return 1;
	return db_fail(db);
}

void query_machine_release(struct query_machine *m)
{
	free(m->hostname);
	free(m->cpu_model);
	memset(m, 0, sizeof(*m));
}

static int read_env(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct query_env *e = db_list_add(list);

	(void)arg;
	e->key = db_col_str(st, 0);
	e->value = db_col_str(st, 1);
	e->original = db_col_str(st, 2);
	e->set = sqlite3_column_type(st, 2) != SQLITE_NULL;
	return 0;
}

static void release_env(void *elem)
{
	struct query_env *e = elem;

	free(e->key);
	free(e->value);
	free(e->original);
}

int query_run_env(struct mmb_db *db, int64_t run_id, struct query_env **out, size_t *n)
{
	return db_query_list(db, "SELECT key, value, original FROM run_env WHERE run_id = ?"
			     " ORDER BY key",
			     &run_id, read_env, NULL, release_env, sizeof(**out), out, n);
}

void query_env_free(struct query_env *e, size_t n)
{
	db_list_free(e, n, sizeof(*e), release_env);
}
