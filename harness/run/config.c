/*
 * Experiment files: YAML (libyaml document API) into struct experiment.
 *
 * Only the shape is checked here; plan.c checks workload and parameter names
 * and values against the plugins, using the positions kept in cfg_pos.  Every
 * error is one line "FILE:LINE:COL: why", naming the valid choices.
 */
#include "config.h"
#include "counters.h"
#include "units.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define DEFAULT_ITERATIONS	5
#define DEFAULT_WARMUP		1
#define DEFAULT_TIMEOUT_NS	(1800LL * 1000000000LL)

static const char *const top_keys[] = {
	"experiment", "description", "iterations", "warmup", "timeout",
	"environment", "monitors", "counters", "interference", "workloads", NULL
};
static const char *const interference_cfg_keys[] = {
	"foreign_cpu", "steal", "freq_drop", "throttle", "knobs", NULL
};
static const char *const env_keys[] = {
	"thp", "thp_defrag", "mthp", "governor", "pin_cpu", "drop_caches", "swap", NULL
};
static const char *const workload_keys[] = {
	"name", "iterations", "warmup", "timeout", "params", NULL
};
static const char *const swap_keys[] = { "zram", "comp", NULL };
static const char *const thp_values[] = { "always", "madvise", "never", NULL };
static const char *const defrag_values[] = {
	"always", "defer", "defer+madvise", "madvise", "never", NULL
};
static const char *const mthp_values[] = { "always", "inherit", "madvise", "never", NULL };
static const char *const monitor_values[] = { "vmstat", "meminfo", NULL };

struct parse {
	struct experiment *e;
	yaml_document_t *doc;
	struct unit_ctx units;
	const char *origin;	/* "--set K=V": errors name it, not a file position */
};

void experiment_init(struct experiment *e)
{
	memset(e, 0, sizeof(*e));
	e->iterations = DEFAULT_ITERATIONS;
	e->warmup = DEFAULT_WARMUP;
	e->timeout_ns = DEFAULT_TIMEOUT_NS;
	e->mon_vmstat = true;
	e->mon_meminfo = true;
	e->limits = (struct interference_limits)INTERFERENCE_LIMITS_DEFAULT;
}

static void workload_release(struct cfg_workload *w)
{
	for (size_t i = 0; i < w->nparams; i++) {
		struct cfg_param *p = &w->params[i];

		for (size_t j = 0; j < p->nvalues; j++)
			free(p->values[j].text);
		free(p->values);
		free(p->name);
	}
	free(w->params);
	free(w->name);
}

void experiment_release(struct experiment *e)
{
	for (size_t i = 0; i < e->nworkloads; i++)
		workload_release(&e->workloads[i]);
	free(e->workloads);
	for (size_t i = 0; i < e->env.nmthp; i++)
		free(e->env.mthp[i].value);
	free(e->env.mthp);
	free(e->env.thp_enabled);
	free(e->env.thp_defrag);
	free(e->env.governor);
	free(e->env.zram_comp);
	free(e->env.pin_cpu);
	for (size_t i = 0; i < e->ncounters; i++)
		free(e->counters[i]);
	free(e->counters);
	free(e->name);
	free(e->description);
	free(e->text);
	free(e->path);
	experiment_init(e);
}

/* ---- messages ------------------------------------------------------- */

static struct cfg_pos pos_of(struct parse *ps, yaml_node_t *n)
{
	struct cfg_pos p = { ps->e->path, (int)n->start_mark.line + 1,
			     (int)n->start_mark.column + 1 };
	return p;
}

