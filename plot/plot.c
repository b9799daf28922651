/*
 * What the plot kinds share (scaling lines, per-operation box plots,
 * relative-change bars and distributions; plot-kinds.c runs them for a
 * group, gnuplot.c draws and names the pictures).  Each builds NAME.dat (gnuplot data blocks, one
 * `index` per series) and NAME.gp and hands them to gnuplot_render().
 *
 * Style rules: every kernel has its own colour AND dash type AND point
 * shape, so the pictures survive black-and-white printing; text is set
 * noenhanced so kernel labels print as they are.
 */
#include "fmtnum.h"
#include "plot-internal.h"
#include "compare.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void plot_opts_init(struct plot_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = PLOT_PNG;
	o->width = 800;
	o->height = 600;
	o->outdir = ".";
	o->test = STATS_WELCH;
	o->alpha = 0.05;
}

/* ---- data model ---- */

/* Free the n strings of v and v itself. */
void plot_free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Add a copy of s to the n strings of *v unless one of them is s already. */
void plot_add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

void plot_group_init(struct plot_group *g, const char *workload, const char *metric,
		     const char *unit, int better, size_t nkernels, const char *const *kernels)
{
	memset(g, 0, sizeof(*g));
	g->workload = ctl_escape(workload);
	g->metric = ctl_escape(metric);
	g->unit = ctl_escape(unit ? unit : "");
	g->better = better >= 0 ? 1 : -1;
	g->nkernels = nkernels;
	g->kernels = xcalloc(nkernels, sizeof(*g->kernels));
	for (size_t k = 0; k < nkernels; k++)
		g->kernels[k] = ctl_escape(kernels[k]);
}

size_t plot_group_variant(struct plot_group *g, const char *variant)
{
	char *esc = ctl_escape(variant);

	for (size_t v = 0; v < g->nvariants; v++)
		if (!strcmp(g->variants[v], esc)) {
			free(esc);
			return v;
		}
	g->variants = xrealloc(g->variants, (g->nvariants + 1) * sizeof(*g->variants));
	g->variants[g->nvariants] = esc;
	variant = esc;
	g->typed = xrealloc(g->typed, (g->nvariants + 1) * sizeof(*g->typed));
	variant_from_text(&g->typed[g->nvariants], variant);
	g->cells = xrealloc(g->cells, (g->nvariants + 1) * g->nkernels * sizeof(*g->cells));
	memset(g->cells + g->nvariants * g->nkernels, 0, g->nkernels * sizeof(*g->cells));
	return g->nvariants++;
}

void plot_group_variant_typed(struct plot_group *g, size_t v, const char *json)
{
	struct variant t;
	char err[128];

	if (!json || variant_from_json(&t, json, err, sizeof(err)))
		return;
	for (size_t i = 0; i < t.n; i++)
		if (name_ctl(t.p[i].name) || name_ctl(t.p[i].text)) {
			/* the escaped text's typing: no control byte reaches a script */
			variant_release(&t);
			return;
		}
	variant_release(&g->typed[v]);
	g->typed[v] = t;
}

struct plot_cell *plot_group_cell(const struct plot_group *g, size_t v, size_t k)
{
	return &g->cells[v * g->nkernels + k];
}

void plot_group_add(struct plot_group *g, size_t variant, size_t kernel, double value)
{
	struct plot_cell *c = plot_group_cell(g, variant, kernel);

	c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->v[c->n++] = value;
}

void plot_group_release(struct plot_group *g)
{
	for (size_t i = 0; i < g->nvariants * g->nkernels; i++)
		free(g->cells[i].v);
	free(g->cells);
	for (size_t v = 0; v < g->nvariants; v++)
		variant_release(&g->typed[v]);
	free(g->typed);
	plot_free_strings(g->variants, g->nvariants);
	plot_free_strings(g->kernels, g->nkernels);
	free(g->workload);
	free(g->metric);
	free(g->unit);
	memset(g, 0, sizeof(*g));
}

void plot_list_init(struct plot_list *l)
{
	memset(l, 0, sizeof(*l));
}

static void plot_file_release(struct plot_file *f)
{
	free(f->name);
	free(f->kind);
	free(f->title);
}

