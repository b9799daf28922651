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

static const char *param_type(enum mmb_param_type t)
{
	static const char *const names[] = {
		[MMB_PARAM_INT] = "int", [MMB_PARAM_SIZE] = "size",
		[MMB_PARAM_DURATION] = "duration", [MMB_PARAM_BOOL] = "bool",
		[MMB_PARAM_ENUM] = "enum", [MMB_PARAM_STRING] = "string",
		[MMB_PARAM_DOUBLE] = "double",
	};

	return (size_t)t < ARRAY_SIZE(names) && names[t] ? names[t] : "?";
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

		command_format_time(when, sizeof(when), v[i].started, "%Y-%m-%d %H:%M:%S");
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
	int ret;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_BOOL('v', "verbose", &verbose, "workloads: parameters and metrics too"),
		OPT_END(),
	};

	if (parse_one_operand(argc, argv, opts, "list", "workloads|runs|kernels", "",
			      "what to list? workloads, runs or kernels", &what))
		return EXIT_USAGE;
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
