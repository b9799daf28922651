/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm-scalability: shared definitions of the plugin (vm-scalability.c: the
 * descriptor, rounds and metrics) and its usemem-like engine (engine.c:
 * the tasks and what each case does to memory).
 */
#ifndef MMB_VMS_H
#define MMB_VMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include <mmbench/workload.h>

/* Where a case's memory comes from. */
enum vms_backing { B_ANON, B_HUGETLB, B_FILE, B_SHM };

/* What a task does to its memory. */
enum vms_op {
	OP_TOUCH,	/* read or write every word of every page */
	OP_READFILE,	/* read() its file (once or twice) */
	OP_SMALL,	/* many one-page mmaps, each written */
	OP_MSYNC,	/* write its slice of a shared file, then msync(MS_SYNC) */
	OP_TRUNCATE,	/* fault its file into the page cache, then truncate it */
};

/* One lkp vm-scalability case, as data. */
struct vms_case {
	const char *name;	/* lkp's test name: "anon-w-seq-mt" */
	unsigned char backing;	/* enum vms_backing */
	unsigned char op;	/* enum vms_op */
	bool write;		/* OP_TOUCH: write (else read) */
	bool rand;		/* page order pseudo-random (else sequential) */
	bool mt;		/* tasks are threads of one mm (else processes) */
	bool shared;		/* one region mapped before the tasks start */
	bool whole;		/* "x": every task covers the whole region */
	bool cow;		/* region written first, then written after fork */
	bool twice;		/* OP_READFILE twice; OP_TRUNCATE in steps */
	bool mremap;		/* the region is moved (mremap) after the reads */
};

extern const struct vms_case vms_cases[];

/* A task's result, in a MAP_SHARED block (forked tasks write it too). */
struct vms_res {
	uint64_t bytes, usecs;		/* the work as usemem counts it (9/8), and its time */
	uint64_t fault_bytes, fault_usecs;	/* OP_TRUNCATE's fault phase */
	uint64_t free_usecs;		/* munmap of its memory + 1; 0 none */
	int err;			/* errno of the first failure, 0 none */
	char what[48];			/* which call failed */
	uint64_t sink;			/* sums of read loops land here */
} __attribute__((aligned(128)));

struct vms_ctl {
	volatile int ready, go, stop;
	int finished;			/* threads done (-mt cases) */
};

/* One round: what the engine needs to run and what it measured. */
struct vms_round {
	const struct vms_case *c;
	int nr_task;
	size_t bytes;			/* all tasks together, page multiple */
	size_t page;			/* base page or huge page */
	const char *dir;		/* files of B_FILE */
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC: tasks stop touching then */
	uint64_t t0_ns;			/* the round's start: every task's clock */
	struct vms_ctl *ctl;		/* MAP_SHARED */
	struct vms_res *res;		/* nr_task + 1 (the last: the main task's) */
	char *region;			/* the shared region, NULL for own regions */
	size_t region_len;
	int fd;				/* the shared object, -1 none */
	int zero_fd;			/* /dev/zero, what B_ANON maps; -1 none */
	char errbuf[160];
};

/*
 * How vms_walk_words() steps through a task's memory (walk.c): the
 * choices usemem reads from memory on every step, one set per round.
 * Only random is ever on here; the others are the checks its options
 * cost it each step.
 */
struct vms_walk {
	int random;			/* a random word each step (else in order) */
	unsigned long verify;		/* check each word holds its index */
	unsigned long fixed_data;	/* written instead of the index, 0 none */
	unsigned long delay_pages;	/* yield on each new page, 0 none */
	unsigned long limit;		/* words at most, 0 all */
	unsigned long step;		/* bytes from one word to the next */
	const struct vms_ctl *ctl;	/* ctl->stop ends the walk */
	uint64_t deadline_ns;		/* so does CLOCK_MONOTONIC past this */
};

/* The walk's settings for the round about to start its tasks. */
void vms_walk_set(const struct vms_walk *w);
/*
 * Read or write [vp, vp + len) one word per step; *pass is the pass
 * number (a later pass over written memory verifies it).  Returns the
 * bytes touched, 8 per step; a failed check is noted in res.
 */
size_t vms_walk_words(volatile unsigned long *vp, size_t len, int read, struct drand48_data *rd,
		      const int *pass, struct vms_res *res);

uint64_t vms_mono_ns(void);
/* Note a task's first failure in res; returns -1. */
int vms_task_fail(struct vms_res *res, const char *what, int e);

/*
 * Run one round: set up, start the tasks, wait for them (polling
 * host->should_stop), free.  0, or -1 with the reason in r->errbuf.
 */
int vms_round_run(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_round *r);

/* "2048" kB from /proc/meminfo Hugepagesize, 0 when hugetlb is absent. */
uint64_t vms_hugepage_size(void);
/* HugePages_Free, -1 unknown. */
long vms_hugepages_free(void);

#endif
