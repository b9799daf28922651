/*
 * The --precision stopping rule (harness/run/precision.c) under optional
 * stopping: seeded simulation of the coverage of the 95% CI at the point
 * it stops, normal and log-normal data, CoV 2-10%, precision 1-5%.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "precision.h"
#include "stats.h"
#include "seeded.h"

static void test_looks(void **state)
{
	(void)state;
	assert_false(precision_look(19, 20));
	assert_true(precision_look(20, 20));
	assert_false(precision_look(30, 20));
	assert_true(precision_look(40, 20));
	assert_false(precision_look(60, 20));
	assert_true(precision_look(80, 20));
	assert_false(precision_look(5, 1));	/* nmin < 2 never looks */
	assert_true(isinf(precision_rel_halfwidth((double[]){ 1 }, 1)));
}

static void test_coverage(void **state)
{
	const double cvs[] = { 0.02, 0.05, 0.10 }, ds[] = { 0.01, 0.02, 0.05 };
	const int trials = 20000, maxn = 4000;
	double *x = malloc(maxn * sizeof(*x)), worst = 1;

	(void)state;
	seeded_state = 0x2545f4914f6cdd1dull;
	for (int lognormal = 0; lognormal < 2; lognormal++)
		for (size_t a = 0; a < 3; a++)
			for (size_t b = 0; b < 3; b++) {
				int covered = 0;
				double nsum = 0, cov;

				for (int t = 0; t < trials; t++) {
					size_t n = 0;
					double hw, m = 0;

					for (;;) {
						double z = seeded_gauss() * cvs[a];

						/* mean 100 either way: exp(N(0, s)) / exp(s^2 / 2) */
						x[n++] = lognormal ? 100 * exp(z) / exp(cvs[a] * cvs[a] / 2)
								   : 100 * (1 + z);
						if (n >= (size_t)maxn)
							break;
						if (precision_look(n, PRECISION_MIN_N) &&
						    precision_rel_halfwidth(x, n) <= ds[b])
							break;
					}
					for (size_t i = 0; i < n; i++)
						m += x[i];
					m /= (double)n;
					hw = precision_rel_halfwidth(x, n) * fabs(m);
					covered += fabs(m - 100) <= hw;
					nsum += (double)n;
				}
				cov = (double)covered / trials;
				printf("%s CoV %2.0f%% precision %.0f%%: coverage %.3f, mean n %.0f\n",
				       lognormal ? "lognormal" : "normal   ", 100 * cvs[a], 100 * ds[b],
				       cov, nsum / trials);
				if (cov < worst)
					worst = cov;
			}
	free(x);
	printf("worst coverage %.3f (nominal 0.95)\n", worst);
	assert_true(worst >= 0.94);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_coverage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
