/*
 * The knob journal's trust checks (harness/machine/envctl.c): which knobs a
 * replay (and host->write_knob) accepts, which values, and when a state
 * folder or journal is refused.  The replay itself: tests/e2e/89-journal-hostile.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "envctl.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_knob_allow_list(void **state)
{
	static const char *const ok[] = {
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/kernel/mm/transparent_hugepage/defrag",
		"/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
		"/sys/kernel/mm/transparent_hugepage/khugepaged/pages_to_scan",
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		"/sys/devices/system/cpu/cpu127/cpufreq/scaling_governor",
		"/sys/block/zram0/reset",
		"/sys/block/zram12/comp_algorithm",
		"/proc/sys/vm/overcommit_memory",
	};
	static const char *const bad[] = {
		"/etc/passwd",
		"",
		"relative/enabled",
		"/sys/kernel/mm/transparent_hugepage/",
		"/sys/kernel/mm/transparent_hugepage/../../../../etc/passwd",
		"/sys/kernel/mm/transparent_hugepage/./enabled",
		"/sys/kernel/mm/transparent_hugepage//enabled",
		"/sys/kernel/mm/transparent_hugepage/enabled/",
		"/sys/kernel/mm/transparent_hugepage/.hidden",
		"/sys/kernel/mm/transparent_hugepage/en abled",
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_setspeed",
		"/sys/devices/system/cpu/cpu/cpufreq/scaling_governor",
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor/x",
		"/sys/devices/system/cpu/cpux/../cpu0/cpufreq/scaling_governor",
		"/sys/block/sda/queue/scheduler",
		"/sys/block/zram/reset",
		"/sys/block/zram0/",
		"/sys/block/zram0/../sda/x",
		"/proc/sys/vm/",
		"/proc/sys/vm/../kernel/core_pattern",
		"/proc/sys/kernel/core_pattern",
		"/sys/power/state",
		"/proc/sys/vm/a/b",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!envctl_knob_allowed(ok[i]))
			fail_msg("refused %s", ok[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (envctl_knob_allowed(bad[i]))
			fail_msg("allowed %s", bad[i]);
}

static void test_values(void **state)
{
	char long_value[ENVCTL_VALUE_MAX + 2];

	(void)state;
	assert_true(envctl_value_ok("always"));
	assert_true(envctl_value_ok(""));
	assert_true(envctl_value_ok("256\t256\t32\t0"));	/* lowmem_reserve_ratio */
	assert_false(envctl_value_ok("a\nb"));
	assert_false(envctl_value_ok("\x1b[2J"));
	assert_false(envctl_value_ok("caf\xc3\xa9"));
	memset(long_value, 'x', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	assert_false(envctl_value_ok(long_value));
	long_value[ENVCTL_VALUE_MAX] = '\0';
	assert_true(envctl_value_ok(long_value));
}

/* One state folder per process (the path is computed once): modes changed in turn. */
static void test_state_checks(void **state)
{
	char dir[] = "/tmp/mmb-envctl-XXXXXX";
	char *journal;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("MMBENCH_STATE", dir, 1);
	journal = xasprintf("%s/journal", dir);
	assert_string_equal(envctl_journal_path(), journal);

	assert_int_equal(envctl_check_state(), 0);	/* 0700, no journal */
	f = fopen(journal, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(journal, 0600), 0);
	assert_int_equal(envctl_check_state(), 0);
	assert_int_equal(envctl_recover(), 0);		/* empty: nothing to do */

	assert_int_equal(chmod(journal, 0620), 0);
	assert_int_equal(envctl_check_state(), -1);
	assert_int_equal(envctl_recover(), -1);
	assert_int_equal(chmod(journal, 0600), 0);

	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(envctl_check_state(), -1);
	assert_int_equal(chmod(dir, 01777), 0);		/* sticky does not make it private */
	assert_int_equal(envctl_check_state(), -1);
	assert_int_equal(chmod(dir, 0775), 0);
	assert_int_equal(envctl_check_state(), -1);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(envctl_check_state(), 0);

	/* a journal that is a symlink: refused, and never appended through */
	assert_int_equal(unlink(journal), 0);
	assert_int_equal(symlink("/nonexistent/mmb-envctl", journal), 0);
	assert_int_equal(envctl_check_state(), -1);
	assert_int_equal(envctl_push_undo_write("/sys/block/zram0/reset", "1"), -EPERM);
	assert_int_equal(unlink(journal), 0);
	/* what a replay would refuse is not journaled in the first place */
	assert_int_equal(envctl_push_undo_write("/etc/passwd", "x"), -EPERM);
	assert_int_equal(envctl_push_undo_write("/sys/block/zram0/reset", "a\nb"), -EPERM);
	assert_int_equal(access(journal, F_OK), -1);

	if (geteuid() == 0) {
		assert_int_equal(chown(dir, 65534, (gid_t)-1), 0);
		assert_int_equal(envctl_check_state(), -1);
		assert_int_equal(chown(dir, 0, (gid_t)-1), 0);
		assert_int_equal(envctl_check_state(), 0);
	}
	rmdir(dir);
	free(journal);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_allow_list),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_state_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
