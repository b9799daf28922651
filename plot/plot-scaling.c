/*
 * Scaling plots: the metric against a numeric parameter (clients,
 * threads), one line per kernel, the change panel below.
 */
#include "plot-internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- scaling: metric vs clients, one line per kernel, change panel below ---- */

struct xpoint {
	double x;
	size_t v;
};

static int cmp_xpoint(const void *a, const void *b)
{
	const struct xpoint *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* Client lists that stride (1,4,7,12,21,30,48...) or double read best on log2. */
static bool wants_log2(const double *x, size_t n)
{
	double step;

	if (n < 3 || x[0] <= 0 || x[n - 1] / x[0] < 8)
		return false;
	step = x[1] - x[0];
	for (size_t i = 2; i < n; i++)
		if (fabs((x[i] - x[i - 1]) - step) > 1e-9 * fabs(step) + 1e-12)
			return true;
	return false;
}

/* One scaling picture: the variants whose other parameters are rest, along key. */
struct scaling {
	const char *key, *rest;
	struct xpoint *pts;		/* sorted by x */
	size_t npts;
	bool logx;
	bool cut_at_zero;		/* an interval of a positive quantity is cut at 0, marked */
	double ylo, yhi;		/* the top panel's range: every interval */
	struct open_ends top;		/* the top panel's intervals the data cannot bound */
	bool *empty;			/* per kernel: no point of its line has a sample */
	struct change_range rel;	/* the change panel's, from 0: it holds the zero line */
};

/* The points of the line: the variants of s->rest, sorted by the value of the key. */
static void scaling_points(struct scaling *s, const struct plot_group *g)
{
	double *xs;

	for (size_t v = 0; v < g->nvariants; v++) {
		char *r = plot_variant_without(&g->typed[v], s->key);
		double x;

		if (!strcmp(r, s->rest) && variant_param_number(variant_find(&g->typed[v], s->key), &x)) {
			s->pts = xrealloc(s->pts, (s->npts + 1) * sizeof(*s->pts));
			s->pts[s->npts].x = x;
			s->pts[s->npts].v = v;
			s->npts++;
		}
		free(r);
	}
	qsort(s->pts, s->npts, sizeof(*s->pts), cmp_xpoint);
	xs = xcalloc(s->npts, sizeof(*xs));
	for (size_t i = 0; i < s->npts; i++)
		xs[i] = s->pts[i].x;
	s->logx = wants_log2(xs, s->npts);
	free(xs);
}

/* Data blocks 0..K-1, x mean lo hi n of each kernel; the top panel's range. */
static void scaling_means(struct scaling *s, const struct plot_group *g, const struct plot_opts *o,
			  struct strbuf *dat)
{
	bool any_negative = false, ci_below_zero = false;

	s->ylo = INFINITY;
	s->yhi = -INFINITY;
	plot_open_ends_init(&s->top, g->nkernels);
	s->empty = xcalloc(g->nkernels ? g->nkernels : 1, sizeof(*s->empty));
	for (size_t k = 0; k < g->nkernels; k++) {
		s->empty[k] = true;
		strbuf_addf(dat, "# block %zu: kernel %s\n# %s mean ci95_lo ci95_hi n\n", k,
			    g->kernels[k], s->key);
		for (size_t i = 0; i < s->npts; i++) {
			const struct plot_cell *c = plot_group_cell(g, s->pts[i].v, k);
			double m, lo, hi;

			for (size_t j = 0; j < c->n; j++)
				if (c->v[j] < 0)
					any_negative = true;
			plot_cell_ci(c, o, g->better, plot_mean_kind(g), &m, &lo, &hi);
			if (lo < 0)
				ci_below_zero = true;
			if (isfinite(lo) && lo < s->ylo)
				s->ylo = lo;
			if (isfinite(hi) && hi > s->yhi)
				s->yhi = hi;
			if (isfinite(m)) {
				s->empty[k] = false;
				s->ylo = fmin(s->ylo, m);
				s->yhi = fmax(s->yhi, m);
			}
			plot_open_ends_note(&s->top, k, m, lo, hi);
			strbuf_addf(dat, "%.17g %.10g %.10g %.10g %zu\n", s->pts[i].x, m, lo, hi, c->n);
		}
		strbuf_addstr(dat, "\n\n");
	}
	/* a wide interval of a positive quantity is cut at 0 (and marked), not drawn into negative rates */
	s->cut_at_zero = ci_below_zero && !any_negative;
	if (s->cut_at_zero)
		s->ylo = 0;
	if (isfinite(s->ylo) && isfinite(s->yhi))
		plot_open_ends_place(&s->top, &s->ylo, &s->yhi);
}

/* Data blocks K..2K-2, x rel lo hi p class of each kernel vs the baseline; the change panel's range. */
static void scaling_changes(struct scaling *s, const struct plot_group *g, const struct plot_opts *o,
			    struct strbuf *dat)
{
	size_t K = g->nkernels;

	plot_open_ends_init(&s->rel.open, 2 * K);	/* indexed by data block: K..2K-2 */
	for (size_t k = 1; k < K; k++) {
		strbuf_addf(dat, "# block %zu: %% change of %s vs %s\n# %s rel ci95_lo ci95_hi p class(0 none,1 better,2 worse,3 inconclusive)\n",
			    K + k - 1, g->kernels[k], g->kernels[0], s->key);
		for (size_t i = 0; i < s->npts; i++) {
			struct change ch;

			plot_cell_change(g, o, s->pts[i].v, k, &ch);
			plot_change_range_add(&s->rel, K + k - 1, &ch);
			strbuf_addf(dat, "%.17g %.6g %.6g %.6g %.6g %d\n", s->pts[i].x, ch.rel, ch.lo,
				    ch.hi, ch.p, ch.cls);
		}
		strbuf_addstr(dat, "\n\n");
	}
	if (s->rel.any)
		plot_open_ends_place(&s->rel.open, &s->rel.lo, &s->rel.hi);
}

/* The x of kernel k's points, nudged sideways so that the kernels' error bars do not hide each other. */
static char *nudged_x(const struct scaling *s, size_t k, size_t K)
{
	double f = (double)k - (K - 1) / 2.0;
	double span = s->npts > 1 ? s->pts[s->npts - 1].x - s->pts[0].x : 0;

	if (s->logx)
		return xasprintf("($1*%.6f)", pow(2.0, 0.04 * f));
	return xasprintf("($1+%.6f)", s->npts > 1 ? 0.006 * f * span : 0.0);
}

/* A tic at each point (up to 16), labelled in the bottom panel only (the top one shares its axis). */
static void scaling_xtics(struct strbuf *sc, const struct scaling *s, bool labelled)
{
	if (!s->npts || s->npts > 16)
		return;
	strbuf_addstr(sc, "set xtics (");
	for (size_t i = 0; i < s->npts; i++) {
		if (labelled)
			strbuf_addf(sc, "%s\"%g\" %.17g", i ? ", " : "", s->pts[i].x, s->pts[i].x);
		else
			strbuf_addf(sc, "%s\"\" %.17g", i ? ", " : "", s->pts[i].x);
	}
	strbuf_addstr(sc, ")\n");
}

/* The x axis both panels share: log2 for strided lists, a margin either side. */
static void scaling_xaxis(struct strbuf *sc, const struct scaling *s)
{
	if (s->logx)
		strbuf_addstr(sc, "set logscale x 2\n");
	scaling_xtics(sc, s, false);
	if (s->npts) {
		double lo = s->pts[0].x, hi = s->pts[s->npts - 1].x;

		if (s->logx) {
			strbuf_addf(sc, "set xrange [%.17g:%.17g]\n", lo / 1.25, hi * 1.25);
		} else {
			double pad = (hi - lo) * 0.04 + (hi == lo ? 0.5 : 0);
			strbuf_addf(sc, "set xrange [%.17g:%.17g]\n", lo - pad, hi + pad);
		}
	}
}

/* Top panel: the statistic and its CI per kernel; the key above it, never on the curves. */
static void scaling_top_panel(struct strbuf *sc, const struct scaling *s, const struct plot_group *g,
			      const struct plot_opts *o)
{
	size_t K = g->nkernels;
	const char *unit;
	char *cols;

	/* the key (its title a line of its own) above the panel, never on the curves */
	strbuf_addf(sc, "set tmargin at screen %s\nset bmargin at screen 0.44\n"
		    "set format x \"\"\n"
		    "set key at screen 0.5,0.92 center top horizontal samplen 3 maxrows 2\n",
		    K > 4 ? "0.80" : "0.83");
	/* the range holds every interval: nothing is clipped unmarked */
	unit = plot_si_tics(sc, "y", s->ylo, s->yhi, g->unit, 5, true, NULL);
	plot_metric_label(sc, "ylabel", g, unit);
	plot_key_title(sc, unit);
	strbuf_addstr(sc, "plot ");
	cols = plot_open_ends_using(&s->top);
	for (size_t k = 0; k < K; k++) {
		char *xexpr, *lt, *t;

		if (s->empty[k]) {
			/* gnuplot leaves a line without points out of the key: say why it is missing */
			t = xasprintf("%s: no samples", plot_kernel_key(g, o, k));
			strbuf_addf(sc, "%skeyentry with yerrorlines lt %d", k ? ", \\\n     " : "", plot_lt_of(k));
			plot_add_title(sc, t);
			free(t);
			continue;
		}
		xexpr = nudged_x(s, k, K);
		strbuf_addf(sc, "%s@DATA@ index %zu using %s:%s with yerrorlines lt %d",
			    k ? ", \\\n     " : "", k, xexpr, cols, plot_lt_of(k));
		plot_add_title(sc, plot_kernel_key(g, o, k));
		lt = xasprintf("lt %d", plot_lt_of(k));
		plot_open_ends_marks(sc, &s->top, k, xexpr, lt);
		free(lt);
		if (s->cut_at_zero)
			/* a triangle where an interval is cut at 0 */
			strbuf_addf(sc, ", \\\n     '' index %zu using %s:($3<0?0:NaN) with points lt %d"
				    " pt 11 ps 1.6 notitle", k, xexpr, plot_lt_of(k));
		free(xexpr);
	}
	free(cols);
	strbuf_addstr(sc, "\n");
}

/* Bottom panel: the change of each kernel vs the baseline, or why there is none. */
static void scaling_change_panel(struct strbuf *sc, const struct scaling *s,
				 const struct plot_group *g)
{
	size_t K = g->nkernels;
	char *bl, *cols;

	strbuf_addstr(sc, "unset label\nset tmargin at screen 0.38\nset bmargin at screen 0.2\n"
		      "set format x \"%g\"\nset format y \"%g\"\nunset key\n"
		      "set xzeroaxis lt -1 lw 1\n");
	if (s->rel.any)
		plot_si_tics(sc, "y", s->rel.lo, s->rel.hi, NULL, 4, true, NULL);
	else
		strbuf_addstr(sc, "set ytics autofreq\n");
	scaling_xtics(sc, s, true);
	strbuf_addstr(sc, "set ylabel \"% change\"\n");
	/* in the gap between the panels, not on the data */
	bl = xasprintf("change of the %s vs %s, with 95%% CI", plot_mean_title(g), g->kernels[0]);
	plot_set_text(sc, "label", bl, " at screen 0.13,0.41 left font \",9\"");
	free(bl);
	plot_set_text(sc, "xlabel", s->key, " offset 0,0.3");
	if (K < 2 || !s->rel.any) {
		/* nothing to draw: say why instead of failing on an empty plot */
		strbuf_addstr(sc, "set yrange [-1:1]\nset label \"no change to show: fewer than 2 samples per kernel\" "
			      "at graph 0.5,0.5 center\nplot 0 with lines lt -1\n");
		return;
	}
	strbuf_addstr(sc, "plot ");
	cols = plot_open_ends_using(&s->rel.open);
	for (size_t k = 1; k < K; k++) {
		char *xexpr = nudged_x(s, k, K), *lt;

		strbuf_addf(sc, "%s@DATA@ index %zu using %s:%s with yerrorlines lt %d",
			    k > 1 ? ", \\\n     " : "", K + k - 1, xexpr, cols, plot_lt_of(k));
		lt = xasprintf("lt %d", plot_lt_of(k));
		plot_open_ends_marks(sc, &s->rel.open, K + k - 1, xexpr, lt);
		free(lt);
		free(xexpr);
	}
	free(cols);
	strbuf_addstr(sc, "\n");
}

static int plot_scaling_one(const struct plot_group *g, const struct plot_opts *o,
			    const char *key, const char *rest, struct plot_list *out)
{
	struct scaling s = { .key = key, .rest = rest };
	struct picture p;
	struct strbuf notes = STRBUF_INIT;
	size_t *vs;
	char *title, *sub;

	plot_picture_init(&p, "scaling");
	scaling_points(&s, g);
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s vs %s\n", g->workload, g->metric, key);
	scaling_means(&s, g, o, &p.dat);
	scaling_changes(&s, g, o, &p.dat);

	title = *rest ? xasprintf("%s %s vs %s (%s)", g->workload, g->metric, key, rest)
		      : xasprintf("%s %s vs %s", g->workload, g->metric, key);
	vs = xcalloc(s.npts ? s.npts : 1, sizeof(*vs));
	for (size_t i = 0; i < s.npts; i++)
		vs[i] = s.pts[i].v;
	plot_picture_begin(&p, g, o, rest, title, vs, s.npts);
	free(vs);
	strbuf_addstr(&p.sc, "set multiplot\n");
	sub = xasprintf("%s with 95%% confidence interval; lower panel: change of the %s"
			" vs the baseline", plot_mean_title(g), plot_mean_title(g));
	/* what the marks mean, below the axis: never over the data */
	strbuf_addstr(&notes, "");
	if (s.cut_at_zero)
		strbuf_addstr(&notes, "\xe2\x96\xbc at 0: 95% CI cut at 0");
	plot_open_ends_legend(&notes, &s.top);
	plot_open_ends_legend(&notes, &s.rel.open);
	plot_headings(&p.sc, &p, o, sub, notes.buf);
	strbuf_release(&notes);
	free(sub);
	strbuf_addstr(&p.sc, "set lmargin at screen 0.13\nset rmargin at screen 0.97\n");
	scaling_xaxis(&p.sc, &s);
	scaling_top_panel(&p.sc, &s, g, o);
	scaling_change_panel(&p.sc, &s, g);
	strbuf_addstr(&p.sc, "unset multiplot\n");
	plot_open_ends_release(&s.top);
	plot_open_ends_release(&s.rel.open);
	free(s.empty);
	free(s.pts);
	return plot_picture_finish(&p, o, out);
}

int plot_scaling(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	const char *key = plot_scaling_key(g);
	char **rests = NULL;
	size_t nrest = 0;
	int ret = 0;

	if (!key)
		return 0;
	/* one picture per combination of the other parameters */
	for (size_t v = 0; v < g->nvariants; v++) {
		char *r = plot_variant_without(&g->typed[v], key);

		plot_add_unique(&rests, &nrest, r);
		free(r);
	}
	for (size_t i = 0; i < nrest && !ret; i++)
		ret = plot_scaling_one(g, o, key, rests[i], out);
	plot_free_strings(rests, nrest);
	return ret;
}
