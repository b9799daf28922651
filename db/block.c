/* Sample blocks, binary and JSON; see block.h. */
#include "block.h"
#include "../harness/base/util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HDR 12

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static double get_f64(const unsigned char *p)
{
	uint64_t u = 0;
	double d;

	for (int i = 7; i >= 0; i--)
		u = u << 8 | p[i];
	memcpy(&d, &u, sizeof(d));
	return d;
}

static void put_f64(unsigned char *p, double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	for (int i = 0; i < 8; i++, u >>= 8)
		p[i] = u & 0xff;
}

int db_block_is_binary(const void *data, size_t len)
{
	return len >= 4 && !memcmp(data, DB_BLOCK_MAGIC, 4);
}

#define FAIL(msg) do { *why = (msg); return -1; } while (0)

/* A 32-bit integer at *p, *p moved past it: 0, or -1 when there is none. */
static int json_int(const char **p, long *v)
{
	char *end;

	*v = strtol(*p, &end, 10);
	if (end == *p || *v < INT_MIN || *v > INT_MAX)
		return -1;
	*p = end;
	return 0;
}

/* "[[iteration, seq, value], ...]"; p[len] is NUL (SQLite text). */
static int decode_json(const char *p, size_t len, size_t n_expected,
		       db_block_fn fn, void *ctx, const char **why)
{
	const char *stop = p + len;
	int64_t k = 0;
	char *end;
	int ret;

	if (memchr(p, '\0', len))
		FAIL("a NUL byte inside the text");
#define SKIP_WS() while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++
#define EXPECT(c) do { SKIP_WS(); if (*p++ != (c)) FAIL("not [[iteration, seq, value], ...]"); } while (0)
	EXPECT('[');
	SKIP_WS();
	if (*p == ']') {
		p++;
		goto tail;
	}
	for (;; k++) {
		long it, seq;
		double v;

		EXPECT('[');
		if (json_int(&p, &it))
			FAIL("an iteration that is not a 32-bit integer");
		EXPECT(',');
		if (json_int(&p, &seq))
			FAIL("a seq that is not a 32-bit integer");
		EXPECT(',');
		v = strtod(p, &end);
		if (end == p || !isfinite(v))
			FAIL("a value that is not a finite number");
		p = end;
		EXPECT(']');
		ret = fn(ctx, k, (int)it, (int)seq, v);
		if (ret)
			return ret;
		SKIP_WS();
		if (*p == ']') {
			p++;
			k++;
			break;
		}
		EXPECT(',');
	}
tail:
	SKIP_WS();
	if (p != stop)
		FAIL("bytes after the closing ]");
	if (n_expected && (size_t)k != n_expected)
		FAIL("a sample count that differs from its n");
	return 0;
#undef EXPECT
#undef SKIP_WS
}

/* The size of the iteration array coded as code, or 0 when it does not fit. */
static size_t it_size(const unsigned char *p, size_t avail, int code, size_t n)
{
	if (code == 0)
		return avail / 4 >= n ? 4 * n : 0;
	if (code == 1 && avail >= 4) {
		uint32_t runs = get_u32(p);

		if (runs == 0 || runs > n || (avail - 4) / 8 < runs)
			return 0;
		return 4 + 8 * (size_t)runs;
	}
	if (code == 2 && avail >= 8)
		return 8;
	return 0;
}

static size_t seq_size(int code, size_t n)
{
	return code == 0 ? 4 * n : (code == 1 || code == 2) ? 0 : SIZE_MAX;
}

/* A binary block's header and arrays, checked against len. */
struct bin_block {
	const unsigned char *its, *seqs, *vals;
	int itcode, seqcode;
	size_t n;
};

static int parse_binary(const unsigned char *d, size_t len, size_t n_expected,
			struct bin_block *b, const char **why)
{
	size_t itsz, sqsz;

