/*
 * `mmbench import` input, parsed: CSV (RFC 4180) with a header naming the
 * columns workload, metric, variant, iteration, value and optionally unit,
 * better; lkp matrix.json { "testcase.stat": [v_run0, v_run1, ...] }.
 * Every row is checked; the first bad one is reported as FILE:LINE: why
 * (MMB_EUSAGE).  Samples are packed per series into sample_blocks rows (db/blockwrite.h).
 */
#ifndef MMB_IMPORTFMT_H
#define MMB_IMPORTFMT_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmb_db;
struct db_blocks;

/* ---- a small string-keyed map (workload/variant/metric -> info) ---- */

struct smap_ent {
	char *key;
	size_t klen;
	uint64_t hash;
	int64_t id;		/* series id */
	int better;
	char *unit;
	int line;		/* where first seen */
	int *it, *sq;		/* samples not written yet, as the block holds them */
	double *val;
	size_t n, alloc;	/* samples pending, room for */
	long last_iteration;	/* seq counts repeats of one iteration in a row */
	int seq;
};

struct smap {
	struct smap_ent **e;	/* entries stay put: callers may keep pointers */
	struct smap_ent **order;	/* in creation order */
	size_t size, nr, order_alloc;
	struct strbuf last;	/* key of the last lookup: consecutive rows repeat */
	struct smap_ent *last_ent;
};

struct smap_ent *smap_get(struct smap *m, const char *key, size_t klen, bool *created);
void smap_release(struct smap *m);

/* ---- CSV (RFC 4180) ---- */

struct csv {
	char *p, *end;		/* cursor in the (modifiable) buffer */
	int line;		/* line of the cursor */
	int err_line;		/* where a malformed field is */
};

struct field {
	char *s;
	size_t n;
};

/*
 * Parse one record into fields (unquoting in place).  Returns the number of
 * fields, 0 at end of input, -1 on a malformed quote (msg set).
 */
int csv_record(struct csv *c, struct field **f, size_t *alloc, const char **msg);

/* ---- the import ---- */

struct importer {
	struct mmb_db *db;
	const char *file;
	int64_t run_id;
	struct db_blocks *blocks;	/* the sample_blocks writer */
	struct smap metrics;	/* workload \0 variant \0 metric -> series, pending samples */
	struct strbuf key;
	struct smap_ent *last_m;	/* the series of the last row added (its checks passed) */
	size_t nsamples;
	size_t pending;		/* samples not written yet, every series */
	/*
	 * Several runs in one file (CSV columns label, run): the run of a
	 * (label, run) pair, made on its first row; label NULL/0 when the file
	 * names none.  Returns the run id, -2 on bad input (said), -1.  NULL:
	 * everything goes into run_id, the columns are ignored.
	 */
	int64_t (*begin_run)(struct importer *im, const char *label, size_t ll);
	void *arg;
	struct smap runs;	/* label \0 run -> run id */
	int64_t *run_ids;	/* made by begin_run, in order */
	size_t nruns, runs_alloc;
};

/* The sample_blocks writer for im->run_id; 0 or -1 (message printed). */
int importer_prepare(struct importer *im);
/* Write every pending block; 0 or -1. */
int importer_flush(struct importer *im);
void importer_release(struct importer *im);
/* Parse buf[0..len) into im: 0, MMB_EUSAGE on bad input (FILE:LINE: why printed), -1 on a DB error. */
int import_csv(struct importer *im, char *buf, size_t len);
/*
 * The same of the regular file open at fd, read as it is parsed (a window
 * of 64 KiB, whatever the file's size; a record is at most 16 MiB).
 */
int import_csv_fd(struct importer *im, int fd);
int import_matrix(struct importer *im, const char *buf, size_t len);
/* A matrix.json (first non-blank byte '{' or '['), else CSV. */
bool import_looks_like_json(const char *buf, size_t len);
/* An `mmbench export --format json` file: '{' and the key "mmbench_export" first. */
bool import_is_export(const char *buf, size_t len);
struct db_merge_result;
/*
 * Import an export: its rows go into a new temporary database, which is
 * merged into db as `mmbench merge` merges (runs already here, by uuid,
 * are skipped; a label naming another kernel here is refused).  label
 * non-NULL: every run under that label.  0; MMB_EUSAGE after FILE:LINE:COL
 * or the merge's refusal; -1.
 */
int import_export_json(struct mmb_db *db, const char *file, const char *buf, size_t len,
		       const char *label, struct db_merge_result *res);
/* Free the compiled lkp direction table. */
void import_directions_free(void);

#endif
