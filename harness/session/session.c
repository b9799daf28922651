/*
 * One run of an experiment on the running kernel, recorded under a kernel
 * label: `mmbench run` and `mmbench reproduce` on the host.
 */
#include "proc.h"
#include "session.h"
#include "compare.h"
#include "monlist.h"
#include "render.h"
#include "db.h"
#include "envctl.h"
#include "preflight.h"
#include "quiet.h"
#include "plan.h"
#include "read.h"
#include "resume.h"
#include "runner.h"
#include "summary.h"
#include "sysinfo.h"
#include "util.h"

#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The comparison of BASE with LABEL, as `mmbench compare` prints it; its exit code. */
/* A row of the run with every measured value disturbed: one error, true. */
static bool run_all_disturbed(struct mmb_db *db, int64_t run_id)
{
	struct db_run_series *rows;
	size_t nr;
	bool dead = false;

	if (db_run_series(db, run_id, &rows, &nr))
		return false;
	for (size_t i = 0; i < nr && !dead; i++)
		if (rows[i].ndisturbed && !rows[i].n) {
			struct strbuf why = STRBUF_INIT;
			char *what = xasprintf("%s%s%s %s", rows[i].workload,
					       *rows[i].variant ? " " : "", rows[i].variant,
					       rows[i].metric);

			disturbed_sentence(&why, what, rows[i].ndisturbed);
			error("run %lld: %s", (long long)run_id, why.buf);
			strbuf_release(&why);
			free(what);
			dead = true;
		}
	db_run_series_free(rows, nr);
	return dead;
}

static int compare_after_run(struct mmb_db *db, const char *want, const char *label)
{
	struct compare_select sel;
	const char *labels[2] = { NULL, label };
	char *base = NULL;
	int rc;

	if (strcmp(want, "previous"))
		base = xstrdup(want);
	else if (db_previous_label(db, label, &base))
		return EXIT_RUNTIME;
	if (!base) {
		printf("\nno other kernel in %s yet: boot another kernel and run again to compare\n",
		       db_path(db));
		return 0;
	}
	printf("\ncomparison: %s (base) vs %s\n", base, label);
	fflush(stdout);
	labels[0] = base;
	compare_select_init(&sel, labels, 2);
	sel.need = COMPARE_NEED_COMMON;
	sel.meta = true;
	sel.monitors = MONITORS_CHANGED;
	rc = render_show(db, &sel, renderers[0], stdout);
	free(base);
	return rc;
}

static void on_stop(int sig)
{
	runner_request_stop(sig);
}

/* The plan rq asks for; 0, or the command's exit code (the plan is released). */
static int plan_request(struct plan *plan, struct experiment *exp, const struct run_request *rq)
{
	struct plan_opts po = { 0 };
	struct unit_ctx u;
	int ret;

	unit_ctx_host(&u);
	po.iterations = rq->iterations;
	po.quick = rq->quick;
	po.only = rq->workload;
	ret = plan_build(plan, exp, &u, &po);
	if (ret) {
		plan_release(plan);
		return ret == PLAN_PLUGIN_CRASHED ? EXIT_RUNTIME : EXIT_USAGE;
	}
	if (rq->precision > 0) {
		plan->precision = rq->precision;
		plan->min_iterations = rq->min_iterations;
		plan->max_iterations = rq->max_iterations;
		plan->total_iterations = 0;
		for (size_t i = 0; i < plan->nwls; i++)
			plan->total_iterations += plan->wls[i].nvariants *
						  (size_t)(plan->wls[i].warmup + rq->max_iterations);
	}
	plan->profile = rq->profile;
	return 0;
}

/* The run's row: what ran, on which kernel (the ids are the caller's, set after). */
static void run_info_fill(struct run_info *ri, const struct sysinfo *si,
			  const struct experiment *exp, const struct run_request *rq)
{
	run_info_init(ri, 0, exp->name, rq->config_path, rq->accel ? rq->accel : "host");
	ri->config_text = exp->text;
	ri->release = si->release;
	ri->version = si->version;
	ri->cmdline = si->cmdline;
	ri->config_hash = si->config_hash;
	ri->compiler = si->compiler;
	ri->options = rq->options;
}

