/*
 * mmbench: benchmark harness for Linux memory-management work.
 *
 * main(): the global options, then run_command() (command.c) dispatches
 * through commands[].
 */
#include "builtin.h"
#include "db.h"
#include "help.h"
#include "parse-options.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
#include <errno.h>
#include <string.h>

static void usage(FILE *f)
{
	help_print(f, "mmbench");
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
	ret = run_command(argc, argv);
	/* a reader whose file a writer changed under it said so: it must not exit 0 */
	if (!ret && db_read_torn())
		ret = EXIT_RUNTIME;
	return check_stdout(ret);
}
