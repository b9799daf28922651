/*
 * The one way mmbench runs another program (git, make, gnuplot, the Slurm
 * tools, perf, qemu): an argv, never a shell; stdin from a buffer or
 * /dev/null; stdout and stderr captured (capped), sent to a file, or left
 * to ours; a time limit that stops the program's whole process group; the
 * program dies with us (PR_SET_PDEATHSIG); one wording for how it ended.
 *
 * Operands that come from users go after "--" in argv wherever the program
 * takes it (docs/security.md).
 */
#ifndef MMB_PROC_H
#define MMB_PROC_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROC_NEW_PGRP	(1u << 0)	/* its own process group: ^C reaches only us */
#define PROC_NULL_OUT	(1u << 1)	/* stdout to /dev/null (when not captured) */
#define PROC_CLOSE_FDS	(1u << 2)	/* close every fd above keep_fds' in it, CLOEXEC or not */

#define PROC_CAP_DEFAULT (16u << 20)	/* bytes kept per captured stream */

struct proc {
	/* what to run */
	const char *const *argv;	/* argv[0] is looked up in PATH */
	const char *dir;		/* chdir there first, or NULL */
	const char *const *env;		/* NAME=VALUE added to the environment, NULL-ended, or NULL */
	const char *in;			/* its stdin, in_len bytes; NULL: /dev/null */
	size_t in_len;
	struct strbuf *out, *err;	/* captured streams, or NULL */
	int out_fd, err_fd;		/* else: this fd (a log), or -1 for ours */
	size_t cap;			/* 0: PROC_CAP_DEFAULT; the rest is read and dropped */
	double timeout_s;		/* 0: none; else SIGTERM, 2 s grace, SIGKILL */
	unsigned int flags;		/* PROC_* */
	void (*tick)(void *arg);	/* about every 250 ms while it runs (progress) */
	void *tick_arg;
	const int *keep_fds;		/* these become its fds 3, 4, ... (at most 4) */
	int nkeep;
	/* what became of it */
	pid_t pid;
	int status;			/* waitpid()'s status */
	bool started, timed_out, truncated;
};

#define PROC_INIT(av) { .argv = (av), .out_fd = -1, .err_fd = -1 }

/*
 * Run p to its end.  Its exit code (0-255; 127 when it could not be
 * started), 128 + signal when a signal ended it, or -1 with errno when
 * mmbench could not run or wait for it (nothing printed).
 */
int proc_run(struct proc *p);

/*
 * A program that runs beside us (QEMU, perf record): start it and return.
 * Only out_fd/err_fd/PROC_NULL_OUT outputs (no captures, no stdin buffer,
 * no tick or time limit: the caller watches it).  0, or -1 with errno.
 */
int proc_start(struct proc *p);
/* Started and not yet reaped: has it ended?  (Reaps it then; status set.) */
bool proc_ended_yet(struct proc *p);
/*
 * Send sig (0: none) to it (its group with PROC_NEW_PGRP) and wait for its
 * end; what proc_run() returns.
 */
int proc_finish(struct proc *p, int sig);

/*
 * proc_run()'s short form: run argv (never through a shell).  If out is
 * not NULL, stdout is captured into it; stderr is captured into err when
 * not NULL, else inherited.  Returns the exit status (0..255), 128+signal,
 * or -1 if it could not start.
 */
int run_argv(const char *const *argv, struct strbuf *out, struct strbuf *err);
/* Same, with a working directory and extra environment (NULL allowed). */
int run_argv_dir(const char *const *argv, const char *dir, const char *const *envp_extra,
		 struct strbuf *out, struct strbuf *err);

/* The first of the ':'-separated folders dirs holding name with access() mode, malloc'ed; NULL: none. */
char *dirs_lookup(const char *dirs, const char *name, int mode);
/* The first executable name in $PATH (a sane default when unset), malloc'ed; NULL: none. */
char *path_lookup(const char *name);

#endif
