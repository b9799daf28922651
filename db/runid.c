/*
 * A run's identity when its file has none (see db-internal.h): schema
 * migration 4 gave every run of an older file a random uuid.  A reader
 * migrates an older file in memory on every open, so a merge source of
 * schema 3 or older got new uuids each time and merging it twice copied
 * each run twice.  Now the runs migration 4 names are named by a hash of
 * what they recorded, the same in every copy of the file, in memory or
 * in place.
 */
#include "db-internal.h"
#include "../harness/base/util.h"

#include <stdlib.h>
#include <string.h>

/* Each value with its type, so 1, 1.0, '1' and x'31' differ; NULL is its tag alone. */
static void put_value(struct strbuf *sb, sqlite3_value *v)
{
	int type = sqlite3_value_type(v);
	unsigned char buf[8];
	uint64_t u = 0;
	double d;

	strbuf_addch(sb, (char)type);
	if (type == SQLITE_INTEGER) {
		u = (uint64_t)sqlite3_value_int64(v);
	} else if (type == SQLITE_FLOAT) {
		d = sqlite3_value_double(v);
		memcpy(&u, &d, sizeof(u));
	} else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
		const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(v)
						    : sqlite3_value_blob(v);
		int n = sqlite3_value_bytes(v);

		u = (uint64_t)n;
		for (int i = 0; i < 4; i++)
			buf[i] = (unsigned char)(u >> (8 * i));
		strbuf_add(sb, buf, 4);
		if (p && n > 0)
			strbuf_add(sb, p, (size_t)n);
		return;
	} else {
		return;
	}
	for (int i = 0; i < 8; i++)
		buf[i] = (unsigned char)(u >> (8 * i));
	strbuf_add(sb, buf, 8);
}

/* SHA-256 of the encoded values, as four 64-bit words. */
static void hash_values(int argc, sqlite3_value **argv, uint64_t h[4])
{
	struct strbuf sb = STRBUF_INIT;
	char hex[65], word[17];

	strbuf_addstr(&sb, "");
	for (int i = 0; i < argc; i++)
		put_value(&sb, argv[i]);
	sha256_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	for (int i = 0; i < 4; i++) {
		memcpy(word, hex + 16 * i, 16);
		word[16] = '\0';
		h[i] = strtoull(word, NULL, 16);
	}
}

/*
 * mmb_digest(...): an aggregate over rows in any order, the sum of each
 * row's hash (word by word, modulo 2^64) and the row count, as a BLOB.
 * The sum keeps how often a row occurs, and needs no ORDER BY that the
 * query planner might drop.
 */
struct digest {
	uint64_t sum[4];
	uint64_t rows;
};

static void digest_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct digest *d = sqlite3_aggregate_context(ctx, sizeof(*d));
	uint64_t h[4];

	if (!d) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	hash_values(argc, argv, h);
	for (int i = 0; i < 4; i++)
		d->sum[i] += h[i];
	d->rows++;
}

static void digest_final(sqlite3_context *ctx)
{
	struct digest *d = sqlite3_aggregate_context(ctx, 0), none = { { 0 }, 0 };
	unsigned char out[40];

	if (!d)
		d = &none;
	for (int w = 0; w < 5; w++)
		for (int i = 0; i < 8; i++)
			out[8 * w + i] = (unsigned char)((w < 4 ? d->sum[w] : d->rows) >> (8 * i));
	sqlite3_result_blob(ctx, out, sizeof(out), SQLITE_TRANSIENT);
}

/*
 * mmb_uuid(...): a uuid named by its arguments, laid out as RFC 9562's
 * version 8 (bits of our own: the first 122 of a SHA-256), variant 10.
 */
static void sql_uuid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	uint64_t h[4];
	char out[37];
	unsigned int var;

	hash_values(argc, argv, h);
	var = 8 | (unsigned int)((h[1] >> 28) & 3);
	snprintf(out, sizeof(out), "%08x-%04x-8%03x-%x%03x-%012llx",
		 (unsigned int)(h[0] >> 32), (unsigned int)(h[0] >> 16) & 0xffff,
		 (unsigned int)h[0] & 0xfff, var, (unsigned int)(h[1] >> 16) & 0xfff,
		 (unsigned long long)(h[2] & 0xffffffffffffULL));
	sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
}

int db_runid_register(sqlite3 *sql)
{
	int fl = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;

	if (sqlite3_create_function_v2(sql, "mmb_uuid", -1, fl, NULL, sql_uuid, NULL, NULL,
				       NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(sql, "mmb_digest", -1, fl, NULL, NULL, digest_step,
				       digest_final, NULL) != SQLITE_OK)
		return -1;
	return 0;
}

/*
 * Right after migration 4 (tables as schema 4 has them, inside the
 * migration's transaction): the run's id (unique in the file, so the
 * index on uuid holds), kernel, machine, what the run row recorded when
 * it started, and every sample with its series' names.  Not the status
 * or the end time: those change after a run starts, not what it is.
 */
int db_runs_identify(struct mmb_db *db)
{
	return db_exec(db,
		"UPDATE main.runs SET uuid = mmb_uuid('mmbench run, schema 4', id,"
		" (SELECT mmb_digest(k.label, k.release, k.config_hash) FROM main.kernels k"
		"  WHERE k.id = runs.kernel_id),"
		" (SELECT mmb_digest(m.hostname, m.cpu_model, m.ncpus, m.mem_bytes) FROM main.machines m"
		"  WHERE m.id = runs.machine_id),"
		" experiment, config_path, config_text, release, version, cmdline, config_hash,"
		" harness_version, git_sha, compiler, accel, pid, host, started,"
		" (SELECT mmb_digest(s.workload, s.variant, s.metric, s.unit, s.better, v.iteration,"
		"   v.seq, v.value) FROM main.sample_values v JOIN main.series s ON s.id = v.series_id"
		"  WHERE v.run_id = runs.id),"
		" (SELECT mmb_digest(s.workload, s.variant, s.metric, s.unit, s.better, b.n, b.data)"
		"  FROM main.sample_blocks b JOIN main.series s ON s.id = b.series_id"
		"  WHERE b.run_id = runs.id))");
}
