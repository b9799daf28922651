/*
 * Machines: which machine rows are one machine (bymachine.c), and which
 * runs a --by machine filter pools (db/query.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bymachine.h"
#include "query.h"

#define GIB (1ULL << 30)

static struct query_machine mach(int64_t id, const char *host, const char *cpu, int ncpus,
				 uint64_t mem)
{
	struct query_machine m = { id, (char *)host, (char *)cpu, ncpus, mem };

	return m;
}

static void test_same(void **state)
{
	struct query_machine a = mach(1, "box", "Xeon", 64, 256 * GIB);
	struct query_machine b = a;

	(void)state;
	assert_true(machine_same(&a, &b));
	/* MemTotal differs by some MB between two kernels on one box */
	b.mem_bytes = 256 * GIB - 300 * (1ULL << 20);
	assert_true(machine_same(&a, &b));
	b.mem_bytes = 128 * GIB;	/* half the DIMMs: another machine */
	assert_false(machine_same(&a, &b));
	b = a;
	b.ncpus = 32;			/* maxcpus=32 */
	assert_false(machine_same(&a, &b));
	b = a;
	b.hostname = "box2";		/* a twin is still another box */
	assert_false(machine_same(&a, &b));
	b = a;
	b.cpu_model = "EPYC";
	assert_false(machine_same(&a, &b));
}

static void test_group(void **state)
{
	struct query_machine ms[] = {
		mach(1, "one", "Xeon", 64, 256 * GIB),
		mach(2, "two", "EPYC", 128, 512 * GIB),
		mach(3, "one", "Xeon", 64, 255 * GIB),	/* row 1 under another kernel */
		mach(4, "vm@one", "QEMU", 2, 2 * GIB),
		mach(5, "two", "EPYC", 128, 513 * GIB),
	};
	size_t g[5];

	(void)state;
	assert_int_equal(machine_group(ms, 5, g), 3);
	assert_int_equal(g[0], 0);
	assert_int_equal(g[1], 1);
	assert_int_equal(g[2], 0);
	assert_int_equal(g[3], 2);
	assert_int_equal(g[4], 1);
	assert_int_equal(machine_group(ms, 0, g), 0);
}

static void test_run_selected(void **state)
{
	const int64_t on[] = { 1, 3 };
	struct query_filter all = { 0 }, one = { .machines = on, .nmachines = 2 };
	struct query_run r = { .status = (char *)"complete", .machine_id = 3 };

	(void)state;
	assert_true(query_run_selected(&all, &r));
	assert_true(query_run_selected(&one, &r));
	r.machine_id = 2;
	assert_false(query_run_selected(&one, &r));
	assert_true(query_run_selected(&all, &r));
	r.machine_id = 0;		/* an import: pools with any machine */
	assert_true(query_run_selected(&one, &r));
	r.status = (char *)"failed";
	assert_false(query_run_selected(&one, &r));
	assert_false(query_run_selected(&all, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_run_selected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
