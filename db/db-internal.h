/*
 * What only the files in db/ see: SQLite itself and the helpers every query uses.
 * Nothing outside db/ includes this file (tests may, to damage a DB).
 */
#ifndef MMB_DB_INTERNAL_H
#define MMB_DB_INTERNAL_H

#include "db.h"

#include <sqlite3.h>
#include <sys/stat.h>

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
	bool immutable;		/* a reader of a file it may not lock: checked on close */
	struct stat seen;	/* the file when that reader opened it */
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
/*
 * What a reader passes sqlite3_open_v2() for path (malloc'ed; *flags
 * set), creating no file beside a database that is not its own or in a
 * folder it cannot write: a WAL file with -wal and -shm is read through
 * them read-only (readonly_shm), one without a -wal as immutable (c is
 * marked so).  NULL after error() when neither can be read safely.
 */
char *db_guard_reader_target(struct db_conn *c, const char *path, int *flags);
/* An immutable reader's file as it was at open: 0, or -1 after error() (said once). */
int db_guard_reader_unchanged(struct db_conn *c);
/* Swap db's connection for a copy of it in memory (to migrate without writing the file). */
int db_guard_to_memory(struct mmb_db *db);
/* ATTACH a private copy of src's main database (a temporary file) to dst AS as. */
int db_guard_attach_copy(struct mmb_db *dst, struct mmb_db *src, const char *as);

/*
 * Runs without a uuid (db/runid.c): mmb_uuid() and mmb_digest() on sql,
 * and db_runs_identify(), which names every run by a hash of what it
 * recorded, run right after schema migration 4 in its transaction.
 */
int db_runid_register(sqlite3 *sql);
int db_runs_identify(struct mmb_db *db);

/* error("FILE: sqlite's message"); returns -1. */
int db_fail(struct mmb_db *db);
/* Prepare sql; 0, or -1 after db_fail(). */
int db_prepare(struct mmb_db *db, const char *sql, sqlite3_stmt **st);
/* End of a read loop that stopped with rc: finalize; 0 if it ran to the end, else db_fail(). */
int db_done(struct mmb_db *db, sqlite3_stmt *st, int rc);
/*
 * Text read out of a results DB: another machine's, another user's or a
 * crafted file's, so a hostname, a label or a reason may hold an ESC, a
 * newline or a C1 control.  Every text column that can reach a person
 * comes out through these, escaped (text_escape(): controls and bytes
 * that are not UTF-8 as \xNN, \uNNNN), whatever prints it later:
 * db_col_str() ("" for NULL) and db_col_dup() (NULL for NULL) on one
 * line, db_col_lines() keeping newlines and tabs (an experiment's text).
 * A name that passed name_check() comes out as it went in, but for bytes
 * that are not UTF-8.  db_col_raw() is the bytes as stored (NULL for
 * NULL; SQLite's, valid until the next step): only for text that is data,
 * compared, parsed, copied or exported, never shown; tools/check-layout.py
 * allows it in the files that do that and sqlite3_column_text() nowhere
 * but here.
 */
char *db_col_str(sqlite3_stmt *st, int i);
char *db_col_dup(sqlite3_stmt *st, int i);
char *db_col_lines(sqlite3_stmt *st, int i);
/*
 * db_col_dup() without a copy, for reading many rows: SQLite's text when
 * nothing needs escaping (valid until the next step), else the escaped
 * text in *esc (valid until esc is used again; strbuf_release() it).
 */
struct strbuf;
const char *db_col_text(sqlite3_stmt *st, int i, struct strbuf *esc);
const char *db_col_raw(sqlite3_stmt *st, int i);
/* Bind s (copied) to parameter i, or NULL when s is. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s);

/*
 * A list read from queries: n elements of size bytes at v (NULL when
 * empty).  Start one as { .size = sizeof(element) }.  Each list-reading
 * function names how a row goes in and how an element is freed.
 */
