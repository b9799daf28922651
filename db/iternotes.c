/* Iteration notes by id and by number (iternotes.h). */
#include "iternotes.h"
#include "../harness/base/util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct num_note {
	int64_t run;
	char *workload, *variant;
	int iteration;
	struct iter_note note;
};

static int id_cmp(const void *a, const void *b)
{
	const struct iter_note *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int num_cmp(const void *a, const void *b)
{
	const struct num_note *x = a, *y = b;
	int c;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if ((c = strcmp(x->workload, y->workload)) || (c = strcmp(x->variant, y->variant)))
		return c;
	return x->iteration < y->iteration ? -1 : x->iteration > y->iteration;
}

static int read_note(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct db_list *bynum = arg;
	struct iter_note *note = db_list_add(list);

	*note = (struct iter_note){
		.id = sqlite3_column_int64(st, 0),
		.disturbed = sqlite3_column_int(st, 1) != 0,
		.level = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2),
	};
	if (!sqlite3_column_int(st, 6)) {
		struct num_note *m = db_list_add(bynum);

		*m = (struct num_note){ .run = sqlite3_column_int64(st, 3),
					.workload = db_col_str(st, 4), .variant = db_col_str(st, 5),
					.iteration = sqlite3_column_int(st, 7), .note = *note };
	}
	return 0;
}

static void num_notes_free(struct num_note *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].variant);
	}
	free(v);
}

int iter_notes_read(struct mmb_db *db, sqlite3_stmt *st, struct iter_notes *out)
{
	struct db_list l = { .size = sizeof(*out->byid) }, bynum = { .size = sizeof(*out->bynum) };

	memset(out, 0, sizeof(*out));
	if (db_read_list(db, st, read_note, &bynum, NULL, &l)) {
		num_notes_free(bynum.v, bynum.n);
		return -1;
	}
	out->byid = l.v;
	out->nbyid = l.n;
	out->bynum = bynum.v;
	out->nbynum = bynum.n;
	if (out->nbyid)
		qsort(out->byid, out->nbyid, sizeof(*out->byid), id_cmp);
	if (out->nbynum)
		qsort(out->bynum, out->nbynum, sizeof(*out->bynum), num_cmp);
	return 0;
}

const struct iter_note *iter_notes_by_id(const struct iter_notes *n, int64_t iteration_id)
{
	struct iter_note key = { .id = iteration_id };

	if (!n->nbyid || iteration_id <= 0)
		return NULL;
	return bsearch(&key, n->byid, n->nbyid, sizeof(key), id_cmp);
}

struct note_group iter_notes_group(const struct iter_notes *n, int64_t run,
				   const char *workload, const char *variant)
{
	struct num_note key = { .run = run, .workload = (char *)workload,
				.variant = (char *)variant, .iteration = INT_MIN };
	size_t lo = 0, hi = n->nbynum, end;

	/* the first note not below (run, workload, variant, INT_MIN) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (num_cmp(&n->bynum[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n->nbynum && n->bynum[end].run == run &&
	     !strcmp(n->bynum[end].workload, workload) && !strcmp(n->bynum[end].variant, variant);
	     end++)
		;
	return (struct note_group){ n->bynum + lo, end - lo };
}

const struct iter_note *note_group_find(const struct note_group *g, int iteration)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->v[mid].iteration < iteration)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->v[lo].iteration == iteration ? &g->v[lo].note : NULL;
}

void iter_notes_release(struct iter_notes *n)
{
	free(n->byid);
	num_notes_free(n->bynum, n->nbynum);
	memset(n, 0, sizeof(*n));
}
