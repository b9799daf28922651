/*
 * From the results database to plot groups: one group per workload and
 * metric, variants in recording order, verdicts taken from the comparison
 * so the pictures say what the tables say.
 */
#include "plotdb.h"
#include "plot-internal.h"
#include "progress.h"
#include "util.h"

#include <errno.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int verdict_cls(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_NONE:
		return PLOT_CLS_NONE;
	case VERDICT_BETTER:
		return PLOT_CLS_BETTER;
	case VERDICT_WORSE:
		return PLOT_CLS_WORSE;
	case VERDICT_UNTESTED:
	case VERDICT_MISSING:
		return PLOT_CLS_UNTESTED;
	case VERDICT_INCONCLUSIVE:
		return PLOT_CLS_INCONCLUSIVE;
	default:
		return PLOT_CLS_AUTO;
	}
}

/* Length of the common ".suffix" of all names ("brk_test.ops_per_sec" ...). */
static size_t common_suffix(struct plot_group *gs, const size_t *idx, size_t n)
{
	const char *first = gs[idx[0]].metric;
	size_t len = strlen(first), best = 0;

	for (size_t l = 1; l < len; l++) {
		const char *suf = first + len - l;
		bool all = true;

		if (suf[0] != '.')
			continue;
		for (size_t i = 1; i < n && all; i++) {
			const char *m = gs[idx[i]].metric;
			size_t ml = strlen(m);
			all = ml > l && !strcmp(m + ml - l, suf);
		}
		if (all)
			best = l;
	}
	return best;
}

/*
 * The merged group's metric: the common suffix, else "all metrics in UNIT"
 * (ebizzy has a records/s group and an s group); the direction is added
 * when that still clashes, so that no two pictures share a file name.
 */
static char *merged_name(const struct plot_group *gs, size_t ng, const struct plot_group *g,
			 size_t suf)
{
	char *name = suf ? xstrdup(g->metric + strlen(g->metric) - suf + 1) :
		     *g->unit ? xasprintf("all metrics in %s", g->unit) : xstrdup("all metrics");

	for (size_t i = 0; i < ng; i++)
		if (!strcmp(gs[i].workload, g->workload) && !strcmp(gs[i].metric, name)) {
			char *n2 = xasprintf("%s, %s is better", name, g->better > 0 ? "higher" : "lower");

			free(name);
			return n2;
		}
	return name;
}

/*
 * aim9 reports one metric per test (brk_test.ops_per_sec for test=brk_test):
 * each metric group then has a single variant.  Such groups of a workload
 * with the same unit and direction are also drawn together, one operation
 * per metric, so the tests sit side by side in one box plot and one change
 * chart; the single groups keep only their distribution plots.
 */
static void merge_single_ops(struct plot_group **gsp, size_t *ngp)
{
	struct plot_group *gs = *gsp;
	size_t ng = *ngp, n0 = ng;
	size_t *idx = xcalloc(ng ? ng : 1, sizeof(*idx));
	bool *used = xcalloc(ng ? ng : 1, sizeof(*used));

	for (size_t a = 0; a < n0; a++) {
		size_t n = 0, suf;
		struct plot_group merged;
		const char **labels;
		char *metric;

		if (used[a] || gs[a].nvariants != 1)
			continue;
		for (size_t b = a; b < n0; b++)
			if (!used[b] && gs[b].nvariants == 1 && !strcmp(gs[a].workload, gs[b].workload) &&
			    !strcmp(gs[a].unit, gs[b].unit) && gs[a].better == gs[b].better)
				idx[n++] = b;
		if (n < 2)
			continue;
		suf = common_suffix(gs, idx, n);
		metric = merged_name(gs, ng, &gs[a], suf);
		labels = xcalloc(gs[a].nkernels, sizeof(*labels));
		for (size_t k = 0; k < gs[a].nkernels; k++)
			labels[k] = gs[a].kernels[k];
		plot_group_init(&merged, gs[a].workload, metric, gs[a].unit, gs[a].better,
				gs[a].nkernels, labels);
		free(labels);
		free(metric);
		merged.kinds = PLOT_KIND_MAIN | PLOT_KIND_CHANGE;
		merged.mean = gs[a].mean;
		for (size_t i = 1; i < n; i++)
			if (gs[idx[i]].mean != merged.mean)
				merged.mean = STATS_AMEAN;
		for (size_t i = 0; i < n; i++) {
			struct plot_group *g = &gs[idx[i]];
			char *op = xstrndup(g->metric, strlen(g->metric) - suf);
			char *variant = xasprintf("metric=%s", op);
			size_t v = plot_group_variant(&merged, variant);

			for (size_t k = 0; k < g->nkernels; k++) {
				struct plot_cell *src = plot_group_cell(g, 0, k), *dst;

				for (size_t j = 0; j < src->n; j++)
					plot_group_add(&merged, v, k, src->v[j]);
				dst = plot_group_cell(&merged, v, k);
				dst->cls = src->cls;
				dst->p = src->p;
				dst->interval = src->interval;
				dst->interval_ok = src->interval_ok;
				dst->mean = src->mean;
			}
			g->kinds = PLOT_KIND_DIST;
			used[idx[i]] = true;
			free(op);
			free(variant);
		}
		gs = xrealloc(gs, (ng + 1) * sizeof(*gs));
		gs[ng++] = merged;
	}
	free(idx);
	free(used);
	*gsp = gs;
	*ngp = ng;
}

