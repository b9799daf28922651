// SPDX-License-Identifier: GPL-2.0
/*
 * vm-scalability: the cases of lkp's vm-scalability job that run on one
 * machine, at a scaled size, with a usemem-like engine written anew from
 * the documented behaviour (engine.c; docs/workloads.md, vm-scalability).
 *
 * One iteration is one lkp run of the case: `size` bytes (all tasks
 * together) are worked in rounds of `unit_size` (lkp's repeat count
 * size / unit_size), stopping early once `runtime` has passed, as lkp's
 * run script does.  Each task reports bytes and microseconds; the metrics
 * are lkp's (programs/vm-scalability/parse): throughput = the sum of the
 * tasks' KB/s, median = the median task's KB/s, both averaged over the
 * rounds; stddev% as lkp computes it; free_time where the case frees
 * memory; the _fault variants for the truncate cases' fault phase.
 */
#include "vms.h"
#include "lkpstats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { P_TEST, P_SIZE, P_NR_TASK, P_UNIT_SIZE, P_RUNTIME, P_DIR };
enum {
	M_THROUGHPUT, M_MEDIAN, M_STDDEV, M_FREE_TIME, M_WORKLOAD,
	M_THROUGHPUT_FAULT, M_MEDIAN_FAULT, M_STDDEV_FAULT, M_MEDIAN_STDDEV, M_MEDIAN_FAULT_STDDEV,
};

#define MAX_TASKS	1024
#define MAX_ROUNDS	4096
#define NR_HUGEPAGES	"/proc/sys/vm/nr_hugepages"

#define ANON(n, ...)	{ .name = n, .backing = B_ANON, __VA_ARGS__ }
#define HUGE(n, ...)	{ .name = n, .backing = B_HUGETLB, __VA_ARGS__ }
#define FILEC(n, ...)	{ .name = n, .backing = B_FILE, __VA_ARGS__ }
#define SHM(n, ...)	{ .name = n, .backing = B_SHM, .shared = true, __VA_ARGS__ }

/* In the order of the `test` choices below; .op 0 is OP_TOUCH. */
const struct vms_case vms_cases[] = {
	ANON("anon-r-seq"),
	ANON("anon-r-rand", .rand = true),
	ANON("anon-r-seq-mt", .mt = true),
	ANON("anon-r-rand-mt", .rand = true, .mt = true),
	ANON("anon-rx-seq-mt", .mt = true, .shared = true, .whole = true),
	ANON("anon-rx-rand-mt", .rand = true, .mt = true, .shared = true, .whole = true),
	ANON("anon-w-seq", .write = true),
	ANON("anon-w-rand", .write = true, .rand = true),
	ANON("anon-w-seq-mt", .write = true, .mt = true),
	ANON("anon-w-rand-mt", .write = true, .rand = true, .mt = true),
	ANON("anon-wx-seq-mt", .write = true, .mt = true, .shared = true, .whole = true),
	ANON("anon-wx-rand-mt", .write = true, .rand = true, .mt = true, .shared = true, .whole = true),
	ANON("anon-cow-seq", .write = true, .shared = true, .cow = true),
	ANON("anon-cow-rand", .write = true, .rand = true, .shared = true, .cow = true),
	ANON("anon-cow-seq-mt", .write = true, .mt = true, .shared = true, .cow = true),
	ANON("anon-cow-rand-mt", .write = true, .rand = true, .mt = true, .shared = true, .cow = true),
	FILEC("lru-file-mmap-read", .op = OP_TOUCH),
	FILEC("lru-file-mmap-read-rand", .op = OP_TOUCH, .rand = true),
	FILEC("lru-file-readonce", .op = OP_READFILE),
	FILEC("lru-file-readtwice", .op = OP_READFILE, .twice = true),
	FILEC("mmap-pread-seq", .op = OP_TOUCH, .shared = true),
	FILEC("mmap-pread-rand", .op = OP_TOUCH, .rand = true, .shared = true),
	FILEC("mmap-pread-seq-mt", .op = OP_TOUCH, .mt = true, .shared = true),
	FILEC("mmap-pread-rand-mt", .op = OP_TOUCH, .rand = true, .mt = true, .shared = true),
	FILEC("mmap-xread-seq-mt", .op = OP_TOUCH, .mt = true, .shared = true, .whole = true),
	FILEC("mmap-xread-rand-mt", .op = OP_TOUCH, .rand = true, .mt = true, .shared = true,
	      .whole = true),
	FILEC("mremap-xread-rand-mt", .op = OP_TOUCH, .rand = true, .mt = true, .shared = true,
	      .whole = true, .mremap = true),
	ANON("small-allocs", .op = OP_SMALL),
	ANON("small-allocs-mt", .op = OP_SMALL, .mt = true),
	FILEC("msync", .op = OP_MSYNC, .write = true),
	FILEC("msync-mt", .op = OP_MSYNC, .write = true, .mt = true, .shared = true),
	FILEC("truncate", .op = OP_TRUNCATE),
	FILEC("truncate-seq", .op = OP_TRUNCATE, .twice = true),
	/* lkp's lru-shm reads: each task its own tmpfs file, read-only */
	{ .name = "lru-shm", .backing = B_SHM },
	{ .name = "lru-shm-rand", .backing = B_SHM, .rand = true },
	SHM("shm-pread-seq"),
	SHM("shm-pread-seq-mt", .mt = true),
	SHM("shm-xread-seq", .whole = true),
	SHM("shm-xread-seq-mt", .mt = true, .whole = true),
	SHM("shm-pread-rand-mt", .rand = true, .mt = true),
	SHM("shm-xread-rand-mt", .rand = true, .mt = true, .whole = true),
	HUGE("anon-w-seq-hugetlb", .write = true),
	HUGE("anon-w-rand-hugetlb", .write = true, .rand = true),
	HUGE("anon-cow-seq-hugetlb", .write = true, .shared = true, .cow = true),
	HUGE("anon-cow-rand-hugetlb", .write = true, .rand = true, .shared = true, .cow = true),
	{ 0 },
};

