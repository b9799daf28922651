/*
 * A series' arrays as the readers fill them (query.c): growing, the
 * per-value notes, freeing.  Internal to db/.
 */
#ifndef MMB_DB_QUERYSERIES_H
#define MMB_DB_QUERYSERIES_H

#include "query.h"

/* What the runner recorded about one iteration (migration 3). */
struct iter_note {
	int64_t id;
	double level;		/* NAN: not measured */
	bool disturbed;
};

/* Room for `need` values in s. */
void query_series_reserve(struct query_series *s, size_t need);
/* Append v of run/iter to s with its iteration's note (or NULL). */
void query_series_push(struct query_series *s, double v, int64_t run, int iter,
		       const struct iter_note *note);
/* Free s's value, run and iteration arrays (s->alloc of each); s has none after. */
void query_series_free_arrays(struct query_series *s);

#endif
