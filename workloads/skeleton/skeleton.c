// SPDX-License-Identifier: GPL-2.0
/*
 * skeleton: the template plugin.  Copy this folder to workloads/<name>/,
 * rename every "skeleton", and keep what you need.  docs/writing-workloads.md
 * walks through this file.
 *
 * What it does (so the template is a real, tested workload): map `size`
 * bytes of private anonymous memory and touch one byte per page, `passes`
 * times, reading or writing.  With prefault=false the first pass takes one
 * page fault per page; with prefault=true every page is populated in setup
 * and the timed passes only hit the TLB/caches.
 *
 * Build: every .c in workloads/skeleton/ goes into build/workloads/skeleton.so
 * with -fPIC -fvisibility=hidden -shared -Wl,-z,defs.  Hidden visibility
 * means nothing leaks out except the entry point MMB_WORKLOAD() exports;
 * -z,defs means the plugin cannot call harness functions directly: it talks
 * to the harness only through the `struct mmb_host` table every hook gets.
 *
 * Include only <mmbench/workload.h> (plus libc/POSIX headers).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mmbench/workload.h>

/*
 * Parameters and metrics are data.  Name their indexes: the harness hands
 * `params` to every hook as an array in definition order, and report()
 * takes the index of a metric.
 */
enum { P_SIZE, P_PASSES, P_ACCESS, P_PREFAULT };
enum { ACCESS_WRITE, ACCESS_READ };		/* order of `choices` below */
enum { M_PAGES_SEC, M_TIME };

/*
 * Parameter definitions.  In an experiment file they appear under
 * `params:`; a YAML list (or a generator such as `stride:ncpu`) expands
 * into one variant per value.  The harness parses each value with the rules
 * of its type (units: 4K/1G/20%mem/3P for SIZE, ncpu/2*ncpu for INT,
 * 300s/10ms for DURATION), checks [min, max] when min < max, and rejects
 * unknown params with file:line:col -- the plugin never parses text.
 * `def` is a default in the same YAML syntax; NULL makes the param required.
 */
static const struct mmb_param_def skeleton_params[] = {
	[P_SIZE] = {
		.name = "size", .type = MMB_PARAM_SIZE, .def = "4M",
		.min = 4096, .max = (int64_t)1 << 40,
		.help = "bytes to map and touch (units: 4K, 16M, 1%mem, 100P pages)",
	},
	[P_PASSES] = {
		.name = "passes", .type = MMB_PARAM_INT, .def = "1",
		.min = 1, .max = 1000,
		.help = "how many times every page is touched inside the timed region",
	},
	[P_ACCESS] = {
		/* ENUM: value.i is the index in `choices`, value.s the name. */
		.name = "access", .type = MMB_PARAM_ENUM, .def = "write",
		.choices = "write|read",
		.help = "store to (write) or load from (read) each page",
	},
	[P_PREFAULT] = {
		/* BOOL: value.i is 0 or 1; true/false/yes/no/on/off/1/0 accepted. */
		.name = "prefault", .type = MMB_PARAM_BOOL, .def = "false",
		.help = "populate every page in (untimed) setup, so passes take no faults",
	},
	{ .name = NULL },	/* terminator */
};

/*
 * Metric definitions: name (as stored in samples.metric and shown by
 * compare), unit, and which direction is better (compare and the
 * regression wording depend on it: never guess it at report time).
 */
static const struct mmb_metric_def skeleton_metrics[] = {
	[M_PAGES_SEC] = { "pages/sec", "pages/s", MMB_HIGHER_IS_BETTER,
			  "pages touched per second of timed region" },
	[M_TIME] = { "time", "s", MMB_LOWER_IS_BETTER,
		     "seconds spent in the timed passes" },
	{ .name = NULL },
};

/* Per-iteration state, created by setup, freed by teardown. */
struct skeleton_state {
	char *region;
	size_t bytes;
	size_t page;
};