MMB_PRINTF_FMT(3, 4)
static int perr(struct parse *ps, yaml_node_t *n, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ps->origin)
		error("%s: %s", ps->origin, sb.buf);
	else
		error("%s:%zu:%zu: %s", ps->e->path, n->start_mark.line + 1,
		      n->start_mark.column + 1, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static void join_choices(struct strbuf *sb, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", list[i]);
}

static int perr_choices(struct parse *ps, yaml_node_t *n, const char *what,
			const char *got, const char *const *list, const char *listname)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	join_choices(&sb, list);
	ret = perr(ps, n, "%s '%s'; valid %s: %s", what, got, listname, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static const char *node_kind(yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE: return "a mapping";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_SCALAR_NODE: return "a scalar";
	default: return "nothing";
	}
}

static const char *scalar(yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* A plain empty scalar or ~ / null: the key was given without a value. */
static bool is_null(yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !n->data.scalar.length || !strcmp(scalar(n), "~") ||
	       !strcmp(scalar(n), "null") || !strcmp(scalar(n), "Null") ||
	       !strcmp(scalar(n), "NULL");
}

/* Check n is a non-empty scalar; `what` describes what the key expects. */
static int want_scalar(struct parse *ps, yaml_node_t *n, const char *key, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return perr(ps, n, "'%s' expects %s, got %s", key, what, node_kind(n));
	if (is_null(n))
		return perr(ps, n, "'%s' needs a value: %s", key, what);
	if (memchr(scalar(n), '\0', n->data.scalar.length))
		return perr(ps, n, "'%s' contains a NUL character", key);
	return 0;
}

static int want_mapping(struct parse *ps, yaml_node_t *n, const char *key,
			const char *const *keys)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (n->type == YAML_MAPPING_NODE)
		return 0;
	if (keys) {
		join_choices(&sb, keys);
		ret = perr(ps, n, "'%s' expects a mapping with keys %s, got %s", key, sb.buf,
			   node_kind(n));
	} else {
		ret = perr(ps, n, "'%s' expects a mapping, got %s", key, node_kind(n));
	}
	strbuf_release(&sb);
	return ret;
}

static int in_list(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

/*
 * Walk the pairs of a mapping: keys must be scalars, known (when `keys` is
 * given) and unique.  Calls fn for every pair.
 */
typedef int (*pair_fn)(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		       void *data);

static int for_each_pair(struct parse *ps, yaml_node_t *map, const char *const *keys,
			 const char *where, pair_fn fn, void *data)
{
	yaml_node_pair_t *pair, *q;

	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(ps->doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(ps->doc, pair->value);

		if (k->type != YAML_SCALAR_NODE || is_null(k))
			return perr(ps, k, "expected a key name%s%s, got %s", where ? " in " : "",
				    where ? where : "", node_kind(k));
		for (q = map->data.mapping.pairs.start; q < pair; q++) {
			yaml_node_t *qk = yaml_document_get_node(ps->doc, q->key);

			if (qk->type == YAML_SCALAR_NODE && !strcmp(scalar(qk), scalar(k)))
				return perr(ps, k, "duplicate key '%s' (first at line %zu)", scalar(k),
					    qk->start_mark.line + 1);
		}
		if (keys && in_list(scalar(k), keys) < 0) {
			struct strbuf sb = STRBUF_INIT;

			join_choices(&sb, keys);
			perr(ps, k, "unknown key '%s'%s%s; valid keys: %s", scalar(k),
			     where ? " in " : "", where ? where : "", sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		if (fn(ps, scalar(k), k, v, data))
			return -1;
	}
	return 0;
}

/* ---- typed values ----------------------------------------------------- */

static int get_string(struct parse *ps, yaml_node_t *n, const char *key, char **out)
{
	if (want_scalar(ps, n, key, "a string"))
		return -1;
	free(*out);
	*out = xstrdup(scalar(n));
	return 0;
}

static int get_count(struct parse *ps, yaml_node_t *n, const char *key, int min, int *out)
{
	char err[256];
	int64_t v;

	if (want_scalar(ps, n, key, "a whole number"))
		return -1;
	if (units_parse_int(scalar(n), &ps->units, &v, err, sizeof(err)))
		return perr(ps, n, "'%s': %s", key, err);
	if (v < min)
		return perr(ps, n, "'%s' must be >= %d, got %lld", key, min, (long long)v);
	if (v > INT_MAX)
		return perr(ps, n, "'%s' is too large (at most %d), got %lld", key, INT_MAX,
			    (long long)v);
	*out = (int)v;
	return 0;
}

static int get_timeout(struct parse *ps, yaml_node_t *n, const char *key, int64_t *out)
{
	char err[256];
	int64_t v;

	if (want_scalar(ps, n, key, "a duration like 600s or 30m"))
		return -1;
	if (units_parse_duration(scalar(n), &v, err, sizeof(err)))
		return perr(ps, n, "'%s': %s", key, err);
	if (v <= 0)
		return perr(ps, n, "'%s' must be greater than 0, got '%s'", key, scalar(n));
	*out = v;
	return 0;
}

static int get_choice(struct parse *ps, yaml_node_t *n, const char *key,
		      const char *const *list, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	if (n->type != YAML_SCALAR_NODE || is_null(n)) {
		join_choices(&sb, list);
		perr(ps, n, "'%s' expects one of %s, got %s", key, sb.buf,
		     is_null(n) ? "no value" : node_kind(n));
		strbuf_release(&sb);
		return -1;
	}
	if (in_list(scalar(n), list) < 0) {
		char what[128];

		snprintf(what, sizeof(what), "invalid %s value", key);
		return perr_choices(ps, n, what, scalar(n), list, "values");
	}
	free(*out);
	*out = xstrdup(scalar(n));
	return 0;
}

/* ---- environment ------------------------------------------------------ */

/*
 * mTHP size keys: "16K", "16kB", "hugepages-16kB", "2M", "2048K".  Returns
 * the size in kB, or 0 with a reason.
 */
static unsigned int mthp_size_kb(const char *s, const char **why)
{
	const char *p = s;
	unsigned long long v = 0;
	unsigned long long kb;

	if (starts_with(p, "hugepages-"))
		p += strlen("hugepages-");
	if (!isdigit((unsigned char)*p)) {
		*why = "expected a size like 16K, 64kB, 2M or hugepages-16kB";
		return 0;
	}
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > (1ULL << 40)) {
			*why = "size too large";
			return 0;
		}
	}
	if (!strcasecmp(p, "k") || !strcasecmp(p, "kb") || !strcasecmp(p, "kib")) {
		kb = v;
	} else if (!strcasecmp(p, "m") || !strcasecmp(p, "mb") || !strcasecmp(p, "mib")) {
		kb = v << 10;
	} else if (!strcasecmp(p, "g") || !strcasecmp(p, "gb") || !strcasecmp(p, "gib")) {
		kb = v << 20;
	} else {
		*why = *p ? "unknown unit; expected a size like 16K, 64kB, 2M or hugepages-16kB"
			  : "missing unit; expected a size like 16K, 64kB, 2M or hugepages-16kB";
		return 0;
	}
	if (kb < 8 || (kb & (kb - 1)) || kb > UINT_MAX) {
		*why = "an mTHP size must be a power of two >= 8K (16K, 32K, 64K, ... 2M)";
		return 0;
	}
	return (unsigned int)kb;
}

static int mthp_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		     void *data)
{
	struct cfg_env *env = &ps->e->env;
	const char *why = NULL;
	unsigned int kb = mthp_size_kb(key, &why);
	char *val = NULL;
	char label[64];

	if (!kb)
		return perr(ps, k, "bad mTHP size '%s': %s", key, why);
	for (size_t i = 0; i < env->nmthp; i++)
		if (env->mthp[i].kb == kb)
			return perr(ps, k, "duplicate mTHP size '%s' (same as line %d: %ukB)", key,
				    env->mthp[i].pos.line, kb);
	snprintf(label, sizeof(label), "mthp %s", key);
	if (get_choice(ps, v, label, mthp_values, &val))
		return -1;
	env->mthp = xrealloc(env->mthp, (env->nmthp + 1) * sizeof(*env->mthp));
	env->mthp[env->nmthp].kb = kb;
	env->mthp[env->nmthp].value = val;
	env->mthp[env->nmthp].pos = pos_of(ps, k);
	env->nmthp++;
	return 0;
}

static int swap_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		     void *data)
{
	struct cfg_env *env = &ps->e->env;
	char err[256];

	if (!strcmp(key, "zram")) {
		int64_t bytes;

		if (want_scalar(ps, v, "zram", "a size like 1G or 10%mem"))
			return -1;
		if (units_parse_size(scalar(v), &ps->units, &bytes, err, sizeof(err)))
			return perr(ps, v, "'zram': %s", err);
		if (bytes <= 0)
			return perr(ps, v, "'zram' must be greater than 0, got '%s'", scalar(v));
		env->zram_bytes = bytes;
		return 0;
	}
	/* comp: the kernel's list varies (lzo, lz4, zstd, ...); checked at run time. */
	if (get_string(ps, v, "comp", &env->zram_comp))
		return -1;
	if (strpbrk(env->zram_comp, " \t\n/"))
		return perr(ps, v, "'comp' expects a compressor name like lz4 or zstd, got '%s'",
			    env->zram_comp);
	return 0;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A CPU number; values past INT_MAX saturate (and fail the range check). */
static const char *cpu_number(const char *p, int *out)
{
	long long v = 0;

	while (isdigit((unsigned char)*p)) {
		if (v <= INT_MAX)
			v = v * 10 + (*p - '0');
		p++;
	}
	*out = v > INT_MAX ? INT_MAX : (int)v;
	return p;
}

/*
 * pin_cpu: "0-3,8", "1" or "none".  Stored as a CPU set plus the list in
 * canonical form (ranges merged), which run_env records.
 */
static int get_cpu_list(struct parse *ps, yaml_node_t *v, struct cfg_env *env)
{
	const char *s, *p;
	int last = ps->units.ncpus - 1, run = -1;
	struct strbuf sb = STRBUF_INIT;
	cpu_set_t set;

	if (want_scalar(ps, v, "pin_cpu", "a CPU list like 0-3,8 or none"))
		return -1;
	s = scalar(v);
	if (!strcmp(s, "none")) {
		free(env->pin_cpu);
		env->pin_cpu = NULL;
		CPU_ZERO(&env->pin_set);
		return 0;
	}
	if (last >= CPU_SETSIZE)
		last = CPU_SETSIZE - 1;
	CPU_ZERO(&set);
	for (p = skip_blanks(s);; p = skip_blanks(p + 1)) {
		int a, b;

		if (!isdigit((unsigned char)*p))
			goto syntax;
		p = skip_blanks(cpu_number(p, &a));
		b = a;
		if (*p == '-') {
			p = skip_blanks(p + 1);
			if (!isdigit((unsigned char)*p))
				goto syntax;
			p = skip_blanks(cpu_number(p, &b));
		}
		if (b < a)
			return perr(ps, v, "'pin_cpu': range %d-%d runs backwards; write %d-%d", a,
				    b, b, a);
		if (b > last)
			return perr(ps, v, "'pin_cpu': CPU %d is not on this machine (CPUs 0..%d)",
				    a > last ? a : b, last);
		for (int c = a; c <= b; c++)
			CPU_SET(c, &set);
		if (!*p)
			break;
		if (*p != ',')
			goto syntax;
	}
	for (int c = 0; c <= last + 1; c++) {
		bool in = c <= last && CPU_ISSET(c, &set);

		if (in && run < 0)
			run = c;
		if (!in && run >= 0) {
			strbuf_addf(&sb, "%s%d", sb.len ? "," : "", run);
			if (c - 1 > run)
				strbuf_addf(&sb, "-%d", c - 1);
			run = -1;
		}
	}
	free(env->pin_cpu);
	env->pin_cpu = strbuf_detach(&sb);
	env->pin_set = set;
	return 0;
syntax:
	return perr(ps, v, "'pin_cpu' expects a CPU list like 0-3,8 (CPUs 0..%d) or none, got '%s'",
		    last, s);
}

static int env_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		    void *data)
{
	struct cfg_env *env = &ps->e->env;
	char err[256];

	if (!strcmp(key, "thp"))
		return get_choice(ps, v, key, thp_values, &env->thp_enabled);
	if (!strcmp(key, "thp_defrag"))
		return get_choice(ps, v, key, defrag_values, &env->thp_defrag);
	if (!strcmp(key, "mthp")) {
		if (want_mapping(ps, v, key, NULL))
			return -1;
		return for_each_pair(ps, v, NULL, NULL, mthp_pair, NULL);
	}
	if (!strcmp(key, "governor")) {
		if (get_string(ps, v, key, &env->governor))
			return -1;
		if (strpbrk(env->governor, " \t\n/"))
			return perr(ps, v, "'governor' expects a cpufreq governor name like "
				    "performance or schedutil, got '%s'", env->governor);
		return 0;
	}
	if (!strcmp(key, "pin_cpu"))
		return get_cpu_list(ps, v, env);
	if (!strcmp(key, "drop_caches")) {
		int64_t b;

		if (want_scalar(ps, v, key, "true or false"))
			return -1;
		if (units_parse_bool(scalar(v), &b, err, sizeof(err)))
			return perr(ps, v, "'drop_caches': %s", err);
		env->drop_caches = b;
		return 0;
	}
	/* swap */
	if (want_mapping(ps, v, key, swap_keys))
		return -1;
	if (for_each_pair(ps, v, swap_keys, "swap", swap_pair, NULL))
		return -1;
	if (!env->zram_bytes)
		return perr(ps, v, "'swap' needs %s", ps->origin ? "a size: add --set swap.zram=SIZE"
				   " (e.g. 1G)" : "'zram: SIZE' (e.g. zram: 1G)");
	return 0;
}

