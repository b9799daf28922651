/*
 * mmbench ab: build base and patched kernels and run an experiment on both,
 * interleaved, then compare (harness/kernel/ab.h).
 */
#include "ab.h"
#include "abhost.h"
#include "builtin.h"
#include "parse-options.h"
#include "precision.h"
#include "util.h"
#include "vm-options.h"

/* ab --host (harness/kernel/abhost.h) */
#define AB_HOST_OPTIONS(h)								\
	OPT_BOOL(0, "host", &(h)->on, "A/B on this machine, a kexec a boot"),		\
	OPT_STRING(0, "kernel-a", &(h)->kernel[0], "K", "kernel A: label or image"),	\
	OPT_STRING(0, "kernel-b", &(h)->kernel[1], "K", "kernel B: label or image"),	\
	OPT_STRING(0, "initrd-a", &(h)->initrd[0], "FILE", "kernel A's initrd"),	\
	OPT_STRING(0, "initrd-b", &(h)->initrd[1], "FILE", "kernel B's initrd"),	\
	OPT_STRING(0, "cmdline-a", &(h)->cmdline[0], "TEXT", "kernel A's cmdline"),	\
	OPT_STRING(0, "cmdline-b", &(h)->cmdline[1], "TEXT", "kernel B's cmdline"),	\
	OPT_BOOL(0, "reboot", &(h)->reboot, "one-shot boot entries instead of kexec"),	\
	OPT_STRING(0, "entry-a", &(h)->entry[0], "E", "--reboot: A's boot entry"),	\
	OPT_STRING(0, "entry-b", &(h)->entry[1], "E", "--reboot: B's boot entry"),	\
	OPT_BOOL(0, "i-have-console", &(h)->console, "a console reaches this machine"), \
	OPT_INT_RANGE(0, "seed", &(h)->seed, 1, 1000000000, "N", "random round order"), \
	OPT_INT_RANGE(0, "max-failures", &(h)->max_failures, 1, 1000, "N",		\
		      "stop after N failed boots (default 2)"),				\
	OPT_INT_RANGE(0, "resume-timeout", &(h)->resume_s, 1, 86400, "S",		\
		      "a boot must resume within S seconds (default 900)"),		\
	OPT_BOOL(0, "status", &(h)->status, "the campaign's state"),			\
	OPT_BOOL(0, "abort", &(h)->abort, "end the campaign, remove the hook"),	\
	OPT_BOOL(0, "resume", &(h)->resume, "go on (the boot hook runs this)")

int ab_parse_args(struct ab_opts *o, int argc, char **argv)
{
	const struct option opts[] = {
		OPT_STRING(0, "tree", &o->build.tree, "DIR", "git work tree of the kernel"),
		OPT_STRING(0, "base", &o->build.ref, "REF", "base commit"),
		OPT_STRING(0, "new", &o->new_ref, "REF", "new commit (default: --base)"),
		OPT_LIST(0, "patch", &o->build.patches, &o->build.npatches, "P", "the series"),
		OPT_LIST(0, "config", &o->build.fragments, &o->build.nfragments, "FRAG",
			 "config fragment for both kernels"),
		OPT_STRING(0, "base-config", &o->build.base_config, "B",
			   "defconfig, tinyconfig or a config file"),
		OPT_STRING(0, "base-name", &o->base_label, "L", "label of the base kernel"),
		OPT_STRING(0, "new-name", &o->new_label, "L", "label of the patched kernel"),
		OPT_INT_RANGE(0, "rounds", &o->rounds, 1, 1000, "N", "A/B rounds"),
		OPT_CALLBACK(0, "precision", &o->precision, "P", "add rounds until every KPI's"
			     " run-level 95% CI is within P of the mean", precision_opt),
		OPT_INT_RANGE(0, "max-rounds", &o->max_rounds, 2, 1000, "N",
			      "at most N rounds with --precision (default 30)"),
		OPT_INT_RANGE(0, "jobs", &o->build.jobs, 1, 4096, "N", "parallel make jobs"),
		OPT_STRING(0, "plots", &o->plot_dir, "DIR", "where to write the plots"),
		OPT_BOOL(0, "no-plots", &o->no_plots, "do not draw plots"),
		OPT_STRING(0, "format", &o->compare_format, "F", "compare table format"),
		VM_OPTIONS(&o->vm),
		OPT_STRING(0, "db", &o->vm.db_path, "FILE", "results database"),
		AB_HOST_OPTIONS(&o->host),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, "ab", "CONFIG.yaml", 0);

	const struct ab_host_opts *h = &o->host;

	if (n >= 0 && o->host.on)
		return abhost_opts_check(o, n, argv);
	if (n >= 0 && (h->kernel[0] || h->kernel[1] || h->initrd[0] || h->initrd[1] ||
		       h->cmdline[0] || h->cmdline[1] || h->entry[0] || h->entry[1] || h->reboot ||
		       h->console || h->status || h->abort || h->resume || h->seed ||
		       h->max_failures || h->resume_s))
		return error("ab: --kernel-a/-b, --initrd, --cmdline, --reboot, --entry, "
			     "--i-have-console, --seed, --max-failures, --resume-timeout, --status, "
			     "--abort and --resume go with --host");
	return n < 0 ? -1 : ab_opts_check(o, n, argv);
}

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o;
	struct ab_result r;
	int ret;

	ab_opts_init(&o);
	if (ab_parse_args(&o, argc, argv) < 0) {
		ab_opts_release(&o);
		return EXIT_USAGE;
	}
	if (o.host.on) {
		ret = abhost_run(&o);
		ab_opts_release(&o);
		return mmb_exit_code(ret);
	}
	ret = ab_run(&o, &r);
	if (r.base_label && r.new_label)
		info("ab: %s vs %s [%s]: %d rounds recorded (%d run now) in %.0fs%s", r.base_label,
		     r.new_label, accel_record_name(r.accel, r.clock), r.rounds_done, r.rounds_run, r.wall,
		     r.set_aside ? "; boots set aside (the host was busy) are 'failed' in list runs"
				 : "");
	ab_result_release(&r);
	ab_opts_release(&o);
	return mmb_exit_code(ret);
}
