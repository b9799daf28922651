/* counters: event names, the unsupported record, counting in-process, derived rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "config.h"
#include "counters.h"

static void test_names(void **state)
{
	static const char *const bad[] = { "cycle", "", "tlb:", ":tlb_flush", "../x:y",
					   "tlb:tlb/flush", "tlb:tlb flush", "Page-Faults", NULL };

	(void)state;
	for (size_t i = 0; counters_default_names[i]; i++)
		assert_null(counters_name_error(counters_default_names[i]));
	assert_null(counters_name_error("sched:sched_switch"));
	for (size_t i = 0; bad[i]; i++) {
		if (!counters_name_error(bad[i]))
			fail_msg("'%s' accepted", bad[i]);
	}
	assert_non_null(strstr(counters_name_error("cycle"), "unknown event"));
	assert_non_null(strstr(counters_name_error("tlb:"), "not a tracepoint name"));
}

static void test_add(void **state)
{
	struct counters c = { 0 };
	struct capture cap;
	char *msg;
	int ret;

	(void)state;
	assert_int_equal(counters_add_defaults(&c), 0);
	assert_int_equal(c.n, 18);
	assert_string_equal(c.ev[1].key, "perf-stat:page-faults");
	/* the software set comes from getrusage: no perf event on the tasks */
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(c.ev[i].kind, COUNTER_RUSAGE);
	assert_string_equal(c.ev[4].name, "context-switches");
	assert_int_equal(c.ev[5].kind, COUNTER_TP);
	assert_int_equal(c.ev[10].kind, COUNTER_HW);
	/* and no tracepoint that fires on every page is in the default set */
	for (size_t i = 0; i < c.n; i++)
		if (!strcmp(c.ev[i].name, "exceptions:page_fault_user") ||
		    !strcmp(c.ev[i].name, "kmem:mm_page_alloc") ||
		    !strcmp(c.ev[i].name, "kmem:mm_page_free"))
			fail_msg("per-page event %s in the default set", c.ev[i].name);
	capture_begin(&cap);
	ret = counters_add(&c, "page-faults");
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "'page-faults' is listed twice"));
	free(msg);
	capture_begin(&cap);
	ret = counters_add(&c, "bogus");
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "counters: 'bogus': unknown event"));
	free(msg);
	assert_int_equal(c.n, 18);
	counters_release(&c);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A fake tracefs: one tracepoint missing, one with a broken id; tracefs absent. */
static void test_unsupported(void **state)
{
	char root[] = "/tmp/mmb-counters-XXXXXX", path[256];
	struct counters c = { 0 };

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/events", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/events/kmem", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc/id", root);
	put(path, "12abc\n");

	assert_int_equal(counters_add(&c, "task-clock"), 0);
	assert_int_equal(counters_add(&c, "tlb:tlb_flush"), 0);
	assert_int_equal(counters_add(&c, "kmem:mm_page_alloc"), 0);
	assert_int_equal(counters_add(&c, "exceptions:page_fault_user"), 0);
	counters_prepare(&c, root);
	assert_true(c.ev[0].supported);
	assert_false(c.ev[1].supported);
	assert_false(c.ev[2].supported);
	assert_false(c.ev[3].supported);
	assert_non_null(c.unsupported);
	/* one clause per reason, each event named once */
	assert_string_equal(c.unsupported,
			    "tlb:tlb_flush,exceptions:page_fault_user (no such tracepoint);"
			    " kmem:mm_page_alloc (bad tracepoint id)");

	/* no tracefs at all: said so, and still nothing fails */
	snprintf(path, sizeof(path), "%s/none", root);
	counters_prepare(&c, path);
	assert_true(c.ev[0].supported);
	assert_string_equal(c.unsupported,
			    "tlb:tlb_flush,kmem:mm_page_alloc,exceptions:page_fault_user"
			    " (tracefs not readable)");
	counters_release(&c);

	/* everything counts: no record at all */
	assert_int_equal(counters_add(&c, "page-faults"), 0);
	counters_prepare(&c, path);
	assert_null(c.unsupported);
	counters_release(&c);

	snprintf(path, sizeof(path), "rm -r '%s'", root);
	assert_int_equal(system(path), 0);
}

/* A thread's faults, then a child process's, once waited for. */
static void *touch_thread(void *arg)
{
	char *p = arg;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < 64; i++)
		p[i * page] = 3;
	return NULL;
}