void plot_list_release(struct plot_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		plot_file_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void plot_list_drop_skipped(struct plot_list *l, const struct gnuplot_batch *b)
{
	size_t w = 0;

	for (size_t i = 0; i < l->nr; i++) {
		if (gnuplot_batch_skipped(b, l->items[i].name)) {
			plot_file_release(&l->items[i]);
			continue;
		}
		l->items[w++] = l->items[i];
	}
	l->nr = w;
}

static void plot_list_add(struct plot_list *l, const char *name, const char *kind,
			  const char *title)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr].name = xstrdup(name);
	l->items[l->nr].kind = xstrdup(kind);
	l->items[l->nr].title = xstrdup(title);
	l->nr++;
}

char *plot_sanitize(const char *s)
{
	char *r = xstrdup(s), *p;

	for (p = r; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '+' || *p == '-'))
			*p = '_';
	if (!*r || *r == '.' || *r == '-') {
		char *t = xasprintf("x%s", r);
		free(r);
		r = t;
	}
	return r;
}

/* ---- variants: typed params (variant.h) ---- */

/* The value of key as the variant's name shows it, or NULL. */
const char *plot_variant_get(const struct variant *tv, const char *key)
{
	const struct variant_param *p = variant_find(tv, key);

	return p ? p->text : NULL;
}

/* The variant without key: "test=fork,threads=4" minus threads -> "test=fork". */
char *plot_variant_without(const struct variant *tv, const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t i = 0; i < tv->n; i++) {
		if (!strcmp(tv->p[i].name, key))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ',');
		strbuf_addf(&sb, "%s=%s", tv->p[i].name, tv->p[i].text);
	}
	return strbuf_detach(&sb);
}

/*
 * The keys ("test, folio_kb") or the values ("fork 64") of a variant joined
 * with sep: values label the tics, keys the axis.
 */
char *plot_variant_join(const struct variant *tv, bool keys, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t i = 0; i < tv->n; i++) {
		if (i)
			strbuf_addstr(&sb, sep);
		strbuf_addstr(&sb, keys ? tv->p[i].name : tv->p[i].text);
	}
	return strbuf_detach(&sb);
}

/* Tic label of a variant: the values only ("fork 64"); keys go in the axis label. */
char *plot_variant_label(const struct variant *tv)
{
	char *l = plot_variant_join(tv, false, " ");

	if (*l)
		return l;
	free(l);
	return xstrdup("(all)");
}

/*
 * The scaling key: the variant's first parameter, when it is a number
 * (int, size, duration, double) in every variant and takes more than one
 * value.  Plugins declare their main dimension first (pft clients, ebizzy
 * threads); a workload whose first parameter names a case (pte-mapped-folio
 * test=fork) gets box plots.
 */
const char *plot_scaling_key(const struct plot_group *g)
{
	const char *key;
	double first = NAN, x;
	bool several = false;

	if (!g->nvariants || !g->typed[0].n)
		return NULL;
	key = g->typed[0].p[0].name;
	for (size_t v = 0; v < g->nvariants; v++) {
		const struct variant *tv = &g->typed[v];

		if (!tv->n || strcmp(tv->p[0].name, key) || !variant_param_number(&tv->p[0], &x))
			return NULL;
		if (isnan(first))
			first = x;
		else if (x != first)
			several = true;
	}
	return several && *key ? key : NULL;
}

/* ---- shared bits of every script ---- */

static const char *const kernel_colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
};
static const int kernel_points[] = { 7, 5, 9, 11, 13, 15, 3, 1 };	/* filled: circle, square, triangles, ... */
const int plot_kernel_open_points[] = { 6, 4, 8, 10, 12, 14, 3, 2 };
static const int kernel_dash[] = { 1, 2, 4, 5, 3, 6, 7, 8 };

_Static_assert(ARRAY_SIZE(kernel_colours) == NSTYLE, "one style per kernel slot");

const char *plot_direction(int better)
{
	return better > 0 ? "higher is better" : "lower is better";
}

static void script_begin(struct strbuf *sb, const struct plot_opts *o, const struct plot_group *g)
{
	strbuf_addf(sb, "# Generated by mmbench plot: %s %s.  Re-render with `gnuplot %s`.\n",
		    g->workload, g->metric, "THIS_FILE.gp");
	gnuplot_terminal(o, sb);
	strbuf_addstr(sb, "set output @OUTPUT@\n"
		      "set encoding utf8\n"
		      "set datafile missing NaN\n"
		      "set border 3 lw 1\n"
		      "set tics nomirror out scale 0.6\n"
		      "set grid ytics lc rgb \"#d0d0d0\" lw 1 dt 1\n"
		      "set key noautotitle\n");
	for (size_t k = 0; k < NSTYLE; k++)
		strbuf_addf(sb, "set linetype %zu lc rgb \"%s\" lw 2 dt %d pt %d ps 1.1\n", k + 1,
			    kernel_colours[k], kernel_dash[k], kernel_points[k]);
}

