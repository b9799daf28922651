/* Shared between abhost.c (the campaign) and abhost-boot.c (the machine). */
#ifndef MMB_ABHOST_INTERNAL_H
#define MMB_ABHOST_INTERNAL_H

#include "util.h"

#include <stdbool.h>

struct abhost_side {
	char *label, *image, *initrd, *cmdline, *release, *entry;
};

struct campaign {
	char *status;			/* running, done, failed, aborted */
	char *config, *db, *mode;	/* mode: kexec or reboot */
	struct abhost_side k[2];	/* A, B */
	char *plan;			/* "ABBA...": one letter a boot */
	char *home_release, *home_cmdline;	/* the kernel the campaign started on */
	int next;			/* the boot of the plan to run next */
	int inflight;			/* the boot booted into, not yet checked; -1 */
	double deadline;		/* ... it must resume before this (wall clock) */
	int failures, max_failures, resume_s, seed, rounds;
	double precision;		/* --precision (0: the plan is fixed), as a fraction */
	int max_rounds, was_precise;	/* --max-rounds; the last look's answer */
	struct strbuf log;		/* "failure\t..." lines, as in the file */
};

/* What runs now: release, cmdline, build id ("" when unknown). */
struct running {
	char release[256], cmdline[4096], build_id[128];
};

void abhost_running(struct running *r);
/* 0 or 1: the side c->k that is running; -1 neither. */
int abhost_running_side(const struct campaign *c, const struct running *r);
/* Install the resume hook (journaled first): the unit, or without systemd the file; 0 or -1. */
int abhost_hook_install(void);
/* Boot side (kexec, or a one-shot entry and a reboot); returns only on failure: -1. */
int abhost_boot(const struct campaign *c, int side);
/* A plain reboot, to the machine's default kernel. */
void abhost_reboot_default(void);
/* --i-have-console, a watchdog device, or panic=N>0 on every cmdline: 0, or -1. */
int abhost_safety(bool console, const char *const *cmdlines, size_t n);

#endif
