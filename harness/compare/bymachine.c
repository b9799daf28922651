/*
 * Results of several machines (bymachine.h): grouping machine rows into
 * machines, compare_open()'s refusal to pool two machines, and
 * `compare --by machine`.
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

/* Column names: the hostname, "#id" added where two machines share one. */
static void name_columns(struct bymachine *bm)
{
	for (size_t k = 0; k < bm->np; k++) {
		const struct query_machine *m = bm->p[k].g ? bm->p[k].g->m : NULL;
		bool dup = false;

		for (size_t o = 0; m && o < bm->np; o++)
			dup |= o != k && bm->p[o].g && bm->p[o].g->m &&
			       !strcmp(bm->p[o].g->m->hostname, m->hostname);
		if (!m)
			bm->p[k].column = xstrdup("unknown");
		else if (dup || !*m->hostname)
			bm->p[k].column = xasprintf("%s#%lld", m->hostname, (long long)m->id);
		else
			bm->p[k].column = xstrdup(m->hostname);
	}
}

/* Open machine part p: 0 (compared, or a label missing there), else compare_open's error. */
static int open_part(struct mmb_db *db, const struct compare_select *s,
		     const struct query_kernel *ks, struct mpart *p)
{
	struct compare_select one = *s;
	int rc;

	if (p->g) {
		one.filter.machines = p->g->ids;
		one.filter.nmachines = p->g->n;
	}
	for (size_t i = 0; i < s->nlabels; i++) {
		bool any = false;

		for (size_t j = 0; j < ks[i].nruns; j++)
			any |= query_run_selected(&one.filter, &ks[i].runs[j]);
		if (!any) {
			p->missing = s->labels[i];
			return 0;
		}
	}
	rc = compare_open(db, &one, &p->c);
	p->compared = !rc;
	return rc;
}

/* p->m: what the layouts print of p's machine, so that they read no machine row. */
static void part_machine(struct mpart *p)
{
	const struct query_machine *qm = p->g ? p->g->m : NULL;

	if (!qm)
		return;
	p->machine = (struct mpart_machine){ qm->id, qm->hostname, qm->cpu_model, qm->ncpus,
					     qm->mem_bytes, p->g->ids, p->g->n };
	p->m = &p->machine;
}

int bymachine_open(struct mmb_db *db, const struct compare_select *s, struct bymachine *bm)
{
	struct query_kernel *ks;
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, ncompared = 0;
	int rc;

	memset(bm, 0, sizeof(*bm));
	bm->s = s;
	rc = query_kernels(db, s->labels, s->nlabels, &ks);
	if (rc)
		return rc == QUERY_EUNKNOWN ? MMB_EUSAGE : -1;
	for (size_t i = 0; i < s->nlabels; i++)
		for (size_t j = 0; j < ks[i].nruns; j++)
			if (db_run_usable(ks[i].runs[j].status) && ks[i].runs[j].machine_id > 0)
				machine_id_add(&ids, &n, &alloc, ks[i].runs[j].machine_id);
	rc = machines_load(db, ids, n, &bm->ms);
	free(ids);
	bm->np = rc ? 0 : bm->ms.ng ? bm->ms.ng : 1;
	bm->p = xcalloc(bm->np ? bm->np : 1, sizeof(*bm->p));
	for (size_t k = 0; k < bm->np && !rc; k++) {
		bm->p[k].g = bm->ms.ng ? &bm->ms.g[k] : NULL;
		part_machine(&bm->p[k]);
		rc = open_part(db, s, ks, &bm->p[k]);
		ncompared += bm->p[k].compared;
	}
	if (!rc && !ncompared) {
		error("no machine has complete or interrupted runs of every label compared"
		      " (see `mmbench list runs`)");
		rc = MMB_EUSAGE;
	}
	if (!rc)
		name_columns(bm);
	for (size_t i = 0; i < s->nlabels; i++)
		query_kernel_release(&ks[i]);
	free(ks);
	return rc;
}

void bymachine_release(struct bymachine *bm)
{
	for (size_t k = 0; k < bm->np; k++) {
		if (bm->p[k].compared)
			compare_release(&bm->p[k].c);
		free(bm->p[k].column);
	}
	free(bm->p);
	machines_release(&bm->ms);
	memset(bm, 0, sizeof(*bm));
}
