// SPDX-License-Identifier: GPL-2.0
/*
 * pft: the "Page Fault Test" (pft 0.12x behaviour, clean-room).
 *
 * One untouched private anonymous mapping is split into one slice per
 * worker; every worker writes one byte per cache line (first `cachelines`
 * lines) of every page of its slice, so with cachelines=1 each base page
 * costs exactly one anonymous write fault.  Workers are threads sharing the
 * mm (pft-threads: contention on one mm) or forked processes (pft -n: each
 * child faults its own private COW view).
 *
 * Fidelity with pft 0.12x (docs/workloads.md, pft):
 *  - page count rounding: pages = ceil(bytes/PAGE),
 *    pages_per_test = ceil(pages/n), pages = pages_per_test * n;
 *  - the region is mapped once by the launcher (the iteration child) before
 *    any worker starts; workers publish READY and spin on `go`; the launcher
 *    sets `go` and runs worker 0 itself;
 *  - per worker: clock_gettime(CLOCK_REALTIME), getrusage(RUSAGE_THREAD),
 *    touch loop, getrusage, clock_gettime -- nothing else is timed;
 *  - wall = latest end - earliest start, user/sys = sums of per-worker
 *    rusage deltas; faults are the *computed* page count, measured minor
 *    faults are only compared: a warning above 10% off what the THP state
 *    allows (with THP on for the region, a fault maps a whole folio, so
 *    as few as pages / folio pages faults are expected).
 * Deliberate differences, none inside the timed loop:
 *  - the start is pft's: the launcher sleeps 0.5 ms once its workers are
 *    started, waits until each is READY and sets go.  A worker the
 *    scheduler left on the launcher's CPU starts late, in pft as here.
 *    Waiting instead until each worker was seen running started them
 *    together where pft's do not: 1.01-1.06x pft's -t2 faults/sec on an
 *    AMD EPYC host (docs/workloads.md);
 *  - pft clips n to the allowed CPUs; we run exactly `clients` workers (the
 *    variant label must not lie) and warn instead;
 *  - every worker calls clock_gettime/getrusage once before READY, so the
 *    few minor faults on code, vDSO and comm pages a fresh child takes on
 *    first use do not land in its timed region;
 *  - faults/cpu divides by the workers' CPU clocks (CLOCK_THREAD_CPUTIME_ID
 *    around the loop), not rusage's user + sys: rusage's total moves only
 *    when the scheduler accounts the thread, so a short loop on a fast
 *    machine read 0 (the same quantity, without the granularity).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mmbench/workload.h>

#define PFT_MAX_CLIENTS	128	/* pft's MAX_TESTS */
#define PFT_FALLBACK_LINE 128	/* pft's line size when sysconf has none */
#define PFT_START_PAUSE_NS 500000L /* pft's launcher sleeps this long before it looks for READY */
#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* Record the reason and fail the iteration: return PFT_FAIL("why %d", x); */
#define PFT_FAIL(...) (host->fail(ctx, __VA_ARGS__), MMB_FAIL)

enum { P_SIZE, P_CLIENTS, P_MODE, P_CACHELINES, P_CACHELINE_SIZE };
enum { MODE_THREADS, MODE_PROCESSES };
enum { M_FAULTS_SEC, M_FAULTS_CPU, M_SYSTEM, M_ELAPSED, M_USER };

static const struct mmb_param_def pft_params[] = {
	[P_SIZE] = { .name = "size", .type = MMB_PARAM_SIZE, .def = "20%mem",
		     .min = 1, .max = INT64_MAX,
		     .help = "total region, split evenly between the workers (pft -m)" },
	[P_CLIENTS] = { .name = "clients", .type = MMB_PARAM_INT, .def = "1",
			.min = 1, .max = PFT_MAX_CLIENTS,
			.help = "number of workers (pft -t N / -n N)" },
	[P_MODE] = { .name = "mode", .type = MMB_PARAM_ENUM, .def = "threads",
		     .choices = "threads|processes",
		     .help = "threads share one mm (pft -t); processes fork (pft -n)" },
	[P_CACHELINES] = { .name = "cachelines", .type = MMB_PARAM_INT, .def = "1",
			   .min = 1, .max = 65536,
			   .help = "cache lines written per page (pft -c)" },
	[P_CACHELINE_SIZE] = { .name = "cacheline_size", .type = MMB_PARAM_INT, .def = "0",
			       .min = 0, .max = 65536,
			       .help = "bytes per cache line; 0 = sysconf L1D line size, else 128" },
	{ .name = NULL },
};

