/*
 * A comparison of kernels: per (workload, variant, metric) row, a summary per
 * label and a test of each label against the baseline (label 0), with the
 * p-values of all rows x labels adjusted together (Benjamini-Hochberg).
 * Formatters turn it into the mmtests, lkp (0-day ncompare), markdown,
 * CSV, JSON or the default readable table.  See docs/statistics.md.
 */
#ifndef MMB_COMPARE_H
#define MMB_COMPARE_H

#include "levels.h"
#include "parse-options.h"
#include "query.h"
#include "stats.h"

#include <stdio.h>

struct strbuf;

#define COMPARE_ALPHA 0.05
/*
 * From this many samples in a selection, compare_open() computes rows on a
 * second thread while it reads the next (compare_select.thread_samples):
 * below, starting the thread costs more than it saves.  A build with
 * -DCOMPARE_THREAD_SAMPLES=1 takes the threaded path on every compare (a
 * test-only build: the golden e2e tests pass on it).
 */
#ifndef COMPARE_THREAD_SAMPLES
#define COMPARE_THREAD_SAMPLES 200000
#endif

enum compare_verdict {
	VERDICT_BASELINE,	/* label 0 */
	VERDICT_MISSING,	/* no samples for this label */
	VERDICT_UNTESTED,	/* too few samples for the test */
	VERDICT_NONE,		/* no significant change */
	VERDICT_BETTER,		/* significant improvement */
	VERDICT_WORSE,		/* significant regression */
	VERDICT_INCONCLUSIVE,	/* the machine's state cannot back a verdict: why[] */
};

/*
 * What the guard, the notes and the mmtests table read of one label's
 * values in a row: taken while the row's samples are loaded, since
 * compare_open() holds one row's samples at a time (query_open()).
 */
struct compare_side {
	double level;		/* mean interference level of the values that have one */
	size_t nlevel;		/* values with a level (0: none) */
	size_t nruns;		/* runs among the values (stats_count_runs()) */
	bool drift;		/* the drift test had 2+ runs of 2+ values: F, p, ... */
	double F, p;		/* one-way ANOVA across the runs (verdict.c) */
	size_t druns;		/* the runs that took part */
	int64_t lo_run, hi_run;	/* the runs of the lowest and highest mean */
	double lo_mean, hi_mean;
	struct stats_summary mm;	/* mmtests' summary, values best first (c->mm_sums) */
	size_t ndisturbed;	/* disturbed iterations' values left out (or kept) */
};

/*
 * What a row measures, set when the row is built from its query row: all
 * a layout reads of it, so that no renderer reaches into db rows.
 */
struct compare_what {
	const char *workload, *variant, *metric;
	const char *unit;	/* may be "" */
	int better;		/* +1 higher is better, -1 lower is better */
	bool monitor;		/* a monitor row (monlist.h): never in the verdict */
};

struct compare_row {
	struct compare_what what;	/* its text is the query set's, which c owns */
	const struct query_row *q;	/* its series' samples are gone after compare_open()
					   unless compare_select.samples (compare.dropped) */
	struct compare_side *side;	/* [nlabels] */
	struct stats_summary *sum;	/* [nlabels] */
	struct stats_test *test;	/* [nlabels]; [0] unused */
	enum compare_verdict *verdict;	/* [nlabels] */
	char **why;			/* [nlabels] why inconclusive, else NULL */
	enum stats_mean_kind mean;	/* the statistic shown and tested (never AUTO) */
	enum compare_verdict *tested;	/* [nlabels] the verdict before the guard */
	struct stats_test *interval;	/* [nlabels] Welch's test of the shown statistic:
					   the change and CI plots draw (== test for Welch) */
	bool *interval_ok;		/* [nlabels] interval[i] computed (2+ values a side) */
	struct stats_level_info *level;	/* [nlabels] the unit test[i] used (levels.h) */
	struct stats_components *comp;	/* [nlabels] each label's run/within variance */
};

/* The clock the compared runs were timed on (clock.c). */
enum compare_clock {
	COMPARE_CLOCK_HOST,	/* runs on the machine itself: not stated */
	COMPARE_CLOCK_REAL_VM,	/* guests under KVM or TCG, host time */
	COMPARE_CLOCK_VIRTUAL,	/* guests on the virtual clock (icount) */
	COMPARE_CLOCK_MIXED,	/* both, with --mix-clocks */
};

/* Optional per-label metadata for the lkp header; arrays [nlabels] or NULL. */
struct compare_meta {
	char **compiler;	/* kernel compiler */
	char **governor;	/* cpufreq governor of the first pooled run */
	char **tbox_group;	/* machine hostname, "-N" suffix stripped */
	char **kconfig;
	char **commit;		/* sha: last patch, else base commit */
	char **subject;		/* that patch's subject */
};

