/*
 * Reading back what the runner noted about each iteration besides its
 * samples: the interference record (monitors, source 'interference') and
 * why it was disturbed.  `show` prints it; see harness/machine/interference.h.
 */
#ifndef MMB_NOTES_H
#define MMB_NOTES_H

#include "db.h"

#include <stddef.h>
#include <stdint.h>

struct iteration_note {
	char *workload, *variant;
	int iteration;			/* measured: 1..N; warm-up: -N..-1 */
	char *disturbed;		/* NULL when clean */
	double foreign_share, steal_share, iowait_s, load1, nivcsw, freq_khz;
	double mem_available_bytes, pswpin, pswpout;	/* NAN when not recorded */
};

/* Every measured iteration of a run with an interference record, in order. */
int db_iteration_notes(struct mmb_db *db, int64_t run_id, struct iteration_note **out,
		       size_t *n);
void db_iteration_notes_free(struct iteration_note *v, size_t n);

/*
 * The perf counters of a run (monitors, sources 'perf-stat' and 'counters',
 * docs/counters.md) over its measured ok iterations, per (workload,
 * variant, key), in the order they were recorded.
 */
struct perf_stat_row {
	char *workload, *variant, *key;	/* key: "perf-stat.page-faults" */
	double mean, min, max;
	int n;
};
int db_perf_stat_rows(struct mmb_db *db, int64_t run_id, struct perf_stat_row **out,
		      size_t *n);
void db_perf_stat_rows_free(struct perf_stat_row *v, size_t n);

/*
 * Add why to the disturbed reasons of every measured iteration of run_id
 * (what the host saw during a VM run: the guest could not see it).  0 or -1.
 */
int db_run_disturb(struct mmb_db *db, int64_t run_id, const char *why);

#endif