int plot_lt_of(size_t k)
{
	return (int)(k % NSTYLE) + 1;
}

/* The key text of kernel k: the label and what differs (plot_opts.legend), else the label. */
const char *plot_kernel_key(const struct plot_group *g, const struct plot_opts *o, size_t k)
{
	return k < o->nlegend && o->legend && o->legend[k] ? o->legend[k] : g->kernels[k];
}

/* "kernel 6.12.9    machine: ..." */
static char *caption(const struct plot_opts *o)
{
	return xasprintf("%s%smachine: %s", o->kernels ? o->kernels : "", o->kernels ? "    " : "",
			 o->machine && *o->machine ? o->machine : "unknown");
}

/* n[k] of each kernel: "a 12, b 12 samples" or, all equal, "12 samples per label" (short for many). */
static void caption_counts(struct strbuf *sb, const struct plot_group *g, const size_t *lo,
			   const size_t *hi, const char *noun)
{
	bool same = true;

	for (size_t k = 1; k < g->nkernels; k++)
		same &= lo[k] == lo[0] && hi[k] == hi[0];
	if (same && g->nkernels > 1) {
		strbuf_addf(sb, " %zu", lo[0]);
		if (hi[0] != lo[0])
			strbuf_addf(sb, "..%zu", hi[0]);
		strbuf_addf(sb, "%s%s per label", *noun ? " " : "", noun);
		return;
	}
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(sb, "%s %s %zu", k ? "," : "", g->kernels[k], lo[k]);
		if (hi[k] != lo[k])
			strbuf_addf(sb, "..%zu", hi[k]);
	}
	strbuf_addf(sb, "%s%s", *noun ? " " : "", noun);
}

/* "n per point: a 12, b 12 samples; runs: 3 per label" */
static char *caption_n(const struct plot_group *g, const struct plot_opts *o, const size_t *vs,
		       size_t nvs)
{
	struct strbuf sb = STRBUF_INIT;
	size_t K = g->nkernels;
	size_t *lo = xcalloc(K ? K : 1, sizeof(*lo)), *hi = xcalloc(K ? K : 1, sizeof(*hi));

	for (size_t k = 0; k < K; k++) {
		lo[k] = (size_t)-1;
		for (size_t i = 0; i < nvs; i++) {
			size_t n = plot_group_cell(g, vs[i], k)->n;

			lo[k] = n < lo[k] ? n : lo[k];
			hi[k] = n > hi[k] ? n : hi[k];
		}
		if (lo[k] == (size_t)-1)
			lo[k] = 0;
	}
	strbuf_addstr(&sb, "n per point:");
	caption_counts(&sb, g, lo, hi, "samples");
	if (o->nruns && o->nlegend == K) {
		strbuf_addstr(&sb, "; runs:");
		caption_counts(&sb, g, o->nruns, o->nruns, "");
	}
	if (o->kept_disturbed)
		strbuf_addstr(&sb, "; disturbed values kept");
	free(lo);
	free(hi);
	return strbuf_detach(&sb);
}

/* "set WHAT "TEXT"REST": labels are text, quoted for gnuplot. */
void plot_set_text(struct strbuf *sb, const char *what, const char *text, const char *rest)
{
	char *q = gnuplot_quote(text);

	strbuf_addf(sb, "set %s %s%s\n", what, q, rest);
	free(q);
}

/*
 * Title (the experiment first), subtitle and the two caption lines at fixed
 * places so they never collide with the key; notes (what the picture's
 * marks mean) on a line above them, below the x axis: off the data.
 */
void plot_headings(struct strbuf *sb, const struct picture *p, const struct plot_opts *o,
		   const char *subtitle, const char *notes)
{
	char *t = o->experiment && *o->experiment ? xasprintf("%s: %s", o->experiment, p->title)
						  : xstrdup(p->title);

	plot_set_text(sb, "label", t, " at screen 0.5,0.972 center font \",12\"");
	free(t);
	if (subtitle)
		plot_set_text(sb, "label", subtitle, " at screen 0.5,0.937 center font \",9\"");
	plot_set_text(sb, "label", p->cap, " at screen 0.01,0.018 left font \",9\"");
	plot_set_text(sb, "label", p->cap_n, " at screen 0.01,0.05 left font \",9\"");
	if (notes && *notes)
		plot_set_text(sb, "label", notes, " at screen 0.01,0.082 left font \",9\"");
}