/*
 * A pooled run of the selection with what it recorded (run_env), read once
 * by compare_open(): the arch check, the settings, the lkp header and the
 * report's settings table all read these.
 */
struct compare_run {
	size_t label;			/* its label's index */
	const struct query_run *run;	/* the query set's */
	struct query_env *env;		/* [nenv] */
	size_t nenv;
};

/* A recorded setting whose values differ between labels (or a label's runs). */
struct compare_setting {
	char *key;
	char **values;		/* [nlabels] "madvise", "always|never" (runs differ), "" unset */
};

struct compare {
	const struct query_set *qs;	/* what it was built from: layouts read the fields below */
	const char **label;	/* [nlabels] the labels, [0] the baseline (qs's text) */
	size_t nlabels;
	struct query_set *own;		/* the set compare_open() loaded, freed with c */
	struct compare_meta meta;	/* filled by compare_load_meta() */
	enum stats_test_kind test;
	enum stats_mean_kind mean;	/* as asked (--mean); AUTO: the run summary's */
	struct compare_row *rows;
	size_t nr;
	struct compare_run *runs;	/* [nruns] pooled runs, label order (none in a pair view) */
	size_t nruns;
	enum stats_unit unit;	/* asked for (--unit): AUTO, RUN or ITERATION */
	size_t ntests;		/* KPI comparisons that produced a p-value (BH's m) */
	size_t nmonitor_tests;	/* monitor rows' tests: a BH family of their own */
	size_t nbetter, nworse, nnone, nuntested;
	size_t ninconclusive;	/* turned inconclusive by compare_guard() */
	size_t *ndisturbed;	/* [nlabels] disturbed iterations' values left out
				   (or kept, with --keep-disturbed), over all rows */
	bool kept_disturbed;	/* --keep-disturbed */
	char *drift;		/* run-to-run drift warnings (verdict.c), NULL: none */
	char **drift_label;	/* [nlabels] each label's drift warning, or NULL */
	struct query_set *view;	/* compare_pair(): its two-label set (borrowing c's) */
	char *settings;		/* the labels' recorded settings differ: what, or NULL */
	struct compare_setting *setting;	/* [nsettings] the keys that differ */
	size_t nsettings;
	bool same_kernel;	/* every label is the same kernel build */
	enum compare_clock clock;	/* what the pooled runs were timed on */
	char arch[16];		/* the VM runs' guest arch, "mixed", "" no VM runs (arch.c) */
	bool verbose;		/* compare --verbose: variance components in the text */
	bool mm_sums;		/* rows' side[].mm are computed */
	bool dropped;		/* compare_open() freed each row's samples after its
				   summaries (not compare_select.samples): no value
				   of c->rows[r].q->series[] is left to draw */
};

/*
 * Honest verdicts (verdict.c): what the machine's state allows.  Called by
 * compare_build(); turns a verdict inconclusive, with the numbers in why[],
 * when a side has too few clean values, when many of a side's iterations
 * were disturbed, or when the two sides' interference differs enough to
 * explain a change.  The rules and limits: docs/statistics.md.
 */
#define GUARD_MIN_CLEAN 3		/* clean values per side for any verdict */
#define GUARD_BUSY_SHARE (1.0 / 3)	/* disturbed share of a side's values */
#define GUARD_LEVEL_DIFF 0.05		/* interference level difference */
#define DRIFT_ALPHA 0.001		/* one-way ANOVA across a label's runs */
void compare_guard(struct compare *c);
/* c->drift from c->drift_label[], a kernel named twice said once. */
void compare_join_drift(struct compare *c);
/* "6" or "6 (2 disturbed)" for label i of row r. */
void compare_n_cell(char *buf, size_t len, const struct compare *c, size_t r, size_t i);
/*
 * The unit the KPI rows were tested at, one line after prefix: "run, 3 v 3
 * (...)", or "iteration: 1 run per label: run-to-run variation not
 * measured; ..." (levels.h), or "none: ..." when no KPI row was tested;
 * then, when the tests saw fewer runs than the labels pooled, a line
 * saying how many and why ("runs with values: 1 v 1 of the 3 v 3 ...").
 */
void compare_unit_line(struct strbuf *out, const struct compare *c, const char *prefix);
/* "run" or "iteration" for label i of row r ("" for the baseline or no test). */
const char *compare_unit_name(const struct compare *c, size_t r, size_t i);
/* Per KPI row, each label's runs and variance components (compare --verbose). */
void compare_components_lines(struct strbuf *out, const struct compare *c);
/*
 * What else differs between the labels' recorded runs (THP, mTHP,
 * governor, swap, cmdline, tool versions, ...): c->settings gets one
 * paragraph or stays NULL; c->same_kernel when every label is one build.
 * From c->runs.
 */
