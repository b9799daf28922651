/*
 * Merging another results database file into this one: `mmbench merge`
 * and `mmbench fleet collect` (not to be confused with db/guest-stream.h, the
 * guest's row stream).
 *
 * Every run of the source that the target does not already hold (runs are
 * named by their uuid column, schema migration 4) is copied with its
 * kernel (by label), machine, environment, iterations, samples (rows and
 * packed blocks), monitors and whatever else hangs off a run or an
 * iteration (any table with a run_id or iteration_id column is copied
 * with the ids remapped).  Merging the same file twice adds nothing.
 *
 * A label that names different kernels in the two files (both know the
 * release, or both the config hash, and they differ) is refused, naming
 * both, unless a rename sends the source's label elsewhere.  Runs still
 * 'running' in the source are left out (counted): merge again once they
 * end.  The source is opened as mmbench opens any DB (migrated to this
 * schema, dead runs marked interrupted), then read only.
 *
 * One transaction per file: on any error nothing of that file is merged.
 *
 * db_runs_remove() (`mmbench rm`) lives here too: the same walk over
 * every table that hangs off a run, the other way.
 */
#ifndef MMB_MERGE_FILE_H
#define MMB_MERGE_FILE_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>

/* --rename FROM=TO: the source's label FROM is merged as label TO. */
struct db_rename {
	const char *from, *to;
};

struct db_merge_opts {
	const struct db_rename *renames;
	size_t nrenames;
	const char *name;	/* what messages call the source (NULL: its path) */
};

struct db_merge_result {
	size_t runs_added;		/* copied now */
	size_t runs_present;		/* already in the target (same uuid) */
	size_t runs_running;		/* still running in the source: left out */
	size_t iterations;		/* iteration rows copied */
	size_t samples;			/* samples copied (rows plus values in blocks) */
	bool *rename_used;		/* [nrenames] or NULL: set when a rename applied */
};

#define DB_MERGE_REFUSED (-2)	/* bad input: no such file, not a DB, the
				   target itself, a label conflict (exit 2) */

/*
 * Merge src_path into dst; o may be NULL (no renames), res may be NULL.
 * Returns 0, DB_MERGE_REFUSED or -1 (database error), after one message
 * naming the file and why; res counts what was copied (zeros on error).
 */
int db_merge_file(struct mmb_db *dst, const char *src_path, const struct db_merge_opts *o,
		  struct db_merge_result *res);

/*
 * Remove runs ids[0..n) with every row that hangs off them, and each of
 * their labels no run is left under, in one transaction (all or nothing).
 * *labels_removed (may be NULL) counts the labels.  0 or -1 (said).
 * $MMBENCH_TEST_RM_SLEEP=SECONDS sleeps inside the transaction, before
 * COMMIT, so a test can kill -9 it there.
 */
int db_runs_remove(struct mmb_db *db, const int64_t *ids, size_t n, size_t *labels_removed);

/*
 * The ids of db's runs that src_path also holds (by uuid): what merging
 * it added, as `fleet collect` finds an earlier attempt's runs to replace.
 * 0, DB_MERGE_REFUSED or -1 (said); free(*ids).
 */
int db_runs_of_file(struct mmb_db *db, const char *src_path, int64_t **ids, size_t *n);

#endif
