/*
 * `mmbench export --format json` and its import: the rows behind a set of
 * runs, table by table, as JSON (docs/store.md):
 *
 *   {"mmbench_export": 1, "schema": N, "tables": {
 *     "kernels": {"columns": ["id", "label", ...], "rows": [[1, "a", ...], ...]},
 *     "machines": ..., "runs": ..., "series": ..., "iterations": ...,
 *     "run_env": ..., "sample_values": ..., "sample_blocks": ..., "monitors": ...}}
 *
 * Every column of every table that hangs off a run (a run_id or an
 * iteration_id column, whatever a later migration adds), so nothing is
 * lost: disturbed marks, interference levels, monitors, environment,
 * machine, uuid.  Values keep their SQLite type: NULL as null, integers
 * as integers, reals always with a '.' or an exponent (17 significant
 * digits: they read back bit for bit), text as strings.
 */
#ifndef MMB_DB_DUMP_H
#define MMB_DB_DUMP_H

#include "db.h"

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct json;

/*
 * Write the usable runs (complete, interrupted) of labels[0..nl) and
 * runs[0..nr) (both empty: all) with their rows into out, calling
 * flush(out, arg) whenever out holds a few MB (it empties out; non-zero
 * stops: returned).  *nruns counts the runs.  0; -2 after naming an
 * unknown label or run; -1 on a DB error.
 */
int db_dump_json(struct mmb_db *db, const char *const *labels, size_t nl, const int64_t *runs,
		 size_t nr, struct strbuf *out, int (*flush)(struct strbuf *out, void *arg),
		 void *arg, size_t *nruns);

/*
 * Insert a parsed export (j, read from file) into db, an empty database
 * of this schema, in one transaction: tables and columns must be ours,
 * each row as long as its columns.  0; -2 after "FILE:LINE:COL: why";
 * -1 on a DB error.  *labels / *nlabels: the kernels' labels (malloc'ed).
 */
int db_dump_load(struct mmb_db *db, const struct json *j, const char *file, char ***labels,
		 size_t *nlabels);

#endif
