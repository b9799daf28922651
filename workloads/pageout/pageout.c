// SPDX-License-Identifier: GPL-2.0
/*
 * pageout: Barry Song's reclaim micro-benchmark from the commit message of
 * "arm64: support batched/deferred tlb shootdown during page reclamation"
 * (docs/workloads.md, pageout), re-implemented.
 *
 * A 1 MiB shared anonymous (shmem-backed) region is memset once, then
 * `iterations` times: read one byte every `stride` bytes (swapping the
 * pages back in) and madvise(MADV_PAGEOUT) the region (swapping them out).
 * The original is timed externally with `time taskset -c N ./a.out`; we
 * time the same body (memset + loop) from inside and take user/system time
 * from getrusage over the same span.  Setup (mmap, idle threads) is not
 * timed; process start-up, which `time` includes, is not either (it is
 * microseconds against seconds).
 *
 * `idle_threads` threads pinned to other CPUs block for the whole run, so
 * the mm's CPU mask spans several CPUs and the TLB flushes of reclaim
 * become real IPIs (the riscv variant of the benchmark).
 *
 * Needs swap: without an active swap device MADV_PAGEOUT cannot reclaim
 * the pages and the benchmark would time nothing; the plugin skips with
 * "no swap".  After the loop, /proc/vmstat pswpout/pswpin deltas must show
 * that pages really went out and came back, else the iteration fails.
 */
#include <mmbench/workload.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

enum { P_SIZE, P_STRIDE, P_ITERATIONS, P_MAPPING, P_IDLE_THREADS, P_CPU };
enum { MAP_SHARED_ANON, MAP_PRIVATE_ANON };

static const struct mmb_param_def pageout_params[] = {
	[P_SIZE] = { "size", MMB_PARAM_SIZE, "1M", 4096, 1LL << 40, NULL,
		     "region size" },
	[P_STRIDE] = { "stride", MMB_PARAM_SIZE, "4K", 1, 1LL << 30, NULL,
		       "bytes between the reads that swap pages back in" },
	[P_ITERATIONS] = { "iterations", MMB_PARAM_INT, "10000", 1, 1LL << 40, NULL,
			   "read + MADV_PAGEOUT rounds inside one harness iteration" },
	[P_MAPPING] = { "mapping", MMB_PARAM_ENUM, "shared", 0, 0, "shared|private",
			"shared: MAP_SHARED|MAP_ANONYMOUS (shmem, the original); "
			"private: MAP_PRIVATE anonymous" },
	[P_IDLE_THREADS] = { "idle_threads", MMB_PARAM_INT, "0", 0, 1024, NULL,
			     "blocked threads pinned to other CPUs (real TLB-flush IPIs)" },
	[P_CPU] = { "cpu", MMB_PARAM_INT, "-1", -1, 1 << 20, NULL,
		    "CPU to pin the benchmark to; -1 keeps the harness' pin_cpu" },
	{ 0 },
};

enum { M_PER_ITER, M_ELAPSED, M_SYSTEM, M_USER };

static const struct mmb_metric_def pageout_metrics[] = {
	[M_PER_ITER] = { "seconds_per_iteration", "s", MMB_LOWER_IS_BETTER,
			 "elapsed / iterations: one read pass plus one MADV_PAGEOUT" },
	[M_ELAPSED] = { "elapsed", "s", MMB_LOWER_IS_BETTER, "wall time of memset + loop" },
	[M_SYSTEM] = { "system", "s", MMB_LOWER_IS_BETTER, "system CPU time, same span" },
	[M_USER] = { "user", "s", MMB_LOWER_IS_BETTER, "user CPU time, same span" },
	{ 0 },
};

struct pageout {
	volatile unsigned char *p;
	size_t size;
	pthread_t *idle;
	int nidle;
	int pipefd[2];		/* idle threads block reading [0] until teardown */
};

/*
 * No swap check here: the descriptor's MMB_REQ_SWAP has the harness check
 * at plan time and again, once the experiment's zram swap is up, before setup.
 */
static const char *pageout_supported(const struct mmb_host *host, const struct mmb_value *p)
{
	if (p[P_IDLE_THREADS].i && host->ncpus < 2)
		return "idle_threads needs at least 2 CPUs";
	return NULL;
}

static int vmstat(unsigned long long *out, int n, const char *const *names)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char name[64];
	unsigned long long v;
	int found = 0;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		for (int i = 0; i < n; i++)
			if (!strcmp(name, names[i])) {
				out[i] = v;
				found++;
			}
	fclose(f);
	return found == n ? 0 : -1;
}

struct idle_arg {
	int cpu, fd;
};

