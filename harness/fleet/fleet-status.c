/*
 * The fleet as it stands: status (table and --json), wait, collect, and
 * the exit status a script acts on (enum fleet_exit), from every job's
 * exit file, run.db and log and the engine's answer (fleet_open()).
 */
#include "fleet.h"

#include "db.h"
#include "json.h"
#include "merge-file.h"
#include "progress.h"
#include "read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void sleep_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (s > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}


/* A job's run.db, read-only: its measured and failed iterations; false without one. */
static bool job_iterations(const struct fleet *f, const struct fleet_job *j, long *ok, long *bad)
{
	char *path = fleet_job_path(f, j, "run.db");
	struct db_run_line *runs = NULL;
	struct mmb_db db;
	bool have = false;
	size_t n = 0;

	*ok = *bad = 0;
	if (access(path, R_OK) == 0 && !db_open_existing(&db, path)) {
		if (!db_list_runs(&db, &runs, &n)) {
			have = true;
			for (size_t i = 0; i < n; i++) {
				*ok += runs[i].iterations;
				*bad += runs[i].failed;
			}
		}
		db_run_lines_free(runs, n);
		db_close(&db);
	}
	free(path);
	return have;
}

/*
 * A failed job whose run ended on the node (mmbench exited 1: some
 * iterations failed, or the run was interrupted) has finished iterations
 * worth keeping; a crash or a kill leaves no exit 1, and nothing is taken.
 */
static bool partial_run(const struct fleet *f, const struct fleet_job *j, const char *why)
{
	long it, bad;

	return !strcmp(why, "mmbench exited 1") && job_iterations(f, j, &it, &bad) && it > 0;
}

/*
 * How often the engine requeued a job (its node failed, or it was
 * preempted): the engine's count, or what the rerun itself wrote into
 * DIR/jobs/TAG/restarts (it outlives the engine's memory), and where the
 * rerun kept the earlier attempt's run.db.  0 when never.
 */
static int job_restarts(const struct fleet *f, const struct fleet_job *j,
			const struct fleet_engine_status *st, char *kept, size_t n)
{
	char *path = fleet_job_path(f, j, "restarts");
	struct strbuf sb = STRBUF_INIT;
	int from_job = 0;

	*kept = 0;
	if (read_file_capped(&sb, path, 4096) == 0 && sb.buf) {
		const char *k = strstr(sb.buf, "\nkept ");

		sscanf(sb.buf, "restarts %d", &from_job);
		if (k)
			snprintf(kept, n, "%.*s", (int)strcspn(k + 6, "\n"), k + 6);
	}
	strbuf_release(&sb);
	free(path);
	return st->restarts > from_job ? st->restarts : from_job;
}

/* The line under a requeued job: "requeued 1 time by the engine (...)". */
static void restarts_line(const struct fleet *f, const struct fleet_job *j,
			  const struct fleet_engine_status *st, FILE *out)
{
	char kept[PATH_MAX];
	int r = job_restarts(f, j, st, kept, sizeof(kept));

	if (!r)
		return;
	fprintf(out, "%-10s requeued %d time%s by %s (its node failed or it was preempted)", "", r,
		r == 1 ? "" : "s", f->engine);
	if (kept[0])
		fprintf(out, "; the interrupted attempt's run.db kept as %s, not collected", kept);
	fputc('\n', out);
}

/* What the jobs add up to, for the exit status (enum fleet_exit). */
struct fleet_tally {
	size_t n[4];		/* per enum fleet_outcome */
	size_t failed_empty;	/* failed, nothing to collect */
	size_t partial;		/* failed with finished iterations (collect merges them) */
	size_t unknown;		/* no exit file and the engine did not answer */
};

static void tally_job(struct fleet_tally *t, const struct fleet *f, const struct fleet_job *j,
		      const struct fleet_engine_status *st, enum fleet_outcome o, const char *why)
{
	t->n[o]++;
	if (o == FLEET_FAILED && partial_run(f, j, why))
		t->partial++;
	else if (o == FLEET_FAILED)
		t->failed_empty++;
	if (o == FLEET_PENDING && st->state == FLEET_E_UNKNOWN && j->id[0])
		t->unknown++;
}

