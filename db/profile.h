/*
 * Profiles of `run --profile` (docs/profiles.md): per run and variant, the
 * event perf sampled and the share of the sampled period per symbol (self)
 * and per call chain (calltrace), in percent.  Written by the runner after
 * its profiled iteration, read by compare --profile and the report.
 */
#ifndef MMB_PROFILE_H
#define MMB_PROFILE_H

#include "db.h"

#include <stddef.h>
#include <stdint.h>

enum profile_kind { PROFILE_SELF, PROFILE_CALLTRACE };
#define PROFILE_NKINDS 2

/* "self" / "calltrace": the stored kind and lkp's name component. */
const char *profile_kind_name(enum profile_kind k);

struct profile_entry {
	enum profile_kind kind;
	char *name;		/* "clear_page_erms", "handle_mm_fault.do_anonymous_page" */
	double pct;		/* share of the sampled period, 0..100 */
};

struct profile_info {
	const char *workload, *variant;
	const char *event;	/* "cycles" or "cpu-clock" */
	const char *note;	/* "no hardware PMU", or NULL */
	int64_t samples;
};

/* One profile and its entries, in one transaction; 0 or -1 (said why). */
int db_profile_add(struct mmb_db *db, int64_t run_id, const struct profile_info *p,
		   const struct profile_entry *e, size_t n);

struct db_profile {
	int64_t run_id;
	char *workload, *variant, *event, *note;	/* note: NULL when none */
	int64_t samples;
	struct profile_entry *e;
	size_t n;
};

/*
 * The profiles of runs[0..nruns), with their entries, by run id, then
 * workload and variant as recorded; workload/variant NULL: all.  0 or -1.
 */
int db_profiles_load(struct mmb_db *db, const int64_t *runs, size_t nruns, const char *workload,
		     const char *variant, struct db_profile **out, size_t *n);
void db_profiles_free(struct db_profile *p, size_t n);

#endif
