/*
 * Reading results back: one metadata query per label, the series table,
 * then the pooled runs' samples in two ordered queries (the runner's rows
 * of runs not yet packed, and blocks: import's, merge's and the ended
 * runs' packed rows), grouped in C by series id.  query_open() reads
 * only where each row's samples are; query_row_fill() reads one row.
 */
#include "query.h"
#include "block.h"
#include "queryseries.h"
#include "iternotes.h"
#include "db-internal.h"
#include "../harness/base/util.h"
#include "../harness/base/variant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Grouping: open addressing on (workload, variant, metric). */
struct group_key {
	uint64_t hash;
	size_t row;		/* index into rows */
	size_t label;		/* row order: first label with the row, */
	int64_t first;		/* then its first sample id there */
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h ^ 0xff;	/* separator so ("ab","c") != ("a","bc") */
}

static void loader_release(struct query_loader *ld, size_t nrows);

void query_set_release(struct query_set *qs)
{
	if (!qs)
		return;
	for (size_t i = 0; i < qs->nr; i++)
		query_row_release(&qs->rows[i], qs->nlabels);
	free(qs->rows);
	for (size_t i = 0; qs->kernels && i < qs->nlabels; i++)
		query_kernel_release(&qs->kernels[i]);
	free(qs->kernels);
	if (qs->arena)
		munmap(qs->arena, qs->arena_len);
	if (qs->stream) {
		loader_release(qs->stream, qs->nstream);
		free(qs->stream);
	}
	memset(qs, 0, sizeof(*qs));
}

/* Map run id -> label index (runs of a label are few: a sorted array). */
struct run_map {
	int64_t run;
	size_t label;
	struct query_run *r;
};

static int run_map_cmp(const void *a, const void *b)
{
	const struct run_map *x = a, *y = b;

	return x->run < y->run ? -1 : x->run > y->run;
}

static struct run_map *run_map_find(struct run_map *m, size_t n, int64_t run)
{
	struct run_map key = { .run = run };

	if (!n)
		return NULL;
	return bsearch(&key, m, n, sizeof(*m), run_map_cmp);
}

static struct group_key *rehash(struct group_key *tab, size_t *size)
{
	size_t ns = *size * 2;
	struct group_key *nt = xcalloc(ns, sizeof(*nt));

	for (size_t i = 0; i < ns; i++)
		nt[i].row = SIZE_MAX;
	for (size_t i = 0; i < *size; i++) {
		size_t s;

		if (tab[i].row == SIZE_MAX)
			continue;
		for (s = tab[i].hash & (ns - 1); nt[s].row != SIZE_MAX; s = (s + 1) & (ns - 1))
			;
		nt[s] = tab[i];
	}
	free(tab);
	*size = ns;
	return nt;
}