static int tally_exit(const struct fleet_tally *t)
{
	if (t->failed_empty)
		return FLEET_EXIT_FAILED;
	if (t->unknown)
		return FLEET_EXIT_UNREACHABLE;
	return t->partial ? FLEET_EXIT_PARTIAL : FLEET_EXIT_OK;
}

static void tally_lines(const struct fleet_tally *t, FILE *out)
{
	if (t->unknown)
		fprintf(out, "the engine did not answer: %zu job%s without an exit file %s unknown "
			"(exit %d)\n", t->unknown, t->unknown == 1 ? "" : "s",
			t->unknown == 1 ? "is" : "are", FLEET_EXIT_UNREACHABLE);
	if (t->partial && !t->failed_empty)
		fprintf(out, "every failed job left finished iterations: `fleet collect` merges them "
			"(exit %d)\n", FLEET_EXIT_PARTIAL);
}

/* status --json: one object, every job with its state and iterations. */
static void status_json(const struct fleet *f, const struct fleet_engine_status *st,
			const enum fleet_outcome *o, char (*why)[256], const struct fleet_tally *t,
			FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "{\"fleet\": ");
	json_add_string(&sb, f->dir);
	strbuf_addstr(&sb, ", \"engine\": ");
	json_add_string(&sb, f->engine);
	strbuf_addf(&sb, ", \"exit\": %d, \"jobs\": [", tally_exit(t));
	for (size_t i = 0; i < f->njobs; i++) {
		const struct fleet_job *j = &f->jobs[i];
		long it = 0, bad = 0;
		bool have = job_iterations(f, j, &it, &bad);
		char *log = fleet_job_path(f, j, "log"), kept[PATH_MAX];

		strbuf_addf(&sb, "%s{\"job\": ", i ? ", " : "");
		json_add_string(&sb, j->tag);
		strbuf_addf(&sb, ", \"round\": %d, \"node\": %d, \"id\": ", j->round, j->node);
		json_add_string(&sb, j->id);
		strbuf_addstr(&sb, ", \"host\": ");
		json_add_string(&sb, st[i].host[0] ? st[i].host : j->host);
		strbuf_addstr(&sb, ", \"state\": ");
		json_add_string(&sb, fleet_outcome_name(o[i]));
		strbuf_addstr(&sb, ", \"detail\": ");
		json_add_string(&sb, why[i]);
		if (have)
			strbuf_addf(&sb, ", \"iterations\": %ld, \"iterations_failed\": %ld", it, bad);
		strbuf_addf(&sb, ", \"restarts\": %d", job_restarts(f, j, &st[i], kept, sizeof(kept)));
		strbuf_addstr(&sb, ", \"log\": ");
		json_add_string(&sb, access(log, F_OK) == 0 ? log : "");
		strbuf_addch(&sb, '}');
		free(log);
	}
	strbuf_addf(&sb, "], \"pending\": %zu, \"running\": %zu, \"done\": %zu, \"failed\": %zu, "
		    "\"unknown\": %zu}\n", t->n[FLEET_PENDING], t->n[FLEET_RUNNING],
		    t->n[FLEET_DONE], t->n[FLEET_FAILED], t->unknown);
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

int fleet_status_json(const char *dir, FILE *out)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct fleet_tally t = { { 0 }, 0, 0, 0 };
	enum fleet_outcome *o;
	char (*why)[256];
	struct fleet f;
	bool asked;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	o = xcalloc(f.njobs + 1, sizeof(*o));
	why = xcalloc(f.njobs + 1, sizeof(*why));
	for (size_t i = 0; i < f.njobs; i++) {
		o[i] = fleet_job_outcome(&f, &f.jobs[i], &st[i], why[i], sizeof(why[i]));
		tally_job(&t, &f, &f.jobs[i], &st[i], o[i], why[i]);
	}
	status_json(&f, st, o, why, &t, out);
	free(o);
	free(why);
	free(st);
	fleet_release(&f);
	return tally_exit(&t);
}

