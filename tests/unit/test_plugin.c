/* Plugin loader: what it accepts and what it rejects, and why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "capture.h"
#include "plugin.h"
#include "proc.h"
#include "util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char errbuf[8192];

/* Run the loader with stderr captured into errbuf. */
static int load_capture(struct plugin *p, const char *path)
{
	struct capture c;
	char *msg;
	int ret;

	capture_begin(&c);
	ret = plugin_load_file(p, path);
	msg = capture_end(&c);
	snprintf(errbuf, sizeof(errbuf), "%s", msg);
	free(msg);
	return ret;
}

static char *test_plugin(const char *name)
{
	const char *dir = getenv("MMBENCH_TEST_PLUGINS");

	return xasprintf("%s/%s.so", dir ? dir : "build/tests/plugins", name);
}

static void expect_reject(const char *name, const char *why)
{
	struct plugin p;
	char *path = test_plugin(name);

	assert_int_equal(load_capture(&p, path), -1);
	if (!strstr(errbuf, why))
		fail_msg("rejecting %s: expected '%s' in: %s", name, why, errbuf);
	assert_non_null(strstr(errbuf, path));	/* the message names the file */
	plugin_release(&p);
	free(path);
}

static void test_rejects_wrong_major(void **s)
{
	(void)s;
	/* the minor in the message follows MMB_ABI_MINOR: check around it */
	expect_reject("bad_major", "plugin built for ABI 99.");
	expect_reject("bad_major", ", this mmbench speaks ABI 1.");
}

static void test_rejects_short_struct(void **s)
{
	(void)s;
	expect_reject("short_struct", "descriptor is 16 bytes");
}

static void test_rejects_missing_hooks(void **s)
{
	(void)s;
	expect_reject("missing_hooks", "missing hook(s): run");
}

static void test_rejects_wrong_name(void **s)
{
	(void)s;
	expect_reject("wrong_name", "calls itself 'someone_else' but the file is named 'wrong_name.so'");
}

static void test_rejects_no_entry(void **s)
{
	(void)s;
	expect_reject("no_entry", "not an mmbench workload plugin");
}

static void test_rejects_not_elf(void **s)
{
	char path[] = "/tmp/mmb-test-XXXXXX";
	int fd = mkstemp(path);
	char *so = xasprintf("%s.so", path);
	struct plugin p;

	(void)s;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not elf", 7), 7);
	close(fd);
	assert_int_equal(rename(path, so), 0);
	assert_int_equal(load_capture(&p, so), -1);
	assert_non_null(strstr(errbuf, "cannot load plugin"));
	plugin_release(&p);
	unlink(so);
	free(so);
}

static void test_rejects_world_writable(void **s)
{
	char *src = test_plugin("good_minimal");
	char dir[] = "/tmp/mmb-ww-XXXXXX";
	char *dst;
	struct plugin p;
	const char *cp[4];

	(void)s;
	assert_non_null(mkdtemp(dir));
	dst = xasprintf("%s/good_minimal.so", dir);
	cp[0] = "cp"; cp[1] = src; cp[2] = dst; cp[3] = NULL;
	assert_int_equal(run_argv(cp, NULL, NULL), 0);
	chmod(dst, 0666);
	assert_int_equal(load_capture(&p, dst), -1);
	assert_non_null(strstr(errbuf, "world-writable plugin"));
	plugin_release(&p);
	chmod(dst, 0644);
	chmod(dir, 0777);
	assert_int_equal(load_capture(&p, dst), -1);
	assert_non_null(strstr(errbuf, "world-writable folder"));
	plugin_release(&p);
	/* sticky (like /tmp): others cannot replace our file, so it loads */
	chmod(dir, 01777);
	assert_int_equal(load_capture(&p, dst), 0);
	plugin_release(&p);
	unlink(dst);
	rmdir(dir);
	free(dst);
	free(src);
}

/*
 * In a sticky world-writable folder anyone can plant a plugin of their
 * own, and a folder another user owns is theirs to change: both refused.
 * Needs root to hand files to another user.
 */
