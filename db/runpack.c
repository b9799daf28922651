/*
 * Packing an ended run's sample_values rows into blocks (schema migration
 * 11; see blockwrite.h).  The runner commits a row per sample with each
 * iteration, so kill -9 loses at most the iteration in flight; at ~64
 * bytes a sample with the table's three indexes that is 8 times what a
 * block takes.  Once the run has ended its rows are rewritten as one
 * block per series (and per 2^20 samples), in the order of each series'
 * first row, so readers see the same rows, values and order as before.
 */
#include "blockwrite.h"
#include "block.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Samples a block holds at most when packed: 16 MiB of arrays in memory. */
#define PACK_CHUNK ((size_t)1 << 20)

struct pack {
	struct mmb_db *db;
	int64_t run;
	sqlite3_stmt *series, *order, *check, *rows, *ins, *del;
	int *it, *seq;
	double *val;
	size_t nsamples;	/* packed so far */
	char *why;		/* the first failure, said once by the caller */
};

/*
 * A failure, kept for the caller's one warning: packing is tidying, and a
 * full disk (whose error the run already reported) must not add errors.
 */
static int pack_fail(struct pack *p, const char *why)
{
	if (!p->why)
		p->why = xstrdup(why ? why : sqlite3_errmsg(p->db->c->sql));
	return -1;
}

static void pack_release(struct pack *p)
{
	sqlite3_finalize(p->series);
	sqlite3_finalize(p->order);
	sqlite3_finalize(p->check);
	sqlite3_finalize(p->rows);
	sqlite3_finalize(p->ins);
	sqlite3_finalize(p->del);
	free(p->it);
	free(p->seq);
	free(p->val);
	free(p->why);
}

static int pack_prepare(struct pack *p)
{
	struct mmb_db *db = p->db;

	return db_prepare(db, "SELECT series_id, count(*), min(id) FROM main.sample_values"
			  " WHERE run_id = ?1 GROUP BY series_id ORDER BY min(id)", &p->series) ||
	       /* order_key (schema.c): the first row's iteration and its place there */
	       db_prepare(db, "SELECT 2305843009213693952 + v.iteration_id * 16777216 +"
			  " min(v.id - (SELECT min(w.id) FROM main.sample_values w"
			  "  WHERE w.iteration_id = v.iteration_id), 16777215)"
			  " FROM main.sample_values v WHERE v.id = ?1 AND v.iteration_id > 0"
			  " AND v.iteration_id < 68719476736", &p->order) ||
	       /*
		* The rows whose iteration a reader finds again by number: the
		* measured iteration of this run, workload and variant that holds
		* the row, and the only one with that number (a config listing
		* one workload twice numbers both 1..N: those rows stay rows).
		*/
	       db_prepare(db, "SELECT count(*) FROM main.sample_values v"
			  " JOIN main.series s ON s.id = v.series_id"
			  " JOIN main.iterations i ON i.id = v.iteration_id"
			  " WHERE v.run_id = ?1 AND v.series_id = ?2 AND i.run_id = v.run_id"
			  " AND i.workload = s.workload AND i.variant = s.variant"
			  " AND i.iteration = v.iteration AND i.warmup = 0"
			  " AND NOT EXISTS (SELECT 1 FROM main.iterations j WHERE j.run_id = i.run_id"
			  "  AND j.workload = i.workload AND j.variant = i.variant"
			  "  AND j.iteration = i.iteration AND j.warmup = 0 AND j.id <> i.id)",
			  &p->check) ||
	       db_prepare(db, "SELECT iteration, seq, value FROM main.sample_values"
			  " WHERE series_id = ?2 AND run_id = ?1 ORDER BY id", &p->rows) ||
	       db_prepare(db, "INSERT INTO main.sample_blocks (run_id, series_id, n, data, order_key)"
			  " VALUES (?1, ?2, ?3, ?4, ?5)", &p->ins) ||
	       db_prepare(db, "DELETE FROM main.sample_values WHERE series_id = ?2 AND run_id = ?1",
			  &p->del);
}

