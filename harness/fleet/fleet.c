/* The fleet's engine-independent half: folder, manifest, args, outcome. */
#include "fleet.h"
#include "envctl.h"

#include "config.h"
#include "db.h"
#include "json.h"
#include "merge-db.h"
#include "proc.h"
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

/* marks a fleet whose failed submit may have left jobs queued */
#define SUBMIT_FAILED "submit-failed"

/* Adding an engine: its file, and one line here (docs/fleet.md). */
static const struct fleet_engine_ops *const engines[] = {
	&fleet_engine_slurm,
};

double fleet_tool_timeout_s = 10;

/* One Slurm tool, in its own process group, stopped when it takes too long. */
static int run_tool_bounded(const char *const *argv, struct strbuf *out, struct strbuf *err)
{
	static double from_env = -1;
	struct proc p = PROC_INIT(argv);
	int rc;

	if (from_env < 0) {
		const char *e = getenv("MMBENCH_FLEET_TOOL_TIMEOUT");

		from_env = e && atof(e) > 0 ? atof(e) : 0;
		if (from_env > 0)
			fleet_tool_timeout_s = from_env;
	}
	p.out = out;
	p.err = err;
	p.flags = PROC_NEW_PGRP;
	p.timeout_s = fleet_tool_timeout_s;
	rc = proc_run(&p);
	if (p.timed_out) {
		if (err)
			strbuf_addf(err, "no answer in %g s", p.timeout_s);
		return FLEET_TOOL_TIMED_OUT;
	}
	return rc;
}

int (*fleet_exec)(const char *const *argv, struct strbuf *out, struct strbuf *err) = run_tool_bounded;

const struct fleet_engine_ops *fleet_engine_find(const char *name)
{
	struct strbuf names = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		const struct fleet_engine_ops *e = engines[i];

		if (e->abi != FLEET_ENGINE_ABI)
			continue;	/* built against another boundary: never called */
		if (name && !strcmp(e->name, name))
			return e;
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", e->name);
	}
	error("no fleet engine '%s'; engines: %s", name ? name : "", names.buf ? names.buf : "");
	strbuf_release(&names);
	return NULL;
}

void fleet_init(struct fleet *f)
{
	memset(f, 0, sizeof(*f));
}

void fleet_release(struct fleet *f)
{
	free(f->dir);
	free(f->jobs);
	fleet_init(f);
}

char *fleet_job_path(const struct fleet *f, const struct fleet_job *job, const char *what)
{
	return what ? xasprintf("%s/jobs/%s/%s", f->dir, job->tag, what)
		    : xasprintf("%s/jobs/%s", f->dir, job->tag);
}

struct fleet_job *fleet_add_job(struct fleet *f, int round, int node, const char *host)
{
	struct fleet_job *j;

	ALLOC_GROW(f->jobs, f->njobs + 1, f->alloc);
	j = &f->jobs[f->njobs++];
	memset(j, 0, sizeof(*j));
	j->round = round;
	j->node = node;
	snprintf(j->tag, sizeof(j->tag), "r%d-n%d", round, node);
	snprintf(j->host, sizeof(j->host), "%s", host ? host : "");
	return j;
}

/* Node names and job ids go into the manifest as words: nothing else. */
static bool is_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-+:", *s)))
			return false;
	return true;
}

/*
 * A job id is what the engine hands to its tools (`scancel ID`): Slurm's
 * are numbers, N_M for an array task.  Anything else ("-uroot") could be
 * read as an option.
 */
bool fleet_job_id_valid(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || n > 20)
		return false;
	if (!s[n])
		return true;
	return s[n] == '_' && strspn(s + n + 1, "0123456789") == strlen(s + n + 1) && s[n + 1] &&
	       strlen(s + n + 1) <= 20;
}

int fleet_save(const struct fleet *f)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/fleet", f->dir);
	int ret;

	strbuf_addf(&sb, "%s\nengine %s\n", FLEET_MANIFEST_MAGIC, f->engine);
	for (size_t i = 0; i < f->njobs; i++) {
		const struct fleet_job *j = &f->jobs[i];

		strbuf_addf(&sb, "job %d %d %s %s\n", j->round, j->node, j->host,
			    j->id[0] ? j->id : "-");
	}
	ret = write_file_atomic(path, sb.buf, sb.len);
	if (ret)
		ret = error("cannot write %s: %s", path, strerror(errno));
	strbuf_release(&sb);
	free(path);
	return ret;
}

