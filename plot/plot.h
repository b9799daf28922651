/*
 * Plots for reviews, drawn by gnuplot.
 *
 * Every picture NAME.<fmt> is written next to NAME.gp (the script) and
 * NAME.dat (its data, several blocks addressed with `index`), so that
 * `cd DIR && gnuplot NAME.gp` re-renders it.  gnuplot runs as a process
 * with the script on its stdin (argv exec, no shell); the picture is
 * written under a temporary name and renamed on success, and on failure
 * nothing of that plot is left behind.
 */
#ifndef MMB_PLOT_H
#define MMB_PLOT_H

#include "stats.h"
#include "util.h"
#include "variant.h"

#include <stdbool.h>
#include <stddef.h>

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_PDF };

struct plot_opts {
	enum plot_format format;
	int width, height;		/* pixels (pdf: 100 px per inch) */
	const char *outdir;
	const char *machine;		/* caption: "host, CPU, 2 CPUs, 24 GiB" */
	enum stats_test_kind test;	/* significance of the change chart */
	double alpha;			/* two-sided level, 0.05 */
	/*
	 * When set, pictures are queued and drawn by one gnuplot process in
	 * gnuplot_batch_run() (starting gnuplot costs ~0.3 s on a slow VM);
	 * otherwise each is drawn at once.
	 */
	struct gnuplot_batch *batch;
	/*
	 * What a picture pasted alone must say (plot_comparison() fills them
	 * from the comparison value; NULL: unknown): the experiment before the
	 * title, the kernel release(s) in the caption, each label's key entry
	 * with what differs between the labels, the runs per label, and that
	 * disturbed values were kept.
	 */
	const char *experiment;
	const char *kernels;		/* "kernel 6.12.9" or "kernels: a 6.12.9, b 6.13" */
	char *const *legend;		/* [nlegend] "b: thp.enabled=always" */
	const size_t *nruns;		/* [nlegend] runs pooled per label */
	size_t nlegend;
	bool kept_disturbed;		/* --keep-disturbed kept some disturbed values */
};
void plot_opts_init(struct plot_opts *o);
int plot_format_parse(const char *s, enum plot_format *out);
const char *plot_format_ext(enum plot_format f);

/* The samples of one kernel for one variant. */
struct plot_cell {
	double *v;
	size_t n;
	/*
	 * The verdict against the baseline, from the comparison value
	 * (compare's BH-adjusted test and guard), so plots and tables agree:
	 * PLOT_CLS_*.  The plot computes no verdict of its own: a cell left at
	 * PLOT_CLS_AUTO is drawn as having none.
	 */
	int cls;
	double p;		/* p (or q) shown with the verdict; NaN if none */
	/* the value's change of the statistic (Welch) and its CI, NULL: none */
	const struct stats_test *interval;
	bool interval_ok;
	enum stats_mean_kind mean;	/* the statistic interval is of */
};
#define PLOT_CLS_AUTO		0
#define PLOT_CLS_NONE		1
#define PLOT_CLS_BETTER		2
#define PLOT_CLS_WORSE		3
#define PLOT_CLS_UNTESTED	4
#define PLOT_CLS_INCONCLUSIVE	5	/* the guard: the machine cannot back one */

/*
 * One workload/metric across kernels and variants.  kernels[0] is the
 * baseline.  cells[v * nkernels + k] holds variant v of kernel k.  Every
 * name is stored with its control bytes escaped (ctl_escape()): this is
 * where names from a database enter the scripts and data files, so a
 * newline in one can never start a line of gnuplot.
 */
struct plot_group {
	char *workload, *metric, *unit;
	int better;			/* +1 higher is better, -1 lower */
	size_t nkernels;
	char **kernels;
	size_t nvariants;
	char **variants;		/* "clients=4", "test=fork,folio_kb=64", "" */
	struct variant *typed;		/* [nvariants] the same with their types (variant.h) */
	struct plot_cell *cells;
	enum stats_mean_kind mean;	/* the statistic drawn, as compare's row (AUTO: Amean) */
	unsigned kinds;			/* PLOT_KIND_* to draw; 0 = every kind that fits */
};
#define PLOT_KIND_MAIN		(1u << 0)	/* scaling or box plot */
#define PLOT_KIND_CHANGE	(1u << 1)
#define PLOT_KIND_DIST		(1u << 2)
void plot_group_init(struct plot_group *g, const char *workload, const char *metric,
		     const char *unit, int better, size_t nkernels, const char *const *kernels);
/* Index of variant (added when new, typed from its text). */
size_t plot_group_variant(struct plot_group *g, const char *variant);
/* Variant v's typed params from the database's JSON (a bad one keeps the text's). */
void plot_group_variant_typed(struct plot_group *g, size_t v, const char *json);
void plot_group_add(struct plot_group *g, size_t variant, size_t kernel, double value);
struct plot_cell *plot_group_cell(const struct plot_group *g, size_t v, size_t k);
void plot_group_release(struct plot_group *g);

/* A picture that was written, for the report to embed. */
struct plot_file {
	char *name;			/* file name inside outdir, "pft-faults-scaling.png" */
	char *kind;			/* scaling, box, change, dist */
	char *title;
};
struct plot_list {
	struct plot_file *items;
	size_t nr, alloc;
};
void plot_list_init(struct plot_list *l);
void plot_list_release(struct plot_list *l);
/* Drop the pictures the batch's run skipped (gnuplot could not draw them). */
struct gnuplot_batch;
void plot_list_drop_skipped(struct plot_list *l, const struct gnuplot_batch *b);

/*
 * Every plot that fits the group: scaling (metric vs clients/threads) or
 * per-operation box plots, the relative-change chart and distributions.
 * Returns 0, or -1 after printing one error (gnuplot's message included).
 */
int plot_group_all(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out);

int plot_scaling(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out);
int plot_boxes(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out);
int plot_change(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out);
int plot_dist(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out);

/* The variant key that makes a group a scaling one ("clients"), or NULL. */
const char *plot_scaling_key(const struct plot_group *g);

/*
 * gnuplot driver.  script is the text of NAME.gp; the output file must be
 * set with the placeholder line "set output @OUTPUT@" which is replaced by
 * the final name in NAME.gp and by a temporary name for the run.  data
 * (may be NULL) is written as NAME.dat.  Returns 1 (after a warning) when
 * the batch already has a picture of that name.
 */
int gnuplot_render(const struct plot_opts *o, const char *name, const char *script,
		   const char *data);
/*
 * A batch of pictures for one directory, drawn by one gnuplot process.  If
 * gnuplot fails on any of them, the error names that picture and none of
 * the batch's files is left behind.
 */
struct gnuplot_batch;
struct gnuplot_batch *gnuplot_batch_new(const char *dir);
int gnuplot_batch_run(struct gnuplot_batch *b);
/* Was NAME.ext (a file name in the batch's directory) skipped by the last run? */
bool gnuplot_batch_skipped(const struct gnuplot_batch *b, const char *file);
size_t gnuplot_batch_size(const struct gnuplot_batch *b);
void gnuplot_batch_free(struct gnuplot_batch *b);

/* "set terminal ..." line for the format and size. */
void gnuplot_terminal(const struct plot_opts *o, struct strbuf *sb);
/* gnuplot string literal: "..." with \ and " escaped. */
char *gnuplot_quote(const char *s);
/* Check gnuplot runs at all; -1 with one error naming the fix. */
int gnuplot_check(void);

/* File-name-safe form of a string ([A-Za-z0-9._+-], others '_'). */
char *plot_sanitize(const char *s);

#endif
