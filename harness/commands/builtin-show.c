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

static void print_time(FILE *out, const char *what, double t)
{
	char buf[64];

	command_format_time(buf, sizeof(buf), t, "%Y-%m-%d %H:%M:%S %z");
	fprintf(out, "%-12s %s\n", what, buf);
}

/* What show prints of a run besides its own row, read before anything is printed. */
struct run_facts {
	struct query_env *env;
	size_t nenv;
	struct db_iteration_line *failed;
	size_t nfailed;
	struct db_counter_mean *vmstat;
	size_t nvmstat;
	struct iteration_note *notes;
	size_t nnotes;
	struct perf_stat_row *counters;
	size_t ncounters;
};

static int facts_read(struct run_facts *f, struct mmb_db *db, int64_t run_id)
{
	memset(f, 0, sizeof(*f));
	if (query_run_env(db, run_id, &f->env, &f->nenv) ||
	    db_run_unsuccessful(db, run_id, &f->failed, &f->nfailed) ||
	    db_run_vmstat_means(db, run_id, &f->vmstat, &f->nvmstat) ||
	    db_iteration_notes(db, run_id, &f->notes, &f->nnotes) ||
	    db_perf_stat_rows(db, run_id, &f->counters, &f->ncounters))
		return -1;
	return 0;
}

static void facts_release(struct run_facts *f)
{
	query_env_free(f->env, f->nenv);
	db_iteration_lines_free(f->failed, f->nfailed);
	db_counter_means_free(f->vmstat, f->nvmstat);
	db_iteration_notes_free(f->notes, f->nnotes);
	db_perf_stat_rows_free(f->counters, f->ncounters);
}

static void show_env(FILE *out, const struct query_env *e, size_t n)
{
	fprintf(out, "\nenvironment (* = set by this run, was)\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %c %-28s %s%s%s%s\n", e[i].set ? '*' : ' ', ctl_show(e[i].key),
			ctl_show(e[i].value), e[i].set ? "  (was " : "",
			e[i].set ? ctl_show(e[i].original) : "",
			e[i].set ? ")" : "");
}

static void show_failed(FILE *out, const struct db_iteration_line *v, size_t n)
{
	if (n)
		fprintf(out, "\nfailed or skipped iterations\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-8s %s %s iteration %d: %s\n", ctl_show(v[i].status),
			ctl_show(v[i].workload), ctl_show(v[i].variant), v[i].iteration,
			ctl_show(v[i].reason));
}

/* The vmstat counters mm reviewers ask about first: mean delta per measured iteration. */
static void show_monitors(FILE *out, const struct db_counter_mean *v, size_t n)
{
	if (n)
		fprintf(out, "\nvmstat, mean delta per measured iteration\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-18s %-24s %-24s %14.1f\n", ctl_show(v[i].workload),
			ctl_show(v[i].variant), ctl_show(v[i].key), v[i].mean);
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

/* v in fmt, or "-" in the same width (dash) when v is not a number */
static void print_value(FILE *out, const char *dash, const char *fmt, double v)
{
	if (isnan(v))
		fprintf(out, dash, "-");
	else
		fprintf(out, fmt, v);
}

/* Per measured iteration: what else ran, and why it counts as disturbed. */
static void show_interference(FILE *out, const struct iteration_note *v, size_t n)
{
	size_t nd = 0;

	if (!n)
		return;
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
		print_value(out, " %7s", " %6.1f%%", 100 * x->foreign_share);
		print_value(out, " %7s", " %6.1f%%", 100 * x->steal_share);
		print_value(out, " %6s", " %6.2f", x->load1);
		print_value(out, " %8s", " %8.0f", x->nivcsw);
		print_value(out, " %9s", " %8.0fM", x->mem_available_bytes / (1 << 20));
		fprintf(out, "  %s\n", x->disturbed ? x->disturbed : "");
	}
}

/* Per variant: the perf counters of its timed regions (docs/counters.md). */
static void show_counters(FILE *out, const struct perf_stat_row *v, size_t n)
{
	if (n)
		fprintf(out, "\nperf counters, per measured iteration (timed region; unsupported:"
			" counters.unsupported above)\n  %-18s %-16s %-44s %14s %14s %14s\n",
			"workload", "variant", "counter", "mean", "min", "max");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-18s %-16s %-44s %14.6g %14.6g %14.6g\n", v[i].workload,
			v[i].variant, v[i].key, v[i].mean, v[i].min, v[i].max);
}

/* The run's facts after its row: environment, failures, monitors, interference, counters, summary. */
static int show_facts(FILE *out, struct mmb_db *db, int64_t run_id)
{
	struct run_facts f;
	int ret = facts_read(&f, db, run_id);

	if (!ret) {
		show_env(out, f.env, f.nenv);
		show_failed(out, f.failed, f.nfailed);
		show_monitors(out, f.vmstat, f.nvmstat);
		show_interference(out, f.notes, f.nnotes);
		show_counters(out, f.counters, f.ncounters);
		fprintf(out, "\n");
		ret = summary_print_run(out, db, run_id);
	}
	facts_release(&f);
	return ret;
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
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_BOOL(0, "config", &config, "the experiment file as it was run"),
		OPT_END(),
	};

	if (parse_one_operand(argc, argv, opts, "show", "RUN", "",
			      "which run? (RUN: a number from `mmbench list runs`, or 'last')", &which))
		return EXIT_USAGE;
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
	if (!ret && !config)
		ret = show_facts(out, &db, run_id);
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
