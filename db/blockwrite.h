/*
 * Writing imported samples packed: one sample_blocks row per series and
 * file, data = a packed binary block (db/block.h; older databases hold
 * JSON text, which readers still decode).
 */
#ifndef MMB_BLOCKWRITE_H
#define MMB_BLOCKWRITE_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct db_blocks;

/* The writer of run_id's blocks; NULL after an error naming the file. */
struct db_blocks *db_blocks_begin(struct mmb_db *db, int64_t run_id);
/* One block of n samples of series_id; data[0..len) as above.  0 or -1 (message printed). */
int db_blocks_add(struct db_blocks *b, int64_t series_id, size_t n, const void *data, size_t len);
void db_blocks_end(struct db_blocks *b);
/* The blocks added from now on belong to run_id. */
void db_blocks_set_run(struct db_blocks *b, int64_t run_id);

/*
 * Rewrite the JSON blocks with ids above after_id as binary (an older
 * file's, a merged source's), 256 blocks a statement: outside a
 * transaction each batch commits, so a kill midway leaves both kinds and
 * the next writer goes on.  progress: a counter on stderr.  0 or -1.
 */
int db_blocks_convert(struct mmb_db *db, int64_t after_id, bool progress);

/*
 * Packs the sample_values rows of run_id (ended) into blocks, one per
 * series (and per 2^20 samples) in the order of the series' first rows,
 * in one transaction (runpack.c).  Rows a reader could not place again by
 * iteration number stay rows.  Not inside another transaction (then the
 * next writer packs them).  0, or -1 after a warning: the rows stay.
 */
int db_run_pack(struct mmb_db *db, int64_t run_id);
/* Every ended run's rows, a transaction a run (a writer's open, merge). 0; a failure is warned. */
int db_runs_pack(struct mmb_db *db, bool progress);

#endif
