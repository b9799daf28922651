// SPDX-License-Identifier: GPL-2.0
/*
 * pft-ref: a standalone stand-in for the original pft 0.12x, used by
 * bench/pft-fidelity.sh to check the mmbench pft plugin side by side on the
 * same kernel.  The original source is not available offline, so this
 * follows the behaviour description (docs/workloads.md, pft)
 * literally, and on purpose shares no code with workloads/pft/.
 *
 *   pft-ref -m <size>[KMGP] [-t N | -n N] [-c lines] [-T [tag]]
 *
 * Supported subset: private anonymous region, threads (-t) or processes
 * (-n), lines per page (-c), header (-T); -F is accepted and ignored like
 * 0.12x.  Not implemented (mmtests never used them): -z -l -S -L -Z -p -a
 * -f -s -v -N -P.
 *
 * Build as mmtests did: cc -O3 -D_GNU_SOURCE -o pft-ref pft-ref.c -lpthread -lrt
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 128

enum { ST_INIT, ST_READY, ST_DONE };

/* Shared between the launcher and the workers (threads or processes). */
struct comm {
	volatile int go;
	volatile int state[MAX_TESTS];
	struct timespec t0[MAX_TESTS], t1[MAX_TESTS];
	struct rusage r0[MAX_TESTS], r1[MAX_TESTS];
};

static struct comm *comm;
static char *region;
static unsigned long bytes_per_test;
static long page_size;
static long line_size;
static int ncl = 1;		/* -c */
static int ntests = 1;		/* -t / -n */
static int use_procs;

static void die(const char *msg)
{
	fprintf(stderr, "pft-ref: %s: %s\n", msg, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: pft-ref -m <size>[KMGP] [-t N | -n N] [-c lines] [-T [tag]] [-F]\n");
	exit(2);
}

static unsigned long parse_size(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	case 'p': case 'P': v *= (unsigned long)page_size; end++; break;
	}
	if (*end || end == s)
		usage();
	return v;
}

/* The measured part of one worker. */
static void test(int id)
{
	char *p = region + (unsigned long)id * bytes_per_test;
	char *e = p + bytes_per_test;
	int c;

	comm->state[id] = ST_READY;
	while (!comm->go)
		;
	clock_gettime(CLOCK_REALTIME, &comm->t0[id]);
	getrusage(RUSAGE_THREAD, &comm->r0[id]);
	for (; p < e; p += page_size)
		for (c = 0; c < ncl; c++)
			*(volatile char *)(p + c * line_size) = 'r';
	getrusage(RUSAGE_THREAD, &comm->r1[id]);
	clock_gettime(CLOCK_REALTIME, &comm->t1[id]);
	comm->state[id] = ST_DONE;
}

static void *thread_fn(void *arg)
{
	test((int)(long)arg);
	return NULL;
}

static double tvd(struct timeval a, struct timeval b)
{
	return (b.tv_sec - a.tv_sec) + (b.tv_usec - a.tv_usec) * 1e-6;
}

static double tsd(struct timespec t)
{
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int launcher(unsigned long bytes, unsigned long pages, int header, const char *tag)
{
	pthread_t tid[MAX_TESTS];
	pid_t pid[MAX_TESTS];
	struct timespec early;
	double user = 0, sys = 0, wall, first, last;
	long minflt = 0;
	int i;

	region = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap region");

	for (i = 1; i < ntests; i++) {
		if (use_procs) {
			pid[i] = fork();
			if (pid[i] < 0)
				die("fork");
			if (pid[i] == 0) {
				test(i);
				_exit(0);
			}
		} else if ((errno = pthread_create(&tid[i], NULL, thread_fn, (void *)(long)i))) {
			die("pthread_create");
		}
	}
	for (i = 1; i < ntests; i++)
		while (comm->state[i] != ST_READY)
			;
	clock_gettime(CLOCK_REALTIME, &early);
	comm->go = 1;
	test(0);
	for (i = 1; i < ntests; i++) {
		if (use_procs)
			waitpid(pid[i], NULL, 0);
		else
			pthread_join(tid[i], NULL);
	}

	first = tsd(comm->t0[0]);
	last = tsd(comm->t1[0]);
	for (i = 0; i < ntests; i++) {
		if (tsd(comm->t0[i]) < first)
			first = tsd(comm->t0[i]);
		if (tsd(comm->t1[i]) > last)
			last = tsd(comm->t1[i]);
		user += tvd(comm->r0[i].ru_utime, comm->r1[i].ru_utime);
		sys += tvd(comm->r0[i].ru_stime, comm->r1[i].ru_stime);
		minflt += comm->r1[i].ru_minflt - comm->r0[i].ru_minflt;
	}
	wall = last - first;
	if ((unsigned long)minflt > pages * 11 / 10 || (unsigned long)minflt < pages * 9 / 10)
		fprintf(stderr, "pft-ref: warning: %ld minor faults for %lu pages\n", minflt, pages);

	if (header) {
		if (tag)
			printf("TAG %s\n", tag);
		printf("  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec\n");
	}
	printf(" %3lu %4d %3d %8.2fs %8.2fs %8.2fs  %10.3f %10.3f\n",
	       (bytes + (unsigned long)page_size * ntests) >> 30, ntests, ncl,
	       user, sys, wall, pages / (user + sys), pages / wall);
	fflush(stdout);
	(void)early;	/* pft records it; 0.12x does not print it */
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long bytes = 0, pages, per_test;
	int opt, header = 0, status;
	const char *tag = NULL;
	cpu_set_t cpus;
	pid_t pid;

	page_size = sysconf(_SC_PAGESIZE);
	line_size = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	if (line_size <= 0)
		line_size = 128;
	bytes = page_size;

	while ((opt = getopt(argc, argv, "m:t:n:c:T::F")) != -1) {
		switch (opt) {
		case 'm': bytes = parse_size(optarg); break;
		case 't': ntests = atoi(optarg); use_procs = 0; break;
		case 'n': ntests = atoi(optarg); use_procs = 1; break;
		case 'c': ncl = atoi(optarg); break;
		case 'T': header = 1; tag = optarg; break;
		case 'F': break;
		default: usage();
		}
	}
	if (ntests < 1 || ncl < 1 || ncl * line_size > page_size)
		usage();
	if (ntests > MAX_TESTS)
		ntests = MAX_TESTS;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && ntests > CPU_COUNT(&cpus))
		ntests = CPU_COUNT(&cpus);

	pages = (bytes + page_size - 1) / page_size;
	per_test = (pages + ntests - 1) / ntests;
	pages = per_test * ntests;
	bytes_per_test = per_test * page_size;
	bytes = pages * page_size;

	comm = mmap(NULL, sizeof(*comm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (comm == MAP_FAILED)
		die("mmap comm");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		_exit(launcher(bytes, pages, header, tag));
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
