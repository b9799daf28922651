/*
 * mmbench compare [options] BASE NEW... (docs/help/compare.txt)
 *
 * Pools the samples of every complete or interrupted run of each kernel
 * label, tests each NEW against BASE per (workload, variant, metric), adjusts
 * the p-values of the whole table together (Benjamini-Hochberg) and prints
 * one of the table styles.  Without --format: a readable table with n, mean,
 * change, 95% CI, p and a verdict.
 */
#include "builtin.h"
#include "bymachine.h"
#include "compare.h"
#include "db.h"
#include "monlist.h"
#include "parse-options.h"
#include "profcmp.h"
#include "query.h"
#include "render.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option *compare_opts;	/* cmd_compare's table, for the usage */

static int compare_usage(const char *fmt, const char *arg)
{
	error(fmt, arg);
	parse_options_usage(stderr, compare_opts, "compare", "BASE NEW...");
	return EXIT_USAGE;
}

int cmd_compare(int argc, char **argv)
{
	const char *dbpath = NULL, *format = NULL, *by = NULL;
	struct query_filter filter = { 0 };
	const char **labels = xcalloc((size_t)argc + 1, sizeof(*labels));
	size_t nlabels = 0;
	const struct renderer *fmt = renderers[0];
	enum stats_test_kind kind = STATS_WELCH;
	enum stats_mean_kind mean = STATS_MEAN_AUTO;
	enum stats_unit unit = STATS_UNIT_AUTO;
	enum monitors_mode monitors = MONITORS_CHANGED;
	struct compare_select sel;
	struct mmb_db db;
	bool profile = false, verbose = false;
	int ret, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "format", &format, "F",
			   "output layout (default text; mmbench help compare lists them)"),
		OPT_STRING(0, "by", &by, "machine", "one comparison per machine, then the change"
			   " per machine"),
		COMPARE_SELECT_OPTIONS(&filter, &kind, &mean, &unit),
		OPT_MONITORS(&monitors),
		OPT_BOOL(0, "no-guard", &filter.no_guard,
			 "raw verdicts: disturbed values kept, none made inconclusive"),
		OPT_BOOL(0, "profile", &profile, "then the perf-profile rows (run --profile)"),
		OPT_BOOL(0, "verbose", &verbose, "each row's variance components: between runs,"
			 " within a run"),
		OPT_END(),
	};

	compare_opts = opts;
	n = parse_options(argc, argv, opts, "compare", "BASE NEW...", 0);
	if (n < 0) {
		free(labels);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		for (size_t j = 0; j < nlabels; j++)
			if (!strcmp(labels[j], argv[i]))
				warning("label '%s' is given twice: it is compared with itself"
					" (an A/A comparison)", argv[i]);
		labels[nlabels++] = argv[i];
	}
	if (format && !(fmt = renderer_find(format))) {
		struct strbuf names = STRBUF_INIT;

		renderer_names(&names);
		free(labels);
		error("unknown format '%s' (formats: %s)", format, names.buf);
		strbuf_release(&names);
		parse_options_usage(stderr, compare_opts, "compare", "BASE NEW...");
		return EXIT_USAGE;
	}
	if (by && strcmp(by, "machine")) {
		free(labels);
		return compare_usage("--by '%s': the only grouping is --by machine", by);
	}
	if (profile && !(fmt->flags & RENDER_NOTES)) {
		free(labels);
		return compare_usage("--profile adds a text table: not with --format %s", format);
	}
	if (nlabels < 2) {
		free(labels);
		return compare_usage("%s", nlabels ? "need a NEW kernel label to compare with BASE"
					       : "need BASE and NEW kernel labels");
	}

	db_single_thread();
	if ((ret = command_open_db(&db, dbpath))) {
		free(labels);
		return ret;
	}
	compare_select_init(&sel, labels, nlabels);
	sel.filter = filter;
	sel.test = kind;
	sel.mean = mean;
	sel.unit = unit;
	sel.verbose = verbose;
	sel.need = COMPARE_NEED_COMMON;
	sel.meta = true;
	sel.monitors = monitors;
	ret = by ? render_show_by_machine(&db, &sel, fmt, stdout)
		 : render_show(&db, &sel, fmt, stdout);
	if (profile && ret == EXIT_OK) {
		fputc('\n', stdout);
		ret = profcmp_show(&db, labels, nlabels, &filter, stdout);
	}
	db_close(&db);
	free(labels);
	return ret;
}
