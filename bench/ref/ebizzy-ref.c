// SPDX-License-Identifier: GPL-2.0
/*
 * ebizzy-ref: an independent reference of ebizzy 0.3, written from the
 * behaviour in docs/workloads.md, ebizzy (no upstream code), quirks
 * included, to run side by side with the mmbench plugin
 * (bench/fidelity-workloads.sh).  Not part of the harness.
 *
 * Quirks kept on purpose:
 *  - the "cheap LCG" never advances: the state starts at 0 and is only
 *    multiplied, so chunk 0 / key 0 / an 8-byte -R copy every pass
 *    (-L switches to a working 64-bit LCG, like mmbench's rng: lcg, for
 *    comparing that mode: it is not an ebizzy 0.3 option);
 *  - the window is measured with time(NULL) (whole seconds) and records/s
 *    is truncated to an integer;
 *  - each thread adds its count to one global at exit, without a lock;
 *  - user/sys are the process' rusage over the window.
 *
 * Output as stock 0.3: "<N> records/s", then real/user/sys lines.
 * Build: gcc -O2 -pthread -o ebizzy-ref ebizzy-ref.c
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef size_t record_t;

static unsigned int threads, seconds = 10, chunks = 10;
static size_t chunk_size = 64 * 1024 * sizeof(record_t), page_size;
static int always_mmap, never_mmap, use_perms, use_holes, random_size,
	touch_pages, byte_loop, linear_scan, working_rng;
static record_t **mem;
static volatile int go;		/* 0 wait, 1 run, 2 stop */
static unsigned long records_read;	/* racy on purpose, as 0.3 */

static void usage(const char *p)
{
	fprintf(stderr, "usage: %s [-t threads] [-S seconds] [-n chunks] [-s chunk_size] "
		"[-m|-M] [-p] [-P] [-R] [-T] [-l] [-z] [-L]\n", p);
	exit(1);
}

static void *alloc_mem(size_t size)
{
	if (always_mmap) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		return p;
	}
	return malloc(size);
}

static void free_mem(void *p, size_t size)
{
	if (always_mmap)
		munmap(p, size);
	else
		free(p);
}

static unsigned long rand_num(unsigned long *state, unsigned long max)
{
	if (working_rng) {
		*state = *state * 6364136223846793005UL + 1442695040888963407UL;
		return (*state >> 33) % max;
	}
	/* 0.3: state 0, multiplied by (A + C): stays 0 */
	*state = *state * (1103515245 + 12345);
	return *state % max;
}

__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void copy_bytes(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

static int compare(const void *a, const void *b)
{
	record_t x = *(const record_t *)a, y = *(const record_t *)b;
	return x < y ? -1 : x > y;
}

static record_t *linear_search(record_t key, record_t *base, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (base[i] == key)
			return &base[i];
	return NULL;
}

static void search_mem(unsigned long *state)
{
	record_t *src = mem[rand_num(state, chunks)], *copy, key, *found;
	size_t copy_size = chunk_size, n;

	if (random_size)
		copy_size = (rand_num(state, chunk_size / sizeof(record_t)) + 1) *
			    sizeof(record_t);
	copy = alloc_mem(copy_size);
	if (!copy) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	if (touch_pages) {
		for (size_t i = 0; i < copy_size; i += page_size)
			((volatile char *)copy)[i] = (char)0xff;
	} else {
		n = copy_size / sizeof(record_t);
		if (byte_loop)
			copy_bytes((char *)copy, (char *)src, copy_size);
		else
			memcpy(copy, src, copy_size);
		key = rand_num(state, n);
		found = linear_scan ? linear_search(key, copy, n)
				    : bsearch(&key, copy, n, sizeof(record_t), compare);
		if (!found || *found != key) {
			fprintf(stderr, "key %zu not found\n", key);
			exit(1);
		}
	}
	free_mem(copy, copy_size);
}

static void *thread_run(void *arg)
{
	unsigned long records = 0, state = working_rng ? 0x0c0ffee0UL + (unsigned long)arg *
					   0x9e3779b97f4a7c15UL : 0;

	while (go == 0)
		;
	while (go == 1) {
		search_mem(&state);
		records++;
	}
	records_read += records;
	return NULL;
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage r0, r1;
	pthread_t *tids;
	void **holes = NULL;
	time_t start;
	double elapsed;
	int c;

	threads = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	page_size = sysconf(_SC_PAGESIZE);
	while ((c = getopt(argc, argv, "t:S:n:s:mMpPRTlzL")) != -1) {
		switch (c) {
		case 't': threads = atoi(optarg); break;
		case 'S': seconds = atoi(optarg); break;
		case 'n': chunks = atoi(optarg); break;
		case 's': chunk_size = strtoul(optarg, NULL, 0); break;
		case 'm': always_mmap = 1; break;
		case 'M': never_mmap = 1; break;
		case 'p': use_perms = 1; break;
		case 'P': use_holes = 1; break;
		case 'R': random_size = 1; break;
		case 'T': touch_pages = 1; break;
		case 'l': byte_loop = 1; break;
		case 'z': linear_scan = 1; break;
		case 'L': working_rng = 1; break;
		default: usage(argv[0]);
		}
	}
	if (!threads || !seconds || !chunks || chunk_size < sizeof(record_t))
		usage(argv[0]);
	if (always_mmap && never_mmap) {
		fprintf(stderr, "-m and -M are mutually exclusive\n");
		usage(argv[0]);
	}
	if (never_mmap)
		mallopt(M_MMAP_MAX, 0);

	mem = calloc(chunks, sizeof(*mem));
	if (use_holes)
		holes = calloc(chunks, sizeof(*holes));
	for (unsigned int i = 0; i < chunks; i++) {
		mem[i] = alloc_mem(chunk_size);
		if (!mem[i]) {
			fprintf(stderr, "out of memory\n");
			return 1;
		}
		if (use_holes)
			holes[i] = alloc_mem(page_size);
	}
	if (use_holes)
		for (unsigned int i = 0; i < chunks; i++)
			free_mem(holes[i], page_size);
	for (unsigned int i = 0; i < chunks; i++)
		for (size_t r = 0; r < chunk_size / sizeof(record_t); r++)
			mem[i][r] = r;
	if (use_perms)
		for (unsigned int i = 0; i < chunks; i += 2)
			mprotect(mem[i], chunk_size, PROT_READ);

	tids = calloc(threads, sizeof(*tids));
	for (unsigned long i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, thread_run, (void *)i)) {
			perror("pthread_create");
			return 1;
		}
	getrusage(RUSAGE_SELF, &r0);
	start = time(NULL);
	go = 1;
	sleep(seconds);
	go = 2;
	elapsed = difftime(time(NULL), start);
	getrusage(RUSAGE_SELF, &r1);
	for (unsigned int i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);

	printf("%u records/s\n", (unsigned int)(records_read / elapsed));
	printf("real %5.2f s\n", elapsed);
	printf("user %5.2f s\n", tv(r1.ru_utime) - tv(r0.ru_utime));
	printf("sys  %5.2f s\n", tv(r1.ru_stime) - tv(r0.ru_stime));
	return 0;
}
