/*
 * gnuplot as a process: script on stdin, stderr captured for the error
 * message, picture written under a temporary name and renamed only when
 * gnuplot succeeded.
 */
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *gnuplot_path(void)
{
	const char *p = getenv("MMBENCH_GNUPLOT");

	return p && *p ? p : "gnuplot";
}

char *gnuplot_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '"');
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			strbuf_addch(&sb, '\\');
		if (*s == '\n') {
			strbuf_addstr(&sb, "\\n");
			continue;
		}
		strbuf_addch(&sb, *s);
	}
	strbuf_addch(&sb, '"');
	return strbuf_detach(&sb);
}

/*
 * Run gnuplot in dir with script on stdin.  Returns the exit status
 * (127: could not be started) and gnuplot's stderr in err.
 */
static int gnuplot_run(const char *dir, const char *script, struct strbuf *err)
{
	int inp[2], errp[2], status;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	const char *argv[] = { gnuplot_path(), NULL };
	size_t off = 0, len = strlen(script);
	pid_t pid;

	if (pipe2(inp, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(errp, O_CLOEXEC) < 0) {
		close(inp[0]);
		close(inp[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(inp[0]); close(inp[1]); close(errp[0]); close(errp[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(inp[0], 0);
		dup2(errp[1], 2);
		if (null >= 0)
			dup2(null, 1);
		if (dir && chdir(dir) < 0) {
			fprintf(stderr, "cannot chdir to %s: %s\n", dir, strerror(errno));
			_exit(126);
		}
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(inp[0]);
	close(errp[1]);
	/* gnuplot dying early must not kill us with SIGPIPE. */
	sigaction(SIGPIPE, &ign, &old);
	if (!err->buf)
		strbuf_init(err);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = errp[0], .events = POLLIN },
			{ .fd = inp[1], .events = POLLOUT },
		};
		int nfds = inp[1] >= 0 ? 2 : 1;

		if (poll(pfd, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (nfds == 2 && (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t n = write(inp[1], script + off, len - off);

			if (n > 0)
				off += n;
			if ((n < 0 && errno != EINTR && errno != EAGAIN) || off == len) {
				close(inp[1]);
				inp[1] = -1;
			}
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			char buf[4096];
			ssize_t n = read(errp[0], buf, sizeof(buf));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			strbuf_add(err, buf, n);
		}
	}
	if (inp[1] >= 0)
		close(inp[1]);
	close(errp[0]);
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* gnuplot's message without blank lines, on one line ("a; b"). */
static char *gnuplot_message(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrdup(text), *save = NULL;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *t = strtrim(line);

		/* the echoed script line and its caret add nothing here */
		if (!*t || !strcmp(t, "^"))
			continue;
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		strbuf_addstr(&sb, t);
		if (sb.len > 600)
			break;
	}
	free(copy);
	if (!sb.len)
		strbuf_addstr(&sb, "no message");
	return strbuf_detach(&sb);
}

int gnuplot_check(void)
{
	struct strbuf err = STRBUF_INIT;
	int ret = gnuplot_run(NULL, "print GPVAL_VERSION\n", &err);

	if (ret == 127) {
		char *msg = gnuplot_message(err.buf);
		error("gnuplot is needed to draw plots (%s); install it, e.g. `apt-get install gnuplot-nox`, "
		      "or point MMBENCH_GNUPLOT at it", msg);
		free(msg);
		strbuf_release(&err);
		return -1;
	}
	if (ret) {
		char *msg = gnuplot_message(err.buf);
		error("gnuplot does not work (exit %d): %s", ret, msg);
		free(msg);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	return 0;
}

/* Does this gnuplot have the cairo terminals?  Asked once. */
static bool gnuplot_has_cairo(void)
{
	static int has = -1;
	struct strbuf err = STRBUF_INIT;

	if (has < 0) {
		has = gnuplot_run(NULL, "print GPVAL_TERMINALS\n", &err) == 0 &&
		      strstr(err.buf, "pngcairo") != NULL;
		strbuf_release(&err);
	}
	return has;
}

void gnuplot_terminal(const struct plot_opts *o, struct strbuf *sb)
{
	switch (o->format) {
	case PLOT_PNG:
		if (gnuplot_has_cairo())
			strbuf_addf(sb, "set terminal pngcairo size %d,%d enhanced font \"Sans,10\" "
				    "background rgb \"white\"\n", o->width, o->height);
		else
			strbuf_addf(sb, "set terminal png size %d,%d font \"Sans,10\"\n",
				    o->width, o->height);
		break;
	case PLOT_SVG:
		strbuf_addf(sb, "set terminal svg size %d,%d enhanced font \"Sans,10\" "
			    "background rgb \"white\"\n", o->width, o->height);
		break;
	case PLOT_PDF:
		strbuf_addf(sb, "set terminal pdfcairo size %.2fin,%.2fin enhanced font \"Sans,8\"\n",
			    o->width / 100.0, o->height / 100.0);
		break;
	}
	/* Labels are literal text: no enhanced-mode markup in kernel names. */
	strbuf_addstr(sb, "set termoption noenhanced\n");
}

static char *replace_all(const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fl = strlen(from);
	const char *p;

	strbuf_addstr(&sb, "");
	while ((p = strstr(s, from))) {
		strbuf_add(&sb, s, p - s);
		strbuf_addstr(&sb, to);
		s = p + fl;
	}
	strbuf_addstr(&sb, s);
	return strbuf_detach(&sb);
}

static int write_whole(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	if (fputs(text, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

int gnuplot_render(const struct plot_opts *o, const char *name, const char *script,
		   const char *data)
{
	const char *ext = plot_format_ext(o->format);
	const char *dir = o->outdir ? o->outdir : ".";
	int pid = (int)getpid();
	char *out = xasprintf("%s.%s", name, ext);
	char *tmp_out = xasprintf(".%s.%s.tmp%d", name, ext, pid);
	char *tmp_dat = xasprintf(".%s.dat.tmp%d", name, pid);
	char *tmp_gp = xasprintf(".%s.gp.tmp%d", name, pid);
	char *dat = xasprintf("%s.dat", name);
	char *gp = xasprintf("%s.gp", name);
	char *q_out = gnuplot_quote(out), *q_tmp_out = gnuplot_quote(tmp_out);
	char *q_dat = gnuplot_quote(dat), *q_tmp_dat = gnuplot_quote(tmp_dat);
	char *s1 = replace_all(script, "@OUTPUT@", q_out);
	char *final_gp = replace_all(s1, "@DATA@", q_dat);
	char *s2 = replace_all(script, "@OUTPUT@", q_tmp_out);
	char *run_gp = replace_all(s2, "@DATA@", q_tmp_dat);
	char *p_out = xasprintf("%s/%s", dir, out), *p_tmp_out = xasprintf("%s/%s", dir, tmp_out);
	char *p_dat = xasprintf("%s/%s", dir, dat), *p_tmp_dat = xasprintf("%s/%s", dir, tmp_dat);
	char *p_gp = xasprintf("%s/%s", dir, gp), *p_tmp_gp = xasprintf("%s/%s", dir, tmp_gp);
	struct strbuf err = STRBUF_INIT;
	int ret = -1, st;

	if ((data && write_whole(p_tmp_dat, data) < 0) || write_whole(p_tmp_gp, final_gp) < 0) {
		error("cannot write %s: %s", data ? p_tmp_dat : p_tmp_gp, strerror(errno));
		goto cleanup;
	}
	st = gnuplot_run(dir, run_gp, &err);
	if (st == 127) {
		char *msg = gnuplot_message(err.buf);
		error("cannot draw %s: gnuplot is needed (%s); install it, e.g. "
		      "`apt-get install gnuplot-nox`, or point MMBENCH_GNUPLOT at it", p_out, msg);
		free(msg);
		goto cleanup;
	}
	if (st != 0 || access(p_tmp_out, F_OK) < 0) {
		char *msg = gnuplot_message(err.buf);
		error("gnuplot failed drawing %s (exit %d): %s", p_out, st, msg);
		free(msg);
		goto cleanup;
	}
	if ((data && rename(p_tmp_dat, p_dat) < 0) || rename(p_tmp_gp, p_gp) < 0 ||
	    rename(p_tmp_out, p_out) < 0) {
		error("cannot rename into %s: %s", p_out, strerror(errno));
		unlink(p_dat);
		unlink(p_gp);
		goto cleanup;
	}
	ret = 0;
cleanup:
	unlink(p_tmp_out);
	unlink(p_tmp_dat);
	unlink(p_tmp_gp);
	strbuf_release(&err);
	free(out); free(tmp_out); free(tmp_dat); free(tmp_gp); free(dat); free(gp);
	free(q_out); free(q_tmp_out); free(q_dat); free(q_tmp_dat);
	free(s1); free(final_gp); free(s2); free(run_gp);
	free(p_out); free(p_tmp_out); free(p_dat); free(p_tmp_dat); free(p_gp); free(p_tmp_gp);
	return ret;
}
