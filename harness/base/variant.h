/*
 * A variant as typed values: the matrix parameters of one run of a
 * workload, each with its name, its type (the plugin descriptor's
 * enum mmb_param_type) and its value.  The database keeps them as JSON
 * (series.params_json):
 *
 *	[{"name":"clients","type":"int","value":4,"text":"4"},
 *	 {"name":"mode","type":"enum","value":"threads","text":"threads"}]
 *
 * "text" is the value as the variant's name shows it ("size=4K"), so the
 * name is rebuilt from the typed form.  A variant known only by its name
 * (an import, a row older than the column) is typed from the text once:
 * an integer is an int, another finite number a double, anything else a
 * string.
 */
#ifndef MMB_VARIANT_H
#define MMB_VARIANT_H

#include <mmbench/workload.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct variant_param {
	char *name;
	enum mmb_param_type type;
	int64_t i;		/* INT, SIZE (bytes), DURATION (ns), BOOL */
	double d;		/* the value as a number (NaN: not a number) */
	char *text;		/* as in the variant's name: "4", "4K", "threads" */
};

struct variant {
	struct variant_param *p;
	size_t n;
};

/* Type "k=v,k=v" ("" is no parameter). */
void variant_from_text(struct variant *v, const char *text);
/* Append one typed parameter (copies name and text). */
void variant_add(struct variant *v, const char *name, enum mmb_param_type type,
		 int64_t i, double d, const char *text);
char *variant_to_json(const struct variant *v);
/* 0, or -1 when json is not a variant (err says why). */
int variant_from_json(struct variant *v, const char *json, char *err, size_t errlen);
/* The name: "clients=4,mode=threads". */
char *variant_to_text(const struct variant *v);
/* The JSON of a variant known by its name only. */
char *variant_json_from_text(const char *text);

const struct variant_param *variant_find(const struct variant *v, const char *name);
/* A number (int, size, duration, double): its value in *x. */
bool variant_param_number(const struct variant_param *p, double *x);
void variant_release(struct variant *v);

#endif
