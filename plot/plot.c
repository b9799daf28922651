/*
 * The plot kinds: scaling lines, per-operation box plots, relative-change
 * bars and distributions.  Each builds NAME.dat (gnuplot data blocks, one
 * `index` per series) and NAME.gp and hands them to gnuplot_render().
 *
 * Style rules: every kernel has its own colour AND dash type AND point
 * shape, so the pictures survive black-and-white printing; text is set
 * noenhanced so kernel labels print as they are.
 */
#include "plot.h"
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

/* --format's words, which are the pictures' file name extensions too */
static const char *const format_names[] = { [PLOT_PNG] = "png", [PLOT_SVG] = "svg", [PLOT_PDF] = "pdf" };

int plot_format_parse(const char *s, enum plot_format *out)
{
	int i = name_index(format_names, ARRAY_SIZE(format_names), s);

	if (i < 0)
		return -1;
	*out = i;
	return 0;
}

const char *plot_format_ext(enum plot_format f)
{
	return (size_t)f < ARRAY_SIZE(format_names) ? format_names[f] : "png";
}

/* ---- data model ---- */

/* Free the n strings of v and v itself. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Add a copy of s to the n strings of *v unless one of them is s already. */
static void add_unique(char ***v, size_t *n, const char *s)
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
	free_strings(g->variants, g->nvariants);
	free_strings(g->kernels, g->nkernels);
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
static const char *variant_get(const struct variant *tv, const char *key)
{
	const struct variant_param *p = variant_find(tv, key);

	return p ? p->text : NULL;
}

/* The variant without key: "test=fork,threads=4" minus threads -> "test=fork". */
static char *variant_without(const struct variant *tv, const char *key)
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
static char *variant_join(const struct variant *tv, bool keys, const char *sep)
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
static char *variant_label(const struct variant *tv)
{
	char *l = variant_join(tv, false, " ");

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
static const int kernel_open_points[] = { 6, 4, 8, 10, 12, 14, 3, 2 };
static const int kernel_dash[] = { 1, 2, 4, 5, 3, 6, 7, 8 };

#define NSTYLE ARRAY_SIZE(kernel_colours)

static const char *direction(int better)
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

static int lt_of(size_t k)
{
	return (int)(k % NSTYLE) + 1;
}

/* "machine: ...   n = 10 samples per kernel and point" */
static char *caption(const struct plot_group *g, const struct plot_opts *o, const size_t *vs, size_t nvs)
{
	size_t nmin = (size_t)-1, nmax = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < nvs; i++)
		for (size_t k = 0; k < g->nkernels; k++) {
			size_t n = plot_group_cell(g, vs[i], k)->n;
			if (n < nmin)
				nmin = n;
			if (n > nmax)
				nmax = n;
		}
	if (nmin == (size_t)-1)
		nmin = 0;
	strbuf_addf(&sb, "machine: %s    ", o->machine && *o->machine ? o->machine : "unknown");
	if (nmin == nmax)
		strbuf_addf(&sb, "n = %zu samples per kernel and point", nmin);
	else
		strbuf_addf(&sb, "n = %zu..%zu samples per kernel and point", nmin, nmax);
	return strbuf_detach(&sb);
}

/* "set WHAT "TEXT"REST": labels are text, quoted for gnuplot. */
static void set_text(struct strbuf *sb, const char *what, const char *text, const char *rest)
{
	char *q = gnuplot_quote(text);

	strbuf_addf(sb, "set %s %s%s\n", what, q, rest);
	free(q);
}

/* Title, subtitle and caption at fixed places so they never collide with the key. */
static void headings(struct strbuf *sb, const char *title, const char *subtitle, const char *cap)
{
	set_text(sb, "label", title, " at screen 0.5,0.972 center font \",12\"");
	if (subtitle)
		set_text(sb, "label", subtitle, " at screen 0.5,0.937 center font \",9\"");
	set_text(sb, "label", cap, " at screen 0.01,0.018 left font \",9\"");
}

/*
 * Round, SI-scaled tics over [lo, hi], about n of them, and the range set
 * to whole steps (so every interval inside [lo, hi] is drawn in full):
 * "200k" rather than 200000, and for seconds "35 ms" rather than 0.035.
 * Other units below 1 keep plain decimals (a ratio of 0.5 is not "500m").
 */
static void si_tics(struct strbuf *sb, const char *axis, double lo, double hi, const char *unit,
		    int n, bool snap, const char *font)
{
	static const char *const pre[] = { "n", "\xc2\xb5", "m", "", "k", "M", "G", "T" };
	bool secs = unit && !strcmp(unit, "s");
	double r, raw, mag, f, step, start, end, a, scale, rlo, rhi;
	int p, dec, k = 0;

	if (!isfinite(lo) || !isfinite(hi))
		return;
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

		strbuf_addf(sb, "%s\"%.*f%s%s%s\" %.12g", k ? ", " : "", dec, v * scale,
			    secs ? " " : "", pre[p / 3 + 3], secs ? "s" : "", v);
	}
	strbuf_addf(sb, ")%s%s\n", font ? " font " : "", font ? font : "");
}

