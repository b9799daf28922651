/*
 * From a parsed 0-day report to an mmbench experiment, and from measured
 * samples back to a verdict in the report's terms ("reproduced").
 *
 * Mapping (lkp job params -> mmbench workload params), lkp unit rules kept
 * as written ("200%" = 2 x this machine's CPUs, "300s", "100x"):
 *   aim9          test, testtime                    -> aim9 test, testtime
 *   ebizzy        nr_threads, duration, iterations  -> ebizzy threads, duration,
 *                                                     workload iterations (rng: compat)
 *   pft           nr_task                           -> pft clients, mode: processes
 *   will-it-scale test, mode, nr_task               -> will-it-scale test, mode, nr_task
 *   vm-scalability test, size, unit_size, nr_task, runtime -> the same names, sizes
 *                 scaled from the report's memory to this machine's
 *   stress-ng     test, nr_threads, testtime, method -> the same names
 *   cpufreq_governor -> environment governor (only where cpufreq exists)
 */
#ifndef MMB_REPRODUCE_H
#define MMB_REPRODUCE_H

#include "config.h"
#include "lkpreport.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

struct repro_param {
	char *name;
	char *value;		/* as written into the YAML */
	char *note;		/* "200% of 2 CPUs here = 4", or NULL */
};

struct repro_opts {
	int runs;		/* runs per commit (>= 1; 0-day uses >= 6) */
	int rounds;		/* boots per kernel (A/B in VMs), 0 = one host run */
	int ncpus;		/* this machine (or the guest) */
	uint64_t mem_bytes;	/* its memory: lkp's sizes are scaled to it; 0 unknown */
	bool has_cpufreq;	/* governor can be applied where the runs happen */
	const char *where;	/* "this machine", "the QEMU guest": for the notes */
	const char *thp;	/* THP where the runs happen ("never", "madvise"...), NULL unknown */
};

struct repro_plan {
	char *testcase;		/* lkp testcase, "aim9" */
	char *test;		/* lkp test param or "" */
	char *workload;		/* mmbench plugin */
	char *metric;		/* mmbench metric of the KPI ("brk_test.ops_per_sec") */
	char *lkp_metric;	/* the report's metric ("aim9.brk_test.ops_per_sec") */
	int better;		/* +1 higher is better, -1 lower */
	struct repro_param *params;
	size_t nparams;
	int workload_iterations;	/* 0 = the experiment's */
	char *governor;		/* applied, or NULL */
	char *governor_skipped;	/* the report's, when it cannot be applied */
	int runs;		/* per commit, all boots together */
	int rounds;		/* boots per kernel, 0 when run on the host */
	int iterations;		/* per run of the experiment (per boot) */
	int64_t timeout_ns;
	int64_t iteration_ns;	/* one iteration's work as the report's params say (testtime...) */
	bool iteration_bound;	/* iteration_ns is only a limit (no runtime parameter) */
	char **notes;		/* caveats and remarks, one line each */
	size_t nnotes;
	char *name;		/* experiment name */
	char *yaml;		/* the experiment text: the record shown and stored */
	struct experiment exp;	/* the same experiment as a value: what runs */
	/* the report's numbers for the KPI in the main table */
	const struct lkp_table *table;
	const struct lkp_row *row;	/* NULL when the table lacks the KPI */
};

void repro_plan_init(struct repro_plan *p);
void repro_plan_release(struct repro_plan *p);

/*
 * Build the plan.  Returns 0, or -1 with one line in err, e.g.
 * "not supported: unixbench/fsdisk; mmbench can reproduce: aim9/brk_test, ...".
 */
int repro_plan_build(const struct lkp_report *r, const struct repro_opts *o,
		     struct repro_plan *p, char *err, size_t errlen);

/* "aim9/brk_test, aim9/page_test, ebizzy, pft, will-it-scale/{...}" */
const char *repro_supported_list(void);

/* True when cpufreq governors can be set on this machine. */
bool repro_host_has_cpufreq(void);

/*
 * The verdict line for one comparison, e.g.
 * "report: -5.0%, here: -4.1% [CI -5.3, -2.9], p=0.0012: reproduced".
 * rel/rel_lo/rel_hi in % of the base mean; p may be NaN.
 * Reproduced: same sign as the report, CI excludes 0, p < 0.05.
 * Returns 1 reproduced, 0 not reproduced.
 */
int repro_verdict(double report_change, double rel, double rel_lo, double rel_hi,
		  double p, struct strbuf *out);

/*
 * Does uname -r name this commit?  True when a run of >= 7 hex digits in
 * release (after "-g", as setlocalversion writes it) and sha agree on their
 * common length: "6.12.0-rc1-00042-gcacded5e42b9" names cacded5e42.
 */
bool repro_release_has_sha(const char *release, const char *sha);

/*
 * The plan's time as one line, stated as an estimate: nkernels x rounds x
 * runs x one iteration, the iteration's time measured_s from nmeasured
 * earlier iterations of the experiment, else from the report's parameters.
 */
void repro_plan_estimate(const struct repro_plan *p, size_t nkernels, double measured_s,
			 int nmeasured, struct strbuf *out);

/* Machine differences worth a caveat (CPU count, TCG), appended to notes. */
void repro_plan_caveats(struct repro_plan *p, const struct lkp_report *r,
			int ncpus_here, const char *accel);

#endif
