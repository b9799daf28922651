/*
 * What the plot kinds (plot-scaling.c, plot-boxes.c, plot-change.c,
 * plot-dist.c) share with plot.c: the styles, the script's common parts,
 * one picture, the intervals drawn (from the compare layer) and the
 * open ends of intervals the data cannot bound.  Private to plot/.
 */
#ifndef MMB_PLOT_INTERNAL_H
#define MMB_PLOT_INTERNAL_H

#include "plot.h"
#include "util.h"
#include "variant.h"

#include <stdbool.h>
#include <stddef.h>

#define NSTYLE 8	/* kernel styles: colour, dash, point; the 9th kernel wraps */
extern const int plot_kernel_open_points[];

/* Relative change of kernel k vs the baseline at variant v, with CI and class. */
struct change {
	double rel, lo, hi, p;
	int cls;		/* 0 no change, 1 improvement, 2 regression, 3 inconclusive, -1 not computable */
};

/*
 * An interval the data cannot bound (a harmonic mean's upper limit when
 * the reciprocals' interval reaches 0, the change of such a mean) is drawn
 * to the panel's edge and marked there with a triangle.  Left to gnuplot,
 * a NaN or inf bound makes the whole point undefined: the kernel's line
 * vanishes, or the picture fails when every point is open.
 */
struct open_ends {
	bool above, below;	/* some drawn interval is open that way */
	double top, bottom;	/* the edges open intervals are drawn to */
	bool *above_in, *below_in;	/* per data block */
};

/* The range that holds every change's interval and 0, and whether any change is computable. */
struct change_range {
	double lo, hi;
	bool any;
	struct open_ends open;
};

struct picture {
	const char *kind;		/* scaling, box, change, dist */
	char *name, *title, *cap, *cap_n;	/* cap: kernels, machine; cap_n: n per label */
	struct strbuf sc, dat;		/* NAME.gp and NAME.dat */
};

/* A text in the key. */
void plot_add_title(struct strbuf *sb, const char *kernel);
/* The key text of kernel k: the label and what differs (plot_opts.legend), else the label. */
const char *plot_kernel_key(const struct plot_group *g, const struct plot_opts *o, size_t k);
/* The key's title: the unit of the values, as the axis shows it. */
void plot_key_title(struct strbuf *sb, const char *unit);
/* Add a copy of s to the n strings of *v unless one of them is s already. */
void plot_add_unique(char ***v, size_t *n, const char *s);
/* Draws the comparison value's change of the statistic drawn (compare_change_of()). */
void plot_cell_change(const struct plot_group *g, const struct plot_opts *o, size_t v, size_t k,
		      struct change *ch);
/* The statistic drawn with its CI: the compare layer's stats_mean_ci(). */
void plot_cell_ci(const struct plot_cell *c, const struct plot_opts *o, int better,
		  enum stats_mean_kind kind, double *mean, double *lo, double *hi);
/* A change in data block b: the range holds it and its closed bounds. */
void plot_change_range_add(struct change_range *r, size_t b, const struct change *ch);
const char *plot_direction(int better);
/* Free the n strings of v and v itself. */
void plot_free_strings(char **v, size_t n);
/*
 * Title (the experiment first), subtitle and the two caption lines at fixed
 * places so they never collide with the key; notes (what the picture's
 * marks mean) on a line above them, below the x axis: off the data.
 */
struct picture;
void plot_headings(struct strbuf *sb, const struct picture *p, const struct plot_opts *o,
		   const char *subtitle, const char *notes);
int plot_lt_of(size_t k);
/* The statistic the group draws (compare's choice for its rows). */
enum stats_mean_kind plot_mean_kind(const struct plot_group *g);
const char *plot_mean_title(const struct plot_group *g);
/* "metric (unit), direction"; unit NULL: the group's. */
char *plot_metric_axis(const struct plot_group *g, const char *unit);
/* The axis ("ylabel", "xlabel") that carries the metric, its unit as the tics show it and direction. */
void plot_metric_label(struct strbuf *sb, const char *axis, const struct plot_group *g,
		       const char *unit);
