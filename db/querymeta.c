/*
 * Reading back what a run recorded beside its samples: the machine it ran
 * on and its environment (query.h).
 */
#include "query.h"
#include "db-internal.h"

#include <stdlib.h>
#include <string.h>

static const struct db_cols machine_cols = { sizeof(struct query_machine), {
		DB_COL(INT64, struct query_machine, id),
		DB_COL(STR, struct query_machine, hostname),
		DB_COL(STR, struct query_machine, cpu_model),
		DB_COL(INT, struct query_machine, ncpus),
		DB_COL(INT64, struct query_machine, mem_bytes),
	}
};

int query_machine(struct mmb_db *db, int64_t machine_id, struct query_machine *out)
{
	return db_query_row(db, "SELECT id, hostname, cpu_model, ncpus, mem_bytes FROM machines"
			    " WHERE id = ?", DB_ARGS(DB_I64(machine_id)), &machine_cols, out);
}

void query_machine_release(struct query_machine *m)
{
	db_row_release(&machine_cols, m);
	memset(m, 0, sizeof(*m));
}

static const struct db_cols env_cols = { sizeof(struct query_env), {
		DB_COL(STR, struct query_env, key),
		DB_COL(STR, struct query_env, value),
		DB_COL(STR, struct query_env, original),
		DB_COL(BOOL, struct query_env, set),
	}
};

int query_run_env(struct mmb_db *db, int64_t run_id, struct query_env **out, size_t *n)
{
	return db_query_rows(db, "SELECT key, value, original, original IS NOT NULL FROM run_env"
			     " WHERE run_id = ? ORDER BY key",
			     DB_ARGS(DB_I64(run_id)), &env_cols, out, n);
}

void query_env_free(struct query_env *e, size_t n)
{
	db_rows_free(&env_cols, e, n);
}
