// SPDX-License-Identifier: GPL-2.0
/*
 * The usemem-like engine of the vm-scalability plugin, written from the
 * behaviour docs/workloads.md describes (no usemem or lkp code): nr_task
 * tasks, processes or threads, each time its own work on its part of the
 * memory (or all of it, the "x" cases) and report bytes and microseconds.
 *
 * usemem's clock starts when the program does, before its preallocated
 * memory is mapped and its tasks are forked, and each task stops it after
 * its own work: so a round's clock (r->t0_ns) starts before the shared
 * region is mapped (and, for cow, prefaulted) and the tasks are started,
 * and every task's time is from there.  Memory a task maps itself is
 * mapped inside its time and unmapped after it, timed on its own (lkp's
 * free_time); preallocated memory has no free time.  Work is done one
 * word per step (walk.c), and counted as usemem counts it: the
 * words touched plus an eighth of the memory the task was given.
 */
#include "vms.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK	4096u		/* read() size of the readonce/twice cases: dd bs=4k */
#define TRUNC_STEP	(1u << 20)	/* truncate-seq: bytes cut per call */
#define CHECK_BLOCKS	0x3fu		/* file blocks (256 KiB) between them */
#define SMALL_UNIT_PAGES 10		/* small-allocs: each mapping is 10 pages */
#define FREE_TIMED_MAX	32		/* usemem times the free of at most 32 mappings */

uint64_t vms_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ctl lives in MAP_SHARED memory: a shared futex reaches forked tasks too. */
static void futex_wait(volatile int *addr, int val, long timeout_ns)
{
	struct timespec ts = { 0, timeout_ns };

	syscall(SYS_futex, (int *)addr, FUTEX_WAIT, val, timeout_ns ? &ts : NULL, NULL, 0);
}