int fleet_load(struct fleet *f, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/fleet", dir), *save = NULL, *line;
	int lineno = 0, ret = -1;

	fleet_init(f);
	if (read_file_capped(&sb, path, (size_t)1 << 20)) {
		char *failed = xasprintf("%s/fleet.failed", dir);

		if (errno == ENOENT && access(failed, F_OK) == 0)
			error("%s: its submit failed, nothing of it is queued (%s says where); "
			      "`fleet submit --dir %s` again", dir, failed, dir);
		else if (errno == ENOENT)
			error("%s: not a fleet folder (no %s; made by `mmbench fleet submit`)",
			      dir, path);
		else
			error("cannot read %s: %s", path, strerror(errno));
		free(failed);
		goto out;
	}
	f->dir = realpath(dir, NULL);
	if (!f->dir) {
		error("%s: %s", dir, strerror(errno));
		goto out;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char host[128], id[64], eng[32], extra;
		int r, n;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, FLEET_MANIFEST_MAGIC)) {
				error("%s:1: not a fleet manifest this mmbench reads (want '%s')",
				      path, FLEET_MANIFEST_MAGIC);
				goto out;
			}
		} else if (sscanf(line, "engine %31s %c", eng, &extra) == 1 && is_word(eng)) {
			snprintf(f->engine, sizeof(f->engine), "%s", eng);
		} else if (sscanf(line, "job %d %d %127s %63s %c", &r, &n, host, id, &extra) == 4 &&
			   r >= 1 && r <= FLEET_MAX_ROUNDS && n >= 1 && n <= FLEET_MAX_NODES &&
			   is_word(host) && host[0] != '-' &&
			   (!strcmp(id, "-") || fleet_job_id_valid(id))) {
			struct fleet_job *j = fleet_add_job(f, r, n, host);

			if (strcmp(id, "-"))
				snprintf(j->id, sizeof(j->id), "%s", id);
		} else {
			error("%s:%d: bad line '%.60s'", path, lineno, line);
			goto out;
		}
	}
	if (!f->engine[0]) {
		error("%s: no engine line", path);
		goto out;
	}
	ret = 0;
out:
	if (ret)
		fleet_release(f);
	strbuf_release(&sb);
	free(path);
	return ret;
}

void fleet_args_encode(struct strbuf *out, const char *const *argv)
{
	strbuf_add(out, FLEET_ARGS_MAGIC, sizeof(FLEET_ARGS_MAGIC));
	for (; *argv; argv++)
		strbuf_add(out, *argv, strlen(*argv) + 1);
}

int fleet_args_decode(const char *buf, size_t len, const char *what, struct kargv *out)
{
	size_t off = sizeof(FLEET_ARGS_MAGIC), start = out->nr;

	if (len < off || memcmp(buf, FLEET_ARGS_MAGIC, off))
		return error("%s: not an mmbench fleet args file (want '%s' first)", what,
			     FLEET_ARGS_MAGIC);
	if (buf[len - 1])
		return error("%s: truncated (the last argument has no NUL)", what);
	while (off < len) {
		kargv_push(out, buf + off);
		off += strlen(buf + off) + 1;
	}
	/* a job runs a benchmark, nothing else */
	if (out->nr == start || (strcmp(out->v[start], "run") && strcmp(out->v[start], "ab"))) {
		error("%s: a fleet job runs 'run' or 'ab', not '%s'", what,
		      out->nr > start ? out->v[start] : "");
		kargv_truncate(out, start);
		return -1;
	}
	return 0;
}

static void push_list(struct kargv *a, const char *opt, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		kargv_push(a, opt);
		kargv_push(a, v[i]);
	}
}

void fleet_job_argv(const struct fleet *f, const struct fleet_job *job,
		    const struct fleet_spec *s, struct kargv *a)
{
	char *db = fleet_job_path(f, job, "run.db");
	const char *opt1[][2] = {
		{ "--name", s->tree ? NULL : s->name },
		{ "--workload", s->tree ? NULL : s->workload },
		{ "--tree", s->tree }, { "--base", s->base },
		{ "--base-config", s->base_config },
		{ "--base-name", s->base_name }, { "--new-name", s->new_name },
		{ "--accel", s->tree ? (s->accel ? s->accel : "kvm") : NULL },
		{ "--mem", s->mem },
	};

	kargv_push(a, s->tree ? "ab" : "run");
	kargv_push(a, "--db");
	kargv_push(a, db);
	for (size_t i = 0; i < ARRAY_SIZE(opt1); i++)
		if (opt1[i][1]) {
			kargv_push(a, opt1[i][0]);
			kargv_push(a, opt1[i][1]);
		}
	if (s->tree) {
		push_list(a, "--patch", s->patches, s->npatches);
		push_list(a, "--config", s->fragments, s->nfragments);
		/* the fleet's rounds are jobs: each job is one A/B round */
		kargv_push(a, "--rounds");
		kargv_push(a, "1");
		kargv_push(a, "--no-plots");
		if (s->cpus)
			kargv_pushf(a, "--cpus=%d", s->cpus);
	} else {
		push_list(a, "--set", s->sets, s->nsets);
	}
	if (s->iterations)
		kargv_pushf(a, "--iterations=%d", s->iterations);
	if (s->quick)
		kargv_push(a, "--quick");
	kargv_pushf(a, "%s/experiment.yaml", f->dir);
	free(db);
}

