/*
 * Recording one iteration: its row, its samples (a sample_values row each,
 * each naming its series) and its monitor deltas, in one transaction.  The
 * statements are prepared once per connection: a run records many.
 */
#include "db-internal.h"
#include "../harness/base/util.h"

#include <math.h>
#include <string.h>

/* json: the variant's typed params (variant.h) for a new series; NULL: typed from the text on read */
static int64_t series_id(struct mmb_db *db, const char *workload, const char *variant,
			 const char *json, const char *metric, const char *unit, int better)
{
	sqlite3_stmt **st[2] = { &db->c->series_get, &db->c->series_add };
	static const char *const sql[2] = {
		"SELECT id FROM series WHERE workload = ?1 AND variant = ?2 AND metric = ?3"
		" AND unit = ?4 AND better = ?5",
		"INSERT INTO series (workload, variant, metric, unit, better, params_json)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	};
	int64_t id = -1;

	/* the last gate for names from every way in (run, vm, import) */
	if (name_check("workload", workload) || name_check("variant", variant) ||
	    name_check("metric", metric) || name_check("unit", unit))
		return -1;
	for (size_t i = 0; i < 2 && id < 0; i++) {
		int rc;

		if (!*st[i] && db_prepare(db, sql[i], st[i]))
			return -1;
		sqlite3_bind_text(*st[i], 1, workload, -1, SQLITE_STATIC);
		sqlite3_bind_text(*st[i], 2, variant, -1, SQLITE_STATIC);
		sqlite3_bind_text(*st[i], 3, metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(*st[i], 4, unit ? unit : "", -1, SQLITE_STATIC);
		sqlite3_bind_int(*st[i], 5, better);
		if (i == 1)
			sqlite3_bind_text(*st[i], 6, json, -1, SQLITE_STATIC);
		rc = sqlite3_step(*st[i]);
		if (i == 0 && rc == SQLITE_ROW)
			id = sqlite3_column_int64(*st[i], 0);
		else if (i == 1 && rc == SQLITE_DONE)
			id = sqlite3_last_insert_rowid(db->c->sql);
		else if (rc != SQLITE_DONE)
			id = db_fail(db);
		sqlite3_reset(*st[i]);
		sqlite3_clear_bindings(*st[i]);
		if (rc != SQLITE_DONE && rc != SQLITE_ROW)
			break;
	}
	return id;
}

int64_t db_series_id(struct mmb_db *db, const char *workload, const char *variant,
		     const char *metric, const char *unit, int better)
{
	return series_id(db, workload, variant, NULL, metric, unit, better);
}

/* *st prepared once per connection (db_close finalizes); reset for a new use. */
static int cached_stmt(struct mmb_db *db, sqlite3_stmt **st, const char *sql)
{
	if (*st) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
		return SQLITE_OK;
	}
	return sqlite3_prepare_v2(db->c->sql, sql, -1, st, NULL);
}

static int iteration_row(struct mmb_db *db, const struct iteration_info *it, int64_t *id)
{
	sqlite3_stmt *st;

	if (cached_stmt(db, &db->c->iter_add,
			"INSERT INTO iterations (run_id, workload, variant, params, iteration,"
			" warmup, status, reason, started, elapsed, disturbed, interference)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?)") != SQLITE_OK)
		return -1;
	st = db->c->iter_add;
	sqlite3_bind_int64(st, 1, it->run_id);
	db_bind_text_or_null(st, 2, it->workload);
	db_bind_text_or_null(st, 3, it->variant);
	db_bind_text_or_null(st, 4, it->params);
	sqlite3_bind_int(st, 5, it->iteration);
	sqlite3_bind_int(st, 6, it->warmup);
	db_bind_text_or_null(st, 7, it->status);
	db_bind_text_or_null(st, 8, it->reason);
	sqlite3_bind_double(st, 9, it->started);
	sqlite3_bind_double(st, 10, it->elapsed);
	db_bind_text_or_null(st, 11, it->disturbed);
	if (!it->measured || isnan(it->interference))
		sqlite3_bind_null(st, 12);
	else
		sqlite3_bind_double(st, 12, it->interference);
	if (sqlite3_step(st) != SQLITE_DONE)
		return -1;
	*id = sqlite3_last_insert_rowid(db->c->sql);
	sqlite3_reset(st);
	return 0;
}

static int iteration_values(struct mmb_db *db, const struct iteration_info *it, int64_t id,
			    const struct sample_info *samples, int nsamples)
{
	int64_t last_sid = -1;
	sqlite3_stmt *st;

	if (cached_stmt(db, &db->c->value_add,
			"INSERT INTO sample_values (run_id, iteration_id, series_id,"
			" iteration, seq, value) VALUES (?,?,?,?,?,?)") != SQLITE_OK)
		return -1;
	st = db->c->value_add;
	for (int i = 0; i < nsamples; i++) {
		int64_t sid = -1;

		/* per-thread samples of one metric share the previous id */
		if (i && !strcmp(samples[i].metric, samples[i - 1].metric) &&
		    samples[i].better == samples[i - 1].better &&
		    !strcmp(samples[i].unit ? samples[i].unit : "",
			    samples[i - 1].unit ? samples[i - 1].unit : ""))
			sid = last_sid;
		else
			sid = series_id(db, it->workload, it->variant, it->variant_json,
					samples[i].metric, samples[i].unit, samples[i].better);
		if (sid < 0)
			return -1;
		last_sid = sid;
		sqlite3_bind_int64(st, 1, it->run_id);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_bind_int64(st, 3, sid);
		sqlite3_bind_int(st, 4, it->iteration);
		sqlite3_bind_int(st, 5, samples[i].seq);
		sqlite3_bind_double(st, 6, samples[i].value);
		if (sqlite3_step(st) != SQLITE_DONE)
			return -1;
		sqlite3_reset(st);
	}
	return 0;
}

static int iteration_monitors(struct mmb_db *db, int64_t id, const char *const *mon_keys,
			      const double *mon_deltas, int nmon, const char *mon_source)
{
	sqlite3_stmt *st;

	if (cached_stmt(db, &db->c->monitor_add,
			"INSERT INTO monitors (iteration_id, source, key, delta)"
			" VALUES (?,?,?,?)") != SQLITE_OK)
		return -1;
	st = db->c->monitor_add;
	for (int i = 0; i < nmon; i++) {
		const char *key = mon_keys[i], *src = mon_source, *colon;
		char srcbuf[32];

		/* keys may carry their own source: "meminfo:MemFree" */
		colon = strchr(key, ':');
		if (colon && (size_t)(colon - key) < sizeof(srcbuf)) {
			memcpy(srcbuf, key, colon - key);
			srcbuf[colon - key] = '\0';
			src = srcbuf;
			key = colon + 1;
		}
		sqlite3_bind_int64(st, 1, id);
		db_bind_text_or_null(st, 2, src);
		db_bind_text_or_null(st, 3, key);
		sqlite3_bind_double(st, 4, mon_deltas[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			return -1;
		sqlite3_reset(st);
	}
	return 0;
}

int64_t db_iteration_add(struct mmb_db *db, const struct iteration_info *it,
			 const struct sample_info *samples, int nsamples,
			 const char *const *mon_keys, const double *mon_deltas, int nmon,
			 const char *mon_source)
{
	int64_t id;

	if (db_begin(db))
		return -1;
	if (iteration_row(db, it, &id) ||
	    (nsamples && !it->warmup && iteration_values(db, it, id, samples, nsamples)) ||
	    (nmon && iteration_monitors(db, id, mon_keys, mon_deltas, nmon, mon_source)) ||
	    /* not db_commit(): its message would double the one below */
	    sqlite3_exec(db->c->sql, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		error("%s: cannot record iteration: %s", db->c->path, db_errmsg(db));
		db_rollback(db);
		return -1;
	}
	return id;
}