#define VMS_TESTS "anon-r-seq|anon-r-rand|anon-r-seq-mt|anon-r-rand-mt|anon-rx-seq-mt|" \
	"anon-rx-rand-mt|anon-w-seq|anon-w-rand|anon-w-seq-mt|anon-w-rand-mt|anon-wx-seq-mt|" \
	"anon-wx-rand-mt|anon-cow-seq|anon-cow-rand|anon-cow-seq-mt|anon-cow-rand-mt|" \
	"lru-file-mmap-read|lru-file-mmap-read-rand|lru-file-readonce|lru-file-readtwice|" \
	"mmap-pread-seq|mmap-pread-rand|mmap-pread-seq-mt|mmap-pread-rand-mt|mmap-xread-seq-mt|" \
	"mmap-xread-rand-mt|mremap-xread-rand-mt|small-allocs|small-allocs-mt|msync|msync-mt|" \
	"truncate|truncate-seq|lru-shm|lru-shm-rand|shm-pread-seq|shm-pread-seq-mt|" \
	"shm-xread-seq|shm-xread-seq-mt|shm-pread-rand-mt|shm-xread-rand-mt|" \
	"anon-w-seq-hugetlb|anon-w-rand-hugetlb|anon-cow-seq-hugetlb|anon-cow-rand-hugetlb"

static const struct mmb_param_def vms_params[] = {
	[P_TEST] = { "test", MMB_PARAM_ENUM, "anon-w-seq", 0, 0, VMS_TESTS,
		     "case (lkp vm-scalability test name)" },
	[P_SIZE] = { "size", MMB_PARAM_SIZE, "256M", 1 << 20, 1LL << 46, NULL,
		     "bytes worked per iteration, all tasks together (lkp size; units, %mem)" },
	[P_NR_TASK] = { "nr_task", MMB_PARAM_INT, "100%", 1, MAX_TASKS, NULL,
			"tasks: processes, or threads for -mt cases (lkp units: 100% = one per CPU)" },
	[P_UNIT_SIZE] = { "unit_size", MMB_PARAM_SIZE, "0", 0, 1LL << 46, NULL,
			  "bytes per round (lkp unit_size: size/unit_size rounds); 0 = one round of size" },
	[P_RUNTIME] = { "runtime", MMB_PARAM_DURATION, "300s", 1000000LL, 86400000000000LL, NULL,
			"cap: tasks stop touching and no round starts after this (lkp runtime)" },
	[P_DIR] = { "dir", MMB_PARAM_STRING, "/tmp", 0, 0, NULL,
		    "folder of the sparse files of the lru-file, mmap-*, msync and truncate cases" },
	{ 0 },
};

