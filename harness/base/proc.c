/*
 * Running another program: fork, exec an argv, feed stdin and drain both
 * outputs in one poll loop (no deadlock whatever the program writes first),
 * a time limit on the whole process group.  See proc.h.
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS		250
#define KILL_GRACE_S	2.0

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void close_pair(int fd[2])
{
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0) {
			close(fd[i]);
			fd[i] = -1;
		}
}

/* In the child: never returns. */
static void child(const struct proc *p, pid_t parent, int inp[2], int outp[2], int errp[2])
{
	int nul = open("/dev/null", O_RDWR | O_CLOEXEC), high[4];
	sigset_t none;

	die_with_parent(parent);
	if (p->flags & PROC_NEW_PGRP)
		setpgid(0, 0);
	/* what the harness blocks or ignores is not the program's business */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	/* out of the way of 0-2 first: keep_fds become 3, 4, ... below */
	for (int i = 0; i < p->nkeep && i < 4; i++)
		high[i] = fcntl(p->keep_fds[i], F_DUPFD, 100);
	dup2(p->in ? inp[0] : nul, 0);
	if (p->out)
		dup2(outp[1], 1);
	else if (p->out_fd >= 0)
		dup2(p->out_fd, 1);
	else if (p->flags & PROC_NULL_OUT)
		dup2(nul, 1);
	if (p->err)
		dup2(errp[1], 2);
	else if (p->err_fd >= 0)
		dup2(p->err_fd, 2);
	for (int i = 0; i < p->nkeep && i < 4; i++) {
		dup2(high[i], 3 + i);
		close(high[i]);
	}
	if (p->flags & PROC_CLOSE_FDS)
		close_range(3 + (unsigned int)(p->nkeep < 4 ? p->nkeep : 4), ~0U, 0);
	if (p->dir && chdir(p->dir) < 0) {
		fprintf(stderr, "cannot chdir to %s: %s\n", p->dir, strerror(errno));
		_exit(127);
	}
	for (const char *const *e = p->env; e && *e; e++)
		putenv((char *)*e);
	execvp(p->argv[0], (char *const *)p->argv);
	fprintf(stderr, "cannot run %s: %s\n", p->argv[0], strerror(errno));
	_exit(127);
}

/* Read what is there into sb, keeping at most cap bytes; 0 at end of file. */
static int drain(struct proc *p, int fd, struct strbuf *sb)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));
	size_t cap = p->cap ? p->cap : PROC_CAP_DEFAULT;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (sb->len < cap)
		strbuf_add(sb, buf, (size_t)n < cap - sb->len ? (size_t)n : cap - sb->len);
	if (sb->len + (size_t)n > cap)
		p->truncated = true;
	return 1;
}

static void signal_group(const struct proc *p, int sig)
{
	kill((p->flags & PROC_NEW_PGRP) ? -p->pid : p->pid, sig);
}

