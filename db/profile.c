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

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
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
	bind_opt(head, 2, p->workload);
	bind_opt(head, 3, p->variant ? p->variant : "");
	bind_opt(head, 4, p->event);
	sqlite3_bind_int64(head, 5, p->samples);
	bind_opt(head, 6, p->note);
	if (step_done(db, head))
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(row, 1, run_id);
		bind_opt(row, 2, p->workload);
		bind_opt(row, 3, p->variant ? p->variant : "");
		bind_opt(row, 4, profile_kind_name(e[i].kind));
		bind_opt(row, 5, e[i].name);
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

/* The entries of profile p, largest share first within each kind. */
static int load_entries(struct mmb_db *db, struct db_profile *p)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	if (db_prepare(db, "SELECT kind, name, pct FROM profile_rows WHERE run_id = ?1"
		       " AND workload = ?2 AND variant = ?3 ORDER BY kind DESC, pct DESC, name", &st))
		return -1;
	sqlite3_bind_int64(st, 1, p->run_id);
	bind_opt(st, 2, p->workload);
	bind_opt(st, 3, p->variant);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(st, 0);

		ALLOC_GROW(p->e, p->n + 1, alloc);
		p->e[p->n].kind = kind && !strcmp(kind, "self") ? PROFILE_SELF : PROFILE_CALLTRACE;
		p->e[p->n].name = db_col_str(st, 1);
		p->e[p->n].pct = sqlite3_column_double(st, 2);
		p->n++;
	}
	return db_done(db, st, rc);
}

int db_profiles_load(struct mmb_db *db, const int64_t *runs, size_t nruns, const char *workload,
		     const char *variant, struct db_profile **out, size_t *n)
{
	struct db_profile *v = NULL;
	size_t nr = 0, alloc = 0;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	*out = NULL;
	*n = 0;
	if (db_prepare(db, "SELECT workload, variant, event, samples, note FROM profiles"
		       " WHERE run_id = ?1 AND (?2 IS NULL OR workload = ?2)"
		       " AND (?3 IS NULL OR variant = ?3) ORDER BY rowid", &st))
		return -1;
	for (size_t r = 0; r < nruns; r++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[r]);
		bind_opt(st, 2, workload);
		bind_opt(st, 3, variant);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			struct db_profile *p;

			ALLOC_GROW(v, nr + 1, alloc);
			p = &v[nr++];
			memset(p, 0, sizeof(*p));
			p->run_id = runs[r];
			p->workload = db_col_str(st, 0);
			p->variant = db_col_str(st, 1);
			p->event = db_col_str(st, 2);
			p->samples = sqlite3_column_int64(st, 3);
			p->note = db_col_dup(st, 4);
		}
		if (rc != SQLITE_DONE)
			break;
	}
	if (db_done(db, st, rc))
		goto fail;
	for (size_t i = 0; i < nr; i++)
		if (load_entries(db, &v[i]))
			goto fail;
	*out = v;
	*n = nr;
	return 0;
fail:
	db_profiles_free(v, nr);
	return -1;
}

void db_profiles_free(struct db_profile *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].workload);
		free(p[i].variant);
		free(p[i].event);
		free(p[i].note);
		for (size_t j = 0; j < p[i].n; j++)
			free(p[i].e[j].name);
		free(p[i].e);
	}
	free(p);
}
