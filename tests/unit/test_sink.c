/*
 * db/sink.c: the sqlite sink and the stream sink give the same rows.
 * Records go through both; the stream is merged into a second DB with
 * merge_feed(), as a guest's stream is on the host, and the two DBs'
 * iterations, samples, monitors (with the interference record),
 * run_env, series (with the typed variant) and profiles are compared.  The whole run as a VM guest sends it (run row,
 * environment set and found, iterations, final status) also goes through
 * a pipe and is merged in odd-sized pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db-internal.h"	/* the tests look inside with SQL */
#include "db.h"
#include "guest-stream.h"
#include "proc.h"
#include "sink.h"
#include "util.h"

static char dir[] = "/tmp/mmb-test-sink-XXXXXX";

static int64_t new_run(struct mmb_db *db, const char *path, const char *label)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { .accel = "host" };

	assert_int_equal(db_open(db, path), 0);
	r.kernel_id = db_kernel_upsert(db, &k);
	return db_run_begin(db, &r);
}

/* typed as the plugin declares clients: what series.params_json keeps */
#define CLIENTS2_JSON "[{\"name\":\"clients\",\"type\":\"int\",\"value\":2,\"text\":\"2\"}]"

static void feed(struct result_sink *s)
{
	struct iteration_info its[] = {
		{ .workload = "pft", .variant = "clients=2",
		  .variant_json = CLIENTS2_JSON, .params = "clients=2 size=1G",
		  .iteration = -1, .warmup = true, .status = "ok", .started = 1.25, .elapsed = 0.5 },
		{ .workload = "pft", .variant = "clients=2",
		  .variant_json = CLIENTS2_JSON, .params = "clients=2 size=1G",
		  .iteration = 1, .status = "ok", .started = 2.5, .elapsed = 0.75, .measured = true,
		  .interference = 0.125 },
		{ .workload = "pft", .variant = "clients=2",
		  .variant_json = CLIENTS2_JSON, .params = "clients=2 size=1G",
		  .iteration = 2, .status = "ok", .started = 3.5, .elapsed = 0.75,
		  .disturbed = "knob thp.enabled changed to always", .measured = true,
		  .interference = 0.5 },
		{ .workload = "pft", .variant = "clients=2",
		  .variant_json = CLIENTS2_JSON, .params = "clients=2 size=1G",
		  .iteration = 3, .status = "failed", .reason = "killed by signal 11 (tab\there)",
		  .started = 4.5, .elapsed = 0.25 },
	};
	struct sample_info smp[] = {
		{ .metric = "faults/sec", .unit = "faults/s", .better = 1, .seq = 0, .value = 123456.75 },
		{ .metric = "faults/sec", .unit = "faults/s", .better = 1, .seq = 1, .value = -1e-300 },
		{ .metric = "elapsed", .unit = NULL, .better = -1, .value = 0.1 },
	};
	const char *keys[] = { "pgfault", "meminfo:AnonHugePages", "interference:foreign_share" };
	double vals[] = { 4096, -2048, 0.125 };

	const struct profile_info prof = { .workload = "pft", .variant = "clients=2",
		.event = "cpu-clock", .note = "no hardware PMU", .samples = 1234 };
	const struct profile_entry prof_rows[] = {
		{ PROFILE_SELF, "clear_page_erms", 41.5 },
		{ PROFILE_CALLTRACE, "handle_mm_fault.do_anonymous_page\tx", 12.25 },
	};
	const char *found_keys[] = { "thp.enabled", "vm.swappiness" };
	const char *found_vals[] = { "madvise", "60" };

	assert_int_equal(sink_env(s, "thp.enabled", "never", "always"), 0);
	assert_int_equal(sink_env(s, "pin_cpu", "1", NULL), 0);
	/* the snapshot after applying: a key the run set keeps its row */
	assert_int_equal(sink_env_found(s, found_keys, found_vals, 2), 0);
	for (size_t i = 0; i < ARRAY_SIZE(its); i++) {
		struct iteration_record r = ITERATION_RECORD_INIT;

		r.it = &its[i];
		if (!strcmp(its[i].status, "ok")) {
			r.samples = smp;
			r.nsamples = ARRAY_SIZE(smp);
			r.mon_keys = keys;
			r.mon_values = vals;
			r.nmon = ARRAY_SIZE(keys);
			r.mon_source = "vmstat";
		}
		assert_int_equal(sink_iteration(s, &r), 0);
	}
	/* run --profile's profile goes through the sink too (issue 26) */
	assert_int_equal(sink_profile(s, &prof, prof_rows, ARRAY_SIZE(prof_rows)), 0);
}

