/*
 * Experiment files: YAML (libyaml document API) into struct experiment.
 *
 * Only the shape is checked here; plan.c checks workload and parameter names
 * and values against the plugins, using the positions kept in cfg_pos.  Every
 * error is one line "FILE:LINE:COL: why", naming the valid choices.
 */
#include "config.h"
#include "config-internal.h"
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
static const char *const workload_keys[] = {
	"name", "iterations", "warmup", "timeout", "params", NULL
};
static const char *const monitor_values[] = { "vmstat", "meminfo", NULL };


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

/* ---- monitors --------------------------------------------------------- */

static int monitor_one(struct cfg_parse *ps, yaml_node_t *n)
{
	struct experiment *e = ps->e;

	if (n->type != YAML_SCALAR_NODE || cfg_is_null(n))
		return cfg_perr(ps, n, "'monitors' expects a list of monitor names "
			    "(vmstat, meminfo), got %s", cfg_is_null(n) ? "no value" : cfg_node_kind(n));
	switch (cfg_in_list(cfg_scalar(n), monitor_values)) {
	case 0: e->mon_vmstat = true; return 0;
	case 1: e->mon_meminfo = true; return 0;
	}
	return cfg_perr_choices(ps, n, "unknown monitor", cfg_scalar(n), monitor_values, "monitors");
}

static int parse_monitors(struct cfg_parse *ps, yaml_node_t *v)
{
	struct experiment *e = ps->e;

	e->mon_vmstat = e->mon_meminfo = false;
	if (v->type == YAML_SCALAR_NODE && !strcmp(cfg_scalar(v), "none"))
		return 0;
	if (v->type == YAML_SCALAR_NODE && !cfg_is_null(v))
		return monitor_one(ps, v);
	if (v->type != YAML_SEQUENCE_NODE)
		return cfg_perr(ps, v, "'monitors' expects a list like [vmstat, meminfo] or none, got %s",
			    cfg_is_null(v) ? "no value" : cfg_node_kind(v));
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++)
		if (monitor_one(ps, yaml_document_get_node(ps->doc, *it)))
			return -1;
	return 0;
}

/* ---- counters (docs/counters.md) --------------------------------------- */

static int counter_one(struct cfg_parse *ps, yaml_node_t *n)
{
	struct experiment *e = ps->e;
	const char *why;

	if (n->type != YAML_SCALAR_NODE || cfg_is_null(n))
		return cfg_perr(ps, n, "'counters' expects a list of event names, got %s",
			    cfg_is_null(n) ? "no value" : cfg_node_kind(n));
	if ((why = counters_name_error(cfg_scalar(n))))
		return cfg_perr(ps, n, "counters: '%s': %s", cfg_scalar(n), why);
	for (size_t i = 0; i < e->ncounters; i++)
		if (!strcmp(e->counters[i], cfg_scalar(n)))
			return cfg_perr(ps, n, "counters: '%s' is listed twice", cfg_scalar(n));
	if (e->ncounters == COUNTERS_MAX)
		return cfg_perr(ps, n, "counters: more than %d events", COUNTERS_MAX);
	e->counters = xrealloc(e->counters, (e->ncounters + 1) * sizeof(*e->counters));
	e->counters[e->ncounters++] = xstrdup(cfg_scalar(n));
	return 0;
}

static int parse_counters(struct cfg_parse *ps, yaml_node_t *v)
{
	if (v->type == YAML_SCALAR_NODE && !strcmp(cfg_scalar(v), "none")) {
		ps->e->no_counters = true;
		return 0;
	}
	if (v->type == YAML_SCALAR_NODE && !cfg_is_null(v))
		return counter_one(ps, v);
	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.start == v->data.sequence.items.top)
		return cfg_perr(ps, v, "'counters' expects a list like [page-faults, tlb:tlb_flush] or none, got %s",
			    cfg_is_null(v) ? "no value" : v->type == YAML_SEQUENCE_NODE ? "an empty list" : cfg_node_kind(v));
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++)
		if (counter_one(ps, yaml_document_get_node(ps->doc, *it)))
			return -1;
	return 0;
}

/* ---- workloads -------------------------------------------------------- */

