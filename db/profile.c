/* The profiles and profile_rows tables (schema 5, docs/profiles.md). */
#include "profile.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdlib.h>
#include <string.h>

const char *profile_kind_name(enum profile_kind k)
{
	return k == PROFILE_SELF ? "self" : "calltrace";
}

static int step_done(struct mmb_db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE)
		return db_fail(db);
	sqlite3_reset(st);
	return 0;
}

int db_profile_add(struct mmb_db *db, int64_t run_id, const struct profile_info *p,
		   const struct profile_entry *e, size_t n)
{
	sqlite3_stmt *head = NULL, *row = NULL;
	int ret = -1;

	if (db_begin(db))
		return -1;
	if (db_prepare(db, "INSERT OR REPLACE INTO profiles (run_id, workload, variant, event,"
		       " samples, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &head) ||
	    db_prepare(db, "INSERT OR REPLACE INTO profile_rows (run_id, workload, variant, kind,"
		       " name, pct) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &row))
		goto out;
	sqlite3_bind_int64(head, 1, run_id);
	db_bind_text_or_null(head, 2, p->workload);
	db_bind_text_or_null(head, 3, p->variant ? p->variant : "");
	db_bind_text_or_null(head, 4, p->event);
	sqlite3_bind_int64(head, 5, p->samples);
	db_bind_text_or_null(head, 6, p->note);
	if (step_done(db, head))
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(row, 1, run_id);
		db_bind_text_or_null(row, 2, p->workload);
		db_bind_text_or_null(row, 3, p->variant ? p->variant : "");
		db_bind_text_or_null(row, 4, profile_kind_name(e[i].kind));
		db_bind_text_or_null(row, 5, e[i].name);
		sqlite3_bind_double(row, 6, e[i].pct);
		if (step_done(db, row))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(head);
	sqlite3_finalize(row);
	if (ret || db_commit(db)) {
		db_rollback(db);
		return error("%s: the profile of %s%s%s is not recorded", db_path(db), p->workload,
			     p->variant && *p->variant ? " " : "", p->variant ? p->variant : "");
	}
	return 0;
}

static int read_entry(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct profile_entry *e = db_list_add(list);
	struct strbuf esc = STRBUF_INIT;
	const char *kind = db_col_text(st, 0, &esc);

	(void)arg;
	e->kind = kind && !strcmp(kind, "self") ? PROFILE_SELF : PROFILE_CALLTRACE;
	strbuf_release(&esc);
	e->name = db_col_str(st, 1);
	e->pct = sqlite3_column_double(st, 2);
	return 0;
}

static void release_entry(void *elem)
{
	free(((struct profile_entry *)elem)->name);
}

/* The entries of profile p, largest share first within each kind. */
static int load_entries(struct mmb_db *db, struct db_profile *p)
{
	return db_query_list(db, "SELECT kind, name, pct FROM profile_rows WHERE run_id = ?1"
			     " AND workload = ?2 AND variant = ?3 ORDER BY kind DESC, pct DESC, name",
			     DB_ARGS(DB_I64(p->run_id), DB_TEXT(p->workload), DB_TEXT(p->variant)),
			     read_entry, NULL, release_entry, sizeof(*p->e), &p->e, &p->n);
}

/* One profile of run *arg. */
static int read_profile(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct db_profile *p = db_list_add(list);

	p->run_id = *(const int64_t *)arg;
	p->workload = db_col_str(st, 0);
	p->variant = db_col_str(st, 1);
	p->event = db_col_str(st, 2);
	p->samples = sqlite3_column_int64(st, 3);
	p->note = db_col_dup(st, 4);
	return 0;
}

static void release_profile(void *elem)
{
	struct db_profile *p = elem;

	free(p->workload);
	free(p->variant);
	free(p->event);
	free(p->note);
	db_list_free(p->e, p->n, sizeof(*p->e), release_entry);
}

int db_profiles_load(struct mmb_db *db, const int64_t *runs, size_t nruns, const char *workload,
		     const char *variant, struct db_profile **out, size_t *n)
{
	struct db_list l = { .size = sizeof(**out) };
	int ret = 0;

	*out = NULL;
	*n = 0;
	for (size_t r = 0; r < nruns && !ret; r++) {
		sqlite3_stmt *st;

		ret = db_prepare_args(db, "SELECT workload, variant, event, samples, note FROM profiles"
				      " WHERE run_id = ?1 AND (?2 IS NULL OR workload = ?2)"
				      " AND (?3 IS NULL OR variant = ?3) ORDER BY rowid",
				      DB_ARGS(DB_I64(runs[r]), DB_TEXT(workload), DB_TEXT(variant)), &st);
		if (ret)
			break;
		ret = db_read_list(db, st, read_profile, (void *)&runs[r], release_profile, &l);
	}
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = load_entries(db, (struct db_profile *)l.v + i);
	if (ret) {
		db_list_free(l.v, l.n, l.size, release_profile);
		return -1;
	}
	*out = l.v;
	*n = l.n;
	return 0;
}

void db_profiles_free(struct db_profile *p, size_t n)
{
	db_list_free(p, n, sizeof(*p), release_profile);
}