/* A new run's row, with its kernel and machine, begun through sink: 0 or -1 after an error. */
static int new_run(struct result_sink *sink, struct mmb_db *db, const struct experiment *exp,
		   const struct sysinfo *si, const struct run_request *rq, const char *label)
{
	struct kernel_info ki = { 0 };
	struct machine_info mi = { 0 };
	struct run_info ri = { 0 };

	ki.label = label;
	ki.release = si->release;
	ki.version = si->version;
	ki.cmdline = si->cmdline;
	ki.config_hash = si->config_hash;
	ki.compiler = si->kernel_compiler;	/* from /proc/version (NULL: it names none) */
	mi.hostname = si->hostname;
	mi.cpu_model = si->cpu_model;
	mi.ncpus = si->ncpus;
	mi.mem_bytes = si->mem_bytes;
	run_info_fill(&ri, si, exp, rq);
	ri.kernel_id = db_kernel_upsert(db, &ki);
	ri.machine_id = db_machine_upsert(db, &mi);
	return ri.kernel_id > 0 && ri.machine_id > 0 ? sink_run(sink, &ri) : -1;
}

/*
 * Ctrl-C / SIGTERM / SIGHUP (the terminal closed) / SIGQUIT (Ctrl-\,
 * whose default would end us without restoring): stop after killing
 * the current child, restore, record the run as interrupted.
 */