/*
 * check_params (optional): runs in the harness process at plan time, once
 * per expanded variant, before anything is started.  Use it for
 * combinations the per-param [min, max] cannot express.  Return NULL when
 * fine, else a static message; the harness prints it with the position of
 * the workload in the experiment file and exits 2 (a config error).
 */
static const char *skeleton_check_params(const struct mmb_value *params)
{
	if ((uint64_t)params[P_SIZE].i * (uint64_t)params[P_PASSES].i > ((uint64_t)64 << 30))
		return "size * passes exceeds 64G of touches; lower one of them";
	return NULL;
}

/*
 * supported (optional): runs in the harness process before the workload's
 * iterations, with the host table (no ctx: nothing to report yet).  Answer
 * "can this run on this machine/kernel at all?" cheaply and without side
 * effects.  Return NULL to run, or a static human reason: the harness
 * records the variant as skipped with that reason and goes on.
 * Static requirements belong in .requires/.min_kernel instead; the harness
 * checks those itself and writes the reason for you.
 */
static const char *skeleton_supported(const struct mmb_host *host,
				      const struct mmb_value *params)
{
	if (host->mem_total && (uint64_t)params[P_SIZE].i > host->mem_total / 2)
		return "size is more than half of MemTotal";
	return NULL;
}

/*
 * setup: runs in the forked iteration child, untimed.  Allocate, map,
 * prefault, write knobs.  Put whatever run() needs in *state.
 *
 * Failing: call host->fail(ctx, fmt, ...) with a human reason and return
 * MMB_FAIL (the iteration is recorded as failed, the run goes on).
 * Skipping: host->skip(ctx, ...) + MMB_SKIP when you discover only now that
 * this cannot run here (e.g. an mmap flag the kernel rejects with EINVAL).
 * teardown() is NOT called when setup fails or skips: memory and mappings
 * vanish with the child anyway, but undo yourself anything that outlives
 * the process (files, SysV shm) before returning.
 *
 * Knobs: to change sysfs/procfs for the iteration, never open() the file
 * yourself; call
 *	host->write_knob(ctx, "/sys/kernel/mm/transparent_hugepage/enabled", "never");
 * The host journals the old value on disk first and restores it after the
 * iteration, even if this child crashes or the harness is killed.  It
 * returns 0 or -errno (typically -EACCES when not root: skip then).
 * Machine-wide settings the experiment file can express (thp, mthp,
 * governor, ...) belong in `environment:` rather than in a plugin.
 */
static int skeleton_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
			  const struct mmb_value *params, void **state)
{
	struct skeleton_state *st;
	char thp[128];
	size_t off;

	st = calloc(1, sizeof(*st));
	if (!st) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = st;
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	/* Round up to whole pages so every touched page is ours. */
	st->bytes = ((size_t)params[P_SIZE].i + st->page - 1) / st->page * st->page;

	st->region = mmap(NULL, st->bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->region == MAP_FAILED) {
		st->region = NULL;
		host->fail(ctx, "mmap %zu bytes: %s", st->bytes, strerror(errno));
		return MMB_FAIL;
	}
	if (params[P_PREFAULT].i)
		for (off = 0; off < st->bytes; off += st->page)
			st->region[off] = 1;

	/* read_knob: how to look at sysfs through the host (no journaling needed). */
	if (host->read_knob(ctx, "/sys/kernel/mm/transparent_hugepage/enabled",
			    thp, sizeof(thp)) >= 0)
		host->log(ctx, MMB_LOG_DEBUG, "skeleton: THP %s", thp);
	return MMB_OK;
}

/* The work being measured.  Keep it free of host calls and allocation. */
static void skeleton_touch(struct skeleton_state *st, int access)
{
	volatile char *p = st->region;
	size_t off;
	char sink = 0;

	if (access == ACCESS_WRITE) {
		for (off = 0; off < st->bytes; off += st->page)
			p[off] = 1;
	} else {
		for (off = 0; off < st->bytes; off += st->page)
			sink += p[off];
		__asm__ __volatile__("" : : "r"(sink));
	}
}

