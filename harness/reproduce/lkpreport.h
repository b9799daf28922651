/*
 * Parser for 0-day / LKP performance report mails ("kernel test robot
 * noticed a -5.0% regression of aim9.brk_test.ops_per_sec on: ...") and the
 * follow-ups that quote them.  Layout: docs/report-formats.md section 2
 * (ncompare tables).
 *
 * The text is taken as it arrives: quoted with "> " (any depth), re-wrapped
 * (even collapsed onto one line, as some archives do), CRLF, and with the
 * "±" of the stddev cells as UTF-8, Latin-1 (byte 0xB1) or the mangled
 * "ą" / "Â±" forms.  The parser works on whitespace-separated tokens, so
 * it does not depend on where the lines break.
 *
 * Errors: lkpreport_parse() returns -1 and writes ONE line into err naming
 * what is wrong or missing and where ("line N").
 *
 * A mail is anyone's text: what the parser returns, the report's strings
 * and the error line, holds no control character (ESC, C1, U+2028, ...):
 * they are written as \xNN / \uNNNN (lkp_report_escape(), fail()).
 */
#ifndef MMB_LKPREPORT_H
#define MMB_LKPREPORT_H

#include <stdbool.h>
#include <stddef.h>

#define LKP_MAX_COLS 8		/* compared commits in one table */

struct lkp_kv {
	char *key;
	char *value;
};

struct lkp_commit {
	char *sha;		/* as written in the commit block (hex, >= 7) */
	char *long_sha;		/* longest prefix known (sha header or "commit:" line) */
	char *subject;		/* without the ("...") */
};

struct lkp_row {
	char *metric;			/* "aim9.brk_test.ops_per_sec" */
	double mean[LKP_MAX_COLS];	/* one per commit column, base first */
	int stddev[LKP_MAX_COLS];	/* "± N%" cell, -1 when blank */
	double change[LKP_MAX_COLS];	/* [0] unused; % or absolute delta */
	bool absolute;			/* change is "mean_i - mean_0" (no % sign) */
	int line;
};

struct lkp_table {
	char *model;		/* "for model: ..." / "for test machine: ..." caption, or NULL */
	int nr_cpu;		/* from the caption ("nr_cpu: 240", "48 threads"), 0 unknown */
	char *axes_keys;	/* "compiler/cpufreq_governor/.../testtime" */
	char *axes_values;	/* "gcc-12/performance/.../300s" */
	struct lkp_kv *axes;	/* split pairs */
	size_t naxes;
	struct lkp_commit *commits;
	size_t ncommits;	/* columns, base first */
	struct lkp_row *rows;
	size_t nrows;
	size_t nfail_rows;	/* "fail:runs" rows seen (not kept) */
	int line;		/* line of the axes keys */
};

struct lkp_report {
	char *testcase;		/* "aim9" */
	char *test_machine;	/* "48 threads 2 sockets ... with 64G memory" */
	int nr_cpu;		/* of the test machine, 0 unknown */
	struct lkp_kv *params;	/* parameters: block (or the table's program axes) */
	size_t nparams;
	bool params_from_axes;	/* no parameters: block; taken from the axes */
	char *headline_metric;	/* "aim9.brk_test.ops_per_sec" */
	double headline_change;	/* -5.0 */
	bool headline_absolute;	/* change has no % sign */
	int direction;		/* -1 regression, +1 improvement, 0 unknown */
	bool headline_from_table;	/* no "noticed a" sentence; first row used */
	char *commit_sha;	/* "commit: <sha> (...)" line near the top, or NULL */
	char *commit_subject;
	char *materials_url;	/* "materials to reproduce are available at: URL", or NULL */
	struct lkp_table *tables;
	size_t ntables;
};

void lkp_report_init(struct lkp_report *r);
void lkp_report_release(struct lkp_report *r);
/* Frees what one table holds (lkp_report_release() frees them all). */
void lkp_table_release(struct lkp_table *t);
/*
 * Every string of r with its control characters, and bytes that are not
 * UTF-8, written as text (text_escape()): lkpreport_parse() does it to
 * what it returns, so nothing of a mail reaches a terminal raw.
 */
void lkp_report_escape(struct lkp_report *r);

/*
 * Parse a report from memory (any bytes; need not be NUL terminated).
 * Returns 0, or -1 with a one-line reason in err.
 */
int lkpreport_parse(struct lkp_report *r, const char *data, size_t len,
		    char *err, size_t errlen);

/* Lookups; NULL when absent. */
const char *lkp_report_param(const struct lkp_report *r, const char *key);
const char *lkp_table_axis(const struct lkp_table *t, const char *key);
/*
 * NUMA nodes of the report's machine: "nr_node: N" in the table's caption
 * or the machine line, else its "N sockets"; 0 unknown.
 */
int lkp_report_nodes(const struct lkp_report *r, const struct lkp_table *t);
/* First row named metric in table t, or NULL. */
const struct lkp_row *lkp_table_row(const struct lkp_table *t, const char *metric);

/*
 * The table whose columns best match the headline: the one captioned as the
 * original report's machine, else the last one, else NULL.
 */
const struct lkp_table *lkp_report_main_table(const struct lkp_report *r);

/* 0-day's KPI direction of a metric: +1 higher is better, -1 lower, 0 unknown. */
int lkp_metric_better(const char *metric);

/* Print what was parsed, human readable (dry-run). */
struct strbuf;
void lkp_report_describe(const struct lkp_report *r, struct strbuf *out);

/* A mean in a 0-day cell, 10 wide (docs/report-formats.md, 2.3 Cells). */
void lkp_fmt_mean(struct strbuf *sb, double v);

#endif
