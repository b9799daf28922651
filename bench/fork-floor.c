/*
 * The machine's own floor for the empty iteration (make bench,
 * bench/overhead.sh): what fork + _exit + waitpid of a small process costs
 * here, and what one write to a page costs the parent after a fork (the
 * kernel write-protects every private page at fork; the first write to
 * each then faults and flushes the TLB, expensive in some VMs).  The
 * harness forks once per iteration (the isolation), so it cannot beat the
 * first figure and pays the second for every page it writes between
 * iterations.  Prints "FORK_MS WPFAULT_US".  Usage: fork-floor [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define PAGES 256

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* seconds for n forks, the parent writing `pages` pages after each */
static double forks(int n, char *buf, int pages)
{
	double t0 = now();

	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c < 0) {
			perror("fork-floor: fork");
			exit(1);
		}
		if (!c)
			_exit(0);
		waitpid(c, NULL, 0);
		for (int p = 0; p < pages; p++)
			buf[(size_t)p * 4096]++;
	}
	return now() - t0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	char *buf = malloc((size_t)PAGES * 4096);
	double bare = 1e9, touched = 1e9;

	if (n < 1 || !buf) {
		fprintf(stderr, "usage: fork-floor [N >= 1]\n");
		return 2;
	}
	memset(buf, 1, (size_t)PAGES * 4096);
	/* best of three, interleaved: the machine is shared */
	for (int r = 0; r < 3; r++) {
		double b = forks(n, buf, 0), t = forks(n, buf, PAGES);

		bare = b < bare ? b : bare;
		touched = t < touched ? t : touched;
	}
	printf("%.3f %.2f\n", bare * 1e3 / n,
	       touched > bare ? (touched - bare) * 1e6 / n / PAGES : 0.0);
	return buf[4096] == 0;	/* keep the writes */
}
