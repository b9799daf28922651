/*
 * The runner: executes a plan on the running kernel.  Each iteration runs
 * in a forked child (its own process group) so a crashing or hanging plugin
 * costs one iteration, not the run.  Samples come back over a pipe and are
 * committed to the database as soon as the iteration ends.
 */
#ifndef MMB_RUNNER_H
#define MMB_RUNNER_H

#include "db.h"
#include "sink.h"
#include "plan.h"
#include "sysinfo.h"

struct runner_stats {
	int ok, failed, skipped;
	int disturbed;		/* measured iterations marked disturbed */
	bool interrupted;
};

/* Apply the experiment's environment section, recording it in run_env. */
int runner_env_apply(const struct experiment *e, struct result_sink *sink);
/* Record the environment snapshot (after applying) in run_env. */
int runner_env_record(struct result_sink *sink);

/* Every record goes to sink (the results DB on the host, see db/sink.h). */
int runner_run(struct plan *plan, struct result_sink *sink, struct runner_stats *st);

/* Ask a running runner to stop (signal handlers call this). */
void runner_request_stop(int sig);
int runner_stop_signal(void);

/* The host table plugins get (also used at plan time for supported()). */
const struct mmb_host *runner_host_table(void);

#endif