static void touch_elsewhere(char *p)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	pthread_t t;
	pid_t pid;

	assert_int_equal(pthread_create(&t, NULL, touch_thread, p), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (size_t i = 64; i < 128; i++)
			p[i * page] = 3;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/*
 * Faults inside the region only, from every thread and from waited-for
 * children, counted without a perf event (getrusage).
 */
static void test_count_region(void **state)
{
	struct counters c = { 0 };
	double v[COUNTERS_MAX];
	size_t pages = 512, page = (size_t)sysconf(_SC_PAGESIZE);
	char *a, *b, *d;

	(void)state;
	assert_int_equal(counters_add(&c, "page-faults"), 0);
	assert_int_equal(counters_add(&c, "task-clock"), 0);
	assert_int_equal(counters_add(&c, "major-faults"), 0);
	counters_prepare(&c, "/nonexistent");
	assert_true(c.ev[0].supported);
	a = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	b = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	d = mmap(NULL, 128 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(a != MAP_FAILED && b != MAP_FAILED && d != MAP_FAILED);
	madvise(a, pages * page, MADV_NOHUGEPAGE);
	madvise(b, pages * page, MADV_NOHUGEPAGE);
	madvise(d, 128 * page, MADV_NOHUGEPAGE);
	counters_open(&c);
	/* no perf event for faults or CPU time: nothing perf does in a fault or a switch */
	assert_true(c.ev[0].open && c.ev[0].fd < 0);
	assert_true(c.ev[1].open && c.ev[1].fd < 0);
	counters_enable(&c);
	for (size_t i = 0; i < pages; i++)	/* before the region: not counted */
		a[i * page] = 1;
	counters_region_begin(&c);
	for (size_t i = 0; i < pages; i++)
		b[i * page] = 1;
	touch_elsewhere(d);	/* 64 pages in a thread, 64 in a waited-for child */
	counters_disable(&c);
	for (size_t i = 0; i < pages; i++)	/* after it: not counted */
		a[i * page] = 2, b[i * page] = 2;
	counters_read(&c, v);
	counters_close(&c);
	/* ASan's shadow pages fault too: below the 2x a counted prefix would give */
	if (!(v[0] >= pages + 128 && v[0] < pages + 128 + pages / 2))
		fail_msg("%g faults counted for %zu pages touched in the region", v[0], pages + 128);
	assert_true(v[1] > 0);
	assert_true(v[2] == 0);	/* anonymous memory: no major faults */
	assert_true(c.spent_ns > 0);
	munmap(a, pages * page);
	munmap(b, pages * page);
	munmap(d, 128 * page);
	counters_release(&c);
}

/*
 * A worker that ran in the region but is reaped only after it (as
 * will-it-scale's teardown reaps its processes) is counted, as perf's
 * inherited events count it.
 */
static void test_count_late_child(void **state)
{
	struct counters c = { 0 };
	double v[COUNTERS_MAX];
	size_t pages = 1024, page = (size_t)sysconf(_SC_PAGESIZE);
	char *d;
	pid_t late;

	(void)state;
	assert_int_equal(counters_add(&c, "minor-faults"), 0);
	counters_prepare(&c, "/nonexistent");
	d = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(d != MAP_FAILED);
	madvise(d, pages * page, MADV_NOHUGEPAGE);
	counters_open(&c);
	counters_enable(&c);
	late = fork();
	assert_true(late >= 0);
	if (late == 0) {
		for (size_t i = 0; i < pages; i++)
			d[i * page] = 4;
		_exit(0);
	}
	/* it has exited, but is not reaped before the region ends */
	while (waitid(P_PID, (id_t)late, &(siginfo_t){ 0 }, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	counters_disable(&c);
	assert_int_equal(waitpid(late, NULL, 0), late);
	counters_read(&c, v);
	counters_close(&c);
	if (!(v[0] >= pages))
		fail_msg("%g faults counted; the late-reaped child touched %zu pages", v[0], pages);
	munmap(d, pages * page);
	counters_release(&c);
}

static void test_rows(void **state)
{
	struct counters c = { 0 };
	const char *keys[COUNTERS_MAX_ROWS];
	double vals[COUNTERS_MAX], out[COUNTERS_MAX_ROWS];
	size_t n;

	(void)state;
	assert_int_equal(counters_add(&c, "cycles"), 0);
	assert_int_equal(counters_add(&c, "instructions"), 0);
	assert_int_equal(counters_add(&c, "dTLB-loads"), 0);
	assert_int_equal(counters_add(&c, "dTLB-load-misses"), 0);
	assert_int_equal(counters_add(&c, "page-faults"), 0);
	vals[0] = 2000, vals[1] = 3000, vals[2] = 400, vals[3] = 10, vals[4] = NAN;
	n = counters_rows(&c, vals, 1.5, keys, out, COUNTERS_MAX_ROWS);
	assert_int_equal(n, 4 + 3 + 1);
	assert_string_equal(keys[0], "perf-stat:cycles");
	assert_string_equal(keys[4], "perf-stat:ipc");
	assert_true(fabs(out[4] - 1.5) < 1e-12);
	assert_string_equal(keys[5], "perf-stat:cpi");
	assert_string_equal(keys[6], "perf-stat:dTLB-load-miss-rate%");
	assert_true(fabs(out[6] - 2.5) < 1e-12);
	assert_string_equal(keys[7], "counters:overhead_ms");
	/* nothing counted (no PMU): no derived rows either */
	vals[0] = vals[1] = NAN;
	n = counters_rows(&c, vals, NAN, keys, out, COUNTERS_MAX_ROWS);
	assert_int_equal(n, 3);
	assert_string_equal(keys[2], "perf-stat:dTLB-load-miss-rate%");
	counters_release(&c);
}

static void test_config(void **state)
{
	struct experiment e;
	struct capture cap;
	char *msg;
	int ret;

	(void)state;
	experiment_init(&e);
	assert_int_equal(experiment_load_string(&e, "t.yaml",
		"experiment: t\ncounters: [page-faults, tlb:tlb_flush]\n"
		"workloads:\n  - name: pft\n"), 0);
	assert_int_equal(e.ncounters, 2);
	assert_string_equal(e.counters[1], "tlb:tlb_flush");
	assert_false(e.no_counters);
	assert_int_equal(experiment_load_string(&e, "t.yaml",
		"experiment: t\ncounters: none\nworkloads:\n  - name: pft\n"), 0);
	assert_true(e.no_counters);
	capture_begin(&cap);
	ret = experiment_load_string(&e, "t.yaml",
		"experiment: t\ncounters: [page-faults, cycle]\nworkloads:\n  - name: pft\n");
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "t.yaml:2:25: counters: 'cycle': unknown event"));
	free(msg);
	capture_begin(&cap);
	ret = experiment_load_string(&e, "t.yaml",
		"experiment: t\ncounters: [page-faults, page-faults]\nworkloads:\n  - name: pft\n");
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "listed twice"));
	free(msg);
	experiment_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_count_region),
		cmocka_unit_test(test_count_late_child),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
