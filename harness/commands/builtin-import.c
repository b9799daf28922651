/*
 * mmbench import [--db FILE] --name LABEL FILE
 *
 * Results produced elsewhere become one run of kernel LABEL (accel
 * 'import', status complete, config_path = FILE):
 *  - CSV (RFC 4180) with a header naming the columns workload, metric,
 *    variant, iteration, value and optionally unit, better (higher|lower),
 *    in any order;
 *  - lkp matrix.json: { "aim9.brk_test.ops_per_sec": [v_run0, v_run1, ...] };
 *  - `mmbench export --format json`: every run in it, with everything recorded
 *    for it, merged as `mmbench merge` does (importfmt.h).
 * Every row is validated; the first bad one is reported as FILE:LINE: why
 * and nothing is imported (everything happens in one transaction).
 *
 * A regular file of CSV is parsed as it is read (db/importcsv.c): memory
 * stays bounded (~40 MB) whatever its size.  Anything else (matrix.json,
 * an export, a FIFO or device) is read whole, within MMB_CAP_IMPORT.
 *
 * Samples are stored packed: sample_blocks rows per series in the binary
 * block format (db/block.h; the "samples" view unpacks them).
 * A row per sample caps SQLite at ~600k samples/s on a small VM; packed,
 * the import is bound by parsing.  Imported runs have no iterations rows:
 * there is nothing to say per iteration (no status, no elapsed time).
 */
#include "builtin.h"
#include "db.h"
#include "parse-options.h"
#include "importfmt.h"
#include "merge-file.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct option *import_opts;	/* cmd_import's table, for the usage */

static int import_usage(const char *msg)
{
	error("%s", msg);
	parse_options_usage(stderr, import_opts, "import", "FILE");
	return EXIT_USAGE;
}

struct import_ctx {
	const char *label;		/* --name, or NULL: the file's label column */
	const char *file, *config_path;
	char *last_label;
};

/* A run for the file's rows of (label, run): --name wins over the file's label. */
static int64_t import_begin_run(struct importer *im, const char *flabel, size_t ll)
{
	struct import_ctx *ctx = im->arg;
	struct kernel_info k = { 0 };
	struct run_info ri;
	char *lab;
	int64_t id;

	if (!ctx->label && !flabel) {
		error("--name LABEL is required: %s has no label column (the kernel label to import under)",
		      ctx->file);
		return -2;
	}
	lab = ctx->label ? xstrdup(ctx->label) : xstrndup(flabel, ll);
	k.label = lab;
	run_info_init(&ri, db_kernel_upsert(im->db, &k), "import", ctx->config_path, "import");
	id = ri.kernel_id < 0 ? -1 : db_run_begin(im->db, &ri);
	free(ctx->last_label);
	ctx->last_label = lab;
	return id;
}

/* How the file is read. */
enum import_how {
	IMPORT_WHOLE,		/* into memory, capped: JSON, a FIFO, a device */
	IMPORT_STREAM,		/* a regular file of CSV: parsed as it is read */
	IMPORT_SQLITE,		/* a results DB: refused, said */
};

/*
 * What the head of file is.  IMPORT_STREAM leaves it open in *fd; the
 * whole-file path reads it again, and says why when it cannot.
 */
static enum import_how import_sniff(const char *file, int *fd)
{
	char head[65536];
	struct stat st;
	ssize_t n = -1;
	size_t i = 0;

