/*
 * mmbench vm run: boot a built kernel under QEMU and run an experiment in
 * it (harness/kernel/vmrun.h).  `mmbench vm guest` is the agent the guest's
 * /init runs; it is not meant for users.
 */
#include "builtin.h"
#include "util.h"
#include "vmrun.h"

#include <stdlib.h>
#include <string.h>

static int vm_run_cmd(int argc, char **argv)
{
	struct vm_opts o;
	struct vm_result r;
	int ret;

	vm_opts_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *v;
		int rc = vm_parse_opt(&o, argc, argv, &i);

		if (rc < 0)
			return EXIT_USAGE;
		if (rc)
			continue;
		if ((rc = vm_arg_value(argc, argv, &i, "--test-crash-after", &v))) {
			if (rc < 0)
				return EXIT_USAGE;
			if ((o.crash_after = atoi(v)) < 1)
				return error("--test-crash-after: expected a number >= 1"), EXIT_USAGE;
		} else if ((rc = vm_arg_value(argc, argv, &i, "--kernel", &v))) {
			if (rc < 0)
				return EXIT_USAGE;
			o.label = v;
		} else if (argv[i][0] == '-') {
			return error("vm run: unknown option '%s'", argv[i]), EXIT_USAGE;
		} else if (o.experiment) {
			return error("vm run: one CONFIG.yaml only ('%s' and '%s')", o.experiment,
				     argv[i]), EXIT_USAGE;
		} else {
			o.experiment = argv[i];
		}
	}
	if (!o.label)
		return error("vm run: --kernel LABEL is required (see `mmbench kernel list`)"),
		       EXIT_USAGE;
	if (!o.experiment)
		return error("vm run: which CONFIG.yaml?"), EXIT_USAGE;
	ret = vm_run(&o, &r);
	vm_result_release(&r);
	return ret == 0 ? EXIT_OK : ret == -2 ? EXIT_USAGE : EXIT_RUNTIME;
}

int cmd_vm(int argc, char **argv)
{
	if (argc < 2)
		return error("usage: mmbench vm run --kernel LABEL [options] CONFIG.yaml"),
		       EXIT_USAGE;
	if (!strcmp(argv[1], "run"))
		return vm_run_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "guest")) {
		if (argc != 3)
			return error("usage: mmbench vm guest ARGSFILE (inside the guest only)"),
			       EXIT_USAGE;
		return vm_guest_main(argv[2]);
	}
	return error("vm: unknown subcommand '%s' (run)", argv[1]), EXIT_USAGE;
}
