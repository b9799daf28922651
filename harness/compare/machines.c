/*
 * Which machine rows are one machine, and compare_open()'s refusal to pool
 * two (bymachine.h).  Below compare.c, which calls the check, and
 * bymachine.c, which opens a comparison per machine.
 */
#include "bymachine.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool machine_same(const struct query_machine *a, const struct query_machine *b)
{
	double ma = (double)a->mem_bytes, mb = (double)b->mem_bytes;

	if (strcmp(a->hostname, b->hostname) || strcmp(a->cpu_model, b->cpu_model) ||
	    a->ncpus != b->ncpus)
		return false;
	return fabs(ma - mb) <= MACHINE_MEM_SLACK * (ma > mb ? ma : mb);
}

size_t machine_group(const struct query_machine *ms, size_t n, size_t *group_of)
{
	size_t *first = xcalloc(n + 1, sizeof(*first)), ng = 0;

	for (size_t i = 0; i < n; i++) {
		size_t g;

		for (g = 0; g < ng && !machine_same(&ms[first[g]], &ms[i]); g++)
			;
		if (g == ng)
			first[ng++] = i;
		group_of[i] = g;
	}
	free(first);
	return ng;
}

void machine_id_add(int64_t **ids, size_t *n, size_t *alloc, int64_t id)
{
	size_t i;

	for (i = 0; i < *n && (*ids)[i] < id; i++)
		;
	if (i < *n && (*ids)[i] == id)
		return;
	ALLOC_GROW(*ids, *n + 1, *alloc);
	memmove(*ids + i + 1, *ids + i, (*n - i) * sizeof(**ids));
	(*ids)[i] = id;
	(*n)++;
}

void machines_release(struct machines *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		query_machine_release(&ms->rows[i]);
	for (size_t g = 0; g < ms->ng; g++)
		free(ms->g[g].ids);
	free(ms->rows);
	free(ms->g);
	memset(ms, 0, sizeof(*ms));
}

/* The machine rows ids[0..n) (ascending; a dangling id is skipped), grouped. */
int machines_load(struct mmb_db *db, const int64_t *ids, size_t n, struct machines *ms)
{
	size_t *group_of;

	memset(ms, 0, sizeof(*ms));
	ms->rows = xcalloc(n + 1, sizeof(*ms->rows));
	for (size_t i = 0; i < n; i++) {
		int rc = query_machine(db, ids[i], &ms->rows[ms->n]);

		if (rc < 0) {
			machines_release(ms);
			return -1;
		}
		if (!rc)
			ms->n++;
	}
	group_of = xcalloc(ms->n + 1, sizeof(*group_of));
	ms->ng = machine_group(ms->rows, ms->n, group_of);
	ms->g = xcalloc(ms->ng + 1, sizeof(*ms->g));
	for (size_t i = 0; i < ms->n; i++) {
		struct mgroup *g = &ms->g[group_of[i]];

		if (!g->m)
			g->m = &ms->rows[i];
		g->ids = xrealloc(g->ids, (g->n + 1) * sizeof(*g->ids));
		g->ids[g->n++] = ms->rows[i].id;
	}
	free(group_of);
	return 0;
}

static bool group_has(const struct mgroup *g, int64_t id)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->ids[i] == id)
			return true;
	return false;
}

int compare_check_machines(struct mmb_db *db, const struct query_set *qs)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0;
	struct machines ms;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < qs->nlabels; i++)
		for (size_t j = 0; j < qs->kernels[i].nruns; j++)
			if (qs->kernels[i].runs[j].pooled && qs->kernels[i].runs[j].machine_id > 0)
				machine_id_add(&ids, &n, &alloc, qs->kernels[i].runs[j].machine_id);
	if (n < 2 || machines_load(db, ids, n, &ms)) {
		free(ids);
		return n < 2 ? 0 : -1;
	}
	free(ids);
	if (ms.ng < 2) {
		machines_release(&ms);
		return 0;
	}
	for (size_t g = 0; g < ms.ng; g++) {
		const struct query_machine *m = ms.g[g].m;
		size_t shown = 0;

		strbuf_addf(&sb, "\n  machine %lld: %s, %s, runs of ", (long long)m->id,
			    *m->hostname ? m->hostname : "(no hostname)",
			    *m->cpu_model ? m->cpu_model : "(no CPU model)");
		for (size_t i = 0; i < qs->nlabels; i++) {
			const struct query_kernel *k = &qs->kernels[i];
			bool here = false, again = false;

			for (size_t e = 0; e < i; e++)
				again |= qs->kernels[e].id == k->id;
			for (size_t j = 0; j < k->nruns; j++)
				here |= k->runs[j].pooled && group_has(&ms.g[g], k->runs[j].machine_id);
			if (here && !again)
				strbuf_addf(&sb, "%s%s", shown++ ? ", " : "", k->label);
		}
	}
	strbuf_addstr(&sb, "\nhint: one table per machine: mmbench compare --by machine");
	for (size_t i = 0; i < qs->nlabels; i++)
		strbuf_addf(&sb, " %s", qs->kernels[i].label);
	error("the runs to compare come from %zu machines, whose results are not pooled:%s",
	      ms.ng, sb.buf);
	strbuf_release(&sb);
	machines_release(&ms);
	return MMB_EUSAGE;
}
