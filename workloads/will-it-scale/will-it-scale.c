// SPDX-License-Identifier: GPL-2.0
/*
 * will-it-scale: the mm testcases 0-day reports come from, written anew
 * after the behaviour described in docs/workloads.md, will-it-scale.
 *
 * nr_task tasks (processes, or threads sharing one mm) each run one
 * testcase loop and bump their own counter, alone in a 128-byte block so no
 * two tasks share a cache line (or an adjacent-line prefetch pair).  Tasks
 * are pinned one per CPU by default.  The main task waits `warmup`, then
 * takes one sample per second for `duration`: the sum of the counters'
 * increments, scaled by the measured interval.  Samples are reported after
 * the tasks have stopped (nothing runs in the host while brk() moves).
 *
 * Metrics as 0-day names them: per_process_ops or per_thread_ops (ops/s per
 * task, the KPI; `will-it-scale.per_process_ops` in the lkp layout) and
 * throughput (ops/s of all tasks together).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mmbench/workload.h>

enum { P_TEST, P_MODE, P_NR_TASK, P_DURATION, P_WARMUP, P_PIN, P_SIZE, P_DIR };
enum { MODE_PROCESS, MODE_THREAD };
enum { M_PER_PROCESS, M_PER_THREAD, M_THROUGHPUT };
enum {
	T_PAGE_FAULT1, T_PAGE_FAULT2, T_PAGE_FAULT3, T_BRK1, T_BRK2, T_MMAP1, T_MMAP2,
	T_MALLOC1, T_MALLOC2, T_TLB_FLUSH1, T_TLB_FLUSH2, T_TLB_FLUSH3,
};

#define WIS_TESTS "page_fault1|page_fault2|page_fault3|brk1|brk2|mmap1|mmap2|" \
		  "malloc1|malloc2|tlb_flush1|tlb_flush2|tlb_flush3"
#define MAX_TASKS	4096
#define MAX_SAMPLES	3600
#define LINE		128	/* counter spacing: two 64-byte lines */
#define TLB_REGION	(1u << 20)	/* tlb_flush*: small, so flushes dominate */
#define SMALL_ALLOC	1024		/* malloc2 */

static const struct mmb_param_def wis_params[] = {
	[P_TEST] = { "test", MMB_PARAM_ENUM, "page_fault1", 0, 0, WIS_TESTS,
		     "testcase (will-it-scale name)" },
	[P_MODE] = { "mode", MMB_PARAM_ENUM, "process", 0, 0, "process|thread",
		     "tasks are processes (own mm) or threads (one shared mm)" },
	[P_NR_TASK] = { "nr_task", MMB_PARAM_INT, "1", 1, MAX_TASKS, NULL,
			"tasks; lkp style 100% = one per CPU" },
	[P_DURATION] = { "duration", MMB_PARAM_DURATION, "5s", 1000000000LL, 3600000000000LL,
			 NULL, "measured seconds: one sample per second (will-it-scale -s)" },
	[P_WARMUP] = { "warmup", MMB_PARAM_DURATION, "5s", 0, 600000000000LL, NULL,
		       "seconds run before the first sample" },
	[P_PIN] = { "pin", MMB_PARAM_BOOL, "true", 0, 0, NULL,
		    "pin task i to CPU i mod ncpu (will-it-scale default; false = -n)" },
	[P_SIZE] = { "size", MMB_PARAM_SIZE, "128M", 1 << 16, 1LL << 40, NULL,
		     "bytes per task for page_fault*, mmap*, malloc1" },
	[P_DIR] = { "dir", MMB_PARAM_STRING, "/tmp", 0, 0, NULL,
		    "where page_fault2/3, mmap2 and tlb_flush2 create their per-task file" },
	{ 0 },
};

