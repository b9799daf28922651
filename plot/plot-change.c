/*
 * The relative-change chart: each kernel's change against the baseline
 * per variant, its CI and the verdict's colour.
 */
#include "plot-internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- relative change bars ---- */

/* The changes one chart draws: its range, and the series that names each class in the key. */
struct changes {
	size_t first_of[4];	/* class 0 none, 1 improvement, 2 regression, 3 inconclusive */
	struct change_range r;
};

/* Data block j: the change of kernel j + 1 vs the baseline at each variant. */
static void change_data(struct changes *c, const struct plot_group *g, const struct plot_opts *o,
			const size_t *vs, size_t nvs, double bw, struct strbuf *dat)
{
	size_t K = g->nkernels, J = K - 1;

	for (size_t j = 0; j < ARRAY_SIZE(c->first_of); j++)
		c->first_of[j] = (size_t)-1;
	plot_open_ends_init(&c->r.open, J);
	strbuf_addf(dat, "# mmbench plot data: %s %s change vs %s\n", g->workload, g->metric,
		    g->kernels[0]);
	for (size_t k = 1; k < K; k++) {
		double off = ((double)(k - 1) - (J - 1) / 2.0) * bw;

		strbuf_addf(dat, "# block %zu: %s vs %s\n# x rel%% ci95_lo ci95_hi p class(0 none,1 improvement,2 regression,3 inconclusive)\n",
			    k - 1, g->kernels[k], g->kernels[0]);
		for (size_t i = 0; i < nvs; i++) {
			struct change ch;
			int cls;

			plot_cell_change(g, o, vs[i], k, &ch);
			strbuf_addf(dat, "%.4f %.6g %.6g %.6g %.6g %d\n", i + off, ch.rel, ch.lo, ch.hi,
				    ch.p, ch.cls);
			cls = ch.cls < 0 ? 0 : ch.cls;
			if (c->first_of[cls] == (size_t)-1 && isfinite(ch.rel))
				c->first_of[cls] = k - 1;
			plot_change_range_add(&c->r, k - 1, &ch);
		}
		strbuf_addstr(dat, "\n\n");
	}
}

/* No change to draw: no chart rather than an empty one, and say why. */
static void change_skipped(const struct plot_group *g, const struct plot_opts *o,
			   const size_t *vs, size_t nvs, const char *part)
{
	char *name = plot_name(g, "change", part);
	bool zero = false;

	for (size_t i = 0; i < nvs && !zero; i++) {
		const struct plot_cell *b = plot_group_cell(g, vs[i], 0);
		double sum = 0;

		for (size_t j = 0; j < b->n; j++)
			sum += b->v[j];
		zero = b->n >= 2 && sum == 0;
	}
	warning("skipped plot %s/%s.%s: %s", o->outdir ? o->outdir : ".", name,
		plot_format_ext(o->format), zero ? "no relative change, the baseline mean is 0"
		: "no change to draw, fewer than 2 samples on a side");
	free(name);
}

/* Which bar is which kernel, and what the error bars are. */
static char *change_subtitle(const struct plot_group *g, const struct plot_opts *o)
{
	struct strbuf order = STRBUF_INIT;
	size_t K = g->nkernels;

	if (K <= 2)
		return xasprintf("%s vs %s; error bars: 95%% CI of the change of the %s",
				 plot_kernel_key(g, o, 1), plot_kernel_key(g, o, 0), plot_mean_title(g));
	strbuf_addf(&order, "vs %s; bars left to right:", plot_kernel_key(g, o, 0));
	for (size_t k = 1; k < K; k++)
		strbuf_addf(&order, " %s%s", plot_kernel_key(g, o, k), k + 1 < K ? "," : "");
	strbuf_addf(&order, "; error bars: 95%% CI of the change of the %s", plot_mean_title(g));
	return strbuf_detach(&order);
}

/* a bar's label: bounded digits however large the change (as fmt_fixed()) */
#define CHANGE_LABEL "abs($2)<1e15?sprintf(\"%+.1f%%\",$2):sprintf(\"%+.2e%%\",$2)"

/*
 * Where a bar's value label sits: past its CI's end, and past the triangle
 * where the CI is open (drawn to the edge), so no label covers a mark.
 */
static void change_label_ys(const struct changes *c, char lo[static 160], char hi[static 160])
{
	const struct open_ends *e = &c->r.open;
	double gap = 0.07 * (e->top - e->bottom);

	if (e->above)
		snprintf(hi, 160, "(valid(4)&&$4<%.10g?$4:%.10g)", e->top, e->top + gap);
	else
		snprintf(hi, 160, "$4");
	if (e->below)
		snprintf(lo, 160, "(valid(3)&&$3>%.10g?$3:%.10g)", e->bottom, e->bottom - gap);
	else
		snprintf(lo, 160, "$3");
}

