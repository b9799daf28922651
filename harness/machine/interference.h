/*
 * What else happened on the machine while an iteration ran.
 *
 * The runner takes a snapshot before it forks an iteration and another
 * after it reaped it (both outside the plugin's timed region), and turns
 * the pair into an interference record: CPU time taken on the iteration's
 * CPUs by everything that was not the iteration, steal and iowait, the run
 * queue, the iteration's own context switches, CPU frequency and thermal
 * throttling where the machine exposes them, free memory and swap traffic.
 * The record is stored with the iteration (monitors, source
 * "interference"); interference_judge() turns it, with the knob re-check,
 * into the iteration's "disturbed" reasons.  Thresholds and their defaults
 * are in docs/statistics.md ("Disturbed iterations").
 */
#ifndef MMB_INTERFERENCE_H
#define MMB_INTERFERENCE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

struct strbuf;

/* Thresholds; a negative value switches that check off. */
struct interference_limits {
	double foreign_cpu;	/* share of the iteration's CPUs used by others (0.10) */
	double steal;		/* share of those CPUs stolen by the hypervisor (0.05) */
	double freq_drop;	/* lowest frequency seen below the run's first (0.10) */
	bool throttle;		/* any thermal throttling event */
	bool knobs;		/* a setting the experiment made changed */
};
#define INTERFERENCE_LIMITS_DEFAULT { 0.10, 0.05, 0.10, true, true }

#define INTERFERENCE_MAX_CPUS 1024

struct interference_snap {
	uint64_t t_ns;				/* CLOCK_MONOTONIC */
	uint64_t busy, idle, iowait, steal;	/* USER_HZ ticks over the CPU set */
	struct rusage self, children;		/* getrusage(SELF / CHILDREN) */
	uint64_t freq_khz_min;			/* lowest scaling_cur_freq; 0: none */
	uint64_t throttle;			/* sum of thermal_throttle counts */
	uint64_t pswpin, pswpout;
	bool have_stat;
};

/* The record: every field NAN (or 0 for counts) when the machine hides it. */
struct interference {
	double wall_s;			/* the window the shares are of */
	double window_s;		/* NAN, or the widened window judged instead */
	double cpus;			/* CPUs in the set */
	double foreign_cpu_s;		/* busy time on the set not the iteration's */
	double foreign_share;		/* foreign_cpu_s / (cpus * wall_s) */
	double steal_s, steal_share;
	double iowait_s;
	double procs_running;		/* runnable tasks at the end, without us */
	double load1;			/* 1-minute load average */
	double nvcsw, nivcsw;		/* the iteration's context switches */
	double freq_khz;		/* lowest frequency seen at the ends (NAN: none) */
	double throttle_events;
	double mem_available_bytes;
	double pswpin, pswpout;		/* pages swapped in / out */
};

/* The CPUs to watch: the pin set (environment: pin_cpu), NULL for our affinity. */
void interference_set_cpus(const cpu_set_t *pin);
/*
 * Inside a guest on the virtual clock (vm run --clock virtual) with two or
 * more vCPUs, TCG runs the vCPUs in turns on one host thread and guest
 * time runs on through another vCPU's turn: an idle vCPU woken by an
 * interrupt is charged irq and softirq time for the whole turn (half the
 * machine beside a busy vCPU).  From this call on, irq and softirq time
 * is not counted as others' CPU.
 */
void interference_irq_not_foreign(void);
void interference_take(struct interference_snap *s);
/*
 * CPU that is the harness's own though getrusage(CHILDREN) does not see
 * it: an iteration child the fork server reaped, and the server itself
 * (harness/run/forkserver.h).  Every later snapshot counts it as reaped.
 */
void interference_count_own(const struct rusage *ru);
void interference_diff(const struct interference_snap *a, const struct interference_snap *b,
		       struct interference *out);

/*
 * /proc/stat counts in USER_HZ ticks (10 ms): over a 5 ms iteration a
 * CPU hog beside it shows as 0 or 100%, by chance.  A window shorter than
 * INTERFERENCE_MIN_WINDOW_TICKS (100 ms) is widened back in time to the
 * newest earlier snapshot that makes it long enough, so a short iteration
 * is judged by what ran around it.  Longer ones are judged alone: a wider
 * window thins a hog that started mid-way (e2e 44: a 200 ms iteration
 * beside a hog read 23% over two iterations, 33% alone).  The history
 * holds snapshots at least a quarter of that apart.
 */
#define INTERFERENCE_MIN_WINDOW_TICKS 10
#define INTERFERENCE_HISTORY 8
struct interference_history {
	struct interference_snap snap[INTERFERENCE_HISTORY];
	unsigned n, next;
};
void interference_history_push(struct interference_history *h, const struct interference_snap *s);
/*
 * interference_diff(a, b) whose CPU and steal shares are of the widened
 * window when a..b is short (then window_s says how long it was).
 */
void interference_diff_window(const struct interference_history *h,
			      const struct interference_snap *a, const struct interference_snap *b,
			      struct interference *out);
/*
 * Store form: keys ("interference:foreign_share", ...: monitor keys with
 * their source) and values, skipping what the
 * machine does not expose.  Returns how many (at most INTERFERENCE_NKEYS);
 * keys are static strings.
 */
#define INTERFERENCE_NKEYS 17
int interference_keys(const struct interference *x, const char **keys, double *values);

/*
 * The single level compare pools per iteration: foreign share + steal
 * share (both fractions of the iteration's CPUs).
 */
double interference_level(const struct interference *x);

/*
 * CPU seconds the kernel's own threads (PF_KTHREAD: khugepaged, kswapd,
 * kdamond, kworkers) have used since boot, NAN when /proc is not there.
 * A VM's host tells them from other jobs: they mostly work on the guest's
 * memory.
 */
double interference_kthread_cpu_s(void);

/*
 * MMBENCH_INTERFERENCE=record in the environment: measure and store, but
 * let no load limit judge (test suites on shared machines whose subject is
 * not interference); knob drift still counts.  Switches l's load checks
 * off then; true when it did.
 */
bool interference_record_only(struct interference_limits *l);

/*
 * Append "; "-separated reasons to why (empty when clean).  ref_freq_khz:
 * the run's first frequency reading (0: none yet; taken from x then).
 */
void interference_judge(const struct interference *x, const struct interference_limits *l,
			uint64_t *ref_freq_khz, struct strbuf *why);

/* ---- settings the experiment made, re-checked after every iteration ---- */

/* Remember that the run set key (path) to value. */
void knob_watch_add(const char *key, const char *path, const char *value);
/*
 * Re-read every watched knob; for each that drifted append
 * "thp.enabled changed to always" to why and put the value back (journaled).
 * Returns how many drifted.
 */
int knob_watch_check(struct strbuf *why);
void knob_watch_reset(void);

#endif
