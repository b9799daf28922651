/*
 * What the readers of import input (importfmt.c's matrix.json,
 * importcsv.c's CSV) share: one parsed sample and how it is added.
 */
#ifndef MMB_DB_IMPORTROW_H
#define MMB_DB_IMPORTROW_H

#include "importfmt.h"

struct sample_row {
	const char *workload, *variant, *metric, *unit;
	size_t wl, vl, ml, ul;
	int better;		/* 0: not given */
	int seq;		/* given (has_seq), else counted */
	bool has_seq;
	long iteration;
	double value;
	int line;
};

/* "FILE:LINE: why"; returns MMB_EUSAGE (bad input, exit 2). */
int import_bad(const struct importer *im, int line, const char *fmt, ...) MMB_PRINTF_FMT(3, 4);
/*
 * Rows from here on belong to the run of (label, key): made on first use,
 * pending blocks of the previous run written first.
 */
int importer_use_run(struct importer *im, const char *label, size_t ll,
		     const char *key, size_t kl);
/* Check one sample and add it to its series' pending block: 0, MMB_EUSAGE (said), -1. */
int importer_add(struct importer *im, const struct sample_row *r);

#endif
