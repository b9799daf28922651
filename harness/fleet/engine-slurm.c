/*
 * The Slurm engine: sbatch one job per (node, round), pinned to its node
 * (--nodelist, chosen from sinfo) with the node to itself (--exclusive);
 * a node's round r+1 waits for its round r (--dependency=afterany).
 * status from squeue, scontrol for jobs that left the queue, and sacct
 * for those slurmctld forgot, where the cluster keeps accounting
 * (slurmdbd).  Every tool is exec'd with an argv; the job script is fixed
 * text.
 */
#include "fleet.h"
#include "kargv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The batch script: fixed text; $1 the mmbench binary, $2 the args file,
 * $3 the log.  The log is not sbatch --output: Slurm expands '%' patterns
 * and drops backslashes in that path, so a folder named so would break.
 */
const char fleet_slurm_script[] =
	"#!/bin/sh\n"
	"# mmbench fleet job (fixed text: $1 mmbench, $2 the job's args file, $3 its log)\n"
	"exec \"$1\" fleet job \"$2\" >>\"$3\" 2>&1\n";

/*
 * An array task's script: fixed text; $1 mmbench, $2 the jobs folder, $3
 * the node number; the round is Slurm's SLURM_ARRAY_TASK_ID (digits).
 */
const char fleet_slurm_array_script[] =
	"#!/bin/sh\n"
	"# mmbench fleet array task (fixed text: $1 mmbench, $2 the jobs folder, $3 the node;\n"
	"# the round is the array task id)\n"
	"t=\"$2/r${SLURM_ARRAY_TASK_ID}-n$3\"\n"
	"exec \"$1\" fleet job \"$t/args\" >>\"$t/log\" 2>&1\n";

