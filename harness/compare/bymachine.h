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

/* The machines some runs were made on, grouped. */
struct mgroup {
	const struct query_machine *m;	/* its first row */
	int64_t *ids;			/* its machine rows' ids, ascending */
	size_t n;
};

struct machines {
	struct query_machine *rows;
	size_t n;
	struct mgroup *g;
	size_t ng;
};

/* The machine rows ids[0..n) (ascending; a dangling id is skipped), grouped. */
int machines_load(struct mmb_db *db, const int64_t *ids, size_t n, struct machines *ms);
void machines_release(struct machines *ms);
/* Add id to the ascending set ids[0..*n) (once). */
void machine_id_add(int64_t **ids, size_t *n, size_t *alloc, int64_t id);

/* A machine as the layouts print it, copied from its group's first machine row. */
struct mpart_machine {
	int64_t id;
	const char *hostname, *cpu_model;	/* the text of struct bymachine's ms */
	int ncpus;
	uint64_t mem_bytes;
	const int64_t *rows;		/* its machine rows' ids, ascending */
	size_t nrows;
};

/* One machine's part of `compare --by machine`: its comparison, or why there is none. */
struct mpart {
	const struct mgroup *g;		/* NULL: no run records a machine */
	const struct mpart_machine *m;	/* &machine, or NULL with g */
	struct mpart_machine machine;
	struct compare c;
	bool compared;
	const char *missing;		/* a label without a run here */
	char *column;			/* its name in the change table */
};

/* `compare --by machine`'s value: a comparison per machine, for the layouts. */
struct bymachine {
	const struct compare_select *s;
	struct mpart *p;
	size_t np;
	struct machines ms;		/* what p[].g point into */
};

/*
 * Open s once per machine that ran its labels (bm->s = s, which must
 * outlive bm): 0; MMB_EUSAGE after one error (an unknown label, no machine
 * ran every label); -1 on a database error.  bymachine_release() after.
 */
int bymachine_open(struct mmb_db *db, const struct compare_select *s, struct bymachine *bm);
void bymachine_release(struct bymachine *bm);

#endif
