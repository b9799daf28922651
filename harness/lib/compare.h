/*
 * A comparison of kernels: per (workload, variant, metric) row, a summary per
 * label and a test of each label against the baseline (label 0), with the
 * p-values of all rows x labels adjusted together (Benjamini-Hochberg).
 * Formatters turn it into the mmtests, lkp (0-day ncompare), markdown,
 * CSV, JSON or the default readable table.  See docs/statistics.md.
 */
#ifndef MMB_COMPARE_H
#define MMB_COMPARE_H

#include "query.h"
#include "stats.h"

struct strbuf;

#define COMPARE_ALPHA 0.05

enum compare_format {
	CMP_TEXT, CMP_MMTESTS, CMP_LKP, CMP_MARKDOWN, CMP_CSV, CMP_JSON,
};

enum compare_verdict {
	VERDICT_BASELINE,	/* label 0 */
	VERDICT_MISSING,	/* no samples for this label */
	VERDICT_UNTESTED,	/* too few samples for the test */
	VERDICT_NONE,		/* no significant change */
	VERDICT_BETTER,		/* significant improvement */
	VERDICT_WORSE,		/* significant regression */
};

struct compare_row {
	const struct query_row *q;
	struct stats_summary *sum;	/* [nlabels] */
	struct stats_test *test;	/* [nlabels]; [0] unused */
	enum compare_verdict *verdict;	/* [nlabels] */
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

struct compare {
	const struct query_set *qs;
	struct compare_meta meta;	/* filled by compare_load_meta() */
	enum stats_test_kind test;
	struct compare_row *rows;
	size_t nr;
	size_t ntests;		/* comparisons that produced a p-value (BH's m) */
	size_t nbetter, nworse, nnone, nuntested;
};

/* Summaries, tests, BH and verdicts for every row of qs. */
void compare_build(struct compare *c, const struct query_set *qs, enum stats_test_kind test);
void compare_release(struct compare *c);
/* Fill c->meta from the database (for the lkp header); best effort. */
int compare_load_meta(struct compare *c, struct mmb_db *db);

/* Is label i of row r significant under the chosen test (after BH)? */
bool compare_significant(const struct compare *c, size_t r, size_t i);

int compare_format_parse(const char *name, enum compare_format *f);

/*
 * The selection options plot and report share with compare, for
 * getopt_long(): put COMPARE_SELECT_LONGOPTS in the option table and
 * COMPARE_SELECT_SHORTOPTS in the short string, then offer each option to
 * compare_select_option(): 1 = taken, 0 = not one of these, -1 = bad value
 * (message printed).
 */
#define COMPARE_SELECT_SHORTOPTS "w:m:t:l:"
#define COMPARE_SELECT_LONGOPTS \
	{ "workload", required_argument, NULL, 'w' }, \
	{ "metric", required_argument, NULL, 'm' }, \
	{ "test", required_argument, NULL, 't' }, \
	{ "last", required_argument, NULL, 'l' }
int compare_select_option(int opt, const char *arg, struct query_filter *f,
			  enum stats_test_kind *test);
void compare_print(struct strbuf *out, const struct compare *c, enum compare_format f);

/* The individual formatters (compare_print dispatches). */
void compare_text(struct strbuf *out, const struct compare *c);
void compare_mmtests(struct strbuf *out, const struct compare *c);
void compare_lkp(struct strbuf *out, const struct compare *c);
void compare_markdown(struct strbuf *out, const struct compare *c);
void compare_csv(struct strbuf *out, const struct compare *c);
void compare_json(struct strbuf *out, const struct compare *c);

/* Pieces reused by report/plot and tested on their own. */
void compare_mmtests_header(const char *name, char *line1, char *line2, size_t len);
/* 0-day's value cell: %10.2f / %10d / %10.4g */
void compare_lkp_value(struct strbuf *out, double mean);
/* mmtests' percentage rules (§1.6) */
double compare_pdiff(double new_, double base);
double compare_pndiff(double new_, double base);

#endif