int plot_groups_build(const struct compare *c, struct plot_group **out, size_t *nout)
{
	const struct query_set *qs = c->qs;
	struct plot_group *gs = NULL;
	size_t ng = 0;
	const char **labels;

	/* the samples are the value's, read in compare_open()'s one pass (plot_select()) */
	if (c->dropped)
		return error("plot: the comparison kept no samples to draw (open it with"
			     " plot_select())");
	labels = xcalloc(qs->nlabels ? qs->nlabels : 1, sizeof(*labels));
	for (size_t i = 0; i < qs->nlabels; i++)
		labels[i] = qs->kernels[i].label;
	for (size_t r = 0; r < c->nr; r++) {
		const struct query_row *row = c->rows[r].q;
		struct plot_group *g = NULL;
		size_t v;
		char *wl, *metric;

		wl = ctl_escape(row->workload);
		metric = ctl_escape(row->metric);

		/* group names are escaped (plot_group_init()): look them up so */
		for (size_t i = 0; i < ng; i++)
			if (!strcmp(gs[i].workload, wl) && !strcmp(gs[i].metric, metric)) {
				g = &gs[i];
				break;
			}
		free(wl);
		free(metric);
		if (!g) {
			gs = xrealloc(gs, (ng + 1) * sizeof(*gs));
			g = &gs[ng++];
			plot_group_init(g, row->workload, row->metric, row->unit, row->better,
					qs->nlabels, labels);
			g->mean = c->rows[r].mean;
		} else if (g->mean != c->rows[r].mean) {
			g->mean = STATS_AMEAN;	/* a variant rules the Hmean out: one statistic for all */
		}
		v = plot_group_variant(g, row->variant);
		plot_group_variant_typed(g, v, row->params_json);
		for (size_t k = 0; k < qs->nlabels; k++) {
			const struct query_series *s = &row->series[k];
			struct plot_cell *cell;

			for (size_t j = 0; j < s->n; j++)
				plot_group_add(g, v, k, s->v[j]);
			cell = plot_group_cell(g, v, k);
			if (k > 0) {
				cell->cls = verdict_cls(c->rows[r].verdict[k]);
				cell->interval = &c->rows[r].interval[k];
				cell->interval_ok = c->rows[r].interval_ok[k];
				cell->mean = c->rows[r].mean;
				cell->p = isnan(c->rows[r].test[k].q) ? c->rows[r].test[k].p
								      : c->rows[r].test[k].q;
			}
		}
	}
	free(labels);
	merge_single_ops(&gs, &ng);
	*out = gs;
	*nout = ng;
	return 0;
}

void plot_groups_free(struct plot_group *gs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		plot_group_release(&gs[i]);
	free(gs);
}

/* What a picture pasted alone must say, from the comparison value (plot_opts' context). */
struct plot_context {
	char *experiment, *kernels;
	char **legend;
	size_t *nruns;
	size_t n;
};

/* The pooled runs' experiments, each once ("thp-pft"), or NULL when none is recorded. */
static char *context_experiment(const struct query_set *qs)
{
	char **names = NULL;
	size_t n = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++) {
			const struct query_run *run = &qs->kernels[k].runs[r];

			if (run->pooled && run->experiment && *run->experiment)
				plot_add_unique(&names, &n, run->experiment);
		}
	for (size_t i = 0; i < n && i < 3; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	if (n > 3)
		strbuf_addf(&sb, " and %zu more", n - 3);
	plot_free_strings(names, n);
	return n ? strbuf_detach(&sb) : NULL;
}

/* Do the labels' kernel releases differ (or one is unknown)? */
static bool releases_differ(const struct query_set *qs)
{
	for (size_t k = 0; k < qs->nlabels; k++)
		if (!*qs->kernels[k].release || strcmp(qs->kernels[k].release, qs->kernels[0].release))
			return true;
	return false;
}

