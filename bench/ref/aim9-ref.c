// SPDX-License-Identifier: GPL-2.0
/*
 * aim9-ref: an independent reference of AIM Suite IX brk_test / page_test
 * with the singleuser driver loop, written from the behaviour in
 * docs/workloads.md, aim9 (no AIM code), to run side by side with
 * the mmbench plugin (bench/fidelity-workloads.sh).  Not part of the harness.
 *
 * As AIM9: page size hard-wired to 4096; the test function is called back
 * to back until the period has elapsed (checked after each call, elapsed
 * in milliseconds from gettimeofday); ops/sec = calls / elapsed * factor.
 * Output: AIM9's result row
 *   <n> <test> <elapsed> <count> <loops/sec> <ops/sec> <units>/second
 * Usage: aim9-ref brk_test|page_test SECONDS
 * Build: gcc -O2 -o aim9-ref aim9-ref.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define PAGE 4096

static int brk_body(int n, int touch)
{
	char *start = sbrk(0), *p;

	if (sbrk(1024 * 1024) == (void *)-1)
		return -1;
	for (int i = 0; i < n; i++) {
		if (sbrk(-16 * PAGE) == (void *)-1)
			return -1;
		for (int j = 0; j < 16; j++) {
			p = sbrk(PAGE);
			if (p == (void *)-1)
				return -1;
			if (touch)
				for (int k = 0; k < PAGE; k += 128)
					((volatile char *)p)[k] = (char)k;
		}
	}
	return brk(start);
}

static long ms_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000L + tv.tv_usec / 1000;
}

int main(int argc, char **argv)
{
	int page = argc > 1 && !strcmp(argv[1], "page_test");
	int n = page ? 100 : 1000;
	long factor = page ? 1700 : 17000, period, t0, el;
	long count = 0;
	double secs;

	if (argc != 3 || (!page && strcmp(argv[1], "brk_test")) || atoi(argv[2]) < 1) {
		fprintf(stderr, "usage: %s brk_test|page_test SECONDS\n", argv[0]);
		return 1;
	}
	period = atol(argv[2]) * 1000;
	/*
	 * singleuser talks over stdio before the first test (prompts, the
	 * table header), so a malloc heap exists below the break, as in the
	 * plugin's child: print the header first, flushed.
	 */
	printf(" Test        Test        Elapsed  Iteration    Iteration          Operation\n"
	       "Number       Name      Time (sec)   Count   Rate (loops/sec)    Rate (ops/sec)\n");
	fflush(stdout);
	t0 = ms_now();
	do {
		if (brk_body(n, page)) {
			perror("brk");
			return 1;
		}
		count++;
		el = ms_now() - t0;
	} while (el < period);
	secs = el / 1000.0;
	printf("%6d %-12s %12.2f %10ld %10.5f %15.2f %s/second\n", page ? 9 : 8, argv[1],
	       secs, count, count / secs, count / secs * factor,
	       page ? "System Allocations & Pages" : "System Memory Allocations");
	return 0;
}
