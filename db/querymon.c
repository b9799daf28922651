/*
 * Loading monitor rows into a query set (querymon.h), and the rows an
 * import adds to the monitors table.
 */
#include "querymon.h"
#include "db-internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

char *monrow_name(const char *source, const char *key, const char *workload)
{
	if (!strcmp(source, "vmstat"))
		return xasprintf("proc-vmstat.%s", key);
	if (!strcmp(source, "meminfo"))
		return xasprintf("meminfo.%s", key);
	if (!strcmp(source, "meminfo-delta"))
		return xasprintf("meminfo-delta.%s", key);
	if (!strcmp(source, "perf-stat"))
		return xasprintf("perf-stat.%s", key);
	if (!strcmp(source, "time"))
		return xasprintf("%s.time.%s", workload, key);
	if (!strcmp(source, "interference"))
		return xasprintf("interference.%s", key);
	return NULL;
}

/* Sources that store only non-zero deltas: a missing key is a 0. */
#define SRC_VMSTAT 1u
#define SRC_MEMINFO 2u
#define SRC_OTHER 4u

static unsigned source_bit(const char *source)
{
	if (!strcmp(source, "vmstat"))
		return SRC_VMSTAT;
	return !strcmp(source, "meminfo") || !strcmp(source, "meminfo-delta") ? SRC_MEMINFO
									      : SRC_OTHER;
}

struct mr_iter {
	int64_t run;
	size_t label, wv;
	int iteration;
	bool disturbed;
	double level;
	unsigned sources;	/* SRC_* it has rows of */
};

struct mr_key {
	size_t wv;
	char *name;
	unsigned source;
	uint64_t hash;
};

struct mr_ent {
	size_t key, iter;
	double v;
};

struct mr_load {
	struct mr_iter *it;
	size_t nit, italloc;
	struct mr_key *keys;
	size_t nkeys, keyalloc;
	size_t *tab;		/* open addressing on (wv, name) -> key + 1 */
	size_t tabsize;
	struct mr_ent *ent;
	size_t nent, entalloc;
};

static uint64_t hash_key(size_t wv, const char *name)
{
	uint64_t h = 14695981039346656037ULL ^ wv;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 1099511628211ULL;
	}
	return h;
}

static void rehash(struct mr_load *l)
{
	size_t n = l->tabsize ? l->tabsize * 2 : 256;

	free(l->tab);
	l->tab = xcalloc(n, sizeof(*l->tab));
	l->tabsize = n;
	for (size_t k = 0; k < l->nkeys; k++) {
		size_t s = l->keys[k].hash & (n - 1);

		while (l->tab[s])
			s = (s + 1) & (n - 1);
		l->tab[s] = k + 1;
	}
}

/* The key of (wv, name), made on first use; takes name. */
static size_t key_of(struct mr_load *l, size_t wv, char *name, unsigned source)
{
	uint64_t h = hash_key(wv, name);
	size_t s;

	if ((l->nkeys + 1) * 2 > l->tabsize)
		rehash(l);
	for (s = h & (l->tabsize - 1); l->tab[s]; s = (s + 1) & (l->tabsize - 1)) {
		struct mr_key *k = &l->keys[l->tab[s] - 1];

		if (k->hash == h && k->wv == wv && !strcmp(k->name, name)) {
			free(name);
			return l->tab[s] - 1;
		}
	}
	ALLOC_GROW(l->keys, l->nkeys + 1, l->keyalloc);
	l->keys[l->nkeys] = (struct mr_key){ wv, name, source, h };
	l->tab[s] = ++l->nkeys;
	return l->nkeys - 1;
}

/* The (workload, variant) pairs qs compares: monitor rows come only for those. */
struct wv {
	const char *workload, *variant;
};

static long find_wv(const struct wv *v, size_t n, const char *w, const char *var)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].workload, w) && !strcmp(v[i].variant, var))
			return (long)i;
	return -1;
}

