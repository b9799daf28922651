/*
 * Reading a row: the text accessors every read goes through (text leaves a
 * results DB escaped, docs/security.md), and rows copied as they are into
 * the fields of structs, by a map of columns (struct db_cols in
 * db-internal.h): the one reading of a row that the list and row questions
 * share.  The lowest file of db/: it calls no other.
 */
#include "db-internal.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const char *db_col_raw(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* The one escape of text read from a results DB (issue 42): see db-internal.h. */
static char *col_shown(sqlite3_stmt *st, int i, bool lines, const char *null)
{
	const char *s = db_col_raw(st, i);

	if (!s)
		return null ? xstrdup(null) : NULL;
	return text_ctl(s, lines) ? text_escape(s, lines) : xstrdup(s);
}

char *db_col_str(sqlite3_stmt *st, int i)
{
	return col_shown(st, i, false, "");
}

char *db_col_dup(sqlite3_stmt *st, int i)
{
	return col_shown(st, i, false, NULL);
}

char *db_col_lines(sqlite3_stmt *st, int i)
{
	return col_shown(st, i, true, "");
}

const char *db_col_text(sqlite3_stmt *st, int i, struct strbuf *esc)
{
	const char *s = db_col_raw(st, i);
	char *e;

	if (!s || !text_ctl(s, false))
		return s;
	e = text_escape(s, false);
	strbuf_reset(esc);
	strbuf_addstr(esc, e);
	free(e);
	return esc->buf;
}

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