static char *metric_axis(const struct plot_group *g)
{
	if (g->unit && *g->unit)
		return xasprintf("%s (%s), %s", g->metric, g->unit, direction(g->better));
	return xasprintf("%s, %s", g->metric, direction(g->better));
}

/* The axis ("ylabel", "xlabel") that carries the metric, its unit and direction. */
static void metric_label(struct strbuf *sb, const char *axis, const struct plot_group *g)
{
	char *l = metric_axis(g);

	set_text(sb, axis, l, "");
	free(l);
}

/* A kernel's name in the key. */
static void add_title(struct strbuf *sb, const char *kernel)
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
static double *sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* The smallest and largest sample of variants vs over every kernel (INFINITY, -INFINITY: none). */
static void sample_range(const struct plot_group *g, const size_t *vs, size_t nvs, double *lo,
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
static enum stats_mean_kind mean_kind(const struct plot_group *g)
{
	return g->mean == STATS_MEAN_AUTO ? STATS_AMEAN : g->mean;
}

static const char *mean_title(const struct plot_group *g)
{
	return stats_mean_title(mean_kind(g));
}

/*
 * The statistic with its 95% CI: Amean +- t SE; Hmean and Gmean the same
 * interval on 1/x and log x mapped back; a median the order statistics
 * of the distribution-free interval.
 */
static void cell_ci(const struct plot_cell *c, const struct plot_opts *o, int better,
		    enum stats_mean_kind kind, double *mean, double *lo, double *hi)
{
	struct stats_summary s;
	double half, tq, *y;

	if (!c->n) {
		*mean = *lo = *hi = NAN;
		return;
	}
	stats_summarise(c->v, c->n, better, &s);
	if (!stats_mean_defined(kind, c->v, c->n))
		kind = STATS_AMEAN;
	*mean = stats_mean_of(&s, kind);
	*lo = *hi = *mean;
	if (c->n < 2 || !isfinite(s.stddev))
		return;
	tq = stats_t_quantile(1.0 - o->alpha / 2.0, (double)(c->n - 1));
	switch (kind) {
	case STATS_HMEAN:
	case STATS_GMEAN: {
		struct stats_summary sy;

		y = xmalloc(c->n * sizeof(*y));
		for (size_t i = 0; i < c->n; i++)
			y[i] = kind == STATS_HMEAN ? 1 / c->v[i] : log(c->v[i]);
		stats_summarise(y, c->n, -1, &sy);
		free(y);
		half = tq * sy.stddev / sqrt((double)c->n);
		if (kind == STATS_GMEAN) {
			*lo = exp(sy.amean - half);
			*hi = exp(sy.amean + half);
		} else {
			*lo = 1 / (sy.amean + half);
			*hi = sy.amean - half > 0 ? 1 / (sy.amean - half) : NAN;
		}
		return;
	}
	case STATS_MEDIAN: {
		double *sorted = sorted_copy(c->v, c->n);
		double kk = floor((c->n - 1.96 * sqrt((double)c->n)) / 2);
		size_t k = kk > 0 ? (size_t)kk : 0;

		*lo = sorted[k];
		*hi = sorted[c->n - 1 - k];
		free(sorted);
		return;
	}
	default:
		half = tq * s.stddev / sqrt((double)c->n);
		*lo = s.amean - half;
		*hi = s.amean + half;
	}
}

/* Relative change of kernel k vs the baseline at variant v, with CI and class. */
struct change {
	double rel, lo, hi, p;
	int cls;		/* 0 no change, 1 improvement, 2 regression, 3 inconclusive, -1 not computable */
};

static void cell_change(const struct plot_group *g, const struct plot_opts *o, size_t v, size_t k,
			struct change *ch)
{
	const struct plot_cell *b = plot_group_cell(g, v, 0), *n = plot_group_cell(g, v, k);
	struct stats_test w;

	(void)o;
	ch->rel = ch->lo = ch->hi = ch->p = NAN;
	ch->cls = -1;
	if (b->n < 2 || n->n < 2)
		return;
	if (n->interval && n->mean == mean_kind(g)) {
		/* the comparison value's change of the statistic drawn */
		if (!n->interval_ok)
			return;
		w = *n->interval;
	} else if (stats_test_mean(STATS_WELCH, mean_kind(g), b->v, b->n, n->v, n->n, g->better,
				   &w) < 0) {
		/* a merged group draws a statistic the value's rows do not show */
		return;
	}
	ch->rel = w.rel;
	ch->lo = w.rel_lo;
	ch->hi = w.rel_hi;
	ch->p = w.p;
	switch (n->cls) {
	case PLOT_CLS_NONE:
		ch->cls = 0;
		ch->p = n->p;
		return;
	case PLOT_CLS_BETTER:
		ch->cls = 1;
		ch->p = n->p;
		return;
	case PLOT_CLS_WORSE:
		ch->cls = 2;
		ch->p = n->p;
		return;
	case PLOT_CLS_INCONCLUSIVE:
		/* its own class: the machine's state cannot back a verdict, not "no change" */
		ch->cls = 3;
		ch->p = n->p;
		return;
	}
}

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

static void open_ends_init(struct open_ends *e, size_t nblocks)
{
	*e = (struct open_ends){ .above = false };
	e->above_in = xcalloc(nblocks ? nblocks : 1, sizeof(*e->above_in));
	e->below_in = xcalloc(nblocks ? nblocks : 1, sizeof(*e->below_in));
}

static void open_ends_release(struct open_ends *e)
{
	free(e->above_in);
	free(e->below_in);
}

/* A point at y with bounds lo, hi in data block b: note the open sides. */
static void open_ends_note(struct open_ends *e, size_t b, double y, double lo, double hi)
{
	if (!isfinite(y))
		return;
	if (!isfinite(hi))
		e->above = e->above_in[b] = true;
	if (!isfinite(lo))
		e->below = e->below_in[b] = true;
}

/* Room beyond the closed range [*lo, *hi] for the open intervals to reach. */
static void open_ends_place(struct open_ends *e, double *lo, double *hi)
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
static void open_ends_cols(const struct open_ends *e, char lo[static 96], char hi[static 96])
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
static char *open_ends_using(const struct open_ends *e)
{
	char lo[96], hi[96];

	if (!e->below && !e->above)
		return xstrdup("2:3:4");
	open_ends_cols(e, lo, hi);
	/* a bare $3 is no using column: a plain bound is its column number */
	return xasprintf("2:%s:%s", e->below ? lo : "3", e->above ? hi : "4");
}

/* Block b's triangles at the edge where its intervals are open; x: the x column or expression. */
static void open_ends_marks(struct strbuf *sc, const struct open_ends *e, size_t b,
			    const char *x, const char *style)
{
	if (e->above_in[b])
		strbuf_addf(sc, ", \\\n     '' index %zu using %s:(valid(2)&&!(valid(4)&&$4<%.10g)?%.10g:NaN)"
			    " with points %s pt 9 ps 1.4 notitle", b, x, e->top, e->top, style);
	if (e->below_in[b])
		strbuf_addf(sc, ", \\\n     '' index %zu using %s:(valid(2)&&!(valid(3)&&$3>%.10g)?%.10g:NaN)"
			    " with points %s pt 11 ps 1.4 notitle", b, x, e->bottom, e->bottom, style);
}

/* What the triangles mean, in a corner of the panel. */
static void open_ends_legend(struct strbuf *sc, const struct open_ends *e)
{
	if (!e->above && !e->below)
		return;
	/* just above the panel's top right corner: the triangles sit at the top or bottom edge */
	strbuf_addf(sc, "set label \"%s%s%s: 95%% CI unbounded (too few or too spread samples)\""
		    " at graph 1,1.025 right font \",8\"\n",
		    e->above ? "\xe2\x96\xb2" : "", e->above && e->below ? "/" : "",
		    e->below ? "\xe2\x96\xbc" : "");
}

/* The range that holds every change's interval and 0, and whether any change is computable. */
struct change_range {
	double lo, hi;
	bool any;
	struct open_ends open;
};

/* A change in data block b: the range holds it and its closed bounds. */
static void change_range_add(struct change_range *r, size_t b, const struct change *ch)
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
	open_ends_note(&r->open, b, ch->rel, lo, ch->hi);
}

