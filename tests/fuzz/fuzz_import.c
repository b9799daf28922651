/*
 * libFuzzer target: `mmbench import` input, CSV (RFC 4180) and lkp
 * matrix.json, through the same static functions cmd_import() uses (the
 * command file is included so nothing has to be exported for the fuzzer).
 * Rows go into an in-memory database inside a transaction that is rolled
 * back after each input.
 */
#include "../../harness/builtin-import.c"

#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mmb_db fdb;
static int64_t fuzz_run_id;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct kernel_info k = { .label = "fuzz" };
	struct run_info ri = { 0 };

	(void)argc;
	(void)argv;
	if (db_open(&fdb, ":memory:"))
		abort();
	ri.kernel_id = db_kernel_upsert(&fdb, &k);
	ri.config_path = "fuzz";
	ri.accel = "import";
	ri.experiment = "import";
	ri.harness_version = MMB_VERSION;
	ri.git_sha = MMB_GIT_SHA;
	if (ri.kernel_id < 0 || (fuzz_run_id = db_run_begin(&fdb, &ri)) < 0)
		abort();
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
	if (sqlite3_prepare_v2(fdb.sql,
			       "INSERT INTO iterations (run_id, workload, variant, params, iteration,"
			       " warmup, status) VALUES (?1, ?2, ?3, ?3, ?4, 0, 'ok')",
			       -1, &im.ins_iter, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(fdb.sql,
			       "INSERT INTO samples (run_id, iteration_id, workload, variant,"
			       " metric, unit, better, iteration, seq, value)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?)", -1, &im.ins_sample, NULL) != SQLITE_OK)
		abort();
	ret = looks_like_json(buf, size) ? import_matrix(&im, buf, size)
					 : import_csv(&im, buf, size);
	/* accepted input recorded something; rejected input said why (-2) */
	if (ret == 0 && !im.nsamples)
		abort();
	if (ret != 0 && ret != -2)
		abort();	/* -1 would be a database failure: not the input's fault */
	sqlite3_finalize(im.ins_iter);
	sqlite3_finalize(im.ins_sample);
	if (db_rollback(&fdb))
		abort();
	smap_release(&im.metrics);
	smap_release(&im.iters);
	strbuf_release(&im.key);
	free(buf);
	return 0;
}
