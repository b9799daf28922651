/*
 * The questions `list`, `show` and the run summary ask of the results
 * database, one function each.  Every function reads all its rows before
 * it returns: 0 and the answer, or -1 after one error naming the file
 * (a damaged database never yields half a table).  Strings are malloc'ed,
 * never NULL unless said; free with the matching *_free().
 */
#ifndef MMB_DB_READ_H
#define MMB_DB_READ_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `list runs`: one line per run, by id. */
struct db_run_line {
	int64_t id;
	char *label, *experiment, *status, *accel;	/* experiment, accel: "" if unknown */
	double started;			/* wall clock seconds, 0 if unknown */
	int iterations;			/* measured ok (imports: samples per series) */
	int failed;
	int samples;
	int disturbed;			/* measured ok iterations marked disturbed */
};
int db_list_runs(struct mmb_db *db, struct db_run_line **out, size_t *n);
void db_run_lines_free(struct db_run_line *v, size_t n);

/* `list kernels`: one line per label, in creation order. */
struct db_kernel_line {
	char *label, *release, *base_commit;	/* "" if unknown */
	int runs, samples;
};
int db_list_kernels(struct mmb_db *db, struct db_kernel_line **out, size_t *n);
void db_kernel_lines_free(struct db_kernel_line *v, size_t n);

/* `show RUN`: the run's row with its kernel label and machine. */
struct db_run_detail {
	char *label, *experiment, *config_path, *config_text, *status, *accel;
	char *release, *version, *cmdline, *config_hash;
	char *harness_version, *git_sha, *compiler;
	char *hostname, *cpu_model;	/* "" without a machine row */
	double started, finished;	/* 0 if unknown */
	int ncpus;
	int64_t mem_bytes;
	char *options;			/* runs.options, as stored (resume parses it, never
					   shown); NULL when not recorded */
	char *host;			/* the host of the process that ran it, "" if unknown */
	int pid;
	char *config_raw;		/* config_text as stored: what resume parses and
					   compares, never shown (config_text is, escaped) */
};
/* 0 and filled, 1 when there is no such run, -1 on error. */
int db_run_detail(struct mmb_db *db, int64_t run_id, struct db_run_detail *out);
void db_run_detail_release(struct db_run_detail *r);
/* The newest run's id, 0 when there is none. */
int db_last_run_id(struct mmb_db *db, int64_t *id);

/*
 * What a run has recorded per (workload, variant, params), for `run --resume`:
 * measured rows (iteration > 0), the highest measured number, warm-up
 * rows, and whether the variant was skipped (a 'skipped' row).
 */
struct db_variant_done {
	char *workload, *variant, *params;	/* params "" if NULL */
	int measured, last, warmups;
	bool skipped;
};
int db_run_recorded(struct mmb_db *db, int64_t run_id, struct db_variant_done **out, size_t *n);
void db_variant_done_free(struct db_variant_done *v, size_t n);

/* Iterations of a run whose status is not ok (failed, skipped), by id. */
struct db_iteration_line {
	char *workload, *variant, *status, *reason;
	int iteration;
};
int db_run_unsuccessful(struct mmb_db *db, int64_t run_id, struct db_iteration_line **out,
			size_t *n);
void db_iteration_lines_free(struct db_iteration_line *v, size_t n);

/*
 * Mean vmstat delta per measured ok iteration of the counters mm reviewers
 * ask about first (mmtests' "Ops Minor Faults", "THP fault alloc", ...),
 * per (workload, variant, counter), in the run's order.
 */
struct db_counter_mean {
	char *workload, *variant, *key;
	double mean;
};
int db_run_vmstat_means(struct mmb_db *db, int64_t run_id, struct db_counter_mean **out,
			size_t *n);
void db_counter_means_free(struct db_counter_mean *v, size_t n);

/*
 * A run's samples grouped by (workload, variant, metric), in recording
 * order; values of disturbed iterations are counted, not kept.
 */
struct db_run_series {
	char *workload, *variant, *metric, *unit;	/* unit "" if none */
	int better;
	double *v;		/* the clean iterations' values (compare's) */
	size_t n, alloc;
	double *dv;		/* the disturbed iterations' values: shown, marked */
	size_t ndisturbed, dalloc;
};
int db_run_series(struct mmb_db *db, int64_t run_id, struct db_run_series **out, size_t *n);
/*
 * Why the run's iterations were disturbed, in one line: the reason most
 * of them recorded ("foreign CPU 80% of 2 CPUs (limit 10%)"), into *why
 * (malloc'ed, NULL when none was).  0, or -1 on a database error.
 */
int db_run_disturbed_reason(struct mmb_db *db, int64_t run_id, char **why);
void db_run_series_free(struct db_run_series *v, size_t n);

/*
 * Every sample of (workload, variant, metric) in the usable runs of the
 * labels, in recording order (bench/power.c pools them); *better is their
 * direction, -1 after an error when both directions were recorded.
 */
int db_label_samples(struct mmb_db *db, const char *const *labels, size_t nl,
		     const char *workload, const char *variant, const char *metric,
		     double **vals, size_t *n, int *better);

/* ---- `mmbench export` ---- */

/* One sample as export writes it; strings are the row's, valid during the call. */
struct db_export_row {
	const char *label, *workload, *variant, *metric, *unit;	/* unit "" if none */
	int64_t run_id;
	int better, iteration, seq;
	double value;
	bool same_names;	/* label .. better as in the previous row (a block's later samples) */
};
/*
 * Every sample of the usable runs (complete, interrupted: what compare
 * pools) of labels[0..nl) and runs[0..nr) (both empty: every usable run),
 * by run then recording order; fn's non-zero return stops it (returned).
 * QUERY-style -2 after naming an unknown label or run; -1 on a DB error.
 */
/* The labels and runs exist: 0; -2 after naming the first that does not; -1. */
int db_export_check(struct mmb_db *db, const char *const *labels, size_t nl,
		    const int64_t *runs, size_t nr);
int db_export_samples(struct mmb_db *db, const char *const *labels, size_t nl,
		      const int64_t *runs, size_t nr,
		      int (*fn)(const struct db_export_row *r, void *arg), void *arg);

/* ---- what `run --compare previous` and `ab` ask ---- */

struct strbuf;

/* The label of the newest usable run of another label (NULL: none). */
int db_previous_label(struct mmb_db *db, const char *label, char **out);
/* Complete runs of label made from this experiment text under accel (ab's rounds). */
int db_count_rounds(struct mmb_db *db, const char *label, const char *config_text,
		    const char *accel, int *n);
/* The newest run of label (0: none), for what ab --host records with it. */
int db_newest_run(struct mmb_db *db, const char *label, int *id);
/* Usable runs of label (what compare pools without --last). */
int db_count_usable(struct mmb_db *db, const char *label, int *n);
/*
 * The mean time of a measured iteration of workload in earlier runs of
 * experiment (reproduce's time estimate), in seconds; *n iterations (0: none).
 */
int db_iteration_seconds(struct mmb_db *db, const char *experiment, const char *workload,
			 double *mean_s, int *n);
/* The accelerators the usable runs of labels a and b were made under, ", "-joined into out. */
int db_usable_accels(struct mmb_db *db, const char *a, const char *b, struct strbuf *out, int *n);

#endif
