/* The per-metric summary printed after a run and by `mmbench show`. */
#ifndef MMB_SUMMARY_H
#define MMB_SUMMARY_H

#include "db.h"
#include <stdio.h>

/* n, Hmean (higher is better) or Amean (lower is better), CoV per metric. */
int summary_print_run(FILE *f, struct mmb_db *db, int64_t run_id);

#endif
