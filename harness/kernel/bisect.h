/*
 * `mmbench bisect`: find the commit between --good and --bad that changed
 * a metric, each step decided by a sequential test with a stated error
 * bound (harness/compare/bisectstep.h), docs/bisect.md.
 *
 * The git bisect state lives in a clone in the kernel cache
 * (<cache>/bisect/<good12>-<bad12>), never in the user's tree; every run
 * mean measured is appended to runs.tsv there (commit, value), so running
 * the same command again resumes: stored runs are used before new ones.
 *
 * The measuring is injectable: struct bisect_measure gives one run-level
 * mean of the metric at a commit.  MMBENCH_BISECT_FAKE=FILE selects a
 * synthetic measurement (the number in FILE at that commit plus seeded
 * normal noise of sd MMBENCH_BISECT_FAKE_SD, default 1; seed
 * MMBENCH_BISECT_SEED) so tests drive the whole algorithm without kernels.
 * (Contract header: implemented in bisect.c.)
 */
#ifndef MMB_BISECT_H
#define MMB_BISECT_H

#include "bisectstep.h"
#include "kbuild.h"

#include <stdbool.h>
#include <stddef.h>

struct bisect_measure {
	/* one run mean at commit sha (full id); 0, or -1 after a message */
	int (*measure)(void *ctx, const char *sha, double *value);
	void *ctx;
};

struct bisect_opts {
	const char *tree, *good, *bad;
	const char *metric;		/* WORKLOAD.METRIC[@VARIANT] */
	const char *experiment;		/* CONFIG.yaml */
	const char *cache_dir;		/* NULL: kbuild_cache_dir() */
	struct bisect_step_opts step;
	int endpoint_rounds;		/* first runs of each endpoint, default 5 */
	bool virtual_clock;		/* measured under --clock virtual (its runs are its own) */
	bool microvm;			/* --machine microvm (likewise) */
	bool machine_auto;		/* --machine auto: microvm under TCG on the real clock (likewise) */
	/* the kernel measurement's builds: base_config, fragments, jobs
	   (tree, ref, label, db_path and cache_dir are set per commit) */
	struct kbuild_opts build;
};

void bisect_opts_init(struct bisect_opts *o);
void bisect_opts_release(struct bisect_opts *o);
/* Check the options and operands; 0 or -1 with one message (exit 2). */
int bisect_opts_check(struct bisect_opts *o, int argc, char **argv);
/*
 * The synthetic measurement when MMBENCH_BISECT_FAKE is set (1), else 0;
 * -1 on a bad setting.
 */
int bisect_fake_measure(const struct bisect_opts *o, struct bisect_measure *m);
struct vm_opts;
/*
 * The kernel measurement (bisectmeasure.c): build the commit (label
 * bisect-<sha12>), boot it once with vm's options running o->experiment,
 * and give that run's mean of o->metric, disturbed iterations left out.
 */
int bisect_kernel_measure(const struct bisect_opts *o, const struct vm_opts *vm,
			  struct bisect_measure *m);
/*
 * Bisect.  0 with the first bad commit named; 1 when there is nothing to
 * bisect (good vs bad not significant) or no answer; -1 on a failure;
 * MMB_EUSAGE on bad input.
 */
int bisect_run(const struct bisect_opts *o, const struct bisect_measure *m);
/* Print the git bisect log of the clone (what `git bisect replay` takes). */
int bisect_print_log(const struct bisect_opts *o);

#endif