static bool is_feature(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

static int tool(const char *const *argv, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	int rc = fleet_exec(argv, out, &err);

	if (rc) {
		while (err.len && (err.buf[err.len - 1] == '\n'))
			err.buf[--err.len] = 0;
		if (rc < 0)
			error("cannot run %s (is Slurm installed? SLURM_CONF set?)", argv[0]);
		else if (rc == FLEET_TOOL_TIMED_OUT)
			error("%s: %s (is slurmctld up? MMBENCH_FLEET_TOOL_TIMEOUT sets the bound)",
			      argv[0], err.len ? err.buf : "no answer");
		else
			error("%s exited %d: %s", argv[0], rc, err.len ? err.buf : "(no message)");
	}
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/* A node fit to run on: up and not drained (sinfo %t, compact). */
static bool usable_state(const char *t)
{
	static const char *const ok[] = { "idle", "mix", "alloc", "comp", "plnd" };
	size_t n = strcspn(t, "*~#!%$@^-");

	if (t[n] == '*')	/* not responding */
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (n == strlen(ok[i]) && !strncmp(t, ok[i], n))
			return true;
	return false;
}

static bool has_features(const char *features, const struct fleet_request *req)
{
	for (size_t i = 0; i < req->nconstraints; i++) {
		const char *want = req->constraints[i], *p = features;
		size_t wl = strlen(want);
		bool found = false;

		while (*p && !found) {
			size_t l = strcspn(p, ",");

			found = l == wl && !strncmp(p, want, wl);
			p += l + (p[l] == ',');
		}
		if (!found)
			return false;
	}
	return true;
}

/* The options fleet submit sets itself: --sbatch-arg cannot give them. */
static const char *const own_options[] = {
	"--job-name", "--nodelist", "--nodes", "--ntasks", "--exclusive", "--output", "--error",
	"--chdir", "--parsable", "--wrap", "--array", "--dependency", "--partition",
	"--constraint", "--time", "--account", "--qos", "--reservation", "--begin", "--exclude",
	"--requeue", "--no-requeue", NULL,
};

/* Values go to sbatch as --opt=VALUE of an argv: no shell, but no control bytes either. */
static int check_request(const struct fleet_request *req)
{
	const char *vals[] = { req->account, req->qos, req->reservation, req->begin,
			       req->nodelist, req->exclude, req->dependency };
	const char *names[] = { "--account", "--qos", "--reservation", "--begin", "--nodelist",
				"--exclude", "--dependency" };

	for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
		if (vals[i] && (!*vals[i] || name_ctl(vals[i])))
			return error("%s: an empty value or a control character", names[i]);
	for (size_t i = 0; i < req->nsbatch_args; i++) {
		const char *a = req->sbatch_args[i];
		size_t n = strcspn(a, "=");

		if (strncmp(a, "--", 2) || n < 3 || name_ctl(a))
			return error("--sbatch-arg '%s': one long sbatch option, as --name or "
				     "--name=value", ctl_show(a));
		for (const char *const *o = own_options; *o; o++)
			if (strlen(*o) == n && !strncmp(a, *o, n))
				return error("--sbatch-arg '%s': fleet submit sets %.*s itself%s",
					     a, (int)n, a, strcmp(*o, "--output") ? "" :
					     " (each job logs to DIR/jobs/TAG/log)");
	}
	return 0;
}

/* `scontrol show hostnames LIST`: a Slurm hostlist ("node[1-3]") as "|a|b|c|". */
static int expand_hosts(const char *list, struct strbuf *out)
{
	const char *argv[] = { "scontrol", "show", "hostnames", list, NULL };
	struct strbuf names = STRBUF_INIT;
	char *save = NULL;

	if (tool(argv, &names))
		return -1;
	strbuf_addch(out, '|');
	for (char *l = strtok_r(names.buf ? names.buf : (char[]){ 0 }, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		strbuf_addf(out, "%s|", l);
	strbuf_release(&names);
	return 0;
}

static int slurm_pick_nodes(const struct fleet_request *req, char ***names, size_t *n)
{
	const char *argv[10] = { "sinfo", "-h", "-N", "-o", "%N|%f|%t" };
	struct strbuf out = STRBUF_INIT, seen = STRBUF_INIT, excluded = STRBUF_INIT;
	char *save = NULL, **v = NULL;
	size_t nv = 0, nall = 0;
	int argc = 5;

	for (size_t i = 0; i < req->nconstraints; i++)
		if (!is_feature(req->constraints[i]))
			return error("--constraint '%s': one node feature (letters, digits, "
				     "'_.-') per --constraint; all of them are required",
				     req->constraints[i]);
	if (req->partition)
		argv[argc++] = "-p", argv[argc++] = req->partition;
	if (req->nodelist)
		argv[argc++] = "-n", argv[argc++] = req->nodelist;
	if ((req->exclude && expand_hosts(req->exclude, &excluded)) || tool(argv, &out)) {
		strbuf_release(&out);
		strbuf_release(&excluded);
		return -1;
	}
	v = xcalloc(req->nodes + 1, sizeof(*v));
	for (char *line = strtok_r(out.buf ? out.buf : (char[]){ 0 }, "\n", &save);
	     line && nv < (size_t)req->nodes; line = strtok_r(NULL, "\n", &save)) {
		char *f = strchr(line, '|'), *t = f ? strchr(f + 1, '|') : NULL;
		char key[160];

		if (!t)
			continue;
		*f++ = 0;
		*t++ = 0;
		/* -N lists a node once per partition */
		snprintf(key, sizeof(key), "|%s|", line);
		if (seen.buf && strstr(seen.buf, key))
			continue;
		strbuf_addstr(&seen, key);
		nall++;
		if (excluded.buf && strstr(excluded.buf, key))
			continue;
		if (usable_state(t) && has_features(f, req) && strlen(line) < 128 && *line)
			v[nv++] = xstrdup(line);
	}
	strbuf_release(&out);
	strbuf_release(&seen);
	strbuf_release(&excluded);
	if (nv < (size_t)req->nodes) {
		error("%d node%s wanted, %zu of the %zu in %s%s%s fit (up, not drained%s)",
		      req->nodes, req->nodes == 1 ? "" : "s", nv, nall,
		      req->partition ? "partition " : "", req->partition ? req->partition : "sinfo",
		      "", req->nconstraints ? ", with every --constraint feature" : "");
		for (size_t i = 0; i < nv; i++)
			free(v[i]);
		free(v);
		return -1;
	}
	*names = v;
	*n = nv;
	return 0;
}

static int slurm_prepare(const struct fleet *f, const struct fleet_request *req)
{
	char *path = xasprintf("%s/job.sh", f->dir);
	int ret = 0;

	if (write_file_atomic_mode(path, fleet_slurm_script, strlen(fleet_slurm_script), 0755))
		ret = error("cannot write %s: %s", path, strerror(errno));
	free(path);
	path = xasprintf("%s/job-array.sh", f->dir);
	if (!ret && req->array &&
	    write_file_atomic_mode(path, fleet_slurm_array_script,
				   strlen(fleet_slurm_array_script), 0755))
		ret = error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return ret;
}

/* The fleet folder's name as a job name part: [A-Za-z0-9._-], at most 40. */
static const char *fleet_name(const struct fleet *f, char *buf, size_t len)
{
	const char *base = strrchr(f->dir, '/');
	size_t n = 0;

	for (base = base ? base + 1 : f->dir; *base && n + 1 < len && n < 40; base++)
		buf[n++] = isalnum((unsigned char)*base) || strchr("._-", *base) ? *base : '_';
	buf[n] = 0;
	return n ? buf : "fleet";
}

/* sbatch's options up to the dependency: name, the whole node pinned, the request's */
static void sbatch_head(struct kargv *a, const struct fleet *f, const struct fleet_request *req,
			const char *what, const char *host)
{
	struct strbuf cons = STRBUF_INIT;
	char name[48];

	kargv_push(a, "sbatch");
	kargv_push(a, "--parsable");
	/* squeue shows whose job it is: mmbench-<fleet folder>-r1-n1 */
	kargv_pushf(a, "--job-name=mmbench-%s-%s", fleet_name(f, name, sizeof(name)), what);
	kargv_push(a, "--exclusive");
	kargv_push(a, "--nodes=1");
	kargv_push(a, "--ntasks=1");
	kargv_pushf(a, "--nodelist=%s", host);
	if (req->partition)
		kargv_pushf(a, "--partition=%s", req->partition);
	for (size_t i = 0; i < req->nconstraints; i++)
		strbuf_addf(&cons, "%s%s", i ? "&" : "", req->constraints[i]);
	if (cons.len)
		kargv_pushf(a, "--constraint=%s", cons.buf);
	if (req->time_limit)
		kargv_pushf(a, "--time=%s", req->time_limit);
	if (req->account)
		kargv_pushf(a, "--account=%s", req->account);
	if (req->qos)
		kargv_pushf(a, "--qos=%s", req->qos);
	if (req->reservation)
		kargv_pushf(a, "--reservation=%s", req->reservation);
	if (req->begin)
		kargv_pushf(a, "--begin=%s", req->begin);
	if (req->no_requeue)
		kargv_push(a, "--no-requeue");
	strbuf_release(&cons);
}

/* ... the dependency (after: a job id or NULL), --sbatch-arg, the folder */
static void sbatch_tail(struct kargv *a, const struct fleet *f, const struct fleet_request *req,
			const char *after)
{
	/* ',' joins dependencies that must all be satisfied */
	if (after || req->dependency)
		kargv_pushf(a, "--dependency=%s%s%s%s", after ? "afterany:" : "",
			    after ? after : "", after && req->dependency ? "," : "",
			    req->dependency ? req->dependency : "");
	for (size_t i = 0; i < req->nsbatch_args; i++)
		kargv_push(a, req->sbatch_args[i]);
	kargv_pushf(a, "--chdir=%s", f->dir);
	kargv_push(a, "--output=/dev/null");
}

/* Run sbatch; its job id ("ID" or "ID;CLUSTER") into id. */
static int sbatch_run(const struct kargv *a, char *id, size_t n)
{
	struct strbuf out = STRBUF_INIT;
	int ret = tool((const char *const *)a->v, &out);
	size_t idlen;

	if (!ret) {
		idlen = out.buf ? strspn(out.buf, "0123456789") : 0;
		if (!idlen || idlen + 6 >= n)
			ret = error("sbatch printed no job id ('%.40s')", out.buf ? out.buf : "");
		else
			snprintf(id, n, "%.*s", (int)idlen, out.buf);
	}
	strbuf_release(&out);
	return ret;
}

static int slurm_submit(const struct fleet *f, const struct fleet_request *req,
			struct fleet_job *job, const struct fleet_job *after)
{
	struct kargv a = KARGV_INIT;
	char *args = fleet_job_path(f, job, "args"), *log = fleet_job_path(f, job, "log");
	int ret;

	sbatch_head(&a, f, req, job->tag, job->host);
	sbatch_tail(&a, f, req, after ? after->id : NULL);
	kargv_pushf(&a, "%s/job.sh", f->dir);
	kargv_push(&a, req->mmbench);
	kargv_push(&a, args);
	kargv_push(&a, log);
	ret = sbatch_run(&a, job->id, sizeof(job->id));
	kargv_release(&a);
	free(args);
	free(log);
	return ret;
}

/*
 * A node's rounds as one job array: --array=1-R%1, one task at a time, in
 * order, whatever each one's outcome; task r is round r, its id ID_r.
 * N nodes x R rounds are N entries in the queue.
 */
static int slurm_submit_array(const struct fleet *f, const struct fleet_request *req,
			      struct fleet_job **jobs, size_t n)
{
	struct kargv a = KARGV_INIT;
	char what[16], id[40];
	int ret;

	snprintf(what, sizeof(what), "n%d", jobs[0]->node);
	sbatch_head(&a, f, req, what, jobs[0]->host);
	kargv_pushf(&a, "--array=1-%zu%%1", n);
	sbatch_tail(&a, f, req, NULL);
	kargv_pushf(&a, "%s/job-array.sh", f->dir);
	kargv_push(&a, req->mmbench);
	kargv_pushf(&a, "%s/jobs", f->dir);
	kargv_pushf(&a, "%d", jobs[0]->node);
	ret = sbatch_run(&a, id, sizeof(id));
	for (size_t i = 0; !ret && i < n; i++)
		snprintf(jobs[i]->id, sizeof(jobs[i]->id), "%s_%d", id, jobs[i]->round);
	kargv_release(&a);
	return ret;
}

/* A "a|b|c|d" line of squeue's or sacct's parsable output, split in place; false if short. */
static bool split_fields(char *line, char *fld[4])
{
	fld[0] = line;
	for (int k = 1; k < 4; k++) {
		fld[k] = fld[k - 1] ? strchr(fld[k - 1], '|') : NULL;
		if (fld[k])
			*fld[k]++ = 0;
	}
	return fld[3] != NULL;
}

/* Slurm's job states in our four words. */
static enum fleet_engine_state slurm_state(const char *s)
{
	static const char *const pending[] = { "PENDING", "CONFIGURING", "REQUEUED",
					       "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD" };
	static const char *const running[] = { "RUNNING", "COMPLETING", "SUSPENDED", "STOPPED",
					       "RESIZING", "SIGNALING", "STAGE_OUT" };

	for (size_t i = 0; i < ARRAY_SIZE(pending); i++)
		if (!strcmp(s, pending[i]))
			return FLEET_E_PENDING;
	for (size_t i = 0; i < ARRAY_SIZE(running); i++)
		if (!strcmp(s, running[i]))
			return FLEET_E_RUNNING;
	return FLEET_E_ENDED;
}

static void set_status(struct fleet_engine_status *st, const char *state, const char *host,
		       const char *more)
{
	st->state = slurm_state(state);
	snprintf(st->host, sizeof(st->host), "%s", host && strcmp(host, "(null)") ? host : "");
	if (more && *more && strcmp(more, "None") && strcmp(more, "(null)"))
		snprintf(st->detail, sizeof(st->detail), "%s (%s)", state, more);
	else
		snprintf(st->detail, sizeof(st->detail), "%s", state);
}

/* "Key=Value" of a one-line `scontrol show job -o` record. */
static void scontrol_field(const char *rec, const char *key, char *val, size_t n)
{
	size_t kl = strlen(key);

	*val = 0;
	for (const char *p = rec; (p = strstr(p, key)); p += kl) {
		if ((p == rec || p[-1] == ' ') && p[kl] == '=') {
			const char *v = p + kl + 1;

			snprintf(val, n, "%.*s", (int)strcspn(v, " \n"), v);
			return;
		}
	}
}

/*
 * The record of job id among `scontrol show job -o`'s lines, or NULL: the
 * line "JobId=N ...", or for an array task N_T the line with "ArrayJobId=N"
 * and "ArrayTaskId=T" (its JobId is a number of its own).
 */
static const char *find_record(const char *all, const char *id, char *rec, size_t n)
{
	size_t il = strcspn(id, "_");
	char aj[64], at[32];

	for (const char *p = all; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		snprintf(rec, n, "%.*s", (int)strcspn(p, "\n"), p);
		if (!id[il]) {
			if (!strncmp(rec, "JobId=", 6) && !strncmp(rec + 6, id, il) && rec[6 + il] == ' ')
				return rec;
			continue;
		}
		scontrol_field(rec, "ArrayJobId", aj, sizeof(aj));
		scontrol_field(rec, "ArrayTaskId", at, sizeof(at));
		if (strlen(aj) == il && !strncmp(aj, id, il) && !strcmp(at, id + il + 1))
			return rec;
	}
	return NULL;
}

/*
 * Jobs slurmctld has forgotten (MinJobAge): their final state from the
 * accounting database, where the cluster keeps one (sacct needs
 * slurmdbd; without it sacct fails and the jobs stay "gone").  One call.
 */
static void accounted_jobs(const struct fleet *f, struct fleet_engine_status *st)
{
	struct kargv a = KARGV_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, ids = STRBUF_INIT;
	char *save = NULL;

	for (size_t i = 0; i < f->njobs; i++)
		if (st[i].state == FLEET_E_GONE && fleet_job_id_valid(f->jobs[i].id))
			strbuf_addf(&ids, "%s%s", ids.len ? "," : "", f->jobs[i].id);
	kargv_push(&a, "sacct");
	kargv_push(&a, "-n");
	kargv_push(&a, "-P");
	kargv_push(&a, "-X");	/* the job, not its steps */
	kargv_push(&a, "-o");
	kargv_push(&a, "JobID,State,ExitCode,NodeList");
	kargv_pushf(&a, "--jobs=%s", ids.buf ? ids.buf : "");
	if (ids.len && fleet_exec((const char *const *)a.v, &out, &err) == 0) {
		for (char *l = strtok_r(out.buf ? out.buf : (char[]){ 0 }, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			char *fld[4];
			char more[64];

			if (!split_fields(l, fld))
				continue;
			snprintf(more, sizeof(more), "exit %s, from sacct", fld[2]);
			for (size_t i = 0; i < f->njobs; i++)
				if (st[i].state == FLEET_E_GONE && !strcmp(f->jobs[i].id, fld[0]))
					set_status(&st[i], fld[1], fld[3], more);
		}
	}
	kargv_release(&a);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&ids);
}

/*
 * One `scontrol show job -o` for the jobs squeue did not list (their end
 * state) and those it lists as pending (a requeued job is: its Restarts
 * count, after a node failure).  -1 when the ended ones cannot be asked.
 */
static int scontrol_jobs(const struct fleet *f, struct fleet_engine_status *st, const bool *seen)
{
	const char *argv[] = { "scontrol", "show", "job", "-o", NULL };
	struct strbuf all = STRBUF_INIT, err = STRBUF_INIT;
	bool unseen = false, pending = false, purged = false;
	int rc;

	for (size_t i = 0; i < f->njobs; i++) {
		unseen |= !seen[i] && f->jobs[i].id[0];
		pending |= seen[i] && st[i].state == FLEET_E_PENDING;
	}
	if (!unseen && !pending)
		return 0;
	rc = fleet_exec(argv, &all, &err);
	if (rc) {
		strbuf_release(&all);
		/* a pending job's restart count is a nicety; an ended job's state is not */
		if (unseen)
			error("scontrol show job exited %d: %s", rc, err.buf ? err.buf : "");
		strbuf_release(&err);
		return unseen ? -1 : 0;
	}
	for (size_t i = 0; i < f->njobs; i++) {
		char rec[2048], state[64], code[32], nodes[128], reason[64], more[128], r[16];

		if (!f->jobs[i].id[0] || (seen[i] && st[i].state != FLEET_E_PENDING))
			continue;
		if (!find_record(all.buf ? all.buf : "", f->jobs[i].id, rec, sizeof(rec))) {
			if (seen[i])
				continue;
			st[i].state = FLEET_E_GONE;
			snprintf(st[i].detail, sizeof(st[i].detail), "purged by slurmctld");
			purged = true;
			continue;
		}
		scontrol_field(rec, "Restarts", r, sizeof(r));
		st[i].restarts = atoi(r);
		if (seen[i])
			continue;
		scontrol_field(rec, "JobState", state, sizeof(state));
		scontrol_field(rec, "ExitCode", code, sizeof(code));
		scontrol_field(rec, "NodeList", nodes, sizeof(nodes));
		scontrol_field(rec, "Reason", reason, sizeof(reason));
		snprintf(more, sizeof(more), "%s%s%s", code[0] ? "exit " : "", code,
			 strcmp(reason, "None") && reason[0] ? ", " : "");
		if (strcmp(reason, "None") && reason[0])
			strncat(more, reason, sizeof(more) - strlen(more) - 1);
		set_status(&st[i], state[0] ? state : "UNKNOWN", nodes, more);
	}
	strbuf_release(&all);
	strbuf_release(&err);
	if (purged)
		accounted_jobs(f, st);
	return 0;
}

/*
 * Running jobs whose node Slurm finds down or not responding (sinfo %t
 * "down*", "alloc*"...): a node lost under its job, which Slurm still
 * calls RUNNING until SlurmdTimeout, then requeues.  One sinfo for their
 * nodes; if it fails, nothing is added.
 */
static void lost_nodes(const struct fleet *f, struct fleet_engine_status *st)
{
	struct strbuf hosts = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	const char *argv[] = { "sinfo", "-h", "-N", "-o", "%N|%t", "-n", NULL, NULL };
	char *save = NULL;

	for (size_t i = 0; i < f->njobs; i++)
		if (st[i].state == FLEET_E_RUNNING && st[i].host[0])
			strbuf_addf(&hosts, "%s%s", hosts.len ? "," : "", st[i].host);
	argv[6] = hosts.buf;
	if (hosts.len && fleet_exec(argv, &out, &err) == 0) {
		for (char *l = strtok_r(out.buf ? out.buf : (char[]){ 0 }, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			/* NODE|STATE: the state is the last field */
			char *t = strrchr(l, '|');

			if (!t || usable_state(t + 1))
				continue;
			*strchr(l, '|') = 0;
			t++;
			for (size_t i = 0; i < f->njobs; i++)
				if (st[i].state == FLEET_E_RUNNING && !strcmp(st[i].host, l) &&
				    !strstr(st[i].detail, "not responding"))
					snprintf(st[i].detail + strlen(st[i].detail),
						 sizeof(st[i].detail) - strlen(st[i].detail),
						 "; node %.32s down or not responding (%.16s)", l, t);
		}
	}
	strbuf_release(&hosts);
	strbuf_release(&out);
	strbuf_release(&err);
}

static int slurm_status(const struct fleet *f, struct fleet_engine_status *st)
{
	struct strbuf ids = STRBUF_INIT, out = STRBUF_INIT;
	char *save = NULL;
	bool *seen = xcalloc(f->njobs + 1, sizeof(*seen));
	int ret = -1;

	for (size_t i = 0; i < f->njobs; i++)
		if (f->jobs[i].id[0])
			strbuf_addf(&ids, "%s%s", ids.len ? "," : "", f->jobs[i].id);
	if (!ids.len) {
		ret = 0;
		goto out;
	}
	{
		/* -r: an array's pending tasks one a line, as ID_TASK, not ID_[2-3%1] */
		const char *argv[] = { "squeue", "-h", "-o", "%i|%T|%N|%r", "--jobs", ids.buf,
				       "-r", NULL };

		if (tool(argv, &out))
			goto out;
	}
	for (char *line = strtok_r(out.buf ? out.buf : (char[]){ 0 }, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *fld[4];

		if (!split_fields(line, fld))
			continue;
		for (size_t i = 0; i < f->njobs; i++)
			if (!strcmp(f->jobs[i].id, fld[0])) {
				set_status(&st[i], fld[1], fld[2], fld[3]);
				seen[i] = true;
			}
	}
	/* not queued any more: scontrol remembers it for MinJobAge (300 s); one call for all */
	if (scontrol_jobs(f, st, seen))
		goto out;
	lost_nodes(f, st);
	ret = 0;
out:
	free(seen);
	strbuf_release(&ids);
	strbuf_release(&out);
	return ret;
}

static int slurm_cancel(const struct fleet *f, const struct fleet_job *job)
{
	const char *argv[] = { "scancel", "--", job->id, NULL };

	/* the manifest's ids are checked on load; this is the last gate */
	if (job->id[0] && !fleet_job_id_valid(job->id))
		return error("job id '%s' is not a Slurm job id (N or N_M)", job->id);
	return job->id[0] ? tool(argv, NULL) : 0;
}

/* One scancel for all of them: with a dead controller, one bounded wait, not one each. */
static int slurm_cancel_many(const struct fleet *f, const struct fleet_job *const *jobs, size_t n)
{
	struct kargv a = KARGV_INIT;
	int ret;

	(void)f;
	kargv_push(&a, "scancel");
	kargv_push(&a, "--");
	for (size_t i = 0; i < n; i++) {
		if (!jobs[i]->id[0])
			continue;
		/* the manifest's ids are checked on load; this is the last gate */
		if (!fleet_job_id_valid(jobs[i]->id)) {
			kargv_release(&a);
			return error("job id '%s' is not a Slurm job id (N or N_M)", jobs[i]->id);
		}
		kargv_push(&a, jobs[i]->id);
	}
	ret = a.nr > 2 ? tool((const char *const *)a.v, NULL) : 0;
	kargv_release(&a);
	return ret;
}

const struct fleet_engine_ops fleet_engine_slurm = {
	.abi = FLEET_ENGINE_ABI,
	.name = "slurm",
	.summary = "sbatch per (node, round), --exclusive, pinned with --nodelist",
	.pick_nodes = slurm_pick_nodes,
	.prepare = slurm_prepare,
	.submit = slurm_submit,
	.submit_array = slurm_submit_array,
	.status = slurm_status,
	.cancel = slurm_cancel,
	.cancel_many = slurm_cancel_many,
	.check = check_request,
};