/* ---- monitors --------------------------------------------------------- */

static int monitor_one(struct parse *ps, yaml_node_t *n)
{
	struct experiment *e = ps->e;

	if (n->type != YAML_SCALAR_NODE || is_null(n))
		return perr(ps, n, "'monitors' expects a list of monitor names "
			    "(vmstat, meminfo), got %s", is_null(n) ? "no value" : node_kind(n));
	switch (in_list(scalar(n), monitor_values)) {
	case 0: e->mon_vmstat = true; return 0;
	case 1: e->mon_meminfo = true; return 0;
	}
	return perr_choices(ps, n, "unknown monitor", scalar(n), monitor_values, "monitors");
}

static int parse_monitors(struct parse *ps, yaml_node_t *v)
{
	struct experiment *e = ps->e;

	e->mon_vmstat = e->mon_meminfo = false;
	if (v->type == YAML_SCALAR_NODE && !strcmp(scalar(v), "none"))
		return 0;
	if (v->type == YAML_SCALAR_NODE && !is_null(v))
		return monitor_one(ps, v);
	if (v->type != YAML_SEQUENCE_NODE)
		return perr(ps, v, "'monitors' expects a list like [vmstat, meminfo] or none, got %s",
			    is_null(v) ? "no value" : node_kind(v));
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++)
		if (monitor_one(ps, yaml_document_get_node(ps->doc, *it)))
			return -1;
	return 0;
}

