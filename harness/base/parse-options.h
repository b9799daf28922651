/*
 * One option parser for every command (git's parse-options is the model).
 *
 * A command declares its options as a table ending in OPT_END():
 *
 *	const struct option opts[] = {
 *		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
 *		OPT_INT_RANGE('j', "jobs", &jobs, 1, 4096, "N", "parallel make jobs"),
 *		OPT_BOOL(0, "quick", &quick, "smoke test"),
 *		OPT_END(),
 *	};
 *	argc = parse_options(argc, argv, opts, "kernel build", "", 0);
 *
 * --opt=VALUE and --opt VALUE both work; -o VALUE and -oVALUE for a short
 * name.  A separate value that looks like an option (starts with '-' and is
 * neither "-" nor a number) is a missing value: "--db -q" is refused,
 * "--db=-q" is how to mean it.  "--" ends the options.  Long names are
 * matched whole (no abbreviations).  docs/ARCHITECTURE.md, "Options".
 */
#ifndef MMB_PARSE_OPTIONS_H
#define MMB_PARSE_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_BOOL,		/* bool *: set to true */
	OPTION_SET_INT,		/* int *: set to defval */
	OPTION_STRING,		/* const char **: the value (points into argv) */
	OPTION_INT,		/* int *: a decimal integer in [min, max] */
	OPTION_DOUBLE,		/* double *: a finite number */
	OPTION_LIST,		/* const char ***, count in *nr: appended, in order */
	OPTION_CALLBACK,	/* callback(opt, value); value NULL when argh is NULL */
};

#define PARSE_OPT_HIDDEN	(1u << 0)	/* not in usage, --list-options or the docs */
#define PARSE_OPT_OPTARG	(1u << 1)	/* the value is optional: only --opt=VALUE
						   gives one; --opt alone passes NULL */

struct option;
/* 0, or -1 with the error said (a usage error). */
typedef int parse_opt_cb(const struct option *opt, const char *arg);

struct option {
	enum parse_opt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* without "--"; NULL: none */
	void *value;
	const char *argh;	/* the value's name in usage ("FILE"); NULL: takes none */
	const char *help;
	unsigned int flags;
	long min, max;		/* OPTION_INT */
	long defval;		/* OPTION_SET_INT */
	size_t *nr;		/* OPTION_LIST */
	parse_opt_cb *callback;
	/* OPTION_INT: a bad value is "--opt 'V': expected a number MIN..MAX", or with what
	 * set, "--opt wants WHAT, not 'V'" */
	const char *what;
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_INT(s, l, v, val, h) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .defval = (val), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_INT_RANGE(s, l, v, lo, hi, a, h) \
	{ .type = OPTION_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .min = (lo), .max = (hi) }
#define OPT_INT(s, l, v, a, h)	OPT_INT_RANGE(s, l, v, INT_MIN, INT_MAX, a, h)
#define OPT_DOUBLE(s, l, v, a, h) \
	{ .type = OPTION_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_LIST(s, l, v, n, a, h) \
	{ .type = OPTION_LIST, .short_name = (s), .long_name = (l), .value = (v), .nr = (n), \
	  .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (cb) }
/* Stop at the first argument that is not an option (a subcommand's name). */
#define PARSE_OPT_STOP_AT_NON_OPTION	(1u << 0)

/*
 * Parse argv[1..argc) against opts; argv[0] is the command.  cmd names it
 * for messages and usage ("compare", "kernel build"); args is the usage's
 * operands ("BASE NEW...").  Returns the number of arguments that are not
 * options, moved in order to argv[0..n) (argv[n] = NULL), or -1 on a usage
 * error, said: an unknown option (with the usage), a missing or bad value.
 * "--list-options" prints the table's names, one a line, and exits 0 (the
 * test that checks them against docs/help/CMD.txt).
 */
int parse_options(int argc, char **argv, const struct option *opts, const char *cmd,
		  const char *args, unsigned int flags);

/* The usage line(s) built from the table: "usage: mmbench CMD [--db FILE] ... ARGS". */
void parse_options_usage(FILE *f, const struct option *opts, const char *cmd, const char *args);

/* A separate value that is an option: starts with '-', not "-", not a number. */
bool looks_like_option(const char *v);

#endif
