#include "notes.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? xstrdup(s) : NULL;
}

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
			return (double *)((char *)n + fields[i].off);
	return NULL;
}

int db_iteration_notes(struct mmb_db *db, int64_t run_id, struct iteration_note **out,
		       size_t *n)
{
	sqlite3_stmt *st;
	struct iteration_note *v = NULL;
	size_t nr = 0, alloc = 0;
	int64_t last = -1;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db->c->sql,
			       "SELECT i.id, i.workload, i.variant, i.iteration, i.disturbed, m.key, m.delta"
			       " FROM iterations i JOIN monitors m ON m.iteration_id = i.id"
			       " WHERE i.run_id = ? AND i.warmup = 0 AND m.source = 'interference'"
			       " ORDER BY i.id", -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->c->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *key = (const char *)sqlite3_column_text(st, 5);
		double *f;

		if (id != last) {
			struct iteration_note *x;

			ALLOC_GROW(v, nr + 1, alloc);
			x = &v[nr++];
			memset(x, 0, sizeof(*x));
			x->workload = dup_col(st, 1);
			x->variant = dup_col(st, 2);
			x->iteration = sqlite3_column_int(st, 3);
			x->disturbed = dup_col(st, 4);
			x->foreign_share = x->steal_share = x->iowait_s = x->load1 = NAN;
			x->nivcsw = x->freq_khz = x->mem_available_bytes = NAN;
			x->pswpin = x->pswpout = NAN;
			last = id;
		}
		if (key && (f = note_field(&v[nr - 1], key)))
			*f = sqlite3_column_double(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_iteration_notes_free(v, nr);
		return error("%s: %s", db->c->path, db_errmsg(db));
	}
	*out = v;
	*n = nr;
	return 0;
}

void db_iteration_notes_free(struct iteration_note *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].variant);
		free(v[i].disturbed);
	}
	free(v);
}

int db_perf_stat_rows(struct mmb_db *db, int64_t run_id, struct perf_stat_row **out,
		      size_t *n)
{
	sqlite3_stmt *st;
	struct perf_stat_row *v = NULL;
	size_t nr = 0, alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db->c->sql,
			       "SELECT i.workload, i.variant, m.source || '.' || m.key, avg(m.delta),"
			       " min(m.delta), max(m.delta), count(*)"
			       " FROM iterations i JOIN monitors m ON m.iteration_id = i.id"
			       " WHERE i.run_id = ? AND i.warmup = 0 AND i.status = 'ok'"
			       " AND m.source IN ('perf-stat', 'counters')"
			       " GROUP BY i.workload, i.variant, m.source, m.key"
			       " ORDER BY min(i.id), min(m.rowid)", -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->c->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct perf_stat_row *x;

		ALLOC_GROW(v, nr + 1, alloc);
		x = &v[nr++];
		x->workload = dup_col(st, 0);
		x->variant = dup_col(st, 1);
		x->key = dup_col(st, 2);
		x->mean = sqlite3_column_double(st, 3);
		x->min = sqlite3_column_double(st, 4);
		x->max = sqlite3_column_double(st, 5);
		x->n = sqlite3_column_int(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_perf_stat_rows_free(v, nr);
		return error("%s: %s", db->c->path, db_errmsg(db));
	}
	*out = v;
	*n = nr;
	return 0;
}

void db_perf_stat_rows_free(struct perf_stat_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].variant);
		free(v[i].key);
	}
	free(v);
}
