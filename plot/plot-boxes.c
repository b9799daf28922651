/*
 * Per-operation box plots: one box per kernel and variant, the samples
 * jittered over it.
 */
#include "plot-internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-operation box plots ---- */

/* Deterministic jitter in [-0.5, 0.5): pictures must not change between re-renders. */
static double jitter(size_t a, size_t b, size_t c)
{
	uint64_t h = 1469598103934665603ull;

	h = (h ^ a) * 1099511628211ull;
	h = (h ^ b) * 1099511628211ull;
	h = (h ^ c) * 1099511628211ull;
	h ^= h >> 29;
	return (double)(h % 10007) / 10007.0 - 0.5;
}

/*
 * The frame of the pictures with a slot per variant (box, change): the key
 * above, a tic labelled with each variant's values, the keys as x label.
 */
void plot_variant_axis(struct strbuf *sc, const struct plot_group *g, const size_t *vs,
		       size_t nvs, bool zero_line)
{
	size_t longest = 0;

	strbuf_addstr(sc, "set tmargin at screen 0.84\nset bmargin 9\nset lmargin 12\n"
		      "set key at screen 0.5,0.915 center top horizontal samplen 2\n"
		      "set grid noxtics\n");
	if (zero_line)
		strbuf_addstr(sc, "set xzeroaxis lt -1 lw 1\n");
	strbuf_addstr(sc, "set xtics (");
	for (size_t i = 0; i < nvs; i++) {
		/* a workload without parameters: name the metric under its box */
		char *l = *g->variants[vs[i]] ? plot_variant_label(&g->typed[vs[i]]) : xstrdup(g->metric);
		char *q = gnuplot_quote(l);

		if (strlen(l) > longest)
			longest = strlen(l);
		strbuf_addf(sc, "%s%s %zu", i ? ", " : "", q, i);
		free(q);
		free(l);
	}
	strbuf_addstr(sc, ")\n");
	if (nvs > 6 || longest * nvs > 60)
		strbuf_addstr(sc, "set xtics rotate by 40 right\n");
	if (nvs) {
		char *keys = plot_variant_join(&g->typed[vs[0]], true, ", ");
		if (*keys)
			plot_set_text(sc, "xlabel", keys, "");
		free(keys);
	}
	strbuf_addf(sc, "set xrange [-0.6:%.1f]\n", nvs - 0.4);
}

/* One box picture: its variants, the box width and the scale of each operation. */
struct boxes {
	const size_t *vs;
	size_t nvs;
	double bw;		/* the slot of one kernel */
	double *mean;		/* [nvs] the baseline's mean of each variant, NaN: no samples */
	bool normalise;		/* values in % of those means */
};

/* Operations of very different magnitude: show % of the baseline mean. */
static void box_scale(struct boxes *b, const struct plot_group *g)
{
	double smin = INFINITY, smax = 0;

	b->mean = xcalloc(b->nvs ? b->nvs : 1, sizeof(*b->mean));
	for (size_t i = 0; i < b->nvs; i++) {
		const struct plot_cell *c = plot_group_cell(g, b->vs[i], 0);
		double s = 0;

		for (size_t j = 0; j < c->n; j++)
			s += c->v[j];
		b->mean[i] = c->n ? s / c->n : NAN;
		if (isfinite(b->mean[i]) && b->mean[i] > 0) {
			if (b->mean[i] < smin)
				smin = b->mean[i];
			if (b->mean[i] > smax)
				smax = b->mean[i];
		}
	}
	b->normalise = b->nvs > 1 && smax > 0 && isfinite(smin) && smax / smin > 10;
}

/* The factor variant i's values are drawn with; false: normalised, but no baseline mean to do it by. */
static bool box_factor(const struct boxes *b, size_t i, double *f)
{
	*f = b->normalise ? 100.0 / b->mean[i] : 1.0;
	return !b->normalise || (isfinite(b->mean[i]) && b->mean[i] > 0);
}

