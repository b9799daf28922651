/*
 * bisect's kernel measurement (bisect.h): build the commit (kbuild, cached;
 * label bisect-<sha12>), boot it once under QEMU running the experiment
 * (vm_run, into the results DB), and take that run's mean of the metric,
 * disturbed iterations left out (query_load's default).
 */
#include "bisect.h"
#include "db.h"
#include "kbuild.h"
#include "query.h"
#include "util.h"
#include "vmrun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ATTEMPTS 3	/* boots whose every iteration was disturbed, then give up */

struct kmeasure {
	const struct bisect_opts *o;
	struct vm_opts vm;
	char *workload, *metric, *variant;
};

/* The mean of the metric over the label's newest run; 1 when it has no value. */
static int run_mean(struct kmeasure *k, const char *label, double *value)
{
	struct query_filter f = { .workload = k->workload, .metric = k->metric,
				  .variant = k->variant, .last_runs = 1 };
	const char *labels[1] = { label };
	struct query_set qs = { 0 };
	struct mmb_db db;
	int rc = 1;

	if (db_open(&db, db_default_path(k->vm.db_path)) < 0)
		return -1;
	if (query_load(&db, labels, 1, &f, &qs) < 0) {
		rc = -1;
	} else if (qs.nr > 1) {
		rc = error("bisect: --metric %s matches %zu rows (give @VARIANT)", k->o->metric, qs.nr);
	} else if (qs.nr == 1 && qs.rows[0].series[0].n) {
		const struct query_series *s = &qs.rows[0].series[0];

		*value = 0;
		for (size_t i = 0; i < s->n; i++)
			*value += s->v[i] / (double)s->n;
		rc = 0;
	}
	query_set_release(&qs);
	db_close(&db);
	return rc;
}

static int kernel_measure(void *ctx, const char *sha, double *value)
{
	struct kmeasure *k = ctx;
	struct kbuild_opts b = k->o->build;
	struct kbuild_result br;
	/* a label names one build: another arch's of the commit is another label */
	char *label = b.arch && strcmp(b.arch->name, "x86_64")
		      ? xasprintf("bisect-%.12s-%s", sha, b.arch->name) : xasprintf("bisect-%.12s", sha);
	int rc;

	b.tree = k->o->tree;
	b.ref = sha;
	b.label = label;
	b.db_path = k->vm.db_path;
	b.cache_dir = k->o->cache_dir;
	rc = kbuild_build(&b, &br);
	if (rc == 0)
		kbuild_result_release(&br);
	/* rc 1: that boot had no undisturbed value; boot again */
	for (int attempt = 0; (rc == 0 || rc == 1) && attempt < ATTEMPTS; attempt++) {
		struct vm_result vr;

		k->vm.label = label;
		rc = vm_run(&k->vm, &vr);
		vm_result_release(&vr);
		if (rc == 0 && (rc = run_mean(k, label, value)) == 0)
			break;
		if (rc == 1 && attempt + 1 < ATTEMPTS)
			info("bisect: %s: no undisturbed value of %s in that boot; booting again",
			     label, k->o->metric);
	}
	if (rc == 1)
		rc = error("bisect: %s: no undisturbed value of %s in %d boots", label,
			   k->o->metric, ATTEMPTS);
	free(label);
	return rc < 0 ? -1 : 0;
}

int bisect_kernel_measure(const struct bisect_opts *o, const struct vm_opts *vm,
			  struct bisect_measure *m)
{
	static struct kmeasure k;
	const char *dot = strchr(o->metric, '.'), *at = strchr(o->metric, '@');

	free(k.workload);
	free(k.metric);
	free(k.variant);
	k = (struct kmeasure){ .o = o, .vm = *vm };
	k.vm.experiment = o->experiment;
	k.vm.cache_dir = o->cache_dir;
	k.workload = xstrndup(o->metric, (size_t)(dot - o->metric));
	k.metric = at ? xstrndup(dot + 1, (size_t)(at - dot - 1)) : xstrdup(dot + 1);
	k.variant = at ? xstrdup(at + 1) : NULL;
	m->measure = kernel_measure;
	m->ctx = &k;
	return 0;
}