/* .places: mmtests' pft shellpack prints 4 decimals */
static const struct mmb_metric_def pft_metrics[] = {
	[M_FAULTS_SEC] = { "faults/sec", "faults/s", MMB_HIGHER_IS_BETTER,
			   "pages / wall seconds (pft fault/wsec)", .places = 4 },
	[M_FAULTS_CPU] = { "faults/cpu", "faults/cpu-s", MMB_HIGHER_IS_BETTER,
			   "pages / (user + system) seconds summed over workers (pft flt/cpu/s)", .places = 4 },
	[M_SYSTEM] = { "system", "s", MMB_LOWER_IS_BETTER,
		       "system CPU seconds summed over workers", .places = 4 },
	[M_ELAPSED] = { "elapsed", "s", MMB_LOWER_IS_BETTER,
			"wall seconds, earliest worker start to latest worker end", .places = 4 },
	[M_USER] = { "user", "s", MMB_LOWER_IS_BETTER,
		     "user CPU seconds summed over workers", .places = 4 },
	{ .name = NULL },
};

struct pft_comm;

/*
 * Per-worker slot in the comm area.  Aligned so that workers publishing
 * their timestamps do not share a cache line; each worker writes all of
 * its slot before READY, so no comm-area fault lands in the timed region.
 */
struct pft_worker {
	int ready;
	struct timespec start, end;
	struct rusage ru_start, ru_end;
	/*
	 * The thread's CPU clock around the loop: rusage's totals move only
	 * when the scheduler accounts the thread (a tick or a switch), so a
	 * loop shorter than that read 0 on a fast machine; this clock is
	 * exact.  faults/cpu divides by it; user and system stay rusage's.
	 */
	struct timespec cpu_start, cpu_end;
	char *base;
	size_t bytes;
	struct pft_comm *comm;
	pthread_t thread;
	pid_t pid;
} __attribute__((aligned(128)));

/* MAP_SHARED anonymous, so forked workers can publish into it (pft's comm). */
struct pft_comm {
	int go;			/* 0 wait, 1 run, -1 abort */
	size_t page;
	size_t line;
	unsigned int lines;
	struct pft_worker w[PFT_MAX_CLIENTS];
};

struct pft_state {
	char *region;
	size_t region_bytes;
	struct pft_comm *comm;
	unsigned long pages;		/* after rounding: pages_per_test * n */
	unsigned long pages_per_test;
	int n;
	int mode;
};

static size_t pft_line_size(int64_t param)
{
	long l;

	if (param > 0)
		return (size_t)param;
	l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	return l > 0 ? (size_t)l : PFT_FALLBACK_LINE;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The timed region, per worker.  No host calls, allocation or logging:
 * only the clock and rusage reads around the touch loop.
 */
static void pft_touch(struct pft_worker *w, size_t page, size_t line,
		      unsigned int lines)
{
	volatile char *p = w->base;
	volatile char *end = w->base + w->bytes;
	unsigned int i;

	clock_gettime(CLOCK_REALTIME, &w->start);
	getrusage(RUSAGE_THREAD, &w->ru_start);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w->cpu_start);
	for (; p < end; p += page)
		for (i = 0; i < lines; i++)
			p[i * line] = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w->cpu_end);
	getrusage(RUSAGE_THREAD, &w->ru_end);
	clock_gettime(CLOCK_REALTIME, &w->end);
}

/*
 * Take now the faults a worker would otherwise take inside its timed
 * region: its comm slot (shmem, mapped lazily in a forked child) and the
 * code/vDSO pages behind clock_gettime and getrusage.
 */
static void pft_warm(struct pft_worker *w)
{
	clock_gettime(CLOCK_REALTIME, &w->start);
	getrusage(RUSAGE_THREAD, &w->ru_start);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w->cpu_start);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w->cpu_end);
	getrusage(RUSAGE_THREAD, &w->ru_end);
	clock_gettime(CLOCK_REALTIME, &w->end);
}

/* Worker 1..n-1: publish READY, spin on go, run the loop.  0 = ran. */
static int pft_worker_body(struct pft_worker *w)
{
	struct pft_comm *comm = w->comm;
	int go;

	pft_warm(w);
	__atomic_store_n(&w->ready, 1, __ATOMIC_RELEASE);
	while ((go = __atomic_load_n(&comm->go, __ATOMIC_ACQUIRE)) == 0) {
		cpu_relax();
	}
	if (go < 0)
		return -1;
	pft_touch(w, comm->page, comm->line, comm->lines);
	return 0;
}

static void *pft_thread(void *arg)
{
	pft_worker_body(arg);
	return NULL;
}

