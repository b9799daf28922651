/*
 * Interleaved A/B of two kernels (`mmbench ab`, reused by `mmbench
 * reproduce`).
 *
 * Builds (or finds in the cache) the base kernel at base_ref and the new
 * kernel = base (or --new REF) + series, then boots them alternately, A B A B ..., one
 * boot per kernel per round, each boot running the whole experiment, so
 * slow drift of the host hits both kernels alike.  Then runs `mmbench
 * compare BASE NEW` and `mmbench plot` on the result.
 *
 * Resumable: rounds already recorded (complete runs of the same experiment
 * text under the same accelerator, counted per label) are not run again,
 * and builds come from the kernel cache.
 *
 * Accelerator: chosen once (auto: KVM if usable, else TCG) and forced for
 * every boot; if the labels already hold complete/interrupted runs made
 * under another accelerator, ab refuses to compare (runs.accel).
 *
 * Prebuilt kernels: with tree == NULL, base_label and new_label must name
 * kernels already in the cache (`mmbench kernel build`), nothing is built.
 */
#ifndef MMB_AB_H
#define MMB_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "kbuild.h"
#include "vmrun.h"

/* ab --host: the A/B on this machine, a kexec (or reboot) per boot (abhost.h) */
struct ab_host_opts {
	bool on;			/* --host */
	const char *kernel[2];		/* --kernel-a/-b: a `kernel build` label or an image */
	const char *initrd[2], *cmdline[2];	/* NULL: none; the running cmdline */
	const char *entry[2];		/* --reboot: boot loader entries of A and B */
	bool reboot;			/* one-shot boot entries instead of kexec */
	bool console;			/* --i-have-console */
	bool status, abort, resume;
	int seed;			/* --seed: each round's order random; 0: A B B A ... */
	int max_failures;		/* 0: 2 */
	int resume_s;			/* a boot must resume within this; 0: 900 */
};

struct ab_opts {
	/*
	 * As `kernel build` for both kernels (tree NULL: use prebuilt labels;
	 * ref is --base); the new kernel adds the patches.  label, db_path and
	 * cache_dir are set per build from the labels and vm.
	 */
	struct kbuild_opts build;
	const char *new_ref;		/* --new: the new kernel's commit (NULL: --base) */
	const char *base_label;		/* NULL: short base commit (with --new: git describe) */
	const char *new_label;		/* NULL: last patch subject, else git describe of --new */
	const char *experiment;		/* CONFIG.yaml */
	struct vm_opts vm;		/* cpus, mem, accel, timeouts, iterations, db; label/experiment ignored */
	int rounds;			/* 0: 3 */
	const char *plot_dir;		/* NULL: <db dir>/ab-<base>-vs-<new> */
	bool no_plots;
	bool no_compare;
	const char *compare_format;	/* NULL: compare's readable table */
	double precision;		/* --precision: every KPI's run-level 95% CI within this
					   share of each label's mean; 0 off */
	int max_rounds;			/* --max-rounds with --precision; 0: 30 */
	struct ab_host_opts host;
};

struct ab_result {
	char *base_label, *new_label;
	int rounds_done;		/* rounds recorded after this call */
	int rounds_run;			/* rounds this call ran */
	int compare_rc;			/* exit status of `mmbench compare` (-1 not run) */
	double build_base_s, build_new_s;	/* 0 when cached */
	double first_sample_s;		/* boot to first sample of the first boot */
	double wall;
	enum accel accel;
	enum vm_clock clock;
	/* the costs Kalibera-Jones plans with: per boot, boot to first sample
	   and the rest of the boot per iteration, summed over nboots */
	double boot_s, iter_s;
	int nboots;
	double halfwidth;		/* --precision: the widest KPI CI at the end, % */
	int set_aside;			/* boots done again: the host was busy during them */
};

void ab_opts_init(struct ab_opts *o);
void ab_opts_release(struct ab_opts *o);
/*
 * Check `ab`'s options as parsed into o (the table is builtin-ab.c's) and
 * the operands left (argc, argv: the CONFIG.yaml); sets o->experiment.  0,
 * or -1 with one message (a usage error: exit 2).
 */
int ab_opts_check(struct ab_opts *o, int argc, char **argv);

/*
 * Run it.  Returns 0 when every round ran and compare succeeded, -1 on a
 * runtime failure (build error, guest crash: what was measured is kept,
 * re-run to resume), MMB_EUSAGE on bad input (exit 2).
 */
int ab_run(const struct ab_opts *o, struct ab_result *r);
void ab_result_release(struct ab_result *r);
/*
 * The end of an A/B series of `rounds` rounds in dbpath, r's labels set:
 * the accelerator check, compare and plots as o asks.  0, or -1.
 */
int ab_report(const struct ab_opts *o, const char *dbpath, int rounds, struct ab_result *r);
/*
 * --precision's look after k rounds of r's labels in dbpath (said on
 * stderr): *next the rounds to have (0: stop, with a warning when the
 * target was not reached), *was carried from look to look, r->halfwidth
 * the widest CI.  ab's loop and ab --host's campaign both ask it; 0 or -1.
 */
/* --max-rounds only with --precision, and not below --rounds; who names the command.  0 or -1. */
int ab_precision_opts_check(const struct ab_opts *o, const char *who);
int ab_precision_next(const struct ab_opts *o, const char *dbpath, struct ab_result *r, size_t k,
		      bool *was, size_t *next);

#endif
