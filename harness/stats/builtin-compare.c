/*
 * mmbench compare [--db FILE] [--format mmtests|lkp|markdown|csv|json]
 *                 [--test welch|mwu|mmtests|lkp] [--workload W] [--metric M]
 *                 BASE NEW...
 *
 * Pools the samples of every complete or interrupted run of each kernel
 * label, tests each NEW against BASE per (workload, variant, metric), adjusts
 * the p-values of the whole table together (Benjamini-Hochberg) and prints
 * one of the table styles.  Without --format: a readable table with n, mean,
 * change, 95% CI, p and a verdict.
 */
#include "builtin.h"
#include "compare.h"
#include "db.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPARE_USAGE \
	"usage: mmbench compare [--db FILE] [--format mmtests|lkp|markdown|csv|json]\n" \
	"                       [--test welch|mwu|mmtests|lkp] [--mean amean|hmean|gmean|median]\n" \
	"                       [--workload W] [--metric M] BASE NEW...\n"

static int usage_error(const char *fmt, const char *arg)
{
	error(fmt, arg);
	fputs(COMPARE_USAGE, stderr);
	return EXIT_USAGE;
}

/* "--opt VALUE" or "--opt=VALUE"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	const char *v = NULL;

	*missing = option_value(argc, argv, i, name, &v) < 0;
	return v;
}

int cmd_compare(int argc, char **argv)
{
	const char *dbpath = NULL, *format = NULL, *test = "welch";
	struct query_filter filter = { 0 };
	const char **labels = xcalloc((size_t)argc + 1, sizeof(*labels));
	size_t nlabels = 0;
	enum compare_format fmt = CMP_TEXT;
	enum stats_test_kind kind;
	enum stats_mean_kind mean = STATS_MEAN_AUTO;
	struct strbuf out = STRBUF_INIT;
	struct query_set qs;
	struct compare c;
	struct mmb_db db;
	bool dashdash = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		static const char *const opts[] = { "--db", "--format", "--test", "--workload",
						    "--metric", "--last", "--mean" };
		const char *a = argv[i], *v = NULL;
		size_t k;
		bool missing = false;

		if (dashdash || a[0] != '-' || !a[1]) {
			labels[nlabels++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		if (!strcmp(a, "--keep-disturbed")) {
			filter.keep_disturbed = true;
			continue;
		}
		if (!strcmp(a, "--no-guard")) {
			filter.no_guard = true;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(opts); k++) {
			v = opt_value(argc, argv, &i, opts[k], &missing);
			if (v || missing)
				break;
		}
		if (missing) {
			free(labels);
			fputs(COMPARE_USAGE, stderr);	/* option_value() said why */
			return EXIT_USAGE;
		}
		switch (k) {
		case 0: dbpath = v; break;
		case 1: format = v; break;
		case 2: test = v; break;
		case 3: filter.workload = v; break;
		case 4: filter.metric = v; break;
		case 5:
			if (query_filter_set_last(&filter, v)) {
				free(labels);
				return usage_error("--last '%s': expected a number of runs >= 1", v);
			}
			break;
		case 6:
			if (stats_mean_parse(v, &mean)) {
				free(labels);
				return usage_error("--mean '%s': expected amean, hmean, gmean or median", v);
			}
			break;
		default:
			free(labels);
			return usage_error("unknown option '%s'", a);
		}
	}
	if (format && compare_format_parse(format, &fmt)) {
		free(labels);
		return usage_error("unknown format '%s' (formats: mmtests, lkp, markdown, csv,"
				   " json)", format);
	}
	if (stats_test_parse(test, &kind)) {
		free(labels);
		return usage_error("unknown test '%s' (tests: welch, mwu, mmtests, lkp)", test);
	}
	if (nlabels < 2) {
		free(labels);
		return usage_error("%s", nlabels ? "need a NEW kernel label to compare with BASE"
					       : "need BASE and NEW kernel labels");
	}

	db_single_thread();
	ret = db_open_existing(&db, db_default_path(dbpath));
	if (ret) {
		free(labels);
		return ret == DB_ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	ret = query_load(&db, labels, nlabels, &filter, &qs);
	if (ret) {
		db_close(&db);
		free(labels);
		return ret == QUERY_EUNKNOWN ? EXIT_USAGE : EXIT_RUNTIME;
	}
	if (!compare_has_common(&qs)) {
		/* nothing compared is an error: say what each label has */
		struct query_filter wide = filter;
		struct query_set all;

		wide.workload = wide.metric = NULL;
		if (!query_load(&db, labels, nlabels, &wide, &all)) {
			compare_explain_nothing(&all, &filter);
			query_set_release(&all);
		}
		query_set_release(&qs);
		db_close(&db);
		free(labels);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < nlabels; i++)
		if (!qs.kernels[i].nruns_pooled)
			warning("kernel '%s' has no complete or interrupted run", labels[i]);

	compare_build_mean(&c, &qs, kind, mean);
	compare_load_meta(&c, &db);
	compare_print(&out, &c, fmt);
	fwrite(out.buf, 1, out.len, stdout);
	ret = fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;

	strbuf_release(&out);
	compare_release(&c);
	query_set_release(&qs);
	db_close(&db);
	free(labels);
	return ret;
}