static void param_add_value(struct cfg_param *p, struct cfg_parse *ps, yaml_node_t *n)
{
	p->values = xrealloc(p->values, (p->nvalues + 1) * sizeof(*p->values));
	p->values[p->nvalues].text = xstrdup(cfg_scalar(n));
	p->values[p->nvalues].pos = cfg_pos_of(ps, n);
	p->nvalues++;
}

static int param_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		      void *data)
{
	struct cfg_workload *w = data;
	struct cfg_param *p;

	/* Check before adding so a failure leaves nothing half-built. */
	if (v->type == YAML_MAPPING_NODE || cfg_is_null(v))
		return cfg_perr(ps, v, "param '%s' expects a value or a list of values, got %s", key,
			    cfg_is_null(v) ? "no value" : "a mapping");
	if (v->type == YAML_SEQUENCE_NODE) {
		if (v->data.sequence.items.start == v->data.sequence.items.top)
			return cfg_perr(ps, v, "param '%s' has an empty list; give at least one value",
				    key);
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *n = yaml_document_get_node(ps->doc, *it);

			if (n->type != YAML_SCALAR_NODE || cfg_is_null(n))
				return cfg_perr(ps, n, "param '%s': list elements must be single values, "
					    "got %s", key, cfg_is_null(n) ? "no value" : cfg_node_kind(n));
			if (memchr(cfg_scalar(n), '\0', n->data.scalar.length))
				return cfg_perr(ps, n, "param '%s' contains a NUL character", key);
		}
	} else if (memchr(cfg_scalar(v), '\0', v->data.scalar.length)) {
		return cfg_perr(ps, v, "param '%s' contains a NUL character", key);
	}

	w->params = xrealloc(w->params, (w->nparams + 1) * sizeof(*w->params));
	p = &w->params[w->nparams++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(key);
	p->pos = cfg_pos_of(ps, k);
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
static int iteration_pair(struct cfg_parse *ps, const char *key, yaml_node_t *v, int *iterations,
			  int *warmup, int64_t *timeout_ns)
{
	if (!strcmp(key, "iterations"))
		return cfg_get_count(ps, v, key, 1, iterations);
	if (!strcmp(key, "warmup"))
		return cfg_get_count(ps, v, key, 0, warmup);
	if (!strcmp(key, "timeout"))
		return cfg_get_timeout(ps, v, key, timeout_ns);
	return 1;
}

static int workload_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
			 void *data)
{
	struct cfg_workload *w = data;
	int rc;

	if (!strcmp(key, "name")) {
		if (cfg_get_string(ps, v, key, &w->name))
			return -1;
		w->pos = cfg_pos_of(ps, v);
		return 0;
	}
	if ((rc = iteration_pair(ps, key, v, &w->iterations, &w->warmup, &w->timeout_ns)) != 1)
		return rc;
	/* params */
	if (cfg_is_null(v))
		return 0;	/* "params:" with nothing under it: all defaults */
	if (cfg_want_mapping(ps, v, key, NULL))
		return -1;
	return cfg_for_each_pair(ps, v, NULL, NULL, param_pair, w);
}

static int parse_workloads(struct cfg_parse *ps, yaml_node_t *v)
{
	struct experiment *e = ps->e;

	if (v->type != YAML_SEQUENCE_NODE)
		return cfg_perr(ps, v, "'workloads' expects a list of workloads "
			    "(- name: WORKLOAD), got %s", cfg_is_null(v) ? "no value" : cfg_node_kind(v));
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return cfg_perr(ps, v, "'workloads' is empty; list at least one (- name: WORKLOAD)");
	for (yaml_node_item_t *it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *n = yaml_document_get_node(ps->doc, *it);
		struct cfg_workload *w;

		if (n->type != YAML_MAPPING_NODE) {
			struct strbuf sb = STRBUF_INIT;

			cfg_join_choices(&sb, workload_keys);
			cfg_perr(ps, n, "a workload entry expects a mapping with keys %s, got %s",
			     sb.buf, cfg_is_null(n) ? "no value" : cfg_node_kind(n));
			strbuf_release(&sb);
			return -1;
		}
		e->workloads = xrealloc(e->workloads, (e->nworkloads + 1) * sizeof(*e->workloads));
		w = &e->workloads[e->nworkloads++];
		memset(w, 0, sizeof(*w));
		w->iterations = -1;
		w->warmup = -1;
		w->timeout_ns = 0;
		w->pos = cfg_pos_of(ps, n);
		if (cfg_for_each_pair(ps, n, workload_keys, "a workload", workload_pair, w))
			return -1;
		if (!w->name)
			return cfg_perr(ps, n, "workload entry without 'name' "
				    "(see `mmbench list workloads`)");
	}
	return 0;
}

