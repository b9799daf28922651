/*
 * run --resume: what an interrupted run still owes (resume_plan against a
 * real plan), what the DB says it recorded, and the claim on the run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "db-internal.h"	/* the tests look inside with SQL */
#include "capture.h"
#include "db.h"
#include "plan.h"
#include "read.h"
#include "resume.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char errbuf[8192];
static const struct unit_ctx ctx = { .ncpus = 16, .mem_total = 16ull << 30, .page_size = 4096 };

/* iterations 3, warm-up 1; skeleton in two variants, then skeleton again, 5 iterations */
static const char *const yaml =
	"experiment: r\niterations: 3\nwarmup: 1\nworkloads:\n"
	"  - name: skeleton\n    params:\n      size: [4K, 8K]\n"
	"  - name: skeleton\n    iterations: 5\n    params:\n      size: 16K\n";

static void build(struct experiment *e, struct plan *p, const char *text)
{
	experiment_init(e);
	assert_int_equal(experiment_load_string(e, "t.yaml", text), 0);
	assert_int_equal(plan_build(p, e, &ctx, NULL), 0);
}

/* resume_plan's return value, its message in errbuf */
static int fit(struct plan *p, const struct db_variant_done *d, size_t n)
{
	struct capture c;
	char *msg;
	int ret;

	capture_begin(&c);
	ret = resume_plan(p, 7, d, n);
	msg = capture_end(&c);
	snprintf(errbuf, sizeof(errbuf), "%s", msg);
	free(msg);
	return ret;
}

/* A record of variant v of workload w of p. */
static struct db_variant_done rec(struct plan *p, size_t w, size_t v, int measured, int last,
				  int warmups, bool skipped)
{
	struct db_variant_done d = {
		.workload = (char *)p->wls[w].plugin.w.name,
		.variant = p->wls[w].variants[v].variant,
		.params = p->wls[w].variants[v].params_text,
		.measured = measured, .last = last, .warmups = warmups, .skipped = skipped,
	};
	return d;
}

static void test_missing_iterations(void **s)
{
	struct experiment e;
	struct plan p;
	struct db_variant_done d[2];
	const struct plan_variant *v;

	(void)s;
	build(&e, &p, yaml);
	assert_int_equal(p.nwls, 2);
	/* killed in 8K's second measured iteration: 4K done, 8K has 1 + a warm-up */
	d[0] = rec(&p, 0, 0, 3, 3, 1, false);
	d[1] = rec(&p, 0, 1, 1, 1, 1, false);
	assert_int_equal(fit(&p, d, 2), 0);
	v = p.wls[0].variants;
	assert_true(v[0].resume_done);
	assert_false(v[1].resume_done);
	assert_int_equal(v[1].resume_measured, 1);
	assert_int_equal(v[1].resume_warmups, 1);
	/* 8K: its warm-up again + 2 measured; 16K untouched: 1 + 5 */
	assert_false(p.wls[1].variants[0].resume_done);
	assert_int_equal(p.wls[1].variants[0].resume_measured, 0);
	assert_int_equal(p.total_iterations, 3 + 6);
	plan_release(&p);
	experiment_release(&e);
}

static void test_everything_recorded(void **s)
{
	struct experiment e;
	struct plan p;
	struct db_variant_done d[3];

	(void)s;
	build(&e, &p, yaml);
	/* killed after the last iteration, before the run was marked complete */
	d[0] = rec(&p, 0, 0, 3, 3, 1, false);
	d[1] = rec(&p, 0, 1, 0, 0, 0, true);	/* skipped: never runs again */
	d[2] = rec(&p, 1, 0, 5, 5, 1, false);
	assert_int_equal(fit(&p, d, 3), 0);
	assert_true(p.wls[0].variants[1].resume_done);
	assert_int_equal(p.total_iterations, 0);
	plan_release(&p);
	experiment_release(&e);
}

