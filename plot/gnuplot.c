/*
 * gnuplot as a process: script on stdin, stderr captured for the error
 * message, picture written under a temporary name and renamed only when
 * gnuplot succeeded.
 */
#include "plot.h"
#include "util.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* --format's words, which are the pictures' file name extensions too */
static const char *const format_names[] = { [PLOT_PNG] = "png", [PLOT_SVG] = "svg", [PLOT_PDF] = "pdf" };

int plot_format_parse(const char *s, enum plot_format *out)
{
	return NAME_PARSE(format_names, 0, s, out);
}

const char *plot_format_ext(enum plot_format f)
{
	return (size_t)f < ARRAY_SIZE(format_names) ? format_names[f] : "png";
}

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
		unsigned char c = (unsigned char)*s;

		/* gnuplot runs `...` through the shell even inside "..." */
		if (*s == '\\' || *s == '"' || *s == '`')
			strbuf_addch(&sb, '\\');
		/* a control byte is shown as text ("\x0a"), never passed on */
		if (c < 0x20 || c == 0x7f) {
			strbuf_addf(&sb, "\\\\x%02x", c);
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
	const char *argv[] = { gnuplot_path(), NULL };
	struct proc p = PROC_INIT(argv);

	p.dir = dir;
	p.in = script;
	p.in_len = strlen(script);
	p.err = err;
	p.flags = PROC_NULL_OUT;
	return proc_run(&p);
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

/* One picture: NAME.ext, NAME.gp and NAME.dat, first under temporary names. */
struct gnuplot_job {
	char *out, *gp, *dat;		/* final paths */
	char *tmp_out, *tmp_gp, *tmp_dat;
	char *final_gp, *run_gp, *data;
	char *shown;			/* NAME.ext for messages */
};

struct gnuplot_batch {
	char *dir;
	struct gnuplot_job *jobs;
	size_t nr, alloc;
	char **skipped;			/* NAME.ext of the pictures gnuplot could not draw */
	size_t nskipped, askipped;
};

struct gnuplot_batch *gnuplot_batch_new(const char *dir)
{
	struct gnuplot_batch *b = xcalloc(1, sizeof(*b));

	b->dir = xstrdup(dir ? dir : ".");
	return b;
}

static void job_release(struct gnuplot_job *j)
{
	free(j->out); free(j->gp); free(j->dat);
	free(j->tmp_out); free(j->tmp_gp); free(j->tmp_dat);
	free(j->final_gp); free(j->run_gp); free(j->data); free(j->shown);
}

void gnuplot_batch_free(struct gnuplot_batch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr; i++)
		job_release(&b->jobs[i]);
	for (size_t i = 0; i < b->nskipped; i++)
		free(b->skipped[i]);
	free(b->skipped);
	free(b->jobs);
	free(b->dir);
	free(b);
}

bool gnuplot_batch_skipped(const struct gnuplot_batch *b, const char *file)
{
	for (size_t i = 0; b && i < b->nskipped; i++)
		if (!strcmp(b->skipped[i], file))
			return true;
	return false;
}

size_t gnuplot_batch_size(const struct gnuplot_batch *b)
{
	return b ? b->nr : 0;
}

static void job_init(struct gnuplot_job *j, const char *dir, const char *name, const char *ext,
		     const char *script, const char *data)
{
	int pid = (int)getpid();
	char *out = xasprintf("%s.%s", name, ext), *dat = xasprintf("%s.dat", name);
	char *tmp_out = xasprintf(".%s.%s.tmp%d", name, ext, pid);
	char *tmp_dat = xasprintf(".%s.dat.tmp%d", name, pid);
	char *q_out = gnuplot_quote(out), *q_tmp_out = gnuplot_quote(tmp_out);
	char *q_dat = gnuplot_quote(dat), *q_tmp_dat = gnuplot_quote(tmp_dat);
	char *s1 = replace_all(script, "@OUTPUT@", q_out);
	char *s2 = replace_all(script, "@OUTPUT@", q_tmp_out);

	memset(j, 0, sizeof(*j));
	j->final_gp = replace_all(s1, "@DATA@", q_dat);
	j->run_gp = replace_all(s2, "@DATA@", q_tmp_dat);
	j->data = data ? xstrdup(data) : NULL;
	j->shown = xasprintf("%s/%s", dir, out);
	j->out = xasprintf("%s/%s", dir, out);
	j->gp = xasprintf("%s/%s.gp", dir, name);
	j->dat = xasprintf("%s/%s", dir, dat);
	j->tmp_out = xasprintf("%s/%s", dir, tmp_out);
	j->tmp_gp = xasprintf("%s/.%s.gp.tmp%d", dir, name, pid);
	j->tmp_dat = xasprintf("%s/%s", dir, tmp_dat);
	free(out); free(dat); free(tmp_out); free(tmp_dat);
	free(q_out); free(q_tmp_out); free(q_dat); free(q_tmp_dat);
	free(s1); free(s2);
}

static void job_cleanup_tmp(const struct gnuplot_job *j)
{
	unlink(j->tmp_out);
	unlink(j->tmp_gp);
	unlink(j->tmp_dat);
}

