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
	char *reserve;		/* db_run_begin's ballast file beside the DB, or NULL */
	int reserve_fd;
};

/* error("FILE: sqlite's message"); returns -1. */
int db_fail(struct mmb_db *db);
/* Prepare sql; 0, or -1 after db_fail(). */
int db_prepare(struct mmb_db *db, const char *sql, sqlite3_stmt **st);
/* End of a read loop that stopped with rc: finalize; 0 if it ran to the end, else db_fail(). */
int db_done(struct mmb_db *db, sqlite3_stmt *st, int rc);
/* Column i as a malloc'ed string: "" for NULL (db_col_str) or NULL (db_col_dup). */
char *db_col_str(sqlite3_stmt *st, int i);
char *db_col_dup(sqlite3_stmt *st, int i);

/*
 * Export's selection: " AND (k.label IN (?...) OR r.id IN (?...))" appended
 * to sql (nothing when both lists are empty; the query names kernels k and
 * runs r), and its values bound from parameter b on; returns the next b.
 */
struct strbuf;
void db_sql_run_filter(struct strbuf *sql, size_t nl, size_t nr);
int db_bind_run_filter(sqlite3_stmt *st, int b, const char *const *labels, size_t nl,
		       const int64_t *runs, size_t nr);

#endif
