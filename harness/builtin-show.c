/* mmbench show RUN: everything recorded about one run. */
#include "builtin.h"
#include "db.h"
#include "notes.h"
#include "summary.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

/* End of a read: finalize, and say when the step ended on an error. */
static int finish(struct mmb_db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("%s: %s", db->path, db_errmsg(db));
}

static void print_time(FILE *out, const char *what, double t)
{
	char buf[64] = "-";
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > 0) {
		localtime_r(&tt, &tm);
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %z", &tm);
	}
	fprintf(out, "%-12s %s\n", what, buf);
}

/*
 * The vmstat counters mm reviewers ask about first (mmtests' "Ops Minor
 * Faults", "THP fault alloc", ...): mean delta per measured iteration.
 */
static int show_monitors(FILE *out, struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	bool first = true;
	int rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT i.workload, i.variant, m.key, avg(m.delta), count(*)"
			       " FROM monitors m JOIN iterations i ON i.id = m.iteration_id"
			       " WHERE i.run_id = ? AND i.warmup = 0 AND i.status = 'ok'"
			       " AND m.source = 'vmstat' AND m.key IN ('pgfault', 'pgmajfault',"
			       " 'thp_fault_alloc', 'thp_fault_fallback', 'thp_split_pmd',"
			       " 'pswpin', 'pswpout', 'pgsteal_direct', 'pgscan_direct', 'compact_stall',"
			       " 'numa_hint_faults', 'pgmigrate_success', 'thp_deferred_split_page')"
			       " GROUP BY i.workload, i.variant, m.key ORDER BY min(i.id), m.key",
			       -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (first)
			fprintf(out, "\nvmstat, mean delta per measured iteration\n");
		first = false;
		fprintf(out, "  %-18s %-24s %-24s %14.1f\n", col(st, 0), col(st, 1), col(st, 2),
			sqlite3_column_double(st, 3));
	}
	return finish(db, st, rc);
}

static int show_env(FILE *out, struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	int rc;

	fprintf(out, "\nenvironment (* = set by this run, was)\n");
	if (sqlite3_prepare_v2(db->sql,
			       "SELECT key, value, original FROM run_env WHERE run_id = ? ORDER BY key",
			       -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool changed = sqlite3_column_type(st, 2) != SQLITE_NULL;

		fprintf(out, "  %c %-28s %s%s%s%s\n", changed ? '*' : ' ', col(st, 0), col(st, 1),
			changed ? "  (was " : "", changed ? col(st, 2) : "", changed ? ")" : "");
	}
	return finish(db, st, rc);
}

static int show_failed(FILE *out, struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	bool first = true;
	int rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT workload, variant, iteration, status, reason FROM iterations"
			       " WHERE run_id = ? AND status != 'ok' ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (first)
			fprintf(out, "\nfailed or skipped iterations\n");
		first = false;
		fprintf(out, "  %-8s %s %s iteration %d: %s\n", col(st, 3), col(st, 0), col(st, 1),
			sqlite3_column_int(st, 2), col(st, 4));
	}
	return finish(db, st, rc);
}

/* The run's own row; 1 when there is no such run. */
static int show_run(FILE *out, struct mmb_db *db, int64_t run_id, bool config)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql,
			       "SELECT k.label, r.experiment, r.config_path, r.status, r.accel,"
			       " r.release, r.version, r.cmdline, r.config_hash, r.harness_version,"
			       " r.git_sha, r.compiler, r.started, r.finished, m.hostname, m.cpu_model,"
			       " m.ncpus, m.mem_bytes, r.config_text"
			       " FROM runs r JOIN kernels k ON k.id = r.kernel_id"
			       " LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? 1 : error("%s: %s", db->path, db_errmsg(db));
	}
	if (config) {
		fputs(col(st, 18), out);
		sqlite3_finalize(st);
		return 0;
	}
	fprintf(out, "run          %lld\n", (long long)run_id);
	fprintf(out, "kernel       %s\n", col(st, 0));
	fprintf(out, "experiment   %s (%s)\n", col(st, 1), col(st, 2));
	fprintf(out, "status       %s\n", col(st, 3));
	fprintf(out, "accel        %s\n", col(st, 4));
	print_time(out, "started", sqlite3_column_double(st, 12));
	print_time(out, "finished", sqlite3_column_double(st, 13));
	fprintf(out, "release      %s\n", col(st, 5));
	fprintf(out, "version      %s\n", col(st, 6));
	fprintf(out, "cmdline      %s\n", col(st, 7));
	fprintf(out, "config hash  %s\n", *col(st, 8) ? col(st, 8) : "(not available)");
	fprintf(out, "machine      %s: %s, %d CPUs, %.1f GiB\n", col(st, 14), col(st, 15),
		sqlite3_column_int(st, 16), sqlite3_column_int64(st, 17) / 1073741824.0);
	fprintf(out, "mmbench      %s (%s), built with %s\n", col(st, 9), col(st, 10), col(st, 11));
	sqlite3_finalize(st);
	return 0;
}

