/*
 * Honest verdicts (harness/compare/verdict.c) end to end through a real DB:
 * iterations recorded with their interference level and disturbed
 * reasons, pooled by query_load() and judged by compare_build().  The
 * trials are seeded draws, so every run of this test sees the same data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db-internal.h"	/* the tests look inside with SQL */
#include "compare.h"
#include "proc.h"
#include "render.h"
#include "db.h"
#include "guest-stream.h"
#include "query.h"
#include "sink.h"
#include "util.h"
#include "seeded.h"

static char dir[] = "/tmp/mmb-test-verdict-XXXXXX";
static int ndb;

static void open_db(struct mmb_db *db)
{
	char *path = xasprintf("%s/v%d.db", dir, ndb++);

	assert_int_equal(db_open(db, path), 0);
	free(path);
}

/* One iteration's value, its interference level and (NULL) why disturbed. */
struct it_spec {
	double v, level;
	const char *disturbed;
};

static void add_run(struct mmb_db *db, const char *label, const struct it_spec *its, int n)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { .accel = "host" };
	int64_t run;

	r.kernel_id = db_kernel_upsert(db, &k);
	run = db_run_begin(db, &r);
	assert_true(run > 0);
	for (int i = 0; i < n; i++) {
		struct iteration_info it = { .run_id = run, .workload = "spin", .variant = "",
					     .iteration = i + 1, .status = "ok",
					     .disturbed = its[i].disturbed, .measured = true,
					     .interference = its[i].level };
		struct sample_info s = { .metric = "passes", .unit = "passes/s", .better = 1,
					 .value = its[i].v };

		assert_true(db_iteration_add(db, &it, &s, 1, NULL, NULL, 0, NULL) > 0);
	}
	assert_int_equal(db_run_finish(db, run, "complete"), 0);
}

static enum compare_verdict judge(struct mmb_db *db, bool keep, bool before_guard, char **why)
{
	const char *labels[] = { "a", "c" };
	struct query_filter f = { .keep_disturbed = keep };
	struct query_set qs;
	struct compare c;
	enum compare_verdict v;

	assert_int_equal(query_load(db, labels, 2, &f, &qs), 0);
	assert_int_equal(qs.nr, 1);
	compare_build(&c, &qs, STATS_WELCH);
	v = before_guard ? c.rows[0].tested[1] : c.rows[0].verdict[1];
	if (why)
		*why = c.rows[0].why[1] ? xstrdup(c.rows[0].why[1]) : NULL;
	compare_release(&c);
	query_set_release(&qs);
	return v;
}

/*
 * A/A with a CPU hog beside four of label c's ten iterations: those run a
 * third slower and are marked disturbed; the two that straddle the hog's
 * start and end run 3% slower with a level under the limit.  Without the
 * guard most trials call a regression; with it >= 95% do not.
 */
static void test_hog_aa_trials(void **state)
{
	int trials = 40, regressions_guarded = 0, regressions_raw = 0, inconclusive = 0;

	(void)state;
	for (int t = 0; t < trials; t++) {
		struct it_spec a[10], c[10];
		struct mmb_db db;
		enum compare_verdict g, raw;

		for (int i = 0; i < 10; i++) {
			a[i] = (struct it_spec){ 100 + 2 * seeded_gauss(), 0.02 * seeded_uniform(), NULL };
			c[i] = (struct it_spec){ 100 + 2 * seeded_gauss(), 0.02 * seeded_uniform(), NULL };
			if (i >= 3 && i <= 6) {
				c[i].v *= 0.67;
				c[i].level = 0.33 + 0.02 * seeded_uniform();
				c[i].disturbed = "foreign CPU 33% of 2 CPUs (limit 10%)";
			} else if (i == 2 || i == 7) {
				c[i].v *= 0.97;
				c[i].level = 0.08;
			}
		}
		open_db(&db);
		add_run(&db, "a", a, 10);
		add_run(&db, "c", c, 10);
		g = judge(&db, false, false, NULL);
		raw = judge(&db, true, true, NULL);
		regressions_guarded += g == VERDICT_WORSE || g == VERDICT_BETTER;
		inconclusive += g == VERDICT_INCONCLUSIVE;
		regressions_raw += raw == VERDICT_WORSE;
		db_close(&db);
	}
	printf("hog A/A: %d/%d false verdicts with the guard (%d inconclusive), %d/%d without\n",
	       regressions_guarded, trials, inconclusive, regressions_raw, trials);
	assert_true(regressions_guarded * 20 <= trials);	/* >= 95% honest */
	assert_true(regressions_raw * 2 > trials);		/* most, unguarded */
}

