/*
 * Monitor rows in comparisons: lkp's rules for which are tested
 * (monitors_candidate), what compare lists and in which order
 * (monitors_settle), the headline without them, and db/querymon.c's
 * loading (lkp names, zero-filled vmstat keys, disturbed iterations).
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

#include "compare.h"
#include "render.h"
#include "db.h"
#include "monlist.h"
#include "querymon.h"
#include "query.h"
#include "util.h"

static struct query_series series(const double *v, size_t n)
{
	struct query_series s = { .n = n, .v = (double *)v };

	return s;
}

static bool cand(const char *name, const double *b, size_t nb, const double *a, size_t na)
{
	struct query_series sb = series(b, nb), sa = series(a, na);

	return monitors_candidate(name, &sb, &sa);
}

static void test_mode(void **state)
{
	enum monitors_mode m = MONITORS_NONE;

	(void)state;
	assert_int_equal(monitors_mode_parse("changed", &m), 0);
	assert_int_equal(m, MONITORS_CHANGED);
	assert_int_equal(monitors_mode_parse("all", &m), 0);
	assert_int_equal(m, MONITORS_ALL);
	assert_int_equal(monitors_mode_parse("none", &m), 0);
	assert_int_equal(m, MONITORS_NONE);
	assert_int_equal(monitors_mode_parse("some", &m), -1);
	assert_int_equal(monitors_mode_parse("", &m), -1);
}

static void test_names(void **state)
{
	const char *const want[][4] = {
		{ "vmstat", "pgfault", "pft", "proc-vmstat.pgfault" },
		{ "meminfo", "AnonHugePages", "pft", "meminfo.AnonHugePages" },
		{ "perf-stat", "dTLB-load-misses", "pft", "perf-stat.dTLB-load-misses" },
		{ "time", "system_time", "aim9", "aim9.time.system_time" },
		{ "interference", "steal_s", "pft", "interference.steal_s" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		char *n = monrow_name(want[i][0], want[i][1], want[i][2]);

		assert_string_equal(n, want[i][3]);
		free(n);
	}
	/* the harness's own cost is no monitor of the workload */
	assert_null(monrow_name("counters", "overhead_ms", "pft"));
}

static void test_candidate(void **state)
{
	const double b[] = { 16000, 16100, 16050, 16020, 16080 };
	const double x2[] = { 32000, 32100, 32050, 32020, 32080 };
	const double same[] = { 16010, 16090, 16040, 16030, 16070 };	/* ratio < 1.01 */
	const double p3[] = { 16480, 16580, 16530, 16500, 16560 };	/* +3% */
	const double p7[] = { 17120, 17230, 17170, 17140, 17200 };	/* +7% */
	const double small_b[] = { 10, 12, 11 }, small_a[] = { 500, 600, 550 };
	const double st_b[] = { 5.0, 5.1, 5.2 }, st_a[] = { 9.0, 9.1, 9.2 };	/* max < 10 */
	const double sy_b[] = { 100, 101, 102 }, sy_a[] = { 103, 104, 105 };	/* delta 3 < 5 */
	const double sy_c[] = { 110, 111, 112 };			/* delta 10 */
	const double neg[] = { -4000, -4100, -4050 }, pos[] = { 4000, 4100, 4050 };
	const double zero[] = { 0, 0, 0 }, thp[] = { 2000, 2100, 2050 };

	(void)state;
	assert_true(cand("proc-vmstat.pgfault", b, 5, x2, 5));
	/* minimum runs: both sides under 3 is skipped, one side enough is not */
	assert_false(cand("proc-vmstat.pgfault", b, 2, x2, 2));
	assert_true(cand("proc-vmstat.pgfault", b, 2, x2, 3));
	assert_false(cand("proc-vmstat.pgfault", b, 5, x2, 0));
	/* the 1% ratio floor for every row */
	assert_false(cand("proc-vmstat.pgfault", b, 5, same, 5));
	assert_false(cand("perf-stat.page-faults", b, 5, same, 5));
	/* 5% for names that are not perf metrics (meminfo), 1% for perf metrics */
	assert_true(cand("proc-vmstat.pgfault", b, 5, p3, 5));
	assert_true(cand("perf-stat.page-faults", b, 5, p3, 5));
	assert_true(cand("pft.time.user_time", b, 5, p3, 5));
	assert_false(cand("pft.time.minor_page_faults", b, 5, p3, 5));	/* delta 480 < 500 */
	assert_false(cand("meminfo.AnonPages", b, 5, p3, 5));
	assert_true(cand("meminfo.AnonPages", b, 5, p7, 5));
	/* proc-vmstat and meminfo need a max over 1000; perf-stat does not */
	assert_false(cand("proc-vmstat.thp_fault_alloc", small_b, 3, small_a, 3));
	assert_false(cand("meminfo.AnonHugePages", small_b, 3, small_a, 3));
	assert_true(cand("perf-stat.major-faults", small_b, 3, small_a, 3));
	/* thresholds: time.system_time 10 (max >= 10, delta >= 5) */
	assert_false(cand("aim9.time.system_time", st_b, 3, st_a, 3));
	assert_false(cand("aim9.time.system_time", sy_b, 3, sy_a, 3));
	assert_true(cand("aim9.time.system_time", sy_b, 3, sy_c, 3));
	/* lkp has user_time 10 too (it was left out: issue 28 item 13) */
	assert_false(cand("aim9.time.user_time", sy_b, 3, sy_a, 3));
	assert_true(cand("aim9.time.user_time", sy_b, 3, sy_c, 3));
	/* time.minor_page_faults 1000: delta must reach 500 */
	assert_false(cand("pft.time.minor_page_faults", sy_b, 3, sy_c, 3));
	/* a zero side and opposite signs cap the ratio (a change) */
	assert_true(cand("proc-vmstat.thp_fault_alloc", zero, 3, thp, 3));
	assert_true(cand("meminfo.MemFree", neg, 3, pos, 3));
	assert_false(cand("proc-vmstat.thp_fault_alloc", zero, 3, zero, 3));
}

