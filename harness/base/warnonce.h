/*
 * One line per kind of plugin warning in a run.  A plugin that warns from
 * every iteration would bury the run's output under copies of one line
 * ("32768 pages touched but 2048 minor faults measured" twelve times), so
 * the runner prints the first of a kind in full and, at the end of the run,
 * one line with how many times it came.  Two messages are of a kind when
 * they are equal after every run of digits is masked.
 */
#ifndef MMB_WARNONCE_H
#define MMB_WARNONCE_H

#include <stdbool.h>
#include <stddef.h>

/* Count msg; true when it is the first of its kind (print it now). */
bool warnonce_first(const char *msg);
/* How many of msg's kind were counted since the last flush. */
size_t warnonce_count(const char *msg);
/*
 * Print "warning: <first message> (repeated N times)" for each kind seen
 * more than once, N counting every occurrence, then forget them all.
 */
void warnonce_flush(void);

#endif