void compare_load_settings(struct compare *c);
void compare_settings_release(struct compare *c, size_t nlabels);
/* view's settings: those of c that differ between the baseline and label i. */
void compare_settings_pair(const struct compare *c, size_t i, struct compare *view);
/* Fill side from label's values s (loaded): level, runs and drift (verdict.c). */
void compare_side_measure(const struct query_series *s, struct compare_side *side);
/*
 * The clock of qs's pooled runs into *clock; MMB_EUSAGE after one error
 * naming the labels when virtual and real clocks mix and !mix.
 */
int compare_check_clocks(const struct query_set *qs, bool mix, enum compare_clock *clock);
/* "real", "virtual" or "mixed" (CSV, JSON). */
const char *compare_clock_name(const struct compare *c);
/* "PREFIXvirtual (guest instructions; ...)\n"; nothing for runs on the host itself. */
void compare_clock_line(struct strbuf *out, const struct compare *c, const char *prefix);
/*
 * The guest arch of c's pooled VM runs (run_env vm.arch) into arch
 * ("x86_64", "arm64", "mixed", "" when none is a VM run); MMB_EUSAGE after
 * one error naming the labels when they mix and !mix (arch.c).
 */
int compare_check_arches(const struct compare *c, bool mix, char *arch, size_t len);
/* "PREFIXarm64 (the guest's)\n"; nothing for runs on the host itself. */
void compare_arch_line(struct strbuf *out, const struct compare *c, const char *prefix);
/*
 * The comparison's headline, "verdict: ...\n", from c's counts: compare's
 * last line and the report's verdict say it in the same words.
 */
void compare_verdict_line(struct strbuf *out, const struct compare *c);
/*
 * Is the 95% CI of label i in row r unbounded at this n: a bound infinite,
 * or a fall of 100% or more although both sides' values are positive
 * (Fieller's ratio or a rank interval with too few units)?
 */
bool compare_ci_unbounded(const struct compare *c, size_t r, size_t i);
/*
 * The CI cell every layout prints for label i of row r, with dec decimals:
 * "[-6.99%, -3.01%]", "[+270.92%, unbounded]", "unbounded" (no bound: the
 * notes say why in words), or "" when there is none.  One format for
 * every layout.
 */
void compare_ci_cell(char *buf, size_t len, const struct compare *c, size_t r, size_t i, int dec);
/* Lines after a table: disturbed counts and each inconclusive reason. */
void compare_guard_notes(struct strbuf *out, const struct compare *c);
/*
 * Did some row lose every value of a label because all its iterations were
 * disturbed?  Then true, with the one sentence saying so and what to do
 * in why: run, compare, plot and report exit non-zero on it.
 */
bool compare_all_disturbed(const struct compare *c, struct strbuf *why);
/* That sentence for what ("pft clients=2 faults/sec under 'base'"). */
void disturbed_sentence(struct strbuf *why, const char *what, size_t left);

/*
 * The comparison API.  A selection (labels, filters, --last, --mean, the
 * test, --keep-disturbed / --no-guard) goes in, the comparison value
 * (struct compare: rows with their summaries, tests, verdicts and guard
 * reasons) comes out, and the renderers below, plot/ and the report all
 * read that value.  compare, plot, report, ab, reproduce and run --compare
 * come through here; none of them runs another command.
 */
enum compare_need {
	COMPARE_NEED_ROWS,	/* plot, report: the selection has samples */
	COMPARE_NEED_COMMON,	/* compare: BASE and a NEW label share a row */
};

struct compare_select {
	const char *const *labels;	/* [0] the baseline */
	size_t nlabels;
	struct query_filter filter;
	enum stats_test_kind test;	/* default Welch */
	enum stats_mean_kind mean;	/* default AUTO */
	enum stats_unit unit;		/* default AUTO (--unit) */
	bool verbose;			/* compare --verbose */
	enum compare_need need;
	bool meta;			/* load the lkp header's metadata */
	bool samples;			/* keep every row's samples (a consumer that draws
					   every value: plots, ab's look); else each
					   row's are read and freed in turn.  Either way
					   compare_open() is the one pass over the DB */
	bool mm_sums;			/* the mmtests table's summaries (--format mmtests) */
	int monitors;			/* enum monitors_mode (monlist.h); init: none */
	size_t thread_samples;		/* from this many samples on, a second thread
					   computes rows: 0 COMPARE_THREAD_SAMPLES,
					   SIZE_MAX never (the output is the same) */
};
void compare_select_init(struct compare_select *s, const char *const *labels, size_t n);

/*
 * Load the selection from db and build its value into c (which then owns
 * the query set; compare_release() frees both).  0; MMB_EUSAGE after one
 * message (an unknown label, nothing selected: what each label has is
 * named); -1 on a database error.
 */
