/* Recursive-descent JSON reader; depth-limited so hostile input can't blow the stack. */
#include "json.h"
#include "fmtnum.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 256

struct parser {
	const char *s, *end, *line_start;
	int line;
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct parser *p, const char *why)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "%d:%d: %s", p->line,
			 (int)(p->s - p->line_start) + 1, why);
	p->failed = 1;
	return -1;
}

static void skip_ws(struct parser *p)
{
	while (p->s < p->end) {
		char c = *p->s;

		if (c == '\n') {
			p->line++;
			p->line_start = p->s + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		p->s++;
	}
}

static void put_utf8(struct strbuf *sb, uint32_t cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int hex4(struct parser *p, uint32_t *out)
{
	uint32_t v = 0;

	if (p->end - p->s < 4)
		return fail(p, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = p->s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return fail(p, "bad hex digit in \\u escape");
	}
	p->s += 4;
	*out = v;
	return 0;
}

static int parse_string(struct parser *p, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	p->s++;		/* opening quote */
	strbuf_addstr(&sb, "");
	while (1) {
		char c;

		if (p->s >= p->end) {
			strbuf_release(&sb);
			return fail(p, "unterminated string");
		}
		c = *p->s++;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20) {
			p->s--;
			strbuf_release(&sb);
			return fail(p, "control character in string");
		}
		if (c != '\\') {
			strbuf_addch(&sb, c);
			continue;
		}
		if (p->s >= p->end) {
			strbuf_release(&sb);
			return fail(p, "unterminated string");
		}
		c = *p->s++;
		switch (c) {
		case '"': case '\\': case '/':
			strbuf_addch(&sb, c);
			break;
		case 'b': strbuf_addch(&sb, '\b'); break;
		case 'f': strbuf_addch(&sb, '\f'); break;
		case 'n': strbuf_addch(&sb, '\n'); break;
		case 'r': strbuf_addch(&sb, '\r'); break;
		case 't': strbuf_addch(&sb, '\t'); break;
		case 'u': {
			const char *esc = p->s - 2;
			uint32_t cp = 0, lo = 0;

			if (hex4(p, &cp)) {
				strbuf_release(&sb);
				return -1;
			}
			/* strings are C strings here: a NUL would cut the rest off */
			if (!cp) {
				p->s = esc;
				strbuf_release(&sb);
				return fail(p, "\\u0000 (NUL) in a string is not supported");
			}
			if (cp >= 0xd800 && cp < 0xdc00 && p->end - p->s >= 6 &&
			    p->s[0] == '\\' && p->s[1] == 'u') {
				p->s += 2;
				if (hex4(p, &lo)) {
					strbuf_release(&sb);
					return -1;
				}
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					cp = 0xfffd;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			put_utf8(&sb, cp);
			break;
		}
		default:
			p->s--;
			strbuf_release(&sb);
			return fail(p, "bad escape in string");
		}
	}
	*out = strbuf_detach(&sb);
	return 0;
}

/* Step over the literal word (true, false, null) when it comes next. */
static bool take_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return false;
	p->s += n;
	return true;
}

static int parse_value(struct parser *p, struct json *j, int depth);

static int parse_container(struct parser *p, struct json *j, int depth, bool object)
{
	size_t alloc = 0, kalloc = 0;
	char close = object ? '}' : ']';

	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	while (1) {
		char *key = NULL;

		skip_ws(p);
		if (object) {
			if (p->s >= p->end || *p->s != '"')
				return fail(p, "expected a string key");
			if (parse_string(p, &key))
				return -1;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				return fail(p, "expected ':' after key");
			}
			p->s++;
			ALLOC_GROW(j->keys, j->n + 1, kalloc);
			j->keys[j->n] = key;
		}
		ALLOC_GROW(j->items, j->n + 1, alloc);
		memset(&j->items[j->n], 0, sizeof(j->items[j->n]));
		j->n++;
		if (parse_value(p, &j->items[j->n - 1], depth + 1))
			return -1;
		skip_ws(p);
		if (p->s >= p->end)
			return fail(p, object ? "unterminated object" : "unterminated array");
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			return 0;
		}
		return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_number(struct parser *p, struct json *j)
{
	const char *start = p->s, *why;
	size_t len;

	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s >= p->end || !isdigit((unsigned char)*p->s))
		return fail(p, "bad number");
	while (p->s < p->end && (isdigit((unsigned char)*p->s) || strchr(".eE+-", *p->s)))
		p->s++;
	len = (size_t)(p->s - start);
	if (len >= 64) {
		p->s = start;
		return fail(p, "number too long");
	}
	/* the one reading of a written number: 1e-400 is not 0, 1e400 not inf */
	if (num_parse(start, len, &j->num, &why)) {
		p->s = start;
		return fail(p, strcmp(why, "not a decimal number") ? why : "bad number");
	}
	j->type = JSON_NUMBER;
	return 0;
}

