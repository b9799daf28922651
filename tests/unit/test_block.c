/* Sample blocks: binary round trips, JSON still read, hostile blocks refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "block.h"
#include "blockvt.h"

#include <sqlite3.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct got {
	size_t n;
	int it[64], seq[64];
	double v[64];
};

static int collect(void *ctx, int64_t k, int it, int seq, double v)
{
	struct got *g = ctx;

	assert_int_equal(k, (int64_t)g->n);
	if (g->n < 64) {
		g->it[g->n] = it;
		g->seq[g->n] = seq;
		g->v[g->n] = v;
	}
	g->n++;
	return 0;
}

static void round_trip(const int *it, const int *seq, const double *v, size_t n,
		       int itcode, int seqcode)
{
	const char *why = NULL;
	size_t len;
	unsigned char *b = db_block_encode(it, seq, v, n, &len, &why);
	struct got g = { 0 };

	assert_non_null(b);
	assert_true(db_block_is_binary(b, len));
	assert_int_equal(b[5], itcode);
	assert_int_equal(b[6], seqcode);
	assert_int_equal(db_block_decode(b, len, n, collect, &g, &why), 0);
	assert_int_equal(g.n, n);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(g.it[k], it[k]);
		assert_int_equal(g.seq[k], seq[k]);
		assert_memory_equal(&g.v[k], &v[k], sizeof(double));
	}
	/* the array-at-a-time decode compare uses gives the same */
	{
		int uit[64];
		double uv[64];

		assert_int_equal(db_block_unpack(b, len, n, uit, uv, &why), 0);
		assert_memory_equal(uit, it, n * sizeof(*it));
		assert_memory_equal(uv, v, n * sizeof(*v));
		assert_int_equal(db_block_unpack(b, len, n + 1, uit, uv, &why), -1);
	}
	/* every truncation is refused, never read past the end */
	for (size_t cut = 0; cut < len; cut++) {
		int uit[64];
		double uv[64];

		assert_int_equal(db_block_decode(b, cut, 0, collect, &(struct got){ 0 }, &why), -1);
		assert_int_equal(db_block_unpack(b, cut, 0, uit, uv, &why), -1);
	}
	free(b);
}

