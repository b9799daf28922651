/*
 * Sample blocks (table sample_blocks, column data): the packed binary
 * format and the JSON text older databases hold.  Both decode here, so a
 * reader opens either; a block from elsewhere is untrusted
 * (docs/security.md): a bad header, a length that does not add up or a
 * non-finite value is an error, never a crash or a wrong number.
 *
 * Binary layout (docs/store.md), all integers little-endian:
 *   bytes 0-3   magic "MMBK"
 *   byte  4     version (1)
 *   byte  5     iteration coding: 0 raw (n x int32), 1 run-length
 *               (u32 runs, then runs x {int32 iteration, u32 count}),
 *               2 arithmetic (int32 first, int32 step: first + k * step)
 *   byte  6     seq coding: 0 raw (n x int32), 1 all zero, 2 counts
 *               0, 1, 2, ... from each change of iteration
 *   byte  7     0 (reserved)
 *   bytes 8-11  n, u32, 1 .. 2^24 - 1 (the column n)
 *   then the iteration array, the seq array and n x float64 (IEEE 754,
 *   little-endian), finite; nothing after them.
 */
#ifndef MMB_DB_BLOCK_H
#define MMB_DB_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define DB_BLOCK_MAGIC "MMBK"
#define DB_BLOCK_VERSION 1
#define DB_BLOCK_MAX_N 16777215u

/* Called per sample in block order; k counts from 0.  Non-zero stops the decode. */
typedef int (*db_block_fn)(void *ctx, int64_t k, int iteration, int seq, double value);

/*
 * Decodes data[0..len), binary or JSON "[[iteration, seq, value], ...]"
 * (JSON text must have a NUL at data[len], as sqlite3_column_text gives),
 * calling fn per sample.  0 on success; -1 with a reason in why (static
 * text) when the block is malformed; fn's non-zero value when it stopped.
 * n_expected, if non-zero, is the column n the block must hold.
 */
int db_block_decode(const void *data, size_t len, size_t n_expected,
		    db_block_fn fn, void *ctx, const char **why);

/*
 * A binary block's iterations and values straight into iteration[0..n)
 * and value[0..n) (n its count; seq is not read), checked as
 * db_block_decode() checks them: 0, or -1 with why.  n_expected as there.
 */
int db_block_unpack(const void *data, size_t len, size_t n_expected, int *iteration,
		    double *value, const char **why);

/* Whether data[0..len) starts as a binary block does. */
int db_block_is_binary(const void *data, size_t len);

/*
 * Encodes n samples (1 .. DB_BLOCK_MAX_N, values finite) into a new
 * malloc()ed buffer, choosing the smallest coding for each array.
 * Returns it and sets *len; NULL (with why) for bad input.
 */
unsigned char *db_block_encode(const int *iteration, const int *seq, const double *value,
			       size_t n, size_t *len, const char **why);

#endif
