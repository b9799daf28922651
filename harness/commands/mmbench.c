/*
 * mmbench: benchmark harness for Linux memory-management work.
 *
 * main() dispatches through commands[]: each entry names the function and
 * the preconditions the dispatcher takes care of before calling it.
 */
#include "builtin.h"
#include "envctl.h"
#include "help.h"
#include "parse-options.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
#include <errno.h>
#include <string.h>

/* Preconditions (git's RUN_SETUP idea). */
#define RESTORE_ENV	(1 << 0)	/* replay a crashed run's knob journal first */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned int flags;
};

static const struct command commands[] = {
	{ "run",	cmd_run,	RESTORE_ENV },
	{ "list",	cmd_list,	0 },
	{ "show",	cmd_show,	0 },
	{ "compare",	cmd_compare,	0 },
	{ "import",	cmd_import,	0 },
	{ "merge",	cmd_merge,	0 },
	{ "export",	cmd_export,	0 },
	{ "rm",		cmd_rm,		0 },
	{ "plot",	cmd_plot,	0 },
	{ "report",	cmd_report,	0 },
	{ "kernel",	cmd_kernel,	0 },
	{ "vm",		cmd_vm,		RESTORE_ENV },
	{ "ab",		cmd_ab,		RESTORE_ENV },
	{ "reproduce",	cmd_reproduce,	RESTORE_ENV },
	{ "fleet",	cmd_fleet,	0 },
	{ "restore",	cmd_restore,	0 },
	{ "help",	cmd_help,	0 },
};

static void usage(FILE *f)
{
	help_print(f, "mmbench");
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

/*
 * What a command printed may still sit in stdio's buffer: a full disk or
 * /dev/full shows only when it is flushed.  Say so and fail, as git's
 * check_write does (a reader that went away, EPIPE, is no error).
 */
static int check_stdout(int ret)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ret;
	if (errno == EPIPE)
		return ret;
	error("write error on standard output: %s", strerror(errno));
	return ret ? ret : EXIT_RUNTIME;
}

int main(int argc, char **argv)
{
	const char *name;
	bool version = false, help = false;
	int ret;
	/* global options, before the command */
	const struct option opts[] = {
		OPT_BOOL('V', "version", &version, "print the version"),
		OPT_BOOL('h', "help", &help, "the overview of commands"),
		OPT_SET_INT('q', "quiet", &mmb_quiet, 1, "no informational messages"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "", "COMMAND [ARGS...]", PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return EXIT_USAGE;
	if (version) {
		printf("mmbench %s (%s)\n", mmb_version, mmb_git_sha);
		return EXIT_OK;
	}
	if (help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* argv[0] is the command from here on, as each command expects */
	name = argv[0];
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct command *c = &commands[i];

		if (strcmp(c->name, name))
			continue;
		if (wants_help(argc, argv))
			return help_show(c->name) ? EXIT_USAGE : EXIT_OK;
		/* a journal others could have written is refused, never replayed */
		if ((c->flags & RESTORE_ENV) && envctl_recover())
			return EXIT_RUNTIME;
		ret = c->fn(argc, argv);
		/* error() returns -1: a runtime failure */
		ret = ret < 0 ? EXIT_RUNTIME : ret;
		return check_stdout(ret);
	}
	error("'%s' is not an mmbench command; commands are:", name);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(stderr, "  %s\n", commands[i].name);
	return EXIT_USAGE;
}