static void test_records_that_do_not_fit(void **s)
{
	struct experiment e;
	struct plan p;
	struct db_variant_done d;

	(void)s;
	build(&e, &p, yaml);
	d = rec(&p, 0, 1, 2, 3, 1, false);
	assert_int_equal(fit(&p, &d, 1), -1);
	assert_non_null(strstr(errbuf, "error: run 7: skeleton size=8K has 2 measured iterations but the last is number 3; resume needs them numbered 1..2"));
	d = rec(&p, 0, 0, 4, 4, 1, false);
	assert_int_equal(fit(&p, &d, 1), -1);
	assert_non_null(strstr(errbuf, "recorded 4 measured iterations, more than the 3 planned"));
	d = rec(&p, 0, 0, 1, 1, 0, false);
	d.variant = "size=2M";
	assert_int_equal(fit(&p, &d, 1), -1);
	assert_non_null(strstr(errbuf, "error: run 7 recorded iterations of skeleton size=2M"));
	assert_non_null(strstr(errbuf, "which the experiment no longer plans"));
	plan_release(&p);
	experiment_release(&e);

	/* the same workload twice with the same params: rows cannot be told apart */
	build(&e, &p, "experiment: r\nworkloads:\n  - name: skeleton\n  - name: skeleton\n");
	assert_int_equal(fit(&p, NULL, 0), -1);
	assert_non_null(strstr(errbuf, "workload skeleton is planned twice"));
	plan_release(&p);
	experiment_release(&e);
}

static char *tmp_db(void)
{
	char tmpl[] = "/tmp/mmb-resume-XXXXXX";
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

static void add(struct mmb_db *db, int64_t run, const char *variant, int i, const char *status)
{
	struct iteration_info it = { .run_id = run, .workload = "w", .variant = variant,
				     .params = "size=4K", .iteration = i, .warmup = i < 0,
				     .status = status };
	struct sample_info smp = { .metric = "m", .better = 1, .value = i };

	assert_true(db_iteration_add(db, &it, &smp, 1, NULL, NULL, 0, NULL) > 0);
}

static void test_db_recorded_and_claim(void **s)
{
	char *path = tmp_db();
	struct mmb_db db;
	struct kernel_info k = { .label = "k" };
	struct run_info r = { .accel = "host", .options = "--iterations=3\n" };
	struct db_run_detail det;
	struct db_variant_done *d;
	size_t n;
	int64_t run;

	(void)s;
	assert_int_equal(db_open(&db, path), 0);
	r.kernel_id = db_kernel_upsert(&db, &k);
	run = db_run_begin(&db, &r);
	assert_true(run > 0);
	add(&db, run, "a", -1, "ok");
	add(&db, run, "a", 1, "ok");
	add(&db, run, "a", 2, "failed");	/* a failed iteration was done too */
	add(&db, run, "b", -1, "ok");
	add(&db, run, "c", 0, "skipped");
	assert_int_equal(db_run_recorded(&db, run, &d, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].variant, "a");
	assert_string_equal(d[0].params, "size=4K");
	assert_int_equal(d[0].measured, 2);
	assert_int_equal(d[0].last, 2);
	assert_int_equal(d[0].warmups, 1);
	assert_false(d[0].skipped);
	assert_int_equal(d[1].measured, 0);
	assert_int_equal(d[1].warmups, 1);
	assert_true(d[2].skipped);
	assert_int_equal(d[2].measured, 0);
	db_variant_done_free(d, n);

	/* the options come back as recorded; a run without them reads NULL */
	assert_int_equal(db_run_detail(&db, run, &det), 0);
	assert_string_equal(det.options, "--iterations=3\n");
	assert_int_equal(det.pid, (int)getpid());
	db_run_detail_release(&det);

	/* only an interrupted run is taken over, once */
	assert_int_equal(db_run_resume(&db, run), 1);
	assert_int_equal(db_run_finish(&db, run, "interrupted"), 0);
	assert_int_equal(db_run_resume(&db, run), 0);
	assert_int_equal(db_run_resume(&db, run), 1);
	assert_int_equal(db_run_detail(&db, run, &det), 0);
	assert_string_equal(det.status, "running");
	assert_true(det.finished == 0);
	db_run_detail_release(&det);
	assert_int_equal(db_run_finish(&db, run, "complete"), 0);
	assert_int_equal(db_run_resume(&db, run), 1);

	r.options = NULL;
	run = db_run_begin(&db, &r);
	assert_int_equal(db_run_detail(&db, run, &det), 0);
	assert_null(det.options);
	db_run_detail_release(&det);
	db_close(&db);
	rm_db(path);
}

int main(void)
{
	const char *build_dir = getenv("MMBENCH_BUILD");
	char *dir = xasprintf("%s/workloads", build_dir ? build_dir : "build");

	setenv("MMBENCH_PLUGIN_PATH", dir, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_iterations),
		cmocka_unit_test(test_everything_recorded),
		cmocka_unit_test(test_records_that_do_not_fit),
		cmocka_unit_test(test_db_recorded_and_claim),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	free(dir);
	return ret;
}