/* "kernel 6.12.9" or "kernels: a 6.12.9, b 6.13-rc1" */
static char *context_kernels(const struct compare *c, bool differ)
{
	const struct query_set *qs = c->qs;
	struct strbuf sb = STRBUF_INIT;

	bool any = false;

	if (!differ)
		return xasprintf("kernel %s%s", qs->kernels[0].release,
				 c->same_kernel ? " (one build: the labels differ in settings)" : "");
	for (size_t k = 0; k < qs->nlabels; k++)
		any |= *qs->kernels[k].release != 0;
	if (!any)
		return xstrdup("kernel release not recorded");
	strbuf_addstr(&sb, "kernels:");
	for (size_t k = 0; k < qs->nlabels; k++)
		strbuf_addf(&sb, "%s %s %s", k ? "," : "", qs->kernels[k].label,
			    *qs->kernels[k].release ? qs->kernels[k].release : "(not recorded)");
	return strbuf_detach(&sb);
}

/*
 * Label k's key: "b: thp.enabled=always" (its release first when releases
 * differ), and "(disturbed values kept)" when --keep-disturbed kept some of its.
 */
static char *context_legend(const struct compare *c, size_t k, bool differ)
{
	const struct query_kernel *qk = &c->qs->kernels[k];
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0, i;

	strbuf_addstr(&sb, qk->label);
	if (differ && *qk->release) {
		strbuf_addf(&sb, ": %s", qk->release);
		shown++;
	}
	for (i = 0; i < c->nsettings && shown < 3; i++, shown++) {
		const char *v = c->setting[i].values[k];

		v = v && *v ? v : "unset";
		/* a kernel command line or a version string would fill the key: cut */
		strbuf_addf(&sb, "%s%s=%.*s%s", shown ? ", " : ": ", c->setting[i].key, 24, v,
			    strlen(v) > 24 ? "..." : "");
	}
	if (i < c->nsettings)
		strbuf_addf(&sb, ", %zu more settings differ", c->nsettings - i);
	if (c->kept_disturbed && c->ndisturbed && c->ndisturbed[k])
		strbuf_addstr(&sb, " (disturbed values kept)");
	return strbuf_detach(&sb);
}

static void context_fill(struct plot_context *x, const struct compare *c, struct plot_opts *o)
{
	const struct query_set *qs = c->qs;
	bool differ = releases_differ(qs);

	memset(x, 0, sizeof(*x));
	x->n = qs->nlabels;
	x->experiment = context_experiment(qs);
	x->kernels = context_kernels(c, differ);
	x->legend = xcalloc(x->n ? x->n : 1, sizeof(*x->legend));
	x->nruns = xcalloc(x->n ? x->n : 1, sizeof(*x->nruns));
	o->kept_disturbed = false;
	for (size_t k = 0; k < x->n; k++) {
		x->legend[k] = context_legend(c, k, differ);
		x->nruns[k] = qs->kernels[k].nruns_pooled;
		if (c->kept_disturbed && c->ndisturbed && c->ndisturbed[k])
			o->kept_disturbed = true;
	}
	o->experiment = x->experiment;
	o->kernels = x->kernels;
	o->legend = x->legend;
	o->nruns = x->nruns;
	o->nlegend = x->n;
}

static void context_release(struct plot_context *x, struct plot_opts *o)
{
	o->experiment = o->kernels = NULL;
	o->legend = NULL;
	o->nruns = NULL;
	o->nlegend = 0;
	o->kept_disturbed = false;
	free(x->experiment);
	free(x->kernels);
	plot_free_strings(x->legend, x->n);
	free(x->nruns);
}

int plot_comparison(const struct compare *c, struct plot_opts *o, const char *what,
		    struct plot_list *list)
{
	struct plot_group *groups = NULL;
	struct plot_context ctx;
	size_t ngroups = 0, first = list->nr;
	int ret = 0;

	context_fill(&ctx, c, o);
	o->batch = gnuplot_batch_new(o->outdir);
	ret = plot_groups_build(c, &groups, &ngroups);
	for (size_t i = 0; i < ngroups && !ret; i++)
		ret = plot_group_all(&groups[i], o, list);
	if (!ret) {
		if (progress_enabled())
			progress_update("%s: drawing %zu plots with gnuplot", what,
					gnuplot_batch_size(o->batch));
		ret = gnuplot_batch_run(o->batch);
		if (progress_enabled())
			progress_clear();
		plot_list_drop_skipped(list, o->batch);
	}
	gnuplot_batch_free(o->batch);
	o->batch = NULL;
	context_release(&ctx, o);
	plot_groups_free(groups, ngroups);
	while (ret && list->nr > first) {
		struct plot_file *pf = &list->items[--list->nr];

		free(pf->name);
		free(pf->kind);
		free(pf->title);
	}
	return ret ? -1 : 0;
}