const char *fleet_outcome_name(enum fleet_outcome o)
{
	static const char *const names[] = { "pending", "running", "done", "failed" };

	return names[o];
}

/* The exit file's code, or -1 if there is none (or it is not ours). */
static int read_exit(const struct fleet *f, const struct fleet_job *job)
{
	char *path = fleet_job_path(f, job, "exit");
	char line[64];
	int rc = -1, v;

	if (read_line_file(path, line, sizeof(line)) > 0 && sscanf(line, "exit %d", &v) == 1 &&
	    v >= 0 && v <= 255)
		rc = v;
	free(path);
	return rc;
}

enum fleet_outcome fleet_job_outcome(const struct fleet *f, const struct fleet_job *job,
				     const struct fleet_engine_status *st, char *why, size_t n)
{
	int rc = read_exit(f, job);
	char *db;
	bool have_db;

	if (rc >= 0) {
		db = fleet_job_path(f, job, "run.db");
		have_db = access(db, R_OK) == 0;
		free(db);
		if (rc == 0 && have_db) {
			snprintf(why, n, "exit 0");
			return FLEET_DONE;
		}
		if (rc == 0)
			snprintf(why, n, "exit 0 but no run.db");
		else
			snprintf(why, n, "mmbench exited %d", rc);
		return FLEET_FAILED;
	}
	if (!job->id[0]) {
		snprintf(why, n, "never queued (its submit failed)");
		return FLEET_FAILED;
	}
	switch (st->state) {
	case FLEET_E_PENDING:
	case FLEET_E_RUNNING:
		snprintf(why, n, "%s", st->detail);
		return st->state == FLEET_E_PENDING ? FLEET_PENDING : FLEET_RUNNING;
	case FLEET_E_ENDED:
		snprintf(why, n, "ended without an exit file (%s)", st->detail);
		return FLEET_FAILED;
	case FLEET_E_GONE: {
		/* the end state recorded when it was last seen, before Slurm forgot it */
		char *sp = fleet_job_path(f, job, "engine-state"), seen[160];

		if (read_line_file(sp, seen, sizeof(seen)) > 0)
			snprintf(why, n, "ended without an exit file (%s)", seen);
		else
			snprintf(why, n, "unknown to the engine and no exit file");
		free(sp);
		return FLEET_FAILED;
	}
	case FLEET_E_UNKNOWN:
		break;
	}
	/* engine unreachable, no exit file: not finished as far as we know */
	snprintf(why, n, "no exit file yet (engine not reachable)");
	return FLEET_PENDING;
}

static int mkdir_checked(const char *path)
{
	if (mkdir_p(path, 0755))
		return error("cannot create %s: %s", path, strerror(errno));
	return 0;
}

/* A folder that already holds anything is refused: a fleet is never mixed. */
static int fleet_dir_create(const char *dir, char **abs)
{
	struct stat st;
	char *m = xasprintf("%s/fleet", dir);
	int exists = stat(m, &st) == 0;

	free(m);
	m = xasprintf("%s/" SUBMIT_FAILED, dir);
	if (exists && access(m, F_OK) == 0) {
		free(m);
		return error("%s holds a failed submit whose jobs may still be queued: "
			     "`mmbench fleet cancel --dir %s` first", dir, dir);
	}
	free(m);
	if (exists)
		return error("%s already holds a fleet (fleet status/collect it, or pick "
			     "another --dir)", dir);
	/* a fleet whose submit failed queued nothing: this submit replaces it */
	m = xasprintf("%s/fleet.failed", dir);
	unlink(m);
	free(m);
	if (mkdir_checked(dir))
		return -1;
	*abs = realpath(dir, NULL);
	if (!*abs)
		return error("%s: %s", dir, strerror(errno));
	return 0;
}

/*
 * A submit that failed and could not take its queued jobs out: the
 * manifest stays (status, cancel reach the jobs by id) with a marker that
 * says so; a new submit into the folder is refused until `fleet cancel`
 * has taken them out.
 */