/* The n samples gathered, as one block of series sid sorting at order (0: by its id). */
static int pack_flush(struct pack *p, int64_t sid, size_t n, int64_t order)
{
	const char *why = NULL;
	size_t len;
	unsigned char *blk;
	int rc;

	if (!n)
		return 0;
	blk = db_block_encode(p->it, p->seq, p->val, n, &len, &why);
	if (!blk)
		return pack_fail(p, why);
	sqlite3_reset(p->ins);
	sqlite3_bind_int64(p->ins, 1, p->run);
	sqlite3_bind_int64(p->ins, 2, sid);
	sqlite3_bind_int64(p->ins, 3, (sqlite3_int64)n);
	sqlite3_bind_blob(p->ins, 4, blk, (int)len, SQLITE_STATIC);
	if (order > 0)
		sqlite3_bind_int64(p->ins, 5, order);
	else
		sqlite3_bind_null(p->ins, 5);
	rc = sqlite3_step(p->ins);
	sqlite3_reset(p->ins);
	free(blk);
	if (rc != SQLITE_DONE)
		return pack_fail(p, NULL);
	p->nsamples += n;
	return 0;
}

/*
 * Series sid of the run, nrows rows, the first sorting at order: packed,
 * or left as rows when a reader could not place them.
 */
static int pack_series(struct pack *p, int64_t sid, int64_t nrows, int64_t order)
{
	size_t n = 0;
	int64_t placed = -1;
	int rc;

	sqlite3_reset(p->check);
	sqlite3_bind_int64(p->check, 1, p->run);
	sqlite3_bind_int64(p->check, 2, sid);
	rc = sqlite3_step(p->check);
	if (rc == SQLITE_ROW)
		placed = sqlite3_column_int64(p->check, 0);
	sqlite3_reset(p->check);
	if (rc != SQLITE_ROW)
		return pack_fail(p, NULL);
	if (placed != nrows)
		return 0;

	sqlite3_reset(p->rows);
	sqlite3_bind_int64(p->rows, 1, p->run);
	sqlite3_bind_int64(p->rows, 2, sid);
	while ((rc = sqlite3_step(p->rows)) == SQLITE_ROW) {
		p->it[n] = sqlite3_column_int(p->rows, 0);
		p->seq[n] = sqlite3_column_int(p->rows, 1);
		p->val[n] = sqlite3_column_double(p->rows, 2);
		if (++n == PACK_CHUNK) {
			/* each chunk sorts where the series' first row did */
			if (pack_flush(p, sid, n, order)) {
				sqlite3_reset(p->rows);
				return -1;
			}
			n = 0;
		}
	}
	sqlite3_reset(p->rows);
	if (rc != SQLITE_DONE)
		return pack_fail(p, NULL);
	if (pack_flush(p, sid, n, order))
		return -1;
	sqlite3_reset(p->del);
	sqlite3_bind_int64(p->del, 1, p->run);
	sqlite3_bind_int64(p->del, 2, sid);
	rc = sqlite3_step(p->del);
	sqlite3_reset(p->del);
	return rc == SQLITE_DONE ? 0 : pack_fail(p, NULL);
}

/* Every series of p->run, in the order of its first row; inside the caller's transaction. */
static int pack_run(struct pack *p)
{
	struct { int64_t sid, n, first; } *v = NULL;
	size_t nv = 0, alloc = 0;
	int rc;

	/* the list first: packing deletes rows the GROUP BY would still read */
	sqlite3_reset(p->series);
	sqlite3_bind_int64(p->series, 1, p->run);

	while ((rc = sqlite3_step(p->series)) == SQLITE_ROW) {
		ALLOC_GROW(v, nv + 1, alloc);
		v[nv].sid = sqlite3_column_int64(p->series, 0);
		v[nv].n = sqlite3_column_int64(p->series, 1);
		v[nv++].first = sqlite3_column_int64(p->series, 2);
	}
	sqlite3_reset(p->series);
	/* every series' order before any row goes: it counts the iteration's rows */
	for (size_t i = 0; i < nv && rc == SQLITE_DONE; i++) {
		sqlite3_reset(p->order);
		sqlite3_bind_int64(p->order, 1, v[i].first);
		rc = sqlite3_step(p->order);
		v[i].first = rc == SQLITE_ROW ? sqlite3_column_int64(p->order, 0) : 0;
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_DONE : rc;
		sqlite3_reset(p->order);
	}
	if (rc != SQLITE_DONE) {
		free(v);
		return pack_fail(p, NULL);
	}
	for (size_t i = 0; i < nv; i++)
		if (pack_series(p, v[i].sid, v[i].n, v[i].first)) {
			free(v);
			return -1;
		}
	free(v);
	return 0;
}

