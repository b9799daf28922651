/*
 * Containment of one iteration's processes: whatever the plugin starts
 * (setsid daemons, double forks) dies at the iteration's timeout and at
 * its end.  With cgroup v2 each iteration runs in a cgroup under the
 * harness's (mmbench-PID-N: the run's, or its own), emptied with
 * cgroup.kill at its end; the cgroup is journaled (envctl) so a run killed
 * with SIGKILL has it emptied and removed at the next start.  Without a usable cgroup v2 the
 * harness is a child subreaper: orphans of the iteration become its
 * children and are killed and reaped at the iteration's end.
 */
#ifndef MMB_CONTAIN_H
#define MMB_CONTAIN_H

#include <stdbool.h>
#include <sys/types.h>

struct contain {
	char *cg;	/* the iteration's cgroup folder, or NULL (subreaper only) */
	pid_t pid;	/* the iteration child */
	bool shared;	/* cg is the run's (contain_run_begin): emptied, not removed */
};

/*
 * A run's iterations may share one cgroup, made and journaled once before
 * the first (its journal entry outlives each iteration's restore mark) and
 * emptied after each: no mkdir, rmdir and journal fsync per iteration.
 * contain_run_end() removes it; a killed run's is removed at the next start.
 */
void contain_run_begin(void);
void contain_run_end(void);

/* Before fork: make the iteration's cgroup if the machine allows one. */
void contain_begin(struct contain *c);
/*
 * The same without a cgroup (and without touching the restore journal), for
 * short-lived children of read-only commands (loading a plugin): the
 * subreaper alone catches what they leave.
 */
void contain_begin_reaper(struct contain *c);
/* In the parent, before the child runs any plugin code: move it in. */
void contain_enter(struct contain *c, pid_t pid);
/* SIGKILL every process of the iteration, the child's group first. */
void contain_kill(struct contain *c);
/* After the child was reaped: kill and reap what is left, remove the cgroup. */
void contain_end(struct contain *c);

/*
 * A child of the harness the sweeps leave alone (the run's fork server,
 * harness/run/forkserver.h); 0: none.
 */
void contain_spare(pid_t pid);

/* A folder contain_begin() could have made: absolute, .../mmbench-N-N. */
bool contain_cgroup_path_ok(const char *path);
/*
 * Kill everything in a cgroup mmbench made and remove it (the journal's
 * replay of a killed run).  0 when it is gone (or never was), else -1
 * after saying why.
 */
int contain_cgroup_destroy(const char *path);

#endif