static const struct mmb_metric_def vms_metrics[] = {
	[M_THROUGHPUT] = { "throughput", "KB/s", MMB_HIGHER_IS_BETTER,
			   "sum over tasks of each task's KB/s, averaged over rounds (vm-scalability.throughput)" },
	[M_MEDIAN] = { "median", "KB/s", MMB_HIGHER_IS_BETTER,
		       "the median task's KB/s, averaged over rounds (vm-scalability.median)" },
	[M_STDDEV] = { "stddev%", "%", MMB_LOWER_IS_BETTER,
		       "lkp's stddev% (population, n): of throughput over rounds, or stddev(task KB/s) x nr_task / mean for one round" },
	[M_FREE_TIME] = { "free_time", "s", MMB_LOWER_IS_BETTER,
			  "seconds to unmap the memory a task mapped itself, averaged over tasks and rounds (none for preallocated memory)" },
	[M_WORKLOAD] = { "workload", "KB", MMB_HIGHER_IS_BETTER,
			 "KB worked by all tasks in the iteration (vm-scalability.workload)" },
	[M_THROUGHPUT_FAULT] = { "throughput_fault", "KB/s", MMB_HIGHER_IS_BETTER,
				 "truncate cases: sum over tasks of the KB/s faulting the file in" },
	[M_MEDIAN_FAULT] = { "median_fault", "KB/s", MMB_HIGHER_IS_BETTER,
			     "truncate cases: the median task's fault KB/s" },
	[M_STDDEV_FAULT] = { "stddev_fault%", "%", MMB_LOWER_IS_BETTER,
			     "truncate cases: stddev% of the fault phase, as stddev%" },
	[M_MEDIAN_STDDEV] = { "median_stddev%", "%", MMB_LOWER_IS_BETTER,
			      "relative stddev (population) of median over rounds; 0 for one round" },
	[M_MEDIAN_FAULT_STDDEV] = { "median_fault_stddev%", "%", MMB_LOWER_IS_BETTER,
				    "truncate cases: median_stddev% of the fault phase" },
	{ 0 },
};

struct vms_state {
	struct vms_round r;
	size_t map_len;
	int rounds;
	size_t unit;
	/* per round: sum and median of the tasks' KB/s (work and fault phase) */
	double *sum, *median, *fsum, *fmedian;
	double *kbps, *fkbps;		/* the last round's per-task KB/s */
	int nk, nfk;
	double free_s;
	long nfree;
	double kb_total;
};

static const struct vms_case *vcase(const struct mmb_value *params)
{
	return &vms_cases[params[P_TEST].i];
}

static size_t rounds_of(const struct mmb_value *params, size_t *unit)
{
	uint64_t size = (uint64_t)params[P_SIZE].i, u = (uint64_t)params[P_UNIT_SIZE].i;

	if (!u || u >= size) {
		*unit = size;
		return 1;
	}
	*unit = u;
	return size / u;
}

static const char *vms_check_params(const struct mmb_value *params)
{
	size_t unit;

	if (rounds_of(params, &unit) > MAX_ROUNDS)
		return "size / unit_size: at most 4096 rounds";
	if (!params[P_DIR].s[0])
		return "dir must not be empty";
	return NULL;
}

static const char *vms_supported(const struct mmb_host *host, const struct mmb_value *params)
{
	const struct vms_case *c = vcase(params);
	uint64_t need = (uint64_t)params[P_SIZE].i;
	size_t unit;

	rounds_of(params, &unit);
	/* cow: size / (nr_task + 1) shared, copied nr_task times: about size */
	if (!c->whole || c->backing != B_ANON)
		need = unit;
	if (host->mem_total && need > host->mem_total / 4 * 3)
		return "size needs more than 3/4 of MemTotal: scale it down (e.g. 25%mem)";
	if (c->backing == B_HUGETLB && (!vms_hugepage_size() || access(NR_HUGEPAGES, F_OK)))
		return "no hugetlb pages (kernel without hugetlbfs)";
	if (unit / (size_t)params[P_NR_TASK].i < (c->backing == B_HUGETLB ? (2u << 20) : 4096u))
		return "unit_size (or size) / nr_task is less than a page";
	return NULL;
}

