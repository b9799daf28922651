// SPDX-License-Identifier: GPL-2.0
/*
 * The per-word loop of the vm-scalability plugin, built at -O as usemem is
 * (Makefile: PLUGIN_O1_SRC), not at the plugin's -O2.  At a few cycles a
 * word, user time follows the loop's machine code: the loop at -O2 ran
 * 0.83-1.14x usemem's user time from case to case depending on where its
 * blocks fell, and edits elsewhere in the plugin moved it.  So this file
 * holds only the loop, written step for step as usemem behaves
 * (docs/workloads.md): the same checks, in the same order, each reading
 * its setting from memory, built as usemem is built.
 */
#include "vms.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#define CHECK_WORDS	0xffffu		/* words between runtime/stop checks */
/*
 * The loop and its call start on a cache line: where they fell mod 64
 * moved user time by 10% (the same code at 32 mod 64 ran 1.10-1.14x
 * usemem's), and this keeps edits elsewhere in the plugin from moving it.
 */
#define HOT_CODE_ALIGN	64
/*
 * And where in its lines the loop falls.  On an AMD EPYC host (2026-12-07)
 * the sequential cases ran 0.93-1.14x usemem's throughput as the loop was
 * shifted 0-56 bytes past the line, in steps of 8; 8 bytes put all five
 * within 3% (docs/workloads.md has the table).  usemem's own speed moves
 * as much with its layout (built -falign-functions=64: 1.10-1.15x), so
 * this matches the stock build, the one lkp and users run.  The pad runs
 * once per call.  x86 only: 0x90 is not an instruction elsewhere.
 */
#if defined(__x86_64__)
#define HOT_LOOP_SHIFT()	__asm__ volatile(".skip 8, 0x90")
#else
#define HOT_LOOP_SHIFT()	do { } while (0)
#endif

/*
 * One word, read or written, through a call: usemem's -O build keeps its
 * access out of line.  The read falls through and the write is a taken
 * branch, as in usemem's build; the other way round, the read-only cases
 * took 10-20% more user time than usemem's.
 */
static __attribute__((noipa, aligned(HOT_CODE_ALIGN)))
unsigned long vms_word_access(volatile unsigned long *p, unsigned long idx, int read,
			      unsigned long data)
{
	if (__builtin_expect(read, 1))
		return p[idx];
	p[idx] = data;
	return 0;
}

/* usemem's pick: a word in [0, max] from a drand48 state, through a double. */
static unsigned long random_word(unsigned long max, struct drand48_data *rd)
{
	long v;

	lrand48_r(rd, &v);
	return (unsigned long)((double)max * (double)v / 2147483648.0);
}

/*
 * The round's settings, set before its tasks start and only read after:
 * memory the loop reads on every step through a PC-relative address, as
 * usemem reads its option globals (a pointer to them took a register the
 * loop needed, and its random reads ran 7% slower than usemem's).
 */
static struct vms_walk walk;

void vms_walk_set(const struct vms_walk *w)
{
	walk = *w;
	if (walk.step < sizeof(unsigned long))	/* a step of 0 would never end */
		walk.step = sizeof(unsigned long);
}

/* Out of line, as usemem's runtime check: reached once per 64Ki words. */
static __attribute__((noinline)) int walk_stopped(void)
{
	return walk.ctl->stop || vms_mono_ns() > walk.deadline_ns;
}

__attribute__((aligned(HOT_CODE_ALIGN)))
size_t vms_walk_words(volatile unsigned long *vp, size_t len, int read, struct drand48_data *rd,
		      const int *pass, struct vms_res *res)
{
	unsigned long m = len / sizeof(*vp), i, prev_page = 0, left = walk.limit;
	int random = walk.random;
	size_t done = 0;

	HOT_LOOP_SHIFT();
	for (i = 0; i < m; i += walk.step / sizeof(*vp)) {
		unsigned long idx = i, data;

		if (random)
			idx = random_word(m - 1, rd);
		/* a later pass over written memory verifies what the first wrote */
		if ((walk.verify || (pass && *pass && !read && !random)) && vp[idx] != idx) {
			vms_task_fail(res, "verify", EIO);
			break;
		}
		data = walk.fixed_data ? walk.fixed_data : idx;
		vms_word_access(vp, idx, read, data);
		done += sizeof(*vp);
		if (walk.delay_pages && (idx * sizeof(*vp)) >> 12 != prev_page) {
			prev_page = (idx * sizeof(*vp)) >> 12;
			sched_yield();
		}
		if (!(i & CHECK_WORDS) && walk_stopped())
			break;
		if (left) {
			left--;
			if (!left)
				break;
		}
	}
	return done;
}
