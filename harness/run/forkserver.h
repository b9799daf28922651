/*
 * The fork server: a process the runner forks once per run, which then
 * forks every iteration's child, so the harness itself never forks while
 * the run goes on.
 *
 * Why: after a fork every private page of the process that forked is
 * write-protected, and each page it writes afterwards (SQLite's page
 * cache, malloc's heap, the monitors' buffers) takes a copy-on-write
 * fault.  The harness took ~110 such faults an iteration, about 1.6 ms on
 * a paravirtualised VM where each one flushes the TLB by IPI
 * (docs/methodology.md).  The server writes a few pages between forks.
 *
 * The iteration child is the server's child: the server reaps it and
 * reports its wait status and rusage.  Everything else is as with a
 * direct fork: the child still waits for the harness's "go" (after it was
 * put in the iteration's cgroup), loads the plugin itself and reports over
 * its own pipe; its orphans still come to the harness (the subreaper).
 */
#ifndef MMB_FORKSERVER_H
#define MMB_FORKSERVER_H

#include "plan.h"

#include <sched.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct forkserver {
	pid_t pid;		/* the server; 0: none, fork directly */
	int sock;		/* SOCK_SEQPACKET to it */
	struct rusage self;	/* the server's own, at its last report */
};

/*
 * Fork the server for plan's iterations (MMBENCH_FORKSERVER=0: none).
 * Without one (fork failed, switched off) fs->pid stays 0: callers fork
 * directly.
 */
void forkserver_start(struct forkserver *fs, const struct plan *plan);

/*
 * The server forks the child of (w, v): it reads "go" from go_fd, then
 * runs runner_child_main() reporting on msg_fd.  Returns its pid, or -1
 * (the server is gone, and stopped: fork directly from now on).
 */
pid_t forkserver_spawn(struct forkserver *fs, const struct plan *plan,
		       const struct plan_workload *w, const struct plan_variant *v,
		       const cpu_set_t *pin, int msg_fd, int go_fd);

/*
 * After fs->sock polled readable: 1 with the child's wait status and
 * rusage, or -1 when the server died (its children die with it: they
 * have PR_SET_PDEATHSIG).  The child's CPU and the server's are counted
 * as the harness's own by the interference record.
 */
int forkserver_reaped(struct forkserver *fs, pid_t pid, int *status, struct rusage *ru);

/* End the server and reap it. */
void forkserver_stop(struct forkserver *fs);

#endif