static void test_codings(void **state)
{
	int it_rle[8] = { 1, 1, 1, 1, 2, 2, 2, 2 }, seq_cnt[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	int it_raw[8] = { 5, 3, 9, 1, 2, 7, 8, 0 }, seq_zero[8] = { 0 };
	int seq_raw[8] = { 4, -1, 7, 0, 2, 2, 9, 1 };
	int it_step[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	double v[8] = { 1.5, -0.0, 1e300, 5e-324, 3.25, 42, -7.125, 0.1 };

	(void)state;
	round_trip(it_rle, seq_cnt, v, 8, 1, 2);
	round_trip(it_rle, seq_zero, v, 8, 1, 1);
	round_trip(it_raw, seq_raw, v, 8, 0, 0);
	round_trip(it_raw, seq_zero, v, 1, 0, 1);
	round_trip(it_step, seq_zero, v, 8, 2, 1);
	round_trip(it_step, seq_zero, v, 2, 2, 1);
	round_trip(it_rle, seq_cnt, v, 4, 2, 2);	/* 1 1 1 1: step 0 */
}

static void test_json_still_read(void **state)
{
	const char *j = " [[1, 0, 2.5], [1,1,3e2] ,[2, 0, -1]] ";
	const char *why = NULL;
	struct got g = { 0 };

	(void)state;
	assert_int_equal(db_block_decode(j, strlen(j), 3, collect, &g, &why), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.it[2], 2);
	assert_int_equal(g.seq[1], 1);
	assert_true(g.v[1] == 300.0);
	assert_int_equal(db_block_decode("[]", 2, 0, collect, &g, &why), 0);
}

static void refused(const void *d, size_t len, size_t n, const char *want)
{
	const char *why = NULL;

	assert_int_equal(db_block_decode(d, len, n, collect, &(struct got){ 0 }, &why), -1);
	assert_non_null(why);
	if (want)
		assert_non_null(strstr(why, want));
	if (db_block_is_binary(d, len)) {	/* what compare reads a block with refuses it too */
		int *it = malloc((len / 8 + 1) * sizeof(*it));
		double *v = malloc((len / 8 + 1) * sizeof(*v));

		why = NULL;
		assert_int_equal(db_block_unpack(d, len, n, it, v, &why), -1);
		assert_non_null(why);
		free(it);
		free(v);
	}
}

static void test_hostile(void **state)
{
	int it[8] = { 1, 1, 1, 1, 2, 2, 2, 2 }, seq[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	double v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, inf = INFINITY;
	int seq_zero_2[2] = { 0, 0 };
	const char *why;
	size_t len;
	/* header, 2 runs at 12: {iteration 1 at 16, count 4 at 20}, {2, 4}; values from 32 */
	unsigned char *b = db_block_encode(it, seq, v, 8, &len, &why), *c = malloc(len);

	(void)state;
	assert_int_equal(len, 32 + 64);
	assert_null(db_block_encode(it, seq, &inf, 1, &len, &why));
	assert_null(db_block_encode(it, seq, v, 0, &len, &why));
	len = 32 + 64;
	memcpy(c, b, len);
	c[4] = 9;
	refused(c, len, 0, "version");
	memcpy(c, b, len);
	c[5] = 7;
	refused(c, len, 0, "coding");
	memcpy(c, b, len);
	c[8] = 3;	/* n = 3, the arrays hold 8 */
	refused(c, len, 0, NULL);
	memcpy(c, b, len);
	refused(c, len, 5, "n");
	memcpy(c, b, len);
	c[12] = 0xff;	/* 255 runs */
	refused(c, len, 0, NULL);
	memcpy(c, b, len);
	c[20] = 5;	/* runs of 5 + 4 for 8 samples */
	refused(c, len, 0, "run");
	memcpy(c, b, len);
	memset(c + len - 8, 0xff, 8);	/* NaN */
	refused(c, len, 0, "finite");
	memcpy(c, b, len);
	memcpy(c + len - 8, "\0\0\0\0\0\0\xf0\x7f", 8);	/* +inf */
	refused(c, len, 0, "finite");
	{
		int big[2] = { INT32_MAX - 1, INT32_MAX };
		unsigned char *a = db_block_encode(big, seq_zero_2, v, 2, &len, &why);

		assert_non_null(a);
		a[8] = 3;	/* n = 3: the third iteration would be 2^31 */
		refused(a, len, 0, NULL);
		free(a);
	}
	refused("[[1,0,1e999]]", 13, 0, "finite");
	refused("[[1,0,nan]]", 11, 0, "finite");
	refused("[[1,0,1]] x", 11, 0, "after");
	refused("[[1,0,1]]", 9, 2, "n");
	refused("[[99999999999,0,1]]", 19, 0, "iteration");
	refused("[[1,0,1]", 8, 0, NULL);
	free(b);
	free(c);
}

/* One text result of sql with ?1 = blob[0..len) (NULL for a NULL result); rc into *rc. */
static char *sql_text(sqlite3 *db, const char *sql, const void *blob, size_t len, int *rc)
{
	sqlite3_stmt *st;
	char *out = NULL;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, blob, (int)len, SQLITE_TRANSIENT);
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

/* mmb_samples(), mmb_block_bad(), mmb_block_pack(): hostile blocks are SQL errors */
static void test_sql(void **state)
{
	int it[3] = { 1, 2, 2 }, seq[3] = { 0, 0, 1 }, rc;
	double v[3] = { 0.5, 1.25, -3 };
	const char *why;
	size_t len;
	unsigned char *b = db_block_encode(it, seq, v, 3, &len, &why);
	sqlite3 *db;
	char *t;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(db_block_sql_register(db), SQLITE_OK);
	t = sql_text(db, "SELECT group_concat(key || ':' || iteration || ':' || seq || ':' || value,"
		     " ' ') FROM mmb_samples(?1, 3)", b, len, &rc);
	assert_string_equal(t, "0:1:0:0.5 1:2:0:1.25 2:2:1:-3.0");
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad(?1, 3)", b, len, &rc);
	assert_null(t);
	t = sql_text(db, "SELECT mmb_block_bad(?1, 4)", b, len, &rc);
	assert_string_equal(t, "a sample count that differs from its n");
	free(t);
	/* the reasons block decoding gives, in its order; an empty BLOB has no data */
	t = sql_text(db, "SELECT mmb_block_bad(?1, 3)", "", 0, &rc);
	assert_string_equal(t, "no data");
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad(?1, 0)", b, len, &rc);
	assert_string_equal(t, "has a sample count n out of range");
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad('[[1,0,0.5],[2,0,1e999]]', 2)", NULL, 0, &rc);
	assert_string_equal(t, "a value that is not a finite number");
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad(42, 3)", NULL, 0, &rc);
	assert_string_equal(t, "is not a sample block");
	free(t);
	/* JSON packs to the same samples */
	t = sql_text(db, "SELECT group_concat(key || ':' || iteration || ':' || seq || ':' || value,"
		     " ' ') FROM mmb_samples(mmb_block_pack('[[1,0,0.5],[2,0,1.25],[2,1,-3]]', 3))",
		     NULL, 0, &rc);
	assert_string_equal(t, "0:1:0:0.5 1:2:0:1.25 2:2:1:-3.0");
	free(t);
	/* a bad version, a cut block, junk: errors, never rows */
	b[4] = 9;
	t = sql_text(db, "SELECT count(*) FROM mmb_samples(?1)", b, len, &rc);
	assert_int_equal(rc, SQLITE_ERROR);
	free(t);
	b[4] = DB_BLOCK_VERSION;
	t = sql_text(db, "SELECT count(*) FROM mmb_samples(?1)", b, len - 1, &rc);
	assert_int_equal(rc, SQLITE_ERROR);
	free(t);
	t = sql_text(db, "SELECT mmb_block_pack(?1, 3)", "MMBK", 4, &rc);
	assert_int_equal(rc, SQLITE_ERROR);
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad(?1, 99999999)", b, len, &rc);
	assert_non_null(t);
	free(t);
	t = sql_text(db, "SELECT mmb_block_bad(NULL, 1)", NULL, 0, &rc);
	assert_non_null(t);
	free(t);
	sqlite3_close(db);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codings),
		cmocka_unit_test(test_json_still_read),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_sql),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
