/*
 * mmbench merge [--db FILE] [--rename FROM=TO]... OTHER.db...
 *
 * Copies every run of each OTHER results database that this one lacks,
 * with what belongs to it (db/merge-db.h): merging twice adds nothing.
 * Each file is one transaction; the first file that fails stops the
 * command (the files before it stay merged, and are said so).
 */
#include "builtin.h"
#include "db.h"
#include "merge-db.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MERGE_USAGE "usage: mmbench merge [--db FILE] [--rename FROM=TO]... OTHER.db...\n"

static int usage_error(const char *msg)
{
	error("%s", msg);
	fputs(MERGE_USAGE, stderr);
	return EXIT_USAGE;
}

int cmd_merge(int argc, char **argv)
{
	const char *dbpath = NULL;
	const char **files = xcalloc((size_t)argc + 1, sizeof(*files));
	struct db_rename *ren = xcalloc((size_t)argc + 1, sizeof(*ren));
	struct db_merge_opts o = { ren, 0 };
	struct db_merge_result res = { 0 };
	size_t nfiles = 0, done = 0;
	bool dashdash = false;
	struct mmb_db db;
	int ret = EXIT_OK;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		char msg[512];
		int r;

		if (dashdash || a[0] != '-' || !a[1]) {
			files[nfiles++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		if ((r = option_value_msg(argc, argv, &i, "--db", &dbpath, msg, sizeof(msg)))) {
			if (r < 0) {
				ret = usage_error(msg);
				goto out;
			}
		} else if ((r = option_value_msg(argc, argv, &i, "--rename", &v, msg, sizeof(msg)))) {
			const char *eq;

			if (r < 0) {
				ret = usage_error(msg);
				goto out;
			}
			eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1]) {
				error("--rename '%s': expected FROM=TO (the other file's label FROM is merged as TO)",
				      v);
				fputs(MERGE_USAGE, stderr);
				ret = EXIT_USAGE;
				goto out;
			}
			ren[o.nrenames].from = xstrndup(v, (size_t)(eq - v));
			ren[o.nrenames++].to = xstrdup(eq + 1);
		} else {
			error("unknown option '%s'", a);
			fputs(MERGE_USAGE, stderr);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (!nfiles) {
		ret = usage_error("missing OTHER.db (a results database to merge in)");
		goto out;
	}

	db_single_thread();
	if (db_open(&db, db_default_path(dbpath))) {
		ret = EXIT_RUNTIME;
		goto out;
	}
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
		info("%s: %zu run%s merged (%zu iterations, %zu samples), %zu already here%s",
		     files[f], res.runs_added, res.runs_added == 1 ? "" : "s", res.iterations,
		     res.samples, res.runs_present, "");
		if (res.runs_running)
			warning("%s: %zu run%s still running there, not merged (merge again when %s)",
				files[f], res.runs_running, res.runs_running == 1 ? " is" : "s are",
				res.runs_running == 1 ? "it ends" : "they end");
	}
	for (size_t i = 0; ret == EXIT_OK && i < o.nrenames; i++)
		if (!res.rename_used[i])
			warning("--rename %s=%s: no run of label '%s' was merged", ren[i].from,
				ren[i].to, ren[i].from);
	free(res.rename_used);
	db_close(&db);
out:
	for (size_t i = 0; i < o.nrenames; i++) {
		free((char *)ren[i].from);
		free((char *)ren[i].to);
	}
	free(ren);
	free(files);
	return ret;
}