static int row_cmp(const void *a, const void *b)
{
	const struct group_key *x = a, *y = b;

	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* What one query_load() pass carries between its three queries. */
struct query_loader {
	struct query_set *out;
	struct run_map *map;
	size_t nmap;
	struct group_key *tab;	/* (workload, variant, metric) -> row */
	size_t tabsize, rows_alloc;
	struct group_key *first;	/* [row]: where it first appears */
	struct series_ref *series;	/* [series id]: the row it feeds */
	int64_t nseries;
	struct run_map *cur;	/* run of the last sample (they come by run) */
	struct iter_notes notes;	/* the pooled runs' iterations with a note */
	bool keep_disturbed;
	size_t *left;		/* [series id * nlabels + label]: block values to come */
	size_t arena_used;	/* bytes of out->arena given out */
	struct row_stream *rs;	/* [row] query_open(): where each row's samples are */
	bool stream;		/* query_open(): rows now, their samples by query_row_fill() */
	bool nocount;		/* a row read again: its values are counted already */
	struct query_series *spare;	/* [nlabels] arrays a dropped row left for the next:
					   fresh heap each row cost page faults */
};

/* One block of a row (query_open()): read when the row is filled. */
struct block_ref {
	int64_t id, run, sid, n;
	int64_t order;		/* its first sample's place in compare's row order */
};

struct row_stream {
	struct block_ref *blocks;	/* in (run_id, id) order, as query_load() reads them */
	size_t nblocks, alloc;
	size_t nindexed;	/* the samples the index lists (disturbed ones too) */
	bool values;		/* some of its samples are sample_values rows */
	bool filled, counted;
};

struct series_ref {
	bool wanted;		/* passes the filter */
	size_t row;		/* SIZE_MAX until its first sample */
	char *workload, *variant, *metric, *unit;
	char *params_json;	/* NULL: the series predates typed variants, or was imported */
	int better;
};

#define SERIES_ID_MAX (1 << 26)

/* The series table (small) in memory, filtered; rows appear lazily. */
static int load_series(struct mmb_db *db, const struct query_filter *f, struct query_loader *ld)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "SELECT id, workload, variant, metric, unit, better,"
		       " params_json FROM series WHERE (?1 IS NULL OR workload = ?1)"
		       " AND (?2 IS NULL OR variant = ?2) AND (?3 IS NULL OR metric = ?3)"
		       " ORDER BY id", &st))
		return -1;
	sqlite3_bind_text(st, 1, f->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, f->metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		struct series_ref *r;

		/* ids are dense (1, 2, ...): an array indexed by id, within reason */
		if (id < 1 || id > SERIES_ID_MAX) {
			sqlite3_finalize(st);
			return error("%s: series id %lld is out of range (1..%d): not a database"
				     " mmbench wrote?", db->c->path, (long long)id, SERIES_ID_MAX);
		}
		if (id >= ld->nseries) {
			int64_t nn = id + 1 > 2 * ld->nseries ? id + 1 : 2 * ld->nseries;

			ld->series = xrealloc(ld->series, (size_t)nn * sizeof(*ld->series));
			memset(ld->series + ld->nseries, 0,
			       (size_t)(nn - ld->nseries) * sizeof(*ld->series));
			ld->nseries = nn;
		}
		r = &ld->series[id];
		r->wanted = true;
		r->row = SIZE_MAX;
		r->workload = db_col_str(st, 1);
		r->variant = db_col_str(st, 2);
		r->metric = db_col_str(st, 3);
		r->unit = db_col_str(st, 4);
		r->better = sqlite3_column_int(st, 5) < 0 ? -1 : 1;
		r->params_json = sqlite3_column_type(st, 6) == SQLITE_NULL ? NULL : db_col_str(st, 6);
	}
	return db_done(db, st, rc);
}

static void series_refs_release(struct query_loader *ld)
{
	for (int64_t i = 0; i < ld->nseries; i++) {
		free(ld->series[i].workload);
		free(ld->series[i].variant);
		free(ld->series[i].metric);
		free(ld->series[i].unit);
		free(ld->series[i].params_json);
	}
}

/*
 * The row a series feeds.  Series that differ only in unit or direction
 * share the (workload, variant, metric) row; its unit is the first seen.
 */
static size_t series_row(struct query_loader *ld, struct series_ref *r)
{
	struct query_set *out = ld->out;
	uint64_t h;
	size_t slot;

	if (r->row != SIZE_MAX)
		return r->row;
	h = fnv(fnv(fnv(14695981039346656037ULL, r->workload, strlen(r->workload) + 1),
		    r->variant, strlen(r->variant) + 1), r->metric, strlen(r->metric) + 1);
	for (slot = h & (ld->tabsize - 1);; slot = (slot + 1) & (ld->tabsize - 1)) {
		struct group_key *g = &ld->tab[slot];
		struct query_row *row;

		if (g->row == SIZE_MAX)
			break;
		row = &out->rows[g->row];
		if (g->hash == h && !strcmp(row->workload, r->workload) &&
		    !strcmp(row->variant, r->variant) && !strcmp(row->metric, r->metric))
			return r->row = g->row;
	}
	ALLOC_GROW(out->rows, out->nr + 1, ld->rows_alloc);
	ld->first = xrealloc(ld->first, ld->rows_alloc * sizeof(*ld->first));
	ld->first[out->nr] = (struct group_key){ h, out->nr, SIZE_MAX, INT64_MAX };
	if (ld->stream) {
		ld->rs = xrealloc(ld->rs, ld->rows_alloc * sizeof(*ld->rs));
		memset(&ld->rs[out->nr], 0, sizeof(*ld->rs));
	}
	struct query_row *row = &out->rows[out->nr];

	memset(row, 0, sizeof(*row));
	row->workload = xstrdup(r->workload);
	row->variant = xstrdup(r->variant);
	/* typed from the text once, here, for a series without its JSON */
	row->params_json = r->params_json ? xstrdup(r->params_json)
					  : variant_json_from_text(r->variant);
	row->metric = xstrdup(r->metric);
	row->unit = xstrdup(r->unit);
	row->better = r->better;
	row->series = xcalloc(out->nlabels, sizeof(*row->series));
	ld->tab[slot] = (struct group_key){ h, out->nr, SIZE_MAX, INT64_MAX };
	r->row = out->nr++;
	if (out->nr * 2 > ld->tabsize)
		ld->tab = rehash(ld->tab, &ld->tabsize);
	return r->row;
}