/* A bar per kernel and variant, its fill the class (in black and white too: solid, hatched, empty). */
static void change_bars(struct strbuf *sc, const struct changes *c, size_t J, bool crowded)
{
	char lo[160], hi[160], *cols = plot_open_ends_using(&c->r.open);

	change_label_ys(c, lo, hi);
	strbuf_addstr(sc, "plot ");
	for (size_t j = 0; j < J; j++) {
		strbuf_addf(sc, "%s@DATA@ index %zu using 1:($6==1?$2:NaN) with boxes ls 101 fill solid 0.8 border lc rgb \"black\" %s, \\\n"
			    "     '' index %zu using 1:($6==2?$2:NaN) with boxes ls 102 fill pattern 2 border lc rgb \"black\" %s, \\\n"
			    "     '' index %zu using 1:($6==0||$6==-1?$2:NaN) with boxes ls 103 fill empty border lc rgb \"#404040\" %s, \\\n"
			    "     '' index %zu using 1:($6==3?$2:NaN) with boxes ls 104 fill pattern 4 border lc rgb \"#404040\" %s, \\\n"
			    "     '' index %zu using 1:%s with yerrorbars lc rgb \"black\" lw 1 dt 1 pt 7 ps 0.4 notitle, \\\n"
			    "     '' index %zu using 1:($2>=0?%s:NaN):(%s) with labels %s font \",8\" notitle, \\\n"
			    "     '' index %zu using 1:($2<0?%s:NaN):(%s) with labels %s font \",8\" notitle",
			    j ? ", \\\n     " : "", j,
			    c->first_of[1] != j ? "notitle" : "title \"significant improvement\"",
			    j, c->first_of[2] != j ? "notitle" : "title \"significant regression\"",
			    j, c->first_of[0] != j ? "notitle" : "title \"no significant change\"",
			    j, c->first_of[3] != j ? "notitle" : "title \"inconclusive (machine state)\"",
			    j, cols, j, hi, CHANGE_LABEL, crowded ? "rotate by 90 left offset 0,0.4" : "offset 0,0.7",
			    j, lo, CHANGE_LABEL, crowded ? "rotate by 90 right offset 0,-0.4" : "offset 0,-0.7");
		plot_open_ends_marks(sc, &c->r.open, j, "1", "lc rgb \"black\"");
	}
	strbuf_addstr(sc, "\n");
	free(cols);
}

static int plot_change_one(const struct plot_group *g, const struct plot_opts *o,
			   const size_t *vs, size_t nvs, const char *part, struct plot_list *out)
{
	size_t K = g->nkernels, J = K > 1 ? K - 1 : 1;
	double bw = 0.8 / J, span, pad;
	struct changes c = { .r.any = false };	/* the range from 0: it holds the zero line */
	struct picture p;
	struct strbuf notes = STRBUF_INIT;
	char *title, *sub, *yl;
	bool crowded;

	if (K < 2)
		return 0;
	plot_picture_init(&p, "change");
	change_data(&c, g, o, vs, nvs, bw, &p.dat);
	if (!c.r.any) {
		change_skipped(g, o, vs, nvs, part);
		plot_picture_release(&p);
		plot_open_ends_release(&c.r.open);
		return 0;
	}
	plot_open_ends_place(&c.r.open, &c.r.lo, &c.r.hi);
	title = part && *part ? xasprintf("%s %s: change vs %s (%s)", g->workload, g->metric, g->kernels[0], part)
			      : xasprintf("%s %s: change vs %s", g->workload, g->metric, g->kernels[0]);
	plot_picture_begin(&p, g, o, part, title, vs, nvs);
	sub = change_subtitle(g, o);
	plot_open_ends_legend(&notes, &c.r.open);
	plot_headings(&p.sc, &p, o, sub, notes.buf);
	strbuf_release(&notes);
	free(sub);
	plot_variant_axis(&p.sc, g, vs, nvs, true);
	yl = xasprintf("%% change of %s %s (%s)", plot_mean_title(g), g->metric, plot_direction(g->better));
	plot_set_text(&p.sc, "ylabel", yl, "");
	free(yl);
	/* room for the value labels above/below the bars; vertical when bars are narrow */
	crowded = J * nvs > 10;
	span = c.r.hi - c.r.lo > 0 ? c.r.hi - c.r.lo : 1;
	/* an open end's label sits past its triangle: more room there */
	pad = (crowded ? 0.2 : 0.12) + (c.r.open.above || c.r.open.below ? 0.08 : 0);
	strbuf_addf(&p.sc, "set yrange [%.6g:%.6g]\n", c.r.lo - pad * span, c.r.hi + pad * span);
	strbuf_addf(&p.sc, "set boxwidth %.4f absolute\n", bw * 0.7);
	strbuf_addstr(&p.sc, "set style line 101 lc rgb \"#1a9641\" lw 1\n"		/* improvement */
		      "set style line 102 lc rgb \"#d7191c\" lw 1\n"			/* regression */
		      "set style line 103 lc rgb \"#808080\" lw 1\n"
		      "set style line 104 lc rgb \"#e6a000\" lw 1\n");	/* inconclusive */
	change_bars(&p.sc, &c, J, crowded);
	plot_open_ends_release(&c.r.open);
	return plot_picture_finish(&p, o, out);
}

int plot_change(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	if (g->nkernels < 2)
		return 0;
	return plot_split_by_first_key(g, 24, plot_change_one, o, out);
}
