#include "plan.h"
#include "util.h"
#include "runner.h"

#include <dirent.h>
#include <stdio.h>
#include <unistd.h>

#include <stdlib.h>
#include <string.h>

/* The host table a plugin's supported() sees at plan time. */
extern const struct mmb_host *runner_host_table(void);

static const char *type_name(enum mmb_param_type t)
{
	switch (t) {
	case MMB_PARAM_INT: return "an integer (42, ncpu, 2*ncpu, 200%)";
	case MMB_PARAM_SIZE: return "a size (4K, 1G, 20%mem)";
	case MMB_PARAM_DURATION: return "a duration (300s, 10ms)";
	case MMB_PARAM_BOOL: return "a boolean (true/false)";
	case MMB_PARAM_ENUM: return "one of the listed choices";
	case MMB_PARAM_STRING: return "a string";
	case MMB_PARAM_DOUBLE: return "a number";
	}
	return "a value";
}

static int enum_index(const char *choices, const char *text)
{
	const char *p = choices;
	size_t len = strlen(text);

	for (int i = 0; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == len && !strncmp(p, text, n))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

void plan_format_value(enum mmb_param_type t, int64_t v, char *buf, size_t len)
{
	if (t == MMB_PARAM_SIZE)
		units_format_size(v, buf, len);
	else if (t == MMB_PARAM_DURATION)
		units_format_duration(v, buf, len);
	else
		snprintf(buf, len, "%lld", (long long)v);
}

int plan_parse_value(const struct mmb_param_def *d, const char *text,
		     const struct unit_ctx *u, struct mmb_value *out,
		     char *err, size_t errlen)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->s = text;
	switch (d->type) {
	case MMB_PARAM_INT:
		ret = units_parse_int(text, u, &out->i, err, errlen);
		break;
	case MMB_PARAM_SIZE:
		ret = units_parse_size(text, u, &out->i, err, errlen);
		break;
	case MMB_PARAM_DURATION:
		ret = units_parse_duration(text, &out->i, err, errlen);
		break;
	case MMB_PARAM_BOOL:
		ret = units_parse_bool(text, &out->i, err, errlen);
		break;
	case MMB_PARAM_DOUBLE:
		ret = units_parse_double(text, &out->d, err, errlen);
		/* i is a convenience copy; a double beyond int64 must not be UB */
		out->i = ret ? 0 : out->d >= 0x1p63 ? INT64_MAX : out->d < -0x1p63 ? INT64_MIN
									: (int64_t)out->d;
		return ret;
	case MMB_PARAM_ENUM:
		out->i = enum_index(d->choices, text);
		if (out->i < 0) {
			snprintf(err, errlen, "'%s' is not a valid choice; valid: %s", text,
				 d->choices);
			return -1;
		}
		break;
	case MMB_PARAM_STRING:
		break;
	}
	if (ret)
		return ret;
	out->d = (double)out->i;
	if ((d->type == MMB_PARAM_INT || d->type == MMB_PARAM_SIZE ||
	     d->type == MMB_PARAM_DURATION) && d->min < d->max &&
	    (out->i < d->min || out->i > d->max)) {
		char num[32], lo[32], hi[32], *end;
		bool plain = strtoll(text, &end, 10) == out->i && !*end;

		plan_format_value(d->type, out->i, num, sizeof(num));
		plan_format_value(d->type, d->min, lo, sizeof(lo));
		plan_format_value(d->type, d->max, hi, sizeof(hi));
		/* show what the units made of the text when it is not a plain number */
		snprintf(err, errlen, "%s%s%s is out of range [%s, %s]", text,
			 plain ? "" : " = ", plain ? "" : num, lo, hi);
		return -1;
	}
	return 0;
}

static const char *keep_string(struct plan_workload *w, char *s)
{
	ALLOC_GROW(w->strings, w->nstrings + 1, w->astrings);
	w->strings[w->nstrings++] = s;
	return s;
}