int compare_open(struct mmb_db *db, const struct compare_select *s, struct compare *c);
/* Summaries, tests, BH and verdicts for every row of qs. */
void compare_build(struct compare *c, const struct query_set *qs, enum stats_test_kind test);
/* The same, showing and testing the central statistic mean (--mean). */
void compare_build_mean(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean);
/* The same at unit u (--unit): AUTO tests run means when a side has 2+ runs. */
void compare_build_unit(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean, enum stats_unit u);
void compare_release(struct compare *c);
/* What one row owns (a row dropped from c, as monitors_settle() does). */
void compare_row_release(struct compare_row *row, size_t nlabels);
/*
 * The BASE-vs-label-i part of c as a comparison of its own (the report's
 * per-kernel tables): the same rows, summaries, tests, verdicts and
 * reasons, nothing computed again; ntests counts that pair's tests.  The
 * view borrows c's data: release it (compare_release) before c.
 */
void compare_pair(const struct compare *c, size_t i, struct compare *view);
/*
 * c->runs: each pooled run of c's set and its recorded env, read in one
 * pass.  0, or -1 on a database error (the runs listed, envs empty).
 */
int compare_load_runs(struct compare *c, struct mmb_db *db);
/* The entry of c->runs for run, or NULL (not pooled). */
const struct compare_run *compare_run_of(const struct compare *c, const struct query_run *run);
/* Fill c->meta from the database (for the lkp header); best effort. */
int compare_load_meta(struct compare *c, struct mmb_db *db);

/*
 * Count a row's verdict v in c's headline (nbetter ... ninconclusive), or
 * with !add take it back; MISSING is not counted.
 */
void compare_tally(struct compare *c, enum compare_verdict v, bool add);

/* Is label i of row r significant under the chosen test (after BH)? */
bool compare_significant(const struct compare *c, size_t r, size_t i);


/* Does any row have samples of the baseline and of at least one NEW label? */
bool compare_has_common(const struct query_set *qs);
/*
 * One error saying why the selection f compares nothing, naming what each
 * label has; all is the same labels loaded without f's workload and metric.
 * Returns -1.
 */
int compare_explain_nothing(const struct query_set *all, const struct query_filter *f);

/*
 * The selection options compare, plot and report share, as entries of a
 * parse-options table: COMPARE_SELECT_OPTIONS(&filter, &test, &mean).  The
 * callbacks check the value (message said, -1: a usage error).
 */
int compare_opt_test(const struct option *opt, const char *arg);	/* enum stats_test_kind * */
int compare_opt_mean(const struct option *opt, const char *arg);	/* enum stats_mean_kind * */
int compare_opt_last(const struct option *opt, const char *arg);	/* struct query_filter * */
int compare_opt_unit(const struct option *opt, const char *arg);	/* enum stats_unit * */
#define COMPARE_SELECT_OPTIONS(f, test, mean, unit)					\
	OPT_STRING(0, "workload", &(f)->workload, "W", "only this workload"),		\
	OPT_CALLBACK(0, "unit", (unit), "U", "auto, run or iteration: what the test"	\
		     " treats as independent", compare_opt_unit),			\
	OPT_STRING(0, "metric", &(f)->metric, "M", "only this metric"),			\
	OPT_CALLBACK(0, "test", (test), "T", "welch, mwu, mmtests or lkp",		\
		     compare_opt_test),							\
	OPT_CALLBACK(0, "mean", (mean), "S", "amean, hmean, gmean or median",		\
		     compare_opt_mean),							\
	OPT_CALLBACK(0, "last", (f), "N", "only the newest N usable runs of a label",	\
		     compare_opt_last),							\
	OPT_BOOL(0, "keep-disturbed", &(f)->keep_disturbed,				\
		 "pool the values of disturbed iterations too"),			\
	OPT_BOOL(0, "mix-clocks", &(f)->mix_clocks,					\
		 "compare virtual-clock runs with real-clock runs anyway"),		\
	OPT_BOOL(0, "mix-arches", &(f)->mix_arches,					\
		 "compare runs of guests of different archs anyway")
/* 0-day's value cell: %10.2f / %10d / %10.4g */
void compare_lkp_value(struct strbuf *out, double mean);

/*
 * The change of statistic mean, new vs base, with its 95% CI (rel, rel_lo,
 * rel_hi): a row's interval (interval, interval_ok, of statistic
 * interval_mean) when it is of that statistic, else Welch's change of it
 * on the samples (stats_test_mean()), as when plots draw rows of several
 * statistics as one.  -1: none (fewer than 2 samples on a side, or not
 * defined).  Plots draw this; they compute no test of their own.
 */
int compare_change_of(const struct stats_test *interval, bool interval_ok,
		      enum stats_mean_kind interval_mean, enum stats_mean_kind mean,
		      const double *base, size_t nb, const double *new_, size_t nn, int better,
		      struct stats_test *out);

#endif
