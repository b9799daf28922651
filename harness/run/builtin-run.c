/*
 * mmbench run CONFIG: run an experiment on the running kernel and record
 * every sample in the database under a kernel label.
 */
#include "builtin.h"
#include "config.h"
#include "parse-options.h"
#include "precision.h"
#include "session.h"
#include "units.h"
#include "util.h"

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

/* --precision: "1%" or "0.01", a fraction in (0, 1). */
static int opt_precision(const struct option *opt, const char *v)
{
	double d;

	if (units_parse_share(v, &d) || !(d > 0 && d < 1))
		return error("--precision wants a share like 1%% (0-100%%, exclusive), not '%s'", v);
	*(double *)opt->value = d;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	const struct option opts[] = {
		OPT_STRING(0, "name", &a->label, "LABEL", "kernel label of the samples"),
		OPT_STRING(0, "db", &a->db, "FILE", "results database"),
		{ .type = OPTION_INT, .long_name = "iterations", .value = &a->iterations,
		  .argh = "N", .help = "measured iterations for every workload", .min = 1,
		  .max = 1000000, .what = "a positive number" },
		OPT_BOOL(0, "quick", &a->quick, "smoke test"),
		OPT_STRING(0, "workload", &a->workload, "NAME", "run only this workload"),
		OPT_STRING(0, "accel", &a->accel, "NAME", "what the kernel runs on"),
		OPT_STRING(0, "compare", &a->compare, "LABEL", "compare with LABEL after the run"),
		OPT_CALLBACK(0, "precision", &a->precision, "P", "iterate to this 95% CI",
			     opt_precision),
		OPT_LIST(0, "set", &a->sets, &a->nsets, "KEY=VALUE", "override the experiment"),
		{ .type = OPTION_INT, .long_name = "min-iterations", .value = &a->min_iterations,
		  .argh = "N", .help = "with --precision: the first look", .min = 2,
		  .max = 1000000, .what = "a number >= 2" },
		{ .type = OPTION_INT, .long_name = "max-iterations", .value = &a->max_iterations,
		  .argh = "N", .help = "with --precision: give up after N", .min = 2,
		  .max = 1000000, .what = "a number >= 2" },
		OPT_BOOL(0, "no-counters", &a->no_counters, "count no perf events"),
		OPT_SET_INT('q', "quiet", &mmb_quiet, 1, "no progress line, no messages"),
		OPT_END(),
	};
	int n;

	memset(a, 0, sizeof(*a));
	n = parse_options(argc, argv, opts, "run", "CONFIG", 0);
	if (n < 0)
		return -1;
	if (n > 1)
		return error("unexpected argument '%s': one CONFIG at a time", argv[1]);
	a->config = argv[0];
	if (!a->config)
		return error("which CONFIG?"), parse_options_usage(stderr, opts, "run", "CONFIG"), -1;
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

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct experiment exp;
	struct run_request rq = { 0 };
	int ret;

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
	rq.config_path = a.config;
	rq.label = a.label;
	rq.db = a.db;
	rq.workload = a.workload;
	rq.accel = a.accel;
	rq.compare = a.compare;
	rq.iterations = a.iterations;
	rq.quick = a.quick;
	rq.precision = a.precision;
	rq.min_iterations = a.min_iterations;
	rq.max_iterations = a.max_iterations;
	ret = run_experiment(&exp, &rq);
	experiment_release(&exp);
	return ret;
}
