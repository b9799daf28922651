/*
 * compare's compute floor (make bench, bench/store-bench.sh): the least a
 * compare of SAMPLES samples in ROWS rows of two labels computes, with no
 * database read: each label's samples of each row sorted once
 * (stats_sort(), the radix sort compare uses), then summarised
 * (stats_summarise_in(): the sort and the sums every row's table needs),
 * on one CPU.  The values are like the bench's (1000 +- 10, 4 decimals).
 * Prints "sort S summary S" in seconds.  Usage: summary-floor SAMPLES ROWS
 */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct stats_scratch room = { 0 };
	struct stats_summary sum;
	unsigned long long samples, rows;
	uint64_t r = 88172645463325252ULL;
	double *v, *w, t_sort = 0, t_sum = 0, check = 0;
	size_t per;

	if (argc != 3 || !(samples = strtoull(argv[1], NULL, 10)) ||
	    !(rows = strtoull(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: summary-floor SAMPLES ROWS\n");
		return 2;
	}
	per = (size_t)(samples / rows / 2);
	if (!per)
		per = 1;
	v = xmalloc(per * sizeof(*v));
	w = xmalloc(per * sizeof(*w));
	for (unsigned long long k = 0; k < 2 * rows; k++) {
		double t0, t1, t2;

		for (size_t i = 0; i < per; i++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			v[i] = round((1000 + 20 * ((double)(r >> 11) / 9007199254740992.0 - 0.5)) *
				     1e4) / 1e4;
		}
		memcpy(w, v, per * sizeof(*v));
		t0 = now();
		stats_sort(w, per);
		t1 = now();
		stats_summarise_in(v, per, 1, &sum, &room);
		t2 = now();
		t_sort += t1 - t0;
		t_sum += t2 - t1;
		check += w[per / 2] + sum.amean;
	}
	printf("sort %.4f summary %.4f\n", t_sort, t_sum);
	fprintf(stderr, "(checksum %g)\n", check);
	stats_scratch_release(&room);
	free(v);
	free(w);
	return 0;
}
