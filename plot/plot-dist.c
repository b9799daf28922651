/*
 * Distributions: the empirical CDF of each kernel's samples.
 */
#include "plot-internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- distributions: empirical CDF per kernel ---- */

/* A data block: the samples of c sorted, each with its cumulative fraction. */
static void ecdf_block(struct strbuf *dat, const struct plot_cell *c)
{
	double *s = plot_sorted_copy(c->v, c->n);

	for (size_t i = 0; i < c->n; i++)
		strbuf_addf(dat, "%.10g %.6f\n", s[i], (double)(i + 1) / c->n);
	if (!c->n)
		strbuf_addstr(dat, "NaN NaN\n");
	strbuf_addstr(dat, "\n\n");
	free(s);
}

/* The curves: a step line and its points per kernel, from data block first on; ps: the points' size. */
static void ecdf_plot(struct strbuf *sc, const struct plot_group *g, const struct plot_opts *o,
		      size_t first, bool titled, const char *ps)
{
	strbuf_addstr(sc, "plot ");
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(sc, "%s@DATA@ index %zu using 1:2 with steps lt %d", k ? ", \\\n     " : "",
			    first + k, plot_lt_of(k));
		if (titled)
			plot_add_title(sc, plot_kernel_key(g, o, k));
		else
			strbuf_addstr(sc, " notitle");
		strbuf_addf(sc, ", \\\n     '' index %zu using 1:2 with points lt %d ps %s notitle",
			    first + k, plot_lt_of(k), ps);
	}
	strbuf_addstr(sc, "\n");
}

static int plot_dist_one(const struct plot_group *g, const struct plot_opts *o, size_t v,
			 struct plot_list *out)
{
	struct picture p;
	double lo, hi;
	const char *unit;
	char *title;

	plot_picture_init(&p, "dist");
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s [%s] empirical CDF\n", g->workload, g->metric,
		    g->variants[v]);
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(&p.dat, "# block %zu: %s\n# value cumulative_fraction\n", k, g->kernels[k]);
		ecdf_block(&p.dat, plot_group_cell(g, v, k));
	}
	title = *g->variants[v] ? xasprintf("%s %s distribution (%s)", g->workload, g->metric, g->variants[v])
				: xasprintf("%s %s distribution", g->workload, g->metric);
	plot_picture_begin(&p, g, o, g->variants[v], title, &v, 1);
	plot_headings(&p.sc, &p, o, "empirical CDF of the samples of each kernel: steps show noise and bimodality", NULL);
	plot_sample_range(g, &v, 1, &lo, &hi);
	unit = plot_si_tics(&p.sc, "x", lo, hi, g->unit, 5, false, NULL);
	strbuf_addstr(&p.sc, "set tmargin at screen 0.88\nset bmargin 9\nset lmargin 12\nset rmargin 6\n"
		      "set key bottom right box opaque samplen 3\n"
		      "set grid xtics ytics\n"
		      "set yrange [0:1.02]\nset ylabel \"fraction of samples <= x\"\n");
	plot_metric_label(&p.sc, "xlabel", g, unit);
	plot_key_title(&p.sc, unit);
	ecdf_plot(&p.sc, g, o, 0, true, "0.8");
	return plot_picture_finish(&p, o, out);
}

