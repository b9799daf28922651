/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmbench public plugin ABI.
 *
 * This is the only header a workload plugin includes.  A plugin is a shared
 * object exporting one symbol, MMB_ENTRY_SYMBOL, which returns a pointer to a
 * static `struct mmb_workload`.  Everything the plugin needs from the harness
 * comes through the `struct mmb_host` table it receives in every hook; a
 * plugin never links against harness symbols (build with -Wl,-z,defs).
 *
 * Versioning rules (see docs/writing-workloads.md):
 *  - MMB_ABI_MAJOR changes only when an existing field changes meaning or
 *    position.  The loader rejects a plugin whose major differs.
 *  - New fields are appended at the end of a struct and bump MMB_ABI_MINOR.
 *    Every struct that can grow carries its own size, so both sides can tell
 *    which fields the other knows about.
 *  - Arrays of parameter and metric definitions are walked with the element
 *    size the plugin declares (param_def_size, metric_def_size), so those
 *    element structs may grow too.
 */
#ifndef MMBENCH_WORKLOAD_H
#define MMBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MMB_ABI_MAJOR 1
#define MMB_ABI_MINOR 2

#define MMB_ENTRY_SYMBOL "mmbench_workload_entry"

#if defined(__GNUC__)
#define MMB_EXPORT __attribute__((visibility("default")))
#define MMB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MMB_EXPORT
#define MMB_PRINTF(a, b)
#endif

/* ---------------------------------------------------------------- params */

enum mmb_param_type {
	MMB_PARAM_INT = 1,	/* int64; accepts ncpu, 2*ncpu, 200% (of CPUs) */
	MMB_PARAM_SIZE,		/* bytes; accepts 4K, 1G, 20%mem, 3P (pages) */
	MMB_PARAM_DURATION,	/* nanoseconds; accepts 300s, 10ms, 2m, 1h */
	MMB_PARAM_BOOL,		/* true/false/yes/no/on/off/1/0 */
	MMB_PARAM_ENUM,		/* one of `choices` ("a|b|c"); value is the index */
	MMB_PARAM_STRING,	/* free text */
	MMB_PARAM_DOUBLE,	/* floating point */
};

/*
 * One parameter, described as data.  The harness parses the YAML value with
 * the rules of `type`, checks [min, max] (when min < max) and hands the
 * plugin an array of `struct mmb_value` in the order of the definitions.
 */
struct mmb_param_def {
	const char *name;
	enum mmb_param_type type;
	const char *def;	/* default in YAML syntax ("1G", "ncpu"); NULL = required */
	int64_t min, max;	/* inclusive bounds for INT/SIZE/DURATION; min >= max: unbounded */
	const char *choices;	/* ENUM only: "compat|lcg" */
	const char *help;
};

/*
 * No size and never grows within a major: plugins index the array with
 * their own sizeof (docs/writing-workloads.md says what a plugin may do).
 */
struct mmb_value {
	int64_t i;		/* INT, SIZE (bytes), DURATION (ns), BOOL (0/1), ENUM (index) */
	double d;		/* DOUBLE; also i as a double for numeric types */
	const char *s;		/* STRING and ENUM (choice name); never NULL */
};

/* --------------------------------------------------------------- metrics */

enum mmb_better {
	MMB_HIGHER_IS_BETTER = 1,
	MMB_LOWER_IS_BETTER = -1,
};

struct mmb_metric_def {
	const char *name;	/* "faults/sec", "brk_test.ops_per_sec" */
	const char *unit;	/* "faults/s", "s", "ops/s" */
	enum mmb_better better;
	const char *help;
	/* ABI 1.2 */
	int64_t places;		/* decimals of mmtests' layout (its DecimalPlaces), 1-9; 0: 2 */
};

/* ---------------------------------------------------------- requirements */

#define MMB_REQ_ROOT	(1u << 0)	/* must run as root */
#define MMB_REQ_SWAP	(1u << 1)	/* needs an active swap device */
#define MMB_REQ_THP	(1u << 2)	/* needs transparent hugepages */
#define MMB_REQ_MTHP	(1u << 3)	/* needs per-size mTHP sysfs */

#define MMB_KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))

/* ------------------------------------------------------------- host table */

enum mmb_log_level { MMB_LOG_ERROR, MMB_LOG_WARN, MMB_LOG_INFO, MMB_LOG_DEBUG };

/* Return codes of setup/run/teardown. */
#define MMB_OK		0
#define MMB_FAIL	(-1)	/* the iteration failed; reason via host->fail() */
#define MMB_SKIP	(-2)	/* cannot run here; reason via host->skip() */

struct mmb_ctx;			/* opaque: one per iteration, owned by the host */

struct mmb_host {
	uint32_t abi_major;
	uint32_t abi_minor;
	size_t size;		/* sizeof(struct mmb_host) as the host knows it */