/* The key's title: the unit of the values, as the axis shows it. */
void plot_key_title(struct strbuf *sb, const char *unit)
{
	char *t;

	if (!unit || !*unit)
		return;
	t = xasprintf("values in %s", unit);
	plot_set_text(sb, "key title", t, "");
	free(t);
}

/*
 * Round, SI-scaled tics over [lo, hi], about n of them, and the range set
 * to whole steps (so every interval inside [lo, hi] is drawn in full):
 * "200k" rather than 200000, and for seconds "35" in an axis of ms, not 0.035.
 * Other units below 1 keep plain decimals (a ratio of 0.5 is not "500m").
 */
const char *plot_si_tics(struct strbuf *sb, const char *axis, double lo, double hi,
			 const char *unit, int n, bool snap, const char *font)
{
	static const char *const pre[] = { "n", "\xc2\xb5", "m", "", "k", "M", "G", "T" };
	static const char *const secs_unit[] = { "ns", "\xc2\xb5s", "ms", "s" };
	bool secs = unit && !strcmp(unit, "s");
	double r, raw, mag, f, step, start, end, a, scale, rlo, rhi;
	int p, dec, k = 0;

	if (!isfinite(lo) || !isfinite(hi))
		return unit;
	if (hi < lo) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	r = hi - lo;
	if (r <= 0)
		r = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
	raw = r / n;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	if (snap) {
		start = floor(lo / step + 1e-9) * step;
		end = ceil(hi / step - 1e-9) * step;
		if (end <= start)
			end = start + step;
		rlo = start;
		rhi = end;
	} else {
		/* the data with a margin; tics at the whole steps inside */
		rlo = lo - 0.05 * r;
		rhi = hi + 0.05 * r;
		start = ceil(rlo / step - 1e-9) * step;
		end = floor(rhi / step + 1e-9) * step;
	}
	a = fmax(fabs(start), fabs(end));
	p = a > 0 ? 3 * (int)floor(log10(a) / 3) : 0;
	if (secs)
		p = p > 0 ? 0 : p < -9 ? -9 : p;
	else
		p = p < 0 ? 0 : p > 12 ? 12 : p;
	scale = pow(10, -p);
	/* enough decimals for the step (2.5k needs one) */
	for (dec = 0; dec < 9; dec++) {
		double x = step * scale * pow(10, dec);

		if (fabs(x - round(x)) < 1e-6 * x)
			break;
	}
	strbuf_addf(sb, "set %srange [%.12g:%.12g]\nset %stics (", axis, rlo, rhi, axis);
	for (double t = start; t <= end + step * 1e-6 && k < 40; t = start + step * ++k) {
		double v = fabs(t) < step * 1e-9 ? 0 : t;

		/* seconds: the prefix goes into the axis label with the unit, the tics are numbers */
		strbuf_addf(sb, "%s\"%s%s\" %.12g", k ? ", " : "", FMT_F(v * scale, dec),
			    secs ? "" : pre[p / 3 + 3], v);
	}
	strbuf_addf(sb, ")%s%s\n", font ? " font " : "", font ? font : "");
	return secs ? secs_unit[p / 3 + 3] : unit;
}

char *plot_metric_axis(const struct plot_group *g, const char *unit)
{
	if (!unit)
		unit = g->unit;
	if (unit && *unit)
		return xasprintf("%s (%s), %s", g->metric, unit, plot_direction(g->better));
	return xasprintf("%s, %s", g->metric, plot_direction(g->better));
}

/* The axis ("ylabel", "xlabel") that carries the metric, its unit as the tics show it and direction. */
void plot_metric_label(struct strbuf *sb, const char *axis, const struct plot_group *g,
		       const char *unit)
{
	char *l = plot_metric_axis(g, unit);

	plot_set_text(sb, axis, l, "");
	free(l);
}

/* A text in the key. */
void plot_add_title(struct strbuf *sb, const char *kernel)
{
	char *q = gnuplot_quote(kernel);

	strbuf_addf(sb, " title %s", q);
	free(q);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The n values of v in ascending order, a copy to free. */
double *plot_sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* The smallest and largest sample of variants vs over every kernel (INFINITY, -INFINITY: none). */
void plot_sample_range(const struct plot_group *g, const size_t *vs, size_t nvs, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < nvs; i++)
		for (size_t k = 0; k < g->nkernels; k++) {
			const struct plot_cell *c = plot_group_cell(g, vs[i], k);

			for (size_t j = 0; j < c->n; j++) {
				*lo = fmin(*lo, c->v[j]);
				*hi = fmax(*hi, c->v[j]);
			}
		}
}

