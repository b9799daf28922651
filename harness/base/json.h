/*
 * A small JSON reader (DOM) and writer helpers: enough for lkp's
 * matrix.json, the statistics reference vectors and `compare --format json`.
 * Numbers are doubles; strings are UTF-8 with \u escapes decoded.
 */
#ifndef MMB_JSON_H
#define MMB_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool b;
	double num;
	char *str;		/* JSON_STRING */
	size_t n;		/* items in an array or object */
	struct json *items;	/* [n] values */
	char **keys;		/* [n] keys of an object, in file order */
	int line, col;		/* where the value starts (1-based) */
};

/*
 * Parse text[0..len).  On error returns -1 and writes "LINE:COL: why" into
 * err.  *out is malloc'ed; free with json_free().
 */
int json_parse(const char *text, size_t len, struct json **out, char *err, size_t errlen);
void json_free(struct json *j);

/* Member of an object (first match), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* Number at obj.key, or NAN when absent or not a number. */
double json_get_num(const struct json *obj, const char *key);

/*
 * Append s as a JSON string literal (with quotes).  Every byte that is not
 * part of well-formed UTF-8 is written as \ufffd (the replacement
 * character), so the output always parses with a strict parser.
 */
void json_add_string(struct strbuf *sb, const char *s);
/* Is s well-formed UTF-8 (what json_add_string() keeps as it is)? */
bool json_utf8_valid(const char *s);
/* Append a number: %.17g, or null for NaN/inf (JSON has neither). */
void json_add_number(struct strbuf *sb, double v);

#endif