static void test_rejects_other_owner(void **s)
{
	char *src = test_plugin("good_minimal");
	char dir[] = "/tmp/mmb-owner-XXXXXX";
	char *dst, *link;
	struct plugin p;
	const char *cp[4];

	(void)s;
	if (geteuid() != 0) {
		free(src);
		skip();
	}
	assert_non_null(mkdtemp(dir));
	dst = xasprintf("%s/good_minimal.so", dir);
	cp[0] = "cp"; cp[1] = src; cp[2] = dst; cp[3] = NULL;
	assert_int_equal(run_argv(cp, NULL, NULL), 0);
	chmod(dir, 01777);
	chmod(dst, 0644);
	assert_int_equal(chown(dst, 65534, (gid_t)-1), 0);
	assert_int_equal(load_capture(&p, dst), -1);
	assert_non_null(strstr(errbuf, "refusing a plugin owned by uid 65534"));
	plugin_release(&p);
	/* the same file reached through a symlink we own: still refused */
	link = xasprintf("%s.link.so", dir);
	assert_int_equal(symlink(dst, link), 0);
	assert_int_equal(load_capture(&p, link), -1);
	assert_non_null(strstr(errbuf, "owned by uid 65534"));
	plugin_release(&p);
	unlink(link);
	free(link);
	/* our file, in a folder (not writable by us even) another user owns */
	assert_int_equal(chown(dst, 0, (gid_t)-1), 0);
	chmod(dir, 0755);
	assert_int_equal(chown(dir, 65534, (gid_t)-1), 0);
	assert_int_equal(load_capture(&p, dst), -1);
	assert_non_null(strstr(errbuf, "owned by uid 65534 (only yours"));
	assert_non_null(strstr(errbuf, "in folder"));
	plugin_release(&p);
	assert_int_equal(chown(dir, 0, (gid_t)-1), 0);
	assert_int_equal(load_capture(&p, dst), 0);
	plugin_release(&p);
	unlink(dst);
	rmdir(dir);
	free(dst);
	free(src);
}

static void test_accepts_minimal(void **s)
{
	struct plugin p;
	char *path = test_plugin("good_minimal");

	(void)s;
	assert_int_equal(load_capture(&p, path), 0);
	assert_string_equal(p.w.name, "good_minimal");
	assert_int_equal(p.nmetrics, 1);
	assert_int_equal(p.nparams, 0);
	assert_int_equal(plugin_metric_index(&p, "value"), 0);
	assert_false(p.hooks & PLUGIN_HAS_CHECK_PARAMS);
	/* the harness holds a description only: the hooks are mapped by plugin_bind() */
	assert_null(p.w.run);
	assert_null(p.handle);
	plugin_release(&p);
	free(path);
}

static void test_accepts_newer_minor(void **s)
{
	struct plugin p;
	char *path = test_plugin("newer_minor");

	(void)s;
	assert_int_equal(load_capture(&p, path), 0);
	assert_int_equal(p.w.abi_minor, MMB_ABI_MINOR + 99);
	assert_null(p.w.run);
	{
		char why[256];

		assert_int_equal(plugin_bind(&p, why, sizeof(why)), 0);
	}
	assert_non_null(p.w.run);
	plugin_release(&p);
	free(path);
}

/* ABI 1.2: a metric's mmtests places and the programs a plugin runs survive the description; bad ones are refused. */
static void test_facts(void **s)
{
	static const struct { const char *spoil, *why; } bad[] = {
		{ "places", "metric 'value': places 12: 1 to 9" },
		{ "option", "programs[1]: not a program name" },
		{ "path", "programs[1]: not a program name" },
		{ "many", "programs[8]: more than 8 programs" },
	};
	struct plugin p;
	char *path = test_plugin("facts"), *dir;

	(void)s;
	assert_int_equal(load_capture(&p, path), 0);
	assert_int_equal(p.metrics[plugin_metric_index(&p, "value")]->places, 3);
	assert_int_equal(p.metrics[plugin_metric_index(&p, "plain")]->places, 0);
	assert_non_null(p.w.programs);
	assert_string_equal(p.w.programs[0], "stress-ng");
	assert_string_equal(p.w.programs[1], "true");
	assert_null(p.w.programs[2]);
	plugin_release(&p);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		setenv("MMB_TEST_FACTS", bad[i].spoil, 1);
		expect_reject("facts", bad[i].why);
	}
	unsetenv("MMB_TEST_FACTS");

	/* what render-mmtests asks: by plugin name, from the search path */
	dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	setenv("MMBENCH_PLUGIN_PATH", dir, 1);
	assert_int_equal(plugin_metric_places("facts", "value"), 3);
	assert_int_equal(plugin_metric_places("facts", "plain"), -1);
	assert_int_equal(plugin_metric_places("facts", "nosuch"), -1);
	assert_int_equal(plugin_metric_places("nosuch", "value"), -1);
	assert_int_equal(plugin_metric_places("../facts", "value"), -1);
	unsetenv("MMBENCH_PLUGIN_PATH");
	free(dir);
	free(path);
}