/* Row idx has a value of label `label` with ordering id `id`: where it first appears. */
static void note_first(struct query_loader *ld, size_t idx, size_t label, int64_t id)
{
	struct group_key *first = &ld->first[idx];

	if (label < first->label || (label == first->label && id < first->first)) {
		first->label = label;
		first->first = id;
	}
}

/* One sample of run `run`, series `sid`, with its ordering id and its iteration's note. */
static void load_sample(struct query_loader *ld, int64_t run, int64_t sid, int64_t id,
			int iteration, double v, const struct iter_note *note)
{
	struct query_set *out = ld->out;
	struct series_ref *r;
	struct query_row *row;
	size_t idx;

	if (sid < 1 || sid >= ld->nseries || !ld->series[sid].wanted)
		return;
	if (!ld->cur || ld->cur->run != run)
		ld->cur = run_map_find(ld->map, ld->nmap, run);
	if (!ld->cur)
		return;
	r = &ld->series[sid];
	idx = r->row != SIZE_MAX ? r->row : series_row(ld, r);
	note_first(ld, idx, ld->cur->label, id);
	row = &out->rows[idx];
	if (note && note->disturbed && !ld->keep_disturbed) {
		/* counted, not pooled (compare says how many it left out) */
		for (size_t i = ld->cur->label; i < out->nlabels; i++)
			if (i == ld->cur->label ||
			    out->kernels[i].id == out->kernels[ld->cur->label].id)
				row->series[i].ndisturbed++;
		return;
	}
	query_series_push(&row->series[ld->cur->label], v, run, iteration, note);
	if (!ld->nocount) {
		ld->cur->r->nsamples++;
		out->nsamples++;
	}
	/* the same label given twice gets the same pooled values */
	for (size_t i = ld->cur->label + 1; i < out->nlabels; i++)
		if (out->kernels[i].id == out->kernels[ld->cur->label].id)
			query_series_push(&row->series[i], v, run, iteration, note);
}

/*
 * "<select> WHERE run_id IN (the pooled runs) ORDER BY run_id, id", the
 * run ids bound: one ordered pass along the table's by-run index.
 */
static int prepare_runs_tail(struct mmb_db *db, const struct query_loader *ld, const char *select,
			     const int64_t *sids, size_t nsids, const char *tail, sqlite3_stmt **st)
{
	struct strbuf sql = STRBUF_INIT;
	int rc, k = 0;

	strbuf_addf(&sql, "%s WHERE ", select);
	for (size_t i = 0; i < nsids; i++)
		strbuf_addstr(&sql, i ? ",?" : "series_id IN (?");
	strbuf_addstr(&sql, nsids ? ") AND run_id IN (" : "run_id IN (");
	for (size_t i = 0; i < ld->nmap; i++)
		strbuf_addstr(&sql, i ? ",?" : "?");
	strbuf_addf(&sql, ") %s", tail);
	rc = db_prepare(db, sql.buf, st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	for (size_t i = 0; i < nsids; i++)
		sqlite3_bind_int64(*st, ++k, sids[i]);
	for (size_t i = 0; i < ld->nmap; i++)
		sqlite3_bind_int64(*st, ++k, ld->map[i].run);
	return 0;
}

static int prepare_by_runs(struct mmb_db *db, const struct query_loader *ld, const char *select,
			   sqlite3_stmt **st)
{
	return prepare_runs_tail(db, ld, select, NULL, 0, "ORDER BY run_id, id", st);
}

/* Samples the runner wrote (of series sids[0, nsids), or all), a row each, in id order. */
static int load_rows(struct mmb_db *db, struct query_loader *ld, const int64_t *sids,
		     size_t nsids)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare_runs_tail(db, ld, "SELECT run_id, id, series_id, iteration, value, iteration_id"
			      " FROM sample_values", sids, nsids, "ORDER BY run_id, id", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		load_sample(ld, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 2),
			    sqlite3_column_int64(st, 1), sqlite3_column_int(st, 3),
			    sqlite3_column_double(st, 4),
			    iter_notes_by_id(&ld->notes, sqlite3_column_int64(st, 5)));
	return db_done(db, st, rc);
}

/*
 * The interference notes of the pooled runs' iterations: only those with
 * something to say (measured or disturbed), so runs from before migration
 * 3 and imports cost nothing.
 */
