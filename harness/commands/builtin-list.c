/* mmbench list workloads|runs|kernels */
#include "builtin.h"
#include "db.h"
#include "parse-options.h"
#include "read.h"
#include "plan.h"
#include "plugin.h"
#include "runner.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *param_type(enum mmb_param_type t)
{
	switch (t) {
	case MMB_PARAM_INT: return "int";
	case MMB_PARAM_SIZE: return "size";
	case MMB_PARAM_DURATION: return "duration";
	case MMB_PARAM_BOOL: return "bool";
	case MMB_PARAM_ENUM: return "enum";
	case MMB_PARAM_STRING: return "string";
	case MMB_PARAM_DOUBLE: return "double";
	}
	return "?";
}

/* supported() with the defaults, so the list says what can run here. */
static char *why_unsupported(const struct plugin *pl, int *ret)
{
	struct unit_ctx u;
	struct mmb_value *vals;
	char *why = NULL;
	char err[256];

	if (!(pl->hooks & PLUGIN_HAS_SUPPORTED))
		return NULL;
	unit_ctx_host(&u);
	vals = xcalloc(pl->nparams ? pl->nparams : 1, sizeof(*vals));
	for (size_t i = 0; i < pl->nparams; i++)
		if (pl->params[i]->def)
			plan_parse_value(pl->params[i], pl->params[i]->def, &u, &vals[i], err,
					 sizeof(err));
	/* in a child: a crashing supported() is reported, not fatal */
	if (plugin_call_supported(pl, runner_host_table(), vals, &why)) {
		why = xstrdup("its supported() crashed");
		*ret = -1;
	}
	free(vals);
	return why;
}

static int list_workloads(bool verbose)
{
	char **names;
	size_t n;
	int ret = 0;

	plugin_list(&names, &n);
	if (!n)
		return error("no workload plugins found (searched $MMBENCH_PLUGIN_PATH, %s/workloads, the install dir)",
			     exe_dir());
	for (size_t i = 0; i < n; i++) {
		struct plugin pl;
		char *why;

		if (plugin_load(&pl, names[i])) {
			ret = -1;
			plugin_release(&pl);
			free(names[i]);
			continue;
		}
		why = why_unsupported(&pl, &ret);
		printf("%-18s %s", pl.w.name, pl.w.summary);
		if (why)
			printf("  [cannot run here: %s]", why);
		printf("\n");
		free(why);
		if (verbose) {
			printf("  file: %s (ABI %u.%u)\n", pl.path, pl.w.abi_major, pl.w.abi_minor);
			for (size_t p = 0; p < pl.nparams; p++) {
				const struct mmb_param_def *d = pl.params[p];

				printf("  param  %-16s %-8s default %-10s %s", d->name, param_type(d->type),
				       d->def ? d->def : "(required)", d->help ? d->help : "");
				if (d->type == MMB_PARAM_ENUM)
					printf(" {%s}", d->choices);
				if (d->min < d->max) {
					char lo[32], hi[32];

					plan_format_value(d->type, d->min, lo, sizeof(lo));
					plan_format_value(d->type, d->max, hi, sizeof(hi));
					printf(" [%s..%s]", lo, hi);
				}
				printf("\n");
			}
			for (size_t m = 0; m < pl.nmetrics; m++) {
				const struct mmb_metric_def *d = pl.metrics[m];

				printf("  metric %-24s %-12s %s\n", d->name, d->unit,
				       d->better > 0 ? "higher is better" : "lower is better");
			}
		}
		plugin_release(&pl);
		free(names[i]);
	}
	free(names);
	return ret;
}

static void fmt_time(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	localtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static int list_runs(struct mmb_db *db)
{
	struct db_run_line *v;
	size_t n;

	if (db_list_runs(db, &v, &n))
		return -1;
	printf("%5s  %-19s  %-11s  %-6s  %5s  %6s  %9s  %8s  %-20s  %s\n", "run", "started",
	       "status", "accel", "iters", "failed", "disturbed", "samples", "experiment", "kernel");
	for (size_t i = 0; i < n; i++) {
		char when[32];

		fmt_time(v[i].started, when, sizeof(when));
		printf("%5lld  %-19s  %-11s  %-6s  %5d  %6d  %9d  %8d  %-20s  %s\n",
		       (long long)v[i].id, when, ctl_show(v[i].status), ctl_show(v[i].accel),
		       v[i].iterations, v[i].failed, v[i].disturbed, v[i].samples,
		       ctl_show(v[i].experiment), ctl_show(v[i].label));
	}
	db_run_lines_free(v, n);
	return 0;
}

static int list_kernels(struct mmb_db *db)
{
	struct db_kernel_line *v;
	size_t n;

	if (db_list_kernels(db, &v, &n))
		return -1;
	printf("%-32s  %-28s  %4s  %8s  %s\n", "label", "release", "runs", "samples", "base commit");
	for (size_t i = 0; i < n; i++)
		printf("%-32s  %-28s  %4d  %8d  %s\n", ctl_show(v[i].label), ctl_show(v[i].release),
		       v[i].runs, v[i].samples, ctl_show(v[i].base_commit));
	db_kernel_lines_free(v, n);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	const char *what = NULL, *dbpath = NULL;
	bool verbose = false;
	struct mmb_db db;
	int ret, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_BOOL('v', "verbose", &verbose, "workloads: parameters and metrics too"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, "list", "workloads|runs|kernels", 0);
	if (n < 0)
		return EXIT_USAGE;
	if (n > 1)
		die_usage("unexpected argument '%s'", argv[1]);
	what = argv[0];
	if (!what) {
		error("what to list? workloads, runs or kernels");
		parse_options_usage(stderr, opts, "list", "workloads|runs|kernels");
		return EXIT_USAGE;
	}
	if (!strcmp(what, "workloads"))
		return list_workloads(verbose) ? EXIT_RUNTIME : EXIT_OK;
	if (strcmp(what, "runs") && strcmp(what, "kernels"))
		die_usage("cannot list '%s'; choose workloads, runs or kernels", what);
	if ((ret = command_open_db(&db, dbpath)))
		return ret;
	ret = !strcmp(what, "runs") ? list_runs(&db) : list_kernels(&db);
	db_close(&db);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}
