/*
 * ABI growth: this test and the loader under it are built with a header
 * one minor newer than include/mmbench (a field appended to mmb_param_def
 * and mmb_metric_def, see the Makefile), and load abi10.so, built against
 * the frozen 1.0 header with the shorter elements.  Every value must read
 * as the plugin wrote it and the appended field as zero; a loader that
 * used the plugin's elements as host structs reads the field from the next
 * element (or past the array).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "plugin.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The build gives this file the grown header; make sure it did. */
_Static_assert(sizeof(struct mmb_param_def) ==
	       offsetof(struct mmb_param_def, abi_next) + sizeof(int64_t),
	       "built without the grown header");

static void test_old_elements_read_right(void **s)
{
	static const struct { const char *name; enum mmb_param_type type; const char *def;
			      int64_t min, max; const char *choices, *help; } want[] = {
		{ "size", MMB_PARAM_SIZE, "4M", 4096, 1LL << 30, NULL, "bytes faulted in by run()" },
		{ "passes", MMB_PARAM_INT, "1", 1, 100, NULL, "times run() writes every page" },
		{ "mode", MMB_PARAM_ENUM, "touch", 0, 0, "touch|zero", "one byte a page, or memset" },
		{ "label", MMB_PARAM_STRING, "old", 0, 0, NULL, "free text, unused" },
		{ "verbose", MMB_PARAM_BOOL, "false", 0, 0, NULL, "log what run() did" },
		{ "ratio", MMB_PARAM_DOUBLE, "0.5", 0, 0, NULL, "a double, unused" },
	};
	const char *dir = getenv("MMBENCH_TEST_PLUGINS");
	char *path = xasprintf("%s/abi10.so", dir ? dir : "build/tests/plugins");
	struct plugin p;

	(void)s;
	assert_int_equal(plugin_load_file(&p, path), 0);
	assert_int_equal(p.w.abi_minor, 0);
	assert_int_equal(p.w.param_def_size, offsetof(struct mmb_param_def, abi_next));
	assert_int_equal(p.nparams, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < p.nparams; i++) {
		const struct mmb_param_def *d = p.params[i];

		assert_string_equal(d->name, want[i].name);
		assert_int_equal(d->type, want[i].type);
		assert_string_equal(d->def, want[i].def);
		assert_int_equal(d->min, want[i].min);
		assert_int_equal(d->max, want[i].max);
		if (want[i].choices)
			assert_string_equal(d->choices, want[i].choices);
		else
			assert_null(d->choices);
		assert_string_equal(d->help, want[i].help);
		assert_int_equal(d->abi_next, 0);
		assert_int_equal(plugin_param_index(&p, want[i].name), (int)i);
	}
	assert_int_equal(p.nmetrics, 2);
	assert_string_equal(p.metrics[0]->name, "pages");
	assert_string_equal(p.metrics[0]->unit, "pages");
	assert_int_equal(p.metrics[0]->better, MMB_HIGHER_IS_BETTER);
	assert_string_equal(p.metrics[0]->help, "pages written by run()");
	assert_int_equal(p.metrics[0]->abi_next, 0);
	assert_string_equal(p.metrics[1]->name, "elapsed");
	assert_string_equal(p.metrics[1]->unit, "s");
	assert_int_equal(p.metrics[1]->better, MMB_LOWER_IS_BETTER);
	assert_string_equal(p.metrics[1]->help, "run()'s wall time");
	assert_int_equal(p.metrics[1]->abi_next, 0);
	plugin_release(&p);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_elements_read_right),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
