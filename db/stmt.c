/*
 * The statement layer every db/ file works through, below db.c (opening,
 * migrating, the writes): prepare and step with the error said once,
 * lists of rows, exec and transactions, the run filter; rows.c below it
 * reads the columns.  It opens nothing: the files db.c calls while
 * opening a DB (guard, runid, runpack, the block writer) call this, not
 * db.c, so db.c sits above them.
 */
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdlib.h>
#include <string.h>

const char *db_default_path(const char *opt)
{
	const char *env;

	if (opt && *opt)
		return opt;
	env = getenv("MMBENCH_DB");
	if (env && *env)
		return env;
	return MMB_DB_DEFAULT;
}

const char *db_errmsg(struct mmb_db *db)
{
	return db->c && db->c->sql ? sqlite3_errmsg(db->c->sql) : "database not open";
}

const char *db_path(const struct mmb_db *db)
{
	return db->c && db->c->path ? db->c->path : "";
}

int db_fail(struct mmb_db *db)
{
	return error("%s: %s", db->c->path, db_errmsg(db));
}

int db_prepare(struct mmb_db *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->c->sql, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return db_fail(db);
	}
	return 0;
}

int db_done(struct mmb_db *db, sqlite3_stmt *st, int rc)
{
	int ret = 0;

	if (rc != SQLITE_DONE)
		ret = db_fail(db);	/* before finalize, while the message is the step's */
	sqlite3_finalize(st);
	return ret;
}

void *db_list_add(struct db_list *l)
{
	void *e;

	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		l->v = xrealloc(l->v, l->alloc * l->size);
	}
	e = (char *)l->v + l->n++ * l->size;
	memset(e, 0, l->size);
	return e;
}

void db_list_free(void *v, size_t n, size_t size, db_release_fn *release)
{
	for (size_t i = 0; release && i < n; i++)
		release((char *)v + i * size);
	free(v);
}

int db_read_str(sqlite3_stmt *st, struct db_list *l, void *arg)
{
	char **s = db_list_add(l);

	(void)arg;
	*s = db_col_str(st, 0);
	return 0;
}

void db_release_str(void *elem)
{
	free(*(char **)elem);
}

int db_read_list(struct mmb_db *db, sqlite3_stmt *st, db_row_fn *row, void *arg,
		 db_release_fn *release, struct db_list *l)
{
	int rc = SQLITE_DONE, ret = 0;

	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		if (l->cols)
			db_row_fill(st, l->cols, db_list_add(l));
		else
			ret = row(st, l, arg);
	if (ret)
		sqlite3_finalize(st);
	else
		ret = db_done(db, st, rc);
	if (ret && l->cols)
		db_rows_free(l->cols, l->v, l->n);
	else if (ret)
		db_list_free(l->v, l->n, l->size, release);
	if (ret)
		*l = (struct db_list){ .size = l->size, .cols = l->cols };
	return ret;
}

int db_prepare_args(struct mmb_db *db, const char *sql, const struct db_arg *args,
		    sqlite3_stmt **st)
{
	if (db_prepare(db, sql, st))
		return -1;
	for (int i = 0; args && args[i].kind != DB_ARG_END; i++)
		if (args[i].kind == DB_ARG_TEXT)
			db_bind_text_or_null(*st, i + 1, args[i].s);
		else
			sqlite3_bind_int64(*st, i + 1, args[i].i);
	return 0;
}

/* db_query_list() into l, which says how a row goes in when row is NULL */
static int query_list(struct mmb_db *db, const char *sql, const struct db_arg *args,
		      struct db_list *l, db_row_fn *row, void *arg, db_release_fn *release,
		      void *out, size_t *n)
{
	sqlite3_stmt *st;
	int ret;

	*(void **)out = NULL;
	*n = 0;
	if (db_prepare_args(db, sql, args, &st))
		return -1;
	ret = db_read_list(db, st, row, arg, release, l);
	*(void **)out = l->v;
	*n = l->n;
	return ret;
}

int db_query_list(struct mmb_db *db, const char *sql, const struct db_arg *args, db_row_fn *row,
		  void *arg, db_release_fn *release, size_t size, void *out, size_t *n)
{
	return query_list(db, sql, args, &(struct db_list){ .size = size }, row, arg, release, out, n);
}

int db_query_rows(struct mmb_db *db, const char *sql, const struct db_arg *args,
		  const struct db_cols *c, void *out, size_t *n)
{
	return query_list(db, sql, args, &(struct db_list){ .size = c->size, .cols = c }, NULL, NULL,
			  NULL, out, n);
}

int db_query_row(struct mmb_db *db, const char *sql, const struct db_arg *args,
		 const struct db_cols *c, void *out)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, c->size);
	if (db_prepare_args(db, sql, args, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		db_row_fill(st, c, out);
		rc = SQLITE_DONE;
	} else if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return 1;
	}
	return db_done(db, st, rc);
}

int db_exec(struct mmb_db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->c->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", db->c->path, msg ? msg : db_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int db_begin(struct mmb_db *db) { return db_exec(db, "BEGIN IMMEDIATE"); }
int db_commit(struct mmb_db *db) { return db_exec(db, "COMMIT"); }
/*
 * SQLite may already have rolled back by itself (SQLITE_FULL, SQLITE_IOERR
 * at COMMIT): then there is nothing to undo and nothing to complain about.
 */
int db_rollback(struct mmb_db *db)
{
	if (db->c->sql && sqlite3_get_autocommit(db->c->sql))
		return 0;
	return db_exec(db, "ROLLBACK");
}

void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* " OR col IN (?,...)" with n marks; nothing when n is 0. */
static void sql_or_in(struct strbuf *sql, const char *col, size_t n)
{
	if (!n)
		return;
	strbuf_addf(sql, " OR %s IN (", col);
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(sql, i ? ",?" : "?");
	strbuf_addch(sql, ')');
}

/* " AND (0 OR k.label IN (?...) OR r.id IN (?...))", nothing when both lists are empty. */
static void sql_run_filter(struct strbuf *sql, size_t nl, size_t nr)
{
	if (!nl && !nr)
		return;
	strbuf_addstr(sql, " AND (0");
	sql_or_in(sql, "k.label", nl);
	sql_or_in(sql, "r.id", nr);
	strbuf_addch(sql, ')');
}

int db_prepare_run_filter(struct mmb_db *db, const char *select, const char *order,
			  const char *const *labels, size_t nl, const int64_t *runs, size_t nr,
			  sqlite3_stmt **st)
{
	struct strbuf sql = STRBUF_INIT;
	int rc, b = 1;

	strbuf_addstr(&sql, select);
	sql_run_filter(&sql, nl, nr);
	strbuf_addstr(&sql, order);
	rc = db_prepare(db, sql.buf, st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	for (size_t i = 0; i < nl; i++)
		sqlite3_bind_text(*st, b++, labels[i], -1, SQLITE_STATIC);
	for (size_t i = 0; i < nr; i++)
		sqlite3_bind_int64(*st, b++, runs[i]);
	return 0;
}
