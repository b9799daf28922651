/* Results database: schema migrations, kill-safety settings, round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "db-internal.h"	/* the tests look inside with SQL */
#include "capture.h"
#include "db.h"
#include "read.h"
#include "util.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *tmp_db(void)
{
	char tmpl[] = "/tmp/mmb-db-XXXXXX";
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	close(fd);
	unlink(tmpl);
	return xstrdup(tmpl);
}

static void rm_db(char *path)
{
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);

	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	free(path);
}

static int scalar_int(struct mmb_db *db, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_prepare_v2(db->c->sql, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void test_fresh_db_is_migrated(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	sqlite3_stmt *st;

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM sqlite_master WHERE name IN"
				    " ('kernels','machines','runs','run_env','iterations','samples','monitors')"), 7);
	assert_int_equal(sqlite3_prepare_v2(db.c->sql, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	db_close(&db);
	/* reopening is a no-op */
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	db_close(&db);
	rm_db(path);
}

static void test_migrates_step_by_step(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	sqlite3 *raw;

	(void)s;
	/* an empty file at version 0 gets every migration, in order */
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 0", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	db_close(&db);
	rm_db(path);
}

static void test_rejects_newer_schema(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	sqlite3 *raw;
	char sql[64];

	(void)s;
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", db_nr_migrations + 5);
	assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(db_open(&db, path), -1);
	rm_db(path);
}

static void test_rejects_negative_schema(void **s)
{
	char *path = tmp_db(), *msg;
	struct mmb_db db;
	struct capture c;
	sqlite3 *raw;

	(void)s;
	/* user_version is anyone's to set: -1 is said to be -1, not "not an error" */
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = -1", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	capture_begin(&c);
	assert_int_equal(db_open(&db, path), -1);
	msg = capture_end(&c);
	assert_non_null(strstr(msg, "schema version -1 is not one mmbench writes"));
	assert_null(strstr(msg, "not an error"));
	free(msg);
	rm_db(path);
}

static void test_failed_migration_rolls_back(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	sqlite3 *raw;

	(void)s;
	/* a table in the way makes migration 1 fail: nothing half-applied */
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "CREATE TABLE samples (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(db_open(&db, path), -1);
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	{
		sqlite3_stmt *st;

		sqlite3_prepare_v2(raw, "SELECT count(*) FROM sqlite_master WHERE name = 'kernels'",
				   -1, &st, NULL);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 0);
		sqlite3_finalize(st);
		sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &st, NULL);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(raw);
	rm_db(path);
}

static void test_labels_round_trip(void **s)
{
	static const char *labels[] = {
		"6.12.0-rc1", "it's \"quoted\"", "a b; rm -rf / $(reboot) `id`",
		"\xff\xfe not utf-8", "'; DROP TABLE kernels; --",
	};
	/* a control character would start a line in a plot script: never stored */
	static const char *refused[] = { "line\nbreak", "tab\there", "esc\x1b[31m", "del\x7f" };
	char *path = tmp_db();
	struct mmb_db db;

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++) {
		struct kernel_info k = { .label = labels[i], .release = "6.12" };
		int64_t id = db_kernel_upsert(&db, &k);

		assert_true(id > 0);
		assert_int_equal(db_kernel_find(&db, labels[i]), id);
		/* upsert of the same label keeps the id */
		assert_int_equal(db_kernel_upsert(&db, &k), id);
	}
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		struct kernel_info k = { .label = refused[i], .release = "6.12" };

		assert_int_equal(db_kernel_upsert(&db, &k), -1);
		assert_true(db_series_id(&db, "w", "", refused[i], "", 1) < 0);
		assert_true(db_series_id(&db, refused[i], "", "m", "", 1) < 0);
	}
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM kernels"), (int)ARRAY_SIZE(labels));
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM series"), 0);
	db_close(&db);
	rm_db(path);
}

