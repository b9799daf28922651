// SPDX-License-Identifier: GPL-2.0
/*
 * The usemem-like engine of the vm-scalability plugin, written from the
 * behaviour docs/workloads.md describes (no usemem or lkp code): nr_task
 * tasks, processes or threads, each time its own work on its part of the
 * memory (or all of it, the "x" cases) and report bytes and microseconds.
 *
 * Per task: map or open what it owns (untimed), say ready, wait for go,
 * then the timed work; anonymous memory is then unmapped, timed on its
 * own (lkp's free_time).  Random order visits every page once, in the
 * order of a full-period LCG over the next power of two (no table, no
 * repeats), so seq and rand do the same work.
 */
#include "vms.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK	(1u << 20)	/* read() size of the readonce/twice cases */
#define TRUNC_STEP	(1u << 20)	/* truncate-seq: bytes cut per call */
#define CHECK_EVERY	64		/* pages between runtime/stop checks */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int task_fail(struct vms_res *res, const char *what, int e)
{
	if (!res->err) {
		res->err = e ? e : EIO;
		snprintf(res->what, sizeof(res->what), "%s", what);
	}
	return -1;
}

/* An unlinked sparse file of len bytes in dir, or a memfd for shm. */
static int make_object(const struct vms_round *r, size_t len, struct vms_res *res)
{
	char path[4096];
	int fd;

	if (r->c->backing == B_SHM) {
		fd = memfd_create("mmbench-vm-scalability", MFD_CLOEXEC);
		if (fd < 0)
			return task_fail(res, "memfd_create", errno);
	} else {
		snprintf(path, sizeof(path), "%s/mmbench-vms-XXXXXX", r->dir);
		fd = mkstemp(path);
		if (fd < 0)
			return task_fail(res, "mkstemp in dir", errno);
		unlink(path);
	}
	if (ftruncate(fd, (off_t)len) < 0) {
		close(fd);
		return task_fail(res, "ftruncate", errno);
	}
	return fd;
}

static char *map_mem(const struct vms_round *r, size_t len, int fd, struct vms_res *res)
{
	int prot = PROT_READ | PROT_WRITE, flags;
	char *p;

	switch (r->c->backing) {
	case B_ANON:
		flags = MAP_PRIVATE | MAP_ANONYMOUS;
		break;
	case B_HUGETLB:
		flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB;
		break;
	default:
		flags = MAP_SHARED;
		break;
	}
	p = mmap(NULL, len, prot, flags, r->c->backing >= B_FILE ? fd : -1, 0);
	if (p == MAP_FAILED) {
		task_fail(res, "mmap", errno);
		return NULL;
	}
	return p;
}

/* Next index of a full-period LCG over [0, pow2), skipping >= n. */
static uint64_t lcg_next(uint64_t x, uint64_t mask, uint64_t n)
{
	do
		x = (x * 6364136223846793005ull + 1442695040888963407ull) & mask;
	while (x >= n);
	return x;
}

/* The timed touch: every word of every page of [p, p + len). */
static size_t touch(const struct vms_round *r, char *p, size_t len, unsigned int seed,
		    struct vms_res *res)
{
	uint64_t npages = len / r->page, mask = 1, x = seed, sum = 0;
	size_t words = r->page / sizeof(uint64_t), done = 0;
	bool wr = r->c->write || r->c->cow;

	while (mask < npages)
		mask <<= 1;
	mask -= 1;
	x &= mask;
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pg = r->c->rand ? (x = lcg_next(x, mask, npages)) : i;
		uint64_t *w = (uint64_t *)(p + pg * r->page);

		if (wr)
			for (size_t k = 0; k < words; k++)
				w[k] = k ^ pg;
		else
			for (size_t k = 0; k < words; k++)
				sum += w[k];
		done += r->page;
		if (!(i % CHECK_EVERY) && (r->ctl->stop || mono_ns() > r->deadline_ns))
			break;
	}
	res->sink += sum;
	return done;
}

static size_t read_file(const struct vms_round *r, int fd, size_t len, struct vms_res *res,
			char *buf)
{
	size_t done = 0;

	for (int pass = 0; pass < (r->c->twice ? 2 : 1); pass++) {
		for (off_t off = 0; (size_t)off < len;) {
			ssize_t n = pread(fd, buf, READ_CHUNK, off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				task_fail(res, "read", n < 0 ? errno : EIO);
				return done;
			}
			off += n;
			done += (size_t)n;
			res->sink += (unsigned char)buf[0];
			if (r->ctl->stop || mono_ns() > r->deadline_ns)
				return done;
		}
	}
	return done;
}

static uint64_t usecs_since(uint64_t t0)
{
	return (mono_ns() - t0) / 1000;
}

