/* mmbench show RUN: everything recorded about one run. */
#include "builtin.h"
#include "db.h"
#include "summary.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static void print_time(const char *what, double t)
{
	char buf[64] = "-";
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > 0) {
		localtime_r(&tt, &tm);
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %z", &tm);
	}
	printf("%-12s %s\n", what, buf);
}

/*
 * The vmstat counters mm reviewers ask about first (mmtests' "Ops Minor
 * Faults", "THP fault alloc", ...): mean delta per measured iteration.
 */
static void show_monitors(struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	bool first = true;

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
		return;
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (first)
			printf("\nvmstat, mean delta per measured iteration\n");
		first = false;
		printf("  %-18s %-24s %-24s %14.1f\n", col(st, 0), col(st, 1), col(st, 2),
		       sqlite3_column_double(st, 3));
	}
	sqlite3_finalize(st);
}

int cmd_show(int argc, char **argv)
{
	const char *dbpath = NULL, *which = NULL;
	bool config = false;
	struct mmb_db db;
	sqlite3_stmt *st;
	int64_t run_id;
	char *end;
	int ret = EXIT_OK;

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
		run_id = -1;
		if (sqlite3_prepare_v2(db.sql, "SELECT max(id) FROM runs", -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW)
				run_id = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
	} else {
		run_id = strtoll(which, &end, 10);
		if (*end || run_id <= 0) {
			db_close(&db);
			die_usage("'%s' is not a run number (see `mmbench list runs`)", which);
		}
	}
	if (sqlite3_prepare_v2(db.sql,
			       "SELECT k.label, r.experiment, r.config_path, r.status, r.accel,"
			       " r.release, r.version, r.cmdline, r.config_hash, r.harness_version,"
			       " r.git_sha, r.compiler, r.started, r.finished, m.hostname, m.cpu_model,"
			       " m.ncpus, m.mem_bytes, r.config_text"
			       " FROM runs r JOIN kernels k ON k.id = r.kernel_id"
			       " LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = ?",
			       -1, &st, NULL) != SQLITE_OK) {
		error("%s: %s", db.path, db_errmsg(&db));
		db_close(&db);
		return EXIT_RUNTIME;
	}
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		db_close(&db);
		error("no run %s in %s (see `mmbench list runs`)", which, db_default_path(dbpath));
		return EXIT_USAGE;
	}
	if (config) {
		fputs(col(st, 18), stdout);
		sqlite3_finalize(st);
		db_close(&db);
		return EXIT_OK;
	}
	printf("run          %lld\n", (long long)run_id);
	printf("kernel       %s\n", col(st, 0));
	printf("experiment   %s (%s)\n", col(st, 1), col(st, 2));
	printf("status       %s\n", col(st, 3));
	printf("accel        %s\n", col(st, 4));
	print_time("started", sqlite3_column_double(st, 12));
	print_time("finished", sqlite3_column_double(st, 13));
	printf("release      %s\n", col(st, 5));
	printf("version      %s\n", col(st, 6));
	printf("cmdline      %s\n", col(st, 7));
	printf("config hash  %s\n", *col(st, 8) ? col(st, 8) : "(not available)");
	printf("machine      %s: %s, %d CPUs, %.1f GiB\n", col(st, 14), col(st, 15),
	       sqlite3_column_int(st, 16), sqlite3_column_int64(st, 17) / 1073741824.0);
	printf("mmbench      %s (%s), built with %s\n", col(st, 9), col(st, 10), col(st, 11));
	sqlite3_finalize(st);

	printf("\nenvironment (* = set by this run, was)\n");
	if (sqlite3_prepare_v2(db.sql,
			       "SELECT key, value, original FROM run_env WHERE run_id = ? ORDER BY key",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		while (sqlite3_step(st) == SQLITE_ROW) {
			bool changed = sqlite3_column_type(st, 2) != SQLITE_NULL;

			printf("  %c %-28s %s%s%s%s\n", changed ? '*' : ' ', col(st, 0), col(st, 1),
			       changed ? "  (was " : "", changed ? col(st, 2) : "", changed ? ")" : "");
		}
		sqlite3_finalize(st);
	}

	if (sqlite3_prepare_v2(db.sql,
			       "SELECT workload, variant, iteration, status, reason FROM iterations"
			       " WHERE run_id = ? AND status != 'ok' ORDER BY id", -1, &st, NULL) == SQLITE_OK) {
		bool first = true;

		sqlite3_bind_int64(st, 1, run_id);
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (first)
				printf("\nfailed or skipped iterations\n");
			first = false;
			printf("  %-8s %s %s iteration %d: %s\n", col(st, 3), col(st, 0), col(st, 1),
			       sqlite3_column_int(st, 2), col(st, 4));
		}
		sqlite3_finalize(st);
	}
	show_monitors(&db, run_id);
	printf("\n");
	if (summary_print_run(stdout, &db, run_id))
		ret = EXIT_RUNTIME;
	db_close(&db);
	return ret;
}
