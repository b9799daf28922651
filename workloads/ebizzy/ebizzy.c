// SPDX-License-Identifier: GPL-2.0
/*
 * ebizzy: a clean-room re-implementation of ebizzy 0.3 (Valerie Henson) as
 * an mmbench plugin, from the behaviour described in
 * docs/workloads.md, ebizzy.  No upstream code.
 *
 * Setup (untimed): allocate `chunks` chunks of `chunk_size` bytes, fill each
 * with the sorted records 0..n-1, optionally leave one-page holes between
 * them and mprotect every even chunk read-only.  Run: `threads` workers spin
 * until released, then each repeats { pick chunk; alloc copy; copy (or touch
 * one byte per page); search a key; free } until the window of `duration`
 * closes.  A pass already started when the window closes still completes and
 * counts, as in 0.3.
 *
 * Metrics: throughput (completed passes of all threads / window seconds),
 * throughput.per_thread (one sample per worker), time.user / time.sys (the
 * process' CPU time over the window, as ebizzy prints it).
 *
 * rng: 0.3's "cheap LCG" never advances (its state is passed by value and
 * stays 0), so stock ebizzy always copies chunk 0 and searches key 0 (with
 * -R it copies 8 bytes).  `compat` reproduces that so numbers line up with
 * published ebizzy results; `lcg` (the default) is a working generator, so
 * the benchmark exercises all chunks, keys and -R sizes as its author
 * intended.  Compare runs only with the same rng.
 */
#include <mmbench/workload.h>

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum {
	P_THREADS, P_DURATION, P_CHUNKS, P_CHUNK_SIZE, P_MMAP_ALWAYS,
	P_MMAP_NEVER, P_MPROTECT, P_HOLES, P_RANDOM_SIZE, P_TOUCH_ONLY,
	P_BYTE_COPY, P_LINEAR_SEARCH, P_RNG,
};
enum { RNG_COMPAT, RNG_LCG };

static const struct mmb_param_def ebizzy_params[] = {
	[P_THREADS] = { "threads", MMB_PARAM_INT, "2*ncpu", 1, 4096, NULL,
			"worker threads (-t)" },
	[P_DURATION] = { "duration", MMB_PARAM_DURATION, "10s", 1000000, 86400000000000LL,
			 NULL, "length of the measured window (-S)" },
	[P_CHUNKS] = { "chunks", MMB_PARAM_INT, "10", 1, 1 << 20, NULL,
		       "number of memory chunks (-n)" },
	[P_CHUNK_SIZE] = { "chunk_size", MMB_PARAM_SIZE, "512K", 8, 1LL << 40, NULL,
			   "bytes per chunk, >= one 8-byte record (-s)" },
	[P_MMAP_ALWAYS] = { "mmap_always", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			    "allocate with mmap, free with munmap (-m)" },
	[P_MMAP_NEVER] = { "mmap_never", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			   "malloc never uses mmap: M_MMAP_MAX=0 (-M)" },
	[P_MPROTECT] = { "mprotect", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			 "mprotect every even chunk read-only (-p)" },
	[P_HOLES] = { "holes", MMB_PARAM_BOOL, "false", 0, 0, NULL,
		      "one-page hole allocation after each chunk (-P)" },
	[P_RANDOM_SIZE] = { "random_size", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			    "copy/search a random prefix of the chunk (-R)" },
	[P_TOUCH_ONLY] = { "touch_only", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			   "only touch one byte per page of the copy (-T)" },
	[P_BYTE_COPY] = { "byte_copy", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			  "copy with a byte loop instead of memcpy (-l)" },
	[P_LINEAR_SEARCH] = { "linear_search", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			      "linear scan instead of binary search (-z)" },
	[P_RNG] = { "rng", MMB_PARAM_ENUM, "lcg", 0, 0, "compat|lcg",
		    "compat: 0.3's never-advancing generator (chunk 0, key 0); "
		    "lcg: a working generator" },
	{ 0 },
};