/* ---- counters (docs/counters.md) --------------------------------------- */

static int counter_one(struct parse *ps, yaml_node_t *n)
{
	struct experiment *e = ps->e;
	const char *why;

	if (n->type != YAML_SCALAR_NODE || is_null(n))
		return perr(ps, n, "'counters' expects a list of event names, got %s",
			    is_null(n) ? "no value" : node_kind(n));
	if ((why = counters_name_error(scalar(n))))
		return perr(ps, n, "counters: '%s': %s", scalar(n), why);
	for (size_t i = 0; i < e->ncounters; i++)
		if (!strcmp(e->counters[i], scalar(n)))
			return perr(ps, n, "counters: '%s' is listed twice", scalar(n));
	if (e->ncounters == COUNTERS_MAX)
		return perr(ps, n, "counters: more than %d events", COUNTERS_MAX);
	e->counters = xrealloc(e->counters, (e->ncounters + 1) * sizeof(*e->counters));
	e->counters[e->ncounters++] = xstrdup(scalar(n));
	return 0;
}

static int parse_counters(struct parse *ps, yaml_node_t *v)
{
	if (v->type == YAML_SCALAR_NODE && !strcmp(scalar(v), "none")) {
		ps->e->no_counters = true;
		return 0;
	}
	if (v->type == YAML_SCALAR_NODE && !is_null(v))
		return counter_one(ps, v);
	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.start == v->data.sequence.items.top)
		return perr(ps, v, "'counters' expects a list like [page-faults, tlb:tlb_flush] or none, got %s",
			    is_null(v) ? "no value" : v->type == YAML_SEQUENCE_NODE ? "an empty list" : node_kind(v));
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++)
		if (counter_one(ps, yaml_document_get_node(ps->doc, *it)))
			return -1;
	return 0;
}