/* ---- interference ----------------------------------------------------- */

/* "10%", "0.1" or "off" (the check switched off: -1). */
static int get_share(struct cfg_parse *ps, yaml_node_t *v, const char *key, double *out)
{
	const char *s;
	double d;

	if (cfg_want_scalar(ps, v, key, "a share like 10% or off"))
		return -1;
	s = cfg_scalar(v);
	if (!strcmp(s, "off")) {
		*out = -1;
		return 0;
	}
	if (units_parse_share(s, &d))
		return cfg_perr(ps, v, "'%s' expects a share like 10%% (or 0.1, or off), got '%s'", key, s);
	if (!(d >= 0 && d <= 1))
		return cfg_perr(ps, v, "'%s' must be a share between 0%% and 100%% (or off), got '%s'",
			    key, s);
	*out = d;
	return 0;
}

static int interference_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
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
	if (cfg_want_scalar(ps, v, key, "true or false"))
		return -1;
	if (units_parse_bool(cfg_scalar(v), &b, err, sizeof(err)))
		return cfg_perr(ps, v, "'%s': %s", key, err);
	if (!strcmp(key, "throttle"))
		l->throttle = b;
	else
		l->knobs = b;
	return 0;
}

/* ---- top level -------------------------------------------------------- */

static int top_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		    void *data)
{
	struct experiment *e = ps->e;
	int rc;

	if (!strcmp(key, "experiment")) {
		if (cfg_get_string(ps, v, key, &e->name))
			return -1;
		if (strchr(e->name, '\n'))
			return cfg_perr(ps, v, "'experiment' must be a one-line name");
		return 0;
	}
	if (!strcmp(key, "description")) {
		if (cfg_is_null(v))
			return 0;
		return cfg_get_string(ps, v, key, &e->description);
	}
	if ((rc = iteration_pair(ps, key, v, &e->iterations, &e->warmup, &e->timeout_ns)) != 1)
		return rc;
	if (!strcmp(key, "environment")) {
		if (cfg_is_null(v))
			return 0;
		return cfg_environment(ps, v, key);
	}
	if (!strcmp(key, "monitors"))
		return parse_monitors(ps, v);
	if (!strcmp(key, "counters"))
		return parse_counters(ps, v);
	if (!strcmp(key, "interference")) {
		if (cfg_is_null(v))
			return 0;
		if (cfg_want_mapping(ps, v, key, interference_cfg_keys))
			return -1;
		return cfg_for_each_pair(ps, v, interference_cfg_keys, "interference", interference_pair,
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
	struct shape st[CFG_MAX_DEPTH + 1] = { 0 };
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

static int parse_document(struct cfg_parse *ps, yaml_node_t *root)
{
	struct experiment *e = ps->e;
	struct strbuf sb = STRBUF_INIT;

	if (!root || cfg_is_null(root) || root->type != YAML_MAPPING_NODE) {
		cfg_join_choices(&sb, top_keys);
		if (!root)
			error("%s:1:1: empty experiment file; expected a mapping with keys %s",
			      e->path, sb.buf);
		else
			cfg_perr(ps, root, "an experiment file expects a mapping with keys %s, got %s",
			     sb.buf, cfg_is_null(root) ? "no value" : cfg_node_kind(root));
		strbuf_release(&sb);
		return -1;
	}
	if (cfg_for_each_pair(ps, root, top_keys, NULL, top_pair, NULL))
		return -1;
	if (!e->name)
		return cfg_perr(ps, root, "missing 'experiment: NAME' (the experiment's name)");
	if (!e->nworkloads)
		return cfg_perr(ps, root, "missing 'workloads:' (a list of - name: WORKLOAD)");
	return 0;
}

int experiment_load_string(struct experiment *e, const char *path, const char *text)
{
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	struct cfg_parse ps = { .e = e, .doc = &doc };
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