/* The statistic the group draws (compare's choice for its rows). */
enum stats_mean_kind plot_mean_kind(const struct plot_group *g)
{
	return g->mean == STATS_MEAN_AUTO ? STATS_AMEAN : g->mean;
}

const char *plot_mean_title(const struct plot_group *g)
{
	return stats_mean_title(plot_mean_kind(g));
}

/* The statistic drawn with its CI: the compare layer's stats_mean_ci(). */
void plot_cell_ci(const struct plot_cell *c, const struct plot_opts *o, int better,
		  enum stats_mean_kind kind, double *mean, double *lo, double *hi)
{
	stats_mean_ci(c->v, c->n, better, kind, o->alpha, mean, lo, hi);
}

/* Draws the comparison value's change of the statistic drawn (compare_change_of()). */
void plot_cell_change(const struct plot_group *g, const struct plot_opts *o, size_t v, size_t k,
		      struct change *ch)
{
	const struct plot_cell *b = plot_group_cell(g, v, 0), *n = plot_group_cell(g, v, k);
	struct stats_test w;

	(void)o;
	ch->rel = ch->lo = ch->hi = ch->p = NAN;
	ch->cls = -1;
	if (compare_change_of(n->interval, n->interval_ok, n->mean, plot_mean_kind(g), b->v, b->n,
			      n->v, n->n, g->better, &w) < 0)
		return;
	ch->rel = w.rel;
	ch->lo = w.rel_lo;
	ch->hi = w.rel_hi;
	ch->p = w.p;
	/* the row's verdict; inconclusive is a class of its own (the machine cannot back one) */
	if (n->cls == PLOT_CLS_NONE || n->cls == PLOT_CLS_BETTER || n->cls == PLOT_CLS_WORSE ||
	    n->cls == PLOT_CLS_INCONCLUSIVE) {
		ch->cls = n->cls == PLOT_CLS_NONE ? 0 : n->cls == PLOT_CLS_BETTER ? 1 :
			  n->cls == PLOT_CLS_WORSE ? 2 : 3;
		ch->p = n->p;
	}
}

void plot_open_ends_init(struct open_ends *e, size_t nblocks)
{
	*e = (struct open_ends){ .above = false };
	e->above_in = xcalloc(nblocks ? nblocks : 1, sizeof(*e->above_in));
	e->below_in = xcalloc(nblocks ? nblocks : 1, sizeof(*e->below_in));
}

void plot_open_ends_release(struct open_ends *e)
{
	free(e->above_in);
	free(e->below_in);
}

/* A point at y with bounds lo, hi in data block b: note the open sides. */
void plot_open_ends_note(struct open_ends *e, size_t b, double y, double lo, double hi)
{
	if (!isfinite(y))
		return;
	if (!isfinite(hi))
		e->above = e->above_in[b] = true;
	if (!isfinite(lo))
		e->below = e->below_in[b] = true;
}

/* Room beyond the closed range [*lo, *hi] for the open intervals to reach. */
void plot_open_ends_place(struct open_ends *e, double *lo, double *hi)
{
	double span = *hi - *lo > 0 ? *hi - *lo : *hi != 0 ? fabs(*hi) : 1;

	if (e->above)
		*hi += 0.15 * span;
	if (e->below)
		*lo -= 0.15 * span;
	e->top = *hi;
	e->bottom = *lo;
}

/* The bounds $3 and $4 as expressions, open ones drawn to the edge. */
void plot_open_ends_cols(const struct open_ends *e, char lo[static 96], char hi[static 96])
{
	if (e->below)
		snprintf(lo, 96, "(valid(3)&&$3>%.10g?$3:%.10g)", e->bottom, e->bottom);
	else
		snprintf(lo, 96, "$3");
	if (e->above)
		snprintf(hi, 96, "(valid(4)&&$4<%.10g?$4:%.10g)", e->top, e->top);
	else
		snprintf(hi, 96, "$4");
}

/* The y:ylow:yhigh columns of yerror styles: 2:3:4, open bounds drawn to the edge. */
char *plot_open_ends_using(const struct open_ends *e)
{
	char lo[96], hi[96];

	if (!e->below && !e->above)
		return xstrdup("2:3:4");
	plot_open_ends_cols(e, lo, hi);
	/* a bare $3 is no using column: a plain bound is its column number */
	return xasprintf("2:%s:%s", e->below ? lo : "3", e->above ? hi : "4");
}