static int load_notes(struct mmb_db *db, struct query_loader *ld)
{
	sqlite3_stmt *st;

	if (prepare_by_runs(db, ld, "SELECT " ITER_NOTES_COLS " FROM (SELECT id, run_id,"
			    " disturbed IS NOT NULL AS d, interference AS lvl, workload, variant,"
			    " warmup, iteration FROM iterations"
			    " WHERE disturbed IS NOT NULL OR interference IS NOT NULL)", &st))
		return -1;
	return iter_notes_read(db, st, &ld->notes);
}

struct block_ctx {
	struct query_loader *ld;
	int64_t run, sid, base;
	struct note_group notes;	/* the block's iterations' notes, if any */
};

static int block_sample(void *ctx, int64_t k, int iteration, int seq, double value)
{
	struct block_ctx *c = ctx;

	(void)seq;	/* compare pools every seq */
	load_sample(c->ld, c->run, c->sid, c->base + k, iteration, value,
		    c->notes.n ? note_group_find(&c->notes, iteration) : NULL);
	return 0;
}

/* Bytes of the arena a value takes: v, run_id, iteration (query_series). */
#define ARENA_VALUE (sizeof(double) + sizeof(int64_t) + sizeof(int))
/* Below this many block values the page faults cost little: plain malloc */
#define ARENA_MIN ((size_t)1 << 20)

/*
 * One mapping, its pages made up front (MAP_POPULATE), for the arrays of
 * every series the blocks fill: a page fault per 4 KiB of fresh heap was
 * a quarter of compare's time on a VM.  Without it (small, or mmap
 * refused), the series grow by malloc as before.
 */
static void arena_map(struct query_loader *ld, size_t values)
{
	struct query_set *out = ld->out;
	size_t len = values * ARENA_VALUE + 8 * 3 * ld->out->nlabels * (size_t)ld->nseries;
	void *p;

	if (values < ARENA_MIN || values > SIZE_MAX / 64)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (p == MAP_FAILED)
		return;
	out->arena = p;
	out->arena_len = len;
	ld->arena_used = 0;
}

static void *arena_take(struct query_loader *ld, size_t bytes)
{
	void *p = (char *)ld->out->arena + ld->arena_used;

	ld->arena_used += (bytes + 7) & ~(size_t)7;
	return p;
}

/* An empty series' arrays for its `values` block values, from the arena when it has room. */
static void series_from_arena(struct query_loader *ld, struct query_series *s, size_t values)
{
	size_t need = values * ARENA_VALUE + 8 * 3;

	if (s->alloc || !ld->out->arena || ld->out->arena_len - ld->arena_used < need)
		return;
	s->v = arena_take(ld, values * sizeof(*s->v));
	s->run_id = arena_take(ld, values * sizeof(*s->run_id));
	s->iteration = arena_take(ld, values * sizeof(*s->iteration));
	s->alloc = values;
	s->borrowed = true;
}

static int block_check(void *ctx, int64_t k, int iteration, int seq, double value)
{
	(void)ctx, (void)k, (void)iteration, (void)seq, (void)value;
	return 0;
}

/*
 * A binary block of run `run`, series sid (wanted), whose ids start at
 * base, decoded straight into its series: what load_sample() does per
 * value, once per block.  0, or -1 with why.
 */
static int load_block_fast(struct query_loader *ld, int64_t run, int64_t sid, int64_t base,
			   const void *data, size_t len, size_t n, const char **why)
{
	struct query_set *out = ld->out;
	struct series_ref *r = &ld->series[sid];
	struct query_series *s;
	size_t idx, label, *left;

	if (!ld->cur || ld->cur->run != run)
		ld->cur = run_map_find(ld->map, ld->nmap, run);
	if (!ld->cur)
		return 0;
	label = ld->cur->label;
	idx = r->row != SIZE_MAX ? r->row : series_row(ld, r);
	note_first(ld, idx, label, base);
	s = &out->rows[idx].series[label];
	/* the rest of the series' blocks in this label, counted before */
	left = &ld->left[sid * out->nlabels + label];
	series_from_arena(ld, s, *left > n ? *left : n);
	query_series_reserve(s, s->n + (*left > n ? *left : n));
	*left -= *left > n ? n : *left;
	if (db_block_unpack(data, len, n, s->iteration + s->n, s->v + s->n, why))
		return -1;
	for (size_t k = 0; k < n; k++)
		s->run_id[s->n + k] = run;
	for (size_t k = 0; s->level && k < n; k++)
		s->level[s->n + k] = NAN;
	if (s->disturbed)
		memset(s->disturbed + s->n, 0, n * sizeof(*s->disturbed));
	if (!ld->nocount) {
		ld->cur->r->nsamples += n;
		out->nsamples += n;
	}
	/* the same label given twice gets the same pooled values */
	for (size_t i = label + 1; i < out->nlabels; i++)
		if (out->kernels[i].id == out->kernels[label].id)
			for (size_t k = 0; k < n; k++)
				query_series_push(&out->rows[idx].series[i], s->v[s->n + k], run,
					    s->iteration[s->n + k], NULL);
	s->n += n;
	return 0;
}

