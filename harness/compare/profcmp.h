/*
 * compare --profile and the report's profile section (docs/profiles.md):
 * the perf profiles of BASE and each NEW label, per workload variant, as
 * lkp's perf-profile rows.  A row's value is the mean share (% of the
 * sampled period) over the label's profiled runs, a run without the entry
 * counting 0; the change is new minus base in percentage points.  Rows
 * where neither side reaches PROFCMP_MIN are left out (lkp's
 * perf-profile floor); the rest are sorted by the absolute change.
 */
#ifndef MMB_PROFCMP_H
#define MMB_PROFCMP_H

#include "db.h"
#include "profile.h"
#include "query.h"

#include <stdio.h>

struct strbuf;

#define PROFCMP_MIN 1.0		/* % of the period on one side, at least */
#define PROFCMP_TOP 20		/* rows per kind compare prints */
#define PROFCMP_REPORT_TOP 10	/* rows per kind in the report */

struct profcmp_row {
	enum profile_kind kind;
	char *name;		/* "clear_page_erms", "a.b.c" */
	double mean[2], sd[2];	/* base, new; sd: population, over the runs */
	double change;		/* mean[1] - mean[0], percentage points */
};

struct profcmp_group {
	char *workload, *variant;
	const char *label[2];	/* base, new (the set's strings) */
	char *event[2];		/* each side's event; "a,b" when its runs differ */
	bool no_pmu;		/* either side sampled cpu-clock for want of a PMU */
	bool builtin[2];	/* a side has the built-in sampler's profiles (every CPU) */
	size_t nprof[2];	/* profiles pooled per side */
	int64_t samples[2];	/* their samples, summed */
	struct profcmp_row *rows;	/* calltrace first, then self; by |change| */
	size_t nr;
};

struct profcmp {
	struct profcmp_group *g;
	size_t ng;
};

/*
 * The profiles of labels[0] against each further label, from the runs
 * compare pools (usable ones; f's --last, workload and variant).  0,
 * QUERY_EUNKNOWN after naming an unknown label, or -1.
 */
int profcmp_load(struct mmb_db *db, const char *const *labels, size_t n,
		 const struct query_filter *f, struct profcmp *pc);
void profcmp_release(struct profcmp *pc);

/* compare --profile: lkp blocks, top rows per kind; a note when there is nothing. */
void profcmp_lkp(struct strbuf *out, const struct profcmp *pc, size_t top);
/* The report's section: text within width columns, and markdown. */
void profcmp_report_text(struct strbuf *out, const struct profcmp *pc, size_t top, int width);
void profcmp_report_md(struct strbuf *out, const struct profcmp *pc, size_t top);

/* `mmbench compare --profile`'s part: load and print; an exit code. */
int profcmp_show(struct mmb_db *db, const char *const *labels, size_t n,
		 const struct query_filter *f, FILE *out);

#endif