static void submit_failed_queued(const struct fleet *f, const char *dir)
{
	char *m = xasprintf("%s/" SUBMIT_FAILED, f->dir);
	const char *text = "its jobs with an id may still be queued (the cancel failed)\n";
	size_t n = 0;

	for (size_t i = 0; i < f->njobs; i++)
		n += f->jobs[i].id[0] != 0;
	if (write_file_atomic(m, text, strlen(text)))
		warning("cannot write %s: %s", m, strerror(errno));
	error("%zu job%s of this submit may still be queued: once the engine answers, "
	      "`mmbench fleet cancel --dir %s` takes them out; until then %s takes no new submit",
	      n, n == 1 ? "" : "s", dir, dir);
	free(m);
}

/* status's first line for such a fleet */
static void submit_failed_line(const struct fleet *f, FILE *out)
{
	char *m = xasprintf("%s/" SUBMIT_FAILED, f->dir), line[256];

	if (read_line_file(m, line, sizeof(line)) > 0)
		fprintf(out, "submit failed: %s; `mmbench fleet cancel --dir %s` takes them out\n",
			line, f->dir);
	free(m);
}

/* After a cancel that reached every job: the failed submit is gone, the folder free. */
static void submit_failed_gone(const struct fleet *f)
{
	char *m = xasprintf("%s/" SUBMIT_FAILED, f->dir), *man = xasprintf("%s/fleet", f->dir);
	char *failed = xasprintf("%s/fleet.failed", f->dir);

	if (access(m, F_OK) == 0) {
		if (rename(man, failed) == 0 && unlink(m) == 0)
			info("the failed submit's jobs are gone: %s takes a new submit", f->dir);
		else
			warning("cannot mark %s failed: %s", man, strerror(errno));
	}
	free(m);
	free(man);
	free(failed);
}

/*
 * A submit that failed after making the folder leaves no fleet: the
 * manifest (what was and was not queued) is kept as fleet.failed, which
 * status names and the next submit replaces.  A fleet with jobs "-" that
 * could never finish was the result before.
 */
static void submit_failed(const struct fleet *f)
{
	char *m = xasprintf("%s/fleet", f->dir), *failed = xasprintf("%s/fleet.failed", f->dir);

	if (access(m, F_OK) < 0)
		error("nothing of this submit is queued");
	else if (rename(m, failed) < 0)
		error("cannot mark %s failed: %s", m, strerror(errno));
	else
		error("nothing of this submit is queued; %s keeps what it tried", failed);
	free(m);
	free(failed);
}

/*
 * What the nodes will run, tried here first (the path is shared): the
 * binary answers --version, and its plugin path has every workload the
 * experiment names.  A typo or a missing plugin costs no queue time.
 */
