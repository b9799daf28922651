/*
 * mmbench ab: build base and patched kernels and run an experiment on both,
 * interleaved, then compare (harness/kernel/ab.h).
 */
#include "ab.h"
#include "builtin.h"
#include "util.h"

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o;
	struct ab_result r;
	int ret;

	ab_opts_init(&o);
	if (ab_opts_parse(&o, argc, argv) < 0) {
		ab_opts_release(&o);
		return EXIT_USAGE;
	}
	ret = ab_run(&o, &r);
	if (r.base_label && r.new_label)
		info("ab: %s vs %s [%s]: %d rounds recorded (%d run now) in %.0fs", r.base_label,
		     r.new_label, accel_name(r.accel), r.rounds_done, r.rounds_run, r.wall);
	ab_result_release(&r);
	ab_opts_release(&o);
	return mmb_exit_code(ret);
}
