/* procsnap: /proc/vmstat and /proc/meminfo snapshots (harness/machine/procsnap.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interference.h"
#include "procsnap.h"

#include <sys/time.h>

/*
 * A second take reuses the first's key names (no allocation per name per
 * iteration), reads fresh values, and the delta pairs them; a take with
 * fewer sources drops the rest; release frees every name ever held
 * (the ASan build checks).
 */
static void test_take_reuses_names(void **state)
{
	struct monitor_snap a, b;
	const char **keys;
	double *deltas, pgfault_a, pgfault_b;
	size_t n, held;
	char *first;
	void *big;

	(void)state;
	monitor_snap_init(&a);
	monitor_snap_init(&b);
	assert_int_equal(monitor_take(&a, true, true), 0);
	assert_true(a.n > 10);
	pgfault_a = monitor_get(&a, "vmstat:pgfault");
	assert_true(pgfault_a > 0);
	assert_true(monitor_get(&a, "meminfo-delta:MemFree") > 0);
	first = a.keys[0];
	held = a.held;
	assert_int_equal(monitor_take(&b, true, true), 0);
	big = calloc(1, 64 << 20);	/* page faults between the two takes */
	assert_non_null(big);
	for (size_t i = 0; i < (64u << 20); i += 4096)
		((volatile char *)big)[i] = 1;
	free(big);
	assert_int_equal(monitor_take(&b, true, true), 0);
	pgfault_b = monitor_get(&b, "vmstat:pgfault");
	assert_true(pgfault_b > pgfault_a);
	monitor_delta(&a, &b, &keys, &deltas, &n);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], "vmstat:pgfault"))
			assert_true(deltas[i] > 0);	/* THP may make it few */
	free(keys);
	free(deltas);
	/* the same names again: the same strings */
	assert_int_equal(monitor_take(&a, true, true), 0);
	assert_ptr_equal(a.keys[0], first);
	assert_int_equal(a.held, held);
	/* fewer sources: vmstat only, no meminfo name left visible */
	assert_int_equal(monitor_take(&a, true, false), 0);
	assert_true(a.n < held);
	assert_true(monitor_get(&a, "meminfo-delta:MemFree") < 0);
	assert_true(monitor_get(&a, "vmstat:pgfault") > 0);
	monitor_snap_release(&a);
	monitor_snap_release(&b);
}

/*
 * CPU the fork server reports (a child it reaped, its own) is the run's
 * own: a snapshot after interference_count_own() sees it as reaped
 * children's, so it is not foreign load, and the context switches of the
 * iteration come with it.
 */
static void test_count_own(void **state)
{
	struct interference_snap a, b;
	struct interference x;
	struct rusage ru;

	(void)state;
	memset(&ru, 0, sizeof(ru));
	ru.ru_utime.tv_sec = 30;	/* far above what the machine can be busy in between */
	ru.ru_stime.tv_usec = 250000;
	ru.ru_nvcsw = 7;
	ru.ru_nivcsw = 3;
	interference_take(&a);
	interference_count_own(&ru);
	interference_take(&b);
	assert_true(b.children.ru_utime.tv_sec - a.children.ru_utime.tv_sec >= 30);
	assert_int_equal(b.children.ru_nvcsw - a.children.ru_nvcsw, 7);
	interference_diff(&a, &b, &x);
	assert_true(x.foreign_cpu_s == 0);
	assert_true(x.nvcsw == 7 && x.nivcsw == 3);
	/* counted once: the next window does not see it again */
	interference_take(&a);
	interference_take(&b);
	interference_diff(&a, &b, &x);
	assert_true(x.nvcsw == 0);
}

/*
 * A 5 ms iteration between two ticks shows no foreign CPU while hogs fill
 * every CPU: its shares are of the widened window, which saw them; its
 * own record (wall, context switches) stays the iteration's.  A long
 * window is judged as it is.
 */
static void test_short_window_widened(void **state)
{
	struct interference_history h;
	struct interference_snap old, a, b;
	struct interference x;
	uint64_t hz = (uint64_t)sysconf(_SC_CLK_TCK);
	double cpus;

	(void)state;
	memset(&h, 0, sizeof(h));
	interference_set_cpus(NULL);
	memset(&old, 0, sizeof(old));
	old.have_stat = true;
	old.t_ns = 1000000000ull;
	old.busy = 1000;
	a = old;
	a.t_ns = old.t_ns + 2000000000ull;	/* 2 s of hogs on every CPU */
	interference_diff(&old, &a, &x);
	cpus = x.cpus;
	a.busy = old.busy + (uint64_t)(2 * hz * cpus);
	b = a;
	b.t_ns = a.t_ns + 5000000;		/* 5 ms, no tick in it */
	b.children.ru_nvcsw = 4;
	interference_history_push(&h, &old);
	interference_diff_window(&h, &a, &b, &x);
	assert_true(fabs(x.wall_s - 0.005) < 1e-9);
	assert_true(fabs(x.window_s - 2.005) < 1e-9);
	assert_true(x.foreign_share > 0.99);
	assert_true(x.nvcsw == 4);
	/* without history there is nothing to widen to */
	memset(&h, 0, sizeof(h));
	interference_diff_window(&h, &a, &b, &x);
	assert_true(isnan(x.window_s) && x.foreign_share == 0);
	/* a window long enough on its own is not widened */
	interference_history_push(&h, &old);
	b.t_ns = a.t_ns + 1000000000ull;
	interference_diff_window(&h, &a, &b, &x);
	assert_true(isnan(x.window_s) && x.foreign_share == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_reuses_names),
		cmocka_unit_test(test_count_own),
		cmocka_unit_test(test_short_window_widened),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
