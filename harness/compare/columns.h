/*
 * The comparison as one table: rows x labels x named columns.  A column
 * (perf's perf_hpp_fmt is the model) is a name and how to get its cell for
 * label i of row r from the value; a layout is a list of columns and a way
 * to print a cell (CSV: every column in this order; JSON: its groups).
 * A new field is one entry here, and every layout that lists it has it.
 */
#ifndef MMB_COLUMNS_H
#define MMB_COLUMNS_H

#include "compare.h"

enum compare_cell_kind {
	CELL_EMPTY,	/* no value here (the baseline's test, a missing label) */
	CELL_TEXT,
	CELL_NUM,	/* NaN or infinite: no value */
	CELL_COUNT,
	CELL_FLAG,
};

struct compare_cell {
	enum compare_cell_kind kind;
	const char *text;	/* CELL_TEXT: the value's, or own's */
	char *own;		/* text made for this cell: compare_cell_release() frees it */
	double num;
	size_t count;
	bool flag;
};

struct compare_column {
	const char *name;	/* CSV's header field */
	const char *key;	/* JSON's key */
	void (*get)(const struct compare *c, size_t r, size_t i, struct compare_cell *cell);
};

/* "baseline", "improvement", "inconclusive", ...: a verdict in words. */
const char *compare_verdict_name(enum compare_verdict v);

/* Every column, in CSV's order. */
extern const struct compare_column compare_columns[];
extern const size_t ncompare_columns;

/*
 * The cells only the layouts for people show (text, markdown, mmtests, lkp,
 * the report's tables), each computed here once from the value: CSV and
 * JSON print the data they come from instead.
 */
extern const struct compare_column compare_view_columns[];
extern const size_t ncompare_view_columns;

/* mmtests' DecimalPlaces of a workload's metric: 2 unless it says otherwise */
int compare_mmtests_places(const char *workload, const char *metric);

/* The column called name, of either table (a layout's list names only columns that exist). */
const struct compare_column *compare_column_find(const char *name);
/* col's cell of label i in row r; release it after printing. */
void compare_cell_get(const struct compare_column *col, const struct compare *c, size_t r,
		      size_t i, struct compare_cell *cell);
void compare_cell_release(struct compare_cell *cell);
/* The cell of the column called name: compare_column_find() + compare_cell_get(). */
void compare_cell_named(const char *name, const struct compare *c, size_t r, size_t i,
			struct compare_cell *cell);
/* The named cell's number, NaN without one; its flag, false without one. */
double compare_cell_num(const char *name, const struct compare *c, size_t r, size_t i);
bool compare_cell_flag(const char *name, const struct compare *c, size_t r, size_t i);

#endif
