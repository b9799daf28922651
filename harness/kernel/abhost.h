/*
 * `mmbench ab --host`: the interleaved A/B on the machine itself, one boot
 * a run, across kexecs (or one-shot reboots), unattended.
 *
 * A campaign file in the state folder (written atomically and fsync'ed)
 * holds the plan, the boot done, the boot in flight with its deadline,
 * and the failures.  Each step: check the running kernel is the one
 * expected (release, cmdline; build id recorded), run the experiment on
 * it with `mmbench run --name LABEL`, then install the resume hook (a
 * systemd unit, journaled in envctl) and kexec into the next kernel.  At
 * boot the hook runs `ab --host --resume`.  After the last boot: compare
 * as `ab` does, the hook removed.  Permanent boot entries are never
 * edited, so the machine's default kernel stays its default.
 */
#ifndef MMB_ABHOST_H
#define MMB_ABHOST_H

#include "ab.h"

/* Check --host's options (after parse); operands: the CONFIG.yaml.  0 or -1. */
int abhost_opts_check(struct ab_opts *o, int argc, char **argv);
/* Start, --resume, --status or --abort.  0, -1, or MMB_EUSAGE. */
int abhost_run(const struct ab_opts *o);

/* The release a bzImage names in its setup header, into buf: 0, or -1. */
int abhost_bzimage_release(const char *path, char *buf, size_t len);

#endif