	if (len < HDR)
		FAIL("a header shorter than 12 bytes");
	if (d[4] != DB_BLOCK_VERSION)
		FAIL("an unknown format version");
	b->itcode = d[5];
	b->seqcode = d[6];
	b->n = get_u32(d + 8);
	if (d[7] || b->n == 0 || b->n > DB_BLOCK_MAX_N)
		FAIL("a bad header");
	if (n_expected && b->n != n_expected)
		FAIL("a sample count that differs from its n");
	b->its = d + HDR;
	itsz = it_size(b->its, len - HDR, b->itcode, b->n);
	sqsz = seq_size(b->seqcode, b->n);
	if (!itsz || sqsz == SIZE_MAX)
		FAIL("an unknown iteration or seq coding");
	b->seqs = b->its + itsz;
	if (len - HDR - itsz < sqsz || (len - HDR - itsz - sqsz) / 8 != b->n ||
	    (len - HDR - itsz - sqsz) % 8)
		FAIL("lengths that do not add up");
	b->vals = b->seqs + sqsz;
	return 0;
}

static int decode_binary(const unsigned char *d, size_t len, size_t n_expected,
			 db_block_fn fn, void *ctx, const char **why)
{
	struct bin_block b;
	int iteration = 0, seq = 0;
	size_t run = 0;
	uint32_t left = 0;

	if (parse_binary(d, len, n_expected, &b, why))
		return -1;
	for (size_t k = 0; k < b.n; k++) {
		double v = get_f64(b.vals + 8 * k);
		int prev = iteration, ret;

		if (b.itcode == 0) {
			iteration = (int32_t)get_u32(b.its + 4 * k);
		} else if (b.itcode == 2) {
			int64_t it = (int64_t)(int32_t)get_u32(b.its) +
				     (int64_t)k * (int32_t)get_u32(b.its + 4);

			if (it < INT32_MIN || it > INT32_MAX)
				FAIL("iterations beyond 32 bits");
			iteration = (int)it;
		} else {
			if (!left) {
				if (run == get_u32(b.its))
					FAIL("run lengths that do not add up");
				iteration = (int32_t)get_u32(b.its + 4 + 8 * run);
				left = get_u32(b.its + 8 + 8 * run);
				run++;
				if (!left)
					FAIL("an empty run");
			}
			left--;
		}
		if (b.seqcode == 0)
			seq = (int32_t)get_u32(b.seqs + 4 * k);
		else if (b.seqcode == 2)
			seq = (k && iteration == prev) ? seq + 1 : 0;
		if (!isfinite(v))
			FAIL("a value that is not a finite number");
		ret = fn(ctx, (int64_t)k, iteration, seq, v);
		if (ret)
			return ret;
	}
	if (b.itcode == 1 && (left || run != get_u32(b.its)))
		FAIL("run lengths that do not add up");
	return 0;
}

/* The iterations of b into it[0..n), array at a time. */
static int unpack_iterations(const struct bin_block *b, int *it, const char **why)
{
	if (b->itcode == 0) {
		for (size_t k = 0; k < b->n; k++)
			it[k] = (int32_t)get_u32(b->its + 4 * k);
	} else if (b->itcode == 2) {
		int64_t first = (int32_t)get_u32(b->its), step = (int32_t)get_u32(b->its + 4);
		int64_t last = first + (int64_t)(b->n - 1) * step;

		/* arithmetic: the ends are the extremes */
		if (last < INT32_MIN || last > INT32_MAX)
			FAIL("iterations beyond 32 bits");
		for (size_t k = 0; k < b->n; k++)
			it[k] = (int)(first + (int64_t)k * step);
	} else {
		uint32_t runs = get_u32(b->its);
		size_t k = 0;

		for (uint32_t r = 0; r < runs; r++) {
			int v = (int32_t)get_u32(b->its + 4 + 8 * (size_t)r);
			uint32_t c = get_u32(b->its + 8 + 8 * (size_t)r);

			if (!c)
				FAIL("an empty run");
			if (c > b->n - k)
				FAIL("run lengths that do not add up");
			for (uint32_t j = 0; j < c; j++)
				it[k++] = v;
		}
		if (k != b->n)
			FAIL("run lengths that do not add up");
	}
	return 0;
}