static void test_iteration_with_samples(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	struct kernel_info k = { .label = "k" };
	struct run_info r = { 0 };
	struct sample_info smp[2] = {
		{ .metric = "faults/sec", .unit = "faults/s", .better = 1, .seq = 0, .value = 1.5 },
		{ .metric = "faults/cpu", .unit = "faults/cpu-s", .better = 1, .seq = 0, .value = 2.5 },
	};
	const char *keys[] = { "vmstat:pgfault", "meminfo:MemFree" };
	double deltas[] = { 100, -4096 };
	struct iteration_info it = { .workload = "pft", .variant = "clients=1", .iteration = 1,
				     .status = "ok" };
	struct iteration_info warm = it;
	int64_t run;

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	run_info_init(&r, db_kernel_upsert(&db, &k), "e", "e.yaml", "host");
	run = db_run_begin(&db, &r);
	assert_true(run > 0);
	/* every run row says which mmbench wrote it */
	{
		char *sql = xasprintf("SELECT harness_version = '%s' AND git_sha = '%s' AND"
				      " experiment = 'e' AND config_path = 'e.yaml' AND"
				      " accel = 'host' FROM runs", mmb_version, mmb_git_sha);

		assert_int_equal(scalar_int(&db, sql), 1);
		free(sql);
	}
	it.run_id = warm.run_id = run;
	assert_true(db_iteration_add(&db, &it, smp, 2, keys, deltas, 2, "vmstat") > 0);
	warm.warmup = true;
	warm.iteration = -1;
	/* warm-up samples are never stored */
	assert_true(db_iteration_add(&db, &warm, smp, 2, NULL, NULL, 0, NULL) > 0);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM samples"), 2);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM iterations"), 2);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM monitors WHERE source = 'meminfo' AND key = 'MemFree' AND delta = -4096"), 1);
	assert_int_equal(scalar_int(&db, "SELECT status = 'running' FROM runs"), 1);
	assert_int_equal(db_run_finish(&db, run, "complete"), 0);
	assert_int_equal(scalar_int(&db, "SELECT status = 'complete' FROM runs"), 1);
	db_close(&db);
	rm_db(path);
}

/* A version-1 database (a row per sample, text repeated) keeps every sample. */
static void test_migration_keeps_samples(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	sqlite3 *raw;
	sqlite3_stmt *st;
	const char *old_rows =
		"INSERT INTO kernels (id, label) VALUES (1, 'k');"
		"INSERT INTO runs (id, kernel_id, status) VALUES (1, 1, 'complete');"
		"INSERT INTO iterations (id, run_id, workload, variant, iteration, status)"
		" VALUES (7, 1, 'pft', 'clients=1', 1, 'ok');"
		"INSERT INTO samples VALUES (10, 1, 7, 'pft', 'clients=1', 'faults/s', 'f/s', 1, 1, 0, 1.5);"
		"INSERT INTO samples VALUES (11, 1, 7, 'pft', 'clients=1', 'faults/s', 'f/s', 1, 1, 1, 2.5);"
		"INSERT INTO samples VALUES (12, 1, 7, 'pft', 'clients=1', 'sys', NULL, -1, 1, 0, 0.25);";

	(void)s;
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, db_migrations[0], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, old_rows, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);

	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM series"), 2);
	assert_int_equal(sqlite3_prepare_v2(db.c->sql, "SELECT group_concat(id || ':' || iteration_id"
					    " || ':' || workload || ':' || variant || ':' || metric || ':'"
					    " || coalesce(unit, 'NULL') || ':' || better || ':' || seq || ':'"
					    " || value, ' ') FROM (SELECT * FROM samples ORDER BY id)",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	/*
	 * The ended run's rows are packed (migration 11): a block a series,
	 * its samples' ids 2^62 + block id * 2^24 + index, and the view finds
	 * iteration 7 again by its number.
	 */
	assert_string_equal((const char *)sqlite3_column_text(st, 0),
			    "4611686018444165120:7:pft:clients=1:faults/s:f/s:1:0:1.5"
			    " 4611686018444165121:7:pft:clients=1:faults/s:f/s:1:1:2.5"
			    " 4611686018460942336:7:pft:clients=1:sys:NULL:-1:0:0.25");
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM sample_values"), 0);
	sqlite3_finalize(st);
	/* new samples of an old series reuse its id */
	{
		struct sample_info smp = { .metric = "sys", .unit = NULL, .better = -1, .value = 1 };
		struct iteration_info it = { .run_id = 1, .workload = "pft", .variant = "clients=1",
					     .iteration = 2, .status = "ok" };

		assert_true(db_iteration_add(&db, &it, &smp, 1, NULL, NULL, 0, NULL) > 0);
	}
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM series"), 2);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM samples WHERE metric = 'sys'"), 2);
	db_close(&db);
	rm_db(path);
}

