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
#include "query.h"
#include "util.h"

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
	enum stats_unit unit = STATS_UNIT_AUTO;
	struct compare_select sel;
	struct mmb_db db;
	int n, rc, ret;
	const char *format = NULL, *size = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "out", &outdir, "DIR", "where to write the files"),
		OPT_STRING(0, "format", &format, "FMT", "png, svg or pdf"),
		OPT_STRING(0, "size", &size, "WxH", "picture size in pixels"),
		COMPARE_SELECT_OPTIONS(&filter, &o.test, &mean, &unit),
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
	if ((rc = command_open_db(&db, dbpath)))
		return rc;
	compare_select_init(&sel, (const char *const *)argv, (size_t)n);
	sel.filter = filter;
	sel.test = o.test;
	sel.mean = mean;
	sel.unit = unit;
	o.outdir = outdir;
	ret = plot_show(&db, &sel, &o);
	db_close(&db);
	return ret;
}