/* ---- settle: on an in-memory set ---- */

static void set_init(struct query_set *qs, size_t nl)
{
	static const char *const labels[] = { "base", "new" };

	memset(qs, 0, sizeof(*qs));
	qs->nlabels = nl;
	qs->kernels = xcalloc(nl, sizeof(*qs->kernels));
	for (size_t i = 0; i < nl; i++) {
		struct query_kernel *k = &qs->kernels[i];

		k->id = (int64_t)i + 1;
		k->label = xstrdup(labels[i]);
		k->release = xstrdup("");
		k->version = xstrdup("");
		k->cmdline = xstrdup("");
		k->config_hash = xstrdup("");
		k->base_commit = xstrdup("");
		k->patches = xstrdup("");
		k->compiler = xstrdup("");
	}
}

static void set_add(struct query_set *qs, const char *m, bool monitor, const double *b,
		    const double *a, size_t n)
{
	struct query_row *r;

	qs->rows = xrealloc(qs->rows, (qs->nr + 1) * sizeof(*qs->rows));
	r = &qs->rows[qs->nr++];
	memset(r, 0, sizeof(*r));
	r->workload = xstrdup("pft");
	r->variant = xstrdup("");
	r->metric = xstrdup(m);
	r->unit = xstrdup("");
	r->better = monitor ? -1 : 1;
	r->monitor = monitor;
	r->series = xcalloc(qs->nlabels, sizeof(*r->series));
	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; k < n; k++)
			query_series_add(&r->series[i], (i ? a : b)[k], 1, (int)k + 1, false, NAN);
}

