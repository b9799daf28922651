/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm-scalability's metrics as lkp computes them from usemem's lines
 * ("B bytes / U usecs = K KB/s", "U usecs to free memory"), written from
 * the definitions in docs/workloads.md: a task's KB/s is usemem's integer
 * ((B * 10^6) >> 10) / U; throughput is the sum of the tasks' KB/s and
 * median the upper middle one, each averaged over rounds; standard
 * deviations divide by n (population), not n - 1.  Header-only: the
 * plugin and its unit test (tests/unit/test_vmsstats.c) share it.
 */
#ifndef MMB_VMS_LKPSTATS_H
#define MMB_VMS_LKPSTATS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* usemem's KB/s of one task: integer, as it prints it and lkp sums it. */
static inline double vms_kb_per_s(uint64_t bytes, uint64_t usecs)
{
	/* usemem's own integer division, on purpose: it prints whole KB/s */
	unsigned __int128 kb_us = (unsigned __int128)bytes * 1000000u >> 10;
	uint64_t kbps = (uint64_t)(kb_us / (usecs ? usecs : 1));

	return (double)kbps;
}

/* dd's and the truncate program's: (B >> 10) / seconds, not rounded. */
static inline double vms_kb_per_s_float(uint64_t bytes, uint64_t usecs)
{
	return (double)(bytes >> 10) / ((double)(usecs ? usecs : 1) / 1e6);
}

static inline double vms_mean(const double *v, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

/* lkp's standard_deviation divides by n (sqrt(2) apart from n - 1 at two tasks). */
static inline double vms_population_sd(const double *v, int n)
{
	double m = vms_mean(v, n), s = 0;

	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return n > 0 ? sqrt(s / n) : 0;
}

static inline int vms_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sum and lkp's median (the upper middle, v[n/2] sorted) of one round's KB/s; sorts v. */
static inline void vms_sum_median(double *v, int n, double *sum, double *median)
{
	*sum = 0;
	for (int i = 0; i < n; i++)
		*sum += v[i];
	qsort(v, (size_t)n, sizeof(*v), vms_cmp_double);
	*median = n ? v[n / 2] : 0;
}

/* stddev%: of the rounds' throughput when there are several, else across the last round's tasks x n. */
static inline double vms_lkp_stddev(const double *sums, int nrounds, const double *kbps, int nk)
{
	double m;

	if (nrounds > 1) {
		m = vms_mean(sums, nrounds);
		return m > 0 ? vms_population_sd(sums, nrounds) / m * 100 : 0;
	}
	m = vms_mean(kbps, nk);
	return m > 0 ? vms_population_sd(kbps, nk) * nk / m * 100 : 0;
}

/* median_stddev%: of the rounds' medians, 0 for one round. */
static inline double vms_lkp_median_stddev(const double *medians, int nrounds)
{
	double m = vms_mean(medians, nrounds);

	return nrounds > 1 && m > 0 ? vms_population_sd(medians, nrounds) / m * 100 : 0;
}

#endif