/* Tukey whiskers: the furthest samples within 1.5 IQR of the box. */
static void tukey_whiskers(const struct plot_cell *c, const struct stats_summary *s, double *wlo,
			   double *whi)
{
	double *sorted = plot_sorted_copy(c->v, c->n), iqr = s->q3 - s->q1;

	*wlo = s->q1;
	*whi = s->q3;
	for (size_t j = 0; j < c->n; j++) {
		if (sorted[j] >= s->q1 - 1.5 * iqr && sorted[j] < *wlo)
			*wlo = sorted[j];
		if (sorted[j] <= s->q3 + 1.5 * iqr && sorted[j] > *whi)
			*whi = sorted[j];
	}
	free(sorted);
}

/* Data blocks 0..K-1, a box per variant of each kernel; false: no box to draw. */
static bool box_stats(const struct boxes *b, const struct plot_group *g, struct strbuf *dat)
{
	size_t K = g->nkernels;
	bool any_box = false;

	for (size_t k = 0; k < K; k++) {
		double off = ((double)k - (K - 1) / 2.0) * b->bw;

		strbuf_addf(dat, "# block %zu: kernel %s\n# x q1 whisker_lo whisker_hi q3 median mean n\n",
			    k, g->kernels[k]);
		for (size_t i = 0; i < b->nvs; i++) {
			const struct plot_cell *c = plot_group_cell(g, b->vs[i], k);
			double f, wlo, whi;
			struct stats_summary s;

			if (!box_factor(b, i, &f) || !c->n) {
				strbuf_addf(dat, "%.4f NaN NaN NaN NaN NaN NaN 0\n", i + off);
				continue;
			}
			stats_summarise(c->v, c->n, g->better, &s);
			tukey_whiskers(c, &s, &wlo, &whi);
			any_box = true;
			strbuf_addf(dat, "%.4f %.10g %.10g %.10g %.10g %.10g %.10g %zu\n", i + off,
				    s.q1 * f, wlo * f, whi * f, s.q3 * f, s.median * f, s.amean * f, c->n);
		}
		strbuf_addstr(dat, "\n\n");
	}
	return any_box;
}

/* Data blocks K..2K-1: every sample of each kernel, jittered around its box. */
static void box_samples(const struct boxes *b, const struct plot_group *g, struct strbuf *dat)
{
	size_t K = g->nkernels;

	for (size_t k = 0; k < K; k++) {
		double off = ((double)k - (K - 1) / 2.0) * b->bw;

		strbuf_addf(dat, "# block %zu: samples of %s (x jittered)\n# x value\n", K + k, g->kernels[k]);
		for (size_t i = 0; i < b->nvs; i++) {
			const struct plot_cell *c = plot_group_cell(g, b->vs[i], k);
			double f;

			if (!box_factor(b, i, &f))
				continue;
			for (size_t j = 0; j < c->n; j++)
				strbuf_addf(dat, "%.4f %.10g\n", i + off + jitter(b->vs[i], k, j) * b->bw * 0.6,
					    c->v[j] * f);
		}
		strbuf_addstr(dat, "\n\n");
	}
}

/* The y axis names the metric, or the baseline its values are in % of. */
static void box_ylabel(struct strbuf *sc, const struct boxes *b, const struct plot_group *g,
		       const char *unit)
{
	char *l;

	if (!b->normalise) {
		plot_metric_label(sc, "ylabel", g, unit);
		return;
	}
	l = xasprintf("%s, %% of %s mean per operation (%s)", g->metric, g->kernels[0],
		      plot_direction(g->better));
	plot_set_text(sc, "ylabel", l, "");
	free(l);
}