enum { M_THROUGHPUT, M_PER_THREAD, M_USER, M_SYS };

static const struct mmb_metric_def ebizzy_metrics[] = {
	[M_THROUGHPUT] = { "throughput", "records/s", MMB_HIGHER_IS_BETTER,
			   "completed passes of all threads per second" },
	[M_PER_THREAD] = { "throughput.per_thread", "records/s", MMB_HIGHER_IS_BETTER,
			   "passes per second, one sample per thread" },
	[M_USER] = { "time.user", "s", MMB_LOWER_IS_BETTER,
		     "user CPU time of the process during the window" },
	[M_SYS] = { "time.sys", "s", MMB_LOWER_IS_BETTER,
		    "system CPU time of the process during the window" },
	{ 0 },
};

typedef size_t record_t;

#define CACHELINE 64

/* One per worker, each in its own cache line(s): no shared hot counter. */
struct worker {
	pthread_t tid;
	unsigned long count;
	uint64_t rng;
	struct ebizzy *eb;
} __attribute__((aligned(CACHELINE)));

struct ebizzy {
	long threads, chunks;
	size_t chunk_size, page_size;
	bool mmap_always, random_size, touch_only, byte_copy, linear_search;
	int rng;
	record_t **mem;
	struct worker *workers;	/* aligned, one cache line each */
	volatile int go;	/* 0: wait, 1: run, 2: stop */
	int error;
};

static const char *ebizzy_check(const struct mmb_value *p)
{
	if (p[P_MMAP_ALWAYS].i && p[P_MMAP_NEVER].i)
		return "mmap_always (-m) and mmap_never (-M) exclude each other";
	if ((uint64_t)p[P_CHUNK_SIZE].i < sizeof(record_t))
		return "chunk_size must hold at least one 8-byte record";
	return NULL;
}

static void *ebz_alloc(struct ebizzy *eb, size_t size)
{
	if (eb->mmap_always) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	return malloc(size);
}

static void ebz_free(struct ebizzy *eb, void *p, size_t size)
{
	if (eb->mmap_always)
		munmap(p, size);
	else
		free(p);
}

/*
 * 0.3's generator: the state starts at 0 and is only ever multiplied, so it
 * stays 0 and every "random" number is 0.  Kept literally (not as a
 * constant) so the work per call matches.
 */
static inline unsigned long rand_num(int mode, uint64_t *state, unsigned long max)
{
	if (mode == RNG_COMPAT) {
		*state = *state * (1103515245 + 12345);
		return (unsigned long)(*state % max);
	}
	/* 64-bit LCG (Knuth MMIX); use the high bits, the low ones cycle fast. */
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)((*state >> 33) % max);
}