static int pack_begin(struct pack *p, struct mmb_db *db)
{
	memset(p, 0, sizeof(*p));
	p->db = db;
	p->it = xmalloc(PACK_CHUNK * sizeof(*p->it));
	p->seq = xmalloc(PACK_CHUNK * sizeof(*p->seq));
	p->val = xmalloc(PACK_CHUNK * sizeof(*p->val));
	return pack_prepare(p);
}

/* Whether p->run has ended (a running run keeps its rows), read in the transaction. */
static bool still_ended(struct pack *p)
{
	sqlite3_stmt *st;
	bool ended = false;

	if (sqlite3_prepare_v2(p->db->c->sql, "SELECT status <> 'running' FROM main.runs"
			       " WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, p->run);
	if (sqlite3_step(st) == SQLITE_ROW)
		ended = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return ended;
}

/* One run in one transaction: a failure leaves its rows as they were. */
static int pack_one(struct pack *p, int64_t run_id)
{
	sqlite3 *sql = p->db->c->sql;

	/* not db_begin()/db_commit(): their errors would add lines to the one warning */
	p->run = run_id;
	if (sqlite3_exec(sql, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return pack_fail(p, NULL);
	/* under the lock: another writer may have resumed it since the list was read */
	if (!still_ended(p)) {
		sqlite3_exec(sql, "COMMIT", NULL, NULL, NULL);
		return 0;
	}
	if (pack_run(p) || sqlite3_exec(sql, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		pack_fail(p, NULL);	/* the first failure's reason stays */
		db_rollback(p->db);
		return -1;
	}
	return 0;
}

int db_run_pack(struct mmb_db *db, int64_t run_id)
{
	struct pack p;
	int ret;

	/* inside someone's transaction (a merge): the next writer packs it */
	if (!sqlite3_get_autocommit(db->c->sql))
		return 0;
	ret = pack_begin(&p, db) || pack_one(&p, run_id);
	if (ret)
		warning("%s: run %lld keeps a row per sample (%s; they read the same): the next"
			" command that writes to the database packs them", db->c->path,
			(long long)run_id, p.why ? p.why : "cannot prepare");
	pack_release(&p);
	return ret ? -1 : 0;
}

static int read_id(sqlite3_stmt *st, struct db_list *l, void *arg)
{
	(void)arg;
	*(int64_t *)db_list_add(l) = sqlite3_column_int64(st, 0);
	return 0;
}

int db_runs_pack(struct mmb_db *db, bool progress)
{
	struct db_list l = { .size = sizeof(int64_t) };
	sqlite3_stmt *st;
	struct pack p;
	int64_t *runs;
	int ret;

	/* ended runs holding rows: an index probe per run, not a scan of the rows */
	if (db_prepare(db, "SELECT r.id FROM main.runs r WHERE r.status <> 'running'"
		       " AND EXISTS (SELECT 1 FROM main.sample_values v WHERE v.run_id = r.id)"
		       " ORDER BY r.id", &st) ||
	    db_read_list(db, st, read_id, NULL, NULL, &l))
		return -1;
	runs = l.v;
	ret = l.n ? pack_begin(&p, db) : 0;
	/* a run that cannot be packed (a value a block refuses) does not hold up the rest */
	for (size_t i = 0; i < l.n && !(ret && !p.why); i++) {
		ret |= pack_one(&p, runs[i]);
		if (progress)
			fprintf(stderr, "\rpacking the runner's samples into blocks: run %zu of %zu",
				i + 1, l.n);
	}
	if (progress && l.n)
		fputc('\n', stderr);
	/* the rows read the same: a failure here (a full disk) must not stop the command */
	if (ret)
		warning("%s: some ended runs keep a row per sample (%s; they read the same): the"
			" next command that writes to the database packs them", db->c->path,
			p.why ? p.why : "cannot prepare");
	if (l.n)
		pack_release(&p);
	free(runs);
	return 0;
}