void plot_select(struct compare_select *s)
{
	s->samples = true;
}

int plot_show(struct mmb_db *db, const struct compare_select *s, struct plot_opts *o)
{
	struct compare_select sel = *s;
	struct compare c;
	struct plot_list list;
	struct strbuf why = STRBUF_INIT;
	size_t nmachines = 0;
	char *machine;
	int ret;

	plot_select(&sel);
	ret = compare_open(db, &sel, &c);
	if (ret)
		return mmb_exit_code(ret);
	if (mkdir_p(o->outdir, 0755) < 0) {
		error("--out %s: cannot create directory: %s", o->outdir, strerror(errno));
		compare_release(&c);
		return EXIT_RUNTIME;
	}
	if (gnuplot_check() < 0) {
		compare_release(&c);
		return EXIT_RUNTIME;
	}
	machine = plot_machine_caption(db, c.qs, &nmachines);
	if (nmachines > 1)
		warning("the kernels were measured on %zu different machines: %s", nmachines, machine);
	o->machine = machine;
	plot_list_init(&list);
	ret = plot_comparison(&c, o, "plot", &list) ? EXIT_RUNTIME : EXIT_OK;
	/* what can be drawn is; a row that lost a label to disturbance still fails */
	if (ret == EXIT_OK && compare_all_disturbed(&c, &why)) {
		error("%s%s", list.nr ? "" : "nothing to plot: ", why.buf);
		ret = EXIT_RUNTIME;
	} else if (ret == EXIT_OK && !list.nr) {
		/* a plot needs 2+ values of the baseline and of a NEW label in some row */
		error("nothing to plot: no row has 2 or more values of %s and of another label"
		      " (see `mmbench compare`)", c.qs->kernels[0].label);
		ret = EXIT_RUNTIME;
	}
	for (size_t i = 0; ret == EXIT_OK && i < list.nr; i++)
		printf("%s/%s\n", o->outdir, list.items[i].name);
	fflush(stdout);	/* the list first, then the summary on stderr */
	if (ret == EXIT_OK)
		info("wrote %zu plots (with their .gp and .dat files) to %s", list.nr, o->outdir);
	plot_list_release(&list);
	strbuf_release(&why);
	o->machine = NULL;
	free(machine);
	compare_release(&c);
	return ret;
}

void plot_machine_describe(const struct query_machine *m, struct strbuf *sb)
{
	strbuf_addf(sb, "%s", m->hostname && *m->hostname ? m->hostname : "unknown host");
	if (m->cpu_model && *m->cpu_model)
		strbuf_addf(sb, ", %s", m->cpu_model);
	if (m->ncpus > 0)
		strbuf_addf(sb, ", %d CPU%s", m->ncpus, m->ncpus == 1 ? "" : "s");
	if (m->mem_bytes)
		strbuf_addf(sb, ", %.0f GiB", (double)m->mem_bytes / (1024.0 * 1024 * 1024));
}

char *plot_machine_caption(struct mmb_db *db, const struct query_set *qs, size_t *nmachines)
{
	int64_t *ids = NULL;
	size_t nids = 0;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++) {
			const struct query_run *run = &qs->kernels[k].runs[r];
			size_t i;

			if (strcmp(run->status, "complete") && strcmp(run->status, "interrupted"))
				continue;
			for (i = 0; i < nids; i++)
				if (ids[i] == run->machine_id)
					break;
			if (i == nids) {
				ids = xrealloc(ids, (nids + 1) * sizeof(*ids));
				ids[nids++] = run->machine_id;
			}
		}
	for (size_t i = 0; i < nids; i++) {
		struct query_machine m;

		if (sb.len)
			strbuf_addstr(&sb, " / ");
		if (ids[i] > 0 && query_machine(db, ids[i], &m) == 0) {
			plot_machine_describe(&m, &sb);
			query_machine_release(&m);
		} else {
			/* imported results carry no machine */
			strbuf_addstr(&sb, "not recorded");
		}
	}
	if (!sb.len)
		strbuf_addstr(&sb, "not recorded");
	if (nmachines)
		*nmachines = nids;
	free(ids);
	return strbuf_detach(&sb);
}