/* Block b's triangles at the edge where its intervals are open; x: the x column or expression. */
void plot_open_ends_marks(struct strbuf *sc, const struct open_ends *e, size_t b,
			  const char *x, const char *style)
{
	if (e->above_in[b])
		strbuf_addf(sc, ", \\\n     '' index %zu using %s:(valid(2)&&!(valid(4)&&$4<%.10g)?%.10g:NaN)"
			    " with points %s pt 9 ps 1.4 notitle", b, x, e->top, e->top, style);
	if (e->below_in[b])
		strbuf_addf(sc, ", \\\n     '' index %zu using %s:(valid(2)&&!(valid(3)&&$3>%.10g)?%.10g:NaN)"
			    " with points %s pt 11 ps 1.4 notitle", b, x, e->bottom, e->bottom, style);
}

/* What the triangles mean, added to the picture's notes (drawn off the data). */
void plot_open_ends_legend(struct strbuf *notes, const struct open_ends *e)
{
	if (!e->above && !e->below)
		return;
	if (notes->len && strstr(notes->buf, "95% CI unbounded"))
		return;
	strbuf_addf(notes, "%s%s%s%s at an edge: 95%% CI unbounded (too few or too spread samples)",
		    notes->len ? "; " : "", e->above ? "\xe2\x96\xb2" : "",
		    e->above && e->below ? "/" : "", e->below ? "\xe2\x96\xbc" : "");
}

/* A change in data block b: the range holds it and its closed bounds. */
void plot_change_range_add(struct change_range *r, size_t b, const struct change *ch)
{
	if (isfinite(ch->rel)) {
		r->any = true;
		r->lo = fmin(r->lo, ch->rel);
		r->hi = fmax(r->hi, ch->rel);
	}
	/* a ratio's interval cut at -100% is not bounded below by the data: open */
	double lo = ch->lo > -100 ? ch->lo : -INFINITY;

	if (isfinite(lo) && lo < r->lo)
		r->lo = lo;
	if (isfinite(ch->hi) && ch->hi > r->hi)
		r->hi = ch->hi;
	plot_open_ends_note(&r->open, b, ch->rel, lo, ch->hi);
}

char *plot_name(const struct plot_group *g, const char *kind, const char *extra)
{
	char *w = plot_sanitize(g->workload), *m = plot_sanitize(g->metric), *name;

	if (extra && *extra) {
		char *e = plot_sanitize(extra);
		name = xasprintf("%s-%s-%s-%s", w, m, kind, e);
		free(e);
	} else {
		name = xasprintf("%s-%s-%s", w, m, kind);
	}
	free(w);
	free(m);
	return name;
}

/* ---- one picture: its script, its data and what it is listed as ---- */

void plot_picture_init(struct picture *p, const char *kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
}

/*
 * Name the picture after the group, its kind and extra ("mode=a"), give it
 * title (taken over), caption the samples of variants vs, start the script.
 */
void plot_picture_begin(struct picture *p, const struct plot_group *g, const struct plot_opts *o,
			const char *extra, char *title, const size_t *vs, size_t nvs)
{
	p->name = plot_name(g, p->kind, extra);
	p->title = title;
	p->cap = caption(o);
	p->cap_n = caption_n(g, o, vs, nvs);
	script_begin(&p->sc, o, g);
}

void plot_picture_release(struct picture *p)
{
	free(p->name);
	free(p->title);
	free(p->cap);
	free(p->cap_n);
	strbuf_release(&p->sc);
	strbuf_release(&p->dat);
}

/* Draw the picture and list it (one gnuplot skipped is said and is no error); releases p. */
int plot_picture_finish(struct picture *p, const struct plot_opts *o, struct plot_list *out)
{
	const char *self = strstr(p->sc.buf, "THIS_FILE.gp");
	struct strbuf text = STRBUF_INIT;
	int ret;

	/* name the script itself in its header comment */
	strbuf_add(&text, p->sc.buf, self - p->sc.buf);
	strbuf_addf(&text, "%s.gp%s", p->name, self + strlen("THIS_FILE.gp"));
	ret = gnuplot_render(o, p->name, text.buf, p->dat.buf);
	strbuf_release(&text);
	if (!ret) {
		char *file = xasprintf("%s.%s", p->name, plot_format_ext(o->format));

		plot_list_add(out, file, p->kind, p->title);
		free(file);
	}
	plot_picture_release(p);
	return ret > 0 ? 0 : ret;	/* > 0: skipped, said why */
}