struct db_cols;
struct db_list {
	void *v;
	size_t n, alloc, size;
	const struct db_cols *cols;	/* non-NULL: rows are copied by it (db_query_rows) */
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
 * (or copied by l->cols) onto the end of *l; st finalized.  0, or -1 after
 * db_fail() (or row's error) with all of *l freed (release, or l->cols, on
 * each element) and left empty.
 */
int db_read_list(struct mmb_db *db, sqlite3_stmt *st, db_row_fn *row, void *arg,
		 db_release_fn *release, struct db_list *l);
/*
 * A query's parameters as data, bound in order (?1, ?2, ...): DB_ARGS(DB_I64(id),
 * DB_TEXT(s)).  A NULL text binds SQL NULL; text is copied when bound.
 */
struct db_arg {
	enum { DB_ARG_END, DB_ARG_TEXT, DB_ARG_INT64 } kind;
	const char *s;
	int64_t i;
};
#define DB_ARGS(...) ((const struct db_arg[]){ __VA_ARGS__, { .kind = DB_ARG_END } })
#define DB_TEXT(v) { .kind = DB_ARG_TEXT, .s = (v) }
#define DB_I64(v) { .kind = DB_ARG_INT64, .i = (v) }
/* Prepare sql and bind args (NULL: none); 0, or -1 after db_fail(). */
int db_prepare_args(struct mmb_db *db, const char *sql, const struct db_arg *args,
		    sqlite3_stmt **st);
/*
 * A whole list query: sql prepared with args bound, every row read as
 * db_read_list() does into elements of size bytes; *(T **)out and *n set
 * (NULL and 0 on failure).  0 or -1.
 */
int db_query_list(struct mmb_db *db, const char *sql, const struct db_arg *args, db_row_fn *row,
		  void *arg, db_release_fn *release, size_t size, void *out, size_t *n);
/*
 * Rows copied as they are into structs (db/rows.c): column i of a row goes
 * to field col[i] of an element of size bytes, read as its kind says; the
 * columns end at the first DB_END.  The text fields are the element's to
 * free (db_row_release).  DB_COL(kind, type, member) names a field and
 * fails to compile when the member's C type is not one the kind fills.
 */
enum db_kind {
	DB_END,
	DB_STR,			/* char *: "" for NULL (db_col_str) */
	DB_DUP,			/* char *: NULL for NULL (db_col_dup) */
	DB_LINES,		/* char *: "" for NULL, lines kept (db_col_lines) */
	DB_RAW,			/* char *: the bytes as stored, NULL for NULL: data, never shown */
	DB_INT,			/* int */
	DB_INT64,		/* int64_t or uint64_t */
	DB_DOUBLE,		/* double */
	DB_BOOL,		/* bool: the integer is not 0 */
};
#define DB_COLS_MAX 24
struct db_cols {
	size_t size;
	struct db_col {
		enum db_kind kind;
		size_t off;
	} col[DB_COLS_MAX];
};
#define DB_CTYPE_STR char *: DB_STR
#define DB_CTYPE_DUP char *: DB_DUP
#define DB_CTYPE_LINES char *: DB_LINES
#define DB_CTYPE_RAW char *: DB_RAW
#define DB_CTYPE_INT int: DB_INT
#define DB_CTYPE_INT64 int64_t: DB_INT64, uint64_t: DB_INT64
#define DB_CTYPE_DOUBLE double: DB_DOUBLE
#define DB_CTYPE_BOOL bool: DB_BOOL
#define DB_COL(kind, type, member) \
	{ _Generic(((type *)0)->member, DB_CTYPE_##kind), offsetof(type, member) }

/* Fill elem from st's current row; free the text fields of elem. */
void db_row_fill(sqlite3_stmt *st, const struct db_cols *c, void *elem);
void db_row_release(const struct db_cols *c, void *elem);
/* db_row_release() on each of the n elements of v, then free v. */
void db_rows_free(const struct db_cols *c, void *v, size_t n);
/* db_query_list() with each row copied by c. */
int db_query_rows(struct mmb_db *db, const char *sql, const struct db_arg *args,
		  const struct db_cols *c, void *out, size_t *n);
/* The first row into *out (zeroed first): 0, 1 when there is none, or -1 after db_fail(). */
int db_query_row(struct mmb_db *db, const char *sql, const struct db_arg *args,
		 const struct db_cols *c, void *out);

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
