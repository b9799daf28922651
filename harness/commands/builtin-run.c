/*
 * mmbench run CONFIG: run an experiment on the running kernel and record
 * every sample in the database under a kernel label.
 */
#include "builtin.h"
#include "config.h"
#include "kbuild.h"
#include "parse-options.h"
#include "precision.h"
#include "read.h"
#include "resume.h"
#include "session.h"
#include "units.h"
#include "quiet.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	bool profile;		/* --profile: one perf-profiled iteration per variant */
	double precision;	/* --precision: 0 off */
	int min_iterations, max_iterations;
	const char **sets;	/* --set KEY=VALUE, in order */
	size_t nsets;
	int64_t resume;		/* --resume RUN: 0 off */
	double wait_quiet_s;	/* --wait-quiet[=TIMEOUT]: 0 off */
};

/* --wait-quiet[=TIMEOUT]: wait up to TIMEOUT (default 30 min) for a quiet machine. */
int opt_wait_quiet(const struct option *opt, const char *v)
{
	int64_t ns = 0;
	char err[160] = "";

	if (!v) {
		*(double *)opt->value = QUIET_TIMEOUT_DEFAULT_S;
		return 0;
	}
	if (units_parse_duration(v, &ns, err, sizeof(err)) < 0 || ns <= 0)
		return error("--wait-quiet=%s: %s", v, ns <= 0 && !err[0] ? "a time limit > 0" : err);
	*(double *)opt->value = (double)ns / 1e9;
	return 0;
}

/* --resume RUN: a run id, a positive whole number. */
static int opt_run_id(const struct option *opt, const char *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || end == v || *end || n <= 0)
		return error("--resume wants a run id (`mmbench list runs`), not '%s'", v);
	*(int64_t *)opt->value = n;
	return 0;
}

/* What a run asked for, apart from its CONFIG and where it goes (see plan_options()). */
static bool has_plan_options(const struct run_args *a)
{
	return a->label || a->iterations || a->quick || a->workload || a->accel || a->precision ||
	       a->min_iterations || a->max_iterations || a->nsets || a->no_counters ||
	       a->profile;
}

/*
 * 0, or -1 after one error: the option parse, then what goes together.
 * stored: argv is a run's recorded options (runs.options), no CONFIG.
 */
static int parse_args(int argc, char **argv, struct run_args *a, bool stored)
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
			     precision_opt),
		OPT_LIST(0, "set", &a->sets, &a->nsets, "KEY=VALUE", "override the experiment"),
		{ .type = OPTION_INT, .long_name = "min-iterations", .value = &a->min_iterations,
		  .argh = "N", .help = "with --precision: the first look", .min = 2,
		  .max = 1000000, .what = "a number >= 2" },
		{ .type = OPTION_INT, .long_name = "max-iterations", .value = &a->max_iterations,
		  .argh = "N", .help = "with --precision: give up after N", .min = 2,
		  .max = 1000000, .what = "a number >= 2" },
		OPT_BOOL(0, "no-counters", &a->no_counters, "count no perf events"),
		OPT_CALLBACK(0, "resume", &a->resume, "RUN", "go on with an interrupted run",
			     opt_run_id),
		OPT_BOOL(0, "profile", &a->profile, "profile each variant with perf record"),
		OPT_WAIT_QUIET(&a->wait_quiet_s),
		OPT_SET_INT('q', "quiet", &mmb_quiet, 1, "no progress line, no messages"),
		OPT_END(),
	};

	memset(a, 0, sizeof(*a));
	if (parse_one_operand(argc, argv, opts, "run", "CONFIG", ": one CONFIG at a time", NULL,
			      &a->config))
		return -1;
	if (stored && (a->config || a->resume || a->label || a->db || a->compare || a->accel))
		return error("not one of the options a run records");
	if (a->resume && has_plan_options(a))
		return error("--resume goes on with run %lld's own options; give only --db, --compare, -q and the CONFIG it ran",
			     (long long)a->resume);
	if (!a->config && !a->resume && !stored)
		return error("which CONFIG?"), parse_options_usage(stderr, opts, "run", "CONFIG"), -1;
	if (a->label && !*a->label)
		return error("--name must not be empty");
	if (a->label && name_check("--name", a->label))
		return -1;
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

/*
 * The options that shape the plan, one "--opt=value" per line: recorded
 * with the run (runs.options) so --resume plans the same.  "" for none.
 */
static char *plan_options(const struct run_args *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	if (a->iterations)
		strbuf_addf(&sb, "--iterations=%d\n", a->iterations);
	if (a->quick)
		strbuf_addstr(&sb, "--quick\n");
	if (a->workload)
		strbuf_addf(&sb, "--workload=%s\n", a->workload);
	if (a->precision)
		strbuf_addf(&sb, "--precision=%.17g\n--min-iterations=%d\n--max-iterations=%d\n",
			    a->precision, a->min_iterations, a->max_iterations);
	if (a->no_counters)
		strbuf_addstr(&sb, "--no-counters\n");
	if (a->profile)
		strbuf_addstr(&sb, "--profile\n");
	for (size_t i = 0; i < a->nsets; i++)
		strbuf_addf(&sb, "--set=%s\n", a->sets[i]);	/* one line: --set checked it */
	return strbuf_detach(&sb);
}

/* A run's recorded options back into o (its strings point into *buf): 0 or -1. */
static int parse_stored(const char *options, int64_t id, struct run_args *o, char **buf)
{
	char **argv = xcalloc(strlen(options) + 2, sizeof(*argv));
	int argc = 1;

	*buf = xstrdup(options);
	argv[0] = "run";
	for (char *p = *buf, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		argv[argc++] = p;
	}
	if (parse_args(argc, argv, o, true)) {
		free(argv);
		free(o->sets);
		o->sets = NULL;
		return error("run %lld's recorded options (runs.options) do not parse: the DB was edited?",
			     (long long)id);
	}
	free(argv);
	if (o->precision)
		return error("run %lld iterated to a precision (--precision): resuming such a run is not supported",
			     (long long)id);
	return 0;
}