	/* Record one sample of metrics[metric] (index into the descriptor). */
	void (*report)(struct mmb_ctx *ctx, unsigned int metric, double value);
	void (*log)(struct mmb_ctx *ctx, enum mmb_log_level level,
		    const char *fmt, ...) MMB_PRINTF(3, 4);
	/* Set the human reason for MMB_SKIP / MMB_FAIL. */
	void (*skip)(struct mmb_ctx *ctx, const char *fmt, ...) MMB_PRINTF(2, 3);
	void (*fail)(struct mmb_ctx *ctx, const char *fmt, ...) MMB_PRINTF(2, 3);
	/* True once the harness wants the iteration to end (timeout, Ctrl-C). */
	bool (*should_stop)(struct mmb_ctx *ctx);
	/* CLOCK_MONOTONIC in nanoseconds; async-signal-safe, no allocation. */
	uint64_t (*now_ns)(void);
	/*
	 * Write a sysfs/procfs knob.  The host journals the old value on disk
	 * first and restores it after the iteration, even if the harness dies.
	 * Returns 0 or -errno.
	 */
	int (*write_knob)(struct mmb_ctx *ctx, const char *path, const char *value);
	/* Read a knob (first line, newline stripped).  Returns length or -errno. */
	int (*read_knob)(struct mmb_ctx *ctx, const char *path, char *buf, size_t len);

	/* Facts about the machine the host already knows. */
	int ncpus;			/* online CPUs */
	uint64_t mem_total;		/* bytes, /proc/meminfo MemTotal */
	uint64_t page_size;
	unsigned int kernel_version;	/* MMB_KERNEL_VERSION of uname -r */
	int pin_cpu;			/* CPU the iteration is pinned to, -1 none or several */

	/* ABI 1.1 */
	/*
	 * The timed region, from the thread that runs run(): the host counts
	 * its perf counters only between timed_begin and timed_end (both may
	 * come more than once; the regions add up).  A plugin that never calls
	 * them is counted over its whole run().  Check host->size first.
	 */
	void (*timed_begin)(struct mmb_ctx *ctx);
	void (*timed_end)(struct mmb_ctx *ctx);
	/* New members go here, and bump MMB_ABI_MINOR. */
};

/* -------------------------------------------------------------- descriptor */

struct mmb_workload {
	uint32_t abi_major;	/* MMB_ABI_MAJOR the plugin was built against */
	uint32_t abi_minor;
	size_t size;		/* sizeof(struct mmb_workload) the plugin knows */

	const char *name;	/* must match the file name: <name>.so */
	const char *summary;	/* one line */

	const struct mmb_param_def *params;	/* terminated by a NULL name */
	size_t param_def_size;			/* sizeof(struct mmb_param_def) */
	const struct mmb_metric_def *metrics;	/* terminated by a NULL name */
	size_t metric_def_size;			/* sizeof(struct mmb_metric_def) */

	uint32_t requires;		/* MMB_REQ_* */
	unsigned int min_kernel;	/* MMB_KERNEL_VERSION, 0 = any */

	/*
	 * Cheap check at plan time, before anything runs (in a forked child
	 * of the harness: no side effects survive it).  Return
	 * NULL when the workload can run here, else a static human reason.
	 * May be NULL (always supported).
	 */
	const char *(*supported)(const struct mmb_host *host,
				 const struct mmb_value *params);
	/*
	 * The three hooks below run in a forked child, one per iteration:
	 * setup (untimed) -> run (the plugin times its own region and
	 * reports samples) -> teardown.  *state is the plugin's to use.
	 */
	int (*setup)(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *params, void **state);
	int (*run)(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *params, void *state);
	void (*teardown)(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *params, void *state);
	/*
	 * Optional: validate a parameter combination (e.g. ebizzy -m with -M).
	 * Return NULL if fine, else a static message.  Called at plan time,
	 * in a forked child like supported().
	 */
	const char *(*check_params)(const struct mmb_value *params);

	/* ABI 1.2 */
	/*
	 * The external programs it runs, found on $PATH, NULL-terminated (at
	 * most 8): each one's `--version` is recorded with the run as
	 * tool.<program>, since results are comparable only between runs of
	 * one version.  NULL: none.
	 */
	const char *const *programs;
	/* New members go here, and bump MMB_ABI_MINOR. */
};

typedef const struct mmb_workload *(*mmb_entry_fn)(void);

/* Use once per plugin: MMB_WORKLOAD(my_descriptor); */
#define MMB_WORKLOAD(desc)						\
	MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void); \
	MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void) \
	{ return &(desc); }

#define MMB_WORKLOAD_INIT						\
	.abi_major = MMB_ABI_MAJOR, .abi_minor = MMB_ABI_MINOR,		\
	.size = sizeof(struct mmb_workload),				\
	.param_def_size = sizeof(struct mmb_param_def),			\
	.metric_def_size = sizeof(struct mmb_metric_def)

#ifdef __cplusplus
}
#endif
#endif /* MMBENCH_WORKLOAD_H */