/*
 * How many values each (series, label) gets from blocks: n comes before
 * data in the row, so this reads no block.  The series then grow once.
 */
static int count_blocks(struct mmb_db *db, struct query_loader *ld)
{
	size_t nl = ld->out->nlabels, total = 0;
	sqlite3_stmt *st;
	int rc;

	if (prepare_by_runs(db, ld, "SELECT run_id, series_id, n FROM sample_blocks", &st))
		return -1;
	ld->left = xcalloc((size_t)ld->nseries * nl + 1, sizeof(*ld->left));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_map *m = run_map_find(ld->map, ld->nmap, sqlite3_column_int64(st, 0));
		int64_t sid = sqlite3_column_int64(st, 1), n = sqlite3_column_int64(st, 2);

		if (m && sid >= 1 && sid < ld->nseries && ld->series[sid].wanted && n >= 1 &&
		    n <= DB_BLOCK_MAX_N) {
			ld->left[(size_t)sid * nl + m->label] += (size_t)n;
			total += (size_t)n;
		}
	}
	rc = db_done(db, st, rc);
	if (!rc)
		arena_map(ld, total);
	return rc;
}

/* A block read value by value: what load_block_fast() takes off the series' count to come. */
static int block_counted(struct query_loader *ld, int64_t run, int64_t sid, size_t n)
{
	struct run_map *m = run_map_find(ld->map, ld->nmap, run);
	size_t *left;

	if (m && ld->left) {
		left = &ld->left[(size_t)sid * ld->out->nlabels + m->label];
		*left -= *left > n ? n : *left;
	}
	return 0;
}

static int bad_block(struct mmb_db *db, int64_t bid, const char *why)
{
	error("%s: sample block %lld is not a valid block: %s", db->c->path, (long long)bid, why);
	return -1;
}

/* Blocks below 2^62 name a place among the runner's rows (order_key, schema.c) */
#define BLOCK_ORDER_MAX (((int64_t)1 << 62) - ((int64_t)1 << 24))

/*
 * Where block bid's first sample sorts in compare's row order: its
 * order_key (column col of st; a packed block of the runner's rows) when
 * it has a sane one, else after the rows, by id.  SQLite's NULL reads 0.
 */
static int64_t block_order(sqlite3_stmt *st, int col, int64_t bid)
{
	int64_t k = col >= 0 ? sqlite3_column_int64(st, col) : 0;

	if (k > 0 && k < BLOCK_ORDER_MAX)
		return k;
	return ((int64_t)1 << 62) + (bid & (((int64_t)1 << 37) - 1)) * ((int64_t)1 << 24);
}

/*
 * "SELECT <cols>, order_key FROM sample_blocks" over the pooled runs; NULL
 * for order_key before schema 11, so a v9/v10 file reads as it is.
 */
static int prepare_blocks(struct mmb_db *db, const struct query_loader *ld, const char *cols,
			  sqlite3_stmt **st)
{
	char *sql = xasprintf("SELECT %s, %s FROM sample_blocks", cols,
			      db_schema_version(db) >= 11 ? "order_key" : "NULL");
	int rc = prepare_by_runs(db, ld, sql, st);

	free(sql);
	return rc;
}

/*
 * Block bid (run, wanted series sid, n values, sorting at `order`) whose
 * data is column col of st, into its series: 0, or -1 after saying why it
 * is not valid.
 */