#define JOB_MARK "@@mmbench-plot "

/*
 * gnuplot goes on after an error when reading a pipe and exits 1 at the
 * end: split its stderr at the marker printed before each script and keep,
 * per picture, the first message that is not a warning and what follows
 * it.  msg[nr] collects what came before the first marker.
 */
static char **batch_messages(const struct gnuplot_batch *b, const char *err)
{
	char **msg = xcalloc(b->nr + 1, sizeof(*msg));
	struct strbuf *sb = xcalloc(b->nr + 1, sizeof(*sb));
	char *copy = xstrdup(err), *save = NULL;
	size_t cur = b->nr, next = 0;

	for (size_t i = 0; i <= b->nr; i++)
		sb[i] = (struct strbuf)STRBUF_INIT;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *t = strtrim(line);

		if (starts_with(t, JOB_MARK)) {
			/* markers come in job order */
			for (size_t i = next; i < b->nr; i++)
				if (!strcmp(t + strlen(JOB_MARK), b->jobs[i].shown)) {
					cur = i;
					next = i + 1;
					break;
				}
			continue;
		}
		if (!*t || (!sb[cur].len && strcasestr(t, "warning:")))
			continue;
		if (sb[cur].len)
			strbuf_addch(&sb[cur], '\n');
		strbuf_addstr(&sb[cur], t);
	}
	free(copy);
	for (size_t i = 0; i <= b->nr; i++) {
		if (sb[i].len)
			msg[i] = gnuplot_message(sb[i].buf);
		strbuf_release(&sb[i]);
	}
	free(sb);
	return msg;
}

/* gnuplot's errors name the script line ("line 12: undefined variable"); other chatter does not */
static bool is_gnuplot_error(const char *msg)
{
	for (const char *p = msg ? strstr(msg, "line ") : NULL; p; p = strstr(p + 1, "line ")) {
		const char *q = p + 5;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == ':')
			return true;
	}
	return false;
}

/*
 * A whole picture at path, of the format final's extension names: gnuplot
 * exits 0 when the disk fills under it, leaving a cut PNG, so the end is
 * checked (PNG's IEND chunk, SVG's </svg>, PDF's %%EOF), not only a size.
 */
static bool picture_complete(const char *path, const char *final)
{
	static const unsigned char iend[] = { 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) || st.st_size <= 0)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = pread(fd, tail, sizeof(tail) - 1, st.st_size > (off_t)sizeof(tail) - 1 ?
		  st.st_size - (off_t)(sizeof(tail) - 1) : 0);
	close(fd);
	if (n <= 0)
		return false;
	tail[n] = 0;
	if (ends_with(final, ".png"))
		return n >= 8 && !memcmp(tail + n - 8, iend, 8);
	if (ends_with(final, ".svg"))
		return memmem(tail, (size_t)n, "</svg>", 6) != NULL;
	if (ends_with(final, ".pdf"))
		return memmem(tail, (size_t)n, "%%EOF", 5) != NULL;
	return true;
}

/*
 * Which pictures of the batch failed (failed[i]), how many were drawn
 * (*ndrawn), and how many were not written (returned, each said): a
 * picture not whole that gnuplot reported no error for.
 */
static size_t batch_judge(const struct gnuplot_batch *b, char **msg, int st, bool *failed,
			  size_t *ndrawn)
{
	size_t unwritten = 0;

	for (size_t i = 0; i < b->nr; i++) {
		bool whole = picture_complete(b->jobs[i].tmp_out, b->jobs[i].out);

		/* exit 0: no error anywhere; messages like "Unable to convert" are not one */
		failed[i] = !whole || (st != 0 && is_gnuplot_error(msg[i]));
		*ndrawn += !failed[i];
		/* not gnuplot's refusal: none for the picture, nor for the whole batch */
		if (!whole && !is_gnuplot_error(msg[i]) &&
		    (st == 0 || !is_gnuplot_error(msg[b->nr]))) {
			error("cannot write plot %s: no whole picture written%s%s", b->jobs[i].shown,
			      msg[i] ? ": " : " (a full disk?)", msg[i] ? msg[i] : "");
			unwritten++;
		}
	}
	return unwritten;
}

