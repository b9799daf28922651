/*
 * The one way to run a command: run_command() finds it in the table main()
 * hands over (commands[] in mmbench.c names each command's function and
 * the preconditions run_command() takes care of before calling it,
 * builtin.h), and what every command calls (the DB opened as its flags
 * say, subcommands, the usage error).  Below the builtins: it knows the
 * table only as data, so a command may run another (a fleet job runs
 * `run` or `ab`) and __complete list them without a cycle of files.
 */
#include "builtin.h"
#include "db.h"
#include "dbopen.h"
#include "envctl.h"
#include "parse-options.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the table main() hands over (mmbench.c: commands[]) */
static const struct command *commands;
static size_t ncommands;

void command_table_set(const struct command *table, size_t n)
{
	commands = table;
	ncommands = n;
}

/* Set while __complete asks a command for its subcommand table. */
static bool listing_subcommands;

void command_names(FILE *out)
{
	for (size_t i = 0; i < ncommands; i++)
		if (!(commands[i].flags & SUBCOMMAND_HIDDEN))
			fprintf(out, "%s\n", commands[i].name);
}

int command_subcommands(const char *cmd, FILE *out)
{
	char name[64], *argv[2] = { name, NULL };
	int ret = EXIT_OK;

	(void)out;
	snprintf(name, sizeof(name), "%s", cmd);
	for (size_t i = 0; i < ncommands; i++)
		if (!strcmp(commands[i].name, cmd) && (commands[i].flags & HAS_SUBCOMMANDS)) {
			/* the command reaches run_subcommand() at once: its table is printed */
			listing_subcommands = true;
			ret = commands[i].fn(1, argv);
			listing_subcommands = false;
		}
	return ret;
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

/* the flags of the command running, for command_open_db() */
static unsigned int running_flags;

int command_open_db(struct mmb_db *db, const char *path)
{
	const char *p = db_default_path(path);

	/* a command that opens a DB says which way in commands[] */
	if (!(running_flags & (NEED_DB | NEED_DB_EXISTING)))
		die("BUG: command_open_db() from a command without NEED_DB or NEED_DB_EXISTING");
	if (!(running_flags & NEED_DB))
		return db_open_results(db, path);
	/* a writer of existing results (rm): a typo makes no new database */
	if ((running_flags & NEED_DB_EXISTING) && access(p, F_OK) < 0)
		return error("database %s does not exist", p), EXIT_USAGE;
	return db_open(db, p) ? EXIT_RUNTIME : EXIT_OK;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	fprintf(stderr, "(see `mmbench %s --help`)\n", cmd);
	return EXIT_USAGE;
}

int parse_one_operand(int argc, char **argv, const struct option *opts, const char *cmd,
		      const char *args, const char *why_one, const char *missing,
		      const char **operand)
{
	int n = parse_options(argc, argv, opts, cmd, args, 0);

	*operand = NULL;
	if (n < 0)
		return -1;
	if (n > 1)
		return error("unexpected argument '%s'%s", argv[1], why_one);
	*operand = argv[0];
	if (!*operand && missing) {
		error("%s", missing);
		parse_options_usage(stderr, opts, cmd, args);
		return -1;
	}
	return 0;
}

void command_format_time(char *buf, size_t len, double t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > 0 && localtime_r(&tt, &tm))
		strftime(buf, len, fmt, &tm);
	else
		snprintf(buf, len, "-");
}

static int run_entry(const struct command *c, int argc, char **argv)
{
	unsigned int outer = running_flags;
	int ret;

	if (wants_help(argc, argv))
		return help_show(c->name) ? EXIT_USAGE : EXIT_OK;
	/* a journal others could have written is refused, never replayed */
	if ((c->flags & RESTORE_ENV) && envctl_recover())
		return EXIT_RUNTIME;
	running_flags = c->flags;
	ret = c->fn(argc, argv);
	running_flags = outer;
	/* error() returns -1: a runtime failure */
	return ret < 0 ? EXIT_RUNTIME : ret;
}

int run_command(int argc, char **argv)
{
	char **names;
	const char *near;

	for (size_t i = 0; i < ncommands; i++)
		if (!strcmp(commands[i].name, argv[0]))
			return run_entry(&commands[i], argc, argv);
	names = xcalloc(ncommands, sizeof(*names));
	for (size_t i = 0; i < ncommands; i++)
		names[i] = (char *)commands[i].name;
	/* a typo gets the one command it meant, not the whole list */
	near = closest_name(argv[0], names, ncommands);
	if (near)
		error("'%s' is not an mmbench command; did you mean '%s'?", argv[0], near);
	free(names);
	if (near)
		return EXIT_USAGE;
	error("'%s' is not an mmbench command; commands are:", argv[0]);
	for (size_t i = 0; i < ncommands; i++)
		fprintf(stderr, "  %s\n", commands[i].name);
	return EXIT_USAGE;
}

int run_subcommand(const char *cmd, const struct command *subs, size_t nsubs,
		   int argc, char **argv)
{
	struct strbuf names = STRBUF_INIT;
	int ret;

	if (listing_subcommands) {
		for (size_t i = 0; i < nsubs; i++)
			if (!(subs[i].flags & SUBCOMMAND_HIDDEN))
				printf("%s\n", subs[i].name);
		return EXIT_OK;
	}
	for (size_t i = 0; argc >= 1 && i < nsubs; i++)
		if (!strcmp(subs[i].name, argv[0])) {
			unsigned int outer = running_flags;

			running_flags = subs[i].flags;
			ret = subs[i].fn(argc, argv);
			running_flags = outer;
			return ret < 0 ? EXIT_RUNTIME : ret;
		}
	for (size_t i = 0; i < nsubs; i++)
		if (!(subs[i].flags & SUBCOMMAND_HIDDEN))
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", subs[i].name);
	if (argc < 1)
		ret = usage_error(cmd, "%s: which subcommand? (%s)", cmd, names.buf);
	else
		ret = usage_error(cmd, "%s: unknown subcommand '%s' (%s)", cmd, argv[0], names.buf);
	strbuf_release(&names);
	return ret;
}
