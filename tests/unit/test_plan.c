/* Plan: parameters resolved against a real plugin, matrix expansion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "capture.h"
#include "plan.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char errbuf[8192];
static const struct unit_ctx ctx = { .ncpus = 16, .mem_total = 16ull << 30, .page_size = 4096 };

static int build(struct experiment *e, struct plan *p, const char *yaml,
		 const struct plan_opts *o)
{
	struct capture c;
	char *msg;
	int ret;

	capture_begin(&c);
	experiment_init(e);
	ret = experiment_load_string(e, "t.yaml", yaml);
	if (!ret)
		ret = plan_build(p, e, &ctx, o);
	else
		memset(p, 0, sizeof(*p));
	msg = capture_end(&c);
	snprintf(errbuf, sizeof(errbuf), "%s", msg);
	free(msg);
	return ret;
}

static void done(struct experiment *e, struct plan *p)
{
	plan_release(p);
	experiment_release(e);
}

static void test_matrix(void **s)
{
	struct experiment e;
	struct plan p;
	struct plan_workload *w;

	(void)s;
	assert_int_equal(build(&e, &p,
			       "experiment: m\niterations: 3\nwarmup: 1\nworkloads:\n"
			       "  - name: skeleton\n    params:\n      size: [4K, 8K]\n"
			       "      access: [write, read]\n      passes: 2\n", NULL), 0);
	assert_int_equal(p.nwls, 1);
	w = &p.wls[0];
	assert_int_equal(w->nvariants, 4);
	/* declaration order, last axis fastest; scalars stay out of the name */
	assert_string_equal(w->variants[0].variant, "size=4K,access=write");
	assert_string_equal(w->variants[1].variant, "size=4K,access=read");
	assert_string_equal(w->variants[3].variant, "size=8K,access=read");
	assert_non_null(strstr(w->variants[0].params_text, "passes=2"));
	assert_int_equal(w->variants[2].values[plugin_param_index(&w->plugin, "size")].i, 8192);
	assert_int_equal(w->variants[1].values[plugin_param_index(&w->plugin, "access")].i, 1);
	assert_int_equal(p.total_iterations, 4 * (3 + 1));
	done(&e, &p);
}

static void test_defaults_and_units(void **s)
{
	struct experiment e;
	struct plan p;
	struct plan_workload *w;
	int isize;

	(void)s;
	assert_int_equal(build(&e, &p,
			       "experiment: d\nworkloads:\n  - name: skeleton\n    params:\n"
			       "      size: 1%mem\n", NULL), 0);
	w = &p.wls[0];
	isize = plugin_param_index(&w->plugin, "size");
	assert_int_equal(w->nvariants, 1);
	assert_string_equal(w->variants[0].variant, "");
	assert_int_equal(w->variants[0].values[isize].i, (int64_t)((16ull << 30) / 100));
	/* unset params take the plugin's defaults */
	assert_int_equal(w->variants[0].values[plugin_param_index(&w->plugin, "passes")].i, 1);
	done(&e, &p);
}

static void test_generator_expands(void **s)
{
	struct experiment e;
	struct plan p;

	(void)s;
	assert_int_equal(build(&e, &p,
			       "experiment: g\nworkloads:\n  - name: skeleton\n    params:\n"
			       "      passes: stride:ncpu\n", NULL), 0);
	assert_int_equal(p.wls[0].nvariants, 6);	/* 1 3 5 7 12 16 */
	assert_string_equal(p.wls[0].variants[4].variant, "passes=12");
	assert_string_equal(p.wls[0].variants[5].variant, "passes=16");
	done(&e, &p);
	/* inside a written list: expanded in place, a repeated value runs once */
	assert_int_equal(build(&e, &p,
			       "experiment: g\nworkloads:\n  - name: skeleton\n    params:\n"
			       "      passes: [2, pow2:1..8, 20]\n", NULL), 0);
	assert_int_equal(p.wls[0].nvariants, 5);	/* 2 1 4 8 20 */
	assert_string_equal(p.wls[0].variants[0].variant, "passes=2");
	assert_string_equal(p.wls[0].variants[1].variant, "passes=1");
	assert_string_equal(p.wls[0].variants[3].variant, "passes=8");
	assert_string_equal(p.wls[0].variants[4].variant, "passes=20");
	done(&e, &p);
	/* a bad generator in a list names its own position */
	assert_int_not_equal(build(&e, &p,
			       "experiment: g\nworkloads:\n  - name: skeleton\n    params:\n"
			       "      passes: [1, pow2:0..8]\n", NULL), 0);
	done(&e, &p);
}

static void test_overrides(void **s)
{
	struct experiment e;
	struct plan p;
	struct plan_opts o = { .iterations = 7 };
	struct plan_opts q = { .quick = true };

	(void)s;
	assert_int_equal(build(&e, &p, "experiment: o\niterations: 30\nworkloads:\n  - name: skeleton\n", &o), 0);
	assert_int_equal(p.wls[0].iterations, 7);
	done(&e, &p);
	assert_int_equal(build(&e, &p, "experiment: o\niterations: 30\nwarmup: 3\nworkloads:\n  - name: skeleton\n", &q), 0);
	assert_int_equal(p.wls[0].iterations, 2);
	assert_int_equal(p.wls[0].warmup, 0);
	done(&e, &p);
}