static int check_mmbench(const char *mmbench, const struct experiment *e)
{
	const char *version[] = { mmbench, "--version", NULL };
	const char *list[] = { mmbench, "list", "workloads", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (!mmbench)
		return 0;
	if (fleet_exec(version, &out, &err)) {
		ret = error("--mmbench %s does not run here (%s): the nodes would fail the same way",
			    mmbench, err.len ? strtrim(err.buf) : "no answer to --version");
		goto out;
	}
	strbuf_reset(&out);
	if (fleet_exec(list, &out, &err)) {
		ret = error("%s list workloads failed: %s", mmbench, err.len ? strtrim(err.buf) : "");
		goto out;
	}
	for (size_t i = 0; i < e->nworkloads && !ret; i++) {
		const char *name = e->workloads[i].name;
		bool found = false;

		for (const char *p = out.buf ? out.buf : ""; *p && !found; p = strchr(p, '\n') ?
		     strchr(p, '\n') + 1 : p + strlen(p))
			found = !strncmp(p, name, strlen(name)) &&
				(p[strlen(name)] == ' ' || p[strlen(name)] == '\n');
		if (!found)
			ret = error("workload '%s' is not among the plugins of %s (`%s list workloads`)",
				    name, mmbench, mmbench);
	}
out:
	strbuf_release(&out);
	strbuf_release(&err);
	return ret ? MMB_EUSAGE : 0;
}

static char *abs_if_exists(const char *p)
{
	char *r = realpath(p, NULL);

	return r ? r : xstrdup(p);
}

/*
 * Reads the experiment into *text and checks here what can be checked
 * here (it loads, --set applies, --mmbench runs and has its workloads):
 * a typo costs no queue time.
 */
static int submit_check(struct strbuf *text, const char *config, const struct fleet_request *req,
			const struct fleet_spec *spec)
{
	struct experiment e;
	int ret;

	if (read_input(text, config, MMB_CAP_EXPERIMENT, "an experiment"))
		return MMB_EUSAGE;
	experiment_init(&e);
	if (experiment_load_string(&e, config, text->buf)) {
		experiment_release(&e);
		return MMB_EUSAGE;
	}
	for (size_t i = 0; i < spec->nsets; i++)
		if (experiment_set_env(&e, spec->sets[i])) {
			experiment_release(&e);
			return MMB_EUSAGE;
		}
	ret = check_mmbench(req->mmbench, &e);
	experiment_release(&e);
	return ret;
}

/* The paths a kernel spec names, made absolute (the jobs run elsewhere). */
struct abs_spec {
	char **owned;
	size_t nowned;
};

static void spec_make_absolute(struct fleet_spec *spec, struct abs_spec *o)
{
	const char **p, **c;

	if (!spec->tree)
		return;
	o->owned = xcalloc(2 + spec->npatches + spec->nfragments, sizeof(*o->owned));
	spec->tree = o->owned[o->nowned++] = abs_if_exists(spec->tree);
	if (spec->base_config)
		spec->base_config = o->owned[o->nowned++] = abs_if_exists(spec->base_config);
	p = xcalloc(spec->npatches + 1, sizeof(*p));
	c = xcalloc(spec->nfragments + 1, sizeof(*c));
	for (size_t i = 0; i < spec->npatches; i++)
		p[i] = o->owned[o->nowned++] = abs_if_exists(spec->patches[i]);
	for (size_t i = 0; i < spec->nfragments; i++)
		c[i] = o->owned[o->nowned++] = abs_if_exists(spec->fragments[i]);
	spec->patches = p;
	spec->fragments = c;
}

static void abs_spec_release(struct abs_spec *o, struct fleet_spec *spec)
{
	if (!o->owned)
		return;
	for (size_t i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	free((void *)spec->patches);
	free((void *)spec->fragments);
}

/* Each job's folder, emptied of what a replaced fleet left, and its args file. */
static int write_job_args(const struct fleet *f, const struct fleet_spec *spec)
{
	static const char *const stale[] = { "exit", "log", "run.db" };
	struct strbuf args = STRBUF_INIT;
	int r = 0;

	for (size_t i = 0; i < f->njobs && !r; i++) {
		const struct fleet_job *j = &f->jobs[i];
		struct kargv a = KARGV_INIT;
		char *jd = fleet_job_path(f, j, NULL), *ap = fleet_job_path(f, j, "args");

		r = mkdir_checked(jd);
		/* what a replaced (failed) fleet's job left must not count for this one */
		for (size_t k = 0; !r && k < ARRAY_SIZE(stale); k++) {
			char *sp = fleet_job_path(f, j, stale[k]);

			unlink(sp);
			free(sp);
		}

		fleet_job_argv(f, j, spec, &a);
		strbuf_reset(&args);
		fleet_args_encode(&args, (const char *const *)a.v);
		if (!r && write_file_atomic(ap, args.buf, args.len))
			r = error("cannot write %s: %s", ap, strerror(errno));
		kargv_release(&a);
		free(jd);
		free(ap);
	}
	strbuf_release(&args);
	return r;
}

/* Cancel jobs[0..n): in one engine call where it can; the ones left in left. */
static int cancel_jobs(const struct fleet_engine_ops *eng, const struct fleet *f,
		       const struct fleet_job *const *jobs, size_t n, struct strbuf *left)
{
	int ret = 0;

	if (!n)
		return 0;
	if (eng->cancel_many) {
		ret = eng->cancel_many(f, jobs, n);
		for (size_t i = 0; ret && i < n; i++)
			strbuf_addf(left, "%s%s (%s)", left->len ? ", " : "", jobs[i]->id, jobs[i]->tag);
		for (size_t i = 0; !ret && i < n; i++)
			info("cancelled %s (job %s)", jobs[i]->tag, jobs[i]->id);
		return ret;
	}
	for (size_t i = 0; i < n; i++) {
		if (eng->cancel(f, jobs[i])) {
			strbuf_addf(left, "%s%s (%s)", left->len ? ", " : "", jobs[i]->id, jobs[i]->tag);
			ret = -1;
		} else {
			info("cancelled %s (job %s)", jobs[i]->tag, jobs[i]->id);
		}
	}
	return ret;
}

/*
 * Take out the first n jobs a failed submit queued: -1 when they are gone
 * (or none was queued), -2 when some may still be queued (the cancel
 * failed, or the engine cannot cancel): their ids stay in the manifest.
 */
static int undo_submitted(const struct fleet_engine_ops *eng, const struct fleet *f, size_t n)
{
	const struct fleet_job **todo;
	struct strbuf left = STRBUF_INIT;
	int ret = -1;

	if (!n)
		return -1;
	if (!eng->cancel && !eng->cancel_many) {
		error("the %zu jobs submitted before are left queued (the %s engine cannot cancel)",
		      n, eng->name);
		return -2;
	}
	todo = xcalloc(n + 1, sizeof(*todo));
	for (size_t i = 0; i < n; i++)
		todo[i] = &f->jobs[i];
	if (cancel_jobs(eng, f, todo, n, &left)) {
		error("cancelling the %zu jobs submitted before failed: %s may still be queued",
		      n, left.buf);
		ret = -2;
	} else {
		error("the %zu jobs submitted before were cancelled", n);
	}
	strbuf_release(&left);
	free(todo);
	return ret;
}

/*
 * Round by round, each job after the same node's previous round; all or
 * nothing: on a failure what went in is taken out again.
 */
static int submit_jobs(const struct fleet_engine_ops *eng, struct fleet *f,
		       const struct fleet_request *req)
{
	size_t submitted = 0;

	for (size_t i = 0; i < f->njobs; i++) {
		struct fleet_job *j = &f->jobs[i];
		const struct fleet_job *after = j->round > 1 ? &f->jobs[i - req->nodes] : NULL;

		if (eng->submit(f, req, j, after)) {
			error("submitting %s failed", j->tag);
			goto undo;
		}
		submitted++;
		if (fleet_save(f))
			goto undo;
		info("%s: %s job %s on %s", j->tag, eng->name, j->id, j->host);
	}
	/* a script takes the ids from stdout, as from sbatch --parsable */
	for (size_t i = 0; i < f->njobs; i++)
		printf("%s\n", f->jobs[i].id);
	return 0;
undo:
	return undo_submitted(eng, f, submitted);
}

int fleet_submit(const struct fleet_engine_ops *eng, const char *dir, const char *config,
		 const struct fleet_request *req, const struct fleet_spec *spec_in)
{
	struct fleet_spec spec = *spec_in;
	struct abs_spec owned = { 0 };
	struct strbuf text = STRBUF_INIT;
	struct fleet f;
	char **hosts = NULL, *path = NULL;
	size_t nhosts = 0;
	bool created = false, queued = false;
	int ret;

	fleet_init(&f);
	ret = submit_check(&text, config, req, &spec);
	if (!ret && eng->check && eng->check(req))
		ret = MMB_EUSAGE;
	if (ret)
		goto out;
	spec_make_absolute(&spec, &owned);

	ret = -1;
	if (eng->pick_nodes(req, &hosts, &nhosts))
		goto out;
	if (fleet_dir_create(dir, &f.dir))
		goto out;
	created = true;
	snprintf(f.engine, sizeof(f.engine), "%s", eng->name);
	path = xasprintf("%s/experiment.yaml", f.dir);
	if (write_file_atomic(path, text.buf, text.len)) {
		error("cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	for (int r = 1; r <= req->rounds; r++)
		for (int n = 1; n <= req->nodes; n++)
			fleet_add_job(&f, r, n, hosts[n - 1]);
	if (write_job_args(&f, &spec))
		goto out;
	if (fleet_save(&f) || (eng->prepare && eng->prepare(&f, req)))
		goto out;
	if ((ret = submit_jobs(eng, &f, req)) == -2)
		queued = true;
	if (ret) {
		ret = -1;
		goto out;
	}
	info("%zu jobs in %s; `mmbench fleet status --dir %s`, then `fleet collect`", f.njobs,
	     f.dir, dir);
	ret = 0;
out:
	if (ret && created && queued)
		submit_failed_queued(&f, dir);
	else if (ret && created)
		submit_failed(&f);
	if (hosts)
		for (size_t i = 0; i < nhosts; i++)
			free(hosts[i]);
	free(hosts);
	abs_spec_release(&owned, &spec);
	free(path);
	strbuf_release(&text);
	fleet_release(&f);
	return ret;
}

/* Has every job its exit file?  Then the engine has nothing to add. */
static bool all_exited(const struct fleet *f)
{
	for (size_t i = 0; i < f->njobs; i++)
		if (read_exit(f, &f->jobs[i]) < 0)
			return false;
	return true;
}

int fleet_query(const struct fleet_engine_ops *eng, const struct fleet *f,
		struct fleet_engine_status *st)
{
	memset(st, 0, f->njobs * sizeof(*st));
	/* an unreachable controller made status wait ~60 s for nothing */
	if (all_exited(f))
		return 0;
	if (eng->status(f, st)) {
		warning("the %s engine cannot be asked: only the jobs' exit files count",
			eng->name);
		memset(st, 0, f->njobs * sizeof(*st));
		return -1;
	}
	return 0;
}

/*
 * An ended job's engine state ("TIMEOUT", "CANCELLED by 0", "OUT_OF_MEMORY")
 * is written into its folder when first seen: slurmctld forgets a job after
 * MinJobAge, and status would then know only that it is gone.
 */
static void record_end_states(const struct fleet *f, const struct fleet_engine_status *st)
{
	for (size_t i = 0; i < f->njobs; i++) {
		char *sp, old[160];

		if (st[i].state != FLEET_E_ENDED || !st[i].detail[0])
			continue;
		sp = fleet_job_path(f, &f->jobs[i], "engine-state");
		if (read_line_file(sp, old, sizeof(old)) < 0 || strcmp(old, st[i].detail)) {
			char *line = xasprintf("%s\n", st[i].detail);

			if (write_file_atomic(sp, line, strlen(line)))
				warning("cannot record %s: %s", sp, strerror(errno));
			free(line);
		}
		free(sp);
	}
}

static void sleep_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (s > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* status, cancel and collect all start here: the fleet, its engine, every job's state */
struct fleet_engine_status *fleet_open(const char *dir, struct fleet *f,
					      const struct fleet_engine_ops **eng, bool *asked)
{
	struct fleet_engine_status *st;

	if (fleet_load(f, dir))
		return NULL;
	if (!(*eng = fleet_engine_find(f->engine))) {
		fleet_release(f);
		return NULL;
	}
	st = xcalloc(f->njobs + 1, sizeof(*st));
	*asked = fleet_query(*eng, f, st) == 0;
	record_end_states(f, st);
	return st;
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
		char *log = fleet_job_path(f, j, "log");

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
	submit_failed_line(&f, out);
	fprintf(out, "%-10s %-12s %-16s %-8s %s\n", "JOB", "ID", "NODE", "STATE", "DETAIL");
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];
		char why[256];
		enum fleet_outcome o = fleet_job_outcome(&f, j, &st[i], why, sizeof(why));

		tally_job(&t, &f, j, &st[i], o, why);
		fprintf(out, "%-10s %-12s %-16s %-8s %s\n", j->tag, j->id[0] ? j->id : "-",
			st[i].host[0] ? st[i].host : j->host, fleet_outcome_name(o), why);
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

/* One look: the tally and, for the progress line, what runs. */
static int wait_look(const char *dir, struct fleet_tally *t, struct strbuf *running, size_t *njobs)
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

		tally_job(t, &f, &f.jobs[i], &st[i], o, why);
		if (o == FLEET_RUNNING)
			add_progress(running, &f, &f.jobs[i]);
	}
	*njobs = f.njobs;
	free(st);
	fleet_release(&f);
	return 0;
}

int fleet_wait(const char *dir, int interval_s, int timeout_s, FILE *out)
{
	uint64_t t0 = now_ns();
	double tool_s = fleet_tool_timeout_s;
	char *last = NULL;

	for (;;) {
		struct strbuf running = STRBUF_INIT, line = STRBUF_INIT;
		struct fleet_tally t;
		double elapsed = (double)(now_ns() - t0) / 1e9, left = timeout_s - elapsed;
		char el[32];
		size_t njobs = 0;

		/* --timeout bounds the whole wait: an engine call gets what is left */
		fleet_tool_timeout_s = timeout_s > 0 && left < tool_s ? (left > 1 ? left : 1) : tool_s;
		if (wait_look(dir, &t, &running, &njobs)) {
			free(last);
			return -1;
		}
		elapsed = (double)(now_ns() - t0) / 1e9;
		format_eta(elapsed, el, sizeof(el));
		if (!t.n[FLEET_PENDING] && !t.n[FLEET_RUNNING]) {
			progress_clear();
			fprintf(out, "%zu jobs: %zu done, %zu failed, after %s\n", njobs,
				t.n[FLEET_DONE], t.n[FLEET_FAILED], el);
			tally_lines(&t, out);
			strbuf_release(&running);
			free(last);
			return tally_exit(&t);
		}
		strbuf_addf(&line, "%zu of %zu jobs ended: %zu pending, %zu running%s%s%s, %zu done, "
			    "%zu failed", t.n[FLEET_DONE] + t.n[FLEET_FAILED], njobs,
			    t.n[FLEET_PENDING], t.n[FLEET_RUNNING], running.len ? " (" : "",
			    running.len ? running.buf + 1 : "", running.len ? ")" : "",
			    t.n[FLEET_DONE], t.n[FLEET_FAILED]);
		if (t.unknown)
			strbuf_addf(&line, "; the engine did not answer about %zu", t.unknown);
		progress_update("fleet %s: %s, %s", dir, line.buf, el);
		/* not on a terminal: one line per change */
		if (!progress_enabled() && (!last || strcmp(last, line.buf))) {
			fprintf(out, "%s: %s (after %s)\n", dir, line.buf, el);
			fflush(out);
			free(last);
			last = xstrdup(line.buf);
		}
		strbuf_release(&running);
		strbuf_release(&line);
		if (timeout_s > 0 && elapsed >= timeout_s) {
			progress_clear();
			free(last);
			error("%s: jobs still pending or running after %d s (--timeout)", dir, timeout_s);
			return FLEET_EXIT_WAITING;
		}
		left = timeout_s - elapsed;
		sleep_for(timeout_s > 0 && left < interval_s ? left : interval_s);
	}
}

int fleet_cancel(const char *dir)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	const struct fleet_job **todo;
	struct fleet f;
	struct strbuf left = STRBUF_INIT;
	size_t n = 0;
	bool asked;
	int ret = 0;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	if (!eng->cancel && !eng->cancel_many) {
		free(st);
		fleet_release(&f);
		return error("the %s engine cannot cancel jobs", eng->name);
	}
	todo = xcalloc(f.njobs + 1, sizeof(*todo));
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];
		/* unknown (the engine could not be asked) and not known to have ended: try */
		bool maybe = st[i].state == FLEET_E_UNKNOWN && j->id[0] && read_exit(&f, j) < 0;

		if (st[i].state == FLEET_E_PENDING || st[i].state == FLEET_E_RUNNING || maybe)
			todo[n++] = j;
	}
	ret = cancel_jobs(eng, &f, todo, n, &left);
	if (ret)
		error("not cancelled, may still be queued or running: %s%s", left.buf,
		      asked ? "" : "; the engine could not be asked, try again when it answers");
	else
		submit_failed_gone(&f);
	strbuf_release(&left);
	free(todo);
	free(st);
	fleet_release(&f);
	return ret;
}