	/*
	 * Only a regular file is opened here: a FIFO is read once, by the
	 * whole-file reader (opened twice, the writer could write into the
	 * first open and die of EPIPE at its close, and the second open then
	 * waited for a writer that never came).
	 */
	*fd = -1;
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return IMPORT_WHOLE;
	*fd = open(file, O_RDONLY | O_CLOEXEC);
	if (*fd >= 0 && fstat(*fd, &st) == 0 && S_ISREG(st.st_mode))
		n = pread(*fd, head, sizeof(head), 0);
	if (n >= 16 && !memcmp(head, "SQLite format 3", 16)) {
		error("%s is an SQLite database, not CSV or matrix.json: to copy the runs of another"
		      " mmbench database use `mmbench merge %s`", file, file);
		close(*fd);
		return IMPORT_SQLITE;
	}
	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (n > 0 && i < (size_t)n &&
	       (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	/* a CSV header first: the rows can go as they are read */
	if (n > 0 && i < (size_t)n && !import_looks_like_json(head, (size_t)n))
		return IMPORT_STREAM;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return IMPORT_WHOLE;
}

/* An `mmbench export --format json` file, merged. */
static int import_export(struct mmb_db *db, const char *file, const struct strbuf *buf,
			 const char *label)
{
	struct db_merge_result res = { 0 };
	int ret = import_export_json(db, file, buf->buf, buf->len, label, &res);

	if (ret)
		error("nothing imported");
	else
		info("imported %zu run%s (%zu iterations, %zu samples) from %s, %zu already here",
		     res.runs_added, res.runs_added == 1 ? "" : "s", res.iterations,
		     res.samples, file, res.runs_present);
	return mmb_exit_code(ret);
}

/* The rows of file (read from fd >= 0, else in buf) as runs, in one transaction. */
static int import_rows(struct mmb_db *db, const char *file, const char *label, int fd,
		       const struct strbuf *buf)
{
	struct import_ctx ctx = { .label = label, .file = file };
	struct importer im = { .db = db, .file = file, .begin_run = import_begin_run, .arg = &ctx };
	char *abs;
	int ret;

	if (db_begin(db))
		return EXIT_RUNTIME;
	abs = realpath(file, NULL);
	ctx.config_path = abs ? abs : file;
	ret = importer_prepare(&im);
	if (!ret)
		ret = fd >= 0 ? import_csv_fd(&im, fd)
		      : import_looks_like_json(buf->buf, buf->len) ? import_matrix(&im, buf->buf, buf->len)
								   : import_csv(&im, buf->buf, buf->len);
	if (!ret)
		ret = importer_flush(&im);
	for (size_t i = 0; !ret && i < im.nruns; i++)
		ret = db_run_finish(db, im.run_ids[i], "complete");
	if (!ret)
		ret = db_commit(db);
	if (ret) {
		importer_release(&im);
		db_rollback(db);
		error("nothing imported");
		ret = ret == MMB_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
	} else if (im.nruns == 1) {
		info("imported %zu samples of %zu metrics as run %lld of '%s'", im.nsamples,
		     im.metrics.nr, (long long)im.run_ids[0], ctx.last_label);
	} else {
		info("imported %zu samples of %zu metrics as %zu runs (%lld..%lld)", im.nsamples,
		     im.metrics.nr, im.nruns, (long long)im.run_ids[0],
		     (long long)im.run_ids[im.nruns - 1]);
	}
	free(ctx.last_label);
	importer_release(&im);
	free(abs);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	const char *dbpath = NULL, *label = NULL, *file = NULL;
	struct strbuf buf = STRBUF_INIT;
	enum import_how how;
	struct mmb_db db;
	int ret, n, fd = -1;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "name", &label, "LABEL", "kernel label to import under (required)"),
		OPT_END(),
	};

	import_opts = opts;
	n = parse_options(argc, argv, opts, "import", "FILE", 0);
	if (n < 0)
		return EXIT_USAGE;
	if (n > 1)
		return import_usage("import takes one FILE");
	file = argv[0];
	if (label && !*label)
		return import_usage("--name LABEL: the label is empty");
	if (label && name_check("--name", label))
		return EXIT_USAGE;
	if (!file)
		return import_usage("missing FILE (CSV or lkp matrix.json)");
	how = import_sniff(file, &fd);
	if (how == IMPORT_SQLITE)
		return EXIT_USAGE;
	if (how == IMPORT_WHOLE && read_input(&buf, file, MMB_CAP_IMPORT, "an import file")) {
		strbuf_release(&buf);
		return EXIT_USAGE;
	}
	/* a results DB is not rows to parse: say what copies it */
	if (buf.len >= 16 && !memcmp(buf.buf, "SQLite format 3", 16)) {
		error("%s is an SQLite database, not CSV or matrix.json: to copy the runs of another"
		      " mmbench database use `mmbench merge %s`", file, file);
		strbuf_release(&buf);
		return EXIT_USAGE;
	}
	db_single_thread();
	ret = command_open_db(&db, dbpath);
	if (!ret) {
		db_bulk_load(&db);
		if (how == IMPORT_WHOLE && import_is_export(buf.buf, buf.len))
			ret = import_export(&db, file, &buf, label);
		else
			ret = import_rows(&db, file, label, fd, &buf);
		db_close(&db);
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&buf);
	import_directions_free();
	return ret;
}