char *plot_name(const struct plot_group *g, const char *kind, const char *extra);
/* The bounds $3 and $4 as expressions, open ones drawn to the edge. */
void plot_open_ends_cols(const struct open_ends *e, char lo[static 96], char hi[static 96]);
void plot_open_ends_init(struct open_ends *e, size_t nblocks);
/* What the triangles mean, added to the picture's notes (drawn off the data). */
void plot_open_ends_legend(struct strbuf *notes, const struct open_ends *e);
/* Block b's triangles at the edge where its intervals are open; x: the x column or expression. */
void plot_open_ends_marks(struct strbuf *sc, const struct open_ends *e, size_t b,
			  const char *x, const char *style);
/* A point at y with bounds lo, hi in data block b: note the open sides. */
void plot_open_ends_note(struct open_ends *e, size_t b, double y, double lo, double hi);
/* Room beyond the closed range [*lo, *hi] for the open intervals to reach. */
void plot_open_ends_place(struct open_ends *e, double *lo, double *hi);
void plot_open_ends_release(struct open_ends *e);
/* The y:ylow:yhigh columns of yerror styles: 2:3:4, open bounds drawn to the edge. */
char *plot_open_ends_using(const struct open_ends *e);
/*
 * Name the picture after the group, its kind and extra ("mode=a"), give it
 * title (taken over), caption the samples of variants vs, start the script.
 */
void plot_picture_begin(struct picture *p, const struct plot_group *g, const struct plot_opts *o,
			const char *extra, char *title, const size_t *vs, size_t nvs);
/* Draw the picture and list it (one gnuplot skipped is said and is no error); releases p. */
int plot_picture_finish(struct picture *p, const struct plot_opts *o, struct plot_list *out);
void plot_picture_init(struct picture *p, const char *kind);
void plot_picture_release(struct picture *p);
/* The smallest and largest sample of variants vs over every kernel (INFINITY, -INFINITY: none). */
void plot_sample_range(const struct plot_group *g, const size_t *vs, size_t nvs, double *lo,
		       double *hi);
/* "set WHAT "TEXT"REST": labels are text, quoted for gnuplot. */
void plot_set_text(struct strbuf *sb, const char *what, const char *text, const char *rest);
/*
 * Round, SI-scaled tics over [lo, hi], about n of them, and the range set
 * to whole steps (so every interval inside [lo, hi] is drawn in full):
 * "200k" rather than 200000, and for seconds "35" in an axis of ms, not 0.035.
 * Other units below 1 keep plain decimals (a ratio of 0.5 is not "500m").
 * Returns the unit the tics are in: for seconds the prefix moves into it
 * ("ms", tics "35"), so the axis label and the tics agree; others unit.
 */
const char *plot_si_tics(struct strbuf *sb, const char *axis, double lo, double hi,
			 const char *unit, int n, bool snap, const char *font);
/* The n values of v in ascending order, a copy to free. */
double *plot_sorted_copy(const double *v, size_t n);
/* The value of key as the variant's name shows it, or NULL. */
const char *plot_variant_get(const struct variant *tv, const char *key);
/*
 * The keys ("test, folio_kb") or the values ("fork 64") of a variant joined
 * with sep: values label the tics, keys the axis.
 */
char *plot_variant_join(const struct variant *tv, bool keys, const char *sep);
/* Tic label of a variant: the values only ("fork 64"); keys go in the axis label. */
char *plot_variant_label(const struct variant *tv);
/* The variant without key: "test=fork,threads=4" minus threads -> "test=fork". */
char *plot_variant_without(const struct variant *tv, const char *key);

/* plot-boxes.c, for the change chart too */
/*
 * The frame of the pictures with a slot per variant (box, change): the key
 * above, a tic labelled with each variant's values, the keys as x label.
 */
void plot_variant_axis(struct strbuf *sc, const struct plot_group *g, const size_t *vs,
		       size_t nvs, bool zero_line);
/*
 * Many variants of two or more parameters (pte-mapped-folio: test x folio
 * size) are split by the first parameter, one picture each.
 */
int plot_split_by_first_key(const struct plot_group *g, size_t max,
			    int (*fn)(const struct plot_group *, const struct plot_opts *,
				      const size_t *, size_t, const char *, struct plot_list *),
			    const struct plot_opts *o, struct plot_list *out);

#endif
