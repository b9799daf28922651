/*
 * `mmbench run --resume RUN`: continue an interrupted run into the same
 * run id -- the experiment text, kernel and machine it recorded, and only
 * the iterations it did not record.
 */
#ifndef MMB_RESUME_H
#define MMB_RESUME_H

#include "config.h"
#include "db.h"
#include "plan.h"
#include "read.h"
#include "sysinfo.h"

/*
 * The run to resume, read before anything is planned: 0 and d filled
 * (release it), or the exit code after one error (EXIT_USAGE: no such
 * run, or nothing to resume; EXIT_RUNTIME: still running, a DB error).
 */
int resume_read(const char *dbpath, int64_t run_id, struct db_run_detail *d);

/*
 * Mark in p what the run recorded (d[0..n)): a variant with all its
 * planned measured iterations, or a skip, is done; the others go on after
 * their last one, with their warm-ups again.  p->total_iterations becomes
 * what is left.  Pure; 0, or -1 after an error when the records do not fit
 * the plan.
 */
int resume_plan(struct plan *p, int64_t run_id, const struct db_variant_done *d, size_t n);

/*
 * In the open DB, under the machine lock: run_id is still interrupted and
 * was measured with exp's text on this kernel (si) and machine; fit p to
 * what it recorded and take the run over (status running, our pid).  0,
 * or the exit code after one error; *label gets the run's kernel label.
 */
int resume_claim(struct mmb_db *db, int64_t run_id, const struct experiment *exp,
		 const struct sysinfo *si, struct plan *p, char **label);

#endif