/* One query's rows as text, for comparing two DBs. */
static char *dump(struct mmb_db *db, const char *sql)
{
	struct strbuf out = STRBUF_INIT;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db->c->sql, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *t = (const char *)sqlite3_column_text(st, i);

			strbuf_addf(&out, "%s|", t ? t : "NULL");
		}
		strbuf_addch(&out, '\n');
	}
	sqlite3_finalize(st);
	return strbuf_detach(&out);
}

/* The rows both sinks must give, query by query. */
static const char *const same_rows[] = {
	"SELECT workload, variant, params, iteration, warmup, status, reason, started,"
	" elapsed, disturbed, interference FROM iterations ORDER BY id",
	"SELECT workload, variant, metric, unit, better, iteration, seq, value FROM samples"
	" ORDER BY id",
	"SELECT i.iteration, m.source, m.key, m.delta FROM monitors m JOIN iterations i"
	" ON i.id = m.iteration_id ORDER BY m.rowid",
	"SELECT key, value, original FROM run_env ORDER BY key",
	"SELECT workload, variant, metric, unit, better, params_json FROM series ORDER BY id",
	"SELECT workload, variant, event, samples, note FROM profiles",
	"SELECT workload, variant, kind, name, pct FROM profile_rows ORDER BY kind, name",
};

