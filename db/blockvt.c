/*
 * mmb_samples(data, n): a table-valued function with a row per sample of
 * one sample block, binary or JSON (db/block.h), so the `samples` view
 * reads either.  mmbench registers it on every connection; built with
 * MMB_SQLITE_EXT it is the loadable extension `make install` installs
 * for the plain sqlite3 shell (docs/store.md).
 */
#ifdef MMB_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#else
#include <sqlite3.h>
#endif
#include "block.h"
#ifndef MMB_SQLITE_EXT
#include "blockvt.h"
#else
int db_block_vtab_register(sqlite3 *db);
void *xmalloc(size_t n);
int sqlite3_mmbsamples_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
#endif

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { COL_KEY, COL_ITERATION, COL_SEQ, COL_VALUE, COL_DATA, COL_N };

struct bvt_cursor {
	sqlite3_vtab_cursor base;
	int *it, *sq;
	double *val;
	size_t n, alloc, pos;
};

static int bvt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		       sqlite3_vtab **vt, char **err)
{
	int rc;

	(void)aux, (void)argc, (void)argv, (void)err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(key INTEGER, iteration INTEGER, seq INTEGER,"
				  " value REAL, data HIDDEN, n HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	/* pure decoding: safe in views of a schema the user did not write */
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	*vt = sqlite3_malloc(sizeof(**vt));
	if (!*vt)
		return SQLITE_NOMEM;
	memset(*vt, 0, sizeof(**vt));
	return SQLITE_OK;
}

static int bvt_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* data must be given (an equality constraint); n is optional. */
static int bvt_best_index(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	int data = -1, n = -1;

	for (int i = 0; i < ii->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ii->aConstraint[i];

		if (c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		if (c->iColumn == COL_DATA)
			data = i;
		else if (c->iColumn == COL_N)
			n = i;
	}
	if (data < 0) {
		vt->zErrMsg = sqlite3_mprintf("mmb_samples(data[, n]) needs a block");
		return SQLITE_ERROR;
	}
	ii->aConstraintUsage[data].argvIndex = 1;
	ii->aConstraintUsage[data].omit = 1;
	if (n >= 0) {
		ii->aConstraintUsage[n].argvIndex = 2;
		ii->aConstraintUsage[n].omit = 1;
	}
	ii->idxNum = n >= 0;
	ii->estimatedCost = 100;
	ii->estimatedRows = 100;
	return SQLITE_OK;
}

static int bvt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **cur)
{
	struct bvt_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*cur = &c->base;
	return SQLITE_OK;
}

static int bvt_close(sqlite3_vtab_cursor *cur)
{
	struct bvt_cursor *c = (struct bvt_cursor *)cur;

	sqlite3_free(c->it);
	sqlite3_free(c->sq);
	sqlite3_free(c->val);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int bvt_sample(void *ctx, int64_t k, int iteration, int seq, double value)
{
	struct bvt_cursor *c = ctx;

	(void)k;
	if (c->n == c->alloc) {
		size_t a = c->alloc ? 2 * c->alloc : 256;
		int *it = sqlite3_realloc64(c->it, a * sizeof(int));
		int *sq = it ? sqlite3_realloc64(c->sq, a * sizeof(int)) : NULL;
		double *val = sq ? sqlite3_realloc64(c->val, a * sizeof(double)) : NULL;

		if (it)
			c->it = it;
		if (sq)
			c->sq = sq;
		if (!val)
			return SQLITE_NOMEM;
		c->val = val;
		c->alloc = a;
	}
	c->it[c->n] = iteration;
	c->sq[c->n] = seq;
	c->val[c->n++] = value;
	return 0;
}

static int bvt_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		      sqlite3_value **argv)
{
	struct bvt_cursor *c = (struct bvt_cursor *)cur;
	const char *why = "not a sample block";
	sqlite3_int64 n = 0;
	const void *data;
	int len, rc;

	(void)idxstr;
	c->n = c->pos = 0;
	if (argc < 1)
		return SQLITE_OK;
	if (idx && argc > 1) {
		n = sqlite3_value_int64(argv[1]);
		if (n < 1 || n > (sqlite3_int64)DB_BLOCK_MAX_N) {
			cur->pVtab->zErrMsg = sqlite3_mprintf("mmb_samples: n %lld out of range",
							      (long long)n);
			return SQLITE_ERROR;
		}
	}
	/*
	 * text keeps its NUL terminator, as the JSON decoder wants; NULL or
	 * an empty BLOB (no pointer) is refused by the decoder, not read as a
	 * block of no samples (a reader would drop the row without a word)
	 */
	if (sqlite3_value_type(argv[0]) == SQLITE_TEXT)
		data = sqlite3_value_text(argv[0]);
	else
		data = sqlite3_value_blob(argv[0]);
	len = sqlite3_value_bytes(argv[0]);
	rc = db_block_decode(data, (size_t)len, (size_t)n, bvt_sample, c, &why);
	if (rc == SQLITE_NOMEM)
		return SQLITE_NOMEM;
	if (rc) {
		cur->pVtab->zErrMsg = sqlite3_mprintf("mmb_samples: malformed sample block: %s", why);
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}

static int bvt_next(sqlite3_vtab_cursor *cur)
{
	((struct bvt_cursor *)cur)->pos++;
	return SQLITE_OK;
}

static int bvt_eof(sqlite3_vtab_cursor *cur)
{
	struct bvt_cursor *c = (struct bvt_cursor *)cur;

	return c->pos >= c->n;
}

static int bvt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct bvt_cursor *c = (struct bvt_cursor *)cur;

	if (col == COL_VALUE)
		sqlite3_result_double(ctx, c->val[c->pos]);
	else if (col == COL_KEY || col == COL_ITERATION || col == COL_SEQ)
		sqlite3_result_int64(ctx, col == COL_KEY ? (sqlite3_int64)c->pos :
				     col == COL_SEQ ? c->sq[c->pos] : c->it[c->pos]);
	else
		sqlite3_result_null(ctx);
	return SQLITE_OK;
}

static int bvt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct bvt_cursor *)cur)->pos;
	return SQLITE_OK;
}