static const struct mmb_metric_def wis_metrics[] = {
	[M_PER_PROCESS] = { "per_process_ops", "ops/s", MMB_HIGHER_IS_BETTER,
			    "operations per second per task, mode process (one sample per second)" },
	[M_PER_THREAD] = { "per_thread_ops", "ops/s", MMB_HIGHER_IS_BETTER,
			   "operations per second per task, mode thread (one sample per second)" },
	[M_THROUGHPUT] = { "throughput", "ops/s", MMB_HIGHER_IS_BETTER,
			   "operations per second of all tasks together" },
	{ 0 },
};

/* Shared with the tasks (MAP_SHARED: forked processes see it too). */
struct control {
	volatile int go;		/* tasks start looping */
	volatile int stop;		/* tasks leave their loop */
	volatile int ready;		/* tasks set up (atomic add) */
	volatile int err;		/* first task error (errno), 0 none */
	volatile int err_task;
	char err_what[64];
};

struct wis_state {
	int test, mode, nr_task, ncpus;
	bool pin;
	size_t size, page;
	const char *dir;
	struct control *ctl;
	char *counters;			/* nr_task blocks of LINE bytes */
	size_t map_len;
	pid_t *pids;
	pthread_t *threads;
	int started;
	void *brk0;			/* break before the tasks ran (thread mode) */
	double samples[MAX_SAMPLES];	/* total ops/s per second */
	int nsamples;
};

struct task_arg {
	struct wis_state *st;
	int idx;
};

static volatile uint64_t *counter(struct wis_state *st, int i)
{
	return (volatile uint64_t *)(st->counters + (size_t)i * LINE);
}

static void task_error(struct wis_state *st, int idx, const char *what, int e)
{
	if (__sync_bool_compare_and_swap(&st->ctl->err, 0, e ? e : EIO)) {
		st->ctl->err_task = idx;
		snprintf(st->ctl->err_what, sizeof(st->ctl->err_what), "%s", what);
	}
}

/* A per-task file of `size` bytes, already unlinked (will-it-scale's tmpfile). */
static int task_file(struct wis_state *st, int idx, size_t size)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/mmbench-wis-XXXXXX", st->dir);
	fd = mkstemp(path);
	if (fd < 0) {
		task_error(st, idx, "mkstemp in dir", errno);
		return -1;
	}
	unlink(path);
	if (ftruncate(fd, (off_t)size) < 0) {
		task_error(st, idx, "ftruncate", errno);
		close(fd);
		return -1;
	}
	return fd;
}

