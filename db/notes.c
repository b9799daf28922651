#include "notes.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The interference keys show prints, by name: the pivot column they fill. */
static double *note_field(struct iteration_note *n, const char *key)
{
	static const struct { const char *key; size_t off; } fields[] = {
		{ "foreign_share", offsetof(struct iteration_note, foreign_share) },
		{ "steal_share", offsetof(struct iteration_note, steal_share) },
		{ "iowait_s", offsetof(struct iteration_note, iowait_s) },
		{ "load1", offsetof(struct iteration_note, load1) },
		{ "nivcsw", offsetof(struct iteration_note, nivcsw) },
		{ "freq_khz", offsetof(struct iteration_note, freq_khz) },
		{ "mem_available_bytes", offsetof(struct iteration_note, mem_available_bytes) },
		{ "pswpin", offsetof(struct iteration_note, pswpin) },
		{ "pswpout", offsetof(struct iteration_note, pswpout) },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].key, key))
			/* a field of *n by its offset: the bytes are a double (offsetof above) */
			// cppcheck-suppress invalidPointerCast
			return (double *)((char *)n + fields[i].off);
	return NULL;
}

/* The rows of one iteration come together, a key each: a new id starts its note. */
static int read_note_row(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	int64_t *last = arg, id = sqlite3_column_int64(st, 0);
	struct strbuf esc = STRBUF_INIT;
	const char *key = db_col_text(st, 5, &esc);	/* matched against our field names */
	struct iteration_note *x = list->n ? (struct iteration_note *)list->v + list->n - 1 : NULL;
	double *f;

	if (id != *last) {
		x = db_list_add(list);
		x->workload = db_col_dup(st, 1);
		x->variant = db_col_dup(st, 2);
		x->iteration = sqlite3_column_int(st, 3);
		x->disturbed = db_col_dup(st, 4);
		x->foreign_share = x->steal_share = x->iowait_s = x->load1 = NAN;
		x->nivcsw = x->freq_khz = x->mem_available_bytes = NAN;
		x->pswpin = x->pswpout = NAN;
		*last = id;
	}
	if (key && (f = note_field(x, key)))
		*f = sqlite3_column_double(st, 6);
	strbuf_release(&esc);
	return 0;
}

static void release_note(void *elem)
{
	struct iteration_note *x = elem;

	free(x->workload);
	free(x->variant);
	free(x->disturbed);
}

int db_iteration_notes(struct mmb_db *db, int64_t run_id, struct iteration_note **out,
		       size_t *n)
{
	int64_t last = -1;

	return db_query_list(db, "SELECT i.id, i.workload, i.variant, i.iteration, i.disturbed,"
			     " m.key, m.delta FROM iterations i JOIN monitors m ON m.iteration_id = i.id"
			     " WHERE i.run_id = ? AND i.warmup = 0 AND m.source = 'interference'"
			     " ORDER BY i.id",
			     DB_ARGS(DB_I64(run_id)), read_note_row, &last, release_note, sizeof(**out),
			     out, n);
}

void db_iteration_notes_free(struct iteration_note *v, size_t n)
{
	db_list_free(v, n, sizeof(*v), release_note);
}

static const struct db_cols perf_stat_cols = { sizeof(struct perf_stat_row), {
		DB_COL(DUP, struct perf_stat_row, workload),
		DB_COL(DUP, struct perf_stat_row, variant),
		DB_COL(DUP, struct perf_stat_row, key),
		DB_COL(DOUBLE, struct perf_stat_row, mean),
		DB_COL(DOUBLE, struct perf_stat_row, min),
		DB_COL(DOUBLE, struct perf_stat_row, max),
		DB_COL(INT, struct perf_stat_row, n),
	}
};

int db_perf_stat_rows(struct mmb_db *db, int64_t run_id, struct perf_stat_row **out,
		      size_t *n)
{
	return db_query_rows(db, "SELECT i.workload, i.variant, m.source || '.' || m.key, avg(m.delta),"
			     " min(m.delta), max(m.delta), count(*)"
			     " FROM iterations i JOIN monitors m ON m.iteration_id = i.id"
			     " WHERE i.run_id = ? AND i.warmup = 0 AND i.status = 'ok'"
			     " AND m.source IN ('perf-stat', 'counters')"
			     " GROUP BY i.workload, i.variant, m.source, m.key"
			     " ORDER BY min(i.id), min(m.rowid)",
			     DB_ARGS(DB_I64(run_id)), &perf_stat_cols, out, n);
}

void db_perf_stat_rows_free(struct perf_stat_row *v, size_t n)
{
	db_rows_free(&perf_stat_cols, v, n);
}

int db_run_disturb(struct mmb_db *db, int64_t run_id, const char *why)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "UPDATE iterations SET disturbed = CASE WHEN ifnull(disturbed, '') = ''"
		       " THEN ?1 ELSE disturbed || '; ' || ?1 END WHERE run_id = ?2 AND warmup = 0",
		       &st))
		return -1;
	sqlite3_bind_text(st, 1, why, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, run_id);
	rc = sqlite3_step(st);
	return db_done(db, st, rc);
}