static const char *pft_check_params(const struct mmb_value *params)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t line = pft_line_size(params[P_CACHELINE_SIZE].i);

	if ((uint64_t)params[P_CACHELINES].i * line > (uint64_t)page)
		return "cachelines * cacheline_size must not exceed the page size";
	return NULL;
}

static const char *pft_supported(const struct mmb_host *host,
				 const struct mmb_value *params)
{
	if (host->mem_total && (uint64_t)params[P_SIZE].i > host->mem_total)
		return "size is larger than MemTotal";
	return NULL;
}

static void pft_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *params, void *state)
{
	struct pft_state *st = state;

	if (!st)
		return;
	if (st->region)
		munmap(st->region, st->region_bytes);
	if (st->comm)
		munmap(st->comm, sizeof(*st->comm));
	free(st);
}

static int pft_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *params, void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t bytes = (uint64_t)params[P_SIZE].i;
	int n = (int)params[P_CLIENTS].i;
	struct pft_state *st;
	struct pft_comm *comm;
	cpu_set_t set;
	const char *why;
	int j;

	if ((why = pft_check_params(params)))
		return PFT_FAIL("%s", why);
	if (n < 1 || n > PFT_MAX_CLIENTS)
		return PFT_FAIL("clients=%d out of 1..%d", n, PFT_MAX_CLIENTS);

	st = calloc(1, sizeof(*st));
	if (!st)
		return PFT_FAIL("out of memory");
	*state = st;
	st->n = n;
	st->mode = (int)params[P_MODE].i;

	/* pft 0.12x rounding: every worker gets the same whole number of pages. */
	st->pages = (unsigned long)((bytes + page - 1) / page);
	st->pages_per_test = (st->pages + n - 1) / n;
	st->pages = st->pages_per_test * (unsigned long)n;
	st->region_bytes = st->pages * page;

	comm = mmap(NULL, sizeof(*comm), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (comm == MAP_FAILED)
		return PFT_FAIL("mmap comm area: %s", strerror(errno));
	memset(comm, 0, sizeof(*comm));	/* also faults it in, untimed */
	st->comm = comm;
	comm->page = page;
	comm->line = pft_line_size(params[P_CACHELINE_SIZE].i);
	comm->lines = (unsigned int)params[P_CACHELINES].i;

	/* The region: one VMA, untouched until the workers write to it. */
	st->region = mmap(NULL, st->region_bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->region == MAP_FAILED) {
		st->region = NULL;
		return PFT_FAIL("mmap %zu bytes: %s", st->region_bytes,
				  strerror(errno));
	}
	for (j = 0; j < n; j++) {
		comm->w[j].base = st->region + (size_t)j * st->pages_per_test * page;
		comm->w[j].bytes = st->pages_per_test * page;
		comm->w[j].comm = comm;
	}

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) < n)
		host->log(ctx, MMB_LOG_WARN,
			  "%d workers on %d allowed CPUs (pft 0.12x would clip to %d)",
			  n, CPU_COUNT(&set), CPU_COUNT(&set));
	return MMB_OK;
}

static double tv_sec(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* Stop and reap workers 1..started-1 after a failure to start them all. */
static void pft_abort(struct pft_state *st, int started)
{
	int j;

	__atomic_store_n(&st->comm->go, -1, __ATOMIC_RELEASE);
	for (j = 1; j < started; j++) {
		if (st->mode == MODE_THREADS)
			pthread_join(st->comm->w[j].thread, NULL);
		else if (st->comm->w[j].pid > 0)
			waitpid(st->comm->w[j].pid, NULL, 0);
	}
}

/* Start workers 1..n-1 and wait, as pft does, until each is ready; untimed. */
static int pft_start_workers(const struct mmb_host *host, struct mmb_ctx *ctx,
			     struct pft_state *st)
{
	struct pft_comm *comm = st->comm;
	pid_t launcher = getpid();
	int j, err;

	for (j = 1; j < st->n; j++) {
		struct pft_worker *w = &comm->w[j];

		if (st->mode == MODE_THREADS) {
			err = pthread_create(&w->thread, NULL, pft_thread, w);
			if (err) {
				pft_abort(st, j);
				return PFT_FAIL("pthread_create worker %d: %s",
						  j, strerror(err));
			}
			continue;
		}
		w->pid = fork();
		if (w->pid < 0) {
			err = errno;
			pft_abort(st, j);
			return PFT_FAIL("fork worker %d: %s", j, strerror(err));
		}
		if (w->pid == 0) {
			/* Never return into the host: die with the launcher. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != launcher)
				_exit(1);
			_exit(pft_worker_body(w) ? 1 : 0);
		}
	}
	nanosleep(&(struct timespec){ .tv_nsec = PFT_START_PAUSE_NS }, NULL);
	for (j = 1; j < st->n; j++) {
		unsigned long spins = 0;

		while (!__atomic_load_n(&comm->w[j].ready, __ATOMIC_ACQUIRE)) {
			cpu_relax();
			/* A child that died before READY would hang us. */
			if (st->mode == MODE_PROCESSES && !(++spins & 0xffff) &&
			    waitpid(comm->w[j].pid, NULL, WNOHANG) != 0) {
				comm->w[j].pid = -1;
				pft_abort(st, st->n);
				return PFT_FAIL("worker process %d died before starting", j);
			}
		}
	}
	return MMB_OK;
}

/* The selected word of a THP knob ("always [madvise] never" -> madvise), "" when unreadable. */
static void thp_word(const struct mmb_host *host, struct mmb_ctx *ctx, const char *path,
		     char *out, size_t len)
{
	char buf[128], *l, *r, *from = buf;
	size_t n;

	out[0] = '\0';
	if (host->read_knob(ctx, path, buf, sizeof(buf)) <= 0)
		return;
	n = strlen(buf);	/* a plain value as it is, else the word in brackets */
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		from = l + 1;
		n = (size_t)(r - from);
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, from, n);
	out[n] = '\0';
}

