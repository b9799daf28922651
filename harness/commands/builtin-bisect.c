/*
 * mmbench bisect: find the commit that changed a metric, each step decided
 * by a sequential test (harness/kernel/bisect.h, docs/bisect.md).
 */
#include "bisect.h"
#include "builtin.h"
#include "initramfs.h"
#include "parse-options.h"
#include "util.h"
#include "vm-options.h"

#include <string.h>

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o;
	struct bisect_measure m = { 0 };
	struct vm_opts vm;
	bool log = false;
	const struct option opts[] = {
		OPT_STRING(0, "tree", &o.tree, "DIR", "git work tree of the kernel"),
		OPT_STRING(0, "good", &o.good, "REF", "a commit with the old behaviour"),
		OPT_STRING(0, "bad", &o.bad, "REF", "a commit with the new behaviour"),
		OPT_STRING(0, "metric", &o.metric, "W.M[@V]", "the metric that changed"),
		OPT_INT_RANGE(0, "rounds", &o.endpoint_rounds, 2, 1000, "N",
			      "first runs of each endpoint (default 5)"),
		OPT_INT_RANGE(0, "max-rounds", &o.step.max_rounds, 1, 1000, "N",
			      "candidate runs before a step is skipped (default 10)"),
		OPT_DOUBLE(0, "alpha", &o.step.alpha, "P",
			   "a step's chance of calling a good commit bad (default 0.01)"),
		OPT_DOUBLE(0, "beta", &o.step.beta, "P",
			   "a step's chance of calling a bad commit good (default 0.01)"),
		OPT_LIST(0, "config", &o.build.fragments, &o.build.nfragments, "FRAG",
			 "config fragment for every kernel"),
		OPT_STRING(0, "base-config", &o.build.base_config, "B",
			   "defconfig, tinyconfig or a config file"),
		OPT_INT_RANGE(0, "jobs", &o.build.jobs, 1, 4096, "N", "parallel make jobs"),
		VM_OPTIONS(&vm),
		OPT_STRING(0, "db", &vm.db_path, "FILE", "results database"),
		OPT_END(),
	};
	int n, rc;

	bisect_opts_init(&o);
	vm_opts_init(&vm);
	if (argc > 1 && !strcmp(argv[1], "log")) {
		log = true;
		argc--;
		argv++;
	}
	n = parse_options(argc, argv, opts, log ? "bisect log" : "bisect", "CONFIG.yaml", 0);
	if (n < 0) {
		rc = EXIT_USAGE;
	} else if (log && (!o.tree || !o.good || !o.bad)) {
		error("bisect log: --tree, --good and --bad name the bisect");
		rc = EXIT_USAGE;
	} else if (log) {
		rc = mmb_exit_code(bisect_print_log(&o));
	} else if (bisect_opts_check(&o, n, argv) < 0 ||
		   vm_clock_check(&vm.accel, vm.clock, vm.cpus) < 0 ||
		   vm_arch_check(vm.arch, &vm.accel, vm.machine) < 0 ||
		   (rc = bisect_fake_measure(&o, &m)) < 0 ||
		   /* real kernels: an arm64 guest's programs, before the first build */
		   (rc == 0 && vm.arch && initramfs_guest_ready(vm.arch) < 0)) {
		rc = EXIT_USAGE;
	} else {
		o.virtual_clock = vm.clock == VM_CLOCK_VIRTUAL;
		o.microvm = vm.machine == VM_MACHINE_MICROVM;
		o.machine_auto = vm.machine == VM_MACHINE_AUTO;
		o.build.arch = vm.arch;
		if (rc == 0)
			bisect_kernel_measure(&o, &vm, &m);
		rc = bisect_run(&o, &m);
		rc = rc == 1 ? EXIT_RUNTIME : mmb_exit_code(rc);
	}
	bisect_opts_release(&o);
	return rc;
}
