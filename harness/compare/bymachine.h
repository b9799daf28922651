/*
 * Results of several machines: which machine rows are one machine, the
 * refusal to pool different machines, and `compare --by machine` (one
 * comparison per machine, then the change of each row per machine).
 * See docs/store.md.
 */
#ifndef MMB_BYMACHINE_H
#define MMB_BYMACHINE_H

#include "compare.h"
#include "query.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One machine: the same hostname, CPU model and CPU count, and memory
 * within MACHINE_MEM_SLACK of each other (MemTotal moves by some MB from
 * one kernel to the next, so each kernel booted makes its own row).
 */
#define MACHINE_MEM_SLACK 0.05
bool machine_same(const struct query_machine *a, const struct query_machine *b);
/*
 * Group ms[0..n): group_of[i] is ms[i]'s group, groups numbered in the
 * order of their first member (each row joins the first group whose
 * first member it matches).  Returns the number of groups.
 */
size_t machine_group(const struct query_machine *ms, size_t n, size_t *group_of);

/*
 * compare_open()'s check: qs's pooled runs (those with a machine) must
 * come from one machine.  0; MMB_EUSAGE after one message listing the
 * machines (id, hostname, CPU model, the labels run there) and pointing
 * at --by machine; -1 on a database error.
 */
int compare_check_machines(struct mmb_db *db, const struct query_set *qs);

/* `compare --by machine`: as compare_show(), one comparison per machine. */
int compare_show_by_machine(struct mmb_db *db, const struct compare_select *s,
			    enum compare_format f, FILE *out);

#endif
