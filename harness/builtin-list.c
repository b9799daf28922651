/* mmbench list workloads|runs|kernels */
#include "builtin.h"
#include "db.h"
#include "plan.h"
#include "plugin.h"
#include "runner.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *param_type(enum mmb_param_type t)
{
	switch (t) {
	case MMB_PARAM_INT: return "int";
	case MMB_PARAM_SIZE: return "size";
	case MMB_PARAM_DURATION: return "duration";
	case MMB_PARAM_BOOL: return "bool";
	case MMB_PARAM_ENUM: return "enum";
	case MMB_PARAM_STRING: return "string";
	case MMB_PARAM_DOUBLE: return "double";
	}
	return "?";
}

/* supported() with the defaults, so the list says what can run here. */
static const char *why_unsupported(const struct plugin *pl)
{
	struct unit_ctx u;
	struct mmb_value *vals;
	const char *why = NULL;
	char err[256];

	if (!pl->w.supported)
		return NULL;
	unit_ctx_host(&u);
	vals = xcalloc(pl->nparams ? pl->nparams : 1, sizeof(*vals));
	for (size_t i = 0; i < pl->nparams; i++)
		if (pl->params[i]->def)
			plan_parse_value(pl->params[i], pl->params[i]->def, &u, &vals[i], err,
					 sizeof(err));
	why = pl->w.supported(runner_host_table(), vals);
	free(vals);
	return why;
}

static int list_workloads(bool verbose)
{
	char **names;
	size_t n;
	int ret = 0;

	plugin_list(&names, &n);
	if (!n)
		return error("no workload plugins found (searched $MMBENCH_PLUGIN_PATH, %s/workloads, the install dir)",
			     exe_dir());
	for (size_t i = 0; i < n; i++) {
		struct plugin pl;
		const char *why;

		if (plugin_load(&pl, names[i])) {
			ret = -1;
			plugin_release(&pl);
			free(names[i]);
			continue;
		}
		why = why_unsupported(&pl);
		printf("%-18s %s", pl.w.name, pl.w.summary);
		if (why)
			printf("  [cannot run here: %s]", why);
		printf("\n");
		if (verbose) {
			printf("  file: %s (ABI %u.%u)\n", pl.path, pl.w.abi_major, pl.w.abi_minor);
			for (size_t p = 0; p < pl.nparams; p++) {
				const struct mmb_param_def *d = pl.params[p];

				printf("  param  %-16s %-8s default %-10s %s", d->name, param_type(d->type),
				       d->def ? d->def : "(required)", d->help ? d->help : "");
				if (d->type == MMB_PARAM_ENUM)
					printf(" {%s}", d->choices);
				if (d->min < d->max) {
					char lo[32], hi[32];

					plan_format_value(d->type, d->min, lo, sizeof(lo));
					plan_format_value(d->type, d->max, hi, sizeof(hi));
					printf(" [%s..%s]", lo, hi);
				}
				printf("\n");
			}
			for (size_t m = 0; m < pl.nmetrics; m++) {
				const struct mmb_metric_def *d = pl.metrics[m];

				printf("  metric %-24s %-12s %s\n", d->name, d->unit,
				       d->better > 0 ? "higher is better" : "lower is better");
			}
		}
		plugin_release(&pl);
		free(names[i]);
	}
	free(names);
	return ret;
}

static void fmt_time(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	localtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Rows are printed only once all were read: a damaged DB prints no half table. */
static int print_rows(struct mmb_db *db, sqlite3_stmt *st, int rc, struct strbuf *out)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		strbuf_release(out);
		return error("%s: %s", db->path, db_errmsg(db));
	}
	fwrite(out->buf, 1, out->len, stdout);
	strbuf_release(out);
	return 0;
}