static void pin_task(struct wis_state *st, int idx)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (st->pin) {
		CPU_SET(idx % st->ncpus, &set);
	} else {
		/* undo any pinning the harness gave the iteration */
		for (int c = 0; c < st->ncpus && c < CPU_SETSIZE; c++)
			CPU_SET(c, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

/* Touch one byte per page of [p, p+len): one op per page. */
static void touch_pages(char *p, size_t len, size_t page, volatile uint64_t *ops)
{
	for (size_t off = 0; off < len; off += page) {
		p[off] = 1;
		(*ops)++;
	}
}

/* A task set up: count it ready, then wait for the common start. */
static void ready_then_wait_go(struct wis_state *st)
{
	__sync_fetch_and_add(&st->ctl->ready, 1);
	while (!st->ctl->go)
		sched_yield();
}

/*
 * The testcase loops.  Each runs until ctl->stop, counting into *ops.
 * Returns only on stop or error (errors via task_error).
 */
/*
 * page_fault1-3 and mmap1-2: map st->size and unmap it, over and over;
 * anonymous (page_fault1, mmap1) or of the task's file, MAP_PRIVATE for
 * page_fault2.  page_fault touches every page between (an op a page),
 * mmap counts the pair as one op.
 */
static void loop_map(struct wis_state *st, int idx, volatile uint64_t *ops)
{
	bool touch = st->test <= T_PAGE_FAULT3;
	int fd = -1, flags = MAP_PRIVATE | MAP_ANONYMOUS;

	if (st->test != T_PAGE_FAULT1 && st->test != T_MMAP1) {
		fd = task_file(st, idx, st->size);
		if (fd < 0)
			return;
		flags = st->test == T_PAGE_FAULT2 ? MAP_PRIVATE : MAP_SHARED;
	}
	ready_then_wait_go(st);
	while (!st->ctl->stop) {
		char *p = mmap(NULL, st->size, PROT_READ | PROT_WRITE, flags, fd, 0);

		if (p == MAP_FAILED) {
			task_error(st, idx, "mmap", errno);
			break;
		}
		if (touch)
			touch_pages(p, st->size, st->page, ops);
		munmap(p, st->size);
		if (!touch)
			(*ops)++;
	}
	if (fd >= 0)
		close(fd);
}

static void loop_brk(struct wis_state *st, int idx, volatile uint64_t *ops)
{
	char *start, *cur;

	ready_then_wait_go(st);
	/*
	 * The break is read only now: nothing allocates from the heap once the
	 * tasks run, so no task ever moves it below memory malloc handed out.
	 */
	start = sbrk(0);
	if (start == (char *)-1) {
		task_error(st, idx, "sbrk", errno);
		return;
	}
	cur = start;
	/* brk2: keep one page so the heap VMA always exists; only expand/shrink */
	if (st->test == T_BRK2) {
		cur += st->page;
		if (brk(cur) < 0) {
			task_error(st, idx, "brk", errno);
			return;
		}
	}
	while (!st->ctl->stop) {
		/* memory is never touched: the VMA grows and shrinks only */
		if (brk(cur + st->page) < 0 || brk(cur) < 0) {
			task_error(st, idx, "brk", errno);
			break;
		}
		*ops += 2;
	}
	if (st->mode == MODE_PROCESS)
		brk(start);
}

static void loop_malloc(struct wis_state *st, int idx, volatile uint64_t *ops)
{
	size_t n = st->test == T_MALLOC1 ? st->size : SMALL_ALLOC;

	ready_then_wait_go(st);
	while (!st->ctl->stop) {
		/* volatile: the compiler must not elide the pair */
		char *volatile p = malloc(n);

		if (!p) {
			task_error(st, idx, "malloc", ENOMEM);
			break;
		}
		free(p);
		(*ops)++;
	}
}

static void loop_tlb_flush(struct wis_state *st, int idx, volatile uint64_t *ops)
{
	int fd = -1, flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p;

	if (st->test == T_TLB_FLUSH2) {
		fd = task_file(st, idx, TLB_REGION);
		if (fd < 0)
			return;
		flags = MAP_SHARED;
	}
	p = mmap(NULL, TLB_REGION, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (p == MAP_FAILED) {
		task_error(st, idx, "mmap", errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	ready_then_wait_go(st);
	while (!st->ctl->stop) {
		touch_pages(p, TLB_REGION, st->page, ops);
		if (st->test == T_TLB_FLUSH3) {
			/* permission change: a flush without freeing the pages */
			if (mprotect(p, TLB_REGION, PROT_READ) < 0 ||
			    mprotect(p, TLB_REGION, PROT_READ | PROT_WRITE) < 0) {
				task_error(st, idx, "mprotect", errno);
				break;
			}
		} else if (madvise(p, TLB_REGION, MADV_DONTNEED) < 0) {
			task_error(st, idx, "madvise(MADV_DONTNEED)", errno);
			break;
		}
	}
	munmap(p, TLB_REGION);
	if (fd >= 0)
		close(fd);
}

/* The testcase loop of each test. */
static void (*const loops[])(struct wis_state *st, int idx, volatile uint64_t *ops) = {
	[T_PAGE_FAULT1] = loop_map, [T_PAGE_FAULT2] = loop_map, [T_PAGE_FAULT3] = loop_map,
	[T_BRK1] = loop_brk, [T_BRK2] = loop_brk,
	[T_MMAP1] = loop_map, [T_MMAP2] = loop_map,
	[T_MALLOC1] = loop_malloc, [T_MALLOC2] = loop_malloc,
	[T_TLB_FLUSH1] = loop_tlb_flush, [T_TLB_FLUSH2] = loop_tlb_flush,
	[T_TLB_FLUSH3] = loop_tlb_flush,
};

static void task_body(struct wis_state *st, int idx)
{
	volatile uint64_t *ops = counter(st, idx);

	pin_task(st, idx);
	loops[st->test](st, idx, ops);
}

static void *thread_main(void *arg)
{
	struct task_arg *a = arg;

	task_body(a->st, a->idx);
	return NULL;
}

static const char *wis_check_params(const struct mmb_value *params)
{
	if (params[P_DURATION].i / 1000000000LL > MAX_SAMPLES)
		return "duration: at most 3600 one-second samples";
	if (!params[P_DIR].s[0])
		return "dir must not be empty";
	return NULL;
}

static bool uses_size(int test)
{
	return test <= T_PAGE_FAULT3 || test == T_MMAP1 || test == T_MMAP2 || test == T_MALLOC1;
}

static const char *wis_supported(const struct mmb_host *host, const struct mmb_value *params)
{
	int test = (int)params[P_TEST].i;

	if (uses_size(test) && host->mem_total &&
	    (uint64_t)params[P_SIZE].i * (uint64_t)params[P_NR_TASK].i > host->mem_total / 2)
		return "nr_task * size is more than half of MemTotal";
	return NULL;
}

static int wis_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *params, void **state)
{
	struct wis_state *st = calloc(1, sizeof(*st));
	long ps = sysconf(_SC_PAGESIZE);

	if (!st) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = st;
	st->test = (int)params[P_TEST].i;
	st->mode = (int)params[P_MODE].i;
	st->nr_task = (int)params[P_NR_TASK].i;
	st->pin = params[P_PIN].i != 0;
	st->size = (size_t)params[P_SIZE].i;
	st->dir = params[P_DIR].s;
	st->page = ps > 0 ? (size_t)ps : 4096;
	st->ncpus = host->ncpus > 0 ? host->ncpus : 1;
	st->size -= st->size % st->page;
	st->map_len = sizeof(struct control) + LINE + (size_t)st->nr_task * LINE;
	st->ctl = mmap(NULL, st->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->ctl == MAP_FAILED) {
		st->ctl = NULL;
		host->fail(ctx, "mmap of the counters: %s", strerror(errno));
		return MMB_FAIL;
	}
	/* counters start on their own line, after the control block */
	st->counters = (char *)st->ctl + ((sizeof(struct control) + LINE - 1) / LINE) * LINE;
	st->pids = calloc((size_t)st->nr_task, sizeof(*st->pids));
	st->threads = calloc((size_t)st->nr_task, sizeof(*st->threads));
	if (!st->pids || !st->threads) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	return MMB_OK;
}

/* Stop the tasks: flag, then SIGKILL for processes, join for threads. */
static void stop_tasks(struct wis_state *st)
{
	st->ctl->go = 1;
	st->ctl->stop = 1;
	if (st->mode == MODE_PROCESS) {
		for (int i = 0; i < st->started; i++)
			if (st->pids[i] > 0)
				kill(st->pids[i], SIGKILL);
		for (int i = 0; i < st->started; i++)
			if (st->pids[i] > 0)
				waitpid(st->pids[i], NULL, 0);
	} else {
		for (int i = 0; i < st->started; i++)
			pthread_join(st->threads[i], NULL);
	}
	st->started = 0;
}

static uint64_t sum_counters(struct wis_state *st)
{
	uint64_t s = 0;

	for (int i = 0; i < st->nr_task; i++)
		s += *counter(st, i);
	return s;
}

static void sleep_until(const struct mmb_host *host, uint64_t t_ns)
{
	struct timespec ts = { (time_t)(t_ns / 1000000000ull), (long)(t_ns % 1000000000ull) };

	(void)host;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int wis_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *params, void *state)
{
	struct wis_state *st = state;
	struct task_arg *args;
	int64_t nsamples = params[P_DURATION].i / 1000000000LL;
	uint64_t t, prev_ops, prev_t, wait_start;
	bool stopped = false;

	args = calloc((size_t)st->nr_task, sizeof(*args));
	if (!args) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	for (int i = 0; i < st->nr_task; i++) {
		args[i].st = st;
		args[i].idx = i;
		if (st->mode == MODE_PROCESS) {
			pid_t pid = fork();

			if (pid < 0) {
				host->fail(ctx, "fork of task %d: %s", i, strerror(errno));
				goto fail;
			}
			if (pid == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				task_body(st, i);
				_exit(0);
			}
			st->pids[i] = pid;
		} else {
			int e = pthread_create(&st->threads[i], NULL, thread_main, &args[i]);

			if (e) {
				host->fail(ctx, "pthread_create of task %d: %s", i, strerror(e));
				goto fail;
			}
		}
		st->started++;
	}
	/* all tasks set up (files created, pinned) before the clock starts */
	wait_start = host->now_ns();
	while (st->ctl->ready < st->nr_task && !st->ctl->err) {
		if (host->should_stop(ctx) || host->now_ns() - wait_start > 60000000000ull) {
			host->fail(ctx, "tasks did not get ready (%d of %d)", st->ctl->ready,
				    st->nr_task);
			goto fail;
		}
		usleep(1000);
	}
	st->brk0 = sbrk(0);
	st->ctl->go = 1;
	t = host->now_ns();
	if (!st->ctl->err)
		sleep_until(host, t + (uint64_t)params[P_WARMUP].i);
	prev_t = host->now_ns();
	prev_ops = sum_counters(st);
	for (int64_t s = 0; s < nsamples && !st->ctl->err; s++) {
		uint64_t now, ops;

		sleep_until(host, prev_t + 1000000000ull);
		now = host->now_ns();
		ops = sum_counters(st);
		st->samples[st->nsamples++] = (double)(ops - prev_ops) * 1e9 / (double)(now - prev_t);
		prev_ops = ops;
		prev_t = now;
		if (host->should_stop(ctx)) {
			stopped = true;
			break;
		}
	}
	stop_tasks(st);
	free(args);
	args = NULL;
	/* threads shared one break: put it back where the heap ends */
	if (st->mode == MODE_THREAD && (st->test == T_BRK1 || st->test == T_BRK2) &&
	    st->brk0 != (void *)-1)
		brk(st->brk0);
	if (st->ctl->err) {
		host->fail(ctx, "task %d: %s: %s", st->ctl->err_task, st->ctl->err_what,
			   strerror(st->ctl->err));
		return MMB_FAIL;
	}
	if (!st->nsamples) {
		host->fail(ctx, "stopped before the first sample");
		return MMB_FAIL;
	}
	for (int i = 0; i < st->nsamples; i++) {
		host->report(ctx, st->mode == MODE_PROCESS ? M_PER_PROCESS : M_PER_THREAD,
			     st->samples[i] / st->nr_task);
		host->report(ctx, M_THROUGHPUT, st->samples[i]);
	}
	if (stopped)
		host->log(ctx, MMB_LOG_INFO, "stopped after %d of %lld samples", st->nsamples,
			  (long long)nsamples);
	return MMB_OK;
fail:
	stop_tasks(st);
	free(args);
	return MMB_FAIL;
}

static void wis_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *params, void *state)
{
	struct wis_state *st = state;

	(void)host;
	(void)ctx;
	(void)params;
	if (!st)
		return;
	if (st->ctl && st->started)
		stop_tasks(st);
	if (st->ctl)
		munmap(st->ctl, st->map_len);
	free(st->pids);
	free(st->threads);
	free(st);
}

static const struct mmb_workload wis_workload = {
	MMB_WORKLOAD_INIT,
	.name = "will-it-scale",
	.summary = "will-it-scale mm testcases (page_fault*, brk*, mmap*, malloc*, tlb_flush*): ops/s per task",
	.params = wis_params,
	.metrics = wis_metrics,
	.supported = wis_supported,
	.setup = wis_setup,
	.run = wis_run,
	.teardown = wis_teardown,
	.check_params = wis_check_params,
};

MMB_WORKLOAD(wis_workload);
