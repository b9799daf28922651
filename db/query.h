/*
 * Reading results back for compare, plot and report.
 *
 * The unit of comparison is a kernel *label*: all runs recorded under one
 * label are pooled.  Only runs whose status is 'complete' or 'interrupted'
 * contribute samples ('failed' and 'running' runs are listed in the
 * metadata but never pooled).  Warm-up iterations are never in `samples`.
 *
 * Typical use (compare, plot, report):
 *
 *	struct query_set qs;
 *	struct query_filter f = { .workload = NULL, .metric = NULL };
 *	int rc = query_load(&db, labels, nlabels, &f, &qs);
 *	if (rc == QUERY_EUNKNOWN)	// message already printed
 *		return EXIT_USAGE;
 *	for (size_t r = 0; r < qs.nr; r++) {
 *		struct query_row *row = &qs.rows[r];
 *		// row->series[0] is the baseline label, row->series[i] label i;
 *		// a series may have n == 0 when that label lacks the metric.
 *	}
 *	query_set_release(&qs);
 *
 * Row order: by the first label that has the row, then by the order the
 * samples were recorded (= the order the experiment declared workloads,
 * variants and metrics), so tables keep "parse order" like mmtests.
 *
 * All strings in the structures are owned by the set and freed by
 * query_set_release().
 */
#ifndef MMB_QUERY_H
#define MMB_QUERY_H

#include "db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUERY_EUNKNOWN	(-2)	/* a label is not in the DB (exit 2) */

/* One value of a series, with where it came from. */
struct query_series {
	size_t n, alloc;
	double *v;		/* values in recording order (run id, sample id) */
	int64_t *run_id;	/* [n] run of each value */
	int *iteration;		/* [n] measured iteration number (1..N) */
	double *level;		/* [n] interference level of the value's iteration
				   (interference.h), NAN when not measured; NULL
				   when no value of the series has one */
	bool *disturbed;	/* [n] its iteration was disturbed (kept values only);
				   NULL when none was */
	size_t ndisturbed;	/* disturbed values: left out, or kept and marked */
	size_t nmeasured;	/* values whose iteration has an interference record */
	bool borrowed;		/* v, run_id and iteration are in the set's arena:
				   query_row_release() leaves them */
};

struct query_row {
	char *workload;
	char *variant;		/* "k=v,k=v" matrix params, "" when none */
	char *params_json;	/* the same typed (variant.h), as the first series has them */
	char *metric;
	char *unit;		/* may be "" */
	int better;		/* +1 higher is better, -1 lower is better */
	struct query_series *series;	/* [set->nlabels] */
	bool monitor;		/* a monitor row (querymon.h): metric is its lkp name */
};

struct query_run {
	int64_t id;
	char *status;		/* running, complete, interrupted, failed */
	char *accel;		/* host, kvm, tcg, import (may be "") */
	char *experiment, *config_path;
	char *release, *version, *cmdline, *config_hash, *compiler;
	char *harness_version, *git_sha, *host;
	double started, finished;	/* wall clock seconds, 0 if unknown */
	int64_t machine_id;		/* 0 if unknown */
	size_t nsamples;		/* samples this run contributed (0 unless pooled) */
	bool usable;			/* complete or interrupted (db_run_usable()) */
	bool pooled;			/* query_load() used it (usable, within --last) */
};

struct query_kernel {
	int64_t id;
	char *label;			/* shown (escaped, as all text read: db-internal.h) */
	char *key;			/* the label as asked for: to select it again, never shown */
	char *release, *version, *cmdline, *config_hash;
	char *base_commit, *patches, *compiler;	/* "" when unknown */
	struct query_run *runs;		/* every run of the label, by id */
	size_t nruns;
	size_t nruns_pooled;		/* complete + interrupted; after query_load(),
					   those it used (--last keeps the newest) */
};

struct query_filter {
	const char *workload;	/* NULL = all */
	const char *metric;	/* NULL = all */
	const char *variant;	/* NULL = all */
	int last_runs;		/* > 0: only each label's last N usable runs */
	bool keep_disturbed;	/* pool values of disturbed iterations too */
	bool no_guard;		/* compare --no-guard: raw verdicts (implies keep) */
	bool mix_clocks;	/* compare --mix-clocks: not a filter, compare_check_clocks()'s */
	bool mix_arches;	/* compare --mix-arches: likewise, compare_check_arches()'s */
	const int64_t *machines;	/* non-NULL: only runs on these machine ids, and
					   runs without one (compare --by machine) */
	size_t nmachines;
};

