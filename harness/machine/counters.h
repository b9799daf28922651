/*
 * perf_event_open counters per iteration (docs/counters.md).
 *
 * The parent chooses the events and probes, once per run, which of them
 * this machine can count (counters_prepare); what it cannot count is named
 * once in run_env (counters.unsupported) and never fails the run.  The
 * iteration child opens the rest on itself, disabled, with inherit=1 so its
 * threads and children are counted too; it enables them only around the
 * plugin's timed region (host timed_begin/timed_end, or the whole run()
 * for plugins that never call them) and reads them after teardown, when
 * the threads have exited and their counts are folded in.  The values go
 * back to the parent over the iteration pipe and are stored as monitor
 * rows, source "perf-stat", with lkp's names.
 */
#ifndef MMB_COUNTERS_H
#define MMB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COUNTERS_MAX 32

/* COUNTER_RUSAGE: a count the kernel keeps per task, read with getrusage (counters.c) */
enum counter_kind { COUNTER_SW = 1, COUNTER_HW, COUNTER_TP, COUNTER_RUSAGE };
enum { RUSAGE_FAULTS_ALL, RUSAGE_FAULTS_MIN, RUSAGE_FAULTS_MAJ, RUSAGE_CPU_MS, RUSAGE_SWITCHES };

struct counter {
	char *name;		/* "page-faults", "tlb:tlb_flush" */
	char *key;		/* "perf-stat:page-faults": the monitor key */
	enum counter_kind kind;
	uint32_t type;		/* PERF_TYPE_* */
	uint64_t config;
	bool supported;		/* set by counters_prepare() */
	int fd;			/* child side; -1 when not open */
	int hold_fd;		/* parent: keeps a tracepoint registered for the run */
	bool open;		/* child, COUNTER_RUSAGE: counting in this child */
	double acc, since;	/* child, COUNTER_RUSAGE: counted while enabled, value at enable */
	double kids_off;	/* child, COUNTER_RUSAGE: waited-for children's count at the last toggle */
};

struct counters {
	struct counter ev[COUNTERS_MAX];
	size_t n;
	char *unsupported;	/* "cycles,instructions (no PMU)"; NULL when all count */
	bool enabled;		/* child: inside the timed region */
	bool region_seen;	/* child: the plugin called timed_begin */
	double base[COUNTERS_MAX];	/* child: values when the region began */
	uint64_t spent_ns;	/* child: time spent opening, toggling, reading */
};

/* The default set: software events, then tracepoints, then hardware. */
extern const char *const counters_default_names[];

/* NULL when name is an event counters_add() takes, else why not. */
const char *counters_name_error(const char *name);
/* Add one event by name; unknown or malformed names are an error (where, why). */
int counters_add(struct counters *c, const char *name);
/* Add counters_default_names. */
int counters_add_defaults(struct counters *c);
/*
 * Resolve tracepoint ids under tracefs (the tracefs mount, with events/
 * under it; NULL: $MMBENCH_TRACEFS, else /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing) and try to open each event on the calling
 * process.  Sets ev[].supported and c->unsupported.
 */
void counters_prepare(struct counters *c, const char *tracefs);
void counters_release(struct counters *c);

/* Child side.  Open the supported events disabled; errors drop an event. */
void counters_open(struct counters *c);
void counters_enable(struct counters *c);
/*
 * The plugin's timed_begin: what was counted since run() began (this
 * thread, its live threads and children, and those that exited) is
 * subtracted from the end values, and counting goes on (again).
 */
void counters_region_begin(struct counters *c);
void counters_disable(struct counters *c);
/* vals[i] = value of ev[i] (task-clock in ms), NAN when not counted. */
void counters_read(struct counters *c, double *vals);
void counters_close(struct counters *c);

/*
 * Parent side: the monitor rows of one iteration from the values the child
 * sent, derived ratios (ipc, miss rates) included.  keys point into c or
 * static storage; they stay valid until counters_release().
 */
size_t counters_rows(const struct counters *c, const double *vals, double overhead_ms,
		     const char **keys, double *out, size_t max);
#define COUNTERS_MAX_ROWS (COUNTERS_MAX + 8)

#endif
