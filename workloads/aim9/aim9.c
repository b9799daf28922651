// SPDX-License-Identifier: GPL-2.0
/*
 * aim9: AIM Suite IX's brk_test, page_test and fork_test with the
 * singleuser driver loop, re-implemented from the behaviour described in
 * docs/workloads.md, aim9 (no AIM code).
 *
 * brk_test, one call: save the break, grow it by 1 MiB, then 1000 times
 * shrink it by 16 pages and grow it back one page at a time, then restore
 * the saved break.  Memory is never touched.  One call = 1000 * (1 + 16) =
 * 17000 brk() system calls, the ops factor.  page_test: the same with 100
 * rounds, and after each one-page grow a store every 128 bytes of the new
 * page, so every grow faults and every shrink frees: 1700 ops per call.
 * fork_test, one call: 100 times fork(), the child _exit()s at once, the
 * parent waits for it: 100 ops ("Task Creations") per call.  The body is
 * inferred from the registration table (argument "100", factor 100); it
 * is the mm half of the work mmtests' aim9-pagealloc watches (copying
 * and zapping the page tables of this small process).  exec_test is not
 * done: what AIM9 loads is not in the reference.
 *
 * Page size: AIM9 hard-wires 4096.  We use the real page size
 * (sysconf(_SC_PAGESIZE)), so on a 16K/64K-page kernel the steps are whole
 * pages, as the test intends, rather than sub-page brk() moves.  On 4K-page
 * machines both are the same.
 *
 * Driver: the test function is called back to back until `testtime` has
 * elapsed (checked after each call); ops/sec = calls / elapsed * factor.
 *
 * brk() must not be disturbed: glibc's main arena lives on the same break,
 * so nothing between the start of the loop and the end may allocate (no
 * malloc, no host->log, no stdio).  All state is on the stack; host->now_ns
 * is documented as allocation-free.
 */
#include <mmbench/workload.h>

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { P_TEST, P_TESTTIME };
enum { T_BRK, T_PAGE, T_FORK };

static const struct mmb_param_def aim9_params[] = {
	[P_TEST] = { "test", MMB_PARAM_ENUM, "brk_test", 0, 0, "brk_test|page_test|fork_test",
		     "which AIM9 test to run" },
	[P_TESTTIME] = { "testtime", MMB_PARAM_DURATION, "15s", 100000000LL,
			 3600000000000LL, NULL,
			 "seconds per test (singleuser's \"seconds per test\")" },
	{ 0 },
};

/* Metric index == test index: report the chosen test's metric only. */
static const struct mmb_metric_def aim9_metrics[] = {
	[T_BRK] = { "brk_test.ops_per_sec", "ops/s", MMB_HIGHER_IS_BETTER,
		    "brk() calls per second (17000 per test call)" },
	[T_PAGE] = { "page_test.ops_per_sec", "ops/s", MMB_HIGHER_IS_BETTER,
		     "brk() calls per second with page faults (1700 per test call)" },
	[T_FORK] = { "fork_test.ops_per_sec", "ops/s", MMB_HIGHER_IS_BETTER,
		     "fork() + child exit + wait per second (100 per test call)" },
	{ 0 },
};

static const struct {
	long rounds;		/* AIM9's argument: "1000" / "100" */
	long ops;		/* ops factor per call */
} aim9_tests[] = {
	[T_BRK] = { 1000, 17000 },
	[T_PAGE] = { 100, 1700 },
	[T_FORK] = { 100, 100 },
};

#define GROW (1L << 20)		/* 1 MiB */
#define STEPS 16		/* pages per shrink, and one-page grows after it */
#define STORE_STRIDE 128	/* page_test: one store every 128 bytes */

/* fork_test's call: nothing allocates, so the break stays put here too. */
static int aim9_fork_call(long rounds)
{
	for (long i = 0; i < rounds; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return errno;
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return ECHILD;
	}
	return 0;
}

/* One test call.  Returns 0, or the errno of the failed brk() / fork(). */
static int aim9_call(int test, long rounds, long pg)
{
	char *start = sbrk(0), *p;

	if (test == T_FORK)
		return aim9_fork_call(rounds);

	if (sbrk(GROW) == (void *)-1)
		return errno;
	for (long i = 0; i < rounds; i++) {
		if (sbrk(-(STEPS * pg)) == (void *)-1)
			return errno;
		for (int j = 0; j < STEPS; j++) {
			p = sbrk(pg);
			if (p == (void *)-1)
				return errno;
			if (test == T_PAGE)
				for (long off = 0; off < pg; off += STORE_STRIDE)
					((volatile char *)p)[off] = (char)off;
		}
	}
	if (brk(start))
		return errno;
	return 0;
}

/* All state lives here (static), so the timed child never allocates. */
static struct aim9_state {
	long pg;
	char *brk0;		/* the break before the test */
} aim9_state;

static int aim9_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		      const struct mmb_value *p, void **state)
{
	struct aim9_state *st = &aim9_state;

	st->pg = sysconf(_SC_PAGESIZE);
	if (st->pg <= 0 || STEPS * st->pg > GROW) {
		host->skip(ctx, "page size %ld: 16 pages exceed brk_test's 1 MiB grow",
			   st->pg);
		return MMB_SKIP;
	}
	st->brk0 = sbrk(0);
	*state = st;
	return MMB_OK;
}

static int aim9_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		    const struct mmb_value *p, void *state)
{
	struct aim9_state *st = state;
	int test = (int)p[P_TEST].i, err = 0;
	long rounds = aim9_tests[test].rounds, pg = st->pg;
	uint64_t testtime = (uint64_t)p[P_TESTTIME].i, t0, t1;
	unsigned long calls = 0;

	/* --- no allocation from here to the end of the loop --- */
	t0 = host->now_ns();
	do {
		err = aim9_call(test, rounds, pg);
		if (err)
			break;
		calls++;
		t1 = host->now_ns();
	} while (t1 - t0 < testtime);
	/* --- the break is back where it was --- */
	if (err) {
		host->fail(ctx, "%s: %s failed after %lu calls: %s", aim9_metrics[test].name,
			   test == T_FORK ? "fork" : "brk", calls, strerror(err));
		return MMB_FAIL;
	}
	if (sbrk(0) != st->brk0) {
		host->fail(ctx, "the break moved during the test: something allocated");
		return MMB_FAIL;
	}
	host->report(ctx, (unsigned int)test,
		     (double)calls / ((t1 - t0) / 1e9) * aim9_tests[test].ops);
	return MMB_OK;
}

static void aim9_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			  const struct mmb_value *p, void *state)
{
	/* Nothing was allocated: the break is restored by every test call. */
}

static const struct mmb_workload aim9_workload = {
	MMB_WORKLOAD_INIT,
	.name = "aim9",
	.summary = "AIM Suite IX brk_test / page_test / fork_test: brk() and fork() rates (ops/s)",
	.params = aim9_params,
	.metrics = aim9_metrics,
	.setup = aim9_setup,
	.run = aim9_run,
	.teardown = aim9_teardown,
};

MMB_WORKLOAD(aim9_workload);
