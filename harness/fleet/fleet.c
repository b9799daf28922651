/* The fleet's engine-independent half: folder, manifest, args, outcome. */
#include "fleet.h"
#include "envctl.h"

#include "config.h"
#include "db.h"
#include "proc.h"

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

/*
 * A node's run.db with a damaged page (a disk, a copy cut short) holds
 * nothing trustworthy: its job is failed, saying so, not done.
 */
static bool run_db_damaged(const char *path, char *why, size_t n)
{
	struct mmb_db db;
	char what[256];
	int r;

	struct stat sb;

	/* an empty file is no database at all, and no damage either */
	if (db_open_existing(&db, path)) {
		if (stat(path, &sb) || !sb.st_size)
			return false;
		snprintf(why, n, "run.db damaged (not a results DB this mmbench can read): %s", path);
		return true;
	}
	r = db_damaged(&db, what, sizeof(what));
	db_close(&db);
	if (r > 0)
		snprintf(why, n, "run.db damaged (%.160s): %s", what, path);
	return r > 0;
}

enum fleet_outcome fleet_job_outcome(const struct fleet *f, const struct fleet_job *job,
				     const struct fleet_engine_status *st, char *why, size_t n)
{
	int rc = read_exit(f, job);
	char *db;
	bool have_db, damaged;

	if (rc >= 0) {
		db = fleet_job_path(f, job, "run.db");
		have_db = access(db, R_OK) == 0;
		damaged = have_db && run_db_damaged(db, why, n);
		free(db);
		if (damaged)
			return FLEET_FAILED;
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
void fleet_submit_failed_line(const struct fleet *f, FILE *out)
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
 * Take out the jobs a failed submit queued (those with an id): -1 when
 * they are gone (or none was queued), -2 when some may still be queued
 * (the cancel failed, or the engine cannot cancel): their ids stay in the
 * manifest.
 */
static int undo_submitted(const struct fleet_engine_ops *eng, const struct fleet *f)
{
	const struct fleet_job **todo = xcalloc(f->njobs + 1, sizeof(const struct fleet_job *));
	struct strbuf left = STRBUF_INIT;
	size_t n = 0;
	int ret = -1;

	for (size_t i = 0; i < f->njobs; i++)
		if (f->jobs[i].id[0])
			todo[n++] = &f->jobs[i];
	if (n && !eng->cancel && !eng->cancel_many) {
		error("the %zu jobs submitted before are left queued (the %s engine cannot cancel)",
		      n, eng->name);
		ret = -2;
	} else if (n && cancel_jobs(eng, f, todo, n, &left)) {
		error("cancelling the %zu jobs submitted before failed: %s may still be queued",
		      n, left.buf);
		ret = -2;
	} else if (n) {
		error("the %zu jobs submitted before were cancelled", n);
	}
	strbuf_release(&left);
	free(todo);
	return ret;
}

/* --array: one engine call per node, its rounds in order (jobs are round-major). */
static int submit_node(const struct fleet_engine_ops *eng, struct fleet *f,
		       const struct fleet_request *req, int node)
{
	struct fleet_job **jobs = xcalloc(req->rounds + 1, sizeof(*jobs));
	int ret;

	for (int r = 0; r < req->rounds; r++)
		jobs[r] = &f->jobs[(size_t)r * req->nodes + node];
	ret = eng->submit_array(f, req, jobs, req->rounds);
	if (ret)
		error("submitting the rounds of node %d (%s) failed", node + 1, jobs[0]->host);
	else
		info("n%d: %s job array %.*s (rounds 1-%d, one at a time) on %s", node + 1, eng->name,
		     (int)strcspn(jobs[0]->id, "_"), jobs[0]->id, req->rounds, jobs[0]->host);
	free(jobs);
	return ret || fleet_save(f) ? -1 : 0;
}

/*
 * Round by round, each job after the same node's previous round (or, with
 * --array, node by node); all or nothing: on a failure what went in is
 * taken out again.
 */
static int submit_jobs(const struct fleet_engine_ops *eng, struct fleet *f,
		       const struct fleet_request *req)
{
	for (int n = 0; req->array && n < req->nodes; n++)
		if (submit_node(eng, f, req, n))
			return undo_submitted(eng, f);
	for (size_t i = 0; !req->array && i < f->njobs; i++) {
		struct fleet_job *j = &f->jobs[i];
		const struct fleet_job *after = j->round > 1 ? &f->jobs[i - req->nodes] : NULL;

		if (eng->submit(f, req, j, after)) {
			error("submitting %s failed", j->tag);
			return undo_submitted(eng, f);
		}
		if (fleet_save(f))
			return undo_submitted(eng, f);
		info("%s: %s job %s on %s", j->tag, eng->name, j->id, j->host);
	}
	/* a script takes the ids from stdout, as from sbatch --parsable */
	for (size_t i = 0; i < f->njobs; i++)
		printf("%s\n", f->jobs[i].id);
	return 0;
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
	if (!ret && req->array && !eng->submit_array)
		ret = error("--array: the %s engine has no job arrays", eng->name) ? MMB_EUSAGE : 0;
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

/* --job NAME names job: its tag or its engine id */
static bool job_named(const struct fleet_job *job, const char *name)
{
	return !strcmp(name, job->tag) || !strcmp(name, job->id);
}

bool fleet_job_selected(const struct fleet_jobs_sel *sel, const struct fleet_job *job)
{
	if (!sel || !sel->n)
		return true;
	for (size_t i = 0; i < sel->n; i++)
		if (job_named(job, sel->tags[i]))
			return true;
	return false;
}

int fleet_jobs_sel_check(const struct fleet_jobs_sel *sel, const struct fleet *f)
{
	for (size_t i = 0; sel && i < sel->n; i++) {
		size_t k;

		for (k = 0; k < f->njobs; k++)
			if (job_named(&f->jobs[k], sel->tags[i]))
				break;
		if (k == f->njobs)
			return error("--job %s: no job of %s is called so (a tag as r1-n2, or a job id)",
				     ctl_show(sel->tags[i]), f->dir);
	}
	return 0;
}

int fleet_cancel(const char *dir, const struct fleet_jobs_sel *sel)
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
	if (fleet_jobs_sel_check(sel, &f)) {
		free(st);
		fleet_release(&f);
		return MMB_EUSAGE;
	}
	todo = xcalloc(f.njobs + 1, sizeof(const struct fleet_job *));
	for (size_t i = 0; i < f.njobs; i++) {
		const struct fleet_job *j = &f.jobs[i];

		if (!fleet_job_selected(sel, j))
			continue;
		/* unknown (the engine could not be asked) and not known to have ended: try */
		bool maybe = st[i].state == FLEET_E_UNKNOWN && j->id[0] && read_exit(&f, j) < 0;

		if (st[i].state == FLEET_E_PENDING || st[i].state == FLEET_E_RUNNING || maybe)
			todo[n++] = j;
	}
	ret = cancel_jobs(eng, &f, todo, n, &left);
	if (ret)
		error("not cancelled, may still be queued or running: %s%s", left.buf,
		      asked ? "" : "; the engine could not be asked, try again when it answers");
	else if (!sel || !sel->n)
		submit_failed_gone(&f);
	strbuf_release(&left);
	free(todo);
	free(st);
	fleet_release(&f);
	return ret;
}