static void futex_wake(volatile int *addr)
{
	syscall(SYS_futex, (int *)addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* A task is ready: count it, then sleep (not spin: tasks still forking need the CPUs) until go. */
static void ready_then_wait(struct vms_ctl *ctl)
{
	__atomic_add_fetch(&ctl->ready, 1, __ATOMIC_SEQ_CST);
	futex_wake(&ctl->ready);
	while (!__atomic_load_n(&ctl->go, __ATOMIC_SEQ_CST))
		futex_wait(&ctl->go, 0, 0);
}

int vms_task_fail(struct vms_res *res, const char *what, int e)
{
	if (!res->err) {
		res->err = e ? e : EIO;
		snprintf(res->what, sizeof(res->what), "%s", what);
	}
	return -1;
}

/*
 * A case whose tasks only read their memory: usemem maps it read-only, and
 * a file private, unless told -S (lkp's read cases are not), and opens its
 * file read-only (without -w), as dd opens its input.  truncate's file is
 * cut through its descriptor, so it stays writable.
 */
static bool reads_only(const struct vms_case *c)
{
	return !c->write && !c->cow && c->op != OP_MSYNC && c->op != OP_TRUNCATE;
}

/*
 * An unlinked sparse file of len bytes in dir, or a memfd for shm.  A
 * case that only reads gets its file opened again read-only, as the case
 * script's truncate leaves it for dd or usemem: nothing holds it open for
 * writing while it is read.
 */
static int make_object(const struct vms_round *r, size_t len, struct vms_res *res)
{
	char path[4096] = "";	/* empty for a memfd: nothing to reopen or unlink */
	const char *what = "ftruncate";
	int fd, e;

	if (r->c->backing == B_SHM) {
		fd = memfd_create("mmbench-vm-scalability", MFD_CLOEXEC);
		if (fd < 0)
			return vms_task_fail(res, "memfd_create", errno);
	} else {
		snprintf(path, sizeof(path), "%s/mmbench-vms-XXXXXX", r->dir);
		fd = mkstemp(path);
		if (fd < 0)
			return vms_task_fail(res, "mkstemp in dir", errno);
	}
	if (ftruncate(fd, (off_t)len) < 0)
		goto fail;
	if (path[0] && reads_only(r->c)) {
		int ro = open(path, O_RDONLY | O_CLOEXEC);

		if (ro < 0) {
			what = "open read-only";
			goto fail;
		}
		close(fd);
		fd = ro;
	}
	if (path[0])
		unlink(path);
	return fd;
fail:
	e = errno;	/* before unlink() and close() can change it */
	if (path[0])
		unlink(path);
	close(fd);
	return vms_task_fail(res, what, e);
}

static char *map_mem(const struct vms_round *r, size_t len, int fd, int extra,
		     struct vms_res *res)
{
	int prot = PROT_READ | PROT_WRITE, flags;
	char *p;

	switch (r->c->backing) {
	case B_ANON:
		/*
		 * usemem's "anonymous" memory is a private map of /dev/zero,
		 * its default file (only lkp's hugetlb cases pass -O): each
		 * mapping is then at file offset 0 and merges with no other,
		 * so small-allocs' 40 KiB units are a VMA each, 13,107 per
		 * task at 1 GiB.  MAP_ANONYMOUS merged them into one: a
		 * kernel change to VMA merging or lookup would have shown in
		 * lkp's small-allocs and not here.
		 */
		flags = MAP_PRIVATE;
		fd = r->zero_fd;
		break;
	case B_HUGETLB:
		flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB;
		break;
	default:
		flags = MAP_SHARED;
		break;
	}
	if (reads_only(r->c)) {
		prot = PROT_READ;
		flags = r->c->backing >= B_FILE ? MAP_PRIVATE : flags;
	}
	p = mmap(NULL, len, prot, flags | extra, r->c->backing == B_HUGETLB ? -1 : fd, 0);
	if (p == MAP_FAILED) {
		vms_task_fail(res, "mmap", errno);
		return NULL;
	}
	return p;
}

/* A task's walk over its words (walk.c), seeded per task as usemem seeds each. */
static size_t walk_words(char *p, size_t len, bool read, unsigned int seed, struct vms_res *res)
{
	struct drand48_data rd;
	int pass = 0;

	srand48_r((long)seed + 1, &rd);
	return vms_walk_words((volatile unsigned long *)(void *)p, len, read, &rd, &pass, res);
}

/* usemem's count: the words touched and an eighth of the memory given. */
static uint64_t lkp_bytes(size_t touched, size_t given)
{
	return (uint64_t)touched + (uint64_t)given / 8;
}

/* A task's time: from the round's start (usemem's clock starts with the program). */
static uint64_t task_usecs(const struct vms_round *r)
{
	return (vms_mono_ns() - r->t0_ns) / 1000;
}

/* dd's records in and out (full and partial blocks), bytes out and input offset. */
struct dd_counts {
	uint64_t r_full, r_partial, w_full, w_partial, w_bytes;
	int64_t in_offset;		/* -1 once it would overflow, as dd keeps it */
};

#define DD_STOPPED	(-2)		/* dd_read(): a stop was asked for */

/* dd looks for a caught signal before each read and each write. */
static __attribute__((noinline)) bool dd_signalled(const struct vms_round *r)
{
	return r->ctl->stop;
}

/* One read of up to size bytes, again after EINTR, as dd's input call. */
static __attribute__((noinline)) ssize_t dd_read(const struct vms_round *r, int fd, char *buf,
						  size_t size)
{
	ssize_t n;

	do {
		if (dd_signalled(r))
			return DD_STOPPED;
		n = read(fd, buf, size);
	} while (n < 0 && errno == EINTR);
	return n;
}

/* All of size bytes, a write at a time, as dd's output call; the bytes written. */
static __attribute__((noinline)) size_t dd_write(const struct vms_round *r, int fd, const char *buf,
						 size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n;

		if (dd_signalled(r))
			break;
		n = write(fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}

/*
 * dd bs=4k if=FILE of=/dev/null, as lkp runs it: blocks read until end of
 * file, each written to /dev/null (half of dd's system calls; without it
 * the case ran 1.44x dd's throughput), with dd's bookkeeping around each:
 * its input and output calls out of line, a look for a signal before each
 * system call, records, bytes and offset counted.  Without that the
 * plugin spent 0.79x dd's user time (4 GiB, 20 pairs).
 */
static size_t read_file(const struct vms_round *r, int fd, struct vms_res *res, char *buf)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct dd_counts c = { 0 };
	uint64_t blocks = 0;

	if (null < 0) {
		vms_task_fail(res, "open /dev/null", errno);
		return 0;
	}
	for (int pass = 0; pass < (r->c->twice ? 2 : 1); pass++) {
		if (lseek(fd, 0, SEEK_SET) < 0) {
			vms_task_fail(res, "lseek", errno);
			break;
		}
		for (;;) {
			ssize_t n = dd_read(r, fd, buf, READ_CHUNK);
			size_t w;

			if (n == DD_STOPPED)
				goto out;
			if (n == 0)
				break;
			if (n < 0) {
				vms_task_fail(res, "read", errno);
				goto out;
			}
			if (c.in_offset >= 0 && __builtin_add_overflow(c.in_offset, n, &c.in_offset))
				c.in_offset = -1;
			*(n == READ_CHUNK ? &c.r_full : &c.r_partial) += 1;
			w = dd_write(r, null, buf, (size_t)n);
			c.w_bytes += w;
			if (w != (size_t)n) {
				if (!r->ctl->stop)
					vms_task_fail(res, "write /dev/null", errno ? errno : EIO);
				goto out;
			}
			*(n == READ_CHUNK ? &c.w_full : &c.w_partial) += 1;
			/* the clock not every block: a read per 4 KiB was a fifth of dd's user time */
			if (!(++blocks & CHECK_BLOCKS) && vms_mono_ns() > r->deadline_ns)
				goto out;
		}
	}
out:
	res->sink += c.r_full + c.r_partial + c.w_full + c.w_partial + (uint64_t)c.in_offset;
	close(null);
	return c.w_bytes;
}

static uint64_t usecs_since(uint64_t t0)
{
	return (vms_mono_ns() - t0) / 1000;
}

/*
 * small-allocs: usemem --readonly --unit 10 pages, as lkp runs it: map 10
 * pages read-only, read every word (the zero page), map the next; usemem
 * times the unmapping only when it kept 32 mappings or fewer.
 */
static void small_allocs(const struct vms_round *r, size_t share, struct vms_res *res)
{
	size_t unit = SMALL_UNIT_PAGES * r->page, n = share / unit, got = 0;
	char **v = calloc(n ? n : 1, sizeof(*v));
	uint64_t t0, words = 0;

	if (!v) {
		vms_task_fail(res, "calloc", ENOMEM);
		ready_then_wait(r->ctl);
		return;
	}
	memset(v, 0, (n ? n : 1) * sizeof(*v));	/* faulted in before the clock */
	ready_then_wait(r->ctl);
	for (; got < n && !r->ctl->stop && vms_mono_ns() <= r->deadline_ns; got++) {
		v[got] = map_mem(r, unit, -1, 0, res);
		if (!v[got])
			break;
		words += walk_words(v[got], unit, true, (unsigned int)got, res);
	}
	res->usecs = task_usecs(r);
	res->bytes = lkp_bytes(words, got * unit);
	/*
	 * More mappings than that, usemem leaves to its exit, which tears
	 * them down at once: unmapping 13,107 VMAs one call each cost the
	 * tasks 1.20x usemem's system time.  A process task exits right
	 * after this; threads unmap (untimed), the round may not be the last.
	 */
	if (got > FREE_TIMED_MAX && !r->c->mt)
		goto out;
	t0 = vms_mono_ns();
	for (size_t i = 0; i < got; i++)
		munmap(v[i], unit);
	if (got && got <= FREE_TIMED_MAX)
		res->free_usecs = (vms_mono_ns() - t0) / 1000 + 1;
out:
	free(v);
}

/* truncate: the file's pages faulted into the page cache, then cut. */
static void truncate_file(const struct vms_round *r, int fd, size_t len, struct vms_res *res)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	uint64_t t0, sum = 0;

	if (p == MAP_FAILED) {
		vms_task_fail(res, "mmap", errno);
		ready_then_wait(r->ctl);
		return;
	}
	ready_then_wait(r->ctl);
	t0 = vms_mono_ns();
	for (size_t off = 0; off < len; off += r->page)
		sum += (unsigned char)p[off];
	res->fault_usecs = usecs_since(t0);
	res->fault_bytes = len;
	res->sink += sum;
	munmap(p, len);
	t0 = vms_mono_ns();
	if (r->c->twice) {
		for (size_t left = len; left;) {
			left = left > TRUNC_STEP ? left - TRUNC_STEP : 0;
			if (ftruncate(fd, (off_t)left) < 0) {
				vms_task_fail(res, "ftruncate", errno);
				break;
			}
		}
	} else if (ftruncate(fd, 0) < 0) {
		vms_task_fail(res, "ftruncate", errno);
	}
	res->usecs = usecs_since(t0);
	res->bytes = len;
}

/* Which part of the shared region task idx covers: all of it for x and cow cases. */
static void slice(const struct vms_round *r, int idx, size_t *off, size_t *len)
{
	size_t pages = r->region_len / r->page, per = pages / (size_t)r->nr_task;

	if (r->c->whole || r->c->cow) {
		*off = 0;
		*len = r->region_len;
		return;
	}
	*off = (size_t)idx * per * r->page;
	*len = per * r->page;
}

/* lru-file-readonce/twice: dd bs=4k of its file, timed from its own start as dd is. */
static void task_readfile(const struct vms_round *r, int fd, size_t share, struct vms_res *res)
{
	/* page-aligned, as dd's: each block is copied into one page, not two */
	void *buf = NULL;
	uint64_t t0;

	if (posix_memalign(&buf, r->page, READ_CHUNK)) {
		vms_task_fail(res, "posix_memalign", ENOMEM);
		ready_then_wait(r->ctl);
		return;
	}
	memset(buf, 0, READ_CHUNK);
	ready_then_wait(r->ctl);
	t0 = vms_mono_ns();
	res->bytes = read_file(r, fd, res, buf);
	res->usecs = (vms_mono_ns() - t0) / 1000;
	free(buf);
}

/*
 * A task on memory it maps itself (usemem without --prealloc): its file
 * is made before the clock (the case script makes it), the mapping and
 * the walk are inside its time, the unmapping is its free time.
 */
static void task_own(const struct vms_round *r, int idx, struct vms_res *res)
{
	size_t share = r->bytes / (size_t)r->nr_task / r->page * r->page, done;
	int fd = -1;
	char *p;
	uint64_t t0;

	if (r->c->op == OP_SMALL)
		return small_allocs(r, share, res);
	if (r->c->backing >= B_FILE && (fd = make_object(r, share, res)) < 0) {
		ready_then_wait(r->ctl);
		return;
	}
	if (r->c->op == OP_TRUNCATE)
		truncate_file(r, fd, share, res);
	else if (r->c->op == OP_READFILE)
		task_readfile(r, fd, share, res);
	if (r->c->op == OP_TRUNCATE || r->c->op == OP_READFILE)
		goto out;
	ready_then_wait(r->ctl);
	if (!(p = map_mem(r, share, fd, 0, res)))
		goto out;
	done = walk_words(p, share, !r->c->write, (unsigned int)idx * 7919u, res);
	if (r->c->op == OP_MSYNC && msync(p, share, MS_SYNC) < 0)
		vms_task_fail(res, "msync", errno);
	res->usecs = task_usecs(r);
	res->bytes = lkp_bytes(done, share);
	t0 = vms_mono_ns();
	munmap(p, share);
	res->free_usecs = (vms_mono_ns() - t0) / 1000 + 1;
out:
	if (fd >= 0)
		close(fd);
}

/*
 * A task on the region the round mapped before it (usemem --prealloc):
 * cow children write all of it (the parent prefaulted it), x tasks read
 * or write all of it, the others their slice.  No free time.
 */
static void task_shared(const struct vms_round *r, int idx, struct vms_res *res)
{
	size_t off, len, done;

	slice(r, idx, &off, &len);
	ready_then_wait(r->ctl);
	done = walk_words(r->region + off, len, !r->c->write && !r->c->cow,
			  (unsigned int)idx * 7919u, res);
	if (r->c->op == OP_MSYNC && msync(r->region + off, len, MS_SYNC) < 0)
		vms_task_fail(res, "msync", errno);
	res->usecs = task_usecs(r);
	res->bytes = lkp_bytes(done, len);
}

static void task_body(struct vms_round *r, int idx)
{
	if (r->c->shared)
		task_shared(r, idx, &r->res[idx]);
	else
		task_own(r, idx, &r->res[idx]);
}

struct thread_arg {
	struct vms_round *r;
	int idx;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;

	task_body(a->r, a->idx);
	__atomic_add_fetch(&a->r->ctl->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * The preallocated region, mapped inside the round's clock: cow cases
 * prefault it (MAP_POPULATE, lkp's --prefault) at size / (nr_task + 1)
 * for processes, as lkp sizes it, and at size for threads.
 */
static int map_shared(struct vms_round *r)
{
	struct vms_res *res = &r->res[r->nr_task];
	size_t len = r->bytes;

	if (r->c->cow && !r->c->mt)
		len = r->bytes / ((size_t)r->nr_task + 1);
	r->region_len = len / r->page * r->page;
	if (r->c->backing >= B_FILE && (r->fd = make_object(r, r->region_len, res)) < 0)
		return -1;
	r->region = map_mem(r, r->region_len, r->fd, r->c->cow ? MAP_POPULATE : 0, res);
	return r->region ? 0 : -1;
}

/* mremap-xread: after the reads, the region moves (its page tables with it). */
static void move_region(struct vms_round *r)
{
	struct vms_res *res = &r->res[r->nr_task];
	char *to = mmap(NULL, r->region_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t t0;
	void *p;

	if (to == MAP_FAILED) {
		vms_task_fail(res, "mmap", errno);
		return;
	}
	t0 = vms_mono_ns();
	p = mremap(r->region, r->region_len, r->region_len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	res->usecs = usecs_since(t0);
	if (p == MAP_FAILED) {
		munmap(to, r->region_len);
		vms_task_fail(res, "mremap", errno);
		return;
	}
	r->region = p;
	res->bytes = r->region_len;
}

/* Wait for every task; ask them to stop when the host wants to stop. */
static void wait_tasks(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_round *r,
		       pid_t *pids, pthread_t *th, int started)
{
	if (r->c->mt) {
		/* threads look at ctl->stop between pages: ask, then join */
		while (__atomic_load_n(&r->ctl->finished, __ATOMIC_SEQ_CST) < started) {
			if (host->should_stop(ctx))
				r->ctl->stop = 1;
			usleep(5000);	/* the tasks time themselves: a rare wake-up */
		}
		for (int i = 0; i < started; i++)
			pthread_join(th[i], NULL);
		return;
	}
	for (int i = 0; i < started; i++) {
		int status;

		while (waitpid(pids[i], &status, WNOHANG) == 0) {
			if (host->should_stop(ctx))
				r->ctl->stop = 1;
			usleep(5000);	/* the tasks time themselves: a rare wake-up */
		}
		if (!r->res[i].err && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			vms_task_fail(&r->res[i], WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
								  : "exit status", EIO);
	}
}

static int start_tasks(struct vms_round *r, pid_t *pids, pthread_t *th, struct thread_arg *args,
		       int *started)
{
	for (int i = 0; i < r->nr_task; i++) {
		args[i] = (struct thread_arg){ r, i };
		if (r->c->mt) {
			int e = pthread_create(&th[i], NULL, thread_main, &args[i]);

			if (e)
				return vms_task_fail(&r->res[r->nr_task], "pthread_create", e);
		} else {
			pids[i] = fork();
			if (pids[i] < 0)
				return vms_task_fail(&r->res[r->nr_task], "fork", errno);
			if (pids[i] == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				task_body(r, i);
				_exit(0);
			}
		}
		(*started)++;
	}
	return 0;
}

static bool has_region_calls(const struct mmb_host *host)
{
	return host->size >= offsetof(struct mmb_host, timed_end) + sizeof(host->timed_end) &&
	       host->timed_begin && host->timed_end;
}

/* The round's tasks, from start to the last one reaped; -1 on a setup failure. */
static int run_tasks(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_round *r)
{
	pid_t *pids = calloc((size_t)r->nr_task, sizeof(*pids));
	pthread_t *th = calloc((size_t)r->nr_task, sizeof(*th));
	struct thread_arg *args = calloc((size_t)r->nr_task, sizeof(*args));
	int started = 0, ret = -1;

	if (!pids || !th || !args) {
		vms_task_fail(&r->res[r->nr_task], "calloc", ENOMEM);
		goto out;
	}
	if (start_tasks(r, pids, th, args, &started) == 0) {
		int n;

		while ((n = __atomic_load_n(&r->ctl->ready, __ATOMIC_SEQ_CST)) < r->nr_task &&
		       !host->should_stop(ctx))
			futex_wait(&r->ctl->ready, n, 10000000);	/* 10 ms: should_stop */
		ret = 0;
	}
	r->ctl->stop = ret || host->should_stop(ctx);
	__atomic_store_n(&r->ctl->go, 1, __ATOMIC_SEQ_CST);
	futex_wake(&r->ctl->go);
	wait_tasks(host, ctx, r, pids, th, started);
	r->ctl->stop = 1;
out:
	free(pids);
	free(th);
	free(args);
	return ret;
}

int vms_round_run(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_round *r)
{
	bool region_calls = has_region_calls(host);
	int ret = 0;

	r->fd = -1;
	r->zero_fd = -1;
	r->region = NULL;
	memset(r->res, 0, sizeof(*r->res) * ((size_t)r->nr_task + 1));
	memset((void *)r->ctl, 0, sizeof(*r->ctl));
	/* the round's clock, and the host's timed region, start where usemem's does */
	if (region_calls)
		host->timed_begin(ctx);
	r->t0_ns = vms_mono_ns();
	vms_walk_set(&(const struct vms_walk){
		.random = r->c->rand,
		.step = sizeof(unsigned long),
		.ctl = r->ctl,
		.deadline_ns = r->deadline_ns,
	});
	if (r->c->backing == B_ANON && (r->zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
		ret = vms_task_fail(&r->res[r->nr_task], "open /dev/zero", errno);
	if (!ret && r->c->shared && map_shared(r) < 0)
		ret = -1;
	if (!ret)
		ret = run_tasks(host, ctx, r);
	if (!ret && r->c->mremap)
		move_region(r);
	if (region_calls)
		host->timed_end(ctx);
	if (r->region)
		munmap(r->region, r->region_len);
	if (r->fd >= 0)
		close(r->fd);
	if (r->zero_fd >= 0)
		close(r->zero_fd);
	for (int i = 0; i <= r->nr_task; i++) {
		if (!r->res[i].err)
			continue;
		if (i == r->nr_task)
			snprintf(r->errbuf, sizeof(r->errbuf), "%s: %s", r->res[i].what,
				 strerror(r->res[i].err));
		else
			snprintf(r->errbuf, sizeof(r->errbuf), "task %d: %s: %s", i,
				 r->res[i].what, strerror(r->res[i].err));
		return -1;
	}
	return ret;
}

static long meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	size_t kl = strlen(key);
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

uint64_t vms_hugepage_size(void)
{
	long kb = meminfo_kb("Hugepagesize");

	return kb > 0 ? (uint64_t)kb * 1024 : 0;
}

long vms_hugepages_free(void)
{
	return meminfo_kb("HugePages_Free");
}
