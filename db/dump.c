/*
 * The JSON export of runs and its loader (dump.h).  Column lists come
 * from the schema (pragma_table_info) and the tables from sqlite_schema,
 * so a column or table a later migration adds travels without an edit
 * here.  Identifiers in the SQL are the schema's own names, quoted;
 * every value is bound.
 */
#include "dump.h"
#include "read.h"
#include "db-internal.h"
#include "../harness/base/fmtnum.h"
#include "../harness/base/json.h"
#include "../harness/base/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_RUNS "temp.mmb_export_runs"
#define IN_RUNS "(SELECT id FROM " EXPORT_RUNS ")"

/* The runs to export into EXPORT_RUNS: usable ones of the labels and runs given. */
static int select_runs(struct mmb_db *db, const char *const *labels, size_t nl,
		       const int64_t *runs, size_t nr)
{
	sqlite3_stmt *st;

	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS mmb_export_runs (id INTEGER PRIMARY KEY)") ||
	    db_exec(db, "DELETE FROM " EXPORT_RUNS) ||
	    db_prepare_run_filter(db, "INSERT INTO " EXPORT_RUNS " SELECT r.id FROM main.runs r"
				  " JOIN main.kernels k ON k.id = r.kernel_id WHERE usable_run(r.status)",
				  " ORDER BY r.id", labels, nl, runs, nr, &st))
		return -1;
	return db_done(db, st, sqlite3_step(st));
}

/*
 * One value with its SQLite type: null, integer, real (never without '.'
 * or 'e'), text; text that is not UTF-8 as {"bytes":"HEX"}; a blob (a
 * binary sample block) as {"blob":"HEX"}.
 */
