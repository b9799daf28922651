/*
 * One run of an experiment value on the running kernel, recorded in the
 * results DB under a kernel label (`mmbench run`; `mmbench reproduce`
 * builds the experiment in memory and runs it here).
 */
#ifndef MMB_SESSION_H
#define MMB_SESSION_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

struct run_request {
	const char *config_path;	/* recorded with the run (runs.config_path) */
	const char *label;		/* NULL: the running kernel's release */
	const char *db;			/* NULL: the default DB */
	const char *workload;		/* --workload: only this one */
	const char *accel;		/* recorded accelerator; NULL: "host" */
	const char *compare;		/* afterwards compare with this label, or "previous" */
	int iterations;			/* > 0: override */
	bool quick;
	double precision;		/* --precision: 0 off */
	int min_iterations, max_iterations;
	const char *options;		/* the plan's options, recorded for --resume (runs.options) */
	int64_t resume;			/* > 0: go on with this interrupted run (resume.h) */
	bool profile;			/* --profile: a perf profile per variant */
	double wait_quiet_s;		/* --wait-quiet: > 0 wait up to this long first */
	bool keep_disturbed;		/* every value disturbed is no failure: the caller pools them */
};

/* Plan, run and record exp (applying its environment); the command's exit code. */
int run_experiment(struct experiment *exp, const struct run_request *rq);

struct result_sink;
/*
 * The same into sink instead of the results DB (a VM guest's stream sink):
 * the run's row, environment, iterations and final status all go to sink;
 * rq->label, db, compare and resume are not used.  The command's exit code.
 */
int run_experiment_to(struct experiment *exp, const struct run_request *rq,
		      struct result_sink *sink);

#endif
