/*
 * What only the files in db/ see: SQLite itself and the helpers every query uses.
 * Nothing outside db/ includes this file (tests may, to damage a DB).
 */
#ifndef MMB_DB_INTERNAL_H
#define MMB_DB_INTERNAL_H

#include "db.h"

#include <sqlite3.h>

/* Behind struct mmb_db: one SQLite connection and what goes with it. */
struct db_conn {
	sqlite3 *sql;
	char *path;			/* for messages */
	sqlite3_stmt *series_get, *series_add;	/* db_series_id(), prepared once */
	/* db_iteration_add()'s, prepared at its first call: a run adds many */
	sqlite3_stmt *iter_add, *value_add, *monitor_add;
	char *reserve;		/* db_run_begin's ballast file beside the DB, or NULL */
	int reserve_fd;
	unsigned guard_calls;	/* progress handler calls while the guard is armed */
	bool in_memory;		/* a reader's migrated copy of an older file */
	unsigned busy_ms;	/* waited for another process's lock (db_busy()) */
};

/*
 * Every database file is untrusted input (db/guard.c).  db_guard_defend():
 * SQLITE_DBCONFIG_DEFENSIVE, trusted_schema off, no extensions.
 * db_guard_arm(): a work budget for what runs while it is on (the
 * statement over budget fails with SQLITE_INTERRUPT).  db_guard_schema():
 * schema's objects are exactly those migrations 0..version-1 make, or
 * error() naming the first that is not.  All 0 or -1.
 */
int db_guard_defend(struct db_conn *c);
void db_guard_arm(struct db_conn *c, bool on);
int db_guard_schema(struct db_conn *c, const char *schema, int version);
/* After db_guard_schema() passed: the schema is ours, trust it (trusted_schema on). */
void db_guard_trust(struct db_conn *c);
/* A reader's view of runs that shows killed 'running' runs as 'interrupted' (TEMP). */
int db_guard_runs_view(struct mmb_db *db);
/* Swap db's connection for a copy of it in memory (to migrate without writing the file). */
int db_guard_to_memory(struct mmb_db *db);
/* ATTACH a private copy of src's main database (a temporary file) to dst AS as. */
int db_guard_attach_copy(struct mmb_db *dst, struct mmb_db *src, const char *as);

/* error("FILE: sqlite's message"); returns -1. */
int db_fail(struct mmb_db *db);
/* Prepare sql; 0, or -1 after db_fail(). */
int db_prepare(struct mmb_db *db, const char *sql, sqlite3_stmt **st);
/* End of a read loop that stopped with rc: finalize; 0 if it ran to the end, else db_fail(). */
int db_done(struct mmb_db *db, sqlite3_stmt *st, int rc);
/* Column i as a malloc'ed string: "" for NULL (db_col_str) or NULL (db_col_dup). */
char *db_col_str(sqlite3_stmt *st, int i);
char *db_col_dup(sqlite3_stmt *st, int i);
/* Bind s (copied) to parameter i, or NULL when s is. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s);

/*
 * A list read from queries: n elements of size bytes at v (NULL when
 * empty).  Start one as { .size = sizeof(element) }.  Each list-reading
 * function names how a row goes in and how an element is freed.
 */
struct db_list {
	void *v;
	size_t n, alloc, size;
};
/* Put st's current row into l (a new element, or one it adds to); 0, or -1 after error(). */
typedef int db_row_fn(sqlite3_stmt *st, struct db_list *l, void *arg);
/* Free what one element holds, not the element. */
typedef void db_release_fn(void *elem);

/* A new zeroed element at the end of l. */
void *db_list_add(struct db_list *l);
/* release (if any) on each of the n elements of v (size bytes each), then free v. */
void db_list_free(void *v, size_t n, size_t size, db_release_fn *release);
/*
 * The read loop of every list query: each row of st through row(st, l, arg)
 * onto the end of *l; st finalized.  0, or -1 after db_fail() (or row's
 * error) with all of *l freed (release on each element) and left empty.
 */
int db_read_list(struct mmb_db *db, sqlite3_stmt *st, db_row_fn *row, void *arg,
		 db_release_fn *release, struct db_list *l);
/*
 * A whole list query: sql prepared, its one parameter bound to *id (none
 * when id is NULL), every row read as db_read_list() does into elements of
 * size bytes; *(T **)out and *n set (NULL and 0 on failure).  0 or -1.
 */
int db_query_list(struct mmb_db *db, const char *sql, const int64_t *id, db_row_fn *row,
		  void *arg, db_release_fn *release, size_t size, void *out, size_t *n);
/* A list of strings (char *): column 0 as db_col_str() reads it, and its free. */
int db_read_str(sqlite3_stmt *st, struct db_list *l, void *arg);
void db_release_str(void *elem);

/*
 * Export's selection: prepare select + " AND (k.label IN (?...) OR r.id IN
 * (?...))" + order, those values bound (no AND when both lists are empty;
 * select names kernels k and runs r and ends in a WHERE).  0, or -1 after
 * db_fail().
 */
int db_prepare_run_filter(struct mmb_db *db, const char *select, const char *order,
			  const char *const *labels, size_t nl, const int64_t *runs, size_t nr,
			  sqlite3_stmt **st);

#endif