/* Packed blocks (import) and rows (runner) read back alike through the view. */
static void test_blocks_through_view(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	struct kernel_info k = { .label = "k" };
	struct run_info r = { 0 };
	int64_t run, sid;
	char sql[256];

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	r.kernel_id = db_kernel_upsert(&db, &k);
	run = db_run_begin(&db, &r);
	sid = db_series_id(&db, "aim9", "", "ops", "ops/s", 1);
	assert_true(sid > 0);
	assert_int_equal(db_series_id(&db, "aim9", "", "ops", "ops/s", 1), sid);
	assert_true(db_series_id(&db, "aim9", "", "ops", "ops/s", -1) != sid);
	snprintf(sql, sizeof(sql), "INSERT INTO sample_blocks (run_id, series_id, n, data)"
		 " VALUES (%lld, %lld, 3, '[[1,0,10],[2,0,1.25e2],[2,1,-0.5]]')",
		 (long long)run, (long long)sid);
	assert_int_equal(db_exec(&db, sql), 0);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM samples WHERE workload = 'aim9'"
				    " AND unit = 'ops/s' AND iteration_id IS NULL"), 3);
	assert_int_equal(scalar_int(&db, "SELECT sum(value) * 10 FROM samples"), 1345);
	assert_int_equal(scalar_int(&db, "SELECT group_concat(iteration || '.' || seq) = '1.0,2.0,2.1'"
				    " FROM (SELECT * FROM samples ORDER BY id)"), 1);
	assert_int_equal(scalar_int(&db, "SELECT count(*) FROM samples WHERE typeof(value) = 'real'"), 3);
	db_close(&db);
	rm_db(path);
}

static void test_dead_run_marked_interrupted(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	struct kernel_info k = { .label = "k" };
	struct run_info r = { 0 };
	int64_t run;
	char sql[128];

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	r.kernel_id = db_kernel_upsert(&db, &k);
	run = db_run_begin(&db, &r);
	/* pretend the run belonged to a process that is gone */
	snprintf(sql, sizeof(sql), "UPDATE runs SET pid = 999999999 WHERE id = %lld", (long long)run);
	assert_int_equal(db_exec(&db, sql), 0);
	db_close(&db);
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(scalar_int(&db, "SELECT status = 'interrupted' FROM runs"), 1);
	db_close(&db);
	rm_db(path);
}