/* Poll the pipes and the clock until the pipes close and the child ends. */
static int supervise(struct proc *p, int *in_fd, int *out_fd, int *err_fd)
{
	double t0 = mono_s(), term_at = 0;
	size_t off = 0;

	for (;;) {
		struct pollfd pfd[3];
		int n = 0, i_in = -1, i_out = -1, i_err = -1, wait_ms = -1;
		pid_t r;

		if (*in_fd >= 0)
			pfd[i_in = n++] = (struct pollfd){ .fd = *in_fd, .events = POLLOUT };
		if (*out_fd >= 0)
			pfd[i_out = n++] = (struct pollfd){ .fd = *out_fd, .events = POLLIN };
		if (*err_fd >= 0)
			pfd[i_err = n++] = (struct pollfd){ .fd = *err_fd, .events = POLLIN };
		if (!n) {
			/* pipes closed: wait for the end, still watching the clock */
			int opt = (p->tick || p->timeout_s > 0) ? WNOHANG : 0;

			r = waitpid(p->pid, &p->status, opt);
			if (r == p->pid)
				return 0;
			if (r < 0 && errno != EINTR)
				return -1;
		}
		if (p->tick || p->timeout_s > 0)
			wait_ms = TICK_MS;
		if (n && poll(pfd, (nfds_t)n, wait_ms) < 0 && errno != EINTR)
			return -1;
		if (!n && wait_ms > 0)
			poll(NULL, 0, wait_ms);
		if (i_in >= 0 && (pfd[i_in].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(*in_fd, p->in + off, p->in_len - off);

			if (w > 0)
				off += (size_t)w;
			if ((w < 0 && errno != EINTR && errno != EAGAIN) || off == p->in_len) {
				close(*in_fd);
				*in_fd = -1;
			}
		}
		if (i_out >= 0 && (pfd[i_out].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    !drain(p, *out_fd, p->out)) {
			close(*out_fd);
			*out_fd = -1;
		}
		if (i_err >= 0 && (pfd[i_err].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    !drain(p, *err_fd, p->err)) {
			close(*err_fd);
			*err_fd = -1;
		}
		if (p->tick)
			p->tick(p->tick_arg);
		if (p->timeout_s > 0 && !term_at && mono_s() - t0 > p->timeout_s) {
			p->timed_out = true;
			signal_group(p, SIGTERM);
			term_at = mono_s();
		} else if (term_at && mono_s() - term_at > KILL_GRACE_S) {
			signal_group(p, SIGKILL);
			term_at = mono_s() + 1e9;	/* once */
		}
	}
}

/* A waitpid() status as proc_run() returns it: 0-255, 128 + signal, else -1. */
static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

int proc_run(struct proc *p)
{
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	pid_t self = getpid();
	int rc = -1, saved;

	p->started = p->timed_out = p->truncated = false;
	p->status = 0;
	if ((p->in && pipe2(inp, O_CLOEXEC) < 0) || (p->out && pipe2(outp, O_CLOEXEC) < 0) ||
	    (p->err && pipe2(errp, O_CLOEXEC) < 0))
		goto out;
	if (p->out && !p->out->buf)
		strbuf_init(p->out);
	if (p->err && !p->err->buf)
		strbuf_init(p->err);
	fflush(stdout);
	fflush(stderr);
	p->pid = fork();
	if (p->pid < 0)
		goto out;
	if (p->pid == 0)
		child(p, self, inp, outp, errp);
	p->started = true;
	/* in the parent too, so a kill(-pgrp) cannot race the child's setpgid */
	if (p->flags & PROC_NEW_PGRP)
		setpgid(p->pid, p->pid);
	if (inp[0] >= 0)
		close(inp[0]), inp[0] = -1;
	/* poll's POLLOUT promises room for PIPE_BUF bytes, not for the rest */
	if (inp[1] >= 0)
		fcntl(inp[1], F_SETFL, O_NONBLOCK);
	if (outp[1] >= 0)
		close(outp[1]), outp[1] = -1;
	if (errp[1] >= 0)
		close(errp[1]), errp[1] = -1;
	/* a program that exits before reading all of its stdin must not kill us */
	sigaction(SIGPIPE, &ign, &old);
	rc = supervise(p, &inp[1], &outp[0], &errp[0]);
	sigaction(SIGPIPE, &old, NULL);
	if (rc == 0)
		rc = exit_code(p->status);
out:
	saved = errno;
	close_pair(inp);
	close_pair(outp);
	close_pair(errp);
	errno = saved;
	return rc;
}

int proc_start(struct proc *p)
{
	int none[2] = { -1, -1 };
	pid_t self = getpid();

	if (p->in || p->out || p->err || p->tick || p->timeout_s > 0) {
		errno = EINVAL;
		return -1;
	}
	p->started = p->timed_out = p->truncated = false;
	p->status = 0;
	fflush(stdout);
	fflush(stderr);
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0)
		child(p, self, none, none, none);
	p->started = true;
	if (p->flags & PROC_NEW_PGRP)
		setpgid(p->pid, p->pid);
	return 0;
}

bool proc_ended_yet(struct proc *p)
{
	return waitpid(p->pid, &p->status, WNOHANG) == p->pid;
}

int proc_finish(struct proc *p, int sig)
{
	if (sig)
		signal_group(p, sig);
	while (waitpid(p->pid, &p->status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return exit_code(p->status);
}

int run_argv_dir(const char *const *argv, const char *dir, const char *const *envp_extra,
		 struct strbuf *out, struct strbuf *err)
{
	struct proc p = PROC_INIT(argv);

	p.dir = dir;
	p.env = envp_extra;
	p.out = out;
	p.err = err;
	return proc_run(&p);
}

int run_argv(const char *const *argv, struct strbuf *out, struct strbuf *err)
{
	return run_argv_dir(argv, NULL, NULL, out, err);
}


char *dirs_lookup(const char *dirs, const char *name, int mode)
{
	char *copy = xstrdup(dirs), *save;

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *c = xasprintf("%s/%s", d, name);

		if (access(c, mode) == 0) {
			free(copy);
			return c;
		}
		free(c);
	}
	free(copy);
	return NULL;
}

char *path_lookup(const char *name)
{
	const char *path = getenv("PATH");

	return dirs_lookup(path && *path ? path : "/usr/bin:/bin:/usr/sbin:/sbin", name, X_OK);
}
