/*
 * One status line on a terminal (stderr); not on a terminal a plain
 * "progress: ..." line, the first at once and then at most one every 30 s
 * (a log shows a long run is alive); silent with -q.
 */
#ifndef MMB_PROGRESS_H
#define MMB_PROGRESS_H

#include "util.h"

void progress_update(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
/* Erase the line before other output goes to the terminal. */
void progress_clear(void);
/* "1h02m", "3m05s", "12s" */
void format_eta(double seconds, char *buf, size_t len);

#endif
