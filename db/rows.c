/*
 * Rows copied as they are into the fields of structs, by a map of columns
 * (struct db_cols in db-internal.h): the one reading of a row that the list
 * and row questions share.
 */
#include "db-internal.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void db_row_fill(sqlite3_stmt *st, const struct db_cols *c, void *elem)
{
	static const size_t size[] = {
		[DB_STR] = sizeof(char *), [DB_DUP] = sizeof(char *), [DB_LINES] = sizeof(char *),
		[DB_RAW] = sizeof(char *), [DB_INT] = sizeof(int),
		[DB_INT64] = sizeof(int64_t), [DB_DOUBLE] = sizeof(double), [DB_BOOL] = sizeof(bool),
	};

	for (int i = 0; i < DB_COLS_MAX && c->col[i].kind != DB_END; i++) {
		/* by memcpy: the field's bytes are of the type its kind names (DB_COL) */
		union { char *s; int i; int64_t i64; double d; bool b; } v;

		switch (c->col[i].kind) {
		case DB_STR: v.s = db_col_str(st, i); break;
		case DB_DUP: v.s = db_col_dup(st, i); break;
		case DB_LINES: v.s = db_col_lines(st, i); break;
		case DB_RAW: v.s = db_col_raw(st, i) ? xstrdup(db_col_raw(st, i)) : NULL; break;
		case DB_INT: v.i = sqlite3_column_int(st, i); break;
		case DB_INT64: v.i64 = sqlite3_column_int64(st, i); break;
		case DB_DOUBLE: v.d = sqlite3_column_double(st, i); break;
		case DB_BOOL: v.b = sqlite3_column_int(st, i) != 0; break;
		case DB_END: break;
		}
		memcpy((char *)elem + c->col[i].off, &v, size[c->col[i].kind]);
	}
}

void db_row_release(const struct db_cols *c, void *elem)
{
	for (int i = 0; i < DB_COLS_MAX && c->col[i].kind != DB_END; i++)
		if (c->col[i].kind == DB_STR || c->col[i].kind == DB_DUP ||
		    c->col[i].kind == DB_LINES || c->col[i].kind == DB_RAW) {
			char *s;

			memcpy(&s, (char *)elem + c->col[i].off, sizeof(s));
			free(s);
		}
}

void db_rows_free(const struct db_cols *c, void *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		db_row_release(c, (char *)v + i * c->size);
	free(v);
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