static void expect_error(const char *yaml, const char *msg)
{
	struct experiment e;
	struct plan p;

	assert_int_equal(build(&e, &p, yaml, NULL), -1);
	if (!strstr(errbuf, msg))
		fail_msg("expected '%s' in: %s", msg, errbuf);
	done(&e, &p);
}

/* A generator on a size parameter: sizes in, variants named in units out. */
static void test_size_generators(void **s)
{
	struct experiment e;
	struct plan p;
	struct plan_workload *w;

	(void)s;
	assert_int_equal(build(&e, &p, "experiment: g\nworkloads:\n  - name: skeleton\n"
			       "    params:\n      size: range:4K..12K:4K\n", NULL), 0);
	w = &p.wls[0];
	assert_int_equal(w->nvariants, 3);
	assert_string_equal(w->variants[0].variant, "size=4K");
	assert_string_equal(w->variants[1].variant, "size=8K");
	assert_string_equal(w->variants[2].variant, "size=12K");
	done(&e, &p);
	assert_int_equal(build(&e, &p, "experiment: g\nworkloads:\n  - name: skeleton\n"
			       "    params:\n      size: [6K, pow2:1M..3M]\n", NULL), 0);
	w = &p.wls[0];
	assert_int_equal(w->nvariants, 4);
	assert_string_equal(w->variants[0].variant, "size=6K");
	assert_string_equal(w->variants[1].variant, "size=1M");
	assert_string_equal(w->variants[2].variant, "size=2M");
	assert_string_equal(w->variants[3].variant, "size=3M");
	done(&e, &p);
	/* range:4096..4096 once said "unexpected 'range:4096..4096'" */
	assert_int_equal(build(&e, &p, "experiment: g\nworkloads:\n  - name: skeleton\n"
			       "    params:\n      size: range:4096..4096\n", NULL), 0);
	assert_string_equal(p.wls[0].variants[0].variant, "size=4K");
	done(&e, &p);
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      size: stride:8\n",
		     "t.yaml:5:13: workload 'skeleton': parameter 'size': 'stride:8': stride: makes client"
		     " counts; for sizes use pow2:A..B or range:A..B:S");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      size: range:4K..1G\n",
		     "'range:4K..1G': more than 100000 values");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      prefault: range:0..1\n",
		     "parameter 'prefault': 'range:0..1': generators (stride:, pow2:, range:) expand int and"
		     " size parameters; 'prefault' is a boolean (true/false): write a list of values instead");
}

/* The product of the parameter lists is checked before any variant is made. */
static void test_variant_limit(void **s)
{
	(void)s;
	/* 1000 x 1000 = 10^6 variants */
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n"
		     "      size: range:4K..4000K:4K\n      passes: range:1..1000\n",
		     "t.yaml:3:11: workload 'skeleton': more than 100000 variants (the product of"
		     " the parameter lists)");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n"
		     "      size: range:4K..400000K:4K\n      passes: range:1..1000\n"
		     "      access: [write, read]\n", "more than 100000 variants");
	/*
	 * and across the workloads of an experiment: 60000 + 60000 (pageout: no
	 * check_params, so the first 60000 cost no plugin calls without swap)
	 */
	expect_error("experiment: x\nworkloads:\n"
		     "  - name: pageout\n    params:\n      size: range:4K..240000K:4K\n"
		     "  - name: skeleton\n    params:\n      size: range:4K..240000K:4K\n",
		     "t.yaml:6:11: workload 'skeleton': more than 100000 variants in the experiment");
}

static void test_errors(void **s)
{
	(void)s;
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      sise: 4K\n",
		     "t.yaml:5:7: workload 'skeleton': unknown parameter 'sise'; valid parameters: size, passes, access, prefault");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      size: [4K, 1]\n",
		     "t.yaml:5:18: workload 'skeleton': parameter 'size': 1 is out of range [4.0K, 1.0T]");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      access: both\n",
		     "t.yaml:5:15: workload 'skeleton': parameter 'access': 'both' is not a valid choice; valid: write|read");
	expect_error("experiment: x\nworkloads:\n  - name: skeleton\n    params:\n      prefault: maybe\n",
		     "t.yaml:5:17: workload 'skeleton': parameter 'prefault':");
	expect_error("experiment: x\nworkloads:\n  - name: nosuchworkload\n",
		     "t.yaml:3:11: unknown or unloadable workload 'nosuchworkload'; available:");
}

int main(void)
{
	const char *build_dir = getenv("MMBENCH_BUILD");
	char *dir = xasprintf("%s/workloads", build_dir ? build_dir : "build");

	setenv("MMBENCH_PLUGIN_PATH", dir, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_defaults_and_units),
		cmocka_unit_test(test_generator_expands),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_size_generators),
		cmocka_unit_test(test_variant_limit),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	free(dir);
	return ret;
}