/* ---- workloads -------------------------------------------------------- */

static void param_add_value(struct cfg_param *p, struct parse *ps, yaml_node_t *n)
{
	p->values = xrealloc(p->values, (p->nvalues + 1) * sizeof(*p->values));
	p->values[p->nvalues].text = xstrdup(scalar(n));
	p->values[p->nvalues].pos = pos_of(ps, n);
	p->nvalues++;
}

static int param_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		      void *data)
{
	struct cfg_workload *w = data;
	struct cfg_param *p;

	/* Check before adding so a failure leaves nothing half-built. */
	if (v->type == YAML_MAPPING_NODE || is_null(v))
		return perr(ps, v, "param '%s' expects a value or a list of values, got %s", key,
			    is_null(v) ? "no value" : "a mapping");
	if (v->type == YAML_SEQUENCE_NODE) {
		if (v->data.sequence.items.start == v->data.sequence.items.top)
			return perr(ps, v, "param '%s' has an empty list; give at least one value",
				    key);
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *n = yaml_document_get_node(ps->doc, *it);

			if (n->type != YAML_SCALAR_NODE || is_null(n))
				return perr(ps, n, "param '%s': list elements must be single values, "
					    "got %s", key, is_null(n) ? "no value" : node_kind(n));
			if (memchr(scalar(n), '\0', n->data.scalar.length))
				return perr(ps, n, "param '%s' contains a NUL character", key);
		}
	} else if (memchr(scalar(v), '\0', v->data.scalar.length)) {
		return perr(ps, v, "param '%s' contains a NUL character", key);
	}

	w->params = xrealloc(w->params, (w->nparams + 1) * sizeof(*w->params));
	p = &w->params[w->nparams++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(key);
	p->pos = pos_of(ps, k);
	if (v->type == YAML_SEQUENCE_NODE) {
		p->is_list = true;
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++)
			param_add_value(p, ps, yaml_document_get_node(ps->doc, *it));
	} else {
		param_add_value(p, ps, v);
	}
	return 0;
}

/*
 * iterations, warmup and timeout: set for the experiment, and a workload may
 * override each.  1 when key is none of them, else 0, or -1 after the error.
 */
static int iteration_pair(struct parse *ps, const char *key, yaml_node_t *v, int *iterations,
			  int *warmup, int64_t *timeout_ns)
{
	if (!strcmp(key, "iterations"))
		return get_count(ps, v, key, 1, iterations);
	if (!strcmp(key, "warmup"))
		return get_count(ps, v, key, 0, warmup);
	if (!strcmp(key, "timeout"))
		return get_timeout(ps, v, key, timeout_ns);
	return 1;
}

static int workload_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
			 void *data)
{
	struct cfg_workload *w = data;
	int rc;

	if (!strcmp(key, "name")) {
		if (get_string(ps, v, key, &w->name))
			return -1;
		w->pos = pos_of(ps, v);
		return 0;
	}
	if ((rc = iteration_pair(ps, key, v, &w->iterations, &w->warmup, &w->timeout_ns)) != 1)
		return rc;
	/* params */
	if (is_null(v))
		return 0;	/* "params:" with nothing under it: all defaults */
	if (want_mapping(ps, v, key, NULL))
		return -1;
	return for_each_pair(ps, v, NULL, NULL, param_pair, w);
}

