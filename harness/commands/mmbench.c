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
 * /dev/full shows only when it is flushed or closed.  Say so and fail, as
 * git does after every builtin (a reader that went away, EPIPE, is no
 * error).  Every way out of main() comes here, --version and --help too.
 */
static int check_stdout(int ret)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return ret;
	err = errno;
	if (err == EPIPE)
		return ret;
	error("write error on standard output%s%s", err ? ": " : "", err ? strerror(err) : "");
	return ret ? ret : EXIT_RUNTIME;
}

static int mmbench_main(int argc, char **argv)
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
	return ret;
}

int main(int argc, char **argv)
{
	return check_stdout(mmbench_main(argc, argv));
}