/* The values one parameter takes: a list, a generator or a single value. */
struct axis {
	const struct mmb_param_def *def;
	struct mmb_value *vals;
	size_t n;
	bool matrix;	/* varies: shows in the variant name */
};

static int pos_error(const struct cfg_pos *pos, const char *wl, const char *fmt, ...)
	MMB_PRINTF_FMT(3, 4);
static int pos_error(const struct cfg_pos *pos, const char *wl, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (pos && pos->file)
		ret = error("%s:%d:%d: workload '%s': %s", pos->file, pos->line, pos->col, wl,
			    sb.buf);
	else
		ret = error("workload '%s': %s", wl, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static void list_names(struct strbuf *sb, const struct plugin *pl)
{
	for (size_t i = 0; i < pl->nparams; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", pl->params[i]->name);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int build_axis(struct plan_workload *w, const struct mmb_param_def *d,
		      const struct cfg_param *cp, const struct unit_ctx *u, struct axis *ax)
{
	char err[256];
	const char *wl = w->plugin.w.name;
	size_t alloc = 0;

	memset(ax, 0, sizeof(*ax));
	ax->def = d;
	if (!cp) {
		if (!d->def)
			return pos_error(&w->cfg->pos, wl, "parameter '%s' is required (%s)",
					 d->name, d->help ? d->help : type_name(d->type));
		ax->vals = xcalloc(1, sizeof(*ax->vals));
		ax->n = 1;
		if (plan_parse_value(d, d->def, u, &ax->vals[0], err, sizeof(err)))
			return pos_error(&w->cfg->pos, wl,
					 "plugin default for '%s' is invalid: %s", d->name, err);
		return 0;
	}
	ax->matrix = cp->is_list;
	for (size_t i = 0; i < cp->nvalues; i++) {
		const struct cfg_scalar *cv = &cp->values[i];
		int64_t *gen = NULL;
		size_t ngen = 0;
		int r = 1;

		/* an int or size value may be a generator, alone or inside a list */
		if (d->type == MMB_PARAM_INT)
			r = units_int_list(cv->text, u, &gen, &ngen, err, sizeof(err));
		else if (d->type == MMB_PARAM_SIZE)
			r = units_size_list(cv->text, u, &gen, &ngen, err, sizeof(err));
		else if (units_is_generator(cv->text))
			return pos_error(&cv->pos, wl, "parameter '%s': '%s': generators (stride:, pow2:,"
					 " range:) expand int and size parameters; '%s' is %s: write"
					 " a list of values instead", d->name, cv->text, d->name,
					 type_name(d->type));
		if (r < 0)
			return pos_error(&cv->pos, wl, "parameter '%s': %s", d->name, err);
		if (r > 0) {
			ALLOC_GROW(ax->vals, ax->n + 1, alloc);
			if (plan_parse_value(d, cv->text, u, &ax->vals[ax->n], err, sizeof(err)))
				return pos_error(&cv->pos, wl, "parameter '%s': %s", d->name, err);
			ax->n++;
			continue;
		}
		ax->matrix = true;
		/*
		 * [1, stride:8]: the 1 the generator repeats runs once.  The values
		 * before it, sorted, are looked up (a generator's own values are
		 * distinct): a scan per value made 100000 variants quadratic.
		 */
		size_t nprev = ax->n;
		int64_t *prev = xcalloc(nprev ? nprev : 1, sizeof(*prev));

		for (size_t k = 0; k < nprev; k++)
			prev[k] = ax->vals[k].i;
		qsort(prev, nprev, sizeof(*prev), cmp_i64);
		for (size_t g = 0; g < ngen; g++) {
			char text[32];

			if (nprev && bsearch(&gen[g], prev, nprev, sizeof(*prev), cmp_i64))
				continue;
			/* the variant names the value in its units: size=4K, not size=4096 */
			if (d->type == MMB_PARAM_SIZE)
				units_format_size_exact(gen[g], text, sizeof(text));
			else
				snprintf(text, sizeof(text), "%lld", (long long)gen[g]);
			ALLOC_GROW(ax->vals, ax->n + 1, alloc);
			if (plan_parse_value(d, keep_string(w, xstrdup(text)), u,
					     &ax->vals[ax->n], err, sizeof(err))) {
				free(gen);
				free(prev);
				return pos_error(&cv->pos, wl, "parameter '%s': %s", d->name, err);
			}
			ax->n++;
		}
		free(prev);
		free(gen);
	}
	return 0;
}

#define PLAN_MAX_VARIANTS 100000

/* The values of each of w's variants (NULL after the last), for the calls that ask about all. */
static const struct mmb_value **variant_values(const struct plan_workload *w)
{
	const struct mmb_value **vals = xcalloc(w->nvariants + 1, sizeof(*vals));

	for (size_t v = 0; v < w->nvariants; v++)
		vals[v] = w->variants[v].values;
	return vals;
}

/* before: the variants of the experiment's earlier workloads */
/* check_params on every variant, in one child; the first refusal is the error. */
static int check_variants(struct plan_workload *w)
{
	const struct mmb_value **vals = variant_values(w);
	char **why = xcalloc(w->nvariants + 1, sizeof(*why));
	int ret = 0;

	if (plugin_call_check_params_all(&w->plugin, vals, w->nvariants, why))
		ret = PLAN_PLUGIN_CRASHED;
	for (size_t v = 0; v < w->nvariants; v++) {
		if (!ret && why[v])
			ret = pos_error(&w->cfg->pos, w->plugin.w.name, "%s%s%s", why[v],
					*w->variants[v].variant ? " in variant " : "",
					w->variants[v].variant);
		free(why[v]);
	}
	free(why);
	free(vals);
	return ret;
}

static int expand(struct plan_workload *w, struct axis *axes, size_t naxes, size_t before)
{
	size_t total = 1, *idx;
	const struct mmb_workload *d = &w->plugin.w;

	/* the product of the axes, checked before anything is allocated */
	for (size_t i = 0; i < naxes; i++)
		if (__builtin_mul_overflow(total, axes[i].n, &total) ||
		    total > PLAN_MAX_VARIANTS - before)
			return before && total <= PLAN_MAX_VARIANTS
			       ? pos_error(&w->cfg->pos, d->name, "more than %d variants in the"
					   " experiment; split it into several files",
					   PLAN_MAX_VARIANTS)
			       : pos_error(&w->cfg->pos, d->name, "more than %d variants (the"
					   " product of the parameter lists); run fewer"
					   " combinations", PLAN_MAX_VARIANTS);
	w->variants = xcalloc(total, sizeof(*w->variants));
	w->nvariants = total;
	idx = xcalloc(naxes ? naxes : 1, sizeof(*idx));
	for (size_t v = 0; v < total; v++) {
		struct plan_variant *pv = &w->variants[v];
		struct strbuf var = STRBUF_INIT, all = STRBUF_INIT;

		strbuf_init(&var);
		pv->values = xcalloc(naxes ? naxes : 1, sizeof(*pv->values));
		for (size_t i = 0; i < naxes; i++) {
			pv->values[i] = axes[i].vals[idx[i]];
			strbuf_addf(&all, "%s%s=%s", i ? " " : "", axes[i].def->name,
				    pv->values[i].s);
			if (axes[i].matrix) {
				strbuf_addf(&var, "%s%s=%s", var.len ? "," : "", axes[i].def->name,
					    pv->values[i].s);
				variant_add(&pv->typed, axes[i].def->name, axes[i].def->type,
					    pv->values[i].i, pv->values[i].d, pv->values[i].s);
			}
		}
		pv->variant = strbuf_detach(&var);
		pv->variant_json = variant_to_json(&pv->typed);
		pv->params_text = strbuf_detach(&all);
		/* the variant is a name: recorded, plotted; a newline would break both */
		if (name_ctl(pv->params_text)) {
			char *esc = ctl_escape(pv->params_text);
			int ret = pos_error(&w->cfg->pos, d->name, "parameters '%s': a value holds a "
					    "control character (newline, tab, escape); names cannot",
					    esc);

			free(esc);
			free(idx);
			return ret;
		}
		/* odometer over the axes, last one fastest */
		for (size_t i = naxes; i-- > 0;) {
			if (++idx[i] < axes[i].n)
				break;
			idx[i] = 0;
		}
	}
	free(idx);
	return check_variants(w);
}

static int plan_workload(struct plan_workload *w, const struct unit_ctx *u, size_t before)
{
	const struct cfg_workload *c = w->cfg;
	struct plugin *pl = &w->plugin;
	struct axis *axes;
	int ret = 0;

	/* every key must be a declared parameter */
	for (size_t i = 0; i < c->nparams; i++) {
		if (plugin_param_index(pl, c->params[i].name) < 0) {
			struct strbuf sb = STRBUF_INIT;

			list_names(&sb, pl);
			pos_error(&c->params[i].pos, c->name,
				  "unknown parameter '%s'; valid parameters: %s",
				  c->params[i].name, sb.len ? sb.buf : "(none)");
			strbuf_release(&sb);
			return -1;
		}
	}
	axes = xcalloc(pl->nparams ? pl->nparams : 1, sizeof(*axes));
	for (size_t i = 0; i < pl->nparams && !ret; i++) {
		const struct cfg_param *cp = NULL;

		for (size_t j = 0; j < c->nparams; j++)
			if (!strcmp(c->params[j].name, pl->params[i]->name))
				cp = &c->params[j];
		ret = build_axis(w, pl->params[i], cp, u, &axes[i]);
	}
	if (!ret)
		ret = expand(w, axes, pl->nparams, before);
	for (size_t i = 0; i < pl->nparams; i++)
		free(axes[i].vals);
	free(axes);
	return ret;
}

static bool mthp_present(void)
{
	DIR *d = opendir("/sys/kernel/mm/transparent_hugepage");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = starts_with(de->d_name, "hugepages-");
	closedir(d);
	return found;
}

/*
 * The descriptor's static requirements (requires, min_kernel) as a skip
 * reason naming what is missing, or NULL.  Swap set up by the experiment's
 * environment only exists once the run starts, so it counts as present.
 */
static const char *requirements_unmet(struct plan_workload *pw, const struct experiment *e)
{
	const struct mmb_workload *w = &pw->plugin.w;
	unsigned int have = runner_host_table()->kernel_version;

	if ((w->requires & MMB_REQ_ROOT) && geteuid() != 0)
		return "needs root (the workload declares MMB_REQ_ROOT); run mmbench as root";
	if ((w->requires & MMB_REQ_SWAP) && !e->env.zram_bytes && !swap_active(PROC_SWAPS))
		return "no swap";	/* the documented reason (docs/workloads.md) */
	if ((w->requires & MMB_REQ_THP) &&
	    access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0)
		return "needs transparent hugepages (no /sys/kernel/mm/transparent_hugepage)";
	if ((w->requires & MMB_REQ_MTHP) && !mthp_present())
		return "needs per-size mTHP (no /sys/kernel/mm/transparent_hugepage/hugepages-*kB)";
	if (w->min_kernel && have && have < w->min_kernel)
		return keep_string(pw, xasprintf("needs kernel %u.%u.%u or newer (this is %u.%u.%u)",
						 w->min_kernel >> 16, (w->min_kernel >> 8) & 0xff,
						 w->min_kernel & 0xff, have >> 16,
						 (have >> 8) & 0xff, have & 0xff));
	return NULL;
}

/* supported() on every variant, in one child: the refused ones are marked. */
static int mark_unsupported(struct plan_workload *w)
{
	const struct mmb_value **vals = variant_values(w);
	char **why = xcalloc(w->nvariants + 1, sizeof(*why));
	int ret = 0;

	if (plugin_call_supported_all(&w->plugin, runner_host_table(), vals, w->nvariants, why))
		ret = -1;
	for (size_t v = 0; v < w->nvariants; v++) {
		if (!why[v])
			continue;
		/* kept with the plan's strings, freed by plan_release */
		ALLOC_GROW(w->strings, w->nstrings + 1, w->astrings);
		w->strings[w->nstrings++] = why[v];
		w->variants[v].unsupported = why[v];
	}
	free(why);
	free(vals);
	return ret;
}

int plan_build(struct plan *p, struct experiment *e, const struct unit_ctx *u,
	       const struct plan_opts *o)
{
	size_t nvariants = 0;

	memset(p, 0, sizeof(*p));
	p->exp = e;
	p->wls = xcalloc(e->nworkloads ? e->nworkloads : 1, sizeof(*p->wls));
	for (size_t i = 0; i < e->nworkloads; i++) {
		const struct cfg_workload *c = &e->workloads[i];
		struct plan_workload *w;
		char *path;

		if (o && o->only && strcmp(o->only, c->name))
			continue;
		w = &p->wls[p->nwls++];
		w->cfg = c;
		path = plugin_find(c->name);
		if (path) {
			/* exists but broken: the loader said which file and why */
			int bad = plugin_load_file(&w->plugin, path);

			free(path);
			if (bad)
				return -1;
		} else {
			char **names = NULL;
			size_t n = 0;
			struct strbuf sb = STRBUF_INIT;

			plugin_list(&names, &n);
			for (size_t k = 0; k < n; k++) {
				strbuf_addf(&sb, "%s%s", k ? ", " : "", names[k]);
				free(names[k]);
			}
			free(names);
			error("%s:%d:%d: unknown or unloadable workload '%s'; available: %s",
			      c->pos.file, c->pos.line, c->pos.col, c->name,
			      sb.len ? sb.buf : "(none found)");
			strbuf_release(&sb);
			return -1;
		}
		w->iterations = c->iterations > 0 ? c->iterations : e->iterations;
		w->warmup = c->warmup >= 0 ? c->warmup : e->warmup;
		w->timeout_ns = c->timeout_ns > 0 ? c->timeout_ns : e->timeout_ns;
		if (o && o->iterations > 0)
			w->iterations = o->iterations;
		if (o && o->quick) {
			w->iterations = w->iterations < 2 ? w->iterations : 2;
			w->warmup = 0;
		}
		int bad = plan_workload(w, u, nvariants);

		if (bad)
			return bad;
		nvariants += w->nvariants;
		const char *unmet = requirements_unmet(w, e);

		if (!unmet && mark_unsupported(w))
			return PLAN_PLUGIN_CRASHED;
		for (size_t v = 0; v < w->nvariants; v++) {
			if (unmet)
				w->variants[v].unsupported = unmet;
			p->total_iterations += w->iterations + w->warmup;
		}
	}
	if (!p->nwls)
		return error("%s: no workload to run%s%s", e->path, o && o->only ? " named " : "",
			     o && o->only ? o->only : "");
	return 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nwls; i++) {
		struct plan_workload *w = &p->wls[i];

		for (size_t v = 0; v < w->nvariants; v++) {
			free(w->variants[v].values);
			free(w->variants[v].variant);
			variant_release(&w->variants[v].typed);
			free(w->variants[v].variant_json);
			free(w->variants[v].params_text);
		}
		free(w->variants);
		for (size_t s = 0; s < w->nstrings; s++)
			free(w->strings[s]);
		free(w->strings);
		plugin_release(&w->plugin);
	}
	free(p->wls);
	memset(p, 0, sizeof(*p));
}