static int parse_workloads(struct parse *ps, yaml_node_t *v)
{
	struct experiment *e = ps->e;

	if (v->type != YAML_SEQUENCE_NODE)
		return perr(ps, v, "'workloads' expects a list of workloads "
			    "(- name: WORKLOAD), got %s", is_null(v) ? "no value" : node_kind(v));
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return perr(ps, v, "'workloads' is empty; list at least one (- name: WORKLOAD)");
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *n = yaml_document_get_node(ps->doc, *it);
		struct cfg_workload *w;

		if (n->type != YAML_MAPPING_NODE) {
			struct strbuf sb = STRBUF_INIT;

			join_choices(&sb, workload_keys);
			perr(ps, n, "a workload entry expects a mapping with keys %s, got %s",
			     sb.buf, is_null(n) ? "no value" : node_kind(n));
			strbuf_release(&sb);
			return -1;
		}
		e->workloads = xrealloc(e->workloads, (e->nworkloads + 1) * sizeof(*e->workloads));
		w = &e->workloads[e->nworkloads++];
		memset(w, 0, sizeof(*w));
		w->iterations = -1;
		w->warmup = -1;
		w->timeout_ns = 0;
		w->pos = pos_of(ps, n);
		if (for_each_pair(ps, n, workload_keys, "a workload", workload_pair, w))
			return -1;
		if (!w->name)
			return perr(ps, n, "workload entry without 'name' "
				    "(see `mmbench list workloads`)");
	}
	return 0;
}

/* ---- interference ----------------------------------------------------- */

/* "10%", "0.1" or "off" (the check switched off: -1). */
static int get_share(struct parse *ps, yaml_node_t *v, const char *key, double *out)
{
	const char *s;
	double d;

	if (want_scalar(ps, v, key, "a share like 10% or off"))
		return -1;
	s = scalar(v);
	if (!strcmp(s, "off")) {
		*out = -1;
		return 0;
	}
	if (units_parse_share(s, &d))
		return perr(ps, v, "'%s' expects a share like 10%% (or 0.1, or off), got '%s'", key, s);
	if (!(d >= 0 && d <= 1))
		return perr(ps, v, "'%s' must be a share between 0%% and 100%% (or off), got '%s'",
			    key, s);
	*out = d;
	return 0;
}

static int interference_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
			     void *data)
{
	struct interference_limits *l = &ps->e->limits;
	char err[256];
	int64_t b;

	if (!strcmp(key, "foreign_cpu"))
		return get_share(ps, v, key, &l->foreign_cpu);
	if (!strcmp(key, "steal"))
		return get_share(ps, v, key, &l->steal);
	if (!strcmp(key, "freq_drop"))
		return get_share(ps, v, key, &l->freq_drop);
	if (want_scalar(ps, v, key, "true or false"))
		return -1;
	if (units_parse_bool(scalar(v), &b, err, sizeof(err)))
		return perr(ps, v, "'%s': %s", key, err);
	if (!strcmp(key, "throttle"))
		l->throttle = b;
	else
		l->knobs = b;
	return 0;
}

/* ---- top level -------------------------------------------------------- */

static int top_pair(struct parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		    void *data)
{
	struct experiment *e = ps->e;
	int rc;

	if (!strcmp(key, "experiment")) {
		if (get_string(ps, v, key, &e->name))
			return -1;
		if (strchr(e->name, '\n'))
			return perr(ps, v, "'experiment' must be a one-line name");
		return 0;
	}
	if (!strcmp(key, "description")) {
		if (is_null(v))
			return 0;
		return get_string(ps, v, key, &e->description);
	}
	if ((rc = iteration_pair(ps, key, v, &e->iterations, &e->warmup, &e->timeout_ns)) != 1)
		return rc;
	if (!strcmp(key, "environment")) {
		if (is_null(v))
			return 0;
		if (want_mapping(ps, v, key, env_keys))
			return -1;
		return for_each_pair(ps, v, env_keys, "environment", env_pair, NULL);
	}
	if (!strcmp(key, "monitors"))
		return parse_monitors(ps, v);
	if (!strcmp(key, "counters"))
		return parse_counters(ps, v);
	if (!strcmp(key, "interference")) {
		if (is_null(v))
			return 0;
		if (want_mapping(ps, v, key, interference_cfg_keys))
			return -1;
		return for_each_pair(ps, v, interference_cfg_keys, "interference", interference_pair,
				     NULL);
	}
	return parse_workloads(ps, v);
}

