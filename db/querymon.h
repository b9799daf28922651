/*
 * Monitor rows for comparisons: the per-iteration deltas in `monitors`
 * (vmstat, meminfo, perf-stat, time, interference) pooled per kernel label
 * like samples, under lkp's names.  The rules for which rows a comparison
 * lists are not here (harness/compare/monlist.c): a callback decides.
 */
#ifndef MMB_QUERYMON_H
#define MMB_QUERYMON_H

#include "query.h"

#include <stdbool.h>

/*
 * lkp's name of a monitor row: vmstat -> proc-vmstat.KEY, meminfo ->
 * meminfo.KEY, perf-stat -> perf-stat.KEY, time -> WORKLOAD.time.KEY,
 * interference -> interference.KEY; NULL for the harness's own rows
 * (counters.overhead_ms) and unknown sources.  Malloc'ed.
 */
char *monrow_name(const char *source, const char *key, const char *workload);

/* Decide whether a loaded row goes into the set (before any test). */
typedef bool (*monrow_keep_fn)(const struct query_set *qs, const struct query_row *row,
			       void *arg);

/*
 * Append to qs the monitor rows of every (workload, variant) that already
 * has a row in qs, from the runs query_load() pooled, measured ok
 * iterations only; disturbed iterations are counted, not pooled, unless qs
 * kept them.  vmstat and meminfo store only non-zero deltas: an iteration
 * that has the source but not the key counts as 0.  interference: add
 * those rows too.  Rows keep (keep may be NULL) returns false for are
 * dropped.  0, or -1 after an error naming the file.
 */
int monrows_load(struct mmb_db *db, struct query_set *qs, bool interference,
		 monrow_keep_fn keep, void *arg);

/*
 * An imported run's monitor value: source/key of the run's iteration
 * (workload, variant "", iteration), the iterations row made on first use
 * (status ok).  0, or -1 after an error.
 */
int monrows_import(struct mmb_db *db, int64_t run_id, const char *workload, int iteration,
		   const char *source, const char *key, double value);

#endif
