/*
 * mmbench merge [--db FILE] [--rename FROM=TO]... OTHER.db...
 *
 * Copies every run of each OTHER results database that this one lacks,
 * with what belongs to it (db/merge-file.h): merging twice adds nothing.
 * Each file is one transaction; the first file that fails stops the
 * command (the files before it stay merged, and are said so).
 */
#include "builtin.h"
#include "db.h"
#include "merge-file.h"
#include "parse-options.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct renames {
	struct db_rename *v;
	size_t nr, alloc;
};

/* --rename FROM=TO, repeatable */
static int add_rename(const struct option *opt, const char *arg)
{
	struct renames *r = opt->value;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return error("--rename '%s': expected FROM=TO (the other file's label FROM is merged as TO)",
			     arg);
	ALLOC_GROW(r->v, r->nr + 1, r->alloc);
	r->v[r->nr].from = xstrndup(arg, (size_t)(eq - arg));
	r->v[r->nr++].to = xstrdup(eq + 1);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	const char *dbpath = NULL;
	struct renames ren = { 0 };
	struct db_merge_opts o = { 0 };
	struct db_merge_result res = { 0 };
	size_t nfiles = 0, done = 0;
	struct mmb_db db;
	int ret = EXIT_OK, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "target results database"),
		OPT_CALLBACK(0, "rename", &ren, "FROM=TO", "merge the other label FROM as TO",
			     add_rename),
		OPT_END(),
	};
	const char **files = (const char **)argv;

	n = parse_options(argc, argv, opts, "merge", "OTHER.db...", 0);
	if (n < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	nfiles = (size_t)n;
	o.renames = ren.v;
	o.nrenames = ren.nr;
	if (!nfiles) {
		error("missing OTHER.db (a results database to merge in)");
		parse_options_usage(stderr, opts, "merge", "OTHER.db...");
		ret = EXIT_USAGE;
		goto out;
	}

	db_single_thread();
	if ((ret = command_open_db(&db, dbpath)))
		goto out;
	res.rename_used = xcalloc(o.nrenames + 1, sizeof(*res.rename_used));
	for (size_t f = 0; f < nfiles; f++) {
		int r = db_merge_file(&db, files[f], &o, &res);

		if (r) {
			ret = r == DB_MERGE_REFUSED ? EXIT_USAGE : EXIT_RUNTIME;
			if (done)
				info("merged before the error: %zu of %zu files", done, nfiles);
			break;
		}
		done++;
		info("%s: %zu run%s merged (%zu iterations, %zu samples), %zu already here",
		     files[f], res.runs_added, res.runs_added == 1 ? "" : "s", res.iterations,
		     res.samples, res.runs_present);
		if (res.runs_running)
			warning("%s: %zu run%s still running there, not merged (merge again when %s)",
				files[f], res.runs_running, res.runs_running == 1 ? " is" : "s are",
				res.runs_running == 1 ? "it ends" : "they end");
	}
	for (size_t i = 0; ret == EXIT_OK && i < o.nrenames; i++)
		if (!res.rename_used[i])
			warning("--rename %s=%s: no run of label '%s' was merged", ren.v[i].from,
				ren.v[i].to, ren.v[i].from);
	free(res.rename_used);
	db_close(&db);
out:
	for (size_t i = 0; i < ren.nr; i++) {
		free((char *)ren.v[i].from);
		free((char *)ren.v[i].to);
	}
	free(ren.v);
	return ret;
}
