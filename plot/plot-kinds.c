/*
 * Every kind of picture a plot group gets (plot_group_all(), plot.h):
 * the main one (scaling or boxes), the change, the distribution.  Above
 * the kinds' files, which share plot.c's parts: plot.c calls no kind.
 */
#include "plot-internal.h"
#include "util.h"

int plot_group_all(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	unsigned kinds = g->kinds ? g->kinds : PLOT_KIND_MAIN | PLOT_KIND_CHANGE | PLOT_KIND_DIST;

	if (!g->nvariants || !g->nkernels)
		return 0;
	{
		size_t n = 0;

		for (size_t v = 0; v < g->nvariants; v++)
			for (size_t k = 0; k < g->nkernels; k++)
				n += plot_group_cell(g, v, k)->n;
		/* e.g. every iteration left out as disturbed: one line, not a gnuplot error */
		if (!n) {
			warning("skipped the plots of %s %s: no samples to draw (compare says why)",
				g->workload, g->metric);
			return 0;
		}
	}
	if (kinds & PLOT_KIND_MAIN) {
		if (plot_scaling_key(g)) {
			if (plot_scaling(g, o, out))
				return -1;
		} else if (plot_boxes(g, o, out)) {
			return -1;
		}
	}
	if ((kinds & PLOT_KIND_CHANGE) && plot_change(g, o, out))
		return -1;
	if (kinds & PLOT_KIND_DIST)
		return plot_dist(g, o, out);
	return 0;
}
