/* The fork server (forkserver.h): requests in, a pid and then an end out. */
#include "forkserver.h"
#include "runner-internal.h"
#include "envctl.h"
#include "interference.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

struct fs_request {
	uint32_t wi, vi;	/* the workload and variant, as indices into the plan */
	uint32_t has_pin;
	cpu_set_t pin;
};

enum { FS_FORKED = 1, FS_ENDED };

struct fs_reply {
	uint32_t type;
	int32_t pid;
	int32_t status;		/* FS_ENDED: the wait status */
	struct rusage child;	/* FS_ENDED: the child's, from wait4() */
	struct rusage self;	/* the server's own so far */
};

static int send_reply(int sock, const struct fs_reply *r)
{
	ssize_t n;

	while ((n = send(sock, r, sizeof(*r), MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(*r) ? 0 : -1;
}

/* One request and its two descriptors; 0 at the harness's end (EOF), -1 on error. */
static int recv_request(int sock, struct fs_request *req, int fd[2])
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { req, sizeof(*req) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	ssize_t n;

	while ((n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return n == 0 ? 0 : -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (n != (ssize_t)sizeof(*req) || !cm || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(2 * sizeof(int)))
		return -1;
	memcpy(fd, CMSG_DATA(cm), 2 * sizeof(int));
	return 1;
}

/* The iteration child: as run_child's direct child, from "go" on. */
static __attribute__((noreturn)) void child(int sock, const struct plan *plan,
					    const struct fs_request *req, int msg_fd, int go_fd,
					    pid_t server)
{
	const struct plan_workload *w = &plan->wls[req->wi];

	/* the server dies with the harness; so do we, at once, "go" or not */
	die_with_parent_by(server, SIGKILL);
	close(sock);
	signal(SIGQUIT, SIG_DFL);	/* the server's ignores are not the plugin's */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	runner_child_start(go_fd, w, &w->variants[req->vi], msg_fd, req->has_pin ? &req->pin : NULL);
}

static __attribute__((noreturn)) void serve(int sock, const struct plan *plan, pid_t harness)
{
	static const int quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGPIPE };
	struct fs_request req = { 0 };	/* filled by recv_request() */
	pid_t server = getpid();
	int fd[2], rc;

	die_with_parent_by(harness, SIGKILL);	/* never outlive the harness */
	envctl_forget_lock();
	/* the harness stops the run and then us; a crash here must not restore its settings */
	for (size_t i = 0; i < ARRAY_SIZE(quiet); i++)
		signal(quiet[i], SIG_IGN);
	for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	while ((rc = recv_request(sock, &req, fd)) > 0) {
		struct fs_reply r = { .type = FS_FORKED };
		pid_t pid;

		if (req.wi >= plan->nwls || req.vi >= plan->wls[req.wi].nvariants)
			_exit(2);
		pid = fork();
		if (pid == 0)
			child(sock, plan, &req, fd[0], fd[1], server);
		close(fd[0]);
		close(fd[1]);
		if (pid > 0)
			setpgid(pid, pid);	/* before the harness can signal the group */
		r.pid = pid > 0 ? pid : -errno;
		if (send_reply(sock, &r) < 0 || pid < 0)
			continue;
		r.type = FS_ENDED;
		while (wait4(pid, &r.status, 0, &r.child) < 0 && errno == EINTR)
			;
		getrusage(RUSAGE_SELF, &r.self);
		send_reply(sock, &r);
	}
	_exit(rc < 0 ? 2 : 0);
}

void forkserver_start(struct forkserver *fs, const struct plan *plan)
{
	const char *off = getenv("MMBENCH_FORKSERVER");
	pid_t harness = getpid();
	int sv[2];

	memset(fs, 0, sizeof(*fs));
	fs->sock = -1;
	if (off && !strcmp(off, "0"))
		return;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	fflush(NULL);
	fs->pid = fork();
	if (fs->pid == 0) {
		close(sv[0]);
		serve(sv[1], plan, harness);
	}
	close(sv[1]);
	if (fs->pid < 0) {
		close(sv[0]);
		fs->pid = 0;
		return;
	}
	fs->sock = sv[0];
}

/* The server is gone (or unusable): reap it; iterations fork directly from now on. */
static void forkserver_lost(struct forkserver *fs)
{
	warning("the fork server (pid %d) ended during the run; iterations fork from the harness"
		" from now on", (int)fs->pid);
	kill(fs->pid, SIGKILL);
	forkserver_stop(fs);
}

pid_t forkserver_spawn(struct forkserver *fs, const struct plan *plan,
		       const struct plan_workload *w, const struct plan_variant *v,
		       const cpu_set_t *pin, int msg_fd, int go_fd)
{
	struct fs_request req = {
		.wi = (uint32_t)(w - plan->wls), .vi = (uint32_t)(v - w->variants),
		.has_pin = pin != NULL,
	};
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { &req, sizeof(req) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fds[2] = { msg_fd, go_fd };
	struct fs_reply r = { 0 };
	ssize_t n;

	if (pin)
		req.pin = *pin;
	memset(cbuf, 0, sizeof(cbuf));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	while ((n = sendmsg(fs->sock, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(req))
		while ((n = recv(fs->sock, &r, sizeof(r), 0)) < 0 && errno == EINTR)
			;
	if (n != (ssize_t)sizeof(r) || r.type != FS_FORKED) {
		forkserver_lost(fs);
		return -1;
	}
	if (r.pid < 0) {
		errno = -r.pid;
		return -1;
	}
	return r.pid;
}

/* What the server reports as CPU is the harness's own work, not the machine's other load. */
static void rusage_less(struct rusage *d, const struct rusage *a, const struct rusage *b)
{
	memset(d, 0, sizeof(*d));
	timersub(&a->ru_utime, &b->ru_utime, &d->ru_utime);
	timersub(&a->ru_stime, &b->ru_stime, &d->ru_stime);
}

int forkserver_reaped(struct forkserver *fs, pid_t pid, int *status, struct rusage *ru)
{
	struct fs_reply r = { 0 };
	struct rusage server;
	ssize_t n;

	while ((n = recv(fs->sock, &r, sizeof(r), MSG_DONTWAIT)) < 0 && errno == EINTR)
		;
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n != (ssize_t)sizeof(r) || r.type != FS_ENDED || r.pid != pid) {
		forkserver_lost(fs);
		return -1;
	}
	*status = r.status;
	*ru = r.child;
	rusage_less(&server, &r.self, &fs->self);
	fs->self = r.self;
	interference_count_own(&r.child);
	interference_count_own(&server);
	return 1;
}

void forkserver_stop(struct forkserver *fs)
{
	if (fs->sock >= 0)
		close(fs->sock);	/* its EOF: the server exits */
	fs->sock = -1;
	if (fs->pid > 0)
		while (waitpid(fs->pid, NULL, 0) < 0 && errno == EINTR)
			;
	fs->pid = 0;
}