static void test_too_few_clean(void **state)
{
	struct it_spec a[6], c[6];
	struct mmb_db db;
	char *why;

	(void)state;
	for (int i = 0; i < 6; i++) {
		a[i] = (struct it_spec){ 100 + i, 0.01, NULL };
		c[i] = (struct it_spec){ 50 + i, 0.5, i < 4 ? "foreign CPU 50% of 2 CPUs (limit 10%)" : NULL };
	}
	open_db(&db);
	add_run(&db, "a", a, 6);
	add_run(&db, "c", c, 6);
	assert_int_equal(judge(&db, false, false, &why), VERDICT_INCONCLUSIVE);
	assert_non_null(why);
	assert_non_null(strstr(why, "too few clean samples: a 6 (0 disturbed), c 2 (4 disturbed)"));
	free(why);
	/* --keep-disturbed: the values count, the level rule still speaks */
	assert_int_equal(judge(&db, true, false, &why), VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(why, "interference differs"));
	free(why);
	db_close(&db);
}

static void test_level_rule(void **state)
{
	struct it_spec a[8], c[8];
	struct mmb_db db;
	char *why;

	(void)state;
	/* nobody crossed a limit, but c ran beside 9 points more load: no verdict */
	for (int i = 0; i < 8; i++) {
		a[i] = (struct it_spec){ 100 + (i % 3), 0.00, NULL };
		c[i] = (struct it_spec){ 90 + (i % 3), 0.09, NULL };
	}
	open_db(&db);
	add_run(&db, "a", a, 8);
	add_run(&db, "c", c, 8);
	assert_int_equal(judge(&db, false, true, NULL), VERDICT_WORSE);
	assert_int_equal(judge(&db, false, false, &why), VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(why, "interference differs: others used 9% of the CPUs during c, 0% during a"));
	free(why);
	db_close(&db);

	/* same change with the same load: a real regression stays one */
	for (int i = 0; i < 8; i++)
		c[i].level = 0.01;
	open_db(&db);
	add_run(&db, "a", a, 8);
	add_run(&db, "c", c, 8);
	assert_int_equal(judge(&db, false, false, &why), VERDICT_WORSE);
	assert_null(why);
	db_close(&db);
}

static void test_all_disturbed(void **state)
{
	struct it_spec a[4], c[4];
	struct mmb_db db;
	const char *labels[] = { "a", "c" };
	struct query_set qs;
	struct compare c2;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < 4; i++) {
		a[i] = (struct it_spec){ 100, 0.6, "steal 60% (limit 5%)" };
		c[i] = (struct it_spec){ 100, 0.6, "steal 60% (limit 5%)" };
	}
	open_db(&db);
	add_run(&db, "a", a, 4);
	add_run(&db, "c", c, 4);
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(qs.rows[0].series[1].n, 0);
	assert_int_equal(qs.rows[0].series[1].ndisturbed, 4);
	compare_build(&c2, &qs, STATS_WELCH);
	assert_int_equal(c2.rows[0].verdict[1], VERDICT_INCONCLUSIVE);
	assert_int_equal(c2.ninconclusive, 1);
	render_text(&out, &c2);
	assert_non_null(strstr(out.buf, "0 (4 disturbed)"));
	assert_non_null(strstr(out.buf, "verdict: inconclusive"));
	strbuf_reset(&out);
	render_json(&out, &c2);
	assert_non_null(strstr(out.buf, "\"why\":\"too few clean samples"));
	assert_non_null(strstr(out.buf, "\"disturbed\":4"));
	strbuf_reset(&out);
	render_csv(&out, &c2);
	assert_non_null(strstr(out.buf, "inconclusive: too few clean samples"));
	strbuf_release(&out);
	compare_release(&c2);
	query_set_release(&qs);
	db_close(&db);
}

static char *drift_of(struct mmb_db *db)
{
	const char *labels[] = { "a", "c" };
	struct query_set qs;
	struct compare c;
	char *d;

	assert_int_equal(query_load(db, labels, 2, NULL, &qs), 0);
	compare_build(&c, &qs, STATS_WELCH);
	d = c.drift ? xstrdup(c.drift) : NULL;
	compare_release(&c);
	query_set_release(&qs);
	return d;
}