static char *plot_name(const struct plot_group *g, const char *kind, const char *extra)
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

struct picture {
	const char *kind;		/* scaling, box, change, dist */
	char *name, *title, *cap;
	struct strbuf sc, dat;		/* NAME.gp and NAME.dat */
};

static void picture_init(struct picture *p, const char *kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
}

/*
 * Name the picture after the group, its kind and extra ("mode=a"), give it
 * title (taken over), caption the samples of variants vs, start the script.
 */
static void picture_begin(struct picture *p, const struct plot_group *g, const struct plot_opts *o,
			  const char *extra, char *title, const size_t *vs, size_t nvs)
{
	p->name = plot_name(g, p->kind, extra);
	p->title = title;
	p->cap = caption(g, o, vs, nvs);
	script_begin(&p->sc, o, g);
}

static void picture_release(struct picture *p)
{
	free(p->name);
	free(p->title);
	free(p->cap);
	strbuf_release(&p->sc);
	strbuf_release(&p->dat);
}

/* Draw the picture and list it (one gnuplot skipped is said and is no error); releases p. */
static int picture_finish(struct picture *p, const struct plot_opts *o, struct plot_list *out)
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
	picture_release(p);
	return ret > 0 ? 0 : ret;	/* > 0: skipped, said why */
}

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
		char *r = variant_without(&g->typed[v], s->key);
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
	open_ends_init(&s->top, g->nkernels);
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
			cell_ci(c, o, g->better, mean_kind(g), &m, &lo, &hi);
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
			open_ends_note(&s->top, k, m, lo, hi);
			strbuf_addf(dat, "%.17g %.10g %.10g %.10g %zu\n", s->pts[i].x, m, lo, hi, c->n);
		}
		strbuf_addstr(dat, "\n\n");
	}
	/* a wide interval of a positive quantity is cut at 0 (and marked), not drawn into negative rates */
	s->cut_at_zero = ci_below_zero && !any_negative;
	if (s->cut_at_zero)
		s->ylo = 0;
	if (isfinite(s->ylo) && isfinite(s->yhi))
		open_ends_place(&s->top, &s->ylo, &s->yhi);
}