/* Panel p of a grid of cols x rows: its place, x tics over its samples, the variant, the curves. */
static void dist_panel(struct strbuf *sc, const struct plot_group *g, const struct plot_opts *o,
		       const size_t *vs, size_t p, size_t cols, size_t rows)
{
	const char *lab = *g->variants[vs[p]] ? g->variants[vs[p]] : g->metric, *unit;
	double lo, hi;
	char *t;
	double left = 0.08, right = 0.98, bottom = 0.19, top = 0.80, hsp = 0.06, vsp = 0.11;
	double w = (right - left - (cols - 1) * hsp) / cols, h = (top - bottom - (rows - 1) * vsp) / rows;
	double x0 = left + (p % cols) * (w + hsp), y1 = top - (p / cols) * (h + vsp);

	strbuf_addf(sc, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		    "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		    x0, x0 + w, y1, y1 - h);
	plot_sample_range(g, &vs[p], 1, &lo, &hi);
	/* each panel's tics have their own scale: its title says the unit they are in */
	unit = plot_si_tics(sc, "x", lo, hi, g->unit, 4, false, "\",8\"");
	t = unit && *unit ? xasprintf("%s (%s)", lab, unit) : xstrdup(lab);
	plot_set_text(sc, "title", t, " font \",9\" offset 0,-0.6");
	free(t);
	ecdf_plot(sc, g, o, p * g->nkernels, false, "0.5");
	if (!p)	/* headings once */
		strbuf_addstr(sc, "unset label\n");
}

/* The legend: an empty full-size plot whose curves lie outside its range. */
static void dist_legend(struct strbuf *sc, const struct plot_group *g, const struct plot_opts *o)
{
	strbuf_addstr(sc, "set lmargin at screen 0.02\nset rmargin at screen 0.98\n"
		      "set tmargin at screen 0.99\nset bmargin at screen 0.01\n"
		      "unset border\nunset xtics\nunset ytics\nunset grid\nunset title\n"
		      "set xrange [0:1]\nset yrange [0:1]\n"
		      "set key at screen 0.5,0.915 center top horizontal samplen 3\nplot ");
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(sc, "%s2 with linespoints lt %d ps 0.7", k ? ", " : "", plot_lt_of(k));
		plot_add_title(sc, plot_kernel_key(g, o, k));
	}
	strbuf_addstr(sc, "\n");
}

/*
 * Several variants: one picture per metric with a panel per variant (up to
 * 12; more are split over several pictures), so noise and bimodality of a
 * whole sweep are seen at once.
 */
static int plot_dist_panels(const struct plot_group *g, const struct plot_opts *o,
			    const size_t *vs, size_t nvs, const char *part, struct plot_list *out)
{
	size_t K = g->nkernels, cols, rows;
	struct picture p;
	char *sub, *xl;

	cols = nvs <= 2 ? nvs : nvs <= 4 ? 2 : nvs <= 9 ? 3 : 4;
	rows = (nvs + cols - 1) / cols;
	plot_picture_init(&p, "dist");
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s empirical CDF, block = panel * %zu + kernel\n",
		    g->workload, g->metric, K);
	for (size_t i = 0; i < nvs; i++)
		for (size_t k = 0; k < K; k++) {
			strbuf_addf(&p.dat, "# block %zu: [%s] %s\n# value cumulative_fraction\n", i * K + k,
				    g->variants[vs[i]], g->kernels[k]);
			ecdf_block(&p.dat, plot_group_cell(g, vs[i], k));
		}
	plot_picture_begin(&p, g, o, part, xasprintf("%s %s distribution per variant", g->workload, g->metric),
			   vs, nvs);
	xl = plot_metric_axis(g, "");
	sub = xasprintf("empirical CDF per kernel; x: %s, unit in each panel's title; y: fraction of samples <= x",
			xl);
	plot_headings(&p.sc, &p, o, sub, NULL);
	free(sub);
	free(xl);
	/* panels placed by hand, so that the legend can span the whole width */
	strbuf_addstr(&p.sc, "set multiplot\n");
	strbuf_addstr(&p.sc, "set yrange [0:1.02]\nset ytics 0.25 font \",8\"\nset format y \"%.2g\"\n"
		      "set grid xtics ytics\nunset key\n");
	for (size_t i = 0; i < nvs; i++)
		dist_panel(&p.sc, g, o, vs, i, cols, rows);
	dist_legend(&p.sc, g, o);
	strbuf_addstr(&p.sc, "unset multiplot\n");
	return plot_picture_finish(&p, o, out);
}
int plot_dist(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	size_t *vs;
	int ret = 0;

	if (g->nvariants == 1)
		return plot_dist_one(g, o, 0, out);
	vs = xcalloc(g->nvariants, sizeof(*vs));
	for (size_t v = 0; v < g->nvariants; v++)
		vs[v] = v;
	/* at most 12 panels a picture */
	for (size_t first = 0, part = 1; first < g->nvariants && !ret; first += 12, part++) {
		size_t n = g->nvariants - first < 12 ? g->nvariants - first : 12;
		char *suffix = g->nvariants > 12 ? xasprintf("%zu", part) : NULL;

		ret = plot_dist_panels(g, o, vs + first, n, suffix, out);
		free(suffix);
	}
	free(vs);
	return ret;
}
