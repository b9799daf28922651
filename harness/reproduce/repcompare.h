/*
 * What `mmbench reproduce` prints once results are recorded: the 0-day
 * table with our row under the report's, for the KPI and for the rows the
 * report lists beside it that mmbench measures (proc-vmstat.*, meminfo.*,
 * <testcase>.time.*, perf-stat.*), then one verdict line per commit column
 * and per such row, and the report rows that cannot be measured here, with
 * why.  Everything comes from the comparison value (compare.h): nothing is
 * tested again.
 */
#ifndef MMB_REPCOMPARE_H
#define MMB_REPCOMPARE_H

#include "db.h"
#include "lkpreport.h"
#include "reproduce.h"

#include <stdbool.h>
#include <stddef.h>

struct repro_columns {
	const char *const *labels;	/* [n] the DB's labels, base first */
	const char *const *titles;	/* [n] 'sha ("subject")' */
	const int *rcol;		/* [n] the report's column of each, -1: none */
	size_t n;
	bool keep_disturbed;		/* --keep-disturbed: pool disturbed iterations */
};

/*
 * Returns how many non-base columns reproduced the KPI, or -1 on a
 * database error.  *complete: every column had 2+ runs to compare.
 */
int repro_print_comparison(struct mmb_db *db, const struct lkp_report *r,
			   const struct repro_plan *p, const struct repro_columns *cols,
			   bool *complete);

/*
 * mmbench's name of a report row: lkp's perf-stat.{i,ps,overall,total}.EVENT
 * is perf-stat.EVENT here (a total over the timed region); other names are
 * the same.  Writes into buf.
 */
const char *repro_monitor_name(const char *lkp_name, char *buf, size_t len);

#endif