static void assert_same_rows(struct mmb_db *a, struct mmb_db *b, const char *const *q, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *x = dump(a, q[i]), *y = dump(b, q[i]);

		assert_true(strlen(x) > 0);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

static void test_same_rows(void **state)
{
	char *pa = xasprintf("%s/a.db", dir), *pb = xasprintf("%s/b.db", dir);
	char *ps = xasprintf("%s/stream", dir);
	struct mmb_db a, b;
	struct result_sink sa, sb;
	struct merge_ctx m;
	struct strbuf data = STRBUF_INIT;
	int64_t ra = new_run(&a, pa, "k"), rb = new_run(&b, pb, "k");
	int fd = open(ps, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	(void)state;
	assert_true(fd >= 0);
	sink_sqlite_init(&sa, &a, ra);
	feed(&sa);
	sink_stream_init(&sb, fd);
	feed(&sb);
	close(fd);

	merge_init(&m, &b, rb);
	assert_int_equal(strbuf_read_file(&data, ps), 0);
	assert_true(data.len > 0);
	assert_int_equal(merge_feed(&m, data.buf, data.len), 0);
	assert_int_equal(m.iterations, 4);
	merge_release(&m);
	assert_same_rows(&a, &b, same_rows, ARRAY_SIZE(same_rows));
	strbuf_release(&data);
	db_close(&a);
	db_close(&b);
	free(pa);
	free(pb);
	free(ps);
}

static const struct run_info guest_run = {
	.experiment = "sink-test", .config_path = "/mmbench/experiment.yaml",
	.config_text = "experiment: sink-test\nworkloads:\n  - name: pft\n",
	.release = "6.12.0-mmb", .version = "#1 SMP", .cmdline = "console=ttyS0\tx",
	.config_hash = "abc", .harness_version = "0.1.0", .git_sha = "0123456789ab",
	.compiler = "gcc 12.2.0", .accel = "host",
};

/* Everything a guest's run sends, as run_experiment_to() sends it. */
static void feed_run(struct result_sink *s, const struct run_info *ri)
{
	assert_int_equal(sink_run(s, ri), 0);
	feed(s);
	assert_int_equal(sink_finish(s, "complete"), 0);
}

static void test_pipe_roundtrip(void **state)
{
	char *pa = xasprintf("%s/pa.db", dir), *pb = xasprintf("%s/pb.db", dir);
	struct mmb_db a, b;
	struct kernel_info k = { .label = "k" };
	struct run_info ri = guest_run;
	struct result_sink sa, sb;
	struct merge_ctx m;
	struct strbuf data = STRBUF_INIT;
	int64_t rb = new_run(&b, pb, "k");
	int p[2];
	char *x;
	static const char *const run_row[] = {
		"SELECT experiment, release, version, cmdline, config_hash, harness_version, git_sha,"
		" compiler, config_text FROM runs",
	};

	(void)state;
	/* the sqlite sink begins its own run */
	assert_int_equal(db_open(&a, pa), 0);
	ri.kernel_id = db_kernel_upsert(&a, &k);
	sink_sqlite_init(&sa, &a, 0);
	feed_run(&sa, &ri);
	assert_true(sa.run_id > 0);
	x = dump(&a, "SELECT status FROM runs");
	assert_string_equal(x, "complete|\n");
	free(x);

	/* the stream sink on a pipe (all of it fits the pipe's buffer) */
	assert_int_equal(pipe(p), 0);
	sink_stream_init(&sb, p[1]);
	feed_run(&sb, &guest_run);
	close(p[1]);
	assert_int_equal(strbuf_read_fd(&data, p[0]), 0);
	assert_true(data.len > 0);
	close(p[0]);
	merge_init(&m, &b, rb);
	for (size_t off = 0; off < data.len; off += 7)
		assert_int_equal(merge_feed(&m, data.buf + off,
					    data.len - off < 7 ? data.len - off : 7), 0);
	assert_int_equal(m.iterations, 4);
	assert_true(m.have_run);
	assert_string_equal(m.guest_status, "complete");
	assert_int_equal(m.line->len, 0);	/* no record left half-read */
	merge_release(&m);
	/* the host ends its run as the guest's did: both pack their rows into blocks */
	assert_int_equal(db_run_finish(&b, rb, "complete"), 0);
	x = dump(&b, "SELECT count(*) FROM sample_values");
	assert_string_equal(x, "0|\n");
	free(x);

	assert_same_rows(&a, &b, same_rows, ARRAY_SIZE(same_rows));
	assert_same_rows(&a, &b, run_row, ARRAY_SIZE(run_row));
	/* what the host DB must hold, said outright */
	x = dump(&b, "SELECT iteration, disturbed, interference FROM iterations WHERE disturbed"
		     " IS NOT NULL");
	assert_string_equal(x, "2|knob thp.enabled changed to always|0.5|\n");
	free(x);
	x = dump(&b, "SELECT count(*), min(delta) FROM monitors WHERE source = 'interference'"
		     " AND key = 'foreign_share'");
	assert_string_equal(x, "3|0.125|\n");
	free(x);
	x = dump(&b, "SELECT key, value, coalesce(original, '-') FROM run_env WHERE key IN"
		     " ('thp.enabled', 'vm.swappiness') ORDER BY key");
	assert_string_equal(x, "thp.enabled|never|always|\nvm.swappiness|60|-|\n");
	free(x);
	/* the variant as typed, not typed again from its text */
	x = dump(&b, "SELECT DISTINCT params_json FROM series");
	assert_string_equal(x, CLIENTS2_JSON "|\n");
	free(x);
	strbuf_release(&data);
	db_close(&a);
	db_close(&b);
	free(pa);
	free(pb);
}

/* A record from an older writer (shorter struct) has no monitor fields. */
static void test_short_record(void **state)
{
	char *p = xasprintf("%s/c.db", dir);
	struct mmb_db db;
	struct result_sink s;
	struct iteration_info it = { .workload = "w", .variant = "", .iteration = 1, .status = "ok" };
	struct sample_info smp = { .metric = "m", .unit = "u", .better = 1, .value = 1 };
	const char *keys[] = { "pgfault" };
	double vals[] = { 1 };
	struct iteration_record r = { .size = offsetof(struct iteration_record, mon_keys),
				      .it = &it, .samples = &smp, .nsamples = 1,
				      .mon_keys = keys, .mon_values = vals, .nmon = 1 };
	int64_t run = new_run(&db, p, "k");
	char *rows;

	(void)state;
	sink_sqlite_init(&s, &db, run);
	assert_int_equal(sink_iteration(&s, &r), 0);
	rows = dump(&db, "SELECT count(*) FROM monitors");
	assert_string_equal(rows, "0|\n");
	free(rows);
	rows = dump(&db, "SELECT count(*) FROM samples");
	assert_string_equal(rows, "1|\n");
	free(rows);
	db_close(&db);
	free(p);
}

/* A guest's profile record is checked before anything of it is stored. */
static void test_bad_profile_record(void **state)
{
	static const char *const bad[] = {
		"P\tpft\t\tcpu-clock\t\\N\t10\tself\tf\t200\n",	/* pct over 100 */
		"P\tpft\t\tcpu-clock\t\\N\t10\tbogus\tf\t1\n",	/* kind */
		"P\tpft\t\tcpu-clock\t\\N\t10\tself\tf\n",	/* a triple cut short */
		"P\tpft\t\tcpu-clock\t\\N\t-1\n",			/* samples */
	};
	char *p = xasprintf("%s/d.db", dir);
	struct mmb_db db;
	int64_t run = new_run(&db, p, "k");
	char *rows;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct merge_ctx m;

		merge_init(&m, &db, run);
		assert_int_equal(merge_feed(&m, bad[i], strlen(bad[i])), -1);
		merge_release(&m);
	}
	rows = dump(&db, "SELECT count(*) FROM profiles");
	assert_string_equal(rows, "0|\n");
	free(rows);
	db_close(&db);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_rows),
		cmocka_unit_test(test_bad_profile_record),
		cmocka_unit_test(test_short_record),
		cmocka_unit_test(test_pipe_roundtrip),
	};
	int rc;

	assert_true(mkdtemp(dir) != NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		run_argv(argv, NULL, NULL);
	}
	return rc;
}