struct query_set {
	size_t nlabels;
	struct query_kernel *kernels;	/* [nlabels], same order as labels */
	struct query_row *rows;
	size_t nr;
	size_t nsamples;		/* total values loaded */
	bool kept_disturbed;		/* filter's keep_disturbed */
	bool no_guard;			/* filter's no_guard */
	void *arena;			/* the series' arrays of a large load (query.c) */
	size_t arena_len;
	struct query_loader *stream;	/* query_open(): what query_row_fill() reads with */
	size_t nstream;			/* rows [0, nstream) are read by query_row_fill() */
};

/*
 * Load the samples of labels[0..n) (labels[0] is the baseline) with one
 * ordered query.  Returns 0, QUERY_EUNKNOWN after printing
 * "unknown kernel label 'X'; known labels: ..." for a missing label, or -1
 * on a database error.  A filter matching nothing is not an error: nr == 0.
 */
int query_load(struct mmb_db *db, const char *const *labels, size_t n,
	       const struct query_filter *f, struct query_set *out);
void query_set_release(struct query_set *qs);
/*
 * The same rows, kernels and order as query_load(), but no sample read:
 * each row's series have n == 0 until query_row_fill() reads that row's
 * samples (the same values in the same order query_load() gives), and
 * query_row_drop() frees them again, keeping n, ndisturbed and nmeasured.
 * compare holds one row's samples at a time this way (issue 31).  Rows
 * added after (monitor rows) are not touched by either.
 */
int query_open(struct mmb_db *db, const char *const *labels, size_t n,
	       const struct query_filter *f, struct query_set *out);
/* 0 (a filled row, or a row not from the stream: nothing to do), -1 after a message. */
int query_row_fill(struct mmb_db *db, struct query_set *qs, size_t r);
void query_row_drop(struct query_set *qs, size_t r);
/*
 * Row r's samples: those held, or of a row query_row_fill() has yet to
 * read, those the index lists (disturbed ones too; a label given twice
 * counted once): what reading and computing the row will cost.
 */
size_t query_row_samples(const struct query_set *qs, size_t r);
/* --last N: parse N (>= 1) into f->last_runs; -1 (and no message) when bad. */
int query_filter_set_last(struct query_filter *f, const char *v);
/* Is run r pooled under f (usable, on one of f's machines)?  --last aside. */
bool query_run_selected(const struct query_filter *f, const struct query_run *r);

/* Only the metadata (kernels and their runs), no samples. */
int query_kernels(struct mmb_db *db, const char *const *labels, size_t n,
		  struct query_kernel **out);
void query_kernel_release(struct query_kernel *k);

/* All labels in the DB, in creation order; *out is a malloc'ed array of
 * malloc'ed strings. */
int query_labels(struct mmb_db *db, char ***out, size_t *n);
void query_free_strv(char **v, size_t n);

struct query_machine {
	int64_t id;
	char *hostname, *cpu_model;
	int ncpus;
	uint64_t mem_bytes;
};
/* 0 and filled, 1 when there is no such machine, -1 on error. */
int query_machine(struct mmb_db *db, int64_t machine_id, struct query_machine *out);
void query_machine_release(struct query_machine *m);

/* The environment recorded for a run (THP knobs, governor, swap, ...). */
struct query_env {
	char *key, *value, *original;	/* original may be "" */
	bool set;			/* an original was recorded: this run set it */
};
int query_run_env(struct mmb_db *db, int64_t run_id, struct query_env **out, size_t *n);
void query_env_free(struct query_env *e, size_t n);

/* Append value v of run/iteration to s; note: disturbed and level of its iteration. */
void query_series_add(struct query_series *s, double v, int64_t run, int iteration,
		      bool disturbed, double level);
void query_row_release(struct query_row *r, size_t nlabels);

/* Index of a row in qs by (workload, variant, metric); -1 if absent. */
long query_find_row(const struct query_set *qs, const char *workload,
		    const char *variant, const char *metric);

#endif
