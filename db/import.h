/*
 * Writing imported samples packed: one sample_blocks row per series and
 * file, data = the JSON text [[iteration, seq, value], ...] (schema.c).
 */
#ifndef MMB_DB_IMPORT_H
#define MMB_DB_IMPORT_H

#include "db.h"

#include <stddef.h>
#include <stdint.h>

struct db_blocks;

/* The writer of run_id's blocks; NULL after an error naming the file. */
struct db_blocks *db_blocks_begin(struct mmb_db *db, int64_t run_id);
/* One block of n samples of series_id; data[0..len) as above.  0 or -1 (message printed). */
int db_blocks_add(struct db_blocks *b, int64_t series_id, size_t n, const char *data, size_t len);
void db_blocks_end(struct db_blocks *b);
/* The blocks added from now on belong to run_id. */
void db_blocks_set_run(struct db_blocks *b, int64_t run_id);

#endif
