/*
 * mmbench vm run: boot a built kernel under QEMU and run an experiment in
 * it (harness/kernel/vmrun.h).  `mmbench vm guest` is the agent the guest's
 * /init runs; it is not meant for users.
 */
#include "builtin.h"
#include "parse-options.h"
#include "util.h"
#include "vm-options.h"
#include "vmrun.h"

#include <stdlib.h>
#include <string.h>

static int vm_run_cmd(int argc, char **argv)
{
	struct vm_opts o;
	struct vm_result r;
	int ret, n;
	const struct option opts[] = {
		OPT_STRING(0, "kernel", &o.label, "LABEL", "kernel to boot"),
		VM_OPTIONS(&o),
		OPT_STRING(0, "db", &o.db_path, "FILE", "results database"),
		/* tests only: panic the guest after N iterations streamed */
		{ .type = OPTION_INT, .long_name = "test-crash-after", .value = &o.crash_after,
		  .argh = "N", .min = 1, .max = INT_MAX, .flags = PARSE_OPT_HIDDEN },
		OPT_END(),
	};

	vm_opts_init(&o);
	n = parse_options(argc, argv, opts, "vm run", "CONFIG.yaml", 0);
	if (n < 0)
		return EXIT_USAGE;
	if (n > 1)
		return error("vm run: one CONFIG.yaml only ('%s' and '%s')", argv[0], argv[1]),
		       EXIT_USAGE;
	o.experiment = argv[0];
	if (!o.label)
		return error("vm run: --kernel LABEL is required (see `mmbench kernel list`)"),
		       EXIT_USAGE;
	if (!o.experiment)
		return error("vm run: which CONFIG.yaml?"), EXIT_USAGE;
	ret = vm_run(&o, &r);
	vm_result_release(&r);
	return mmb_exit_code(ret);
}

static int vm_guest_cmd(int argc, char **argv)
{
	if (argc != 2)
		return usage_error("vm", "usage: mmbench vm guest ARGSFILE (inside the guest only)");
	return vm_guest_main(argv[1]);
}

int cmd_vm(int argc, char **argv)
{
	static const struct command subs[] = {
		{ "run", vm_run_cmd, 0 },
		{ "guest", vm_guest_cmd, SUBCOMMAND_HIDDEN },
	};
	const struct option opts[] = { OPT_END() };

	argc = parse_options(argc, argv, opts, "vm", "run|guest ...", PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return EXIT_USAGE;
	return run_subcommand("vm", subs, ARRAY_SIZE(subs), argc, argv);
}