static int plot_boxes_one(const struct plot_group *g, const struct plot_opts *o,
			  const size_t *vs, size_t nvs, const char *part, struct plot_list *out)
{
	struct boxes b = { .vs = vs, .nvs = nvs, .bw = 0.8 / g->nkernels };
	struct picture p;
	size_t K = g->nkernels;
	const char *unit = "%";
	char *title;

	plot_picture_init(&p, "box");
	box_scale(&b, g);
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s box plots%s\n", g->workload, g->metric,
		    b.normalise ? " (values in % of the baseline mean of each operation)" : "");
	if (!box_stats(&b, g, &p.dat)) {
		free(b.mean);
		plot_picture_release(&p);
		return 0;
	}
	box_samples(&b, g, &p.dat);
	title = part && *part ? xasprintf("%s %s per operation (%s)", g->workload, g->metric, part)
			      : xasprintf("%s %s per operation", g->workload, g->metric);
	plot_picture_begin(&p, g, o, part, title, vs, nvs);
	plot_headings(&p.sc, &p, o, "box: quartiles and median; whiskers: furthest sample within 1.5 IQR; points: every sample", NULL);
	if (!b.normalise) {
		double vlo, vhi;

		/* every sample is drawn: the range holds them all */
		plot_sample_range(g, vs, nvs, &vlo, &vhi);
		unit = plot_si_tics(&p.sc, "y", vlo, vhi, g->unit, 6, true, NULL);
	}
	plot_variant_axis(&p.sc, g, vs, nvs, false);
	box_ylabel(&p.sc, &b, g, unit);
	plot_key_title(&p.sc, unit);
	strbuf_addf(&p.sc, "set boxwidth %.4f absolute\nset style fill solid 0.15 border\n", b.bw * 0.75);
	strbuf_addstr(&p.sc, "plot ");
	for (size_t k = 0; k < K; k++) {
		strbuf_addf(&p.sc, "%s@DATA@ index %zu using 1:2:3:4:5 with candlesticks whiskerbars 0.6 lt %d lw 1.5",
			    k ? ", \\\n     " : "", k, plot_lt_of(k));
		plot_add_title(&p.sc, plot_kernel_key(g, o, k));
		strbuf_addf(&p.sc, ", \\\n     '' index %zu using 1:6:6:6:6 with candlesticks lt %d lw 3 dt 1 notitle, \\\n"
			    "     '' index %zu using 1:2 with points lt %d pt %d ps 0.6 notitle",
			    k, plot_lt_of(k), K + k, plot_lt_of(k), plot_kernel_open_points[k % NSTYLE]);
	}
	strbuf_addstr(&p.sc, "\n");
	free(b.mean);
	return plot_picture_finish(&p, o, out);
}

/*
 * Many variants of two or more parameters (pte-mapped-folio: test x folio
 * size) are split by the first parameter, one picture each.
 */
int plot_split_by_first_key(const struct plot_group *g, size_t max,
			    int (*fn)(const struct plot_group *, const struct plot_opts *,
				      const size_t *, size_t, const char *, struct plot_list *),
			    const struct plot_opts *o, struct plot_list *out)
{
	size_t nkv = g->nvariants ? g->typed[0].n : 0;
	size_t *vs = xcalloc(g->nvariants ? g->nvariants : 1, sizeof(*vs));
	int ret = 0;

	if (g->nvariants <= max || nkv < 2) {
		for (size_t v = 0; v < g->nvariants; v++)
			vs[v] = v;
		ret = fn(g, o, vs, g->nvariants, "", out);
	} else {
		char **vals = NULL;
		size_t nvals = 0;
		const char *key = g->typed[0].p[0].name;

		/* the first key's values, in the order they come */
		for (size_t v = 0; v < g->nvariants; v++) {
			const char *val = plot_variant_get(&g->typed[v], key);

			plot_add_unique(&vals, &nvals, val ? val : "");
		}
		for (size_t d = 0; d < nvals && !ret; d++) {
			char *part;
			size_t n = 0;

			for (size_t w = 0; w < g->nvariants; w++) {
				const char *v2 = plot_variant_get(&g->typed[w], key);
				if (!strcmp(v2 ? v2 : "", vals[d]))
					vs[n++] = w;
			}
			part = xasprintf("%s=%s", key, vals[d]);
			ret = fn(g, o, vs, n, part, out);
			free(part);
		}
		plot_free_strings(vals, nvals);
	}
	free(vs);
	return ret;
}

int plot_boxes(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	return plot_split_by_first_key(g, 12, plot_boxes_one, o, out);
}
