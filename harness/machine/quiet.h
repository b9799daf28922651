/*
 * `run --wait-quiet`: wait until the machine is quiet by the interference
 * monitor's own limits (others' CPU share and steal, interference.h), so a
 * run measures the workload and not a neighbour.
 */
#ifndef MMB_QUIET_H
#define MMB_QUIET_H

#include "interference.h"

#define QUIET_WINDOW_S		1.0	/* one look at the machine */
#define QUIET_WINDOWS		3	/* quiet looks in a row that count as quiet */
#define QUIET_TIMEOUT_DEFAULT_S	1800.0	/* --wait-quiet without a time limit */

/*
 * Look every QUIET_WINDOW_S until QUIET_WINDOWS looks in a row are within
 * l (a progress line on a terminal says what is busy).  0 once quiet; -1
 * after timeout_s (> 0) with one error naming the last look and what to do.
 */
int machine_wait_quiet(const struct interference_limits *l, double timeout_s);

/* One look of window_s: foreign and steal shares of our CPUs (NAN: hidden). */
void machine_look(double window_s, double *foreign, double *steal);

#endif