/* Data blocks K..2K-2, x rel lo hi p class of each kernel vs the baseline; the change panel's range. */
static void scaling_changes(struct scaling *s, const struct plot_group *g, const struct plot_opts *o,
			    struct strbuf *dat)
{
	size_t K = g->nkernels;

	open_ends_init(&s->rel.open, 2 * K);	/* indexed by data block: K..2K-2 */
	for (size_t k = 1; k < K; k++) {
		strbuf_addf(dat, "# block %zu: %% change of %s vs %s\n# %s rel ci95_lo ci95_hi p class(0 none,1 better,2 worse,3 inconclusive)\n",
			    K + k - 1, g->kernels[k], g->kernels[0], s->key);
		for (size_t i = 0; i < s->npts; i++) {
			struct change ch;

			cell_change(g, o, s->pts[i].v, k, &ch);
			change_range_add(&s->rel, K + k - 1, &ch);
			strbuf_addf(dat, "%.17g %.6g %.6g %.6g %.6g %d\n", s->pts[i].x, ch.rel, ch.lo,
				    ch.hi, ch.p, ch.cls);
		}
		strbuf_addstr(dat, "\n\n");
	}
	if (s->rel.any)
		open_ends_place(&s->rel.open, &s->rel.lo, &s->rel.hi);
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
static void scaling_top_panel(struct strbuf *sc, const struct scaling *s, const struct plot_group *g)
{
	size_t K = g->nkernels;
	char *cols;

	strbuf_addf(sc, "set tmargin at screen %s\nset bmargin at screen 0.42\n"
		    "set format x \"\"\n"
		    "set key at screen 0.5,0.915 center top horizontal samplen 3 maxrows 2\n",
		    K > 4 ? "0.84" : "0.87");
	if (s->cut_at_zero)
		strbuf_addstr(sc, "set label \"\xe2\x96\xbc: 95% CI cut at 0\" at graph 0.99,0.04 right"
			      " font \",8\"\n");
	open_ends_legend(sc, &s->top);
	/* the range holds every interval: nothing is clipped unmarked */
	si_tics(sc, "y", s->ylo, s->yhi, g->unit, 5, true, NULL);
	metric_label(sc, "ylabel", g);
	strbuf_addstr(sc, "plot ");
	cols = open_ends_using(&s->top);
	for (size_t k = 0; k < K; k++) {
		char *xexpr, *lt, *t;

		if (s->empty[k]) {
			/* gnuplot leaves a line without points out of the key: say why it is missing */
			t = xasprintf("%s: no samples", g->kernels[k]);
			strbuf_addf(sc, "%skeyentry with yerrorlines lt %d", k ? ", \\\n     " : "", lt_of(k));
			add_title(sc, t);
			free(t);
			continue;
		}
		xexpr = nudged_x(s, k, K);
		strbuf_addf(sc, "%s@DATA@ index %zu using %s:%s with yerrorlines lt %d",
			    k ? ", \\\n     " : "", k, xexpr, cols, lt_of(k));
		add_title(sc, g->kernels[k]);
		lt = xasprintf("lt %d", lt_of(k));
		open_ends_marks(sc, &s->top, k, xexpr, lt);
		free(lt);
		if (s->cut_at_zero)
			/* a triangle where an interval is cut at 0 */
			strbuf_addf(sc, ", \\\n     '' index %zu using %s:($3<0?0:NaN) with points lt %d"
				    " pt 11 ps 1.6 notitle", k, xexpr, lt_of(k));
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

	strbuf_addstr(sc, "unset label\nset tmargin at screen 0.38\nset bmargin at screen 0.13\n"
		      "set format x \"%g\"\nset format y \"%g\"\nunset key\n"
		      "set xzeroaxis lt -1 lw 1\n");
	if (s->rel.any)
		si_tics(sc, "y", s->rel.lo, s->rel.hi, NULL, 4, true, NULL);
	else
		strbuf_addstr(sc, "set ytics autofreq\n");
	scaling_xtics(sc, s, true);
	strbuf_addstr(sc, "set ylabel \"% change\"\n");
	/* in the gap between the panels, not on the data */
	bl = xasprintf("change of the %s vs %s, with 95%% CI", mean_title(g), g->kernels[0]);
	set_text(sc, "label", bl, " at screen 0.13,0.4 left font \",9\"");
	free(bl);
	set_text(sc, "xlabel", s->key, " offset 0,0.3");
	open_ends_legend(sc, &s->rel.open);
	if (K < 2 || !s->rel.any) {
		/* nothing to draw: say why instead of failing on an empty plot */
		strbuf_addstr(sc, "set yrange [-1:1]\nset label \"no change to show: fewer than 2 samples per kernel\" "
			      "at graph 0.5,0.5 center\nplot 0 with lines lt -1\n");
		return;
	}
	strbuf_addstr(sc, "plot ");
	cols = open_ends_using(&s->rel.open);
	for (size_t k = 1; k < K; k++) {
		char *xexpr = nudged_x(s, k, K), *lt;

		strbuf_addf(sc, "%s@DATA@ index %zu using %s:%s with yerrorlines lt %d",
			    k > 1 ? ", \\\n     " : "", K + k - 1, xexpr, cols, lt_of(k));
		lt = xasprintf("lt %d", lt_of(k));
		open_ends_marks(sc, &s->rel.open, K + k - 1, xexpr, lt);
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
	size_t *vs;
	char *title, *sub;

	picture_init(&p, "scaling");
	scaling_points(&s, g);
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s vs %s\n", g->workload, g->metric, key);
	scaling_means(&s, g, o, &p.dat);
	scaling_changes(&s, g, o, &p.dat);

	title = *rest ? xasprintf("%s %s vs %s (%s)", g->workload, g->metric, key, rest)
		      : xasprintf("%s %s vs %s", g->workload, g->metric, key);
	vs = xcalloc(s.npts ? s.npts : 1, sizeof(*vs));
	for (size_t i = 0; i < s.npts; i++)
		vs[i] = s.pts[i].v;
	picture_begin(&p, g, o, rest, title, vs, s.npts);
	free(vs);
	strbuf_addstr(&p.sc, "set multiplot\n");
	sub = xasprintf("%s with 95%% confidence interval; lower panel: change of the %s"
			" vs the baseline", mean_title(g), mean_title(g));
	headings(&p.sc, p.title, sub, p.cap);
	free(sub);
	strbuf_addstr(&p.sc, "set lmargin at screen 0.13\nset rmargin at screen 0.97\n");
	scaling_xaxis(&p.sc, &s);
	scaling_top_panel(&p.sc, &s, g);
	scaling_change_panel(&p.sc, &s, g);
	strbuf_addstr(&p.sc, "unset multiplot\n");
	open_ends_release(&s.top);
	open_ends_release(&s.rel.open);
	free(s.empty);
	free(s.pts);
	return picture_finish(&p, o, out);
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
		char *r = variant_without(&g->typed[v], key);

		add_unique(&rests, &nrest, r);
		free(r);
	}
	for (size_t i = 0; i < nrest && !ret; i++)
		ret = plot_scaling_one(g, o, key, rests[i], out);
	free_strings(rests, nrest);
	return ret;
}

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
static void variant_axis(struct strbuf *sc, const struct plot_group *g, const size_t *vs,
			 size_t nvs, bool zero_line)
{
	size_t longest = 0;

	strbuf_addstr(sc, "set tmargin at screen 0.84\nset bmargin 7\nset lmargin 12\n"
		      "set key at screen 0.5,0.915 center top horizontal samplen 2\n"
		      "set grid noxtics\n");
	if (zero_line)
		strbuf_addstr(sc, "set xzeroaxis lt -1 lw 1\n");
	strbuf_addstr(sc, "set xtics (");
	for (size_t i = 0; i < nvs; i++) {
		/* a workload without parameters: name the metric under its box */
		char *l = *g->variants[vs[i]] ? variant_label(&g->typed[vs[i]]) : xstrdup(g->metric);
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
		char *keys = variant_join(&g->typed[vs[0]], true, ", ");
		if (*keys)
			set_text(sc, "xlabel", keys, "");
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
	double *sorted = sorted_copy(c->v, c->n), iqr = s->q3 - s->q1;

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
static void box_ylabel(struct strbuf *sc, const struct boxes *b, const struct plot_group *g)
{
	char *l;

	if (!b->normalise) {
		metric_label(sc, "ylabel", g);
		return;
	}
	l = xasprintf("%s, %% of %s mean per operation (%s)", g->metric, g->kernels[0],
		      direction(g->better));
	set_text(sc, "ylabel", l, "");
	free(l);
}

static int plot_boxes_one(const struct plot_group *g, const struct plot_opts *o,
			  const size_t *vs, size_t nvs, const char *part, struct plot_list *out)
{
	struct boxes b = { .vs = vs, .nvs = nvs, .bw = 0.8 / g->nkernels };
	struct picture p;
	size_t K = g->nkernels;
	char *title;

	picture_init(&p, "box");
	box_scale(&b, g);
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s box plots%s\n", g->workload, g->metric,
		    b.normalise ? " (values in % of the baseline mean of each operation)" : "");
	if (!box_stats(&b, g, &p.dat)) {
		free(b.mean);
		picture_release(&p);
		return 0;
	}
	box_samples(&b, g, &p.dat);
	title = part && *part ? xasprintf("%s %s per operation (%s)", g->workload, g->metric, part)
			      : xasprintf("%s %s per operation", g->workload, g->metric);
	picture_begin(&p, g, o, part, title, vs, nvs);
	headings(&p.sc, p.title, "box: quartiles and median; whiskers: furthest sample within 1.5 IQR; points: every sample", p.cap);
	if (!b.normalise) {
		double vlo, vhi;

		/* every sample is drawn: the range holds them all */
		sample_range(g, vs, nvs, &vlo, &vhi);
		si_tics(&p.sc, "y", vlo, vhi, g->unit, 6, true, NULL);
	}
	variant_axis(&p.sc, g, vs, nvs, false);
	box_ylabel(&p.sc, &b, g);
	strbuf_addf(&p.sc, "set boxwidth %.4f absolute\nset style fill solid 0.15 border\n", b.bw * 0.75);
	strbuf_addstr(&p.sc, "plot ");
	for (size_t k = 0; k < K; k++) {
		strbuf_addf(&p.sc, "%s@DATA@ index %zu using 1:2:3:4:5 with candlesticks whiskerbars 0.6 lt %d lw 1.5",
			    k ? ", \\\n     " : "", k, lt_of(k));
		add_title(&p.sc, g->kernels[k]);
		strbuf_addf(&p.sc, ", \\\n     '' index %zu using 1:6:6:6:6 with candlesticks lt %d lw 3 dt 1 notitle, \\\n"
			    "     '' index %zu using 1:2 with points lt %d pt %d ps 0.6 notitle",
			    k, lt_of(k), K + k, lt_of(k), kernel_open_points[k % NSTYLE]);
	}
	strbuf_addstr(&p.sc, "\n");
	free(b.mean);
	return picture_finish(&p, o, out);
}

/*
 * Many variants of two or more parameters (pte-mapped-folio: test x folio
 * size) are split by the first parameter, one picture each.
 */
static int split_by_first_key(const struct plot_group *g, size_t max,
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
			const char *val = variant_get(&g->typed[v], key);

			add_unique(&vals, &nvals, val ? val : "");
		}
		for (size_t d = 0; d < nvals && !ret; d++) {
			char *part;
			size_t n = 0;

			for (size_t w = 0; w < g->nvariants; w++) {
				const char *v2 = variant_get(&g->typed[w], key);
				if (!strcmp(v2 ? v2 : "", vals[d]))
					vs[n++] = w;
			}
			part = xasprintf("%s=%s", key, vals[d]);
			ret = fn(g, o, vs, n, part, out);
			free(part);
		}
		free_strings(vals, nvals);
	}
	free(vs);
	return ret;
}

int plot_boxes(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	return split_by_first_key(g, 12, plot_boxes_one, o, out);
}

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
	open_ends_init(&c->r.open, J);
	strbuf_addf(dat, "# mmbench plot data: %s %s change vs %s\n", g->workload, g->metric,
		    g->kernels[0]);
	for (size_t k = 1; k < K; k++) {
		double off = ((double)(k - 1) - (J - 1) / 2.0) * bw;

		strbuf_addf(dat, "# block %zu: %s vs %s\n# x rel%% ci95_lo ci95_hi p class(0 none,1 improvement,2 regression,3 inconclusive)\n",
			    k - 1, g->kernels[k], g->kernels[0]);
		for (size_t i = 0; i < nvs; i++) {
			struct change ch;
			int cls;

			cell_change(g, o, vs[i], k, &ch);
			strbuf_addf(dat, "%.4f %.6g %.6g %.6g %.6g %d\n", i + off, ch.rel, ch.lo, ch.hi,
				    ch.p, ch.cls);
			cls = ch.cls < 0 ? 0 : ch.cls;
			if (c->first_of[cls] == (size_t)-1 && isfinite(ch.rel))
				c->first_of[cls] = k - 1;
			change_range_add(&c->r, k - 1, &ch);
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
static char *change_subtitle(const struct plot_group *g)
{
	struct strbuf order = STRBUF_INIT;
	size_t K = g->nkernels;

	if (K <= 2)
		return xasprintf("%s; error bars: 95%% CI of the change of the %s", g->kernels[1],
				 mean_title(g));
	strbuf_addstr(&order, "bars left to right:");
	for (size_t k = 1; k < K; k++)
		strbuf_addf(&order, " %s%s", g->kernels[k], k + 1 < K ? "," : "");
	strbuf_addf(&order, "; error bars: 95%% CI of the change of the %s", mean_title(g));
	return strbuf_detach(&order);
}

/* A bar per kernel and variant, its fill the class (in black and white too: solid, hatched, empty). */
static void change_bars(struct strbuf *sc, const struct changes *c, size_t J, bool crowded)
{
	char lo[96], hi[96], *cols = open_ends_using(&c->r.open);

	open_ends_cols(&c->r.open, lo, hi);
	strbuf_addstr(sc, "plot ");
	for (size_t j = 0; j < J; j++) {
		strbuf_addf(sc, "%s@DATA@ index %zu using 1:($6==1?$2:NaN) with boxes ls 101 fill solid 0.8 border lc rgb \"black\" %s, \\\n"
			    "     '' index %zu using 1:($6==2?$2:NaN) with boxes ls 102 fill pattern 2 border lc rgb \"black\" %s, \\\n"
			    "     '' index %zu using 1:($6==0||$6==-1?$2:NaN) with boxes ls 103 fill empty border lc rgb \"#404040\" %s, \\\n"
			    "     '' index %zu using 1:($6==3?$2:NaN) with boxes ls 104 fill pattern 4 border lc rgb \"#404040\" %s, \\\n"
			    "     '' index %zu using 1:%s with yerrorbars lc rgb \"black\" lw 1 dt 1 pt 7 ps 0.4 notitle, \\\n"
			    "     '' index %zu using 1:($2>=0?%s:NaN):(sprintf(\"%%+.1f%%%%\",$2)) with labels %s font \",8\" notitle, \\\n"
			    "     '' index %zu using 1:($2<0?%s:NaN):(sprintf(\"%%+.1f%%%%\",$2)) with labels %s font \",8\" notitle",
			    j ? ", \\\n     " : "", j,
			    c->first_of[1] != j ? "notitle" : "title \"significant improvement\"",
			    j, c->first_of[2] != j ? "notitle" : "title \"significant regression\"",
			    j, c->first_of[0] != j ? "notitle" : "title \"no significant change\"",
			    j, c->first_of[3] != j ? "notitle" : "title \"inconclusive (machine state)\"",
			    j, cols, j, hi, crowded ? "rotate by 90 left offset 0,0.4" : "offset 0,0.7",
			    j, lo, crowded ? "rotate by 90 right offset 0,-0.4" : "offset 0,-0.7");
		open_ends_marks(sc, &c->r.open, j, "1", "lc rgb \"black\"");
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
	char *title, *sub, *yl;
	bool crowded;

	if (K < 2)
		return 0;
	picture_init(&p, "change");
	change_data(&c, g, o, vs, nvs, bw, &p.dat);
	if (!c.r.any) {
		change_skipped(g, o, vs, nvs, part);
		picture_release(&p);
		open_ends_release(&c.r.open);
		return 0;
	}
	open_ends_place(&c.r.open, &c.r.lo, &c.r.hi);
	title = part && *part ? xasprintf("%s %s: change vs %s (%s)", g->workload, g->metric, g->kernels[0], part)
			      : xasprintf("%s %s: change vs %s", g->workload, g->metric, g->kernels[0]);
	picture_begin(&p, g, o, part, title, vs, nvs);
	sub = change_subtitle(g);
	headings(&p.sc, p.title, sub, p.cap);
	free(sub);
	variant_axis(&p.sc, g, vs, nvs, true);
	yl = xasprintf("%% change of %s %s (%s)", mean_title(g), g->metric, direction(g->better));
	set_text(&p.sc, "ylabel", yl, "");
	free(yl);
	/* room for the value labels above/below the bars; vertical when bars are narrow */
	crowded = J * nvs > 10;
	span = c.r.hi - c.r.lo > 0 ? c.r.hi - c.r.lo : 1;
	pad = crowded ? 0.2 : 0.12;
	strbuf_addf(&p.sc, "set yrange [%.6g:%.6g]\n", c.r.lo - pad * span, c.r.hi + pad * span);
	strbuf_addf(&p.sc, "set boxwidth %.4f absolute\n", bw * 0.7);
	strbuf_addstr(&p.sc, "set style line 101 lc rgb \"#1a9641\" lw 1\n"		/* improvement */
		      "set style line 102 lc rgb \"#d7191c\" lw 1\n"			/* regression */
		      "set style line 103 lc rgb \"#808080\" lw 1\n"
		      "set style line 104 lc rgb \"#e6a000\" lw 1\n");	/* inconclusive */
	open_ends_legend(&p.sc, &c.r.open);
	change_bars(&p.sc, &c, J, crowded);
	open_ends_release(&c.r.open);
	return picture_finish(&p, o, out);
}

int plot_change(const struct plot_group *g, const struct plot_opts *o, struct plot_list *out)
{
	if (g->nkernels < 2)
		return 0;
	return split_by_first_key(g, 24, plot_change_one, o, out);
}

/* ---- distributions: empirical CDF per kernel ---- */

/* A data block: the samples of c sorted, each with its cumulative fraction. */
static void ecdf_block(struct strbuf *dat, const struct plot_cell *c)
{
	double *s = sorted_copy(c->v, c->n);

	for (size_t i = 0; i < c->n; i++)
		strbuf_addf(dat, "%.10g %.6f\n", s[i], (double)(i + 1) / c->n);
	if (!c->n)
		strbuf_addstr(dat, "NaN NaN\n");
	strbuf_addstr(dat, "\n\n");
	free(s);
}

/* The curves: a step line and its points per kernel, from data block first on; ps: the points' size. */
static void ecdf_plot(struct strbuf *sc, const struct plot_group *g, size_t first, bool titled,
		      const char *ps)
{
	strbuf_addstr(sc, "plot ");
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(sc, "%s@DATA@ index %zu using 1:2 with steps lt %d", k ? ", \\\n     " : "",
			    first + k, lt_of(k));
		if (titled)
			add_title(sc, g->kernels[k]);
		else
			strbuf_addstr(sc, " notitle");
		strbuf_addf(sc, ", \\\n     '' index %zu using 1:2 with points lt %d ps %s notitle",
			    first + k, lt_of(k), ps);
	}
	strbuf_addstr(sc, "\n");
}

static int plot_dist_one(const struct plot_group *g, const struct plot_opts *o, size_t v,
			 struct plot_list *out)
{
	struct picture p;
	double lo, hi;
	char *title;

	picture_init(&p, "dist");
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s [%s] empirical CDF\n", g->workload, g->metric,
		    g->variants[v]);
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(&p.dat, "# block %zu: %s\n# value cumulative_fraction\n", k, g->kernels[k]);
		ecdf_block(&p.dat, plot_group_cell(g, v, k));
	}
	title = *g->variants[v] ? xasprintf("%s %s distribution (%s)", g->workload, g->metric, g->variants[v])
				: xasprintf("%s %s distribution", g->workload, g->metric);
	picture_begin(&p, g, o, g->variants[v], title, &v, 1);
	headings(&p.sc, p.title, "empirical CDF of the samples of each kernel: steps show noise and bimodality", p.cap);
	sample_range(g, &v, 1, &lo, &hi);
	si_tics(&p.sc, "x", lo, hi, g->unit, 5, false, NULL);
	strbuf_addstr(&p.sc, "set tmargin at screen 0.88\nset bmargin 5\nset lmargin 12\nset rmargin 6\n"
		      "set key bottom right box opaque samplen 3\n"
		      "set grid xtics ytics\n"
		      "set yrange [0:1.02]\nset ylabel \"fraction of samples <= x\"\n");
	metric_label(&p.sc, "xlabel", g);
	ecdf_plot(&p.sc, g, 0, true, "0.8");
	return picture_finish(&p, o, out);
}

/* Panel p of a grid of cols x rows: its place, x tics over its samples, the variant, the curves. */
static void dist_panel(struct strbuf *sc, const struct plot_group *g, const size_t *vs, size_t p,
		       size_t cols, size_t rows)
{
	const char *lab = *g->variants[vs[p]] ? g->variants[vs[p]] : g->metric;
	double lo, hi;
	double left = 0.08, right = 0.98, bottom = 0.11, top = 0.84, hsp = 0.06, vsp = 0.11;
	double w = (right - left - (cols - 1) * hsp) / cols, h = (top - bottom - (rows - 1) * vsp) / rows;
	double x0 = left + (p % cols) * (w + hsp), y1 = top - (p / cols) * (h + vsp);

	strbuf_addf(sc, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		    "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		    x0, x0 + w, y1, y1 - h);
	sample_range(g, &vs[p], 1, &lo, &hi);
	si_tics(sc, "x", lo, hi, g->unit, 4, false, "\",8\"");
	set_text(sc, "title", lab, " font \",9\" offset 0,-0.6");
	ecdf_plot(sc, g, p * g->nkernels, false, "0.5");
	if (!p)	/* headings once */
		strbuf_addstr(sc, "unset label\n");
}

/* The legend: an empty full-size plot whose curves lie outside its range. */
static void dist_legend(struct strbuf *sc, const struct plot_group *g)
{
	strbuf_addstr(sc, "set lmargin at screen 0.02\nset rmargin at screen 0.98\n"
		      "set tmargin at screen 0.99\nset bmargin at screen 0.01\n"
		      "unset border\nunset xtics\nunset ytics\nunset grid\nunset title\n"
		      "set xrange [0:1]\nset yrange [0:1]\n"
		      "set key at screen 0.5,0.915 center top horizontal samplen 3\nplot ");
	for (size_t k = 0; k < g->nkernels; k++) {
		strbuf_addf(sc, "%s2 with linespoints lt %d ps 0.7", k ? ", " : "", lt_of(k));
		add_title(sc, g->kernels[k]);
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
	picture_init(&p, "dist");
	strbuf_addf(&p.dat, "# mmbench plot data: %s %s empirical CDF, block = panel * %zu + kernel\n",
		    g->workload, g->metric, K);
	for (size_t i = 0; i < nvs; i++)
		for (size_t k = 0; k < K; k++) {
			strbuf_addf(&p.dat, "# block %zu: [%s] %s\n# value cumulative_fraction\n", i * K + k,
				    g->variants[vs[i]], g->kernels[k]);
			ecdf_block(&p.dat, plot_group_cell(g, vs[i], k));
		}
	picture_begin(&p, g, o, part, xasprintf("%s %s distribution per variant", g->workload, g->metric),
		      vs, nvs);
	xl = metric_axis(g);
	sub = xasprintf("empirical CDF per kernel; x: %s; y: fraction of samples <= x", xl);
	headings(&p.sc, p.title, sub, p.cap);
	free(sub);
	free(xl);
	/* panels placed by hand, so that the legend can span the whole width */
	strbuf_addstr(&p.sc, "set multiplot\n");
	strbuf_addstr(&p.sc, "set yrange [0:1.02]\nset ytics 0.25 font \",8\"\nset format y \"%.2g\"\n"
		      "set grid xtics ytics\nunset key\n");
	for (size_t i = 0; i < nvs; i++)
		dist_panel(&p.sc, g, vs, i, cols, rows);
	dist_legend(&p.sc, g);
	strbuf_addstr(&p.sc, "unset multiplot\n");
	return picture_finish(&p, o, out);
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
