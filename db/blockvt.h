/*
 * The table-valued function mmb_samples(data[, n]) -> (key, iteration,
 * seq, value): the samples of one sample block (db/block.h), binary or
 * JSON; a malformed block is an SQL error naming why.
 */
#ifndef MMB_DB_BLOCKVT_H
#define MMB_DB_BLOCKVT_H

#include <sqlite3.h>

/* SQLITE_OK or SQLite's error code. */
int db_block_vtab_register(sqlite3 *db);
/*
 * That and, for mmbench's own SQL, mmb_block_bad(data, n) (NULL for a
 * sound block of n samples, else why not) and mmb_block_pack(data, n)
 * (the block as binary, an SQL error for a bad one).
 */
int db_block_sql_register(sqlite3 *db);

#endif