static sqlite3_module bvt_module = {
	.xConnect = bvt_connect,
	.xBestIndex = bvt_best_index,
	.xDisconnect = bvt_disconnect,
	.xOpen = bvt_open,
	.xClose = bvt_close,
	.xFilter = bvt_filter,
	.xNext = bvt_next,
	.xEof = bvt_eof,
	.xColumn = bvt_column,
	.xRowid = bvt_rowid,
};

int db_block_vtab_register(sqlite3 *db)
{
	return sqlite3_create_module(db, "mmb_samples", &bvt_module, NULL);
}

#ifndef MMB_SQLITE_EXT
/* A block's samples decoded into c; why says what is wrong with it. */
static int block_read(sqlite3_value **argv, struct bvt_cursor *c, const char **why)
{
	sqlite3_int64 n = sqlite3_value_int64(argv[1]);
	const void *data;
	int rc;

	*why = "is not a sample block";
	if (sqlite3_value_type(argv[0]) == SQLITE_TEXT)
		data = sqlite3_value_text(argv[0]);
	else if (sqlite3_value_type(argv[0]) == SQLITE_BLOB)
		data = sqlite3_value_blob(argv[0]);
	else
		return -1;
	if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || n < 1 ||
	    n > (sqlite3_int64)DB_BLOCK_MAX_N) {
		*why = "has a sample count n out of range";
		return -1;
	}
	rc = db_block_decode(data, (size_t)sqlite3_value_bytes(argv[0]), (size_t)n, bvt_sample,
			     c, why);
	return rc == SQLITE_NOMEM ? SQLITE_NOMEM : rc ? -1 : 0;
}

static int no_sample(void *ctx, int64_t k, int iteration, int seq, double value)
{
	return 0;
}

