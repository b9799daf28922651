/* Typed variants and their JSON (variant.h). */
#include "variant.h"
#include "json.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
	[MMB_PARAM_INT] = "int", [MMB_PARAM_SIZE] = "size", [MMB_PARAM_DURATION] = "duration",
	[MMB_PARAM_BOOL] = "bool", [MMB_PARAM_ENUM] = "enum", [MMB_PARAM_STRING] = "string",
	[MMB_PARAM_DOUBLE] = "double",
};

void variant_add(struct variant *v, const char *name, enum mmb_param_type type,
		 int64_t i, double d, const char *text)
{
	struct variant_param *p;

	v->p = xrealloc(v->p, (v->n + 1) * sizeof(*v->p));
	p = &v->p[v->n++];
	p->name = xstrdup(name);
	p->type = type;
	p->i = i;
	p->d = d;
	p->text = xstrdup(text);
}

void variant_from_text(struct variant *v, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;

	v->p = NULL;
	v->n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *val = eq ? eq + 1 : t, *end;
		long long i;
		double d;

		if (eq)
			*eq = '\0';
		errno = 0;
		i = strtoll(val, &end, 10);
		if (*val && !*end && !errno) {
			variant_add(v, eq ? t : "", MMB_PARAM_INT, i, (double)i, val);
			continue;
		}
		d = strtod(val, &end);
		if (*val && !*end && isfinite(d))
			variant_add(v, eq ? t : "", MMB_PARAM_DOUBLE, 0, d, val);
		else
			variant_add(v, eq ? t : "", MMB_PARAM_STRING, 0, NAN, val);
	}
	free(copy);
}

static bool integral(enum mmb_param_type t)
{
	return t == MMB_PARAM_INT || t == MMB_PARAM_SIZE || t == MMB_PARAM_DURATION ||
	       t == MMB_PARAM_BOOL;
}

char *variant_to_json(const struct variant *v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "[");
	for (size_t k = 0; k < v->n; k++) {
		const struct variant_param *p = &v->p[k];

		strbuf_addstr(&sb, k ? ",{\"name\":" : "{\"name\":");
		json_add_string(&sb, p->name);
		strbuf_addf(&sb, ",\"type\":\"%s\",\"value\":", type_names[p->type]);
		if (integral(p->type))
			strbuf_addf(&sb, "%lld", (long long)p->i);
		else if (p->type == MMB_PARAM_DOUBLE)
			json_add_number(&sb, p->d);
		else
			json_add_string(&sb, p->text);
		strbuf_addstr(&sb, ",\"text\":");
		json_add_string(&sb, p->text);
		strbuf_addstr(&sb, "}");
	}
	strbuf_addstr(&sb, "]");
	return strbuf_detach(&sb);
}

static int type_of(const char *name, enum mmb_param_type *t)
{
	for (size_t k = 0; k < ARRAY_SIZE(type_names); k++)
		if (type_names[k] && !strcmp(type_names[k], name)) {
			*t = (enum mmb_param_type)k;
			return 0;
		}
	return -1;
}

int variant_from_json(struct variant *v, const char *json, char *err, size_t errlen)
{
	struct json *j;

	v->p = NULL;
	v->n = 0;
	if (json_parse(json, strlen(json), &j, err, errlen))
		return -1;
	if (j->type != JSON_ARRAY) {
		json_free(j);
		snprintf(err, errlen, "a variant is a JSON array");
		return -1;
	}
	for (size_t k = 0; k < j->n; k++) {
		const struct json *e = &j->items[k], *name = json_get(e, "name"),
				  *type = json_get(e, "type"), *val = json_get(e, "value"),
				  *text = json_get(e, "text");
		enum mmb_param_type t;
		bool num;

		if (e->type != JSON_OBJECT || !name || name->type != JSON_STRING || !type ||
		    type->type != JSON_STRING || type_of(type->str, &t) || !val || !text ||
		    text->type != JSON_STRING) {
			snprintf(err, errlen, "parameter %zu: want name, type, value and text", k + 1);
			goto bad;
		}
		num = integral(t) || t == MMB_PARAM_DOUBLE;
		if (val->type != (num ? JSON_NUMBER : JSON_STRING)) {
			snprintf(err, errlen, "parameter '%s': a %s value must be a %s", name->str,
				 type->str, num ? "number" : "string");
			goto bad;
		}
		variant_add(v, name->str, t, integral(t) ? (int64_t)val->num : 0,
			    num ? val->num : NAN, text->str);
	}
	json_free(j);
	return 0;
bad:
	json_free(j);
	variant_release(v);
	return -1;
}

char *variant_to_text(const struct variant *v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t k = 0; k < v->n; k++) {
		if (k)
			strbuf_addch(&sb, ',');
		if (*v->p[k].name)
			strbuf_addf(&sb, "%s=", v->p[k].name);
		strbuf_addstr(&sb, v->p[k].text);
	}
	return strbuf_detach(&sb);
}

char *variant_json_from_text(const char *text)
{
	struct variant v;
	char *j;

	variant_from_text(&v, text);
	j = variant_to_json(&v);
	variant_release(&v);
	return j;
}

const struct variant_param *variant_find(const struct variant *v, const char *name)
{
	const struct variant_param *found = NULL;

	/* the last one wins, as a repeated key did in the text */
	for (size_t k = 0; k < v->n; k++)
		if (!strcmp(v->p[k].name, name))
			found = &v->p[k];
	return found;
}

bool variant_param_number(const struct variant_param *p, double *x)
{
	if (!p || !(p->type == MMB_PARAM_INT || p->type == MMB_PARAM_SIZE ||
		    p->type == MMB_PARAM_DURATION || p->type == MMB_PARAM_DOUBLE) || !isfinite(p->d))
		return false;
	*x = p->d;
	return true;
}

void variant_release(struct variant *v)
{
	for (size_t k = 0; k < v->n; k++) {
		free(v->p[k].name);
		free(v->p[k].text);
	}
	free(v->p);
	v->p = NULL;
	v->n = 0;
}
