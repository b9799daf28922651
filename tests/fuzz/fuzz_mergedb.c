/*
 * libFuzzer target: a database file from elsewhere merged into ours
 * (`mmbench merge`, `fleet collect`), through db_merge_file().  The input
 * is the file's bytes; the seed (tests/fuzz/corpus/mergedb/) is a small
 * database mmbench wrote, so mutations hit its pages, its schema and its
 * rows.  Every file is written inside one private folder.  After each
 * input the target must still hold only what the merge promises: finite
 * values, labels and names without control characters.  (Mutations are
 * byte-level, which covers pages and, in the schema's page, the SQL text.)
 */
#include "db.h"
#include "db-internal.h"
#include "merge-file.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mmb_db mdb;
static char mdb_dir[4096], mdb_src[4200];
static unsigned mdb_inputs;

static void mdb_target_open(void)
{
	if (mdb.c)
		db_close(&mdb);
	if (db_open(&mdb, ":memory:"))
		abort();
}

static const char *const mdb_suffix[] = { "", "-wal", "-shm", "-journal" };

static void mdb_src_remove(void)
{
	for (size_t i = 0; i < sizeof(mdb_suffix) / sizeof(mdb_suffix[0]); i++) {
		char p[4300];

		snprintf(p, sizeof(p), "%s%s", mdb_src, mdb_suffix[i]);
		unlink(p);
	}
}

/* the folder goes at exit: nothing is left behind, nothing written elsewhere */
static void mdb_dir_remove(void)
{
	mdb_src_remove();
	rmdir(mdb_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *t = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(mdb_dir, sizeof(mdb_dir), "%s/mmbench-fuzz-mergedb-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(mdb_dir))
		abort();
	snprintf(mdb_src, sizeof(mdb_src), "%s/mdb_src.db", mdb_dir);
	atexit(mdb_dir_remove);
	mmb_quiet = 1;
	mdb_target_open();
	return 0;
}

static int64_t mdb_count(const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(mdb.c->sql, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct db_merge_result res = { 0 };
	FILE *f = fopen(mdb_src, "we");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	/* refused or merged, never a crash, a hang or a write to mdb_src */
	db_merge_file(&mdb, mdb_src, NULL, &res);
	if (mdb_count("SELECT count(*) FROM sample_values WHERE typeof(value) NOT IN ('integer', 'real')"
		  " OR abs(value) > 1.7976931348623157e308") ||
	    mdb_count("SELECT count(*) FROM kernels WHERE label = '' OR mmb_ctl(label)") ||
	    mdb_count("SELECT count(*) FROM series WHERE mmb_ctl(workload) OR mmb_ctl(variant)"
		  " OR mmb_ctl(metric) OR mmb_ctl(unit)"))
		abort();
	mdb_src_remove();
	/* a fresh target now and then: merged runs pile up */
	if (++mdb_inputs % 1000 == 0)
		mdb_target_open();
	return 0;
}
