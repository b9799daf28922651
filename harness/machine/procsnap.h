/*
 * Monitors: snapshots of /proc/vmstat and /proc/meminfo around every
 * iteration, stored as deltas (mmtests' "monitors", lkp's "proc-vmstat").
 */
#ifndef MMB_PROCSNAP_H
#define MMB_PROCSNAP_H

#include <stdbool.h>
#include <stddef.h>

struct monitor_snap {
	char **keys;		/* "vmstat:pgfault", "meminfo:MemFree" */
	double *vals;
	size_t n, alloc;
	size_t held;		/* keys[0..held) allocated: the next take reuses the same names */
};

void monitor_snap_init(struct monitor_snap *s);
void monitor_snap_release(struct monitor_snap *s);
int monitor_take(struct monitor_snap *s, bool vmstat, bool meminfo);
/* Non-zero deltas after - before, keys shared with `after`. */
void monitor_delta(const struct monitor_snap *before, const struct monitor_snap *after,
		   const char ***keys, double **deltas, size_t *n);
/* One value from a snapshot ("vmstat:pgfault"), or -1. */
double monitor_get(const struct monitor_snap *s, const char *key);

#endif
