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
 * Samples are stored packed: one sample_blocks row per series holding the
 * JSON array [[iteration, seq, value], ...] (the "samples" view unpacks it).
 * A row per sample caps SQLite at ~600k samples/s on a small VM; packed,
 * the import is bound by parsing.  Imported runs have no iterations rows:
 * there is nothing to say per iteration (no status, no elapsed time).
 */
#include "builtin.h"
#include "db.h"
#include "parse-options.h"
#include "importfmt.h"
#include "merge-db.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

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

int cmd_import(int argc, char **argv)
{
	const char *dbpath = NULL, *label = NULL, *file = NULL;
	struct strbuf buf = STRBUF_INIT;
	struct importer im = { 0 };
	struct mmb_db db;
	struct import_ctx ctx = { 0 };
	char *abs = NULL;
	int ret = -1, n;
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
	if (read_input(&buf, file, MMB_CAP_IMPORT, "an import file")) {
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
	if ((ret = command_open_db(&db, dbpath))) {
		strbuf_release(&buf);
		return ret;
	}
	db_bulk_load(&db);
	if (import_is_export(buf.buf, buf.len)) {
		struct db_merge_result res = { 0 };

		ret = import_export_json(&db, file, buf.buf, buf.len, label, &res);
		if (ret)
			error("nothing imported");
		else
			info("imported %zu run%s (%zu iterations, %zu samples) from %s, %zu already here",
			     res.runs_added, res.runs_added == 1 ? "" : "s", res.iterations,
			     res.samples, file, res.runs_present);
		ret = mmb_exit_code(ret);
		goto close;
	}
	im.db = &db;
	im.file = file;
	if (db_begin(&db)) {
		ret = EXIT_RUNTIME;
		goto close;
	}
	abs = realpath(file, NULL);
	ctx.label = label;
	ctx.file = file;
	ctx.config_path = abs ? abs : file;
	im.begin_run = import_begin_run;
	im.arg = &ctx;
	if (importer_prepare(&im))
		goto fail;
	ret = import_looks_like_json(buf.buf, buf.len) ? import_matrix(&im, buf.buf, buf.len)
						 : import_csv(&im, buf.buf, buf.len);
	if (ret || (ret = importer_flush(&im)))
		goto fail;
	for (size_t i = 0; i < im.nruns; i++)
		if (db_run_finish(&db, im.run_ids[i], "complete"))
			goto fail;
	if (db_commit(&db))
		goto fail;
	if (im.nruns == 1)
		info("imported %zu samples of %zu metrics as run %lld of '%s'", im.nsamples,
		     im.metrics.nr, (long long)im.run_ids[0], ctx.last_label);
	else
		info("imported %zu samples of %zu metrics as %zu runs (%lld..%lld)", im.nsamples,
		     im.metrics.nr, im.nruns, (long long)im.run_ids[0],
		     (long long)im.run_ids[im.nruns - 1]);
	ret = EXIT_OK;
	goto close;
fail:
	importer_release(&im);
	db_rollback(&db);
	error("nothing imported");
	ret = ret == MMB_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
close:
	free(ctx.last_label);
	importer_release(&im);
	db_close(&db);
	strbuf_release(&buf);
	import_directions_free();
	free(abs);
	return ret;
}