/*
 * Why data (argv[0]) is not a sound block of n (argv[1]) samples, or NULL.
 * Decoded as block_read() does, same checks in the same order, but keeping
 * nothing: merge checks every block twice (source and target).
 */
static const char *block_bad(sqlite3_value **argv)
{
	sqlite3_int64 n = sqlite3_value_int64(argv[1]);
	const char *why = "is not a sample block";
	const void *data = NULL;
	bool typed = true;

	if (sqlite3_value_type(argv[0]) == SQLITE_TEXT)
		data = sqlite3_value_text(argv[0]);
	else if (sqlite3_value_type(argv[0]) == SQLITE_BLOB)
		data = sqlite3_value_blob(argv[0]);	/* NULL when empty: "no data" */
	else
		typed = false;
	if (typed && (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || n < 1 ||
		      n > (sqlite3_int64)DB_BLOCK_MAX_N))
		why = "has a sample count n out of range";
	else if (typed && !db_block_decode(data, (size_t)sqlite3_value_bytes(argv[0]), (size_t)n,
					  no_sample, NULL, &why))
		why = NULL;
	return why;
}

/* mmb_block_bad(data, n): NULL for a sound block of n samples, else why not. */
static void sql_block_bad(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *why = block_bad(argv);

	(void)argc;
	if (why)
		sqlite3_result_text(ctx, why, -1, SQLITE_STATIC);
	else
		sqlite3_result_null(ctx);
}

/*
 * mmb_block_n(data, n, id): n once the block proved to hold n samples,
 * else an SQL error naming block id, as every reader of samples words it.
 * A count (list runs) is then what compare would read, not a column a
 * crafted file can set to anything.
 */
static void sql_block_n(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *why = block_bad(argv);
	char *msg;

	(void)argc;
	if (!why) {
		sqlite3_result_int64(ctx, sqlite3_value_int64(argv[1]));
		return;
	}
	/* block_bad()'s own reasons are phrases ("is not ...", "has ..."), the decoder's nouns */
	msg = sqlite3_mprintf("sample block %lld %s%s", (long long)sqlite3_value_int64(argv[2]),
			      !strncmp(why, "is ", 3) || !strncmp(why, "has ", 4) ? "" :
			      "is not a valid block: ", why);
	sqlite3_result_error(ctx, msg ? msg : why, -1);
	sqlite3_free(msg);
}

/* mmb_block_pack(data, n): the block as binary; an error for a bad one */
static void sql_block_pack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct bvt_cursor c = { 0 };
	unsigned char *b = NULL;
	const char *why;
	size_t len = 0;
	int rc;

	(void)argc;
	rc = block_read(argv, &c, &why);
	if (!rc)
		b = db_block_encode(c.it, c.sq, c.val, c.n, &len, &why);
	if (rc == SQLITE_NOMEM)
		sqlite3_result_error_nomem(ctx);
	else if (!b)
		sqlite3_result_error(ctx, why, -1);
	else
		sqlite3_result_blob64(ctx, b, len, free);
	sqlite3_free(c.it);
	sqlite3_free(c.sq);
	sqlite3_free(c.val);
}

int db_block_sql_register(sqlite3 *db)
{
	static const struct {
		const char *name;
		int nargs;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} fns[] = {
		{ "mmb_block_bad", 2, sql_block_bad },
		{ "mmb_block_pack", 2, sql_block_pack },
		{ "mmb_block_n", 3, sql_block_n },
	};
	int fl = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs, fl, NULL, fns[i].fn,
					       NULL, NULL, NULL) != SQLITE_OK)
			return SQLITE_ERROR;
	return db_block_vtab_register(db);
}
#endif

#ifdef MMB_SQLITE_EXT
/* block.c's encoder wants it; the extension only decodes */
void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

__attribute__((visibility("default")))
int sqlite3_mmbsamples_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
	(void)err;
	SQLITE_EXTENSION_INIT2(api);
	return db_block_vtab_register(db);
}
#endif