/* The last max bytes of a file (a job's log can be long). */
static int read_tail(const char *path, struct strbuf *sb, off_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char buf[4096];
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > max)
		lseek(fd, st.st_size - max, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(sb, buf, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* The line at s, without its newline, control bytes made visible. */
static char *escaped_line(const char *s)
{
	char *line = xstrndup(s, strcspn(s, "\n")), *e = ctl_escape(line);

	free(line);
	return e;
}

/*
 * Why a job's run failed, from the end of its log: the last "error:" line,
 * and for a busy node the first reason an iteration was disturbed ("every
 * iteration disturbed: foreign CPU 48% of 2 CPUs").  "" when the log has
 * neither.  The log is the node's output: bounded and escaped.
 */
static void log_reason(const struct fleet *f, const struct fleet_job *j, char *buf, size_t n)
{
	char *path = fleet_job_path(f, j, "log");
	struct strbuf log = STRBUF_INIT;
	const char *err = NULL, *dist = NULL, *p;
	char *e = NULL, *d = NULL;

	*buf = 0;
	if (read_tail(path, &log, 1 << 16) == 0 && log.buf) {
		for (p = log.buf; (p = strstr(p, "error: ")); p++)
			err = p + 7;
		if ((p = strstr(log.buf, " disturbed: ")))
			dist = p + 12;
	}
	if (err)
		e = escaped_line(err);
	if (dist)
		d = escaped_line(dist);
	if (d && e && strstr(e, "disturbed"))
		snprintf(buf, n, "every iteration disturbed: %.200s", d);
	else if (e)
		snprintf(buf, n, "%.300s", e);
	free(e);
	free(d);
	strbuf_release(&log);
	free(path);
}

int fleet_status(const char *dir, FILE *out)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct fleet_tally t = { { 0 }, 0, 0, 0 };
	struct fleet f;
	bool asked;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	fleet_submit_failed_line(&f, out);
	fprintf(out, "%-10s %-12s %-16s %-8s %s\n", "JOB", "ID", "NODE", "STATE", "DETAIL");
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];
		char why[256];
		enum fleet_outcome o = fleet_job_outcome(&f, j, &st[i], why, sizeof(why));

		tally_job(&t, &f, j, &st[i], o, why);
		fprintf(out, "%-10s %-12s %-16s %-8s %s\n", j->tag, j->id[0] ? j->id : "-",
			st[i].host[0] ? st[i].host : j->host, fleet_outcome_name(o), why);
		restarts_line(&f, j, &st[i], out);
		{
			char *rp = fleet_job_path(&f, j, "restored"), note[512];

			if (read_line_file(rp, note, sizeof(note)) > 0)
				fprintf(out, "%-10s %s: %s\n", "", st[i].host[0] ? st[i].host : j->host,
					note);
			free(rp);
		}
		if (o == FLEET_FAILED) {
			char *log = fleet_job_path(&f, j, "log"), reason[512];

			log_reason(&f, j, reason, sizeof(reason));
			if (reason[0])
				fprintf(out, "%-10s %s: %s\n", "", st[i].host[0] ? st[i].host : j->host,
					reason);
			/* a job that never started has no log to point at */
			if (access(log, F_OK) == 0)
				fprintf(out, "%-10s log: %s\n", "", log);
			free(log);
		}
	}
	fprintf(out, "%zu jobs: %zu pending, %zu running, %zu done, %zu failed\n", f.njobs,
		t.n[FLEET_PENDING], t.n[FLEET_RUNNING], t.n[FLEET_DONE], t.n[FLEET_FAILED]);
	tally_lines(&t, out);
	free(st);
	fleet_release(&f);
	return tally_exit(&t);
}

/* " r1-n2 7 it": a running job's measured iterations so far. */
static void add_progress(struct strbuf *sb, const struct fleet *f, const struct fleet_job *j)
{
	long it, bad;

	job_iterations(f, j, &it, &bad);
	strbuf_addf(sb, " %s %ld it", j->tag, it);
}

