/*
 * mmbench run CONFIG: run an experiment on the running kernel and record
 * every sample in the database under a kernel label.
 */
#include "builtin.h"
#include "config.h"
#include "precision.h"
#include "session.h"
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