/*
 * run: one measured iteration, in the same forked child, right after
 * setup.  The plugin times ONLY its own region -- the harness does not time
 * hooks -- and reports each sample with host->report(ctx, metric, value).
 * Report every metric once per iteration (more is allowed: each call is one
 * sample with its own sequence number).
 *
 * Inside the timed region: no host->log, no allocation, no syscalls you do
 * not mean to measure.  host->now_ns() is CLOCK_MONOTONIC without
 * allocation; a workload may also read its own clocks (pft uses
 * CLOCK_REALTIME + getrusage to match the original program).
 *
 * Timeouts: when the per-iteration timeout expires or the user presses
 * Ctrl-C, host->should_stop() turns true; if the child still does not end,
 * the harness kills it (SIGKILL) and records the iteration as failed with
 * the reason.  Long runs should poll should_stop() at points that are
 * outside the timed part, as done between passes here.  A crash (SIGSEGV,
 * abort) is caught the same way: only this iteration is lost.
 *
 * If you fork() worker processes, they must _exit() and never return into
 * the host code; set PR_SET_PDEATHSIG so they die with the iteration child.
 */
static int skeleton_run(const struct mmb_host *host, struct mmb_ctx *ctx,
			const struct mmb_value *params, void *state)
{
	struct skeleton_state *st = state;
	int64_t passes = params[P_PASSES].i;
	uint64_t total_ns = 0, t0;
	double secs;
	int64_t i;

	for (i = 0; i < passes; i++) {
		if (host->should_stop(ctx)) {
			host->fail(ctx, "stopped after %lld of %lld passes",
				   (long long)i, (long long)passes);
			return MMB_FAIL;
		}
		t0 = host->now_ns();
		skeleton_touch(st, (int)params[P_ACCESS].i);
		total_ns += host->now_ns() - t0;
	}

	secs = (double)total_ns / 1e9;
	if (secs <= 0) {
		host->fail(ctx, "timed region too short to measure");
		return MMB_FAIL;
	}
	host->report(ctx, M_PAGES_SEC,
		     (double)(st->bytes / st->page) * (double)passes / secs);
	host->report(ctx, M_TIME, secs);
	return MMB_OK;
}

/*
 * teardown: untimed, in the same child, after run (whatever run returned),
 * only when setup succeeded.  Free everything.  The child exits right
 * after, so this matters mostly for leak checkers and for plugins that
 * created things outside the process (files, shm).  Knobs written through
 * host->write_knob() are restored by the host, not here.
 */
static void skeleton_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			      const struct mmb_value *params, void *state)
{
	struct skeleton_state *st = state;

	if (!st)
		return;
	if (st->region)
		munmap(st->region, st->bytes);
	free(st);
}

/*
 * The descriptor.  MMB_WORKLOAD_INIT fills abi_major/abi_minor (the header
 * version this plugin was compiled against), .size = sizeof(struct
 * mmb_workload) and the element sizes of the param/metric arrays; the
 * loader uses them to reject a wrong major or a short struct and to walk
 * the arrays even when a newer header grew the element structs.  Never
 * fill those fields by hand.
 */
static const struct mmb_workload skeleton_workload = {
	MMB_WORKLOAD_INIT,
	.name = "skeleton",		/* must equal the file name skeleton.so */
	.summary = "template plugin: touch every page of an anonymous mapping",
	.params = skeleton_params,
	.metrics = skeleton_metrics,
	.requires = 0,			/* MMB_REQ_ROOT | MMB_REQ_SWAP | MMB_REQ_THP | MMB_REQ_MTHP */
	.min_kernel = 0,		/* e.g. MMB_KERNEL_VERSION(6, 8, 0) */
	.supported = skeleton_supported,
	.setup = skeleton_setup,
	.run = skeleton_run,
	.teardown = skeleton_teardown,
	.check_params = skeleton_check_params,
};

/* Exports mmbench_workload_entry(), the plugin's only visible symbol. */
MMB_WORKLOAD(skeleton_workload);
