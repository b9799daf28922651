/*
 * Fault-injection plugin for the runner tests.  `script` lists one action
 * per iteration ("ok,segv,ok,hang"); the iteration number is kept in a
 * counter file under `state_dir` because each iteration is a fresh child.
 */
#include <mmbench/workload.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { P_SCRIPT, P_STATE_DIR };

static const struct mmb_param_def params[] = {
	{ "script", MMB_PARAM_STRING, "ok", 0, 0, NULL,
	  "comma-separated action per iteration: ok slow segv abort hang hang-stop exit nan inf badmetric knob skip fail neg huge daemon daemon-wait garbage" },
	{ "state_dir", MMB_PARAM_STRING, "/tmp", 0, 0, NULL, "where the iteration counter lives" },
	{ 0 },
};

static const struct mmb_metric_def metrics[] = {
	{ .name = "value", .unit = "units", .better = MMB_HIGHER_IS_BETTER, .help = "the iteration number" },
	{ 0 },
};

static int next_iteration(const char *dir)
{
	char path[512], buf[32] = "0";
	int fd, n;

	snprintf(path, sizeof(path), "%s/faulty.counter", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '0';
	n = atoi(buf);
	snprintf(buf, sizeof(buf), "%d\n", n + 1);
	if (pwrite(fd, buf, strlen(buf), 0) < 0)
		n = 0;
	close(fd);
	return n;
}

static void action_of(const char *script, int i, char *out, size_t len)
{
	const char *p = script;

	for (; i > 0 && p; i--) {
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	if (!p) {
		snprintf(out, len, "ok");
		return;
	}
	snprintf(out, len, "%.*s", (int)strcspn(p, ","), p);
}

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{
	(void)h; (void)c; (void)p; (void)s;
	return MMB_OK;
}

static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	int i = next_iteration(p[P_STATE_DIR].s);
	char act[32];

	(void)s;
	action_of(p[P_SCRIPT].s, i, act, sizeof(act));
	if (!strcmp(act, "segv"))
		raise(SIGSEGV);
	if (!strcmp(act, "abort"))
		abort();
	if (!strcmp(act, "hang")) {		/* ignores should_stop(): needs SIGKILL */
		signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	}
	if (!strcmp(act, "hang-stop")) {	/* polite: ends when asked */
		while (!h->should_stop(c))
			usleep(10000);
		h->fail(c, "stopped on request");
		return MMB_FAIL;
	}
	/*
	 * daemon: a setsid() grandchild that sleeps 20 s, its pid in
	 * state_dir/daemon.pid, left behind by an iteration that succeeds;
	 * daemon-wait: the same, but run() waits for it (past any timeout).
	 */
	if (!strcmp(act, "daemon") || !strcmp(act, "daemon-wait")) {
		int ready[2];
		char byte;
		pid_t kid;

		if (pipe(ready) < 0)
			return MMB_FAIL;
		kid = fork();
		if (kid == 0) {
			char path[512], buf[32];
			int fd;

			setsid();
			snprintf(path, sizeof(path), "%s/daemon.pid", p[P_STATE_DIR].s);
			snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd >= 0 && write(fd, buf, strlen(buf)) < 0)
				_exit(1);
			close(fd);
			signal(SIGTERM, SIG_IGN);
			if (write(ready[1], "r", 1) < 0)
				_exit(1);
			sleep(20);
			_exit(0);
		}
		/* started for sure before the iteration goes on */
		close(ready[1]);
		while (read(ready[0], &byte, 1) < 0 && errno == EINTR)
			;
		close(ready[0]);
		if (kid > 0 && !strcmp(act, "daemon-wait")) {
			signal(SIGTERM, SIG_IGN);
			while (waitpid(kid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	/* garbage: text into every pipe it holds (the result pipe), then a sample */
	if (!strcmp(act, "garbage")) {
		for (int fd = 3; fd < 64; fd++) {
			struct stat st;

			if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
			    write(fd, "garbage!\n", 9) < 0)
				return MMB_FAIL;
		}
	}
	if (!strcmp(act, "slow"))
		usleep(300000);
	if (!strcmp(act, "exit"))
		exit(3);
	if (!strcmp(act, "nan"))
		h->report(c, 0, NAN);
	if (!strcmp(act, "inf"))
		h->report(c, 0, INFINITY);
	if (!strcmp(act, "badmetric"))
		h->report(c, 99, 1.0);
	if (!strcmp(act, "knob")) {
		int rc = h->write_knob(c, "/etc/mmbench-should-not-exist", "x");

		if (rc != 0) {
			h->fail(c, "write_knob outside /sys refused (%d)", rc);
			return MMB_FAIL;
		}
	}
	/* legal samples: negative (deltas) and huge-but-finite values */
	if (!strcmp(act, "neg")) {
		h->report(c, 0, -(double)(i + 1) - 0.5);
		return MMB_OK;
	}
	if (!strcmp(act, "huge")) {
		h->report(c, 0, 1.5e308);
		return MMB_OK;
	}
	if (!strcmp(act, "skip")) {
		h->skip(c, "asked to skip");
		return MMB_SKIP;
	}
	if (!strcmp(act, "fail")) {
		h->fail(c, "asked to fail");
		return MMB_FAIL;
	}
	h->report(c, 0, (double)(i + 1));
	return MMB_OK;
}

static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)h; (void)c; (void)p; (void)s;
}

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "faulty",
	.summary = "test plugin that crashes, hangs or misbehaves on request",
	.params = params,
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