static void test_settle(void **state)
{
	const double kb[] = { 100, 101, 99, 100, 102, 98 }, ka[] = { 101, 99, 100, 102, 98, 100 };
	const double vb[] = { 16000, 16100, 16050, 16020, 16080, 16060 };
	const double va[] = { 32000, 32100, 32050, 32020, 32080, 32060 };
	const double nb[] = { 5000, 9000, 7000, 6000, 8000, 7500 };
	const double na[] = { 5200, 9100, 7100, 6300, 8200, 7400 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set_init(&qs, 2);
	set_add(&qs, "faults/sec", false, kb, ka, 6);
	set_add(&qs, "proc-vmstat.pgfree", true, vb, va, 6);
	set_add(&qs, "proc-vmstat.pgfault", true, vb, va, 6);
	set_add(&qs, "proc-vmstat.nr_dirtied", true, nb, na, 6);	/* noise: not listed */
	set_add(&qs, "meminfo.AnonPages", true, vb, va, 6);
	compare_build(&c, &qs, STATS_WELCH);
	/* the KPIs are one BH family, the monitor rows another */
	assert_int_equal(c.ntests, 1);
	assert_int_equal(c.nmonitor_tests, 4);
	monitors_settle(&c, MONITORS_CHANGED);
	assert_int_equal(c.nr, 4);
	assert_string_equal(c.rows[0].q->metric, "faults/sec");
	/* groups by rows listed, fewest first; then by name */
	assert_string_equal(c.rows[1].q->metric, "meminfo.AnonPages");
	assert_string_equal(c.rows[2].q->metric, "proc-vmstat.pgfault");
	assert_string_equal(c.rows[3].q->metric, "proc-vmstat.pgfree");
	assert_int_equal(monitors_listed(&c), 3);
	/* the monitors changed; the headline did not */
	assert_int_equal(c.nworse, 0);
	assert_int_equal(c.nbetter, 0);
	assert_int_equal(c.nnone, 1);
	render_lkp(&sb, &c);
	assert_non_null(strstr(sb.buf, "  proc-vmstat.pgfault\n"));
	assert_null(strstr(sb.buf, "pft.proc-vmstat"));
	assert_null(strstr(sb.buf, "nr_dirtied"));
	strbuf_reset(&sb);
	render_text(&sb, &c);
	assert_non_null(strstr(sb.buf, "verdict: no significant change (1 comparison tested)"));
	strbuf_reset(&sb);
	monitors_note(&sb, &c, MONITORS_CHANGED, false);
	assert_non_null(strstr(sb.buf, "monitors: 3 rows"));
	/* the default text's short paste counts them and says where they are */
	strbuf_reset(&sb);
	monitors_note(&sb, &c, MONITORS_CHANGED, true);
	assert_string_equal(sb.buf, "monitors: 3 rows changed, never in the verdict"
			    " (--verbose lists them)\n");
	strbuf_release(&sb);
	compare_release(&c);

	/* all: every row, noise included */
	compare_build(&c, &qs, STATS_WELCH);
	monitors_settle(&c, MONITORS_ALL);
	assert_int_equal(c.nr, 5);
	assert_int_equal(monitors_listed(&c), 4);
	compare_release(&c);
	query_set_release(&qs);
}

/* ---- db/querymon.c on a real database ---- */

static char dbdir[] = "/tmp/mmb-test-monitors-XXXXXX";

static void add_run(struct mmb_db *db, const char *label, const double *pgfault, int n,
		    int disturbed)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { .accel = "host" };
	int64_t run;

	r.kernel_id = db_kernel_upsert(db, &k);
	run = db_run_begin(db, &r);
	assert_true(run > 0);
	for (int i = 0; i < n; i++) {
		struct iteration_info it = { .run_id = run, .workload = "pft", .variant = "",
					     .params = "", .iteration = i + 1, .status = "ok",
					     .disturbed = i + 1 == disturbed ? "busy" : NULL };
		struct sample_info s = { .metric = "faults/sec", .unit = "", .better = 1,
					 .value = 100 + i };
		const char *keys[] = { "pgfault", "pgfree", "meminfo:AnonPages",
				       "perf-stat:page-faults", "interference:steal_s",
				       "counters:overhead_ms" };
		double vals[] = { pgfault[i], 5000, 4096, pgfault[i] - 10, 0.1, 1.5 };
		/* iteration 2 had no pgfree change: the runner stores no row for it */
		int nk = 6;

		if (i == 1) {
			keys[1] = keys[5];
			vals[1] = vals[5];
			nk = 5;
		}
		assert_true(db_iteration_add(db, &it, &s, 1, keys, vals, nk, "vmstat") > 0);
	}
	assert_int_equal(db_run_finish(db, run, "complete"), 0);
}

static const struct query_row *row_named(const struct query_set *qs, const char *m)
{
	for (size_t r = 0; r < qs->nr; r++)
		if (!strcmp(qs->rows[r].metric, m))
			return &qs->rows[r];
	return NULL;
}

