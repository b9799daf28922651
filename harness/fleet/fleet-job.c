/* The fleet job itself, on the node: the run in a child, its exit record. */
#include "fleet.h"
#include "envctl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t job_child;

static void forward_signal(int sig)
{
	if (job_child > 0)
		kill(job_child, sig);
}

/*
 * Settings an earlier run on this node left changed (a job killed hard):
 * the knob journal still holds them, and this job's run restores them at
 * its start.  Say so in the job's folder, where `fleet status` sees it (the
 * node's journal is the node's alone): "thp.enabled" style lines.
 */
static void note_left_changed(const char *jobdir)
{
	struct strbuf j = STRBUF_INIT, note = STRBUF_INIT;
	char *save = NULL;

	if (read_file_capped(&j, envctl_journal_path(), (size_t)1 << 20) || !j.len) {
		strbuf_release(&j);
		return;
	}
	for (char *line = strtok_r(j.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { line };

		for (int k = 1; k < 4 && f[k - 1]; k++)
			if ((f[k] = strchr(f[k - 1], '\t')))
				*f[k]++ = 0;
		/* "PID K PATH OLD": a knob to put back */
		if (f[1] && !strcmp(f[1], "K") && f[2] && f[3])
			strbuf_addf(&note, "%s%s", note.len ? ", " : "", ctl_show(f[2]));
	}
	if (note.len) {
		char *path = xasprintf("%s/restored", jobdir);
		char *line = xasprintf("restored at start, left changed on this node by an earlier"
				       " run: %s\n", note.buf);

		if (write_file_atomic(path, line, strlen(line)))
			warning("cannot write %s: %s", path, strerror(errno));
		free(line);
		free(path);
	}
	strbuf_release(&note);
	strbuf_release(&j);
}

/*
 * This job ran before: the engine requeued it (its node failed, or it was
 * preempted) and its first attempt died without an exit record, often
 * with an empty interrupted run.  That run.db is kept as run.db.N, so
 * collect takes only this attempt's run, never both; DIR/jobs/TAG/restarts
 * says so for status.
 */
static int keep_earlier_attempt(const char *jobdir)
{
	char *db = xasprintf("%s/run.db", jobdir), *kept = NULL;
	const char *rc = getenv("SLURM_RESTART_COUNT");
	int ret = fleet_keep_aside(db, &kept);

	if (!ret && kept) {
		char *path = xasprintf("%s/restarts", jobdir);
		char *line = xasprintf("restarts %d\nkept %s\n", rc ? atoi(rc) : 1, kept);
		char *ex = xasprintf("%s/exit", jobdir);

		unlink(ex);
		free(ex);
		if (write_file_atomic(path, line, strlen(line)))
			warning("cannot write %s: %s", path, strerror(errno));
		printf("mmbench fleet job: a rerun; the earlier attempt's results kept as %s\n", kept);
		free(line);
		free(path);
	}
	free(kept);
	free(db);
	return ret;
}

int fleet_run_job(const char *argsfile, int (*run_cmd)(int argc, char **argv))
{
	struct strbuf buf = STRBUF_INIT, exitrec = STRBUF_INIT;
	struct kargv a = KARGV_INIT;
	char host[256] = "?", *dir, *slash, *joined, *exitpath;
	struct sigaction sa = { .sa_handler = forward_signal };
	int status, rc;

	if (read_input(&buf, argsfile, (size_t)1 << 20, "a fleet args file"))
		return EXIT_USAGE;
	kargv_push(&a, "mmbench");
	if (fleet_args_decode(buf.buf, buf.len, argsfile, &a)) {
		strbuf_release(&buf);
		kargv_release(&a);
		return EXIT_USAGE;
	}
	strbuf_release(&buf);
	gethostname(host, sizeof(host) - 1);
	{
		char *jd = xstrdup(argsfile), *sl = strrchr(jd, '/');

		if (sl)
			*sl = 0;
		note_left_changed(sl ? jd : ".");
		if (keep_earlier_attempt(sl ? jd : ".")) {
			free(jd);
			kargv_release(&a);
			return EXIT_RUNTIME;
		}
		free(jd);
	}
	joined = kargv_join(&a);
	printf("mmbench fleet job on %s: %s\n", host, joined);
	fflush(stdout);
	free(joined);

	/* Slurm signals the whole job on cancel: the run restores, we record */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	job_child = fork();
	if (job_child < 0) {
		kargv_release(&a);
		return error("fork: %s", strerror(errno));
	}
	if (job_child == 0) {
		/*
		 * The benchmark runs in a child so that whatever becomes of it
		 * (a crash included) this process still writes the exit record.
		 */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		/* run_cmd is run_command(): the dispatcher's preconditions apply */
		rc = run_cmd((int)a.nr - 1, a.v + 1);
		fflush(NULL);
		_exit(rc < 0 ? EXIT_RUNTIME : rc);
	}
	while (waitpid(job_child, &status, 0) < 0 && errno == EINTR)
		;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	kargv_release(&a);

	dir = xstrdup(argsfile);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	exitpath = slash ? xasprintf("%s/exit", dir) : xstrdup("exit");
	strbuf_addf(&exitrec, "exit %d\nhost %s\n", rc, host);
	if (write_file_atomic(exitpath, exitrec.buf, exitrec.len)) {
		error("cannot write %s: %s", exitpath, strerror(errno));
		rc = rc ? rc : EXIT_RUNTIME;
	}
	printf("mmbench fleet job: exit %d\n", rc);
	free(exitpath);
	free(dir);
	strbuf_release(&exitrec);
	return rc;
}