static int parse_value(struct parser *p, struct json *j, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested too deeply");
	skip_ws(p);
	j->line = p->line;
	j->col = (int)(p->s - p->line_start) + 1;
	if (p->s >= p->end)
		return fail(p, "unexpected end of input");
	switch (*p->s) {
	case '{':
		j->type = JSON_OBJECT;
		return parse_container(p, j, depth, true);
	case '[':
		j->type = JSON_ARRAY;
		return parse_container(p, j, depth, false);
	case '"':
		j->type = JSON_STRING;
		return parse_string(p, &j->str);
	case 't':
	case 'f':
	case 'n':
		if (take_literal(p, "null")) {
			j->type = JSON_NULL;
			return 0;
		}
		j->b = take_literal(p, "true");
		if (!j->b && !take_literal(p, "false"))
			break;
		j->type = JSON_BOOL;
		return 0;
	default:
		if (*p->s == '-' || isdigit((unsigned char)*p->s))
			return parse_number(p, j);
	}
	return fail(p, "unexpected character");
}

static void json_release(struct json *j)
{
	free(j->str);
	for (size_t i = 0; i < j->n; i++) {
		json_release(&j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
}

void json_free(struct json *j)
{
	if (!j)
		return;
	json_release(j);
	free(j);
}

int json_parse(const char *text, size_t len, struct json **out, char *err, size_t errlen)
{
	struct parser p = { text, text + len, text, 1, err, errlen, 0 };
	struct json *j = xcalloc(1, sizeof(*j));

	*out = NULL;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))	/* UTF-8 BOM */
		p.s += 3;
	if (parse_value(&p, j, 0) == 0) {
		skip_ws(&p);
		if (p.s < p.end)
			fail(&p, "trailing characters after the JSON value");
	}
	if (p.failed) {
		json_free(j);
		return -1;
	}
	*out = j;
	return 0;
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

double json_get_num(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_NUMBER ? v->num : NAN;
}

bool json_utf8_valid(const char *s)
{
	for (size_t n; *s; s += n)
		if (!(n = utf8_len(s)))
			return false;
	return true;
}

void json_add_string(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t n;

		if (c >= 0x80) {
			/* JSON is UTF-8: a byte that is not UTF-8 becomes U+FFFD */
			n = utf8_len(s);
			if (!n) {
				strbuf_addstr(sb, "\\ufffd");
				continue;
			}
			strbuf_add(sb, s, n);
			s += n - 1;
		} else if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)c);
		} else if (c == '\n') {
			strbuf_addstr(sb, "\\n");
		} else if (c == '\t') {
			strbuf_addstr(sb, "\\t");
		} else if (c < 0x20) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, (char)c);
		}
	}
	strbuf_addch(sb, '"');
}

void json_add_number(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_addstr(sb, "null");
	else
		strbuf_addf(sb, "%.17g", v);
}