/* The run's experiment: CONFIG (which must be what it recorded) or the recorded text. */
/* The run's --set KEY=VALUE overrides, in order: 0, or -1 after the first bad one. */
static int apply_sets(struct experiment *exp, const struct run_args *a)
{
	for (size_t i = 0; i < a->nsets; i++)
		if (experiment_set_env(exp, a->sets[i]))
			return -1;
	return 0;
}

static int resume_experiment(struct experiment *exp, const struct run_args *a,
			     const struct run_args *o, const struct db_run_detail *d)
{
	char *name = xasprintf("run %lld's experiment", (long long)a->resume);
	int ret;

	ret = a->config ? experiment_load(exp, a->config)
			: experiment_load_string(exp, name, d->config_raw);
	free(name);
	if (!ret)
		ret = apply_sets(exp, o);
	if (!ret && !a->config) {
		/* the text as recorded (it already carries the "# --set" lines) */
		free(exp->text);
		exp->text = xstrdup(d->config_raw);
	}
	exp->no_counters |= o->no_counters;
	return ret;
}

/* run --resume RUN [CONFIG]: the run's own options and text, into its own id. */
static int cmd_run_resume(const struct run_args *a)
{
	struct db_run_detail d;
	struct run_args o;
	struct experiment exp;
	struct run_request rq = { 0 };
	char *buf = NULL;
	int ret;

	ret = resume_read(db_default_path(a->db), a->resume, &d);
	if (ret)
		return ret;
	experiment_init(&exp);
	if (parse_stored(d.options, a->resume, &o, &buf) || resume_experiment(&exp, a, &o, &d)) {
		ret = EXIT_USAGE;
		goto out;
	}
	rq.config_path = d.config_path;
	rq.db = a->db;
	rq.compare = a->compare;
	rq.workload = o.workload;
	rq.iterations = o.iterations;
	rq.quick = o.quick;
	rq.profile = o.profile;
	rq.resume = a->resume;
	rq.wait_quiet_s = a->wait_quiet_s;
	ret = run_experiment(&exp, &rq);
out:
	experiment_release(&exp);
	free(o.sets);
	free(buf);
	db_run_detail_release(&d);
	return ret;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The experiments in the configs folder dir, sorted: "quick", "pft", ... */
static char **config_names(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t alloc = 0;

	*n = 0;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 5 || strcmp(e->d_name + len - 5, ".yaml"))
			continue;
		ALLOC_GROW(v, *n + 1, alloc);
		v[(*n)++] = xstrndup(e->d_name, len - 5);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

/* One error: where CONFIG was looked for, the name it is close to, the names there. */
static void config_not_found(const char *arg, const char *base)
{
	char *dir = mmb_data_file("configs"), **v = NULL, *want = xstrndup(base, strcspn(base, "."));
	struct strbuf names = STRBUF_INIT;
	const char *near = NULL;
	size_t n = 0;

	if (dir)
		v = config_names(dir, &n);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", v[i]);
	near = n ? closest_name(want, v, n) : NULL;
	if (near && dir)
		error("%s: no such file, nor an experiment of that name in %s; did you mean '%s'?",
		      arg, dir, near);
	else
		error("%s: no such file, nor an experiment of that name in %s%s%s%s", arg,
		      dir ? dir : "the configs folder (not found: is mmbench installed?)",
		      n ? " (" : "", n ? names.buf : "", n ? ")" : "");
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(dir);
	free(want);
	strbuf_release(&names);
}

/*
 * CONFIG as given when it is a file; else a bare name ("quick",
 * "quick.yaml") or "configs/NAME" from the configs folder of the checkout
 * or the installation (mmb_data_file()), so the installed tool runs its
 * own configs from anywhere.  NULL after one error naming where it looked.
 */
static char *config_resolve(const char *arg)
{
	const char *base = strncmp(arg, "configs/", 8) ? arg : arg + 8;
	char *rel, *path;

	if (access(arg, F_OK) == 0 || (strchr(base, '/') && base == arg))
		return xstrdup(arg);	/* a file, or a path of the user's: experiment_load() says */
	rel = xasprintf("configs/%s", base);
	path = mmb_data_file(rel);
	free(rel);
	if (!path && !strstr(base, ".yaml")) {
		rel = xasprintf("configs/%s.yaml", base);
		path = mmb_data_file(rel);
		free(rel);
	}
	if (!path)
		config_not_found(arg, base);
	return path;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct experiment exp;
	struct run_request rq = { 0 };
	char *options, *config;
	int ret;

	if (parse_args(argc, argv, &a, false)) {
		free(a.sets);
		return EXIT_USAGE;
	}
	if (a.resume)
		return cmd_run_resume(&a);
	config = config_resolve(a.config);
	if (!config) {
		free(a.sets);
		return EXIT_USAGE;
	}
	a.config = config;
	experiment_init(&exp);
	if (experiment_load(&exp, a.config) || apply_sets(&exp, &a)) {
		experiment_release(&exp);
		free(a.sets);
		free(config);
		return EXIT_USAGE;
	}
	options = plan_options(&a);
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
	rq.profile = a.profile;
	rq.wait_quiet_s = a.wait_quiet_s;
	rq.precision = a.precision;
	rq.min_iterations = a.min_iterations;
	rq.max_iterations = a.max_iterations;
	rq.options = options;
	ret = run_experiment(&exp, &rq);
	experiment_release(&exp);
	free(options);
	free(config);
	return ret;
}