/*
 * The largest folio THP may fault into pft's region, in bytes (0: base
 * pages only), read through the host's knob reader; state says so for the
 * messages.  The region is not madvised: a size applies when its
 * hugepages-<N>kB/enabled is always, or inherit with enabled at always; a
 * kernel without per-size knobs faults PMD folios when enabled is always.
 */
static uint64_t thp_largest(const struct mmb_host *host, struct mmb_ctx *ctx, char *state,
			    size_t len)
{
	char top[32], v[32], path[160], pmd[32];
	uint64_t largest = 0, pmd_bytes = 2u << 20, page = host->page_size ? host->page_size : 4096;
	bool per_size = false;

	thp_word(host, ctx, THP_DIR "/enabled", top, sizeof(top));
	if (host->read_knob(ctx, THP_DIR "/hpage_pmd_size", pmd, sizeof(pmd)) > 0 &&
	    strtoull(pmd, NULL, 10) > page)
		pmd_bytes = strtoull(pmd, NULL, 10);
	for (uint64_t b = 2 * page; b <= pmd_bytes; b *= 2) {
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%llukB/enabled",
			 (unsigned long long)(b >> 10));
		thp_word(host, ctx, path, v, sizeof(v));
		if (!*v)
			continue;
		per_size = true;
		if (!strcmp(v, "always") || (!strcmp(v, "inherit") && !strcmp(top, "always")))
			largest = b;
	}
	if (!per_size && !strcmp(top, "always"))
		largest = pmd_bytes;
	if (largest)
		snprintf(state, len, "THP enabled=%s, folios up to %llu kB", *top ? top : "?",
			 (unsigned long long)(largest >> 10));
	else
		snprintf(state, len, "THP %s for this region", *top ? "off" : "state unknown");
	return largest;
}

/*
 * Measured minor faults against the computed pages: with THP on for the
 * region a fault maps a folio, so pages / folio pages .. pages faults are
 * expected (an allocation that falls back maps base pages); without it
 * about one a page.  A count outside that by 10% is a warning.
 */
static void pft_check_faults(const struct mmb_host *host, struct mmb_ctx *ctx,
			     const struct pft_state *st, long minflt)
{
	uint64_t page = host->page_size ? host->page_size : 4096;
	char state[96];
	uint64_t folio = thp_largest(host, ctx, state, sizeof(state));
	/* a folio is a whole number of pages: the division is exact */
	uint64_t per_folio = folio > page ? folio / page : 1;
	double fewest = (double)st->pages / (double)per_folio;
	double lo = fewest * 0.9, hi = (double)st->pages * 1.1;

	host->log(ctx, MMB_LOG_DEBUG, "%lu pages computed, %ld minor faults measured (%s: %.0f..%lu expected)",
		  st->pages, minflt, state, fewest, st->pages);
	if ((double)minflt >= lo && (double)minflt <= hi)
		return;
	host->log(ctx, MMB_LOG_WARN,
		  "%lu pages touched but %ld minor faults measured, %.0f..%lu expected with %s (%.0f%% off)",
		  st->pages, minflt, fewest, st->pages, state,
		  100.0 * ((double)minflt < lo ? (fewest - (double)minflt) / fewest
					       : ((double)minflt - (double)st->pages) / (double)st->pages));
}