static void put_value(struct strbuf *out, sqlite3_stmt *st, int i)
{
	const char *text;
	char buf[40];
	double v;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		strbuf_addstr(out, "null");
		break;
	case SQLITE_INTEGER:
		strbuf_addf(out, "%lld", (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		v = sqlite3_column_double(st, i);
		if (!isfinite(v)) {
			strbuf_addstr(out, "null");	/* JSON has no inf; mmbench stores none */
			break;
		}
		buf[fmt_g17(buf, v)] = '\0';	/* "%.17g" */
		strbuf_addstr(out, buf);
		if (!strpbrk(buf, ".eE"))
			strbuf_addstr(out, ".0");
		break;
	case SQLITE_BLOB:
		/* a binary sample block (db/block.h), byte for byte */
		strbuf_addstr(out, "{\"blob\":\"");
		for (int k = 0, n = sqlite3_column_bytes(st, i); k < n; k++)
			strbuf_addf(out, "%02x", ((const unsigned char *)sqlite3_column_blob(st, i))[k]);
		strbuf_addstr(out, "\"}");
		break;
	default:
		text = db_col_raw(st, i);	/* export is the data: JSON escapes it */
		if (json_utf8_valid(text)) {
			json_add_string(out, text);
			break;
		}
		/* JSON holds only UTF-8: other bytes go as hex, so export is lossless */
		strbuf_addstr(out, "{\"bytes\":\"");
		for (const unsigned char *p = (const unsigned char *)text; *p; p++)
			strbuf_addf(out, "%02x", *p);
		strbuf_addstr(out, "\"}");
		break;
	}
}

struct dump {
	struct mmb_db *db;
	struct strbuf *out;
	int (*flush)(struct strbuf *out, void *arg);
	void *arg;
	size_t ntables;
};

/* "name":{"columns":[...],"rows":[...]} for the rows of table name that pass where. */
static int dump_table(struct dump *d, const char *name, const char *where)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc, ncol;
	size_t nrows = 0;

	/* name comes from sqlite_schema: ours, quoted as an identifier */
	strbuf_addf(&sql, "SELECT * FROM main.\"%s\" WHERE %s ORDER BY rowid", name, where);
	rc = db_prepare(d->db, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	ncol = sqlite3_column_count(st);
	strbuf_addstr(d->out, d->ntables++ ? ",\n" : "\n");
	json_add_string(d->out, name);
	strbuf_addstr(d->out, ":{\"columns\":[");
	for (int i = 0; i < ncol; i++) {
		if (i)
			strbuf_addch(d->out, ',');
		json_add_string(d->out, sqlite3_column_name(st, i));
	}
	strbuf_addstr(d->out, "],\"rows\":[");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		strbuf_addstr(d->out, nrows++ ? ",\n[" : "\n[");
		for (int i = 0; i < ncol; i++) {
			if (i)
				strbuf_addch(d->out, ',');
			put_value(d->out, st, i);
		}
		strbuf_addch(d->out, ']');
		if (d->out->len > (4 << 20) && d->flush(d->out, d->arg)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	strbuf_addstr(d->out, "]}");
	return db_done(d->db, st, rc);
}

/* Does table name have column col? */
static int has_column(struct mmb_db *db, const char *name, const char *col, bool *has)
{
	sqlite3_stmt *st;
	int rc;

	*has = false;
	if (db_prepare(db, "SELECT 1 FROM pragma_table_info(?1, 'main') WHERE name = ?2", &st))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*has = true;
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

/* Every table hanging off a run or an iteration, after the five the others point at. */
static int dump_tables(struct dump *d)
{
	static const struct { const char *name, *where; } first[] = {
		{ "kernels", "id IN (SELECT kernel_id FROM main.runs WHERE id IN " IN_RUNS ")" },
		{ "machines", "id IN (SELECT machine_id FROM main.runs WHERE id IN " IN_RUNS ")" },
		{ "runs", "id IN " IN_RUNS },
		{ "series", "id IN (SELECT series_id FROM main.sample_values WHERE run_id IN " IN_RUNS
			    " UNION SELECT series_id FROM main.sample_blocks WHERE run_id IN "
			    IN_RUNS ")" },
		{ "iterations", "run_id IN " IN_RUNS },
	};
	struct db_list l = { .size = sizeof(char *) };
	sqlite3_stmt *st;
	char **names;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(first); i++)
		if (dump_table(d, first[i].name, first[i].where))
			return -1;
	if (db_prepare(d->db, "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name"
		       " NOT IN ('kernels', 'machines', 'runs', 'series', 'iterations')"
		       " AND name NOT LIKE 'sqlite_%' ORDER BY rootpage", &st))
		return -1;
	ret = db_read_list(d->db, st, db_read_str, NULL, db_release_str, &l);
	names = l.v;
	for (size_t i = 0; i < l.n && !ret; i++) {
		bool run, iter;

		if (has_column(d->db, names[i], "run_id", &run) ||
		    has_column(d->db, names[i], "iteration_id", &iter))
			ret = -1;
		else if (run)
			ret = dump_table(d, names[i], "run_id IN " IN_RUNS);
		else if (iter)
			ret = dump_table(d, names[i], "iteration_id IN (SELECT id FROM main.iterations"
					 " WHERE run_id IN " IN_RUNS ")");
	}
	db_list_free(l.v, l.n, l.size, db_release_str);
	return ret;
}

/*
 * What the export would carry must read as compare reads it: a corrupt
 * block (or a value that is not a finite number) is refused here, as
 * every reader of samples refuses it, not passed on byte for byte.
 */
static int check_samples(struct mmb_db *db)
{
	static const char *const sql[] = {
		"SELECT b.id, mmb_block_bad(b.data, b.n) FROM main.sample_blocks b"
		" WHERE b.run_id IN " IN_RUNS " AND mmb_block_bad(b.data, b.n) IS NOT NULL"
		" ORDER BY b.id LIMIT 1",
		"SELECT v.id, 'is not a finite number' FROM main.sample_values v"
		" WHERE v.run_id IN " IN_RUNS " AND (typeof(v.value) NOT IN ('integer', 'real')"
		" OR abs(v.value) > 1.7976931348623157e308) ORDER BY v.id LIMIT 1",
	};

	for (size_t i = 0; i < ARRAY_SIZE(sql); i++) {
		sqlite3_stmt *st;
		int rc;

		if (db_prepare(db, sql[i], &st))
			return -1;
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			char *why = db_col_dup(st, 1);

			error("%s: %s %lld %s%s", db->c->path, i ? "sample" : "sample block",
			      (long long)sqlite3_column_int64(st, 0),
			      why && (!strncmp(why, "is ", 3) || !strncmp(why, "has ", 4)) ? "" :
			      "is not a valid block: ", why ? why : "?");
			free(why);
			sqlite3_finalize(st);
			return -1;
		}
		if (db_done(db, st, rc))
			return -1;
	}
	return 0;
}

int db_dump_json(struct mmb_db *db, const char *const *labels, size_t nl, const int64_t *runs,
		 size_t nr, struct strbuf *out, int (*flush)(struct strbuf *out, void *arg),
		 void *arg, size_t *nruns)
{
	struct dump d = { db, out, flush, arg, 0 };
	sqlite3_stmt *st;
	int ret, rc;

	*nruns = 0;
	ret = db_export_check(db, labels, nl, runs, nr);
	if (ret)
		return ret;
	if (select_runs(db, labels, nl, runs, nr))
		return -1;
	if (db_prepare(db, "SELECT count(*) FROM " EXPORT_RUNS, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*nruns = (size_t)sqlite3_column_int64(st, 0);
		rc = SQLITE_DONE;
	}
	if (db_done(db, st, rc))
		return -1;
	if (check_samples(db)) {
		db_exec(db, "DROP TABLE IF EXISTS " EXPORT_RUNS);
		return -1;
	}
	strbuf_addf(out, "{\"mmbench_export\":1,\"schema\":%d,\"tables\":{", db_schema_version(db));
	ret = dump_tables(&d);
	if (!ret)
		strbuf_addstr(out, "\n}}\n");
	db_exec(db, "DROP TABLE IF EXISTS " EXPORT_RUNS);
	return ret;
}

/* ---- the loader ---- */

static int bad(const char *file, const struct json *at, const char *fmt, ...)
	MMB_PRINTF_FMT(3, 4);
static int bad(const char *file, const struct json *at, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s:%d:%d: %s", file, at->line, at->col, sb.buf);
	strbuf_release(&sb);
	return -2;
}

/* The schema's name of column c of table t, or NULL. */
static char *column_of(struct mmb_db *db, const char *t, const char *c)
{
	sqlite3_stmt *st;
	char *name = NULL;
	int rc;

	if (db_prepare(db, "SELECT name FROM pragma_table_info(?1, 'main') WHERE name = ?2", &st))
		return NULL;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		name = db_col_str(st, 0);
	sqlite3_finalize(st);
	return name;
}

/* {"bytes":"HEX"}: text that is not UTF-8, as put_value() writes it; 0 or -1. */
static int bind_bytes(sqlite3_stmt *st, int i, const struct json *v)
{
	const char *hex;
	size_t n;
	char *buf;

	bool blob = v->n == 1 && !strcmp(v->keys[0], "blob");

	if (v->n != 1 || (!blob && strcmp(v->keys[0], "bytes")) || v->items[0].type != JSON_STRING)
		return SQLITE_MISMATCH;
	hex = v->items[0].str;
	n = strlen(hex);
	if (n % 2 || strspn(hex, "0123456789abcdefABCDEF") != n)
		return SQLITE_MISMATCH;
	buf = xmalloc(n / 2 + 1);
	for (size_t k = 0; k < n / 2; k++) {
		unsigned int b;

		sscanf(hex + 2 * k, "%2x", &b);
		buf[k] = (char)b;
	}
	if (blob)
		return sqlite3_bind_blob(st, i, buf, (int)(n / 2), free);
	/* a NUL would cut the text: not a name mmbench wrote */
	if (memchr(buf, '\0', n / 2)) {
		free(buf);
		return SQLITE_MISMATCH;
	}
	return sqlite3_bind_text(st, i, buf, (int)(n / 2), free);
}

static int bind_value(sqlite3_stmt *st, int i, const struct json *v)
{
	switch (v->type) {
	case JSON_OBJECT:
		return bind_bytes(st, i, v);
	case JSON_NULL:
		return sqlite3_bind_null(st, i);
	case JSON_BOOL:
		return sqlite3_bind_int(st, i, v->b);
	case JSON_STRING:
		return sqlite3_bind_text(st, i, v->str, -1, SQLITE_STATIC);
	case JSON_NUMBER:
		/* the column's type makes 3 a real where it is one */
		if (v->num == floor(v->num) && fabs(v->num) < 9007199254740992.0)
			return sqlite3_bind_int64(st, i, (sqlite3_int64)v->num);
		return sqlite3_bind_double(st, i, v->num);
	default:
		return SQLITE_MISMATCH;
	}
}

/* INSERT INTO "t" ("c", ...) VALUES (?, ...), the columns checked against the schema. */
static int prepare_insert(struct mmb_db *db, const char *t, const struct json *tab,
			  const char *file, sqlite3_stmt **st)
{
	const struct json *cols = json_get(tab, "columns");
	struct strbuf sql = STRBUF_INIT;
	int ret = 0;

	if (!cols || cols->type != JSON_ARRAY || !cols->n)
		return bad(file, tab, "table '%s' has no \"columns\" array", t);
	strbuf_addf(&sql, "INSERT INTO main.\"%s\" (", t);
	for (size_t i = 0; i < cols->n && !ret; i++) {
		const struct json *c = &cols->items[i];
		char *name = c->type == JSON_STRING ? column_of(db, t, c->str) : NULL;

		if (!name) {
			ret = bad(file, c, "table '%s' has no column %s%s%s in this mmbench's schema",
				  t, c->type == JSON_STRING ? "'" : "",
				  c->type == JSON_STRING ? c->str : "(not a string)",
				  c->type == JSON_STRING ? "'" : "");
			break;
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(cols->items[k].str, name))
				ret = bad(file, c, "column '%s' of table '%s' appears twice", name, t);
		strbuf_addf(&sql, "%s\"%s\"", i ? ", " : "", name);
		free(name);
	}
	strbuf_addstr(&sql, ") VALUES (");
	for (size_t i = 0; i < cols->n; i++)
		strbuf_addstr(&sql, i ? ", ?" : "?");
	strbuf_addch(&sql, ')');
	if (!ret && db_prepare(db, sql.buf, st))
		ret = -1;
	strbuf_release(&sql);
	return ret;
}

static int load_table(struct mmb_db *db, const char *t, const struct json *tab, const char *file)
{
	const struct json *rows = json_get(tab, "rows"), *cols = json_get(tab, "columns");
	sqlite3_stmt *st = NULL;
	int ret;

	if (tab->type != JSON_OBJECT)
		return bad(file, tab, "table '%s' is not an object of columns and rows", t);
	ret = prepare_insert(db, t, tab, file, &st);
	if (ret)
		return ret;
	if (!rows || rows->type != JSON_ARRAY) {
		sqlite3_finalize(st);
		return bad(file, tab, "table '%s' has no \"rows\" array", t);
	}
	for (size_t r = 0; r < rows->n && !ret; r++) {
		const struct json *row = &rows->items[r];
		int rc;

		if (row->type != JSON_ARRAY || row->n != cols->n) {
			ret = bad(file, row, "table '%s' row %zu: expected an array of %zu values", t,
				  r + 1, cols->n);
			break;
		}
		sqlite3_reset(st);
		for (size_t i = 0; i < row->n && !ret; i++)
			if (bind_value(st, (int)i + 1, &row->items[i]) != SQLITE_OK)
				ret = bad(file, &row->items[i], "table '%s' row %zu: a value is a"
					  " number, a string, null or {\"bytes\": \"HEX\"} (text that"
					  " is not UTF-8, no NUL)", t, r + 1);
		if (ret)
			break;
		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			ret = bad(file, row, "table '%s' row %zu: %s", t, r + 1, db_errmsg(db));
	}
	sqlite3_finalize(st);
	return ret;
}

/* The table names of this schema a file may fill: ours, not SQLite's. */
static bool known_table(struct mmb_db *db, const char *t)
{
	sqlite3_stmt *st;
	bool ok = false;

	if (!strncmp(t, "sqlite_", 7) ||
	    db_prepare(db, "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?1", &st))
		return false;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	ok = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return ok;
}

static void collect_labels(const struct json *tables, char ***labels, size_t *n)
{
	const struct json *k = json_get(tables, "kernels");
	const struct json *cols = k ? json_get(k, "columns") : NULL, *rows = k ? json_get(k, "rows") : NULL;
	size_t col = SIZE_MAX, alloc = 0;

	for (size_t i = 0; cols && i < cols->n; i++)
		if (cols->items[i].type == JSON_STRING && !strcmp(cols->items[i].str, "label"))
			col = i;
	for (size_t r = 0; col != SIZE_MAX && rows && r < rows->n; r++)
		if (col < rows->items[r].n && rows->items[r].items[col].type == JSON_STRING) {
			ALLOC_GROW(*labels, *n + 1, alloc);
			(*labels)[(*n)++] = xstrdup(rows->items[r].items[col].str);
		}
}

int db_dump_load(struct mmb_db *db, const struct json *j, const char *file, char ***labels,
		 size_t *nlabels)
{
	const struct json *v = json_get(j, "mmbench_export"), *schema = json_get(j, "schema");
	const struct json *tables = json_get(j, "tables");
	int ret = 0;

	*labels = NULL;
	*nlabels = 0;
	if (!v || v->type != JSON_NUMBER || v->num != 1)
		return bad(file, v ? v : j, "\"mmbench_export\" is not 1: not an export this mmbench"
			   " reads");
	if (!schema || schema->type != JSON_NUMBER || schema->num < 1 ||
	    schema->num > db_nr_migrations)
		return bad(file, schema ? schema : j, "\"schema\" is not 1..%d: written by a newer"
			   " mmbench?", db_nr_migrations);
	if (!tables || tables->type != JSON_OBJECT)
		return bad(file, tables ? tables : j, "no \"tables\" object");
	if (db_begin(db))
		return -1;
	for (size_t i = 0; i < tables->n && !ret; i++) {
		if (!known_table(db, tables->keys[i]))
			ret = bad(file, &tables->items[i], "no table '%s' in this mmbench's schema",
				  tables->keys[i]);
		else
			ret = load_table(db, tables->keys[i], &tables->items[i], file);
	}
	if (ret || db_commit(db)) {
		db_rollback(db);
		return ret ? ret : -1;
	}
	collect_labels(tables, labels, nlabels);
	return 0;
}
