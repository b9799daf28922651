/* mmbench show RUN: everything recorded about one run. */
#include "builtin.h"
#include "db.h"
#include "parse-options.h"
#include "notes.h"
#include "query.h"
#include "read.h"
#include "summary.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The vmstat counters mm reviewers ask about first: mean delta per measured iteration. */
static int show_monitors(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct db_counter_mean *v;
	size_t n;

	if (db_run_vmstat_means(db, run_id, &v, &n))
		return -1;
	if (n)
		fprintf(out, "\nvmstat, mean delta per measured iteration\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-18s %-24s %-24s %14.1f\n", ctl_show(v[i].workload),
			ctl_show(v[i].variant), ctl_show(v[i].key), v[i].mean);
	db_counter_means_free(v, n);
	return 0;
}

static int show_env(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct query_env *e;
	size_t n;

	fprintf(out, "\nenvironment (* = set by this run, was)\n");
	if (query_run_env(db, run_id, &e, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %c %-28s %s%s%s%s\n", e[i].set ? '*' : ' ', ctl_show(e[i].key),
			ctl_show(e[i].value), e[i].set ? "  (was " : "",
			e[i].set ? ctl_show(e[i].original) : "",
			e[i].set ? ")" : "");
	query_env_free(e, n);
	return 0;
}

static int show_failed(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct db_iteration_line *v;
	size_t n;

	if (db_run_unsuccessful(db, run_id, &v, &n))
		return -1;
	if (n)
		fprintf(out, "\nfailed or skipped iterations\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-8s %s %s iteration %d: %s\n", ctl_show(v[i].status),
			ctl_show(v[i].workload), ctl_show(v[i].variant), v[i].iteration,
			ctl_show(v[i].reason));
	db_iteration_lines_free(v, n);
	return 0;
}

/* The run's own row; 1 when there is no such run. */
static int show_run(FILE *out, struct mmb_db *db, int64_t run_id, bool config)
{
	struct db_run_detail r;
	int rc = db_run_detail(db, run_id, &r);

	if (rc)
		return rc;
	if (config) {
		fputs(r.config_text, out);
		db_run_detail_release(&r);
		return 0;
	}
	fprintf(out, "run          %lld\n", (long long)run_id);
	fprintf(out, "kernel       %s\n", ctl_show(r.label));
	fprintf(out, "experiment   %s (%s)\n", ctl_show(r.experiment), ctl_show(r.config_path));
	fprintf(out, "status       %s\n", r.status);
	fprintf(out, "accel        %s\n", r.accel);
	print_time(out, "started", r.started);
	print_time(out, "finished", r.finished);
	fprintf(out, "release      %s\n", r.release);
	fprintf(out, "version      %s\n", r.version);
	fprintf(out, "cmdline      %s\n", r.cmdline);
	fprintf(out, "config hash  %s\n", *r.config_hash ? r.config_hash : "(not available)");
	fprintf(out, "machine      %s: %s, %d CPUs, %.1f GiB\n", r.hostname, r.cpu_model, r.ncpus,
		r.mem_bytes / 1073741824.0);
	fprintf(out, "mmbench      %s (%s), built with %s\n", r.harness_version, r.git_sha,
		r.compiler);
	db_run_detail_release(&r);
	return 0;
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

		fprintf(out, "  %-18s %-16s %4d", ctl_show(x->workload), ctl_show(x->variant),
			x->iteration);
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

/* Per variant: the perf counters of its timed regions (docs/counters.md). */
static int show_counters(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct perf_stat_row *v;
	size_t n;

	if (db_perf_stat_rows(db, run_id, &v, &n))
		return -1;
	if (n)
		fprintf(out, "\nperf counters, per measured iteration (timed region; unsupported:"
			" counters.unsupported above)\n  %-18s %-16s %-44s %14s %14s %14s\n",
			"workload", "variant", "counter", "mean", "min", "max");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-18s %-16s %-44s %14.6g %14.6g %14.6g\n", v[i].workload,
			v[i].variant, v[i].key, v[i].mean, v[i].min, v[i].max);
	db_perf_stat_rows_free(v, n);
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
	int ret, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_BOOL(0, "config", &config, "the experiment file as it was run"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, "show", "RUN", 0);
	if (n < 0)
		return EXIT_USAGE;
	if (n > 1)
		die_usage("unexpected argument '%s'", argv[1]);
	which = argv[0];
	if (!which) {
		error("which run? (RUN: a number from `mmbench list runs`, or 'last')");
		parse_options_usage(stderr, opts, "show", "RUN");
		return EXIT_USAGE;
	}
	if ((ret = command_open_db(&db, dbpath)))
		return ret;
	if (!strcmp(which, "last")) {
		if (db_last_run_id(&db, &run_id)) {
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
		if (!ret)
			ret = show_counters(out, &db, run_id);
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
