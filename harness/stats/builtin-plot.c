/*
 * mmbench plot [--db FILE] [--out DIR] [--format png|svg|pdf]
 *              [--workload W] [--metric M] BASE NEW...
 *
 * Draws, per workload and metric, a scaling plot (metric vs clients or
 * threads) or per-operation box plots, the relative-change chart and one
 * distribution plot per variant.  Each picture comes with its .gp script
 * and .dat data so a reviewer can re-render or tweak it.
 */
#include "builtin.h"
#include "compare.h"
#include "db.h"
#include "plot.h"
#include "plotdb.h"
#include "progress.h"
#include "query.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a = strtol(s, &end, 10), b;

	if (end == s || (*end != 'x' && *end != 'X'))
		return -1;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || a < 200 || b < 150 || a > 10000 || b > 10000)
		return -1;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	const char *dbpath = NULL, *outdir = ".";
	struct query_filter filter = { 0 };
	struct plot_opts o;
	enum stats_mean_kind mean = STATS_MEAN_AUTO;
	struct mmb_db db;
	struct query_set qs;
	struct compare cmp;
	struct plot_group *groups = NULL;
	struct plot_list list;
	size_t ngroups = 0, nmachines = 0;
	char *machine = NULL;
	int n, rc, ret = EXIT_OK;
	const char *format = NULL, *size = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "out", &outdir, "DIR", "where to write the files"),
		OPT_STRING(0, "format", &format, "FMT", "png, svg or pdf"),
		OPT_STRING(0, "size", &size, "WxH", "picture size in pixels"),
		COMPARE_SELECT_OPTIONS(&filter, &o.test, &mean),
		OPT_END(),
	};

	plot_opts_init(&o);
	n = parse_options(argc, argv, opts, "plot", "BASE NEW...", 0);
	if (n < 0)
		return EXIT_USAGE;
	if (format && plot_format_parse(format, &o.format) < 0) {
		error("--format '%s': expected png, svg or pdf", format);
		return EXIT_USAGE;
	}
	if (size && parse_size(size, &o.width, &o.height) < 0) {
		error("--size '%s': expected WIDTHxHEIGHT in pixels, e.g. 800x600", size);
		return EXIT_USAGE;
	}
	if (n < 2) {
		error("plot needs a baseline and at least one kernel label to compare: BASE NEW...");
		return EXIT_USAGE;
	}
	rc = db_open_existing(&db, db_default_path(dbpath));
	if (rc)
		return rc == DB_ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	rc = query_load(&db, (const char *const *)argv, (size_t)n, &filter, &qs);
	if (rc == QUERY_EUNKNOWN) {
		db_close(&db);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		db_close(&db);
		return EXIT_RUNTIME;
	}
	if (!qs.nr) {
		error("no samples of %s%s%s%s%s for these kernels in %s",
		      filter.workload ? "workload '" : "any workload",
		      filter.workload ? filter.workload : "", filter.workload ? "'" : "",
		      filter.metric ? " metric " : "", filter.metric ? filter.metric : "", db_path(&db));
		ret = EXIT_USAGE;
		goto out_qs;
	}
	if (mkdir_p(outdir, 0755) < 0) {
		error("--out %s: cannot create directory: %s", outdir, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out_qs;
	}
	if (gnuplot_check() < 0) {
		ret = EXIT_RUNTIME;
		goto out_qs;
	}
	machine = plot_machine_caption(&db, &qs, &nmachines);
	if (nmachines > 1)
		warning("the kernels were measured on %zu different machines: %s", nmachines, machine);
	o.outdir = outdir;
	o.machine = machine;
	compare_build_mean(&cmp, &qs, o.test, mean);
	plot_groups_build(&cmp, &groups, &ngroups);
	plot_list_init(&list);
	o.batch = gnuplot_batch_new(outdir);
	for (size_t i = 0; i < ngroups; i++) {
		if (plot_group_all(&groups[i], &o, &list) < 0) {
			ret = EXIT_RUNTIME;
			break;
		}
	}
	if (ret == EXIT_OK) {
		if (progress_enabled())
			progress_update("plot: drawing %zu pictures with gnuplot", gnuplot_batch_size(o.batch));
		if (gnuplot_batch_run(o.batch) < 0) {
			ret = EXIT_RUNTIME;
		}
		if (progress_enabled())
			progress_clear();
		plot_list_drop_skipped(&list, o.batch);
	}
	gnuplot_batch_free(o.batch);
	for (size_t i = 0; ret == EXIT_OK && i < list.nr; i++)
		printf("%s/%s\n", outdir, list.items[i].name);
	fflush(stdout);	/* the list first, then the summary on stderr */
	if (ret == EXIT_OK)
		info("wrote %zu plots (with their .gp and .dat files) to %s", list.nr, outdir);
	plot_list_release(&list);
	plot_groups_free(groups, ngroups);
	compare_release(&cmp);
	free(machine);
out_qs:
	query_set_release(&qs);
	db_close(&db);
	return ret;
}