static int list_runs(struct mmb_db *db)
{
	struct strbuf out = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT r.id, k.label, coalesce(r.experiment, ''), r.status,"
			       " coalesce(r.accel, ''), r.started,"
			       /* imported runs have no iterations rows: a block holds one
				  sample per iteration, so its size is the count */
			       " coalesce(nullif((SELECT count(*) FROM iterations i WHERE i.run_id = r.id"
			       "   AND i.status = 'ok' AND i.warmup = 0), 0),"
			       "  (SELECT max(n) FROM sample_blocks b WHERE b.run_id = r.id), 0),"
			       " (SELECT count(*) FROM iterations i WHERE i.run_id = r.id AND i.status = 'failed'),"
			       " (SELECT count(*) FROM sample_values s WHERE s.run_id = r.id) +"
			       " (SELECT coalesce(sum(n), 0) FROM sample_blocks b WHERE b.run_id = r.id)"
			       " FROM runs r JOIN kernels k ON k.id = r.kernel_id ORDER BY r.id",
			       -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	strbuf_addf(&out, "%5s  %-19s  %-11s  %-6s  %5s  %6s  %8s  %-20s  %s\n", "run", "started",
		    "status", "accel", "iters", "failed", "samples", "experiment", "kernel");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char when[32];

		fmt_time(sqlite3_column_double(st, 5), when, sizeof(when));
		strbuf_addf(&out, "%5lld  %-19s  %-11s  %-6s  %5d  %6d  %8d  %-20s  %s\n",
			    (long long)sqlite3_column_int64(st, 0), when,
			    (const char *)sqlite3_column_text(st, 3),
			    (const char *)sqlite3_column_text(st, 4), sqlite3_column_int(st, 6),
			    sqlite3_column_int(st, 7), sqlite3_column_int(st, 8),
			    (const char *)sqlite3_column_text(st, 2),
			    (const char *)sqlite3_column_text(st, 1));
	}
	return print_rows(db, st, rc, &out);
}

static int list_kernels(struct mmb_db *db)
{
	struct strbuf out = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT k.label, coalesce(k.release, ''), coalesce(k.base_commit, ''),"
			       " (SELECT count(*) FROM runs r WHERE r.kernel_id = k.id),"
			       " (SELECT count(*) FROM sample_values s JOIN runs r ON r.id = s.run_id"
			       "   WHERE r.kernel_id = k.id) +"
			       " (SELECT coalesce(sum(n), 0) FROM sample_blocks b JOIN runs r ON r.id = b.run_id"
			       "   WHERE r.kernel_id = k.id)"
			       " FROM kernels k ORDER BY k.id", -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	strbuf_addf(&out, "%-32s  %-28s  %4s  %8s  %s\n", "label", "release", "runs", "samples",
		    "base commit");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strbuf_addf(&out, "%-32s  %-28s  %4d  %8d  %s\n",
			    (const char *)sqlite3_column_text(st, 0),
			    (const char *)sqlite3_column_text(st, 1), sqlite3_column_int(st, 3),
			    sqlite3_column_int(st, 4), (const char *)sqlite3_column_text(st, 2));
	return print_rows(db, st, rc, &out);
}

int cmd_list(int argc, char **argv)
{
	const char *what = NULL, *dbpath = NULL;
	bool verbose = false;
	struct mmb_db db;
	int ret;

	for (int i = 1; i < argc; i++) {
		int r = option_value(argc, argv, &i, "--db", &dbpath);

		if (r < 0)
			return EXIT_USAGE;
		else if (r)
			continue;
		else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			verbose = true;
		else if (argv[i][0] == '-')
			die_usage("unknown option '%s' (see `mmbench list --help`)", argv[i]);
		else if (!what)
			what = argv[i];
		else
			die_usage("unexpected argument '%s'", argv[i]);
	}
	if (!what)
		die_usage("usage: mmbench list workloads|runs|kernels [--db FILE] [-v]");
	if (!strcmp(what, "workloads"))
		return list_workloads(verbose) ? EXIT_RUNTIME : EXIT_OK;
	if (strcmp(what, "runs") && strcmp(what, "kernels"))
		die_usage("cannot list '%s'; choose workloads, runs or kernels", what);
	if (db_open_existing(&db, db_default_path(dbpath)))
		return EXIT_RUNTIME;
	ret = !strcmp(what, "runs") ? list_runs(&db) : list_kernels(&db);
	db_close(&db);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}
