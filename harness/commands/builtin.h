/* One function per command, one file per command: builtin-<cmd>.c */
#ifndef MMB_BUILTIN_H
#define MMB_BUILTIN_H

#include <stddef.h>
#include <stdio.h>

struct mmb_db;

/* Preconditions the dispatcher takes care of (git's RUN_SETUP idea). */
#define RESTORE_ENV		(1u << 0)	/* replay a crashed run's knob journal first */
#define NEED_DB			(1u << 1)	/* writes the results DB (created, migrated) */
#define NEED_DB_EXISTING	(1u << 2)	/* reads a results DB that must exist */
#define SUBCOMMAND_HIDDEN	(1u << 3)	/* not listed (fleet job, vm guest: not for users) */
#define HAS_SUBCOMMANDS		(1u << 4)	/* dispatches through run_subcommand() (completion) */

/* A command or a subcommand: one table type for both. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned int flags;
};

/* The table run_command() looks commands up in (main(): mmbench.c's commands[]). */
void command_table_set(const struct command *table, size_t n);

/*
 * Run the command argv[0] of commands[] as main() does: --help, the
 * preconditions of its flags, error() (-1) turned into EXIT_RUNTIME.  The
 * one way a command runs another (a fleet job runs `run` or `ab`).
 */
int run_command(int argc, char **argv);

/*
 * Run the subcommand argv[0] of cmd ("kernel build ...") from its table
 * (argv[0] is the subcommand on the call); a missing or unknown one is one
 * usage error listing the table.
 */
int run_subcommand(const char *cmd, const struct command *subs, size_t nsubs,
		   int argc, char **argv);

/* For shell completion (__complete): the visible command names, a command's subcommands. */
void command_names(FILE *out);
int command_subcommands(const char *cmd, FILE *out);

/*
 * Open the results DB (path: --db FILE or NULL for the default) as the
 * running command's flags say: NEED_DB opens or creates it, NEED_DB_EXISTING
 * refuses a missing file (EXIT_USAGE) or one it cannot read (EXIT_RUNTIME).
 * EXIT_OK or the exit code, after one message.
 */
int command_open_db(struct mmb_db *db, const char *path);

/*
 * parse_options() of a command that takes at most one operand, set in
 * *operand (NULL: none given).  0, or -1 after one message: an option's
 * error, a second operand ("unexpected argument 'X'" + why_one), or, when
 * missing is not NULL, no operand (missing, then the usage).
 */
struct option;
int parse_one_operand(int argc, char **argv, const struct option *opts, const char *cmd,
		      const char *args, const char *why_one, const char *missing,
		      const char **operand);

/* A time as local time in fmt (strftime), or "-" when there is none (t <= 0). */
void command_format_time(char *buf, size_t len, double t, const char *fmt);

/* The one usage-error idiom: "error: MSG" plus where help is; EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * --wait-quiet[=TIMEOUT] as run and reproduce take it, into a double (s):
 * no value, QUIET_TIMEOUT_DEFAULT_S; a callback of a parse-options table.
 */
struct option;
int opt_wait_quiet(const struct option *opt, const char *v);
#define OPT_WAIT_QUIET(v)								\
	{ .type = OPTION_CALLBACK, .long_name = "wait-quiet", .value = (v),		\
	  .argh = "TIMEOUT", .help = "first wait (up to TIMEOUT, 30m) for a quiet machine",	\
	  .flags = PARSE_OPT_OPTARG, .callback = opt_wait_quiet }
int cmd_run(int argc, char **argv);
int cmd_complete(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_restore(int argc, char **argv);

/* Option parsing of two commands, for their unit tests (test_kernel.c):
 * 0, or -1 after one message. */
struct ab_opts;
struct kbuild_opts;
int ab_parse_args(struct ab_opts *o, int argc, char **argv);
int kernel_build_parse_args(struct kbuild_opts *o, int argc, char **argv);

/* Print the help text of a command (shared by --help and `mmbench help`). */
int help_show(const char *cmd);

#endif
