/*
 * mmbench run CONFIG: run an experiment on the running kernel and record
 * every sample in the database under a kernel label.
 */
#include "builtin.h"
#include "precision.h"
#include "config.h"
#include "db.h"
#include "envctl.h"
#include "plan.h"
#include "read.h"
#include "runner.h"
#include "summary.h"
#include "sysinfo.h"
#include "util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct run_args {
	const char *config;
	const char *label;
	const char *db;
	const char *workload;
	const char *accel;
	const char *compare;	/* after the run: compare with this label, or "previous" */
	int iterations;
	bool quick;
	bool no_counters;
	double precision;	/* --precision: 0 off */
	int min_iterations, max_iterations;
	const char **sets;	/* --set KEY=VALUE, in order */
	size_t nsets;
};

/* "1%" or "0.01": a fraction in (0, 1). */
static int parse_precision(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v)
		return -1;
	if (*end == '%') {
		d /= 100;
		end++;
	}
	if (*end || !(d > 0 && d < 1))
		return -1;
	*out = d;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	for (int i = 1; i < argc; i++) {
		static const char *const valued[] = { "--name", "--db", "--iterations",
						      "--workload", "--accel", "--compare",
						      "--precision", "--min-iterations",
						      "--max-iterations", "--set" };
		const char *arg = argv[i], *val = NULL;
		int r = 0;

		for (size_t k = 0; !r && k < ARRAY_SIZE(valued); k++)
			if ((r = option_value(argc, argv, &i, valued[k], &val)))
				arg = valued[k];
		if (r < 0)
			return -1;
		if (r) {
			if (!strcmp(arg, "--name"))
				a->label = val;
			else if (!strcmp(arg, "--db"))
				a->db = val;
			else if (!strcmp(arg, "--workload"))
				a->workload = val;
			else if (!strcmp(arg, "--accel"))
				a->accel = val;
			else if (!strcmp(arg, "--compare"))
				a->compare = val;
			else if (!strcmp(arg, "--set")) {
				a->sets = xrealloc(a->sets, (a->nsets + 1) * sizeof(*a->sets));
				a->sets[a->nsets++] = val;
			}
			else if (!strcmp(arg, "--precision")) {
				if (parse_precision(val, &a->precision))
					return error("--precision wants a share like 1%% (0-100%%, exclusive), not '%s'", val);
			} else if (!strcmp(arg, "--min-iterations") || !strcmp(arg, "--max-iterations")) {
				char *end;
				long n = strtol(val, &end, 10);

				if (*end || n < 2 || n > 1000000)
					return error("%s wants a number >= 2, not '%s'", arg, val);
				if (!strcmp(arg, "--min-iterations"))
					a->min_iterations = (int)n;
				else
					a->max_iterations = (int)n;
			} else {
				char *end;
				long n = strtol(val, &end, 10);

				if (*end || n < 1 || n > 1000000)
					return error("--iterations wants a positive number, not '%s'", val);
				a->iterations = (int)n;
			}
		} else if (!strcmp(arg, "--quick")) {
			a->quick = true;
		} else if (!strcmp(arg, "--no-counters")) {
			a->no_counters = true;
		} else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
			mmb_quiet = 1;
		} else if (arg[0] == '-' && arg[1]) {
			return error("unknown option '%s' (see `mmbench run --help`)", arg);
		} else if (!a->config) {
			a->config = arg;
		} else {
			return error("unexpected argument '%s': one CONFIG at a time", arg);
		}
	}
	if (!a->config)
		return error("usage: mmbench run CONFIG [--name LABEL] [--db FILE] [--iterations N] [--quick] [--set KEY=VALUE] [-q]");
	if (a->label && !*a->label)
		return error("--name must not be empty");
	if ((a->min_iterations || a->max_iterations) && !a->precision)
		return error("--min-iterations and --max-iterations go with --precision");
	if (a->precision) {
		if (!a->min_iterations)
			a->min_iterations = PRECISION_MIN_N;
		if (!a->max_iterations)
			a->max_iterations = a->min_iterations * 16 > 200 ? a->min_iterations * 16 : 200;
		if (a->max_iterations < a->min_iterations)
			return error("--max-iterations %d is below --min-iterations %d",
				     a->max_iterations, a->min_iterations);
	}
	return 0;
}

/* Print `mmbench compare BASE LABEL` for the same database; compare's exit code. */
static int compare_after_run(struct mmb_db *db, const char *want, const char *label)
{
	const char *argv[] = { "/proc/self/exe", "compare", "--db", db_path(db), "", label, NULL };
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
	argv[4] = base;
	rc = run_argv(argv, NULL, NULL);
	free(base);
	return rc < 0 ? EXIT_RUNTIME : rc;
}

