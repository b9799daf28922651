/*
 * `compare --by machine` (bymachine.h): one comparison per machine, then
 * the change of each row per machine.  Above compare.c; the grouping it
 * shares with compare_open()'s check is machines.c.
 */
#include "bymachine.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