/*
 * One look: the tally, for the progress line what runs, for --stall what
 * every job is (sig: it changes when any job does) and which are unfinished.
 */
struct wait_view {
	struct strbuf running, sig, busy;
	size_t njobs;
};

static int wait_look(const char *dir, struct fleet_tally *t, struct wait_view *v)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct fleet f;
	char why[256];
	bool asked;

	memset(t, 0, sizeof(*t));
	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	for (size_t i = 0; i < f.njobs; i++) {
		enum fleet_outcome o = fleet_job_outcome(&f, &f.jobs[i], &st[i], why, sizeof(why));

		const struct fleet_job *j = &f.jobs[i];
		char kept[PATH_MAX];
		int r = job_restarts(&f, j, &st[i], kept, sizeof(kept));
		long it, bad;

		tally_job(t, &f, j, &st[i], o, why);
		if (o == FLEET_RUNNING)
			add_progress(&v->running, &f, j);
		job_iterations(&f, j, &it, &bad);
		strbuf_addf(&v->sig, "%s %d %s %ld %ld %d\n", j->tag, o, why, it, bad, r);
		if (o == FLEET_PENDING || o == FLEET_RUNNING)
			strbuf_addf(&v->busy, "%s%s (%s: %s%s)", v->busy.len ? ", " : "", j->tag,
				    fleet_outcome_name(o), why, r ? ", requeued" : "");
	}
	v->njobs = f.njobs;
	free(st);
	fleet_release(&f);
	return 0;
}

static void wait_view_release(struct wait_view *v)
{
	strbuf_release(&v->running);
	strbuf_release(&v->sig);
	strbuf_release(&v->busy);
}

/* "3 of 4 jobs ended: 1 pending, 1 running (r2-n1 7 it), 2 done, 0 failed" */
static void wait_line(struct strbuf *line, const struct fleet_tally *t, const struct wait_view *v)
{
	strbuf_addf(line, "%zu of %zu jobs ended: %zu pending, %zu running%s%s%s, %zu done, "
		    "%zu failed", t->n[FLEET_DONE] + t->n[FLEET_FAILED], v->njobs,
		    t->n[FLEET_PENDING], t->n[FLEET_RUNNING], v->running.len ? " (" : "",
		    v->running.len ? v->running.buf + 1 : "", v->running.len ? ")" : "",
		    t->n[FLEET_DONE], t->n[FLEET_FAILED]);
	if (t->unknown)
		strbuf_addf(line, "; the engine did not answer about %zu", t->unknown);
}

int fleet_wait(const char *dir, int interval_s, int timeout_s, int stall_s, FILE *out)
{
	uint64_t t0 = now_ns(), changed = t0;
	double tool_s = fleet_tool_timeout_s;
	char *last = NULL, *prev_sig = NULL;
	int ret = FLEET_EXIT_WAITING;

	for (;;) {
		struct wait_view v = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0 };
		struct strbuf line = STRBUF_INIT;
		struct fleet_tally t;
		double elapsed = (double)(now_ns() - t0) / 1e9, left = timeout_s - elapsed, still, nap;
		char el[32];

		/* --timeout bounds the whole wait: an engine call gets what is left */
		fleet_tool_timeout_s = timeout_s > 0 && left < tool_s ? (left > 1 ? left : 1) : tool_s;
		if (wait_look(dir, &t, &v)) {
			wait_view_release(&v);
			ret = -1;
			break;
		}
		elapsed = (double)(now_ns() - t0) / 1e9;
		format_eta(elapsed, el, sizeof(el));
		if (!t.n[FLEET_PENDING] && !t.n[FLEET_RUNNING]) {
			progress_clear();
			fprintf(out, "%zu jobs: %zu done, %zu failed, after %s\n", v.njobs,
				t.n[FLEET_DONE], t.n[FLEET_FAILED], el);
			tally_lines(&t, out);
			wait_view_release(&v);
			ret = tally_exit(&t);
			break;
		}
		/* --stall: nothing of any job changed (a requeued job waiting on a dead node) */
		if (!prev_sig || strcmp(prev_sig, v.sig.buf)) {
			free(prev_sig);
			prev_sig = xstrdup(v.sig.buf);
			changed = now_ns();
		}
		still = (double)(now_ns() - changed) / 1e9;
		wait_line(&line, &t, &v);
		if (progress_enabled())
			progress_update("fleet %s: %s, %s", dir, line.buf, el);
		/* not on a terminal: one line per change */
		if (!progress_enabled() && (!last || strcmp(last, line.buf))) {
			fprintf(out, "%s: %s (after %s)\n", dir, line.buf, el);
			fflush(out);
			free(last);
			last = xstrdup(line.buf);
		}
		strbuf_release(&line);
		if ((timeout_s > 0 && elapsed >= timeout_s) || (stall_s > 0 && still >= stall_s)) {
			progress_clear();
			if (timeout_s > 0 && elapsed >= timeout_s)
				error("%s: jobs still pending or running after %d s (--timeout): %s",
				      dir, timeout_s, v.busy.buf);
			else
				error("%s: no job changed for %d s (--stall), given up on: %s", dir,
				      stall_s, v.busy.buf);
			wait_view_release(&v);
			break;
		}
		wait_view_release(&v);
		/* the next look at the interval, or when a bound passes */
		nap = interval_s;
		if (timeout_s > 0 && timeout_s - elapsed < nap)
			nap = timeout_s - elapsed;
		if (stall_s > 0 && stall_s - still < nap)
			nap = stall_s - still;
		sleep_for(nap);
	}
	free(last);
	free(prev_sig);
	return ret;
}

