/*
 * mmbench report [--db FILE] --out DIR [--format mmtests|lkp] BASE NEW...
 *
 * The review bundle: report.txt (email-ready, <= 80 columns), report.md
 * (markdown, plots embedded), report.html (one self-contained page, plots
 * inlined as data: URIs) and the plots with their .gp/.dat files.  This is
 * the command: the options, the DB and the comparison; the bundle is
 * written by the render layer (harness/render/report.c, through the
 * emitter of report-emit.h).  Plots are drawn first: if gnuplot fails, no
 * report file is written.
 */
#include "builtin.h"
#include "compare.h"
#include "monlist.h"
#include "db.h"
#include "plot.h"
#include "plotdb.h"
#include "render.h"
#include "report.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* rp->prof: the profiles of the labels as asked for (kernels' keys).  0 or -1 (said). */
static int report_load_profiles(struct report *rp, struct mmb_db *db,
				const struct query_filter *filter)
{
	const char **keys = xcalloc(rp->qs->nlabels + 1, sizeof(*keys));
	int rc;

	for (size_t i = 0; i < rp->qs->nlabels; i++)
		keys[i] = rp->qs->kernels[i].key;
	rc = profcmp_load(db, keys, rp->qs->nlabels, filter, &rp->prof);
	free(keys);
	return rc ? -1 : 0;
}

/* The comparison the report shows: the selection as compare's, and the table's summaries. */
static void report_select(struct compare_select *sel, char **labels, int n,
			  const struct query_filter *filter, const struct report *rp,
			  enum stats_unit unit, enum monitors_mode monitors)
{
	compare_select_init(sel, (const char *const *)labels, (size_t)n);
	sel->filter = *filter;
	sel->test = rp->test;
	sel->mean = rp->mean;
	sel->unit = unit;
	sel->monitors = monitors;
	sel->mm_sums = rp->fmt->flags & RENDER_MM_SUMS;
	if (rp->plots_on)
		plot_select(sel);	/* the plots draw the value's samples */
}

int cmd_report(int argc, char **argv)
{
	struct report rp;
	struct mmb_db db;	/* read before the report is written, closed after */
	struct compare_select sel;
	struct query_filter filter = { 0 };
	const char *dbpath = NULL, *format = NULL;
	struct strbuf title = STRBUF_INIT;
	bool no_plots = false;
	enum monitors_mode monitors = MONITORS_CHANGED;
	enum stats_unit unit = STATS_UNIT_AUTO;
	int n, rc, ret = EXIT_OK;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "out", &rp.outdir, "DIR", "output directory (required)"),
		OPT_STRING(0, "format", &format, "F", "table layout: mmtests or lkp"),
		OPT_BOOL(0, "no-plots", &no_plots, "no plots"),
		COMPARE_SELECT_OPTIONS(&filter, &rp.test, &rp.mean, &unit),
		OPT_MONITORS(&monitors),
		OPT_END(),
	};

	memset(&rp, 0, sizeof(rp));
	rp.fmt = renderer_find("mmtests");
	rp.test = STATS_WELCH;
	plot_list_init(&rp.plots);
	n = parse_options(argc, argv, opts, "report", "BASE NEW...", 0);
	if (n < 0)
		return EXIT_USAGE;
	rp.plots_on = !no_plots;
	if (format && !strcmp(format, "lkp")) {
		rp.fmt = renderer_find("lkp");
	} else if (format && strcmp(format, "mmtests")) {
		error("--format '%s': expected mmtests or lkp", format);
		return EXIT_USAGE;
	}
	if (!rp.outdir) {
		error("report needs --out DIR (the bundle is several files)");
		return EXIT_USAGE;
	}
	if (n < 2) {
		error("report needs a baseline and at least one kernel label to compare: BASE NEW...");
		return EXIT_USAGE;
	}
	report_select(&sel, argv, n, &filter, &rp, unit, monitors);
	if ((rc = command_open_db(&db, dbpath)))
		return rc;
	rp.all_monitors = monitors == MONITORS_ALL;
	rc = compare_open(&db, &sel, &rp.cmp);
	if (rc) {
		db_close(&db);
		return mmb_exit_code(rc);
	}
	rp.qs = rp.cmp.qs;
	if (compare_all_disturbed(&rp.cmp, &title)) {
		/* a report of zeros would say "no significant change" */
		error("no report: %s", title.buf);
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	if (mkdir_p(rp.outdir, 0755) < 0) {
		error("--out %s: cannot create directory: %s", rp.outdir, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	rp.machine = plot_machine_caption(&db, rp.qs, &rp.nmachines);
	if (rp.plots_on && report_draw_plots(&rp) < 0) {
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	strbuf_addf(&title, "mmbench report: %s vs", rp.qs->kernels[0].label);
	for (size_t i = 1; i < rp.qs->nlabels; i++)
		strbuf_addf(&title, "%s %s", i > 1 ? "," : "", rp.qs->kernels[i].label);
	if (report_load_profiles(&rp, &db, &filter) < 0 ||
	    report_write_bundle(&rp, title.buf) < 0) {
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	printf("%s/report.txt\n%s/report.md\n%s/report.html\n", rp.outdir, rp.outdir, rp.outdir);
	for (size_t i = 0; i < rp.plots.nr; i++)
		printf("%s/%s\n", rp.outdir, rp.plots.items[i].name);
	fflush(stdout);	/* the list first, then the summary on stderr */
	info("wrote the review bundle (%zu plots) to %s; paste report.txt into the mail", rp.plots.nr,
	     rp.outdir);
out_cmp:
	profcmp_release(&rp.prof);
	compare_release(&rp.cmp);
	strbuf_release(&title);
	plot_list_release(&rp.plots);
	free(rp.machine);
	db_close(&db);
	return ret;
}