static void test_load(void **state)
{
	const double pb[] = { 16000, 16100, 16050, 16020 }, pa[] = { 32000, 32100, 32050, 32020 };
	const char *labels[] = { "base", "new" };
	const struct query_row *r;
	struct query_set qs;
	struct mmb_db db;
	char *path;

	(void)state;
	assert_non_null(mkdtemp(dbdir));
	path = xasprintf("%s/m.db", dbdir);
	assert_int_equal(db_open(&db, path), 0);
	add_run(&db, "base", pb, 4, 0);
	add_run(&db, "new", pa, 4, 3);
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(qs.nr, 1);
	assert_int_equal(monrows_load(&db, &qs, false, NULL, NULL), 0);
	assert_int_equal(qs.nr, 5);	/* faults/sec + pgfault, pgfree, AnonPages, page-faults */
	assert_null(row_named(&qs, "interference.steal_s"));
	assert_null(row_named(&qs, "counters.overhead_ms"));
	r = row_named(&qs, "proc-vmstat.pgfault");
	assert_non_null(r);
	assert_true(r->monitor);
	assert_string_equal(r->workload, "pft");
	assert_int_equal(r->series[0].n, 4);
	assert_true(r->series[0].v[1] == 16100);
	/* new's iteration 3 was disturbed: counted, not pooled */
	assert_int_equal(r->series[1].n, 3);
	assert_int_equal(r->series[1].ndisturbed, 1);
	/* a vmstat key missing from an iteration is a zero delta */
	r = row_named(&qs, "proc-vmstat.pgfree");
	assert_non_null(r);
	assert_int_equal(r->series[0].n, 4);
	assert_true(r->series[0].v[1] == 0 && r->series[0].v[0] == 5000);
	assert_non_null(row_named(&qs, "meminfo.AnonPages"));
	assert_non_null(row_named(&qs, "perf-stat.page-faults"));
	query_set_release(&qs);

	/* with the changed rules: pgfault and page-faults doubled; pgfree, AnonPages did not */
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(monitors_add(&db, &qs, MONITORS_CHANGED), 0);
	assert_int_equal(qs.nr, 3);
	assert_non_null(row_named(&qs, "proc-vmstat.pgfault"));
	assert_non_null(row_named(&qs, "perf-stat.page-faults"));
	query_set_release(&qs);
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(monitors_add(&db, &qs, MONITORS_NONE), 0);
	assert_int_equal(qs.nr, 1);
	query_set_release(&qs);

	db_close(&db);
	unlink(path);
	free(path);
	path = xasprintf("%s/m.db-wal", dbdir);
	unlink(path);
	free(path);
	path = xasprintf("%s/m.db-shm", dbdir);
	unlink(path);
	free(path);
	rmdir(dbdir);
}

/* lkp's perf-metrics-threshold.yaml, whole (issue 28 item 13): first match decides */
static void test_threshold_table(void **st)
{
	(void)st;
	/* .*.time.elapsed_time.*: 10, and user_time: 10 -- listed before, now dropped */
	assert_int_equal(monitors_threshold("pft.time.elapsed_time", 9.9, 5), 0);
	assert_int_equal(monitors_threshold("pft.time.elapsed_time.max", 12, 6), 1);
	assert_int_equal(monitors_threshold("pft.time.user_time", 30, 4), 0);	/* delta < 10 / 2 */
	assert_int_equal(monitors_threshold("pft.time.user_time", 30, 5), 1);
	assert_int_equal(monitors_threshold("ebizzy.time.voluntary_context_switches", 999, 900), 0);
	/* .*vmstat.*nr_.*: 100 comes before the vmstat floor of 1000 */
	assert_int_equal(monitors_threshold("proc-vmstat.nr_dirtied", 150, 60), 1);
	assert_int_equal(monitors_threshold("proc-vmstat.allocstall", 120, 40), 0);
	/* perf-profile.*: 1, an integer: 1 / 2 is 0, any change passes */
	assert_int_equal(monitors_threshold("perf-profile.self.cycles-pp.clear_page_erms", 1.5, 0.1), 1);
	/* the one float threshold: no delta rule */
	assert_int_equal(monitors_threshold(
		"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 2.5, 0.01), 1);
	assert_int_equal(monitors_threshold("iostat.sda.r/s", 60, 30), 1);
	assert_int_equal(monitors_threshold("iostat.sda.x/s", 60, 30), -1);
	assert_int_equal(monitors_threshold("proc-vmstat.pgfault", 5, 5), -1);
	assert_int_equal(monitors_threshold("xpft.time.user_timex", 1, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_candidate),
		cmocka_unit_test(test_settle),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_threshold_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
