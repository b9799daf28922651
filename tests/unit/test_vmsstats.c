/*
 * vm-scalability's metrics (workloads/vm-scalability/lkpstats.h) against
 * usemem-format output written here: a round's lines as usemem prints
 * them, parsed the way lkp's parse reads them, and the values worked out
 * by hand from lkp's definitions (population standard deviation, the
 * upper middle median, integer KB/s).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../workloads/vm-scalability/lkpstats.h"

#define MAXR 8
#define MAXT 8

struct parsed {
	double kbps[MAXR][MAXT], sum[MAXR], median[MAXR], free_s;
	int nk[MAXR], nrounds, nfree;
	uint64_t bytes;
};

/* A new round at each "./case-" line, as lkp's parse starts one. */
static void parse(const char *text, struct parsed *p)
{
	char line[256];
	const char *s = text;

	memset(p, 0, sizeof(*p));
	p->nrounds = -1;
	while (*s) {
		size_t n = strcspn(s, "\n");
		unsigned long b, u, k;

		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		s += n + (s[n] == '\n');
		if (!strncmp(line, "./case-", 7)) {
			p->nrounds++;
		} else if (sscanf(line, "%lu bytes / %lu usecs = %lu KB/s", &b, &u, &k) == 3) {
			/* our KB/s is the one usemem prints */
			assert_true(vms_kb_per_s(b, u) == (double)k);
			p->kbps[p->nrounds][p->nk[p->nrounds]++] = vms_kb_per_s(b, u);
			p->bytes += b;
		} else if (sscanf(line, "%lu usecs to free memory", &u) == 1) {
			p->free_s += u / 1e6;
			p->nfree++;
		}
	}
	p->nrounds++;
	for (int r = 0; r < p->nrounds; r++)
		vms_sum_median(p->kbps[r], p->nk[r], &p->sum[r], &p->median[r]);
}

/* One round, two tasks (nr_task 2, 1 GiB each: usemem counts 9/8 of it). */
static void test_one_round(void **state)
{
	const char *out = "./case-anon-w-seq\n"
			  "1207959552 bytes / 1000000 usecs = 1179648 KB/s\n"
			  "1207959552 bytes / 2000000 usecs = 589824 KB/s\n"
			  "1000 usecs to free memory\n"
			  "3000 usecs to free memory\n";
	struct parsed p;
	int last;

	(void)state;
	parse(out, &p);
	last = p.nrounds - 1;
	assert_int_equal(p.nrounds, 1);
	assert_true(vms_mean(p.sum, 1) == 1769472);
	assert_true(vms_mean(p.median, 1) == 1179648);	/* the upper middle of two */
	/* population: 294912 x 2 / 884736 = 66.67%; n - 1 would say 94.28% */
	assert_true(fabs(vms_lkp_stddev(p.sum, 1, p.kbps[last], p.nk[last]) - 200.0 / 3) < 1e-9);
	assert_true(vms_lkp_median_stddev(p.median, 1) == 0);
	assert_true(fabs(p.free_s / p.nfree - 0.002) < 1e-12);
	assert_true(p.bytes / 1024.0 == 2359296);	/* workload, KB */
}

/* Two rounds: stddev% and median_stddev% are over the rounds. */
static void test_two_rounds(void **state)
{
	const char *out = "./case-anon-w-seq\n"
			  "1207959552 bytes / 1000000 usecs = 1179648 KB/s\n"
			  "1207959552 bytes / 2000000 usecs = 589824 KB/s\n"
			  "./case-anon-w-seq\n"
			  "1207959552 bytes / 2000000 usecs = 589824 KB/s\n"
			  "1207959552 bytes / 2000000 usecs = 589824 KB/s\n";
	struct parsed p;

	(void)state;
	parse(out, &p);
	assert_int_equal(p.nrounds, 2);
	assert_true(vms_mean(p.sum, 2) == 1474560);
	assert_true(vms_mean(p.median, 2) == 884736);
	/* sd of 1769472 and 1179648 (n) = 294912: 20% of 1474560 */
	assert_true(fabs(vms_lkp_stddev(p.sum, 2, p.kbps[1], p.nk[1]) - 20) < 1e-9);
	/* sd of 1179648 and 589824 = 294912: 33.3% of 884736 */
	assert_true(fabs(vms_lkp_median_stddev(p.median, 2) - 100.0 / 3) < 1e-9);
}

/* usemem's integer KB/s: floor((B x 10^6) >> 10) / U), and no overflow at 8 TiB. */
static void test_kb_per_s(void **state)
{
	(void)state;
	assert_true(vms_kb_per_s(4096, 3) == 1333333);	/* 4000000 / 3, floored */
	assert_true(vms_kb_per_s(1ull << 43, 1000000) == (double)(1ull << 33));
	assert_true(vms_kb_per_s(1024, 0) == 1000000);	/* a zero time is one usec */
	assert_true(vms_kb_per_s_float(1 << 20, 500000) == 2048);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_round),
		cmocka_unit_test(test_two_rounds),
		cmocka_unit_test(test_kb_per_s),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