static void *idle_main(void *arg)
{
	struct idle_arg *a = arg;
	cpu_set_t set;
	char c;

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	/* best effort: the thread still shares the mm if this fails */
	(void)sched_setaffinity(0, sizeof(set), &set);
	while (read(a->fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static int pageout_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *p, void **state)
{
	struct pageout *s = calloc(1, sizeof(*s));
	static struct idle_arg args[1024];
	int me, cpu = (int)p[P_CPU].i, flags;
	const char *why;
	cpu_set_t set;

	if (!s) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	s->pipefd[0] = s->pipefd[1] = -1;
	*state = s;
	if ((why = pageout_supported(host, p))) {
		host->skip(ctx, "%s", why);
		return MMB_SKIP;
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			host->fail(ctx, "cannot pin to CPU %d: %s", cpu, strerror(errno));
			return MMB_FAIL;
		}
	}
	me = cpu >= 0 ? cpu : host->pin_cpu >= 0 ? host->pin_cpu : sched_getcpu();

	s->size = (size_t)p[P_SIZE].i;
	flags = MAP_ANONYMOUS | (p[P_MAPPING].i == MAP_SHARED_ANON ? MAP_SHARED : MAP_PRIVATE);
	s->p = mmap(NULL, s->size, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (s->p == MAP_FAILED) {
		s->p = NULL;
		host->fail(ctx, "mmap of %zu bytes: %s", s->size, strerror(errno));
		return MMB_FAIL;
	}

	s->nidle = (int)p[P_IDLE_THREADS].i;
	if (s->nidle) {
		int ncpu = host->ncpus > 0 ? host->ncpus : 1, next = 0;

		if (pipe(s->pipefd) || !(s->idle = calloc(s->nidle, sizeof(*s->idle)))) {
			host->fail(ctx, "cannot prepare idle threads: %s", strerror(errno));
			s->nidle = 0;
			return MMB_FAIL;
		}
		for (int i = 0; i < s->nidle; i++) {
			/* round robin over the other CPUs */
			if (next % ncpu == me % ncpu)
				next++;
			args[i].cpu = next % ncpu;
			args[i].fd = s->pipefd[0];
			next++;
			if (pthread_create(&s->idle[i], NULL, idle_main, &args[i])) {
				host->fail(ctx, "cannot create idle thread %d", i);
				s->nidle = i;
				return MMB_FAIL;
			}
		}
	}
	return MMB_OK;
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static int pageout_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		       const struct mmb_value *p, void *state)
{
	static const char *const names[] = { "pswpout", "pswpin" };
	struct pageout *s = state;
	size_t stride = (size_t)p[P_STRIDE].i;
	long iters = (long)p[P_ITERATIONS].i, bad = 0;
	unsigned long long v0[2], v1[2], out, in, pages;
	struct rusage r0, r1;
	uint64_t t0, t1;
	double elapsed;

	if (vmstat(v0, 2, names)) {
		host->fail(ctx, "cannot read pswpout/pswpin from /proc/vmstat");
		return MMB_FAIL;
	}
	getrusage(RUSAGE_SELF, &r0);
	t0 = host->now_ns();
	memset((void *)s->p, 0x88, s->size);
	for (long i = 0; i < iters; i++) {
		for (size_t off = 0; off < s->size; off += stride)
			(void)s->p[off];	/* swap in */
		bad += madvise((void *)s->p, s->size, MADV_PAGEOUT) != 0; /* swap out */
	}
	t1 = host->now_ns();
	getrusage(RUSAGE_SELF, &r1);
	vmstat(v1, 2, names);

	if (bad) {
		host->fail(ctx, "madvise(MADV_PAGEOUT) failed %ld times: %s", bad, strerror(errno));
		return MMB_FAIL;
	}
	/*
	 * Pages the reads touch, per round; each should go out once per round.
	 * Other processes may swap too, so the check is one-sided, and
	 * generous (half) because reclaim may skip a page under contention.
	 */
	pages = (s->size + stride - 1) / stride;
	if (pages > s->size / 4096)
		pages = s->size / 4096 ? s->size / 4096 : 1;
	out = v1[0] - v0[0];
	in = v1[1] - v0[1];
	if (out < pages * iters / 2 || (iters > 1 && in < pages * (iters - 1) / 2)) {
		host->fail(ctx, "pages were not paged out and back in: pswpout +%llu, pswpin +%llu, "
			   "expected about %llu each", out, in, pages * iters);
		return MMB_FAIL;
	}
	elapsed = (t1 - t0) / 1e9;
	host->report(ctx, M_PER_ITER, elapsed / iters);
	host->report(ctx, M_ELAPSED, elapsed);
	host->report(ctx, M_SYSTEM, tv_s(r1.ru_stime) - tv_s(r0.ru_stime));
	host->report(ctx, M_USER, tv_s(r1.ru_utime) - tv_s(r0.ru_utime));
	host->log(ctx, MMB_LOG_INFO, "pswpout +%llu, pswpin +%llu over %ld rounds", out, in,
		  iters);
	return MMB_OK;
}

static void pageout_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			     const struct mmb_value *p, void *state)
{
	struct pageout *s = state;

	if (!s)
		return;
	if (s->pipefd[1] >= 0)
		close(s->pipefd[1]);	/* EOF releases the idle threads */
	for (int i = 0; i < s->nidle; i++)
		pthread_join(s->idle[i], NULL);
	if (s->pipefd[0] >= 0)
		close(s->pipefd[0]);
	free(s->idle);
	if (s->p)
		munmap((void *)s->p, s->size);
	free(s);
}

static const struct mmb_workload pageout_workload = {
	MMB_WORKLOAD_INIT,
	.name = "pageout",
	.summary = "Barry Song's reclaim loop: touch 1 MiB, MADV_PAGEOUT, repeat (needs swap)",
	.params = pageout_params,
	.metrics = pageout_metrics,
	.requires = MMB_REQ_SWAP,
	.supported = pageout_supported,
	.setup = pageout_setup,
	.run = pageout_run,
	.teardown = pageout_teardown,
};

MMB_WORKLOAD(pageout_workload);