static int load_block(struct mmb_db *db, struct query_loader *ld, int64_t run, int64_t bid,
		      int64_t sid, sqlite3_stmt *st, int col, int64_t n, int64_t order)
{
	struct block_ctx c = { ld, run, sid, order,
			       iter_notes_group(&ld->notes, run, ld->series[sid].workload,
						ld->series[sid].variant) };
	const void *data;
	const char *why = "no data";
	size_t len;
	/* blob: the binary format; text: JSON, NUL-terminated by SQLite */
	int blob = sqlite3_column_type(st, col) == SQLITE_BLOB;

	data = blob ? sqlite3_column_blob(st, col) : (const void *)db_col_raw(st, col);
	len = (size_t)sqlite3_column_bytes(st, col);
	if (n < 1 || n > DB_BLOCK_MAX_N)
		why = "a bad n";
	else if (data && blob && !db_block_is_binary(data, len))
		why = "a BLOB without the MMBK header";
	/* a block whose iterations have notes (the runner's) goes value by value */
	else if (data && blob && !c.notes.n && !load_block_fast(ld, c.run, sid, c.base, data, len,
								(size_t)n, &why))
		return 0;
	else if (data && blob && c.notes.n && !db_block_decode(data, len, (size_t)n, block_sample,
							       &c, &why))
		return block_counted(ld, run, sid, (size_t)n);
	else if (data && blob)	/* bad: the reason the value-by-value decode gives */
		db_block_decode(data, len, (size_t)n, block_check, NULL, &why);
	else if (data && !db_block_decode(data, len, (size_t)n, block_sample, &c, &why))
		return 0;
	return bad_block(db, bid, why);
}

/* Samples packed into blocks (import's, merge's, ended runs': schema.c), in the order written. */
static int load_blocks(struct mmb_db *db, struct query_loader *ld)
{
	sqlite3_stmt *st;
	int rc;

	if (count_blocks(db, ld) || prepare_blocks(db, ld, "run_id, id, series_id, data, n", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t sid = sqlite3_column_int64(st, 2);

		if (sid < 1 || sid >= ld->nseries || !ld->series[sid].wanted)
			continue;
		if (load_block(db, ld, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), sid,
			       st, 3, sqlite3_column_int64(st, 4),
			       block_order(st, 5, sqlite3_column_int64(st, 1)))) {
			rc = SQLITE_CORRUPT;
			break;
		}
	}
	if (rc == SQLITE_CORRUPT) {
		sqlite3_finalize(st);
		return -1;
	}
	return db_done(db, st, rc);
}

/*
 * query_open(): the rows the runner's samples make, and where each row
 * first appears, from the by-series index alone (no value is read).
 */
static int index_values(struct mmb_db *db, struct query_loader *ld)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare_runs_tail(db, ld, "SELECT run_id, series_id, min(id), count(*) FROM sample_values",
			      NULL, 0, "GROUP BY run_id, series_id", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_map *m = run_map_find(ld->map, ld->nmap, sqlite3_column_int64(st, 0));
		int64_t sid = sqlite3_column_int64(st, 1);
		size_t idx;

		if (!m || sid < 1 || sid >= ld->nseries || !ld->series[sid].wanted)
			continue;
		idx = series_row(ld, &ld->series[sid]);
		note_first(ld, idx, m->label, sqlite3_column_int64(st, 2));
		ld->rs[idx].values = true;
		ld->rs[idx].nindexed += (size_t)sqlite3_column_int64(st, 3);
	}
	return db_done(db, st, rc);
}

/* query_open(): each row's blocks, in the order query_load() reads them (n before data). */
static int index_blocks(struct mmb_db *db, struct query_loader *ld)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare_blocks(db, ld, "run_id, id, series_id, n", &st))
		return -1;
	ld->left = xcalloc((size_t)ld->nseries * ld->out->nlabels + 1, sizeof(*ld->left));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct block_ref b = { sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 0),
				       sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
				       block_order(st, 4, sqlite3_column_int64(st, 1)) };
		struct run_map *m = run_map_find(ld->map, ld->nmap, b.run);
		struct row_stream *rs;
		size_t idx;

		if (!m || b.sid < 1 || b.sid >= ld->nseries || !ld->series[b.sid].wanted)
			continue;
		if (b.n < 1 || b.n > DB_BLOCK_MAX_N) {
			sqlite3_finalize(st);
			return bad_block(db, b.id, "a bad n");
		}
		idx = series_row(ld, &ld->series[b.sid]);
		note_first(ld, idx, m->label, b.order);
		rs = &ld->rs[idx];
		ALLOC_GROW(rs->blocks, rs->nblocks + 1, rs->alloc);
		rs->blocks[rs->nblocks++] = b;
		rs->nindexed += (size_t)b.n;
	}
	return db_done(db, st, rc);
}