/* Two runs of one label with a shifted mean: warned, with both runs named. */
static void test_drift(void **state)
{
	struct it_spec a[8], c1[8], c2[8];
	struct mmb_db db;
	char *d;

	(void)state;
	for (int i = 0; i < 8; i++) {
		a[i] = (struct it_spec){ 100 + seeded_gauss(), 0, NULL };
		c1[i] = (struct it_spec){ 100 + seeded_gauss(), 0, NULL };
		c2[i] = (struct it_spec){ 100 + seeded_gauss(), 0, NULL };
	}
	open_db(&db);
	add_run(&db, "a", a, 4);
	add_run(&db, "a", a + 4, 4);
	add_run(&db, "c", c1, 8);
	add_run(&db, "c", c2, 8);
	d = drift_of(&db);
	assert_null(d);		/* the same machine state: no warning */
	db_close(&db);

	for (int i = 0; i < 8; i++)
		c2[i].v += 10;	/* bimodal: the second run sits 10% higher */
	open_db(&db);
	add_run(&db, "a", a, 4);
	add_run(&db, "a", a + 4, 4);
	add_run(&db, "c", c1, 8);
	add_run(&db, "c", c2, 8);
	d = drift_of(&db);
	assert_non_null(d);
	assert_non_null(strstr(d, "drift: the runs of c disagree"));
	assert_non_null(strstr(d, "spin passes (one-way ANOVA across 2 runs"));
	assert_non_null(strstr(d, "run 3 mean"));
	assert_non_null(strstr(d, "run 4 mean"));
	assert_null(strstr(d, "runs of a "));
	free(d);
	db_close(&db);
}

/* The guest stream carries disturbed and the level to the host DB. */
static void test_stream_keeps_notes(void **state)
{
	struct mmb_db h;
	struct kernel_info k = { .label = "g" };
	struct run_info ri = { .accel = "host" };
	struct strbuf s = STRBUF_INIT;
	struct result_sink g;
	struct merge_ctx m;
	int64_t hrun;
	struct iteration_info it = { .workload = "spin", .variant = "", .iteration = 1,
				     .status = "ok", .disturbed = "knob thp.enabled changed to always",
				     .measured = true, .interference = 0.25 };
	struct sample_info smp = { .metric = "passes", .unit = "passes/s", .better = 1, .value = 7 };
	const char *const keys[] = { "interference:foreign_share" };
	double vals[] = { 0.25 };
	struct iteration_record r = { .size = sizeof(r), .it = &it, .samples = &smp, .nsamples = 1,
				      .mon_keys = keys, .mon_values = vals, .nmon = 1,
				      .mon_source = "vmstat" };
	const char *v[] = { "mmbench-stream", "1" };
	sqlite3_stmt *st;
	int p[2];

	(void)state;
	mstream_record(&s, 'V', v, 2);
	assert_int_equal(pipe(p), 0);
	sink_stream_init(&g, p[1]);
	assert_int_equal(sink_iteration(&g, &r), 0);
	close(p[1]);
	assert_int_equal(strbuf_read_fd(&s, p[0]), 0);
	close(p[0]);

	open_db(&h);
	k.label = "h";
	ri.kernel_id = db_kernel_upsert(&h, &k);
	hrun = db_run_begin(&h, &ri);
	merge_init(&m, &h, hrun);
	assert_int_equal(merge_feed(&m, s.buf, s.len), 0);
	merge_release(&m);
	assert_int_equal(sqlite3_prepare_v2(h.c->sql, "SELECT disturbed, interference FROM iterations",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0),
			    "knob thp.enabled changed to always");
	assert_true(fabs(sqlite3_column_double(st, 1) - 0.25) < 1e-12);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(h.c->sql, "SELECT count(*) FROM monitors WHERE"
					    " source = 'interference' AND key = 'foreign_share'",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	strbuf_release(&s);
	db_close(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hog_aa_trials),
		cmocka_unit_test(test_too_few_clean),
		cmocka_unit_test(test_level_rule),
		cmocka_unit_test(test_all_disturbed),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_stream_keeps_notes),
	};
	int rc;

	assert_true(mkdtemp(dir) != NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	{
		char *cmd[] = { "rm", "-rf", dir, NULL };
		const char *const *argv = (const char *const *)cmd;

		run_argv(argv, NULL, NULL);
	}
	return rc;
}