static int load_run(struct mmb_db *db, struct mr_load *l, const struct wv *wv, size_t nwv,
		    int64_t run, size_t label, bool interference)
{
	sqlite3_stmt *st;
	int64_t last = -1;
	long cur = -1;
	int rc;
	struct strbuf esc[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };

	if (db_prepare(db, "SELECT i.id, i.workload, i.variant, i.iteration,"
		       " i.disturbed IS NOT NULL, i.interference, m.source, m.key, m.delta"
		       " FROM iterations i JOIN monitors m ON m.iteration_id = i.id"
		       " WHERE i.run_id = ? AND i.warmup = 0 AND i.status = 'ok'"
		       " ORDER BY i.id", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = db_col_text(st, 1, &esc[0]);
		const char *var = db_col_text(st, 2, &esc[1]);
		const char *src = db_col_text(st, 6, &esc[2]);
		const char *key = db_col_text(st, 7, &esc[3]);
		struct mr_iter *it;
		char *name;

		if (!w || !var || !src || !key)
			continue;
		if (sqlite3_column_int64(st, 0) != last) {
			last = sqlite3_column_int64(st, 0);
			cur = find_wv(wv, nwv, w, var);
			if (cur >= 0) {
				ALLOC_GROW(l->it, l->nit + 1, l->italloc);
				l->it[l->nit++] = (struct mr_iter){
					.run = run, .label = label, .wv = (size_t)cur,
					.iteration = sqlite3_column_int(st, 3),
					.disturbed = sqlite3_column_int(st, 4) != 0,
					.level = sqlite3_column_type(st, 5) == SQLITE_NULL ?
						 NAN : sqlite3_column_double(st, 5),
				};
			}
		}
		if (cur < 0 || (!interference && !strcmp(src, "interference")))
			continue;
		name = monrow_name(src, key, w);
		if (!name)
			continue;
		it = &l->it[l->nit - 1];
		it->sources |= source_bit(src);
		ALLOC_GROW(l->ent, l->nent + 1, l->entalloc);
		l->ent[l->nent++] = (struct mr_ent){
			key_of(l, (size_t)cur, name, source_bit(src)), l->nit - 1,
			sqlite3_column_double(st, 8)
		};
	}
	for (size_t i = 0; i < ARRAY_SIZE(esc); i++)
		strbuf_release(&esc[i]);
	return db_done(db, st, rc);
}

static int ent_cmp(const void *a, const void *b)
{
	const struct mr_ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

/* Higher is better only where the name says so (lkp has no direction for monitors). */
static int monrow_better(const char *name)
{
	return ends_with(name, ".ipc") ? 1 : -1;
}

static void push(struct query_set *qs, struct query_row *row, const struct mr_iter *it, double v)
{
	for (size_t i = it->label; i < qs->nlabels; i++) {
		struct query_series *s = &row->series[i];

		if (i != it->label && qs->kernels[i].id != qs->kernels[it->label].id)
			continue;
		if (it->disturbed && !qs->kept_disturbed)
			s->ndisturbed++;
		else
			query_series_add(s, v, it->run, it->iteration, it->disturbed, it->level);
	}
}

static void build_rows(struct query_set *qs, struct mr_load *l, const struct wv *wv,
		       monrow_keep_fn keep, void *arg)
{
	size_t e = 0;

	if (l->nent)	/* qsort(NULL, 0) is undefined (UBSan) */
		qsort(l->ent, l->nent, sizeof(*l->ent), ent_cmp);
	for (size_t k = 0; k < l->nkeys; k++) {
		const struct mr_key *key = &l->keys[k];
		bool zero = key->source != SRC_OTHER;
		struct query_row row = { 0 };

		row.workload = xstrdup(wv[key->wv].workload);
		row.variant = xstrdup(wv[key->wv].variant);
		row.metric = xstrdup(key->name);
		row.unit = xstrdup("");
		row.better = monrow_better(key->name);
		row.monitor = true;
		row.series = xcalloc(qs->nlabels, sizeof(*row.series));
		for (size_t i = 0; i < l->nit; i++) {
			const struct mr_iter *it = &l->it[i];

			while (e < l->nent && l->ent[e].key == k && l->ent[e].iter < i)
				e++;
			if (it->wv != key->wv)
				continue;
			if (e < l->nent && l->ent[e].key == k && l->ent[e].iter == i)
				push(qs, &row, it, l->ent[e].v);
			else if (zero && (it->sources & key->source))
				push(qs, &row, it, 0);
		}
		while (e < l->nent && l->ent[e].key == k)
			e++;
		if (keep && !keep(qs, &row, arg)) {
			query_row_release(&row, qs->nlabels);
			continue;
		}
		qs->rows = xrealloc(qs->rows, (qs->nr + 1) * sizeof(*qs->rows));
		qs->rows[qs->nr++] = row;
	}
}

int monrows_load(struct mmb_db *db, struct query_set *qs, bool interference,
		 monrow_keep_fn keep, void *arg)
{
	struct mr_load l = { 0 };
	struct wv *wv = xcalloc(qs->nr + 1, sizeof(*wv));
	size_t nwv = 0;
	int ret = 0;

	for (size_t r = 0; r < qs->nr; r++)
		if (!qs->rows[r].monitor &&
		    find_wv(wv, nwv, qs->rows[r].workload, qs->rows[r].variant) < 0)
			wv[nwv++] = (struct wv){ qs->rows[r].workload, qs->rows[r].variant };
	for (size_t i = 0; i < qs->nlabels && nwv && !ret; i++) {
		const struct query_kernel *k = &qs->kernels[i];
		bool dup = false;

		/* the same label twice (A/A): loaded once, pushed to both */
		for (size_t j = 0; j < i; j++)
			dup |= qs->kernels[j].id == k->id;
		for (size_t j = 0; j < k->nruns && !dup && !ret; j++)
			if (k->runs[j].pooled)
				ret = load_run(db, &l, wv, nwv, k->runs[j].id, i, interference);
	}
	if (!ret)
		build_rows(qs, &l, wv, keep, arg);
	for (size_t k = 0; k < l.nkeys; k++)
		free(l.keys[k].name);
	free(l.keys);
	free(l.tab);
	free(l.it);
	free(l.ent);
	free(wv);
	return ret;
}

/* sql prepared with an imported iteration's key bound: run_id, workload, iteration. */
static int prepare_import_iteration(struct mmb_db *db, const char *sql, int64_t run_id,
				    const char *workload, int iteration, sqlite3_stmt **st)
{
	if (db_prepare(db, sql, st))
		return -1;
	sqlite3_bind_int64(*st, 1, run_id);
	sqlite3_bind_text(*st, 2, workload, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(*st, 3, iteration);
	return 0;
}

int monrows_import(struct mmb_db *db, int64_t run_id, const char *workload, int iteration,
		   const char *source, const char *key, double value)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	int rc;

	if (prepare_import_iteration(db, "SELECT id FROM iterations WHERE run_id = ? AND workload = ?"
				     " AND variant = '' AND iteration = ? AND warmup = 0",
				     run_id, workload, iteration, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st);
	}
	if (db_done(db, st, rc))
		return -1;
	if (id < 0) {
		if (prepare_import_iteration(db, "INSERT INTO iterations (run_id, workload, variant,"
					     " iteration, warmup, status) VALUES (?, ?, '', ?, 0, 'ok')",
					     run_id, workload, iteration, &st) ||
		    db_done(db, st, sqlite3_step(st)))
			return -1;
		id = sqlite3_last_insert_rowid(db->c->sql);
	}
	if (db_prepare(db, "INSERT INTO monitors (iteration_id, source, key, delta)"
		       " VALUES (?, ?, ?, ?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 4, value);
	return db_done(db, st, sqlite3_step(st));
}