/* Latest minus earliest of the workers' starts (or ends), in ms. */
static double pft_spread_ms(const struct pft_comm *comm, int n, bool starts)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (int j = 0; j < n; j++) {
		int64_t t = ts_ns(starts ? &comm->w[j].start : &comm->w[j].end);

		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return (double)(hi - lo) / 1e6;
}

/* The workers' clocks and rusage into pft's metrics; untimed. */
static int pft_report(const struct mmb_host *host, struct mmb_ctx *ctx, struct pft_state *st)
{
	struct pft_comm *comm = st->comm;
	int64_t first = INT64_MAX, last = INT64_MIN;
	double user = 0, sys = 0, wall, cpu = 0;
	long minflt = 0;

	for (int j = 0; j < st->n; j++) {
		struct pft_worker *w = &comm->w[j];

		if (ts_ns(&w->start) < first)
			first = ts_ns(&w->start);
		if (ts_ns(&w->end) > last)
			last = ts_ns(&w->end);
		user += tv_sec(&w->ru_start.ru_utime, &w->ru_end.ru_utime);
		sys += tv_sec(&w->ru_start.ru_stime, &w->ru_end.ru_stime);
		minflt += w->ru_end.ru_minflt - w->ru_start.ru_minflt;
		cpu += (double)(ts_ns(&w->cpu_end) - ts_ns(&w->cpu_start)) / 1e9;
	}
	wall = (double)(last - first) / 1e9;
	if (wall <= 0)
		return PFT_FAIL("wall clock did not advance (CLOCK_REALTIME stepped?)");
	if (cpu <= 0)
		return PFT_FAIL("the workers' CPU clocks did not advance over %lu pages",
				  st->pages);

	pft_check_faults(host, ctx, st, minflt);

	host->report(ctx, M_FAULTS_SEC, (double)st->pages / wall);
	host->report(ctx, M_FAULTS_CPU, (double)st->pages / cpu);
	host->report(ctx, M_SYSTEM, sys);
	host->report(ctx, M_ELAPSED, wall);
	host->report(ctx, M_USER, user);
	/* pft's own output line, for eyeballing against the original. */
	host->log(ctx, MMB_LOG_DEBUG, "pft line: %3lu %4d %3u %8.2fs %8.2fs %8.2fs  %10.3f %10.3f",
		  (unsigned long)((st->region_bytes + comm->page * st->n) >> 30),
		  st->n, comm->lines, user, sys, wall,
		  (double)st->pages / cpu, (double)st->pages / wall);
	/* the workers' spread: a late start or a slow worker stretches wall */
	host->log(ctx, MMB_LOG_DEBUG, "pft workers: starts within %.3f ms, ends within %.3f ms",
		  pft_spread_ms(comm, st->n, true), pft_spread_ms(comm, st->n, false));
	return MMB_OK;
}

static int pft_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *params, void *state)
{
	struct pft_state *st = state;
	struct pft_comm *comm = st->comm;
	int j, bad = 0, rc;
	bool has_region = host->size >= offsetof(struct mmb_host, timed_end) +
			  sizeof(host->timed_end) && host->timed_begin && host->timed_end;

	rc = pft_start_workers(host, ctx, st);
	if (rc != MMB_OK)
		return rc;
	pft_warm(&comm->w[0]);
	/* the host's counters (ABI 1.1) count from go to the last join */
	if (has_region)
		host->timed_begin(ctx);
	__atomic_store_n(&comm->go, 1, __ATOMIC_RELEASE);
	pft_touch(&comm->w[0], comm->page, comm->line, comm->lines);

	for (j = 1; j < st->n; j++) {
		int status;

		if (st->mode == MODE_THREADS) {
			pthread_join(comm->w[j].thread, NULL);
			continue;
		}
		if (waitpid(comm->w[j].pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad = j;
	}
	if (has_region)
		host->timed_end(ctx);
	if (bad)
		return PFT_FAIL("worker process %d did not finish cleanly", bad);
	return pft_report(host, ctx, st);
}

static const struct mmb_workload pft_workload = {
	MMB_WORKLOAD_INIT,
	.name = "pft",
	.summary = "page fault test: anonymous write faults, threads or processes (pft 0.12x)",
	.params = pft_params,
	.metrics = pft_metrics,
	.requires = 0,
	.min_kernel = 0,
	.supported = pft_supported,
	.setup = pft_setup,
	.run = pft_run,
	.teardown = pft_teardown,
	.check_params = pft_check_params,
};

MMB_WORKLOAD(pft_workload);
