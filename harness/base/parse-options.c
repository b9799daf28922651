/* The option parser every command uses (parse-options.h). */
#include "parse-options.h"
#include "fmtnum.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool looks_like_option(const char *v)
{
	char *end;

	if (v[0] != '-' || !v[1])
		return false;
	(void)strtod(v, &end);
	return *end != '\0';
}

static const struct option *find_long(const struct option *o, const char *name, size_t len)
{
	for (; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct option *find_short(const struct option *o, char c)
{
	for (; o->type != OPTION_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

static int bad_number(const struct option *o, const char *name, const char *v)
{
	if (o->what)
		return error("%s wants %s, not '%s'", name, o->what, v);
	if (o->type == OPTION_DOUBLE || (o->min == INT_MIN && o->max == INT_MAX))
		return error("%s '%s': expected a number", name, v);
	return error("%s '%s': expected a number %ld..%ld", name, v, o->min, o->max);
}

/* Store v (NULL for an option without a value) the way o says; name as typed. */
static int take(const struct option *o, const char *name, const char *v)
{
	char *end;

	switch (o->type) {
	case OPTION_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = v;
		return 0;
	case OPTION_INT: {
		long n;

		errno = 0;
		n = strtol(v, &end, 10);
		if (!*v || *end || errno || n < o->min || n > o->max || n < INT_MIN || n > INT_MAX)
			return bad_number(o, name, v);
		*(int *)o->value = (int)n;
		return 0;
	}
	case OPTION_DOUBLE: {
		double d;
		const char *why;

		if (num_parse(v, strlen(v), &d, &why))
			return bad_number(o, name, v);
		*(double *)o->value = d;
		return 0;
	}
	case OPTION_LIST: {
		const char ***list = o->value;

		*list = xrealloc(*list, (*o->nr + 1) * sizeof(**list));
		(*list)[(*o->nr)++] = v;
		return 0;
	}
	case OPTION_CALLBACK:
		return o->callback(o, v);
	case OPTION_END:
		break;
	}
	return error("BUG: option %s has no type", name);
}

/* The separate value after argv[*i] for option name; NULL (said) when there is none. */
static const char *next_value(int argc, char **argv, int *i, const struct option *o,
			      const char *name)
{
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;

	if (!v) {
		error("option %s needs a value", name);
		return NULL;
	}
	if (looks_like_option(v)) {
		/* a short name's value cannot be joined with '=': name the long form */
		char hint[128];

		if (o->long_name)
			snprintf(hint, sizeof(hint), "--%s", o->long_name);
		else
			snprintf(hint, sizeof(hint), "%s", name);
		error("option %s needs a value ('%s' is an option; write %s%s%s if it is the value)",
		      name, v, hint, o->long_name ? "=" : "", v);
		return NULL;
	}
	++*i;
	return v;
}

static int unknown(const struct option *opts, const char *what, const char *cmd,
		   const char *args)
{
	size_t n = strcspn(cmd, " "), k = 0;
	char *names[256], *given = xstrndup(what, strcspn(what, "="));
	const char *near = NULL;

	/* --compre-kernels: the long option it meant, if one is close */
	for (const struct option *o = opts; o->type != OPTION_END && k < ARRAY_SIZE(names); o++)
		if (o->long_name && !(o->flags & PARSE_OPT_HIDDEN))
			names[k++] = xasprintf("--%s", o->long_name);
	if (starts_with(given, "--"))
		near = closest_name(given, names, k);
	if (near)
		error("unknown option '%s'; did you mean '%s'?", what, near);
	else
		error("unknown option '%s'", what);
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	free(given);
	parse_options_usage(stderr, opts, cmd, args);
	fprintf(stderr, "see `mmbench help%s%.*s`\n", n ? " " : "", (int)n, cmd);
	return -1;
}

static void list_options(const struct option *o)
{
	for (; o->type != OPTION_END; o++) {
		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->long_name && (o->flags & PARSE_OPT_OPTARG))
			printf("--%s [=%s]\n", o->long_name, o->argh);
		else if (o->long_name)
			printf("--%s%s%s\n", o->long_name, o->argh ? " " : "", o->argh ? o->argh : "");
		if (o->short_name)
			printf("-%c%s%s\n", o->short_name, o->argh ? " " : "", o->argh ? o->argh : "");
	}
	fflush(stdout);
}

static int parse_long(int argc, char **argv, int *i, const struct option *opts,
		      const char *cmd, const char *args)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '='), *v = NULL;
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const struct option *o = find_long(opts, a, len);
	char name[128];

	if (!o)
		return unknown(opts, argv[*i], cmd, args);
	snprintf(name, sizeof(name), "--%s", o->long_name);
	if (!o->argh) {
		if (eq)
			return error("option %s takes no value", name);
	} else if (eq) {
		v = eq + 1;
	} else if (o->flags & PARSE_OPT_OPTARG) {
		v = NULL;
	} else if (!(v = next_value(argc, argv, i, o, name))) {
		return -1;
	}
	return take(o, name, v);
}

/* "-v", "-vq" (flags bundled), "-j4", "-j 4" */
static int parse_short(int argc, char **argv, int *i, const struct option *opts,
		       const char *cmd, const char *args)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct option *o = find_short(opts, *p);
		char name[3] = { '-', *p, '\0' };
		const char *v = NULL;

		if (!o)
			return unknown(opts, p == argv[*i] + 1 ? argv[*i] : name, cmd, args);
		if (!o->argh) {
			if (take(o, name, NULL))
				return -1;
			continue;
		}
		if (p[1])
			v = p + 1;
		else if (!(v = next_value(argc, argv, i, o, name)))
			return -1;
		return take(o, name, v);
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct option *opts, const char *cmd,
		  const char *args, unsigned int flags)
{
	int nout = 0, i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nout++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--list-options")) {
			list_options(opts);
			exit(EXIT_OK);
		}
		if ((a[1] == '-' ? parse_long : parse_short)(argc, argv, &i, opts, cmd, args))
			return -1;
	}
	/* whatever follows "--" or the first operand (STOP_AT_NON_OPTION) */
	for (; i < argc; i++)
		argv[nout++] = argv[i];
	argv[nout] = NULL;
	return nout;
}

static void usage_word(FILE *f, const char *w, size_t *col, size_t indent)
{
	size_t n = strlen(w);

	if (*col + 1 + n > 79 && *col > indent) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	} else {
		fputc(' ', f);
		(*col)++;
	}
	fputs(w, f);
	*col += n;
}

void parse_options_usage(FILE *f, const struct option *o, const char *cmd, const char *args)
{
	size_t col, indent;
	char w[160];

	col = (size_t)fprintf(f, "usage: mmbench%s%s", *cmd ? " " : "", cmd);
	indent = col + 1;
	for (; o->type != OPTION_END; o++) {
		char name[80];

		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->long_name && o->short_name)
			snprintf(name, sizeof(name), "-%c|--%s", o->short_name, o->long_name);
		else if (o->long_name)
			snprintf(name, sizeof(name), "--%s", o->long_name);
		else
			snprintf(name, sizeof(name), "-%c", o->short_name);
		snprintf(w, sizeof(w), "[%s%s%s]%s", name, o->argh ? " " : "",
			 o->argh ? o->argh : "", o->type == OPTION_LIST ? "..." : "");
		usage_word(f, w, &col, indent);
	}
	if (args && *args)
		usage_word(f, args, &col, indent);
	fputc('\n', f);
}
