/*
 * Monitor rows in comparisons: which of the "why" rows (proc-vmstat.*,
 * meminfo.*, perf-stat.*, <workload>.time.*) compare, the report and
 * ab/reproduce list.  The rules are lkp's (docs/monitors.md): minimum
 * runs, median ratio and absolute floors decide which rows are tested at
 * all; a tested row is listed when it changed significantly under the
 * comparison's own test, its p-value adjusted together with the KPIs'.
 * Monitor rows never count in the headline verdict.
 */
#ifndef MMB_MONLIST_H
#define MMB_MONLIST_H

#include "compare.h"
#include "querymon.h"

enum monitors_mode {
	MONITORS_CHANGED,	/* default: the rows lkp's rules and the test list */
	MONITORS_ALL,		/* every monitor row, tested */
	MONITORS_NONE,		/* none loaded */
};

int monitors_mode_parse(const char *s, enum monitors_mode *m);

/* --monitors changed|all|none in a parse-options table (compare, report). */
struct option;
int monitors_opt(const struct option *opt, const char *arg);	/* enum monitors_mode * */
#define OPT_MONITORS(v)									\
	OPT_CALLBACK(0, "monitors", (v), "M", "monitor rows: changed (default), all or none",	\
		     monitors_opt)

/* lkp's rules before any test, for label a against base b (see docs/monitors.md). */
#define MON_MIN_RUNS 3		/* skipped when both sides have fewer */
#define MON_RATIO_MIN 1.01	/* median ratio must exceed this */
#define MON_RATIO_OTHER 1.05	/* ... and this, for names that are not perf metrics */
#define MON_RATIO_CAP 5.0
#define MON_VMSTAT_MAX 1000	/* proc-vmstat.* and meminfo.*: max must exceed it */
/* lkp's perf-metrics-threshold.yaml for name: 1 keep, 0 drop, -1 no pattern matches. */
int monitors_threshold(const char *name, double max, double delta);
bool monitors_candidate(const char *name, const struct query_series *b,
			const struct query_series *a);

/* Add qs's monitor rows (none for MONITORS_NONE); 0 or -1. */
int monitors_add(struct mmb_db *db, struct query_set *qs, enum monitors_mode m);
/*
 * After compare_build(): drop the monitor rows that did not change (for
 * MONITORS_CHANGED), put the rest after the KPI rows in lkp's order
 * (per workload and variant: groups by how many rows they list, fewest
 * first, then by name) and count only the KPI rows in the headline.
 */
void monitors_settle(struct compare *c, enum monitors_mode m);
/* Monitor rows c lists. */
size_t monitors_listed(const struct compare *c);
/* KPI rows of a settled c: rows [0, n) (the monitor rows follow). */
size_t monitors_kpi_rows(const struct compare *c);
/* One line per changed monitor row and label: "pft proc-vmstat.pgfault: new -47.1% (...)". */
void monitors_lines(struct strbuf *out, const struct compare *c, bool all);
/*
 * The line after a table that says monitor rows are listed and how (none:
 * nothing); hidden: the table left them out, and says where they are.
 */
void monitors_note(struct strbuf *out, const struct compare *c, enum monitors_mode m, bool hidden);

#endif
