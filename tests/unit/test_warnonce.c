/* warnonce: which messages are one kind, counting, and forgetting on flush. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "warnonce.h"

static void test_kinds(void **state)
{
	(void)state;
	assert_true(warnonce_first("pft: 32768 pages touched but 2048 minor faults measured (94% off)"));
	assert_false(warnonce_first("pft: 65536 pages touched but 4096 minor faults measured (94% off)"));
	assert_false(warnonce_first("pft: 1 pages touched but 0 minor faults measured (100% off)"));
	assert_int_equal(warnonce_count("pft: 7 pages touched but 7 minor faults measured (7% off)"), 3);
	/* words differ: another kind */
	assert_true(warnonce_first("pft: 32768 pages touched but 2048 major faults measured (94% off)"));
	/* a number where there was none is not the same message */
	assert_true(warnonce_first("pft: pages touched but 2048 minor faults measured (94% off)"));
	/* the plugin name is part of the message */
	assert_true(warnonce_first("ebizzy: 32768 pages touched but 2048 minor faults measured (94% off)"));
	/* 1.5 and 12.25 mask the same way */
	assert_true(warnonce_first("x: ratio 1.5"));
	assert_false(warnonce_first("x: ratio 12.25"));
	assert_int_equal(warnonce_count("unseen"), 0);
	warnonce_flush();
	/* forgotten: the next run prints again */
	assert_int_equal(warnonce_count("pft: 1 pages touched but 0 minor faults measured (100% off)"), 0);
	assert_true(warnonce_first("pft: 1 pages touched but 0 minor faults measured (100% off)"));
	warnonce_flush();
}

/* Past 256 kinds nothing is held back (a plugin printing a new line each time). */
static void test_many_kinds(void **state)
{
	char msg[64];

	(void)state;
	for (int i = 0; i < 300; i++) {
		snprintf(msg, sizeof(msg), "kind %c%c says hello", 'a' + i % 26, 'a' + i / 26);
		assert_true(warnonce_first(msg));
	}
	assert_true(warnonce_first("kind zz says hello"));
	assert_true(warnonce_first("kind zz says hello"));
	assert_false(warnonce_first("kind aa says hello"));
	warnonce_flush();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_many_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
