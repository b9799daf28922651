/*
 * run --resume: what an interrupted run still owes, and the checks that
 * it is the same experiment on the same kernel and machine.
 */
#include "resume.h"
#include "dbopen.h"
#include "util.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* Whether a run in this state can be resumed: 0, or the exit code after one error. */
static int resume_status(const struct db_run_detail *d, int64_t id)
{
	long long n = (long long)id;

	if (!strcmp(d->status, "complete"))
		return error("run %lld is complete: nothing to resume", n), EXIT_USAGE;
	if (!strcmp(d->status, "failed"))
		return error("run %lld failed (`mmbench show %lld` says why); only an interrupted run can be resumed",
			     n, n), EXIT_USAGE;
	if (!strcmp(d->status, "running"))
		return error("run %lld is still running (pid %d on %s)", n, d->pid,
			     or_unknown(d->host)), EXIT_RUNTIME;
	if (strcmp(d->status, "interrupted"))
		return error("run %lld has status '%s'; only an interrupted run can be resumed", n,
			     d->status), EXIT_USAGE;
	if (strcmp(d->accel, "host"))
		return error("run %lld ran under %s, not on the host: only host runs can be resumed",
			     n, or_unknown(d->accel)), EXIT_USAGE;
	if (!d->options)
		return error("run %lld was recorded without its run options (by an mmbench before schema 5, or `reproduce`): what it planned is unknown, so it cannot be resumed",
			     n), EXIT_USAGE;
	return 0;
}

int resume_read(const char *dbpath, int64_t run_id, struct db_run_detail *d)
{
	struct mmb_db db;
	int rc, ret;

	memset(d, 0, sizeof(*d));
	if ((rc = db_open_results(&db, dbpath)))
		return rc;
	/* db_open_existing has marked a killed run (its pid gone) interrupted */
	rc = db_run_detail(&db, run_id, d);
	if (rc == 1) {
		error("no run %lld in %s (`mmbench list runs` lists them)", (long long)run_id,
		      dbpath);
		ret = EXIT_USAGE;
	} else if (rc < 0)
		ret = EXIT_RUNTIME;
	else
		ret = resume_status(d, run_id);
	db_close(&db);
	if (ret)
		db_run_detail_release(d);
	return ret;
}

static bool same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* The variant of p that recorded d, or NULL. */
static struct plan_variant *find_variant(struct plan *p, const struct db_variant_done *d)
{
	for (size_t wi = 0; wi < p->nwls; wi++) {
		struct plan_workload *w = &p->wls[wi];

		if (!same_text(w->plugin.w.name, d->workload))
			continue;
		for (size_t vi = 0; vi < w->nvariants; vi++)
			if (same_text(w->variants[vi].variant, d->variant) &&
			    same_text(w->variants[vi].params_text, d->params))
				return &w->variants[vi];
	}
	return NULL;
}

/* Two variants of p a run's rows cannot tell apart: said, -1. */
static int check_distinct(const struct plan *p, int64_t run_id)
{
	for (size_t wi = 0; wi < p->nwls; wi++)
		for (size_t vi = 0; vi < p->wls[wi].nvariants; vi++)
			for (size_t wj = wi; wj < p->nwls; wj++)
				for (size_t vj = wj == wi ? vi + 1 : 0; vj < p->wls[wj].nvariants; vj++) {
					const struct plan_variant *a = &p->wls[wi].variants[vi];
					const struct plan_variant *b = &p->wls[wj].variants[vj];

					if (same_text(p->wls[wi].plugin.w.name, p->wls[wj].plugin.w.name) &&
					    same_text(a->variant, b->variant) &&
					    same_text(a->params_text, b->params_text))
						return error("run %lld: workload %s is planned twice with params '%s': its recorded iterations cannot be told apart",
							     (long long)run_id, p->wls[wi].plugin.w.name,
							     a->params_text);
				}
	return 0;
}

