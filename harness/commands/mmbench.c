/*
 * mmbench: benchmark harness for Linux memory-management work.
 *
 * main(): the global options, then run_command() (command.c) dispatches
 * through commands[], the table of every command (git's git.c).
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

static const struct command commands[] = {
	{ "run",	cmd_run,	RESTORE_ENV | NEED_DB },
	{ "list",	cmd_list,	NEED_DB_EXISTING },
	{ "show",	cmd_show,	NEED_DB_EXISTING },
	{ "compare",	cmd_compare,	NEED_DB_EXISTING },
	{ "import",	cmd_import,	NEED_DB },
	{ "merge",	cmd_merge,	NEED_DB },
	{ "export",	cmd_export,	NEED_DB_EXISTING },
	{ "rm",		cmd_rm,		NEED_DB | NEED_DB_EXISTING },
	{ "plot",	cmd_plot,	NEED_DB_EXISTING },
	{ "report",	cmd_report,	NEED_DB_EXISTING },
	{ "kernel",	cmd_kernel,	HAS_SUBCOMMANDS },
	{ "vm",		cmd_vm,		RESTORE_ENV | HAS_SUBCOMMANDS },
	{ "ab",		cmd_ab,		RESTORE_ENV },
	{ "bisect",	cmd_bisect,	RESTORE_ENV },
	{ "reproduce",	cmd_reproduce,	RESTORE_ENV },
	{ "fleet",	cmd_fleet,	HAS_SUBCOMMANDS },
	{ "restore",	cmd_restore,	0 },
	{ "help",	cmd_help,	0 },
	{ "__complete",	cmd_complete,	SUBCOMMAND_HIDDEN | NEED_DB_EXISTING },
};

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
	command_table_set(commands, ARRAY_SIZE(commands));
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