/* small-allocs: one mmap of a page per page of the share, each written. */
static void small_allocs(const struct vms_round *r, size_t share, struct vms_res *res)
{
	size_t n = share / r->page, got = 0;
	char **v = calloc(n ? n : 1, sizeof(*v));
	uint64_t t0;

	if (!v) {
		task_fail(res, "calloc", ENOMEM);
		return;
	}
	memset(v, 0, (n ? n : 1) * sizeof(*v));	/* faulted in before the clock */
	__atomic_add_fetch(&r->ctl->ready, 1, __ATOMIC_SEQ_CST);
	while (!r->ctl->go)
		sched_yield();
	t0 = mono_ns();
	for (; got < n; got++) {
		v[got] = mmap(NULL, r->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
		if (v[got] == MAP_FAILED) {
			task_fail(res, "mmap", errno);
			break;
		}
		v[got][0] = 1;
		if (!(got % CHECK_EVERY) && (r->ctl->stop || mono_ns() > r->deadline_ns)) {
			got++;
			break;
		}
	}
	res->usecs = usecs_since(t0);
	res->bytes = (uint64_t)got * r->page;
	t0 = mono_ns();
	for (size_t i = 0; i < got; i++)
		if (v[i] != MAP_FAILED)
			munmap(v[i], r->page);
	res->free_usecs = usecs_since(t0) + 1;
	free(v);
}

/* truncate: the file's pages faulted into the page cache, then cut. */
static void truncate_file(const struct vms_round *r, int fd, size_t len, struct vms_res *res)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	uint64_t t0, sum = 0;

	if (p == MAP_FAILED) {
		task_fail(res, "mmap", errno);
		return;
	}
	__atomic_add_fetch(&r->ctl->ready, 1, __ATOMIC_SEQ_CST);
	while (!r->ctl->go)
		sched_yield();
	t0 = mono_ns();
	for (size_t off = 0; off < len; off += r->page)
		sum += (unsigned char)p[off];
	res->fault_usecs = usecs_since(t0);
	res->fault_bytes = len;
	res->sink += sum;
	munmap(p, len);
	t0 = mono_ns();
	if (r->c->twice) {
		for (size_t left = len; left;) {
			left = left > TRUNC_STEP ? left - TRUNC_STEP : 0;
			if (ftruncate(fd, (off_t)left) < 0) {
				task_fail(res, "ftruncate", errno);
				break;
			}
		}
	} else if (ftruncate(fd, 0) < 0) {
		task_fail(res, "ftruncate", errno);
	}
	res->usecs = usecs_since(t0);
	res->bytes = len;
}

/* Which part of the shared region task idx covers. */
static void slice(const struct vms_round *r, int idx, size_t *off, size_t *len)
{
	size_t pages = r->region_len / r->page, per = pages / (size_t)r->nr_task;

	if (r->c->whole) {
		*off = 0;
		*len = r->region_len;
		return;
	}
	*off = (size_t)idx * per * r->page;
	*len = per * r->page;
}

/* A task on memory it owns (mapped or opened here, before ready). */
static void task_own(const struct vms_round *r, int idx, struct vms_res *res)
{
	size_t share = r->bytes / (size_t)r->nr_task / r->page * r->page;
	int fd = -1;
	char *p = NULL, *buf = NULL;
	uint64_t t0;

	if (r->c->op == OP_SMALL)
		return small_allocs(r, share, res);
	if (r->c->backing >= B_FILE && (fd = make_object(r, share, res)) < 0)
		goto out;
	if (r->c->op == OP_TRUNCATE) {
		truncate_file(r, fd, share, res);
		goto out;
	}
	if (r->c->op == OP_READFILE) {
		buf = malloc(READ_CHUNK);
		if (!buf) {
			task_fail(res, "malloc", ENOMEM);
			goto out;
		}
		memset(buf, 0, READ_CHUNK);
	} else if (!(p = map_mem(r, share, fd, res))) {
		goto out;
	}
	__atomic_add_fetch(&r->ctl->ready, 1, __ATOMIC_SEQ_CST);
	while (!r->ctl->go)
		sched_yield();
	t0 = mono_ns();
	if (buf)
		res->bytes = read_file(r, fd, share, res, buf);
	else
		res->bytes = touch(r, p, share, (unsigned int)idx * 7919u, res);
	if (p && r->c->op == OP_MSYNC && msync(p, share, MS_SYNC) < 0)
		task_fail(res, "msync", errno);
	res->usecs = usecs_since(t0);
	if (p && r->c->frees) {
		t0 = mono_ns();
		munmap(p, share);
		res->free_usecs = usecs_since(t0) + 1;
		p = NULL;
	}
out:
	if (p)
		munmap(p, share);
	free(buf);
	if (fd >= 0)
		close(fd);
}