int resume_plan(struct plan *p, int64_t run_id, const struct db_variant_done *d, size_t n)
{
	long long id = (long long)run_id;

	if (check_distinct(p, run_id))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct plan_variant *v = find_variant(p, &d[i]);
		const char *sp = *d[i].variant ? " " : "";
		int planned;

		if (!v)
			return error("run %lld recorded iterations of %s%s%s (params '%s'), which the experiment no longer plans",
				     id, d[i].workload, sp, d[i].variant, d[i].params);
		planned = 0;
		for (size_t wi = 0; wi < p->nwls; wi++)
			if (v >= p->wls[wi].variants && v < p->wls[wi].variants + p->wls[wi].nvariants)
				planned = p->wls[wi].iterations;
		/* one iteration is one transaction: numbers are 1..k, or the DB was edited */
		if (d[i].measured != d[i].last)
			return error("run %lld: %s%s%s has %d measured iterations but the last is number %d; resume needs them numbered 1..%d",
				     id, d[i].workload, sp, d[i].variant, d[i].measured, d[i].last,
				     d[i].measured);
		if (d[i].measured > planned)
			return error("run %lld: %s%s%s recorded %d measured iterations, more than the %d planned",
				     id, d[i].workload, sp, d[i].variant, d[i].measured, planned);
		v->resume_measured = d[i].measured;
		v->resume_warmups = d[i].warmups;
		v->resume_done = d[i].skipped || d[i].measured == planned;
	}
	p->total_iterations = 0;
	for (size_t wi = 0; wi < p->nwls; wi++)
		for (size_t vi = 0; vi < p->wls[wi].nvariants; vi++) {
			const struct plan_variant *v = &p->wls[wi].variants[vi];

			if (!v->resume_done)
				p->total_iterations += (size_t)(p->wls[wi].warmup +
								p->wls[wi].iterations -
								v->resume_measured);
		}
	return 0;
}

/* MemTotal moves a little between boots: within 5% is the same memory (as compare --by machine). */
static bool same_memory(uint64_t a, uint64_t b)
{
	uint64_t hi = a > b ? a : b, lo = a > b ? b : a;

	return hi - lo <= hi / 20;
}

/* The run was measured on this kernel and machine: 0, or -1 after saying which differs. */
static int same_system(const struct db_run_detail *d, const struct sysinfo *si, int64_t id)
{
	if (!same_text(d->release, si->release) || !same_text(d->config_hash, si->config_hash))
		return error("run %lld was measured on kernel %s (config %s); this is %s (config %s): resume it on its own kernel",
			     (long long)id, or_unknown(d->release), or_unknown(d->config_hash),
			     or_unknown(si->release), or_unknown(si->config_hash));
	if (!same_text(d->hostname, si->hostname) || !same_text(d->cpu_model, si->cpu_model) ||
	    d->ncpus != si->ncpus || !same_memory((uint64_t)d->mem_bytes, si->mem_bytes))
		return error("run %lld was measured on %s (%s, %d CPUs, %lld bytes); this is %s (%s, %d CPUs, %llu bytes): resume it on its own machine",
			     (long long)id, or_unknown(d->hostname), or_unknown(d->cpu_model),
			     d->ncpus, (long long)d->mem_bytes, or_unknown(si->hostname),
			     or_unknown(si->cpu_model), si->ncpus, (unsigned long long)si->mem_bytes);
	return 0;
}

int resume_claim(struct mmb_db *db, int64_t run_id, const struct experiment *exp,
		 const struct sysinfo *si, struct plan *p, char **label)
{
	struct db_run_detail d;
	struct db_variant_done *done = NULL;
	size_t ndone = 0;
	int rc, ret = EXIT_RUNTIME;

	*label = NULL;
	rc = db_run_detail(db, run_id, &d);
	if (rc == 1)
		return error("no run %lld in %s", (long long)run_id, db_path(db)), EXIT_USAGE;
	if (rc < 0)
		return EXIT_RUNTIME;
	ret = resume_status(&d, run_id);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	if (!same_text(exp->text, d.config_raw)) {
		error("%s is not the experiment run %lld recorded (its text differs); resume without CONFIG to use the recorded text",
		      exp->path, (long long)run_id);
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (same_system(&d, si, run_id) || db_run_recorded(db, run_id, &done, &ndone) ||
	    resume_plan(p, run_id, done, ndone))
		goto out;
	rc = db_run_resume(db, run_id);
	if (rc) {
		if (rc > 0)
			error("run %lld was taken over by another mmbench meanwhile", (long long)run_id);
		goto out;
	}
	if (strcmp(d.git_sha, mmb_git_sha))
		warning("run %lld was started by mmbench %s; this is %s", (long long)run_id,
			or_unknown(d.git_sha), mmb_git_sha);
	*label = xstrdup(d.label);
	ret = 0;
out:
	db_variant_done_free(done, ndone);
	db_run_detail_release(&d);
	return ret;
}