/* A newer minor's longer elements: walked with its stride, the extra ignored. */
static void test_accepts_longer_elements(void **s)
{
	static int dummy;
	struct big_param { struct mmb_param_def d; void *future[3]; };
	struct big_metric { struct mmb_metric_def d; void *future; };
	const struct big_param params[] = {
		{ { "a", MMB_PARAM_INT, "1", 0, 9, NULL, "first" }, { &dummy, &dummy, &dummy } },
		{ { "b", MMB_PARAM_ENUM, "y", 0, 0, "x|y", "second" }, { &dummy, &dummy, &dummy } },
		{ { NULL }, { &dummy, &dummy, &dummy } },
	};
	const struct big_metric metrics[] = {
		{ { "m", "u", MMB_LOWER_IS_BETTER, "metric", 0 }, &dummy },
		{ { NULL }, &dummy },
	};
	struct mmb_workload d = {
		.abi_major = MMB_ABI_MAJOR, .abi_minor = MMB_ABI_MINOR + 1,
		.size = sizeof(struct mmb_workload), .name = "big", .summary = "longer elements",
		.params = &params[0].d, .param_def_size = sizeof(params[0]),
		.metrics = &metrics[0].d, .metric_def_size = sizeof(metrics[0]),
		.setup = (void *)&dummy, .run = (void *)&dummy, .teardown = (void *)&dummy,
	};
	struct plugin p;

	(void)s;
	plugin_init(&p);
	p.path = xstrdup("big.so");
	assert_int_equal(plugin_check_descriptor(&p, &d, "big"), 0);
	assert_int_equal(p.nparams, 2);
	assert_string_equal(p.params[0]->name, "a");
	assert_int_equal(p.params[0]->max, 9);
	assert_string_equal(p.params[0]->help, "first");
	assert_string_equal(p.params[1]->name, "b");
	assert_string_equal(p.params[1]->choices, "x|y");
	assert_string_equal(p.params[1]->def, "y");
	assert_int_equal(p.nmetrics, 1);
	assert_string_equal(p.metrics[0]->unit, "u");
	assert_int_equal(p.metrics[0]->better, MMB_LOWER_IS_BETTER);
	/* the host's copies, not the plugin's elements */
	assert_ptr_not_equal(p.params[1], &params[1].d);
	plugin_release(&p);
}

/* Tables end at a NULL name: 256 defs load, a 257th without the NULL is refused. */
static void test_def_table_limit(void **s)
{
	static int dummy;
	static struct mmb_metric_def metrics[258];
	struct mmb_workload d = {
		.abi_major = MMB_ABI_MAJOR, .abi_minor = MMB_ABI_MINOR,
		.size = sizeof(struct mmb_workload), .name = "many", .summary = "many metrics",
		.metrics = metrics, .metric_def_size = sizeof(metrics[0]),
		.setup = (void *)&dummy, .run = (void *)&dummy, .teardown = (void *)&dummy,
	};
	struct plugin p;
	struct capture c;
	char *msg;

	(void)s;
	for (size_t i = 0; i < 257; i++)
		metrics[i] = (struct mmb_metric_def){ "m", "u", MMB_LOWER_IS_BETTER, "metric", 0 };
	metrics[256].name = NULL;
	plugin_init(&p);
	p.path = xstrdup("many.so");
	assert_int_equal(plugin_check_descriptor(&p, &d, "many"), 0);
	assert_int_equal(p.nmetrics, 256);
	plugin_release(&p);

	metrics[256].name = "m";
	plugin_init(&p);
	p.path = xstrdup("many.so");
	capture_begin(&c);
	assert_int_equal(plugin_check_descriptor(&p, &d, "many"), -1);
	msg = capture_end(&c);
	assert_non_null(strstr(msg, "many.so: metric list not terminated by a NULL name"));
	free(msg);
	plugin_release(&p);
}

static void test_loads_skeleton(void **s)
{
	const char *build = getenv("MMBENCH_BUILD");
	char *path = xasprintf("%s/workloads/skeleton.so", build ? build : "build");
	struct plugin p;

	(void)s;
	assert_int_equal(load_capture(&p, path), 0);
	assert_string_equal(p.w.name, "skeleton");
	assert_true(p.nparams >= 1);
	assert_true(p.nmetrics >= 1);
	for (size_t i = 0; i < p.nparams; i++)
		assert_non_null(p.params[i]->help);
	plugin_release(&p);
	free(path);
}

