/*
 * libFuzzer target: sample blocks as a hostile database holds them.  Byte 0
 * picks text (JSON, NUL-terminated as SQLite gives it) or blob; bytes 1-3
 * the row's n (0: not checked).  Every input decodes or is refused, through
 * db_block_decode() and through the SQL functions the samples view and
 * merge's checks call; a decoded block re-encodes to the same samples.
 */
#include "block.h"
#include "blockvt.h"
#include "util.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct got {
	int it[64], sq[64];
	double v[64];
	size_t n;
};

static int keep(void *ctx, int64_t k, int iteration, int seq, double value)
{
	struct got *g = ctx;

	if (k < 64) {
		g->it[k] = iteration;
		g->sq[k] = seq;
		g->v[k] = value;
		g->n = (size_t)k + 1;
	}
	return 0;
}

static void through_sql(const char *p, size_t len, int text, unsigned n)
{
	static const char *const q[] = {
		"SELECT count(*), sum(value) FROM mmb_samples(?1, ?2)",
		"SELECT mmb_block_bad(?1, ?2)",
		"SELECT length(mmb_block_pack(?1, ?2))",
	};
	static sqlite3 *db;

	if (!db && (sqlite3_open(":memory:", &db) != SQLITE_OK || db_block_sql_register(db)))
		abort();
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db, q[i], -1, &st, NULL) != SQLITE_OK)
			abort();
		if (text)
			sqlite3_bind_text(st, 1, p, (int)len, SQLITE_STATIC);
		else
			sqlite3_bind_blob(st, 1, p, (int)len, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, n ? n : 1);
		while (sqlite3_step(st) == SQLITE_ROW)
			;
		sqlite3_finalize(st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct got g = { .n = 0 };
	const char *why;
	unsigned n;
	char *p;
	int text;

	if (size < 4)
		return 0;
	text = data[0] & 1;
	n = (unsigned)data[1] | (unsigned)data[2] << 8 | (unsigned)data[3] << 16;
	p = xmalloc(size - 4 + 1);
	memcpy(p, data + 4, size - 4);
	p[size - 4] = '\0';
	if (!db_block_decode(p, size - 4, n, keep, &g, &why) && g.n && g.n < 64) {
		size_t len;
		unsigned char *b = db_block_encode(g.it, g.sq, g.v, g.n, &len, &why);
		struct got h = { .n = 0 };

		if (!b || db_block_decode(b, len, g.n, keep, &h, &why) || h.n != g.n ||
		    memcmp(h.it, g.it, g.n * sizeof(int)) || memcmp(h.sq, g.sq, g.n * sizeof(int)) ||
		    memcmp(h.v, g.v, g.n * sizeof(double)))
			abort();
		free(b);
	}
	through_sql(p, size - 4, text, n);
	free(p);
	return 0;
}