int fleet_collect(const char *dir, const char *dbpath, FILE *out)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct fleet f;
	struct mmb_db db;
	size_t merged = 0, failed = 0, waiting = 0, added = 0, present = 0;
	bool asked;
	int ret = -1;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	db_single_thread();
	if (db_open(&db, db_default_path(dbpath)))
		goto out;
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];
		struct db_merge_result res = { 0 };
		enum fleet_outcome o;
		char why[256], *path;

		/* an engine without a shared folder brings the files over first */
		if (eng->fetch && st[i].state == FLEET_E_ENDED && eng->fetch(&f, j))
			warning("%s: could not fetch its results", j->tag);
		o = fleet_job_outcome(&f, j, &st[i], why, sizeof(why));
		if (o == FLEET_PENDING || o == FLEET_RUNNING) {
			fprintf(out, "%s: %s (%s), not collected yet\n", j->tag,
				fleet_outcome_name(o), why);
			waiting++;
			continue;
		}
		if (o == FLEET_FAILED && !partial_run(&f, j, why)) {
			/* nothing of it is merged: no run finished on the node */
			path = fleet_job_path(&f, j, "log");
			error("%s: job %s on %s failed: %s; nothing merged; log: %s", j->tag,
			      j->id[0] ? j->id : "-", j->host, why, path);
			free(path);
			failed++;
			continue;
		}
		path = fleet_job_path(&f, j, "run.db");
		if (db_merge_file(&db, path, NULL, &res)) {
			error("%s: not merged (%s)", j->tag, path);
			failed++;
		} else if (o == FLEET_FAILED) {
			long it, bad;
			char *log = fleet_job_path(&f, j, "log");

			/* as `run` keeps them locally: the finished iterations count */
			job_iterations(&f, j, &it, &bad);
			fprintf(out, "%s: job failed (%s), %zu run%s merged with %ld finished iterations,"
				" %ld failed (log: %s)\n", j->tag, why, res.runs_added,
				res.runs_added == 1 ? "" : "s", it, bad, log);
			free(log);
			added += res.runs_added;
			present += res.runs_present;
			failed++;
		} else {
			fprintf(out, "%s: %zu run%s merged, %zu already there\n", j->tag,
				res.runs_added, res.runs_added == 1 ? "" : "s", res.runs_present);
			added += res.runs_added;
			present += res.runs_present;
			merged++;
		}
		free(path);
	}
	db_close(&db);
	fprintf(out, "%zu of %zu jobs collected (%zu runs added, %zu already there); "
		"%zu failed, %zu not finished\n", merged, f.njobs, added, present, failed,
		waiting);
	ret = failed || waiting ? 1 : 0;
out:
	free(st);
	fleet_release(&f);
	return ret;
}