int gnuplot_batch_run(struct gnuplot_batch *b)
{
	struct strbuf script = STRBUF_INIT, err = STRBUF_INIT;
	char **msg = NULL;
	bool *failed = NULL;
	size_t i, ndrawn = 0, unwritten = 0;
	int ret = -1, st;

	if (!b || !b->nr)
		return 0;
	for (i = 0; i < b->nr; i++) {
		struct gnuplot_job *j = &b->jobs[i];

		if ((j->data && write_whole(j->tmp_dat, j->data) < 0) ||
		    write_whole(j->tmp_gp, j->final_gp) < 0) {
			error("cannot write %s: %s", j->data ? j->tmp_dat : j->tmp_gp, strerror(errno));
			goto cleanup;
		}
		strbuf_addf(&script, "reset session\nset print\nprint \"%s%s\"\n", JOB_MARK, j->shown);
		strbuf_addstr(&script, j->run_gp);
		strbuf_addstr(&script, "\nunset output\n");
	}
	st = gnuplot_run(b->dir, script.buf, &err);
	if (st == 127) {
		char *msg = gnuplot_message(err.buf);
		error("cannot draw plots: gnuplot is needed (%s); install it, e.g. "
		      "`apt-get install gnuplot-nox`, or point MMBENCH_GNUPLOT at it", msg);
		free(msg);
		goto cleanup;
	}
	/*
	 * A picture gnuplot refused with an error of its own is skipped with
	 * one warning and the others are kept; only when none was drawn is it
	 * gnuplot's failure.  A picture missing without such an error was not
	 * written (a full disk: gnuplot exits 0 leaving a cut file), and
	 * neither is a batch gnuplot did not end normally in (a signal): the
	 * command fails, and nothing of the batch replaces what is there.
	 */
	msg = batch_messages(b, err.buf);
	failed = xcalloc(b->nr, sizeof(*failed));
	unwritten = batch_judge(b, msg, st, failed, &ndrawn);
	if (st != 0 && st != 1) {
		char *m = gnuplot_message(err.buf);

		error("gnuplot ended with status %d drawing the plots in %s: %s", st, b->dir, m);
		free(m);
		goto cleanup;
	}
	if (unwritten)
		goto cleanup;
	if (!ndrawn) {
		for (i = 0; i < b->nr && !msg[i]; i++)
			;
		error("gnuplot failed drawing %s (exit %d): %s", i < b->nr ? b->jobs[i].shown :
		      b->jobs[0].shown, st, i < b->nr ? msg[i] : msg[b->nr] ? msg[b->nr] :
		      "no whole picture written (a full disk?)");
		goto cleanup;
	}
	for (i = 0; i < b->nr; i++) {
		struct gnuplot_job *j = &b->jobs[i];

		if (failed[i]) {
			const char *file = strrchr(j->out, '/') ? strrchr(j->out, '/') + 1 : j->out;

			warning("skipped plot %s: gnuplot could not draw it: %s", j->shown,
				msg[i] ? msg[i] : "no whole picture written (a full disk?)");
			ALLOC_GROW(b->skipped, b->nskipped + 1, b->askipped);
			b->skipped[b->nskipped++] = xstrdup(file);
			/* no stale picture of an earlier run under this name */
			unlink(j->out);
			unlink(j->gp);
			unlink(j->dat);
			continue;
		}
		if ((j->data && rename(j->tmp_dat, j->dat) < 0) || rename(j->tmp_gp, j->gp) < 0 ||
		    rename(j->tmp_out, j->out) < 0) {
			error("cannot rename into %s: %s", j->out, strerror(errno));
			/* take back what this batch already put in place */
			for (size_t k = 0; k <= i; k++) {
				unlink(b->jobs[k].out);
				unlink(b->jobs[k].gp);
				unlink(b->jobs[k].dat);
			}
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	for (i = 0; msg && i <= b->nr; i++)
		free(msg[i]);
	free(msg);
	free(failed);
	for (i = 0; i < b->nr; i++) {
		job_cleanup_tmp(&b->jobs[i]);
		job_release(&b->jobs[i]);
	}
	b->nr = 0;
	strbuf_release(&script);
	strbuf_release(&err);
	return ret;
}

/* A byte below 0x20 but newline and tab, or DEL: none is ever written by us. */
static bool script_ctl(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f)
			return true;
	return false;
}

int gnuplot_render(const struct plot_opts *o, const char *name, const char *script,
		   const char *data)
{
	const char *dir = o->outdir ? o->outdir : ".";
	struct gnuplot_batch *b = o->batch;
	int ret = 0;

	/*
	 * The last check before gnuplot: names are escaped where they enter
	 * (plot_group_init(), gnuplot_quote()), so a control byte here is a
	 * bug that could make a name a command; refuse rather than draw.
	 */
	if (script_ctl(script) || (data && script_ctl(data)))
		return error("plot %s: a control character in the %s; not drawing it", name,
			     script_ctl(script) ? "gnuplot script" : "data file");
	if (!b)
		b = gnuplot_batch_new(dir);
	for (size_t i = 0; i < b->nr; i++) {
		char *out = xasprintf("%s/%s.%s", b->dir, name, plot_format_ext(o->format));
		bool dup = !strcmp(out, b->jobs[i].out);

		free(out);
		if (dup) {
			/* two pictures of one name would overwrite each other */
			warning("skipped plot %s: another plot of this batch has the same name",
				b->jobs[i].shown);
			return 1;
		}
	}
	ALLOC_GROW(b->jobs, b->nr + 1, b->alloc);
	job_init(&b->jobs[b->nr++], b->dir, name, plot_format_ext(o->format), script, data);
	if (!o->batch) {
		ret = gnuplot_batch_run(b);
		if (!ret && b->nskipped)
			ret = 1;
		gnuplot_batch_free(b);
	}
	return ret;
}