/* What the loader holds; nrows: the rows ld->rs covers. */
static void loader_release(struct query_loader *ld, size_t nrows)
{
	for (size_t r = 0; ld->rs && r < nrows; r++)
		free(ld->rs[r].blocks);
	free(ld->rs);
	for (size_t i = 0; ld->spare && i < ld->out->nlabels; i++)
		query_series_free_arrays(&ld->spare[i]);
	free(ld->spare);
	free(ld->tab);
	free(ld->map);
	free(ld->first);
	iter_notes_release(&ld->notes);
	free(ld->left);
	series_refs_release(ld);
	free(ld->series);
}

/* Rows to first-appearance order (baseline label first); a stream's rows follow. */
static void sort_rows(struct query_loader *ld)
{
	struct query_set *out = ld->out;
	size_t k = out->nr, *at;
	struct query_row *sorted;
	struct row_stream *rs;

	if (k < 2)
		return;
	sorted = xmalloc(k * sizeof(*sorted));
	at = xmalloc(k * sizeof(*at));
	qsort(ld->first, k, sizeof(*ld->first), row_cmp);
	for (size_t i = 0; i < k; i++) {
		sorted[i] = out->rows[ld->first[i].row];
		at[ld->first[i].row] = i;
	}
	free(out->rows);
	out->rows = sorted;
	if (ld->stream) {
		rs = xmalloc(k * sizeof(*rs));
		for (size_t i = 0; i < k; i++)
			rs[at[i]] = ld->rs[i];
		free(ld->rs);
		ld->rs = rs;
		for (int64_t sid = 0; sid < ld->nseries; sid++)
			if (ld->series[sid].wanted && ld->series[sid].row != SIZE_MAX)
				ld->series[sid].row = at[ld->series[sid].row];
	}
	free(at);
}

static int load(struct mmb_db *db, const char *const *labels, size_t n,
		const struct query_filter *f, struct query_set *out, bool stream)
{
	struct query_filter nofilter = { 0 };
	struct run_map *map = NULL;
	size_t nmap = 0, mapalloc = 0;
	struct query_loader ld = { 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	if (!f)
		f = &nofilter;
	ret = query_kernels(db, labels, n, &out->kernels);
	if (ret)
		return ret;
	out->nlabels = n;

	for (size_t i = 0; i < n; i++) {
		struct query_kernel *k = &out->kernels[i];
		size_t usable = 0, skip = 0;

		for (size_t j = 0; j < k->nruns; j++)
			usable += query_run_selected(f, &k->runs[j]);
		/* runs come in id order: the last N are the newest */
		if (f->last_runs > 0 && usable > (size_t)f->last_runs)
			skip = usable - (size_t)f->last_runs;
		k->nruns_pooled = usable - skip;
		for (size_t j = 0; j < k->nruns; j++) {
			struct query_run *r = &k->runs[j];

			if (!query_run_selected(f, r))
				continue;
			if (skip) {
				skip--;
				continue;
			}
			r->pooled = true;
			/* the same label twice (A/A) pools into both columns; map first */
			if (run_map_find(map, nmap, r->id))
				continue;
			ALLOC_GROW(map, nmap + 1, mapalloc);
			map[nmap++] = (struct run_map){ r->id, i, r };
			qsort(map, nmap, sizeof(*map), run_map_cmp);
		}
	}
	if (!nmap)
		return 0;

	ld.out = out;
	ld.map = map;
	ld.nmap = nmap;
	ld.stream = stream;
	ld.tabsize = 1024;
	ld.tab = xcalloc(ld.tabsize, sizeof(*ld.tab));
	for (size_t i = 0; i < ld.tabsize; i++)
		ld.tab[i].row = SIZE_MAX;
	ld.keep_disturbed = f->keep_disturbed || f->no_guard;
	out->kept_disturbed = ld.keep_disturbed;
	out->no_guard = f->no_guard;
	ret = load_series(db, f, &ld);
	if (!ret)
		ret = load_notes(db, &ld);
	if (!ret)
		ret = stream ? index_values(db, &ld) : load_rows(db, &ld, NULL, 0);
	if (!ret)
		ret = stream ? index_blocks(db, &ld) : load_blocks(db, &ld);
	if (ret) {
		loader_release(&ld, out->nr);
		query_set_release(out);
		return ret;
	}
	sort_rows(&ld);
	if (stream) {
		/* the loader stays: query_row_fill() reads with it */
		out->stream = xmalloc(sizeof(*out->stream));
		*out->stream = ld;
		out->nstream = out->nr;
		return 0;
	}
	loader_release(&ld, out->nr);
	return 0;
}

int query_load(struct mmb_db *db, const char *const *labels, size_t n,
	       const struct query_filter *f, struct query_set *out)
{
	return load(db, labels, n, f, out, false);
}

int query_open(struct mmb_db *db, const char *const *labels, size_t n,
	       const struct query_filter *f, struct query_set *out)
{
	return load(db, labels, n, f, out, true);
}

/* Row r's runner-written samples, in (run_id, id) order along the by-series index. */
static int fill_values(struct mmb_db *db, struct query_loader *ld, size_t r)
{
	int64_t *sids = xmalloc((size_t)ld->nseries * sizeof(*sids));
	size_t nsids = 0;
	int rc;

	for (int64_t sid = 1; sid < ld->nseries; sid++)
		if (ld->series[sid].wanted && ld->series[sid].row == r)
			sids[nsids++] = sid;
	rc = load_rows(db, ld, sids, nsids);
	free(sids);
	return rc;
}

/* Row rs's blocks, one at a time by id; each series grows once. */
static int fill_blocks(struct mmb_db *db, struct query_loader *ld, const struct row_stream *rs)
{
	size_t nl = ld->out->nlabels;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < rs->nblocks; k++) {
			const struct block_ref *b = &rs->blocks[k];
			size_t *left = &ld->left[(size_t)b->sid * nl +
						 run_map_find(ld->map, ld->nmap, b->run)->label];

			*left = pass ? *left + (size_t)b->n : 0;
		}
	if (db_prepare(db, "SELECT data FROM sample_blocks WHERE id = ?", &st))
		return -1;
	for (size_t k = 0; k < rs->nblocks; k++) {
		const struct block_ref *b = &rs->blocks[k];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, b->id);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		if (load_block(db, ld, b->run, b->id, b->sid, st, 0, b->n, b->order)) {
			sqlite3_finalize(st);
			return -1;
		}
		rc = SQLITE_DONE;
	}
	if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return 0;
	}
	return db_done(db, st, rc);
}