/* 1-based line/column of a byte offset (reader errors carry only that). */
static void offset_to_pos(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int yaml_syntax_error(struct experiment *e, yaml_parser_t *parser, const char *text)
{
	size_t line, col;
	const char *problem = parser->problem ? parser->problem : "malformed YAML";
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (parser->error == YAML_READER_ERROR) {
		offset_to_pos(text, parser->problem_offset, &line, &col);
	} else {
		line = parser->problem_mark.line + 1;
		col = parser->problem_mark.column + 1;
	}
	strbuf_addf(&sb, "invalid YAML: %s", problem);
	if (parser->context)
		strbuf_addf(&sb, " (%s started at line %zu)", parser->context,
			    parser->context_mark.line + 1);
	if (parser->error == YAML_SCANNER_ERROR &&
	    parser->problem_mark.index < strlen(text) && text[parser->problem_mark.index] == '\t')
		strbuf_addstr(&sb, "; tabs are not allowed for indentation, use spaces");
	ret = error("%s:%zu:%zu: %s", e->path, line, col, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/*
 * Limits checked on libyaml's events, before a document is built: its
 * scanner is quadratic in the nesting depth (100k '[' took > 20 s) and a
 * document of a million workloads is gigabytes.  A real experiment nests
 * about 5 deep.
 */
#define CFG_MAX_DEPTH		32
#define CFG_MAX_WORKLOADS	1000
#define CFG_MAX_LIST		10000	/* items of any one list: values, monitors */

struct shape {
	bool map;		/* a mapping (else a sequence) */
	bool want_key;		/* mapping: the next node is a key */
	bool workloads;		/* the top-level workloads: list */
	bool key_workloads;	/* mapping: the last key was "workloads" (top level only) */
	size_t items;
};

static int check_shape(struct experiment *e)
{
	struct shape st[CFG_MAX_DEPTH + 1];
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, ret = 0;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		die("out of memory initialising the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)e->text, strlen(e->text));
	while (!done && !ret) {
		struct shape *top = depth ? &st[depth - 1] : NULL;
		size_t line, col;
		bool node = false, is_key = false;

		/* a syntax error is left to the loader, which reports it the usual way */
		if (!yaml_parser_parse(&parser, &ev))
			break;
		line = ev.start_mark.line + 1;
		col = ev.start_mark.column + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			node = true;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if (node && top) {
			if (top->map) {
				is_key = top->want_key;
				top->want_key = !top->want_key;
				if (is_key)
					top->key_workloads = depth == 1 && ev.type == YAML_SCALAR_EVENT &&
						!strcmp((const char *)ev.data.scalar.value, "workloads");
			} else if (top->workloads && ++top->items > CFG_MAX_WORKLOADS) {
				ret = error("%s:%zu:%zu: more than %d workloads in one experiment;"
					    " split it into several files", e->path, line, col,
					    CFG_MAX_WORKLOADS);
			} else if (!top->workloads && ++top->items > CFG_MAX_LIST) {
				ret = error("%s:%zu:%zu: a list of more than %d items; an experiment"
					    " needs far fewer (a generator like range:A..B:S makes"
					    " long lists)", e->path, line, col, CFG_MAX_LIST);
			}
		}
		if (!ret && (ev.type == YAML_SEQUENCE_START_EVENT ||
			     ev.type == YAML_MAPPING_START_EVENT)) {
			if (depth == CFG_MAX_DEPTH) {
				ret = error("%s:%zu:%zu: nested more than %d levels deep; an experiment"
					    " file needs about 5", e->path, line, col, CFG_MAX_DEPTH);
			} else {
				st[depth] = (struct shape){
					.map = ev.type == YAML_MAPPING_START_EVENT,
					.want_key = true,
					.workloads = top && top->map && !is_key && top->key_workloads &&
						     ev.type == YAML_SEQUENCE_START_EVENT,
				};
				depth++;
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return ret;
}

static int parse_document(struct parse *ps, yaml_node_t *root)
{
	struct experiment *e = ps->e;
	struct strbuf sb = STRBUF_INIT;

	if (!root || is_null(root) || root->type != YAML_MAPPING_NODE) {
		join_choices(&sb, top_keys);
		if (!root)
			error("%s:1:1: empty experiment file; expected a mapping with keys %s",
			      e->path, sb.buf);
		else
			perr(ps, root, "an experiment file expects a mapping with keys %s, got %s",
			     sb.buf, is_null(root) ? "no value" : node_kind(root));
		strbuf_release(&sb);
		return -1;
	}
	if (for_each_pair(ps, root, top_keys, NULL, top_pair, NULL))
		return -1;
	if (!e->name)
		return perr(ps, root, "missing 'experiment: NAME' (the experiment's name)");
	if (!e->nworkloads)
		return perr(ps, root, "missing 'workloads:' (a list of - name: WORKLOAD)");
	return 0;
}

int experiment_load_string(struct experiment *e, const char *path, const char *text)
{
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	struct parse ps = { .e = e, .doc = &doc };
	int ret = -1;

	experiment_release(e);
	e->path = xstrdup(path ? path : "<string>");
	e->text = xstrdup(text ? text : "");
	unit_ctx_host(&ps.units);

	if (check_shape(e))
		goto out;
	if (!yaml_parser_initialize(&parser))
		die("out of memory initialising the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)e->text, strlen(e->text));
	if (!yaml_parser_load(&parser, &doc)) {
		ret = yaml_syntax_error(e, &parser, e->text);
		yaml_parser_delete(&parser);
		goto out;
	}
	ret = parse_document(&ps, yaml_document_get_root_node(&doc));
	if (!ret) {
		/* One document per file: a second one would be silently ignored. */
		if (!yaml_parser_load(&parser, &extra)) {
			ret = yaml_syntax_error(e, &parser, e->text);
		} else {
			yaml_node_t *r2 = yaml_document_get_root_node(&extra);

			if (r2)
				ret = error("%s:%zu:%zu: only one YAML document per experiment "
					    "file; remove the second '---'", e->path,
					    extra.start_mark.line + 1, extra.start_mark.column + 1);
			yaml_document_delete(&extra);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
out:
	if (ret) {
		/* Leave a clean, empty experiment behind. */
		experiment_release(e);
	}
	return ret;
}

int experiment_load(struct experiment *e, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (read_input(&sb, path, MMB_CAP_EXPERIMENT, "an experiment config") < 0) {
		ret = -1;
		strbuf_release(&sb);
		experiment_release(e);
		return ret;
	}
	if (memchr(sb.buf, '\0', sb.len)) {
		strbuf_release(&sb);
		experiment_release(e);
		return error("%s: not a text file (contains NUL bytes)", path);
	}
	ret = experiment_load_string(e, path, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return ret;
}

/* ---- run --set -------------------------------------------------------- */

static const char *const set_keys[] = {
	"thp", "thp_defrag", "mthp.SIZE", "governor", "pin_cpu", "drop_caches", "swap.zram",
	"swap.comp", NULL
};

/*
 * The value is a plain scalar node of its own (never read as YAML, so
 * "{...}" or "#" stay text); "mthp.64K" and "swap.zram" wrap it in a
 * one-pair mapping.  env_pair then checks it as the file's own value.
 */
int experiment_set_env(struct experiment *e, const char *setting)
{
	const char *eq = strchr(setting, '='), *dot;
	struct strbuf origin = STRBUF_INIT, sb = STRBUF_INIT;
	yaml_document_t doc;
	struct parse ps = { .e = e, .doc = &doc };
	char *key;
	int node, ret;

	strbuf_addf(&origin, "--set %s", setting);
	ps.origin = origin.buf;
	if (strpbrk(setting, "\n\r")) {
		strbuf_release(&origin);
		return error("--set: KEY=VALUE must be one line");
	}
	if (!eq || eq == setting) {
		ret = error("%s: expected KEY=VALUE, e.g. --set thp=never", origin.buf);
		strbuf_release(&origin);
		return ret;
	}
	key = xstrndup(setting, (size_t)(eq - setting));
	dot = strchr(key, '.');
	if ((dot && strncmp(key, "mthp.", 5) && strncmp(key, "swap.", 5)) ||
	    (!dot && in_list(key, env_keys) < 0) || (dot && !dot[1])) {
		join_choices(&sb, set_keys);
		ret = error("%s: unknown environment key '%s'; valid keys: %s", origin.buf, key,
			    sb.buf);
		goto out_key;
	}
	if (!dot && (!strcmp(key, "mthp") || !strcmp(key, "swap"))) {
		ret = error("%s: '%s' is a mapping; set one of its keys, e.g. --set %s", origin.buf,
			    key, strcmp(key, "mthp") ? "swap.zram=1G" : "mthp.64K=always");
		goto out_key;
	}
	unit_ctx_host(&ps.units);
	if (!yaml_document_initialize(&doc, NULL, NULL, NULL, 1, 1))
		die("out of memory initialising a YAML document");
	node = yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)(eq + 1), (int)strlen(eq + 1),
					YAML_PLAIN_SCALAR_STYLE);
	if (dot) {
		int map = yaml_document_add_mapping(&doc, NULL, YAML_BLOCK_MAPPING_STYLE);
		int k = yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)(dot + 1),
						 (int)strlen(dot + 1), YAML_PLAIN_SCALAR_STYLE);
		const char *why;
		unsigned int kb;

		if (!node || !map || !k || !yaml_document_append_mapping_pair(&doc, map, k, node))
			die("out of memory building a YAML document");
		node = map;
		/* the override replaces the file's value for that size */
		kb = strncmp(key, "mthp.", 5) ? 0 : mthp_size_kb(dot + 1, &why);
		for (size_t i = 0; kb && i < e->env.nmthp; i++) {
			if (e->env.mthp[i].kb != kb)
				continue;
			free(e->env.mthp[i].value);
			memmove(&e->env.mthp[i], &e->env.mthp[i + 1],
				(e->env.nmthp - i - 1) * sizeof(*e->env.mthp));
			e->env.nmthp--;
			break;
		}
		key[dot - key] = '\0';
	}
	if (!node)
		die("out of memory building a YAML document");
	ret = env_pair(&ps, key, NULL, yaml_document_get_node(&doc, node), NULL);
	yaml_document_delete(&doc);
	if (!ret) {
		if (!e->text)
			e->text = xstrdup("");
		if (*e->text && e->text[strlen(e->text) - 1] != '\n')
			strbuf_addstr(&sb, "\n");
		strbuf_addf(&sb, "# %s\n", origin.buf);
		e->text = xrealloc(e->text, strlen(e->text) + sb.len + 1);
		strcpy(e->text + strlen(e->text), sb.buf);
	}
out_key:
	strbuf_release(&sb);
	free(key);
	strbuf_release(&origin);
	return ret;
}
