/*
 * The notes of a query's iterations (disturbed mark, interference level),
 * found by iteration id for the runner's rows and, for the measured
 * iterations, by (run, workload, variant, number) for blocks, which name
 * iterations by number (schema migration 11).  Internal to db/.
 */
#ifndef MMB_DB_ITERNOTES_H
#define MMB_DB_ITERNOTES_H

#include "db-internal.h"
#include "queryseries.h"

struct num_note;

struct iter_notes {
	struct iter_note *byid;
	size_t nbyid;
	struct num_note *bynum;	/* measured iterations only */
	size_t nbynum;
};

/* One run's (workload, variant): its notes by number, n 0 when it has none. */
struct note_group {
	const struct num_note *v;
	size_t n;
};

/* The columns iter_notes_read() reads, in this order. */
#define ITER_NOTES_COLS "id, d, lvl, run_id, workload, variant, warmup, iteration"

/* st's rows (ITER_NOTES_COLS) into *out, st finalized: 0, or -1 after db_fail(). */
int iter_notes_read(struct mmb_db *db, sqlite3_stmt *st, struct iter_notes *out);
const struct iter_note *iter_notes_by_id(const struct iter_notes *n, int64_t iteration_id);
struct note_group iter_notes_group(const struct iter_notes *n, int64_t run,
				   const char *workload, const char *variant);
/* Iteration number `iteration`'s note in g, or NULL. */
const struct iter_note *note_group_find(const struct note_group *g, int iteration);
void iter_notes_release(struct iter_notes *n);

#endif
