/*
 * mmbench report's bundle: report.txt, report.md and report.html from one
 * comparison value, each paragraph written once through the emitter
 * (report-emit.h), and the plots (plot/) beside them.  The command
 * (builtin-report.c) parses the options, opens the DB and the comparison
 * and fills struct report.
 */
#ifndef MMB_REPORT_H
#define MMB_REPORT_H

#include "compare.h"
#include "plot.h"
#include "profcmp.h"
#include "render.h"

#include <stdbool.h>
#include <stddef.h>

/* What the report shows, read before it is written: it reads no database. */
struct report {
	const struct query_set *qs;	/* the comparison's: cmp.qs */
	struct compare cmp;
	struct profcmp prof;		/* the profiles of run --profile (profcmp_load()) */
	const struct renderer *fmt;	/* mmtests or lkp */
	enum stats_test_kind test;
	enum stats_mean_kind mean;	/* --mean */
	const char *outdir;
	char *machine;
	size_t nmachines;
	struct plot_list plots;
	bool plots_on;
	bool all_monitors;		/* --monitors all: every monitor row listed */
};

/* The plots of the KPI rows into rp->outdir, listed in rp->plots.  0 or -1 (said). */
int report_draw_plots(struct report *rp);
/* report.txt, report.md and report.html into rp->outdir.  0 or -1 (said). */
int report_write_bundle(struct report *rp, const char *title);

/* report-html.c: the comparison as HTML tables, one per workload, verdict cells coloured */
void report_html_tables(struct strbuf *html, const struct compare *c);

#endif
