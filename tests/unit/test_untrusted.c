/*
 * Issue 27: inputs from elsewhere.  Databases a reader opens are never
 * changed and must have our schema; names hold no control characters;
 * Slurm job ids are numbers; statistics of values near DBL_MAX do not
 * overflow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "db-internal.h"
#include "blockvt.h"
#include "capture.h"
#include "db.h"
#include "envctl.h"
#include "fleet.h"
#include "levels.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_path(void)
{
	char tmpl[] = "/tmp/mmb-untrusted-XXXXXX";
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	close(fd);
	unlink(tmpl);
	return xstrdup(tmpl);
}

static char *file_hash(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[65];

	assert_int_equal(strbuf_read_file(&sb, path), (int)sb.len);
	sha256_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

/* A schema-3 database as an older mmbench left it, with a run of a dead process. */
static char *old_db(void)
{
	char *path = tmp_path();
	sqlite3 *raw;

	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	for (int v = 0; v < 3; v++)
		assert_int_equal(sqlite3_exec(raw, db_migrations[v], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 3;"
				      "INSERT INTO kernels (id, label) VALUES (1, 'k');"
				      "INSERT INTO runs (id, kernel_id, status, pid, host)"
				      " VALUES (1, 1, 'running', 999999999, NULL);",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	return path;
}

static void test_reader_never_writes(void **s)
{
	char *path = old_db(), *before = file_hash(path), *after, *wal;
	struct mmb_db db;
	sqlite3_stmt *st;

	(void)s;
	chmod(path, 0444);
	assert_int_equal(db_open_existing(&db, path), 0);
	/* migrated in memory: the current schema, the dead run shown interrupted */
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	assert_int_equal(sqlite3_prepare_v2(db.c->sql, "SELECT status FROM runs WHERE id = 1", -1,
					    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "interrupted");
	sqlite3_finalize(st);
	db_close(&db);
	after = file_hash(path);
	assert_string_equal(before, after);
	wal = xasprintf("%s-wal", path);
	assert_int_equal(access(wal, F_OK), -1);
	free(wal);
	free(before);
	free(after);
	unlink(path);
	free(path);
}

static void test_hostile_schema_refused(void **s)
{
	static const char *const evil[] = {
		/* the hang: a runs view over an endless recursive CTE */
		"ALTER TABLE runs RENAME TO runs_real; CREATE VIEW runs AS WITH RECURSIVE c(x) AS"
		" (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id FROM c;",
		"CREATE TRIGGER t AFTER INSERT ON series BEGIN SELECT 1; END;",
		"CREATE TABLE extra (a);",
		"DROP INDEX runs_by_uuid;",
	};

	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(evil); i++) {
		char *path = tmp_path(), *msg;
		struct mmb_db db;
		sqlite3 *raw;
		struct capture c;

		assert_int_equal(db_open(&db, path), 0);
		db_close(&db);
		assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
		/* ALTER TABLE re-reads every view: the samples view's function must exist */
		assert_int_equal(db_block_vtab_register(raw), SQLITE_OK);
		assert_int_equal(sqlite3_exec(raw, evil[i], NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(raw);
		capture_begin(&c);
		assert_int_equal(db_open_existing(&db, path), -1);
		assert_int_equal(db_open(&db, path), -1);
		msg = capture_end(&c);
		assert_non_null(strstr(msg, "not a database mmbench wrote"));
		free(msg);
		unlink(path);
		free(path);
	}
}

static void test_names(void **s)
{
	char *e;

	(void)s;
	assert_null(name_ctl("a b\xff;$(x)"));
	assert_non_null(name_ctl("a\nb"));
	assert_non_null(name_ctl("a\x7f"));
	e = ctl_escape("m\nsystem(\"id\")\t\x1b");
	assert_string_equal(e, "m\\nsystem(\"id\")\\t\\x1b");
	free(e);
	/* issue 42: C1 controls, U+2028 and U+2029 are controls too; bytes
	   that are not UTF-8 are still a name's own (shown escaped), and UTF-8
	   text is no control */
	assert_non_null(name_ctl("a\xc2\x85"));
	assert_non_null(name_ctl("a\xc2\x9b" "31m"));
	assert_null(name_ctl("a\x9b" "31m"));
	assert_non_null(name_ctl("a\xe2\x80\xa8"));
	assert_non_null(name_ctl("a\xe2\x80\xa9"));
	assert_null(name_ctl("caf\xc3\xa9 \xc5\x91 \xe2\x82\xac \xf0\x9f\x90\xa7"));
	assert_null(name_ctl("latin1 \xb1 \xff\xfe"));
	assert_int_equal(name_check("label", "a\xe2\x80\xa8"), -1);
}

/* Issue 42 item 3: what a person is shown is UTF-8 without a control. */
static void test_text_escape(void **s)
{
	static const struct { const char *in, *line, *lines; } t[] = {
		{ "plain caf\xc3\xa9", "plain caf\xc3\xa9", "plain caf\xc3\xa9" },
		{ "a\x1b[31mb\x07", "a\\x1b[31mb\\x07", "a\\x1b[31mb\\x07" },
		{ "h\nSubject: x\tt", "h\\nSubject: x\\tt", "h\nSubject: x\tt" },
		{ "crlf\r\nover\rx", "crlf\\r\\nover\\rx", "crlf\r\nover\\rx" },
		{ "c1 \xc2\x9b" "31m \xc2\x85", "c1 \\u009b31m \\u0085", "c1 \\u009b31m \\u0085" },
		{ "ls \xe2\x80\xa8 ps \xe2\x80\xa9", "ls \\u2028 ps \\u2029", "ls \\u2028 ps \\u2029" },
		{ "raw \x9b" "1m \xb1 \xe2\x80", "raw \\x9b1m \\xb1 \\xe2\\x80", "raw \\x9b1m \\xb1 \\xe2\\x80" },
		{ "del\x7f \xc0\xaf \xed\xa0\x80", "del\\x7f \\xc0\\xaf \\xed\\xa0\\x80",
		  "del\\x7f \\xc0\\xaf \\xed\\xa0\\x80" },
	};

	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *a = text_escape(t[i].in, false), *b = text_escape(t[i].in, true);

		assert_string_equal(a, t[i].line);
		assert_string_equal(b, t[i].lines);
		assert_null(text_ctl(a, false));
		assert_null(text_ctl(b, true));
		assert_true(!text_ctl(t[i].in, false) == !strcmp(a, t[i].in));
		assert_string_equal(ctl_show(t[i].in), a);
		free(a);
		free(b);
	}
}

static void test_csv_formula_guard(void **s)
{
	static const char *const in[] = { "=1+2", "-x", "@SUM(A1)", "+a", "'=x", "plain", "a,b", "'q" };
	static const char *const out[] = { "\"'=1+2\"", "\"'-x\"", "\"'@SUM(A1)\"", "\"'+a\"",
					   "\"''=x\"", "plain", "\"a,b\"", "'q" };
	struct strbuf sb = STRBUF_INIT;

	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		strbuf_reset(&sb);
		strbuf_add_csv(&sb, in[i]);
		assert_string_equal(sb.buf, out[i]);
	}
	strbuf_release(&sb);
}

/* item 12: the hot-added zram device is journaled for removal; nothing else of zram-control is */
static void test_zram_hot_remove_journaled(void **s)
{
	(void)s;
	assert_true(envctl_knob_allowed("/sys/class/zram-control/hot_remove"));
	assert_false(envctl_knob_allowed("/sys/class/zram-control/hot_add"));
	assert_false(envctl_knob_allowed("/sys/class/zram-control/hot_remove/../x"));
}

static void test_job_ids(void **s)
{
	(void)s;
	assert_true(fleet_job_id_valid("123"));
	assert_true(fleet_job_id_valid("123_4"));
	assert_false(fleet_job_id_valid("-uroot"));
	assert_false(fleet_job_id_valid("--user=root"));
	assert_false(fleet_job_id_valid("12abc"));
	assert_false(fleet_job_id_valid("12_"));
	assert_false(fleet_job_id_valid("_1"));
	assert_false(fleet_job_id_valid(""));
}

static void test_huge_values(void **s)
{
	const double x[] = { 1.7e308, 1.7e308, 1.6e308, 1.6e308 };
	const double tiny[] = { 4.9e-324, 4.9e-324 };
	struct stats_summary sum;

	(void)s;
	stats_summarise(x, ARRAY_SIZE(x), -1, &sum);
	assert_true(isfinite(sum.amean));
	assert_true(fabs(sum.amean - 1.65e308) < 1e294);
	assert_true(isfinite(sum.stddev) && sum.stddev > 5e306 && sum.stddev < 6e306);
	assert_true(isfinite(sum.coeffvar));
	assert_true(isfinite(sum.gmean) && isfinite(sum.hmean));
	stats_summarise(tiny, ARRAY_SIZE(tiny), -1, &sum);
	assert_true(sum.amean == 4.9e-324);
	/* the test too: 1.7e308 vs 1.6e308 is the same test as 1.7 vs 1.6 */
	{
		const double b[] = { 1.7e308, 1.71e308, 1.69e308 }, n[] = { 1.6e308, 1.61e308, 1.59e308 };
		const double bs[] = { 1.7, 1.71, 1.69 }, ns[] = { 1.6, 1.61, 1.59 };
		const int64_t rb[] = { 1, 2, 3 }, rn[] = { 4, 5, 6 };
		const struct stats_side sb = { b, rb, 3 }, sn = { n, rn, 3 };
		struct stats_test t, ts;
		struct stats_level_info li;

		assert_int_equal(stats_welch(b, 3, n, 3, &t), 0);
		assert_int_equal(stats_welch(bs, 3, ns, 3, &ts), 0);
		assert_true(isfinite(t.p) && fabs(t.p - ts.p) < 1e-9 * ts.p);
		assert_true(isfinite(t.diff_lo) && isfinite(t.diff_hi) && t.diff_hi < 0);
		assert_true(fabs(t.rel - ts.rel) < 1e-9);
		assert_int_equal(stats_test_levels(STATS_WELCH, STATS_AMEAN, &sb, &sn, -1,
						   STATS_UNIT_AUTO, &t, &li), 0);
		assert_true(isfinite(t.rel_lo) && isfinite(t.rel_hi) && t.rel_hi < 0);
		assert_true(fabs(t.rel - 100 * (1.6 / 1.7 - 1)) < 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_never_writes),
		cmocka_unit_test(test_hostile_schema_refused),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_text_escape),
		cmocka_unit_test(test_csv_formula_guard),
		cmocka_unit_test(test_job_ids),
		cmocka_unit_test(test_zram_hot_remove_journaled),
		cmocka_unit_test(test_huge_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