static void on_stop(int sig)
{
	runner_request_stop(sig);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct experiment exp;
	struct plan plan;
	struct plan_opts po = { 0 };
	struct unit_ctx u;
	struct mmb_db db;
	struct sysinfo si;
	struct runner_stats st;
	struct result_sink sink;
	struct sigaction sa;
	struct kernel_info ki = { 0 };
	struct machine_info mi = { 0 };
	struct run_info ri = { 0 };
	int64_t kid, mid, run_id;
	off_t mark;
	const char *status;
	int ret = EXIT_OK;

	if (parse_args(argc, argv, &a)) {
		free(a.sets);
		return EXIT_USAGE;
	}
	experiment_init(&exp);
	if (experiment_load(&exp, a.config)) {
		experiment_release(&exp);
		free(a.sets);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < a.nsets; i++)
		if (experiment_set_env(&exp, a.sets[i])) {
			experiment_release(&exp);
			free(a.sets);
			return EXIT_USAGE;
		}
	free(a.sets);
	a.sets = NULL;
	exp.no_counters |= a.no_counters;
	unit_ctx_host(&u);
	po.iterations = a.iterations;
	po.quick = a.quick;
	po.only = a.workload;
	ret = plan_build(&plan, &exp, &u, &po);
	if (ret) {
		plan_release(&plan);
		experiment_release(&exp);
		return ret == PLAN_PLUGIN_CRASHED ? EXIT_RUNTIME : EXIT_USAGE;
	}
	if (a.precision > 0) {
		plan.precision = a.precision;
		plan.min_iterations = a.min_iterations;
		plan.max_iterations = a.max_iterations;
		plan.total_iterations = 0;
		for (size_t i = 0; i < plan.nwls; i++)
			plan.total_iterations += plan.wls[i].nvariants *
						 (size_t)(plan.wls[i].warmup + a.max_iterations);
	}
	if (envctl_lock()) {
		plan_release(&plan);
		experiment_release(&exp);
		return EXIT_RUNTIME;
	}
	if (db_open(&db, db_default_path(a.db))) {
		plan_release(&plan);
		experiment_release(&exp);
		return EXIT_RUNTIME;
	}

	sysinfo_collect(&si);
	ki.label = a.label ? a.label : si.release;
	ki.release = si.release;
	ki.version = si.version;
	ki.cmdline = si.cmdline;
	ki.config_hash = si.config_hash;
	ki.compiler = NULL;	/* the kernel's compiler is known only for built kernels */
	mi.hostname = si.hostname;
	mi.cpu_model = si.cpu_model;
	mi.ncpus = si.ncpus;
	mi.mem_bytes = si.mem_bytes;
	kid = db_kernel_upsert(&db, &ki);
	mid = db_machine_upsert(&db, &mi);
	ri.kernel_id = kid;
	ri.machine_id = mid;
	ri.experiment = exp.name;
	ri.config_path = a.config;
	ri.config_text = exp.text;
	ri.release = si.release;
	ri.version = si.version;
	ri.cmdline = si.cmdline;
	ri.config_hash = si.config_hash;
	ri.harness_version = MMB_VERSION;
	ri.git_sha = MMB_GIT_SHA;
	ri.compiler = si.compiler;
	ri.accel = a.accel ? a.accel : "host";
	run_id = kid > 0 && mid > 0 ? db_run_begin(&db, &ri) : -1;
	if (run_id < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	info("run %lld: experiment '%s' on kernel '%s' (%s), %zu iterations",
	     (long long)run_id, exp.name, ki.label, si.release, plan.total_iterations);

	/*
	 * Ctrl-C / SIGTERM / SIGHUP (the terminal closed): stop after killing
	 * the current child, restore, record the run as interrupted.
	 */
	envctl_install_signal_handlers();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	mark = envctl_mark();
	sink_sqlite_init(&sink, &db, run_id);
	if (runner_env_apply(&exp, &sink) || runner_env_record(&db, run_id)) {
		envctl_restore_to(mark);
		db_run_finish(&db, run_id, "failed");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (runner_run(&plan, &sink, &st))
		ret = EXIT_RUNTIME;
	if (envctl_restore_to(mark))
		ret = EXIT_RUNTIME;
	status = st.interrupted ? "interrupted" : ret ? "failed" : "complete";
	db_run_finish(&db, run_id, status);

	if (!mmb_quiet || !st.interrupted) {
		printf("\nrun %lld (%s): %d ok, %d failed, %d skipped", (long long)run_id, status,
		       st.ok, st.failed, st.skipped);
		/* said only when it happened: clean runs keep the old line */
		if (st.disturbed)
			printf(", %d disturbed (compare leaves them out)", st.disturbed);
		printf("\n");
		summary_print_run(stdout, &db, run_id);
	}
	if (a.compare && !st.interrupted) {
		/* a comparison that could not be made fails the command too */
		int crc = compare_after_run(&db, a.compare, ki.label);

		if (crc && !ret)
			ret = crc;
	}
	if (st.interrupted) {
		error("interrupted by signal %d; finished iterations are kept in %s (run %lld)",
		      runner_stop_signal(), db_path(&db), (long long)run_id);
		ret = EXIT_RUNTIME;
	} else if (st.failed) {
		error("%d iteration(s) failed; see `mmbench show %lld`", st.failed,
		      (long long)run_id);
		ret = EXIT_RUNTIME;
	}
out:
	sysinfo_release(&si);
	db_close(&db);
	plan_release(&plan);
	experiment_release(&exp);
	return ret;
}