static int last_run(struct mmb_db *db, int64_t *run_id)
{
	sqlite3_stmt *st;
	int rc;

	*run_id = -1;
	if (sqlite3_prepare_v2(db->sql, "SELECT max(id) FROM runs", -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", db->path, db_errmsg(db));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			*run_id = sqlite3_column_int64(st, 0);
		rc = SQLITE_DONE;
	}
	return finish(db, st, rc);
}

static void print_share(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, " %7s", "-");
	else
		fprintf(out, " %6.1f%%", 100 * v);
}

/* Per measured iteration: what else ran, and why it counts as disturbed. */
static int show_interference(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct iteration_note *v;
	size_t n, nd = 0;

	if (db_iteration_notes(db, run_id, &v, &n))
		return -1;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		nd += v[i].disturbed != NULL;
	fprintf(out, "\ninterference per measured iteration (%zu disturbed; limits: docs/statistics.md)\n",
	       nd);
	fprintf(out, "  %-18s %-16s %4s %8s %8s %6s %8s %9s  %s\n", "workload", "variant", "iter",
	       "foreign", "steal", "load1", "invol.cs", "MemAvail", "disturbed");
	for (size_t i = 0; i < n; i++) {
		const struct iteration_note *x = &v[i];

		fprintf(out, "  %-18s %-16s %4d", x->workload, x->variant, x->iteration);
		print_share(out, x->foreign_share);
		print_share(out, x->steal_share);
		if (isnan(x->load1))
			fprintf(out, " %6s", "-");
		else
			fprintf(out, " %6.2f", x->load1);
		if (isnan(x->nivcsw))
			fprintf(out, " %8s", "-");
		else
			fprintf(out, " %8.0f", x->nivcsw);
		if (isnan(x->mem_available_bytes))
			fprintf(out, " %9s", "-");
		else
			fprintf(out, " %8.0fM", x->mem_available_bytes / (1 << 20));
		fprintf(out, "  %s\n", x->disturbed ? x->disturbed : "");
	}
	db_iteration_notes_free(v, n);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	const char *dbpath = NULL, *which = NULL;
	bool config = false;
	struct mmb_db db;
	int64_t run_id;
	char *end, *buf = NULL;
	size_t len = 0;
	FILE *out;
	int ret;

	for (int i = 1; i < argc; i++) {
		int r = option_value(argc, argv, &i, "--db", &dbpath);

		if (r < 0)
			return EXIT_USAGE;
		else if (r)
			continue;
		else if (!strcmp(argv[i], "--config"))
			config = true;
		else if (argv[i][0] == '-')
			die_usage("unknown option '%s' (see `mmbench show --help`)", argv[i]);
		else if (!which)
			which = argv[i];
		else
			die_usage("unexpected argument '%s'", argv[i]);
	}
	if (!which)
		die_usage("usage: mmbench show RUN [--db FILE] [--config]   (RUN: a number from `mmbench list runs`, or 'last')");
	if (db_open_existing(&db, db_default_path(dbpath)))
		return EXIT_RUNTIME;
	if (!strcmp(which, "last")) {
		if (last_run(&db, &run_id)) {
			db_close(&db);
			return EXIT_RUNTIME;
		}
	} else {
		run_id = strtoll(which, &end, 10);
		if (*end || run_id <= 0) {
			db_close(&db);
			die_usage("'%s' is not a run number (see `mmbench list runs`)", which);
		}
	}
	/* everything is read before anything is printed: no half report */
	out = open_memstream(&buf, &len);
	if (!out)
		die("open_memstream: out of memory");
	ret = show_run(out, &db, run_id, config);
	if (!ret && !config) {
		ret = show_env(out, &db, run_id);
		if (!ret)
			ret = show_failed(out, &db, run_id);
		if (!ret)
			ret = show_monitors(out, &db, run_id);
		if (!ret)
			ret = show_interference(out, &db, run_id);
		if (!ret) {
			fprintf(out, "\n");
			ret = summary_print_run(out, &db, run_id);
		}
	}
	fclose(out);
	db_close(&db);
	if (ret == 1) {
		free(buf);
		error("no run %s in %s (see `mmbench list runs`)", which, db_default_path(dbpath));
		return EXIT_USAGE;
	}
	if (!ret)
		fwrite(buf, 1, len, stdout);
	free(buf);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}