static void catch_stop_signals(void)
{
	struct sigaction sa;

	envctl_install_signal_handlers();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

/* "stress-ng, version 0.15.06 (gcc ...)" -> "0.15.06"; else the first line. */
static void version_of(char *out, size_t len, const char *text)
{
	const char *v = strstr(text, "version ");
	size_t n;

	if (v) {
		v += strlen("version ");
		n = strspn(v, "0123456789.");
		if (n) {
			snprintf(out, len, "%.*s", (int)n, v);
			return;
		}
	}
	n = strcspn(text, "\n");
	snprintf(out, len, "%.*s", (int)n, text);
	for (char *c = out; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = ' ';
}

/*
 * Record in run_env "tool.<program>" = the version of each external
 * program a planned workload runs, as its descriptor lists them
 * (mmb_workload.programs; stress-ng: "tool.stress-ng" = "0.15.06"):
 * its results are only comparable between runs of the same version.
 * Nothing for a program that is not installed.  0 or -1 (the sink failed).
 */
/* Was program listed by an earlier workload of the plan (its version recorded once)? */
static bool program_seen(const struct plan *p, size_t w, const char *program)
{
	for (size_t e = 0; e < w; e++)
		for (const char *const *q = p->wls[e].plugin.w.programs; q && *q; q++)
			if (!strcmp(*q, program))
				return true;
	return false;
}

static int runner_env_tools(const struct plan *p, struct result_sink *sink)
{
	for (size_t w = 0; w < p->nwls; w++) {
		const char *const *progs = p->wls[w].plugin.w.programs;

		for (size_t t = 0; progs && progs[t]; t++) {
			const char *argv[] = { progs[t], "--version", NULL };
			struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
			char key[80], ver[128];
			int ret = 0;

			snprintf(key, sizeof(key), "tool.%s", progs[t]);
			if (!program_seen(p, w, progs[t]) && run_argv(argv, &out, &err) == 0 && out.len) {
				version_of(ver, sizeof(ver), out.buf);
				ret = sink_env(sink, key, ver, NULL);
			}
			strbuf_release(&out);
			strbuf_release(&err);
			if (ret)
				return -1;
		}
	}
	return 0;
}

/*
 * Apply the environment, run the plan into sink, restore, and give the
 * sink the run's final status (*status).  EXIT_OK or EXIT_RUNTIME; -1 when
 * the environment could not be applied (nothing ran; a resumed run is left
 * interrupted, as it was found).
 */
static int run_body(struct experiment *exp, struct plan *plan, struct result_sink *sink,
		    bool resumed, struct runner_stats *st, const char **status)
{
	off_t mark;
	int ret = EXIT_OK;

	memset(st, 0, sizeof(*st));
	catch_stop_signals();
	mark = envctl_mark();
	/* a resumed run sets its environment again, journaled like the first time */
	if (runner_env_apply(exp, sink) || runner_env_record(sink) ||
	    runner_env_tools(plan, sink)) {
		envctl_restore_to(mark);
		*status = resumed ? "interrupted" : "failed";
		sink_finish(sink, *status);
		return -1;
	}
	if (runner_run(plan, sink, st))
		ret = EXIT_RUNTIME;
	if (envctl_restore_to(mark))
		ret = EXIT_RUNTIME;
	*status = st->interrupted ? "interrupted" : ret ? "failed" : "complete";
	if (sink_finish(sink, *status))
		ret = EXIT_RUNTIME;
	return ret;
}

static void print_counts(long long run_id, const char *status, const struct runner_stats *st)
{
	if (run_id > 0)
		printf("\nrun %lld (%s): %d ok, %d failed, %d skipped", run_id, status, st->ok,
		       st->failed, st->skipped);
	else
		printf("\nrun (%s): %d ok, %d failed, %d skipped", status, st->ok, st->failed,
		       st->skipped);
	/* said only when it happened: clean runs keep the old line */
	if (st->disturbed)
		printf(", %d disturbed (compare leaves them out)", st->disturbed);
	printf("\n");
}

int run_experiment_to(struct experiment *exp, const struct run_request *rq,
		      struct result_sink *sink)
{
	struct plan plan;
	struct sysinfo si;
	struct runner_stats st;
	struct run_info ri = { 0 };
	const char *status;
	int ret;

	ret = plan_request(&plan, exp, rq);
	if (ret)
		return ret;
	if (envctl_lock()) {
		plan_release(&plan);
		return EXIT_RUNTIME;
	}
	sysinfo_collect(&si);
	run_info_fill(&ri, &si, exp, rq);
	if (sink_run(sink, &ri)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	info("run: experiment '%s' on %s, %zu iterations, results to the %s sink", exp->name,
	     si.release, plan.total_iterations, sink->ops->name);
	ret = run_body(exp, &plan, sink, false, &st, &status);
	if (ret < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	print_counts(0, status, &st);
	if (st.interrupted) {
		error("interrupted by signal %d", runner_stop_signal());
		ret = EXIT_RUNTIME;
	} else if (st.failed) {
		error("%d iteration(s) failed", st.failed);
		ret = EXIT_RUNTIME;
	}
out:
	sysinfo_release(&si);
	plan_release(&plan);
	return ret;
}

int run_experiment(struct experiment *exp, const struct run_request *rq)
{
	struct plan plan;
	struct mmb_db db;
	struct sysinfo si;
	struct runner_stats st;
	struct result_sink sink;
	char *label = NULL;
	int64_t run_id;
	const char *status, *mode;
	int ret = plan_request(&plan, exp, rq);

	if (ret)
		return ret;
	if (envctl_lock()) {
		plan_release(&plan);
		return EXIT_RUNTIME;
	}
	/* before the run's row: a machine that stays busy leaves no empty run */
	if (rq->wait_quiet_s > 0 && machine_wait_quiet(&exp->limits, rq->wait_quiet_s)) {
		plan_release(&plan);
		return EXIT_RUNTIME;
	}
	/* test suites record interference without judging it: no pre-flight either */
	mode = getenv("MMBENCH_INTERFERENCE");
	if (!mode || strcmp(mode, "record"))
		preflight_check(&exp->limits, rq->wait_quiet_s <= 0, exp->env.governor != NULL);
	if (db_open(&db, db_default_path(rq->db))) {
		plan_release(&plan);
		return EXIT_RUNTIME;
	}

	sysinfo_collect(&si);
	if (rq->resume > 0) {
		run_id = rq->resume;
		ret = resume_claim(&db, run_id, exp, &si, &plan, &label);
		if (ret)
			goto out;
		sink_sqlite_init(&sink, &db, run_id);
		info("run %lld resumed: experiment '%s' on kernel '%s' (%s), %zu iterations left",
		     (long long)run_id, exp->name, label, si.release, plan.total_iterations);
	} else {
		label = xstrdup(rq->label ? rq->label : si.release);
		sink_sqlite_init(&sink, &db, 0);
		if (new_run(&sink, &db, exp, &si, rq, label)) {
			ret = EXIT_RUNTIME;
			goto out;
		}
		run_id = sink.run_id;
		info("run %lld: experiment '%s' on kernel '%s' (%s), %zu iterations",
		     (long long)run_id, exp->name, label, si.release, plan.total_iterations);
	}

	ret = run_body(exp, &plan, &sink, rq->resume > 0, &st, &status);
	if (ret < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (!mmb_quiet || !st.interrupted) {
		print_counts(run_id, status, &st);
		summary_print_run(stdout, &db, run_id);
	}
	if (!st.interrupted && !rq->keep_disturbed && run_all_disturbed(&db, run_id))
		ret = EXIT_RUNTIME;
	if (rq->compare && !st.interrupted) {
		/* a comparison that could not be made fails the command too */
		int crc = compare_after_run(&db, rq->compare, label);

		if (crc && !ret)
			ret = crc;
	}
	if (st.interrupted) {
		error("interrupted by signal %d; finished iterations are kept in %s (run %lld; `mmbench run --resume %lld` goes on)",
		      runner_stop_signal(), db_path(&db), (long long)run_id, (long long)run_id);
		ret = EXIT_RUNTIME;
	} else if (st.failed) {
		error("%d iteration(s) failed; see `mmbench show %lld`", st.failed,
		      (long long)run_id);
		ret = EXIT_RUNTIME;
	}
out:
	free(label);
	sysinfo_release(&si);
	db_close(&db);
	plan_release(&plan);
	return ret;
}
