/* A series' arrays: growing, notes, freeing (queryseries.h, query.h). */
#include "queryseries.h"
#include "../harness/base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` values in s (level and disturbed only once some value has one). */
void query_series_reserve(struct query_series *s, size_t need)
{
	if (need <= s->alloc)
		return;
	if (s->borrowed) {	/* out of the arena, into the heap */
		double *v = xmalloc(need * sizeof(*v));
		int64_t *run = xmalloc(need * sizeof(*run));
		int *it = xmalloc(need * sizeof(*it));

		memcpy(v, s->v, s->n * sizeof(*v));
		memcpy(run, s->run_id, s->n * sizeof(*run));
		memcpy(it, s->iteration, s->n * sizeof(*it));
		s->v = v;
		s->run_id = run;
		s->iteration = it;
		s->borrowed = false;
	}
	s->alloc = need;
	s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	s->run_id = xrealloc(s->run_id, s->alloc * sizeof(*s->run_id));
	s->iteration = xrealloc(s->iteration, s->alloc * sizeof(*s->iteration));
	if (s->level)
		s->level = xrealloc(s->level, s->alloc * sizeof(*s->level));
	if (s->disturbed)
		s->disturbed = xrealloc(s->disturbed, s->alloc * sizeof(*s->disturbed));
}

/*
 * The per-value notes, made on the first value that has one: imports and
 * runs from before migration 3 never have any, and keep 20 bytes a value.
 */
static void series_notes(struct query_series *s, const struct iter_note *note)
{
	if (!s->level && !isnan(note->level)) {
		s->level = xmalloc((s->alloc ? s->alloc : 1) * sizeof(*s->level));
		for (size_t i = 0; i < s->n; i++)
			s->level[i] = NAN;
	}
	if (!s->disturbed && note->disturbed)
		s->disturbed = xcalloc(s->alloc ? s->alloc : 1, sizeof(*s->disturbed));
}

void query_series_push(struct query_series *s, double v, int64_t run, int iter,
		       const struct iter_note *note)
{
	if (s->n == s->alloc)
		query_series_reserve(s, s->alloc ? s->alloc * 2 : 16);
	if (note)
		series_notes(s, note);
	s->v[s->n] = v;
	s->run_id[s->n] = run;
	s->iteration[s->n] = iter;
	if (s->level)
		s->level[s->n] = note ? note->level : NAN;
	if (s->disturbed)
		s->disturbed[s->n] = note && note->disturbed;
	s->nmeasured += note && !isnan(note->level);
	s->ndisturbed += note && note->disturbed;
	s->n++;
}

void query_series_add(struct query_series *s, double v, int64_t run, int iteration,
		      bool disturbed, double level)
{
	struct iter_note note = { .level = level, .disturbed = disturbed };

	query_series_push(s, v, run, iteration, &note);
}

void query_series_free_arrays(struct query_series *s)
{
	free(s->v);
	free(s->run_id);
	free(s->iteration);
	s->v = NULL;
	s->run_id = NULL;
	s->iteration = NULL;
	s->alloc = 0;
}

void query_row_release(struct query_row *r, size_t nlabels)
{
	free(r->workload);
	free(r->variant);
	free(r->params_json);
	free(r->metric);
	free(r->unit);
	for (size_t i = 0; r->series && i < nlabels; i++) {
		if (!r->series[i].borrowed)
			query_series_free_arrays(&r->series[i]);
		free(r->series[i].level);
		free(r->series[i].disturbed);
	}
	free(r->series);
}