/* The description the loader child sends is the descriptor, field for field. */
static void test_description_round_trip(void **s)
{
	const char *build = getenv("MMBENCH_BUILD");
	char *path = xasprintf("%s/workloads/ebizzy.so", build ? build : "build");
	struct plugin p, b;
	char why[256];

	(void)s;
	assert_int_equal(load_capture(&p, path), 0);
	b = p;
	assert_int_equal(plugin_bind(&b, why, sizeof(why)), 0);
	assert_non_null(b.handle);
	{
		const struct mmb_workload *d = ((mmb_entry_fn)dlsym(b.handle, MMB_ENTRY_SYMBOL))();

		assert_string_equal(p.w.summary, d->summary);
		assert_int_equal(p.w.requires, d->requires);
		assert_int_equal(!!(p.hooks & PLUGIN_HAS_CHECK_PARAMS), d->check_params != NULL);
		for (size_t i = 0; i < p.nparams; i++) {
			const struct mmb_param_def *o = &d->params[i];

			assert_string_equal(p.params[i]->name, o->name);
			assert_int_equal(p.params[i]->type, o->type);
			assert_true(p.params[i]->min == o->min && p.params[i]->max == o->max);
			assert_true((!p.params[i]->def && !o->def) || !strcmp(p.params[i]->def, o->def));
			assert_true((!p.params[i]->choices && !o->choices) ||
				    !strcmp(p.params[i]->choices, o->choices));
		}
		assert_null(d->params[p.nparams].name);
		for (size_t i = 0; i < p.nmetrics; i++) {
			assert_string_equal(p.metrics[i]->name, d->metrics[i].name);
			assert_string_equal(p.metrics[i]->unit, d->metrics[i].unit);
			assert_int_equal(p.metrics[i]->better, d->metrics[i].better);
		}
	}
	dlclose(b.handle);
	plugin_release(&p);
	free(path);
}

/* A file replaced between loading and an iteration is refused, not run. */
static void test_bind_refuses_replaced_file(void **s)
{
	char dir[] = "/tmp/mmb-bind-XXXXXX";
	char *src = test_plugin("good_minimal"), *other = test_plugin("chatty"), *dst, why[512];
	struct plugin p;
	struct strbuf sb = STRBUF_INIT;

	(void)s;
	assert_non_null(mkdtemp(dir));
	dst = xasprintf("%s/good_minimal.so", dir);
	assert_int_equal(strbuf_read_file(&sb, src), 0);
	assert_int_equal(write_file_atomic_mode(dst, sb.buf, sb.len, 0755), 0);
	assert_int_equal(load_capture(&p, dst), 0);
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, other), 0);
	unlink(dst);
	assert_int_equal(write_file_atomic_mode(dst, sb.buf, sb.len, 0755), 0);
	assert_int_equal(plugin_bind(&p, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not the plugin it was when loaded"));
	assert_null(p.w.run);
	plugin_release(&p);
	strbuf_release(&sb);
	unlink(dst);
	rmdir(dir);
	free(dst);
	free(src);
	free(other);
}

static void test_search_path_env(void **s)
{
	struct plugin p;
	const char *dir = getenv("MMBENCH_TEST_PLUGINS");

	(void)s;
	/* plugin_search_path() caches; the env must be set before the first call */
	assert_int_equal(plugin_load(&p, "good_minimal"), 0);
	plugin_release(&p);
	assert_int_equal(plugin_load(&p, "../etc/passwd"), -1);
	plugin_release(&p);
	assert_int_equal(plugin_load(&p, "no-such-workload"), -1);
	plugin_release(&p);
	(void)dir;
}

static void test_name_valid(void **s)
{
	(void)s;
	assert_true(plugin_name_valid("pte-mapped-folio"));
	assert_true(plugin_name_valid("will-it-scale"));
	assert_false(plugin_name_valid(""));
	assert_false(plugin_name_valid("../x"));
	assert_false(plugin_name_valid("a b"));
	assert_false(plugin_name_valid("-x"));
	assert_false(plugin_name_valid("A"));
}

int main(void)
{
	const char *dir = getenv("MMBENCH_TEST_PLUGINS");

	setenv("MMBENCH_PLUGIN_PATH", dir ? dir : "build/tests/plugins", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects_wrong_major),
		cmocka_unit_test(test_rejects_short_struct),
		cmocka_unit_test(test_rejects_missing_hooks),
		cmocka_unit_test(test_rejects_wrong_name),
		cmocka_unit_test(test_rejects_no_entry),
		cmocka_unit_test(test_rejects_not_elf),
		cmocka_unit_test(test_rejects_world_writable),
		cmocka_unit_test(test_rejects_other_owner),
		cmocka_unit_test(test_accepts_minimal),
		cmocka_unit_test(test_accepts_newer_minor),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_accepts_longer_elements),
		cmocka_unit_test(test_def_table_limit),
		cmocka_unit_test(test_loads_skeleton),
		cmocka_unit_test(test_description_round_trip),
		cmocka_unit_test(test_bind_refuses_replaced_file),
		cmocka_unit_test(test_search_path_env),
		cmocka_unit_test(test_name_valid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