/* A task on its slice of the region the round mapped before it started. */
static void task_shared(const struct vms_round *r, int idx, struct vms_res *res)
{
	size_t off, len;
	uint64_t t0;

	slice(r, idx, &off, &len);
	__atomic_add_fetch(&r->ctl->ready, 1, __ATOMIC_SEQ_CST);
	while (!r->ctl->go)
		sched_yield();
	t0 = mono_ns();
	res->bytes = touch(r, r->region + off, len, (unsigned int)idx * 7919u, res);
	if (r->c->op == OP_MSYNC && msync(r->region + off, len, MS_SYNC) < 0)
		task_fail(res, "msync", errno);
	res->usecs = usecs_since(t0);
	/* a cow child drops its view of the whole region: its copies and its references */
	if (r->c->cow && !r->c->mt) {
		t0 = mono_ns();
		munmap(r->region, r->region_len);
		res->free_usecs = usecs_since(t0) + 1;
	}
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

/* The shared region: mapped (and for cow written) before any task starts. */
static int map_shared(struct vms_round *r)
{
	struct vms_res *res = &r->res[r->nr_task];

	r->region_len = r->bytes / r->page * r->page;
	if (r->c->backing >= B_FILE && (r->fd = make_object(r, r->region_len, res)) < 0)
		return -1;
	r->region = map_mem(r, r->region_len, r->fd, res);
	if (!r->region)
		return -1;
	if (r->c->cow) {
		bool w = true;

		/* every page written once by the parent: the children then copy */
		for (size_t off = 0; off < r->region_len; off += r->page)
			r->region[off] = (char)w;
	}
	return 0;
}

/* cow -mt: a child keeps the pages shared while the threads write them. */
static pid_t start_holder(struct vms_round *r)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		__atomic_store_n(&r->ctl->holder_ready, 1, __ATOMIC_SEQ_CST);
		while (!r->ctl->stop)
			pause();
		_exit(0);
	}
	while (pid > 0 && !__atomic_load_n(&r->ctl->holder_ready, __ATOMIC_SEQ_CST))
		sched_yield();
	return pid;
}

/* mremap-xread: after the reads, the region moves (its page tables with it). */
static void move_region(struct vms_round *r)
{
	struct vms_res *res = &r->res[r->nr_task];
	char *to = mmap(NULL, r->region_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t t0;
	void *p;

	if (to == MAP_FAILED) {
		task_fail(res, "mmap", errno);
		return;
	}
	t0 = mono_ns();
	p = mremap(r->region, r->region_len, r->region_len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	res->usecs = usecs_since(t0);
	if (p == MAP_FAILED) {
		munmap(to, r->region_len);
		task_fail(res, "mremap", errno);
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
			task_fail(&r->res[i], WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
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
				return task_fail(&r->res[r->nr_task], "pthread_create", e);
		} else {
			pids[i] = fork();
			if (pids[i] < 0)
				return task_fail(&r->res[r->nr_task], "fork", errno);
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
	pid_t *pids = calloc((size_t)r->nr_task, sizeof(*pids)), holder = -1;
	pthread_t *th = calloc((size_t)r->nr_task, sizeof(*th));
	struct thread_arg *args = calloc((size_t)r->nr_task, sizeof(*args));
	int started = 0, ret = -1;

	if (!pids || !th || !args) {
		task_fail(&r->res[r->nr_task], "calloc", ENOMEM);
		goto out;
	}
	if (r->c->cow && r->c->mt && (holder = start_holder(r)) < 0) {
		task_fail(&r->res[r->nr_task], "fork", errno);
		goto out;
	}
	if (start_tasks(r, pids, th, args, &started) == 0) {
		while (r->ctl->ready < r->nr_task && !host->should_stop(ctx))
			usleep(200);
		ret = 0;
	}
	if (has_region_calls(host))
		host->timed_begin(ctx);
	r->ctl->stop = ret || host->should_stop(ctx);
	r->ctl->go = 1;
	wait_tasks(host, ctx, r, pids, th, started);
	if (has_region_calls(host))
		host->timed_end(ctx);
	r->ctl->stop = 1;
out:
	if (holder > 0) {
		kill(holder, SIGKILL);
		waitpid(holder, NULL, 0);
	}
	free(pids);
	free(th);
	free(args);
	return ret;
}

int vms_round_run(const struct mmb_host *host, struct mmb_ctx *ctx, struct vms_round *r)
{
	struct vms_res *main_res = &r->res[r->nr_task];
	int ret = 0;

	r->fd = -1;
	r->region = NULL;
	memset(r->res, 0, sizeof(*r->res) * ((size_t)r->nr_task + 1));
	memset((void *)r->ctl, 0, sizeof(*r->ctl));
	if (r->c->shared && map_shared(r) < 0)
		ret = -1;
	if (!ret)
		ret = run_tasks(host, ctx, r);
	if (!ret && r->c->mremap)
		move_region(r);
	if (r->region) {
		uint64_t t0 = mono_ns();

		munmap(r->region, r->region_len);
		if (r->c->frees && r->c->mt)
			main_res->free_usecs = usecs_since(t0) + 1;
	}
	if (r->fd >= 0)
		close(r->fd);
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
