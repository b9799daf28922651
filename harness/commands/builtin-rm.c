/*
 * mmbench rm [--db FILE] [--yes] RUN...
 * mmbench rm [--db FILE] [--yes] --label L...
 *
 * Says which runs will go (and which labels they leave empty), asks, then
 * removes them with everything that hangs off them in one transaction
 * (db_runs_remove): a kill at any point leaves the DB as before or after.
 * Without a terminal to ask on, --yes is required.
 */
#include "builtin.h"
#include "db.h"
#include "merge-file.h"
#include "parse-options.h"
#include "read.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RM_ARGS "RUN... | --label L"

static bool parse_id(const char *s, int64_t *id)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v < 1)
		return false;
	*id = v;
	return true;
}

static bool ask(size_t n)
{
	char line[64];

	fprintf(stderr, "remove %s? [y/N] ", n == 1 ? "this run" : "these runs");
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

static int check_targets(struct mmb_db *db, const struct db_run_line *lines, size_t nlines,
			 const int64_t *ids, size_t nids, const char **labels, size_t nlabels)
{
	for (size_t i = 0; i < nids; i++) {
		size_t j;

		for (j = 0; j < nlines && lines[j].id != ids[i]; j++)
			;
		if (j == nlines)
			return error("no run %lld in %s (see `mmbench list runs`)", (long long)ids[i],
				     db_path(db));
	}
	for (size_t l = 0; l < nlabels; l++) {
		size_t j;

		for (j = 0; j < nlines && strcmp(lines[j].label, labels[l]); j++)
			;
		if (j == nlines && db_kernel_find(db, labels[l]) <= 0)
			return error("unknown kernel label '%s' (see `mmbench list kernels`)", labels[l]);
	}
	return 0;
}

/* The runs to go into sel, by id, each once; a running one refuses all. */
static int select_runs(const struct db_run_line *lines, size_t nlines, const int64_t *ids,
		       size_t nids, const char **labels, size_t nlabels, int64_t *sel, size_t *nsel)
{
	for (size_t j = 0; j < nlines; j++) {
		bool want = false;

		for (size_t i = 0; i < nids && !want; i++)
			want = ids[i] == lines[j].id;
		for (size_t l = 0; l < nlabels && !want; l++)
			want = !strcmp(lines[j].label, labels[l]);
		if (!want)
			continue;
		if (!strcmp(lines[j].status, "running"))
			return error("run %lld is still running: stop it first (or wait), then rm",
				     (long long)lines[j].id);
		sel[(*nsel)++] = lines[j].id;
	}
	return 0;
}

static void show_selection(const struct db_run_line *lines, size_t nlines, const int64_t *sel,
			   size_t nsel)
{
	fprintf(stderr, "%s\n", nsel ? "will remove:" : "no runs to remove");
	for (size_t j = 0; j < nlines; j++)
		for (size_t i = 0; i < nsel; i++)
			if (sel[i] == lines[j].id)
				fprintf(stderr, "  run %lld  %s  %s  %s  %d samples\n",
					(long long)lines[j].id, lines[j].label,
					*lines[j].experiment ? lines[j].experiment : "-",
					lines[j].status, lines[j].samples);
}

int cmd_rm(int argc, char **argv)
{
	const char *dbpath = NULL;
	const char **labels = NULL;
	size_t nlabels = 0, nlines = 0, nsel = 0, gone = 0;
	bool yes = false;
	struct db_run_line *lines = NULL;
	int64_t *sel = NULL, *ids = NULL;
	size_t nids = 0;
	struct mmb_db db;
	int ret = EXIT_USAGE, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_LIST(0, "label", &labels, &nlabels, "L", "every run of kernel label L"),
		OPT_BOOL('y', "yes", &yes, "do not ask"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, "rm", RM_ARGS, 0);
	if (n < 0)
		goto out;
	if (!n && !nlabels) {
		error("nothing to remove: give run ids or --label L");
		parse_options_usage(stderr, opts, "rm", RM_ARGS);
		goto out;
	}
	nids = (size_t)n;
	ids = xcalloc(nids + 1, sizeof(*ids));
	for (size_t i = 0; i < nids; i++)
		if (!parse_id(argv[i], &ids[i])) {
			error("'%s' is not a run id (see `mmbench list runs`)", argv[i]);
			goto out;
		}
	db_single_thread();
	if ((ret = command_open_db(&db, dbpath)))
		goto out;
	ret = EXIT_RUNTIME;
	if (db_list_runs(&db, &lines, &nlines))
		goto close;
	ret = EXIT_USAGE;
	/* every id and label must exist: a typo removes nothing */
	if (check_targets(&db, lines, nlines, ids, nids, labels, nlabels))
		goto close;
	sel = xcalloc(nlines + 1, sizeof(*sel));
	if (select_runs(lines, nlines, ids, nids, labels, nlabels, sel, &nsel))
		goto close;
	show_selection(lines, nlines, sel, nsel);
	if (!yes) {
		if (!isatty(STDIN_FILENO)) {
			error("not removing without --yes: there is no terminal to ask on");
			goto close;
		}
		if (!ask(nsel)) {
			info("nothing removed");
			ret = EXIT_OK;
			goto close;
		}
	}
	ret = EXIT_RUNTIME;
	if (db_runs_remove(&db, sel, nsel, &gone))
		goto close;
	info("removed %zu run%s and %zu label%s", nsel, nsel == 1 ? "" : "s", gone,
	     gone == 1 ? "" : "s");
	ret = EXIT_OK;
close:
	db_run_lines_free(lines, nlines);
	db_close(&db);
out:
	free(sel);
	free(ids);
	free(labels);
	return ret;
}