/* hugetlb: reserve what the iteration needs through the journaled knob. */
static int reserve_hugetlb(const struct mmb_host *host, struct mmb_ctx *ctx,
			   const struct vms_case *c, size_t unit, int nr_task, size_t hp)
{
	long need = (long)(unit / hp) + nr_task, cur = 0, freep = vms_hugepages_free();
	char buf[64];
	int e;

	if (c->cow)
		need *= 2;
	if (freep >= need)
		return MMB_OK;
	if (host->read_knob(ctx, NR_HUGEPAGES, buf, sizeof(buf)) > 0)
		cur = strtol(buf, NULL, 10);
	snprintf(buf, sizeof(buf), "%ld", cur + need - (freep > 0 ? freep : 0));
	e = host->write_knob(ctx, NR_HUGEPAGES, buf);
	if (e == -EACCES || e == -EPERM) {
		host->skip(ctx, "no hugetlb pages (%ld needed; reserving them needs root)", need);
		return MMB_SKIP;
	}
	freep = vms_hugepages_free();
	if (e < 0 || freep < need) {
		host->skip(ctx, "no hugetlb pages (%ld needed, %ld could be reserved)", need,
			   freep > 0 ? freep : 0);
		return MMB_SKIP;
	}
	host->log(ctx, MMB_LOG_DEBUG, "reserved %ld hugetlb pages (nr_hugepages %s)", need, buf);
	return MMB_OK;
}

