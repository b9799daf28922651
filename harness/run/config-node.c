/*
 * The YAML node helpers config.c and config-env.c share (config-internal.h):
 * positions and "FILE:LINE:COL: why" messages naming the valid choices,
 * node kinds, mappings walked key by key, and typed values.  Below both,
 * so neither calls up into the other for them.
 */
#include "config-internal.h"
#include "units.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* ---- messages ------------------------------------------------------- */

struct cfg_pos cfg_pos_of(struct cfg_parse *ps, yaml_node_t *n)
{
	struct cfg_pos p = { ps->e->path, (int)n->start_mark.line + 1,
			     (int)n->start_mark.column + 1 };
	return p;
}

MMB_PRINTF_FMT(3, 4)
int cfg_perr(struct cfg_parse *ps, yaml_node_t *n, const char *fmt, ...)
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

void cfg_join_choices(struct strbuf *sb, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", list[i]);
}

int cfg_perr_choices(struct cfg_parse *ps, yaml_node_t *n, const char *what,
			const char *got, const char *const *list, const char *listname)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	cfg_join_choices(&sb, list);
	ret = cfg_perr(ps, n, "%s '%s'; valid %s: %s", what, got, listname, sb.buf);
	strbuf_release(&sb);
	return ret;
}

const char *cfg_node_kind(yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE: return "a mapping";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_SCALAR_NODE: return "a scalar";
	default: return "nothing";
	}
}

const char *cfg_scalar(yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* A plain empty scalar or ~ / null: the key was given without a value. */
bool cfg_is_null(yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !n->data.scalar.length || !strcmp(cfg_scalar(n), "~") ||
	       !strcmp(cfg_scalar(n), "null") || !strcmp(cfg_scalar(n), "Null") ||
	       !strcmp(cfg_scalar(n), "NULL");
}

/* Check n is a non-empty scalar; `what` describes what the key expects. */
int cfg_want_scalar(struct cfg_parse *ps, yaml_node_t *n, const char *key, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return cfg_perr(ps, n, "'%s' expects %s, got %s", key, what, cfg_node_kind(n));
	if (cfg_is_null(n))
		return cfg_perr(ps, n, "'%s' needs a value: %s", key, what);
	if (memchr(cfg_scalar(n), '\0', n->data.scalar.length))
		return cfg_perr(ps, n, "'%s' contains a NUL character", key);
	return 0;
}

int cfg_want_mapping(struct cfg_parse *ps, yaml_node_t *n, const char *key,
			const char *const *keys)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (n->type == YAML_MAPPING_NODE)
		return 0;
	if (keys) {
		cfg_join_choices(&sb, keys);
		ret = cfg_perr(ps, n, "'%s' expects a mapping with keys %s, got %s", key, sb.buf,
			   cfg_node_kind(n));
	} else {
		ret = cfg_perr(ps, n, "'%s' expects a mapping, got %s", key, cfg_node_kind(n));
	}
	strbuf_release(&sb);
	return ret;
}

int cfg_in_list(const char *s, const char *const *list)
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

int cfg_for_each_pair(struct cfg_parse *ps, yaml_node_t *map, const char *const *keys,
			 const char *where, cfg_pair_fn fn, void *data)
{
	yaml_node_pair_t *pair, *q;

	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(ps->doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(ps->doc, pair->value);

		if (k->type != YAML_SCALAR_NODE || cfg_is_null(k))
			return cfg_perr(ps, k, "expected a key name%s%s, got %s", where ? " in " : "",
				    where ? where : "", cfg_node_kind(k));
		for (q = map->data.mapping.pairs.start; q < pair; q++) {
			yaml_node_t *qk = yaml_document_get_node(ps->doc, q->key);

			if (qk->type == YAML_SCALAR_NODE && !strcmp(cfg_scalar(qk), cfg_scalar(k)))
				return cfg_perr(ps, k, "duplicate key '%s' (first at line %zu)", cfg_scalar(k),
					    qk->start_mark.line + 1);
		}
		if (keys && cfg_in_list(cfg_scalar(k), keys) < 0) {
			struct strbuf sb = STRBUF_INIT;

			cfg_join_choices(&sb, keys);
			cfg_perr(ps, k, "unknown key '%s'%s%s; valid keys: %s", cfg_scalar(k),
			     where ? " in " : "", where ? where : "", sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		if (fn(ps, cfg_scalar(k), k, v, data))
			return -1;
	}
	return 0;
}

/* ---- typed values ----------------------------------------------------- */

int cfg_get_string(struct cfg_parse *ps, yaml_node_t *n, const char *key, char **out)
{
	if (cfg_want_scalar(ps, n, key, "a string"))
		return -1;
	free(*out);
	*out = xstrdup(cfg_scalar(n));
	return 0;
}

int cfg_get_count(struct cfg_parse *ps, yaml_node_t *n, const char *key, int min, int *out)
{
	char err[256];
	int64_t v;

	if (cfg_want_scalar(ps, n, key, "a whole number"))
		return -1;
	if (units_parse_int(cfg_scalar(n), &ps->units, &v, err, sizeof(err)))
		return cfg_perr(ps, n, "'%s': %s", key, err);
	if (v < min)
		return cfg_perr(ps, n, "'%s' must be >= %d, got %lld", key, min, (long long)v);
	if (v > INT_MAX)
		return cfg_perr(ps, n, "'%s' is too large (at most %d), got %lld", key, INT_MAX,
			    (long long)v);
	*out = (int)v;
	return 0;
}

int cfg_get_timeout(struct cfg_parse *ps, yaml_node_t *n, const char *key, int64_t *out)
{
	char err[256];
	int64_t v;

	if (cfg_want_scalar(ps, n, key, "a duration like 600s or 30m"))
		return -1;
	if (units_parse_duration(cfg_scalar(n), &v, err, sizeof(err)))
		return cfg_perr(ps, n, "'%s': %s", key, err);
	if (v <= 0)
		return cfg_perr(ps, n, "'%s' must be greater than 0, got '%s'", key, cfg_scalar(n));
	*out = v;
	return 0;
}

int cfg_get_choice(struct cfg_parse *ps, yaml_node_t *n, const char *key,
		      const char *const *list, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	if (n->type != YAML_SCALAR_NODE || cfg_is_null(n)) {
		cfg_join_choices(&sb, list);
		cfg_perr(ps, n, "'%s' expects one of %s, got %s", key, sb.buf,
		     cfg_is_null(n) ? "no value" : cfg_node_kind(n));
		strbuf_release(&sb);
		return -1;
	}
	if (cfg_in_list(cfg_scalar(n), list) < 0) {
		char what[128];

		snprintf(what, sizeof(what), "invalid %s value", key);
		return cfg_perr_choices(ps, n, what, cfg_scalar(n), list, "values");
	}
	free(*out);
	*out = xstrdup(cfg_scalar(n));
	return 0;
}