int db_block_unpack(const void *data, size_t len, size_t n_expected, int *iteration,
		    double *value, const char **why)
{
	struct bin_block b;
	int bad = 0;

	if (!data || !len)
		FAIL("no data");
	if (!db_block_is_binary(data, len))
		FAIL("not a binary block");
	if (parse_binary(data, len, n_expected, &b, why) ||
	    unpack_iterations(&b, iteration, why))
		return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(value, b.vals, b.n * sizeof(*value));
#else
	for (size_t k = 0; k < b.n; k++)
		value[k] = get_f64(b.vals + 8 * k);
#endif
	for (size_t k = 0; k < b.n; k++)
		bad |= !isfinite(value[k]);
	if (bad)
		FAIL("a value that is not a finite number");
	return 0;
}

int db_block_decode(const void *data, size_t len, size_t n_expected,
		    db_block_fn fn, void *ctx, const char **why)
{
	/* an empty BLOB reads back as NULL: a block of nothing, never "no samples" */
	if (!data || !len)
		FAIL("no data");
	if (db_block_is_binary(data, len))
		return decode_binary(data, len, n_expected, fn, ctx, why);
	return decode_json(data, len, n_expected, fn, ctx, why);
}

/* The seq coding the samples allow: 1 all zero, 2 counting per iteration, else 0. */
static int pick_seq(const int *it, const int *seq, size_t n)
{
	int zero = 1, count = 1;

	for (size_t k = 0; k < n; k++) {
		int want = (k && it[k] == it[k - 1]) ? seq[k - 1] + 1 : 0;

		zero &= seq[k] == 0;
		count &= seq[k] == want;
	}
	return zero ? 1 : count ? 2 : 0;
}

unsigned char *db_block_encode(const int *iteration, const int *seq, const double *value,
			       size_t n, size_t *len, const char **why)
{
	size_t runs = 0, itsz, sqsz, off;
	int seqcode, rle, arith = n > 1;
	int64_t step = n > 1 ? (int64_t)iteration[1] - iteration[0] : 0;
	unsigned char *b;

	if (n == 0 || n > DB_BLOCK_MAX_N) {
		*why = "a block holds 1 to 16777215 samples";
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(value[k])) {
			*why = "a value that is not a finite number";
			return NULL;
		}
		runs += !k || iteration[k] != iteration[k - 1];
		if (k && (int64_t)iteration[k] - iteration[k - 1] != step)
			arith = 0;
	}
	if (step < INT32_MIN || step > INT32_MAX)
		arith = 0;
	/* rle: the iteration coding, 0 raw, 1 run-length, 2 start and step */
	rle = 4 + 8 * runs <= 4 * n;
	itsz = rle ? 4 + 8 * runs : 4 * n;
	if (arith && itsz >= 8) {
		rle = 2;
		itsz = 8;
	}
	seqcode = pick_seq(iteration, seq, n);
	sqsz = seqcode ? 0 : 4 * n;
	*len = HDR + itsz + sqsz + 8 * n;
	b = xmalloc(*len);
	memcpy(b, DB_BLOCK_MAGIC, 4);
	b[4] = DB_BLOCK_VERSION;
	b[5] = (unsigned char)rle;
	b[6] = (unsigned char)seqcode;
	b[7] = 0;
	put_u32(b + 8, (uint32_t)n);
	off = HDR;
	if (rle == 2) {
		put_u32(b + off, (uint32_t)iteration[0]);
		put_u32(b + off + 4, (uint32_t)(int32_t)step);
	} else if (rle) {
		size_t r = 0;

		put_u32(b + off, (uint32_t)runs);
		for (size_t k = 0; k < n; k++) {
			if (!k || iteration[k] != iteration[k - 1]) {
				put_u32(b + off + 4 + 8 * r, (uint32_t)iteration[k]);
				put_u32(b + off + 8 + 8 * r, 0);
				r++;
			}
			put_u32(b + off + 8 * r, get_u32(b + off + 8 * r) + 1);
		}
	} else {
		for (size_t k = 0; k < n; k++)
			put_u32(b + off + 4 * k, (uint32_t)iteration[k]);
	}
	off += itsz;
	if (!seqcode)
		for (size_t k = 0; k < n; k++)
			put_u32(b + off + 4 * k, (uint32_t)seq[k]);
	off += sqsz;
	for (size_t k = 0; k < n; k++)
		put_f64(b + off + 8 * k, value[k]);
	return b;
}