/* The pooling rule, in C and in db/'s SQL, and the counts run and ab ask for. */
static void test_usable_runs(void **s)
{
	static const char *const status[] = { "complete", "interrupted", "failed", "running",
					      "complete" };
	char *path = tmp_db(), *prev;
	struct mmb_db db;
	struct kernel_info a = { .label = "a" }, b = { .label = "b" };
	struct run_info r = { .config_text = "x", .accel = "kvm" };
	struct strbuf accels = STRBUF_INIT;
	int n;

	(void)s;
	assert_true(db_run_usable("complete") && db_run_usable("interrupted"));
	assert_false(db_run_usable("failed") || db_run_usable("running") || db_run_usable(NULL));
	assert_int_equal(db_open(&db, path), 0);
	r.kernel_id = db_kernel_upsert(&db, &a);
	for (size_t i = 0; i < ARRAY_SIZE(status); i++) {
		int64_t run = db_run_begin(&db, &r);

		assert_true(run > 0);
		/* 'running' is kept: this process is alive, so open leaves it be */
		assert_int_equal(db_run_finish(&db, run, status[i]), 0);
	}
	r.kernel_id = db_kernel_upsert(&db, &b);
	r.accel = "tcg";
	assert_int_equal(db_run_finish(&db, db_run_begin(&db, &r), "failed"), 0);
	assert_int_equal(db_count_usable(&db, "a", &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(db_count_rounds(&db, "a", "x", "kvm", &n), 0);
	assert_int_equal(n, 2);		/* complete only */
	assert_int_equal(db_count_rounds(&db, "a", "y", "kvm", &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(db_usable_accels(&db, "a", "b", &accels, &n), 0);
	assert_int_equal(n, 1);		/* b's tcg run failed: not pooled */
	assert_string_equal(accels.buf, "kvm");
	/* b has no usable run, so a is the previous label for b, nothing for a */
	assert_int_equal(db_previous_label(&db, "b", &prev), 0);
	assert_string_equal(prev, "a");
	free(prev);
	assert_int_equal(db_previous_label(&db, "a", &prev), 0);
	assert_null(prev);
	strbuf_release(&accels);
	db_close(&db);
	rm_db(path);
}

/* db_read_list: a row function that keeps strings, and counts what it is given back. */
static int nreleased;

static int read_text(sqlite3_stmt *st, struct db_list *l, void *arg)
{
	char **s = db_list_add(l);
	const int *stop_at = arg;

	*s = db_col_str(st, 0);
	if (stop_at && l->n == (size_t)*stop_at)
		return error("row %zu: stop", l->n);
	return 0;
}

static void release_text(void *elem)
{
	free(*(char **)elem);
	nreleased++;
}

/* 1..40, but row `bad` is abs(INT64_MIN): an integer overflow while stepping. */
static sqlite3_stmt *count_to_40(struct mmb_db *db, int bad)
{
	sqlite3_stmt *st;

	assert_int_equal(db_prepare(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL"
				    " SELECT x + 1 FROM c WHERE x < 40)"
				    " SELECT CASE WHEN x = ?1 THEN abs(-9223372036854775807 - 1)"
				    " ELSE x END FROM c", &st), 0);
	sqlite3_bind_int(st, 1, bad);
	return st;
}

/*
 * Every row in order; a step error or the row function's error after more
 * rows than the first allocation holds gives all of them back (ASan sees
 * a leak), the list empty, the error said once.
 */
static void test_read_list(void **s)
{
	char *path = tmp_db(), *msg;
	struct db_list l = { .size = sizeof(char *) };
	struct mmb_db db;
	struct capture c;
	int stop = 20;

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_read_list(&db, count_to_40(&db, 0), read_text, NULL, release_text, &l), 0);
	assert_int_equal(l.n, 40);
	assert_string_equal(((char **)l.v)[0], "1");
	assert_string_equal(((char **)l.v)[39], "40");
	/* rows append: a second query adds to the list */
	assert_int_equal(db_read_list(&db, count_to_40(&db, 0), read_text, NULL, release_text, &l), 0);
	assert_int_equal(l.n, 80);
	assert_string_equal(((char **)l.v)[40], "1");
	nreleased = 0;
	db_list_free(l.v, l.n, l.size, release_text);
	assert_int_equal(nreleased, 80);

	l = (struct db_list){ .size = sizeof(char *) };
	nreleased = 0;
	capture_begin(&c);
	assert_int_equal(db_read_list(&db, count_to_40(&db, 30), read_text, NULL, release_text, &l),
			 -1);
	msg = capture_end(&c);
	assert_non_null(strstr(msg, "integer overflow"));
	assert_ptr_equal(strchr(msg, '\n'), msg + strlen(msg) - 1);	/* one line */
	free(msg);
	assert_int_equal(nreleased, 29);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.size, sizeof(char *));

	nreleased = 0;
	capture_begin(&c);
	assert_int_equal(db_read_list(&db, count_to_40(&db, 0), read_text, &stop, release_text, &l),
			 -1);
	msg = capture_end(&c);
	assert_string_equal(msg, "error: row 20: stop\n");
	free(msg);
	assert_int_equal(nreleased, 20);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	db_close(&db);
	rm_db(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_db_is_migrated),
		cmocka_unit_test(test_migrates_step_by_step),
		cmocka_unit_test(test_rejects_newer_schema),
		cmocka_unit_test(test_rejects_negative_schema),
		cmocka_unit_test(test_failed_migration_rolls_back),
		cmocka_unit_test(test_labels_round_trip),
		cmocka_unit_test(test_iteration_with_samples),
		cmocka_unit_test(test_migration_keeps_samples),
		cmocka_unit_test(test_blocks_through_view),
		cmocka_unit_test(test_dead_run_marked_interrupted),
		cmocka_unit_test(test_usable_runs),
		cmocka_unit_test(test_read_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