static int vms_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *params, void **state)
{
	const struct vms_case *c = vcase(params);
	struct vms_state *st = calloc(1, sizeof(*st));
	int n = (int)params[P_NR_TASK].i;

	if (!st) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = st;
	st->rounds = (int)rounds_of(params, &st->unit);
	st->r.c = c;
	st->r.nr_task = n;
	st->r.dir = params[P_DIR].s;
	st->r.page = (size_t)sysconf(_SC_PAGESIZE);
	st->r.fd = -1;
	if (c->backing == B_HUGETLB) {
		int rc;

		st->r.page = vms_hugepage_size();
		rc = reserve_hugetlb(host, ctx, c, st->unit, n, st->r.page);
		if (rc != MMB_OK)
			return rc;
	}
	st->map_len = sizeof(struct vms_ctl) + 128 + sizeof(struct vms_res) * ((size_t)n + 1);
	st->r.ctl = mmap(NULL, st->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (st->r.ctl == MAP_FAILED) {
		st->r.ctl = NULL;
		host->fail(ctx, "mmap of the results: %s", strerror(errno));
		return MMB_FAIL;
	}
	st->r.res = (struct vms_res *)((char *)st->r.ctl + 128 +
				       sizeof(struct vms_ctl) / 128 * 128);
	st->sum = calloc((size_t)st->rounds, sizeof(double));
	st->median = calloc((size_t)st->rounds, sizeof(double));
	st->fsum = calloc((size_t)st->rounds, sizeof(double));
	st->fmedian = calloc((size_t)st->rounds, sizeof(double));
	st->kbps = calloc((size_t)n + 1, sizeof(double));
	st->fkbps = calloc((size_t)n + 1, sizeof(double));
	if (!st->sum || !st->median || !st->fsum || !st->fmedian || !st->kbps || !st->fkbps) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	return MMB_OK;
}

/* The round's per-task KB/s into the state (mremap adds the move's own). */
static void collect_round(struct vms_state *st, int k)
{
	struct vms_round *r = &st->r;
	/* usemem prints integer KB/s; dd, truncate and the move are worked out by lkp's parse */
	bool usemem = (r->c->op == OP_TOUCH || r->c->op == OP_SMALL || r->c->op == OP_MSYNC) &&
		       !r->c->mremap;

	st->nk = st->nfk = 0;
	for (int i = 0; i <= r->nr_task; i++) {
		const struct vms_res *res = &r->res[i];

		if (res->bytes && res->usecs + 1 > 1)
			st->kbps[st->nk++] = usemem ? vms_kb_per_s(res->bytes, res->usecs)
					     : vms_kb_per_s_float(res->bytes, res->usecs);
		if (res->fault_bytes)
			st->fkbps[st->nfk++] = vms_kb_per_s_float(res->fault_bytes, res->fault_usecs);
		if (res->free_usecs) {
			st->free_s += (double)(res->free_usecs - 1) / 1e6;
			st->nfree++;
		}
		st->kb_total += (double)(res->bytes + res->fault_bytes) / 1024.0;
	}
	vms_sum_median(st->kbps, st->nk, &st->sum[k], &st->median[k]);
	vms_sum_median(st->fkbps, st->nfk, &st->fsum[k], &st->fmedian[k]);
}

static void report_all(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_state *st,
		       int done)
{
	host->report(ctx, M_THROUGHPUT, vms_mean(st->sum, done));
	host->report(ctx, M_MEDIAN, vms_mean(st->median, done));
	host->report(ctx, M_STDDEV, vms_lkp_stddev(st->sum, done, st->kbps, st->nk));
	host->report(ctx, M_MEDIAN_STDDEV, vms_lkp_median_stddev(st->median, done));
	if (st->nfree)
		host->report(ctx, M_FREE_TIME, st->free_s / (double)st->nfree);
	host->report(ctx, M_WORKLOAD, st->kb_total);
	if (st->nfk) {
		host->report(ctx, M_THROUGHPUT_FAULT, vms_mean(st->fsum, done));
		host->report(ctx, M_MEDIAN_FAULT, vms_mean(st->fmedian, done));
		host->report(ctx, M_STDDEV_FAULT, vms_lkp_stddev(st->fsum, done, st->fkbps, st->nfk));
		host->report(ctx, M_MEDIAN_FAULT_STDDEV, vms_lkp_median_stddev(st->fmedian, done));
	}
}

static int vms_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *params, void *state)
{
	struct vms_state *st = state;
	uint64_t start = host->now_ns(), runtime = (uint64_t)params[P_RUNTIME].i;
	int done = 0;

	st->r.bytes = st->unit;
	/* tasks read CLOCK_MONOTONIC themselves: the same clock as now_ns */
	st->r.deadline_ns = start + runtime;
	for (int k = 0; k < st->rounds; k++) {
		if (vms_round_run(host, ctx, &st->r) < 0) {
			host->fail(ctx, "round %d: %s", k + 1, st->r.errbuf);
			return MMB_FAIL;
		}
		if (host->should_stop(ctx)) {
			host->fail(ctx, "stopped in round %d of %d", k + 1, st->rounds);
			return MMB_FAIL;
		}
		collect_round(st, done++);
		if (host->now_ns() - start > runtime) {
			host->log(ctx, MMB_LOG_INFO, "runtime reached after %d of %d rounds", done,
				  st->rounds);
			break;
		}
	}
	if (!st->nk) {
		host->fail(ctx, "no task reported any work");
		return MMB_FAIL;
	}
	report_all(host, ctx, st, done);
	return MMB_OK;
}

static void vms_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *params, void *state)
{
	struct vms_state *st = state;

	(void)host;
	(void)ctx;
	(void)params;
	if (!st)
		return;
	if (st->r.ctl)
		munmap((void *)st->r.ctl, st->map_len);
	free(st->sum);
	free(st->median);
	free(st->fsum);
	free(st->fmedian);
	free(st->kbps);
	free(st->fkbps);
	free(st);
}

static const struct mmb_workload vms_workload = {
	MMB_WORKLOAD_INIT,
	.name = "vm-scalability",
	.summary = "lkp vm-scalability cases (anon, cow, lru-file, mmap-*read, shm, msync, truncate, hugetlb): KB/s of all tasks",
	.params = vms_params,
	.metrics = vms_metrics,
	.supported = vms_supported,
	.setup = vms_setup,
	.run = vms_run,
	.teardown = vms_teardown,
	.check_params = vms_check_params,
};

MMB_WORKLOAD(vms_workload);