/* Keep the byte loop a byte loop: gcc would turn it into memcpy. */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void byte_copy(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

static int cmp_rec(const void *a, const void *b)
{
	record_t x = *(const record_t *)a, y = *(const record_t *)b;

	return x < y ? -1 : x > y;
}

static record_t *linear(record_t key, record_t *base, size_t n)
{
	/* the analyzer loses byte_copy()'s loop and thinks the copy is garbage */
	for (size_t i = 0; i < n; i++)
		if (base[i] == key) // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult)
			return &base[i];
	return NULL;
}

/* One pass; returns 0, or -1 when the key was not found / no memory. */
static int one_pass(struct worker *w)
{
	struct ebizzy *eb = w->eb;
	uint64_t rng = w->rng;	/* a local: nothing the copy writes can alias it */
	record_t *src = eb->mem[rand_num(eb->rng, &rng, eb->chunks)];
	size_t copy_size = eb->chunk_size;
	record_t *copy;

	if (eb->random_size)
		copy_size = (rand_num(eb->rng, &rng, eb->chunk_size / sizeof(record_t)) + 1) *
			    sizeof(record_t);
	copy = ebz_alloc(eb, copy_size);
	if (!copy)
		return -1;
	if (eb->touch_only) {
		for (size_t off = 0; off < copy_size; off += eb->page_size)
			((volatile char *)copy)[off] = (char)0xff;
	} else {
		size_t n = copy_size / sizeof(record_t);
		record_t key, *found;

		/* drawn before the copy; same work, and the analyzer can follow it */
		key = rand_num(eb->rng, &rng, n);
		if (eb->byte_copy)
			byte_copy((char *)copy, (const char *)src, copy_size);
		else
			memcpy(copy, src, copy_size);
		if (eb->linear_search)
			found = linear(key, copy, n);
		else
			found = bsearch(&key, copy, n, sizeof(record_t), cmp_rec);
		if (!found || *found != key) {
			ebz_free(eb, copy, copy_size);
			return -1;
		}
	}
	ebz_free(eb, copy, copy_size);
	w->rng = rng;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ebizzy *eb = w->eb;

	while (eb->go == 0)
		;
	while (eb->go == 1) {
		if (one_pass(w)) {
			__atomic_store_n(&eb->error, 1, __ATOMIC_RELAXED);
			break;
		}
		w->count++;
	}
	return NULL;
}

static int ebizzy_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
			const struct mmb_value *p, void **state)
{
	struct ebizzy *eb = calloc(1, sizeof(*eb));
	void **holes = NULL;
	size_t nrec;

	if (!eb) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = eb;
	eb->threads = p[P_THREADS].i;
	eb->chunks = p[P_CHUNKS].i;
	eb->chunk_size = (size_t)p[P_CHUNK_SIZE].i;
	eb->page_size = (size_t)sysconf(_SC_PAGESIZE);
	eb->mmap_always = p[P_MMAP_ALWAYS].i;
	eb->random_size = p[P_RANDOM_SIZE].i;
	eb->touch_only = p[P_TOUCH_ONLY].i;
	eb->byte_copy = p[P_BYTE_COPY].i;
	eb->linear_search = p[P_LINEAR_SEARCH].i;
	eb->rng = (int)p[P_RNG].i;

	/*
	 * -M needs glibc's malloc.  Under a replacement allocator (a sanitizer
	 * build, jemalloc preloaded) mallopt() refuses: measuring the default
	 * allocator instead would be a different benchmark, so skip honestly.
	 */
	if (p[P_MMAP_NEVER].i && !mallopt(M_MMAP_MAX, 0)) {
		host->skip(ctx, "mmap_never (-M) needs glibc malloc; this process's allocator refuses mallopt(M_MMAP_MAX, 0) (sanitizer or preloaded allocator?)");
		return MMB_SKIP;
	}
	if (posix_memalign((void **)&eb->workers, CACHELINE,
			   eb->threads * sizeof(*eb->workers))) {
		host->fail(ctx, "out of memory for %ld workers", eb->threads);
		return MMB_FAIL;
	}
	memset(eb->workers, 0, eb->threads * sizeof(*eb->workers));
	eb->mem = calloc(eb->chunks, sizeof(*eb->mem));
	if (p[P_HOLES].i)
		holes = calloc(eb->chunks, sizeof(*holes));
	if (!eb->mem || (p[P_HOLES].i && !holes)) {
		host->fail(ctx, "out of memory");
		free(holes);
		return MMB_FAIL;
	}
	for (long i = 0; i < eb->chunks; i++) {
		eb->mem[i] = ebz_alloc(eb, eb->chunk_size);
		if (!eb->mem[i]) {
			host->fail(ctx, "cannot allocate chunk %ld of %zu bytes", i,
				   eb->chunk_size);
			free(holes);
			return MMB_FAIL;
		}
		/* A small allocation after each chunk keeps them from coalescing. */
		if (holes)
			holes[i] = ebz_alloc(eb, eb->page_size);
	}
	if (holes) {
		for (long i = 0; i < eb->chunks; i++)
			if (holes[i])
				ebz_free(eb, holes[i], eb->page_size);
		free(holes);
	}
	nrec = eb->chunk_size / sizeof(record_t);
	for (long i = 0; i < eb->chunks; i++)
		for (size_t r = 0; r < nrec; r++)
			eb->mem[i][r] = r;
	/*
	 * -p: like 0.3, the result is not checked.  With malloc'ed chunks the
	 * address is usually not page aligned and the call fails (EINVAL);
	 * only with mmap_always does it really split the VMAs.
	 */
	if (p[P_MPROTECT].i)
		for (long i = 0; i < eb->chunks; i += 2)
			(void)mprotect(eb->mem[i], eb->chunk_size, PROT_READ);
	for (long t = 0; t < eb->threads; t++) {
		struct worker *w = &eb->workers[t];

		w->eb = eb;
		w->rng = eb->rng == RNG_COMPAT ? 0 : 0x0c0ffee0ULL + (uint64_t)t * 0x9e3779b97f4a7c15ULL;
	}
	return MMB_OK;
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static int ebizzy_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		      const struct mmb_value *p, void *state)
{
	struct ebizzy *eb = state;
	struct rusage ru0, ru1;
	struct timespec ts;
	uint64_t t0, t1, dur = (uint64_t)p[P_DURATION].i;
	long started = 0;
	double elapsed, total = 0;
	int err;

	for (; started < eb->threads; started++) {
		err = pthread_create(&eb->workers[started].tid, NULL, worker_main,
				     &eb->workers[started]);
		if (err)
			break;
	}
	if (started < eb->threads) {
		eb->go = 2;
		for (long t = 0; t < started; t++)
			pthread_join(eb->workers[t].tid, NULL);
		host->fail(ctx, "cannot create thread %ld of %ld: %s", started,
			   eb->threads, strerror(err));
		return MMB_FAIL;
	}

	getrusage(RUSAGE_SELF, &ru0);
	t0 = host->now_ns();
	__atomic_store_n(&eb->go, 1, __ATOMIC_RELEASE);
	ts.tv_sec = dur / 1000000000ULL;
	ts.tv_nsec = dur % 1000000000ULL;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	__atomic_store_n(&eb->go, 2, __ATOMIC_RELEASE);
	t1 = host->now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	for (long t = 0; t < eb->threads; t++)
		pthread_join(eb->workers[t].tid, NULL);

	if (eb->error) {
		host->fail(ctx, "a worker failed: key not found or out of memory");
		return MMB_FAIL;
	}
	/* Exact window instead of 0.3's whole-second time(): same meaning. */
	elapsed = (t1 - t0) / 1e9;
	for (long t = 0; t < eb->threads; t++) {
		double r = eb->workers[t].count / elapsed;

		total += r;
		host->report(ctx, M_PER_THREAD, r);
	}
	host->report(ctx, M_THROUGHPUT, total);
	host->report(ctx, M_USER, tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime));
	host->report(ctx, M_SYS, tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime));
	return MMB_OK;
}

static void ebizzy_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			    const struct mmb_value *p, void *state)
{
	struct ebizzy *eb = state;

	if (!eb)
		return;
	if (eb->mem) {
		for (long i = 0; i < eb->chunks; i++) {
			if (!eb->mem[i])
				continue;
			if (p[P_MPROTECT].i)
				(void)mprotect(eb->mem[i], eb->chunk_size,
					       PROT_READ | PROT_WRITE);
			ebz_free(eb, eb->mem[i], eb->chunk_size);
		}
		free(eb->mem);
	}
	free(eb->workers);
	free(eb);
}

static const struct mmb_workload ebizzy_workload = {
	MMB_WORKLOAD_INIT,
	.name = "ebizzy",
	.summary = "ebizzy 0.3: threads copy and search memory chunks (records/s)",
	.params = ebizzy_params,
	.metrics = ebizzy_metrics,
	.setup = ebizzy_setup,
	.run = ebizzy_run,
	.teardown = ebizzy_teardown,
	.check_params = ebizzy_check,
};

MMB_WORKLOAD(ebizzy_workload);