/*
 * After `resubmit` (or a requeue) the job's earlier attempts are its
 * run.db.N; a collect before may have merged one (a partial run).  Once
 * this attempt is done, the earlier attempts' runs leave the target DB, so
 * compare pools the complete rerun only (run.db.N keeps them); while this
 * attempt is partial too, both stay, said.  -1 when removing failed.
 */
struct run_ids {
	int64_t *v;
	size_t n, alloc;
};

/* ids less those in keep (a run some job's current run.db holds: never replaced) */
static size_t without_kept(int64_t *ids, size_t n, const struct run_ids *keep)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		bool kept = false;

		for (size_t k = 0; k < keep->n && !kept; k++)
			kept = keep->v[k] == ids[i];
		if (!kept)
			ids[m++] = ids[i];
	}
	return m;
}

static int earlier_attempts(struct mmb_db *db, const struct fleet *f, const struct fleet_job *j,
			    bool done, const struct run_ids *keep, FILE *out)
{
	char *base = fleet_job_path(f, j, "run.db");
	int ret = 0;

	for (int k = 1; k < 1000; k++) {
		char *path = xasprintf("%s.%d", base, k);
		int64_t *ids = NULL;
		size_t n = 0;

		if (access(path, F_OK) != 0) {
			free(path);
			break;
		}
		if (db_runs_of_file(db, path, &ids, &n)) {
			warning("%s: cannot tell whether %s was collected before", j->tag, path);
			n = 0;
		}
		n = without_kept(ids, n, keep);
		if (n && done && db_runs_remove(db, ids, n, NULL))
			ret = error("%s: %zu run%s of an earlier attempt (%s) stay beside the rerun's:"
				    " compare pools both", j->tag, n, n == 1 ? "" : "s", path);
		else if (n && done)
			fprintf(out, "%s: replaced %zu run%s of an earlier attempt (%s, kept there):"
				" compare pools the rerun only\n", j->tag, n, n == 1 ? "" : "s", path);
		else if (n)
			fprintf(out, "%s: warning: the DB also holds %zu run%s of an earlier attempt "
				"(%s): compare pools both; they are replaced once a rerun is done\n",
				j->tag, n, n == 1 ? "" : "s", path);
		free(ids);
		free(path);
	}
	free(base);
	return ret;
}

/* What collect did: counts for its last line, and each job's merged attempt. */
struct collect_tally {
	size_t merged, failed, waiting, added, present;
	int *attempt;		/* [njobs]: 0 nothing merged, 1 a partial run, 2 done */
	struct run_ids keep;	/* the target's runs some job's current run.db holds */
};

