/* What the runner's parent (runner.c) and child (runner-child.c) share. */
#ifndef MMB_RUNNER_INTERNAL_H
#define MMB_RUNNER_INTERNAL_H

#include "runner.h"

#include <sched.h>
#include <stdint.h>

/* child -> parent, over the iteration's pipe */
enum msg_type { MSG_SAMPLE = 1, MSG_REASON, MSG_LOG, MSG_DONE, MSG_COUNTERS };

struct msg_hdr {
	uint32_t type;
	uint32_t len;		/* payload bytes */
};

struct msg_sample {
	uint32_t metric;
	uint32_t seq;
	double value;
};

/* Iteration outcome the child reports last, right before _exit. */
enum { DONE_OK, DONE_SKIP, DONE_FAIL };

/* The run's counters (NULL: --no-counters); the child opens its own copy. */
extern struct counters *runner_iter_counters;
/* run --profile: perf on the profiled iteration's child (else NULL) */
extern struct perfrec *runner_iter_profile;

/*
 * The iteration's child from its fork on: waits for the parent's "go" on
 * go_fd (no plugin code before the parent has put it in the iteration's
 * cgroup), then runner_child_main(); never returns.
 */
__attribute__((noreturn)) void runner_child_start(int go_fd, const struct plan_workload *w,
						  const struct plan_variant *v, int fd,
						  const cpu_set_t *pin);

/* The iteration's child: setup, run, teardown of the plugin, samples and
 * the outcome sent on fd; never returns. */
__attribute__((noreturn)) void runner_child_main(const struct plan_workload *w,
						 const struct plan_variant *v, int fd,
						 const cpu_set_t *pin);

#endif
