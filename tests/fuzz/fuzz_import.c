/*
 * libFuzzer target: `mmbench import` input, CSV (RFC 4180) and lkp
 * matrix.json, through the same functions cmd_import() calls
 * (db/importfmt.h).  Blocks go into an in-memory database inside
 * a transaction that is rolled back after each input.
 */
#include "db.h"
#include "db-internal.h"
#include "importfmt.h"
#include "version.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mmb_db fdb;
static int64_t fuzz_run_id;
static sqlite3_stmt *count_st;

/*
 * SQLite (a system library, not what is fuzzed here) allocates through
 * glibc directly: through ASan's interceptors its mallocs were ~3/4 of
 * the run time.  A size header serves xSize.
 */
void *__libc_malloc(size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);

static void *sq_malloc(int n)
{
	uint64_t *p = __libc_malloc((size_t)n + 8);

	if (!p)
		return NULL;
	*p = (uint64_t)n;
	return p + 1;
}

static void sq_free(void *p)
{
	if (p)
		__libc_free((uint64_t *)p - 1);
}

static void *sq_realloc(void *p, int n)
{
	uint64_t *q = __libc_realloc((uint64_t *)p - 1, (size_t)n + 8);

	if (!q)
		return NULL;
	*q = (uint64_t)n;
	return q + 1;
}

static int sq_size(void *p) { return p ? (int)((uint64_t *)p)[-1] : 0; }
static int sq_roundup(int n) { return (n + 7) & ~7; }
static int sq_init(void *x) { (void)x; return SQLITE_OK; }
static void sq_shutdown(void *x) { (void)x; }

static const sqlite3_mem_methods libc_mem = {
	sq_malloc, sq_free, sq_realloc, sq_size, sq_roundup, sq_init, sq_shutdown, NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct kernel_info k = { .label = "fuzz" };
	struct run_info ri = { 0 };

	(void)argc;
	(void)argv;
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &libc_mem) != SQLITE_OK)
		abort();
	if (db_open(&fdb, ":memory:"))
		abort();
	ri.kernel_id = db_kernel_upsert(&fdb, &k);
	ri.config_path = "fuzz";
	ri.accel = "import";
	ri.experiment = "import";
	ri.harness_version = mmb_version;
	ri.git_sha = mmb_git_sha;
	if (ri.kernel_id < 0 || (fuzz_run_id = db_run_begin(&fdb, &ri)) < 0)
		abort();
	if (sqlite3_prepare_v2(fdb.c->sql, "SELECT count(*) FROM samples WHERE run_id = ?",
			       -1, &count_st, NULL) != SQLITE_OK)
		abort();
	sqlite3_bind_int64(count_st, 1, fuzz_run_id);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct importer im = { 0 };
	/* exact size, no terminator: the parsers are given (buf, len) */
	char *buf = malloc(size ? size : 1);
	int ret;

	memcpy(buf, data, size);
	im.db = &fdb;
	im.file = "fuzz";
	im.run_id = fuzz_run_id;
	if (db_begin(&fdb))
		abort();
	if (importer_prepare(&im))
		abort();
	ret = import_looks_like_json(buf, size) ? import_matrix(&im, buf, size)
					 : import_csv(&im, buf, size);
	/* accepted input recorded something; rejected input said why (-2) */
	if (ret == 0 && !im.nsamples)
		abort();
	if (ret != 0 && ret != -2)
		abort();	/* -1 would be a database failure: not the input's fault */
	if (ret == 0 && importer_flush(&im))
		abort();
	/* what was accepted reads back through the samples view, every sample */
	if (ret == 0) {
		if (sqlite3_step(count_st) != SQLITE_ROW ||
		    (size_t)sqlite3_column_int64(count_st, 0) != im.nsamples)
			abort();
		sqlite3_reset(count_st);
	}
	importer_release(&im);
	if (db_rollback(&fdb))
		abort();
	free(buf);
	return 0;
}