static void keep_runs(struct mmb_db *db, const char *path, struct run_ids *keep)
{
	int64_t *ids = NULL;
	size_t n = 0;

	if (!db_runs_of_file(db, path, &ids, &n))
		for (size_t i = 0; i < n; i++) {
			ALLOC_GROW(keep->v, keep->n + 1, keep->alloc);
			keep->v[keep->n++] = ids[i];
		}
	free(ids);
}

static void collect_job(struct mmb_db *db, const struct fleet *f, size_t i,
			enum fleet_outcome o, const char *why, struct collect_tally *c, FILE *out)
{
	const struct fleet_job *j = &f->jobs[i];
	struct db_merge_result res = { 0 };
	char *path;

	if (o == FLEET_PENDING || o == FLEET_RUNNING) {
		fprintf(out, "%s: %s (%s), not collected yet\n", j->tag, fleet_outcome_name(o), why);
		c->waiting++;
		return;
	}
	c->failed += o == FLEET_FAILED;
	if (o == FLEET_FAILED && !partial_run(f, j, why)) {
		/* nothing of it is merged: no run finished on the node */
		path = fleet_job_path(f, j, "log");
		error("%s: job %s on %s failed: %s; nothing merged; log: %s", j->tag,
		      j->id[0] ? j->id : "-", j->host, why, path);
		free(path);
		return;
	}
	path = fleet_job_path(f, j, "run.db");
	if (db_merge_file(db, path, NULL, &res)) {
		error("%s: not merged (%s)", j->tag, path);
		c->failed += o == FLEET_DONE;
		free(path);
		return;
	}
	if (o == FLEET_FAILED) {
		long it, bad;
		char *log = fleet_job_path(f, j, "log");

		/* as `run` keeps them locally: the finished iterations count */
		job_iterations(f, j, &it, &bad);
		fprintf(out, "%s: job failed (%s), %zu run%s merged with %ld finished iterations,"
			" %ld failed (log: %s)\n", j->tag, why, res.runs_added,
			res.runs_added == 1 ? "" : "s", it, bad, log);
		free(log);
	} else {
		fprintf(out, "%s: %zu run%s merged, %zu already there\n", j->tag,
			res.runs_added, res.runs_added == 1 ? "" : "s", res.runs_present);
		c->merged++;
	}
	c->added += res.runs_added;
	c->present += res.runs_present;
	c->attempt[i] = o == FLEET_DONE ? 2 : 1;
	keep_runs(db, path, &c->keep);
	free(path);
}

int fleet_collect(const char *dir, const char *dbpath, FILE *out)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct collect_tally c = { 0 };
	struct fleet f;
	struct mmb_db db;
	bool asked;
	int ret = -1;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	c.attempt = xcalloc(f.njobs + 1, sizeof(*c.attempt));
	db_single_thread();
	if (db_open(&db, db_default_path(dbpath)))
		goto out;
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];
		char why[256];

		/* an engine without a shared folder brings the files over first */
		if (eng->fetch && st[i].state == FLEET_E_ENDED && eng->fetch(&f, j))
			warning("%s: could not fetch its results", j->tag);
		collect_job(&db, &f, i, fleet_job_outcome(&f, j, &st[i], why, sizeof(why)), why,
			    &c, out);
	}
	/* after every job's current runs are known: never replace one of those */
	for (size_t i = 0; i < f.njobs; i++)
		if (c.attempt[i] &&
		    earlier_attempts(&db, &f, &f.jobs[i], c.attempt[i] == 2, &c.keep, out) &&
		    c.attempt[i] == 2)
			c.failed++, c.merged--;
	db_close(&db);
	fprintf(out, "%zu of %zu jobs collected (%zu runs added, %zu already there); "
		"%zu failed, %zu not finished\n", c.merged, f.njobs, c.added, c.present, c.failed,
		c.waiting);
	ret = c.failed || c.waiting ? 1 : 0;
out:
	free(c.keep.v);
	free(c.attempt);
	free(st);
	fleet_release(&f);
	return ret;
}
