/*
 * mmbench kernel build|list|rm: test kernels built from a git tree with a
 * patch series, cached by content (see harness/kernel/kbuild.h).
 */
#include "builtin.h"
#include "db.h"
#include "kbuild.h"
#include "parse-options.h"
#include "util.h"
#include "vmrun.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int kernel_build_parse_args(struct kbuild_opts *o, int argc, char **argv)
{
	const struct option opts[] = {
		OPT_STRING(0, "tree", &o->tree, "DIR", "git work tree of the kernel"),
		OPT_STRING(0, "ref", &o->ref, "REF", "commit, tag or branch to build"),
		OPT_LIST(0, "patch", &o->patches, &o->npatches, "P", "a patch series"),
		OPT_LIST(0, "config", &o->fragments, &o->nfragments, "FRAG", "a config fragment"),
		OPT_STRING(0, "base-config", &o->base_config, "B",
			   "defconfig, tinyconfig or a config file"),
		OPT_STRING(0, "name", &o->label, "LABEL", "the kernel's label"),
		OPT_CALLBACK(0, "arch", &o->arch, "ARCH", "x86_64 or arm64 (default: the host's)",
			     vm_opt_arch),
		OPT_STRING(0, "db", &o->db_path, "FILE", "results database"),
		OPT_STRING(0, "cache", &o->cache_dir, "DIR", "kernel cache"),
		OPT_INT_RANGE('j', "jobs", &o->jobs, 1, 4096, "N", "parallel make jobs"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, "kernel build", "", 0);

	return n < 0 ? -1 : kbuild_opts_check(o, n, argv);
}

static int kernel_build(int argc, char **argv)
{
	struct kbuild_opts o;
	struct kbuild_result r;
	int ret;

	kbuild_opts_init(&o);
	if (kernel_build_parse_args(&o, argc, argv)) {
		kbuild_opts_release(&o);
		return EXIT_USAGE;
	}
	ret = kbuild_build(&o, &r);
	if (ret == 0) {
		if (r.cached)
			info("kernel: %s is cached (%s)", o.label, r.dir);
		else
			info("kernel: built %s in %.0fs", o.label, r.seconds);
		printf("%s\t%s\t%s\n", o.label, r.release ? r.release : "?", r.bzimage);
	}
	kbuild_result_release(&r);
	kbuild_opts_release(&o);
	return mmb_exit_code(ret);
}

static int kernel_list(int argc, char **argv)
{
	const char *cache = kbuild_cache_dir();
	size_t n;
	char **labels;
	const struct option opts[] = {
		OPT_STRING(0, "cache", &cache, "DIR", "kernel cache"),
		OPT_END(),
	};
	int nargs = parse_options(argc, argv, opts, "kernel list", "", 0);

	if (nargs < 0)
		return EXIT_USAGE;
	if (nargs)
		return error("kernel list: unknown argument '%s'", argv[0]), EXIT_USAGE;
	if (kbuild_cache_check(cache))
		return EXIT_RUNTIME;
	labels = kbuild_labels(cache, &n);
	if (!n) {
		info("no kernels built yet in %s (see `mmbench kernel build`)", cache);
		return EXIT_OK;
	}
	int w = 5;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(labels[i]) > w)
			w = (int)strlen(labels[i]);
	printf("%-*s %-24s %-12s %-16s %s\n", w, "LABEL", "RELEASE", "COMMIT", "BUILT", "PATCHES");
	for (size_t i = 0; i < n; i++) {
		struct kernel_entry e;
		char when[32] = "?";

		if (kbuild_find(cache, labels[i], &e) == 0) {
			time_t t = e.built ? (time_t)atoll(e.built) : 0;
			struct tm tm;
			int np = 0;

			if (t && gmtime_r(&t, &tm))
				strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
			for (const char *p = e.patches_json; p && (p = strstr(p, "\"subject\"")); p++)
				np++;
			printf("%-*s %-24s %-12.12s %-16s %d\n", w, e.label,
			       e.release ? e.release : "?", e.base_commit ? e.base_commit : "?",
			       when, np);
			kernel_entry_release(&e);
		} else {
			printf("%-*s (broken cache entry; `mmbench kernel rm %s`)\n", w, labels[i],
			       labels[i]);
		}
		free(labels[i]);
	}
	free(labels);
	return EXIT_OK;
}

static int kernel_rm(int argc, char **argv)
{
	const char *cache = kbuild_cache_dir();
	int ret = EXIT_OK, nlabels;
	const struct option opts[] = {
		OPT_STRING(0, "cache", &cache, "DIR", "kernel cache"),
		OPT_END(),
	};

	nlabels = parse_options(argc, argv, opts, "kernel rm", "LABEL...", 0);
	if (nlabels < 0)
		return EXIT_USAGE;
	if (!nlabels)
		return error("kernel rm: which LABEL? (see `mmbench kernel list`)"), EXIT_USAGE;
	if (kbuild_cache_check(cache))
		return EXIT_RUNTIME;
	for (int i = 0; i < nlabels; i++) {
		char err[256];
		int rc;

		/* a label names a link in labels/: never a path ("../../x") */
		if (kbuild_label_valid(argv[i], err, sizeof(err))) {
			error("kernel rm: label %s", err);
			ret = EXIT_USAGE;
			continue;
		}
		rc = kbuild_remove(cache, argv[i]);
		if (rc == MMB_EUSAGE) {
			error("kernel rm: no kernel labelled '%s' in %s", argv[i], cache);
			ret = EXIT_USAGE;
		} else if (rc < 0) {
			error("kernel rm: could not remove all of '%s'", argv[i]);
			ret = EXIT_RUNTIME;
		} else {
			/* results in the DB are kept: they are data, not cache */
			info("removed kernel %s (recorded results are kept)", argv[i]);
		}
	}
	return ret;
}

int cmd_kernel(int argc, char **argv)
{
	static const struct command subs[] = {
		{ "build", kernel_build, 0 },
		{ "list", kernel_list, 0 },
		{ "rm", kernel_rm, 0 },
	};
	const struct option opts[] = { OPT_END() };

	argc = parse_options(argc, argv, opts, "kernel", "build|list|rm ...",
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return EXIT_USAGE;
	return run_subcommand("kernel", subs, ARRAY_SIZE(subs), argc, argv);
}