int query_row_fill(struct mmb_db *db, struct query_set *qs, size_t r)
{
	struct query_loader *ld = qs->stream;
	struct row_stream *rs;
	int ret = 0;

	if (!ld || r >= qs->nstream || ld->rs[r].filled)
		return 0;
	rs = &ld->rs[r];
	if (!ld->spare)
		ld->spare = xcalloc(qs->nlabels, sizeof(*ld->spare));
	for (size_t i = 0; i < qs->nlabels; i++) {
		struct query_series *s = &qs->rows[r].series[i];

		s->n = s->ndisturbed = s->nmeasured = 0;
		s->v = ld->spare[i].v;
		s->run_id = ld->spare[i].run_id;
		s->iteration = ld->spare[i].iteration;
		s->alloc = ld->spare[i].alloc;
		memset(&ld->spare[i], 0, sizeof(ld->spare[i]));
	}
	ld->nocount = rs->counted;
	if (rs->values)
		ret = fill_values(db, ld, r);
	if (!ret && rs->nblocks)
		ret = fill_blocks(db, ld, rs);
	ld->nocount = false;
	rs->filled = !ret;
	rs->counted |= !ret;
	return ret;
}

size_t query_row_samples(const struct query_set *qs, size_t r)
{
	const struct query_row *row = &qs->rows[r];
	size_t n = 0;

	if (qs->stream && r < qs->nstream && !qs->stream->rs[r].filled)
		return qs->stream->rs[r].nindexed;
	for (size_t i = 0; i < qs->nlabels; i++)
		n += row->series[i].n;
	return n;
}

void query_row_drop(struct query_set *qs, size_t r)
{
	if (!qs->stream || r >= qs->nstream || !qs->stream->rs[r].filled)
		return;
	for (size_t i = 0; i < qs->nlabels; i++) {
		struct query_series *s = &qs->rows[r].series[i], *keep = &qs->stream->spare[i];

		/* the larger arrays stay for the next row */
		if (s->alloc > keep->alloc) {
			query_series_free_arrays(keep);
			keep->v = s->v;
			keep->run_id = s->run_id;
			keep->iteration = s->iteration;
			keep->alloc = s->alloc;
		} else {
			query_series_free_arrays(s);
		}
		free(s->level);
		free(s->disturbed);
		s->v = NULL;
		s->run_id = NULL;
		s->iteration = NULL;
		s->level = NULL;
		s->disturbed = NULL;
		s->alloc = 0;
	}
	qs->stream->rs[r].filled = false;
}
