/*
 * `mmbench __complete WHAT [ARG]`: what a shell may complete, one word per
 * line, from the tables the commands themselves use (the command table,
 * each subcommand table, the renderer table, the plugin path, the results
 * DB).  Hidden: the completion scripts in tools/completion/ call it; a
 * command's options come from its own `--list-options`.  It never writes:
 * a missing database completes to nothing.
 */
#include "builtin.h"
#include "db.h"
#include "parse-options.h"
#include "plugin.h"
#include "read.h"
#include "render.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_list(const char *comma_list)
{
	for (const char *p = comma_list; *p;) {
		size_t n = strcspn(p, ", ");

		if (n)
			printf("%.*s\n", (int)n, p);
		p += n;
		p += strspn(p, ", ");
	}
}

static int complete_from_db(const char *dbpath, bool labels)
{
	const char *p = dbpath ? dbpath : getenv("MMBENCH_DB");
	struct mmb_db db;

	if (!p || !*p)
		p = "mmbench.db";
	if (access(p, R_OK) < 0)
		return EXIT_OK;
	mmb_quiet = 1;
	if (command_open_db(&db, dbpath))
		return EXIT_OK;	/* nothing to offer: say nothing on the user's line */
	if (labels) {
		struct db_kernel_line *k = NULL;
		size_t n = 0;

		if (!db_list_kernels(&db, &k, &n))
			for (size_t i = 0; i < n; i++)
				if (!strchr(k[i].label, '\n'))	/* one a line; the script quotes */
					printf("%s\n", k[i].label);
		db_kernel_lines_free(k, n);
	} else {
		struct db_run_line *r = NULL;
		size_t n = 0;

		if (!db_list_runs(&db, &r, &n))
			for (size_t i = 0; i < n; i++)
				printf("%lld\n", (long long)r[i].id);
		db_run_lines_free(r, n);
	}
	db_close(&db);
	return EXIT_OK;
}

int cmd_complete(int argc, char **argv)
{
	const char *dbpath = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database (labels, runs)"),
		OPT_END(),
	};
	const char *what;

	argc = parse_options(argc, argv, opts, "__complete",
			     "commands|subcommands CMD|labels|runs|workloads|formats", 0);
	if (argc < 1)
		return usage_error("__complete", "__complete: what to complete?");
	what = argv[0];
	if (!strcmp(what, "commands")) {
		command_names(stdout);
	} else if (!strcmp(what, "subcommands") && argc == 2) {
		return command_subcommands(argv[1], stdout);
	} else if (!strcmp(what, "labels") || !strcmp(what, "runs")) {
		return complete_from_db(dbpath, !strcmp(what, "labels"));
	} else if (!strcmp(what, "workloads")) {
		char **names = NULL;
		size_t n = 0;

		if (!plugin_list(&names, &n))
			for (size_t i = 0; i < n; i++)
				printf("%s\n", names[i]);
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
	} else if (!strcmp(what, "formats")) {
		struct strbuf sb = STRBUF_INIT;

		renderer_names(&sb);
		print_list(sb.buf);
		strbuf_release(&sb);
	} else {
		return usage_error("__complete", "__complete: unknown '%s'", what);
	}
	return EXIT_OK;
}
