/* Experiment files: shape, defaults, positions and every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "config.h"
#include "capture.h"
#include "units.h"
#include "util.h"

#define SEC 1000000000LL

/* Run the loader with fd 2 redirected to a tmpfile; returns what it printed. */
static char *load_capture(struct experiment *e, const char *path, const char *text, int *ret)
{
	struct capture c;
	char *out;

	capture_begin(&c);
	assert_non_null(c.tmp);
	if (text)
		*ret = experiment_load_string(e, path, text);
	else
		*ret = experiment_load(e, path);
	out = capture_end(&c);
	assert_non_null(out);
	return out;
}

static void load_ok(struct experiment *e, const char *text)
{
	int ret;
	char *msg;

	experiment_init(e);
	msg = load_capture(e, "configs/x.yaml", text, &ret);
	if (ret || *msg) {
		fprintf(stderr, "%s", msg);
		free(msg);
		fail_msg("config rejected or warned:\n%s", text);
	}
	free(msg);
}

/*
 * The config must be rejected with exactly one line
 * "error: configs/x.yaml:LINE:COL: ..." containing `part`.
 */
static void load_bad(const char *text, int line, int col, const char *part)
{
	struct experiment e;
	char prefix[128];
	char *msg;
	int ret;

	experiment_init(&e);
	msg = load_capture(&e, "configs/x.yaml", text, &ret);
	snprintf(prefix, sizeof(prefix), "error: configs/x.yaml:%d:%d: ", line, col);
	if (ret != -1 || strncmp(msg, prefix, strlen(prefix)) || !strstr(msg, part) ||
	    !strchr(msg, '\n') || strchr(msg, '\n')[1]) {
		print_error("config:\n%s\nwant: %s...%s\ngot (ret %d): %s\n", text, prefix, part,
			    ret, msg);
		free(msg);
		experiment_release(&e);
		fail();
	}
	free(msg);
	/* a failed load leaves an empty experiment behind */
	assert_null(e.name);
	assert_null(e.workloads);
	assert_int_equal(e.nworkloads, 0);
	assert_null(e.text);
	experiment_release(&e);
}

#define MIN_WL "workloads:\n  - name: pft\n"

static void test_defaults(void **state)
{
	const char *text = "experiment: quick\n" MIN_WL;
	struct experiment e;

	load_ok(&e, text);
	assert_string_equal(e.name, "quick");
	assert_string_equal(e.path, "configs/x.yaml");
	assert_string_equal(e.text, text);
	assert_null(e.description);
	assert_int_equal(e.iterations, 5);
	assert_int_equal(e.warmup, 1);
	assert_int_equal(e.timeout_ns, 1800 * SEC);
	assert_true(e.mon_vmstat);
	assert_true(e.mon_meminfo);
	assert_null(e.env.thp_enabled);
	assert_null(e.env.thp_defrag);
	assert_int_equal(e.env.nmthp, 0);
	assert_null(e.env.governor);
	assert_null(e.env.pin_cpu);
	assert_false(e.env.drop_caches);
	assert_int_equal(e.env.zram_bytes, 0);
	assert_null(e.env.zram_comp);
	assert_int_equal(e.nworkloads, 1);
	assert_string_equal(e.workloads[0].name, "pft");
	assert_int_equal(e.workloads[0].pos.line, 3);
	assert_int_equal(e.workloads[0].pos.col, 11);
	assert_ptr_equal(e.workloads[0].pos.file, e.path);
	assert_int_equal(e.workloads[0].iterations, -1);
	assert_int_equal(e.workloads[0].warmup, -1);
	assert_int_equal(e.workloads[0].timeout_ns, 0);
	assert_int_equal(e.workloads[0].nparams, 0);
	experiment_release(&e);
	/* release leaves an initialised struct: releasing again is safe */
	experiment_release(&e);
}

static void test_full(void **state)
{
	const char *text =
		"experiment: full\n"
		"description: every key\n"
		"iterations: 30\n"
		"warmup: 0\n"
		"timeout: 10m\n"
		"environment:\n"
		"  thp: never\n"
		"  thp_defrag: defer+madvise\n"
		"  mthp:\n"
		"    16K: always\n"
		"    32kB: never\n"
		"    hugepages-64kB: inherit\n"
		"    2M: madvise\n"
		"    128KiB: never\n"
		"  governor: performance\n"
		"  pin_cpu: 0\n"
		"  drop_caches: yes\n"
		"  swap: { zram: 1G, comp: lz4 }\n"
		"monitors: [vmstat]\n"
		"workloads:\n"
		"  - name: pft\n"
		"    iterations: 10\n"
		"    warmup: 2\n"
		"    timeout: 90s\n"
		"    params:\n"
		"      size: 20%mem\n"
		"  - name: ebizzy\n"
		"    params:\n";
	struct experiment e;

	load_ok(&e, text);
	assert_string_equal(e.description, "every key");
	assert_int_equal(e.iterations, 30);
	assert_int_equal(e.warmup, 0);
	assert_int_equal(e.timeout_ns, 600 * SEC);
	assert_string_equal(e.env.thp_enabled, "never");
	assert_string_equal(e.env.thp_defrag, "defer+madvise");
	assert_int_equal(e.env.nmthp, 5);
	assert_int_equal(e.env.mthp[0].kb, 16);
	assert_string_equal(e.env.mthp[0].value, "always");
	assert_int_equal(e.env.mthp[0].pos.line, 10);
	assert_int_equal(e.env.mthp[0].pos.col, 5);
	assert_int_equal(e.env.mthp[1].kb, 32);
	assert_string_equal(e.env.mthp[1].value, "never");
	assert_int_equal(e.env.mthp[2].kb, 64);
	assert_string_equal(e.env.mthp[2].value, "inherit");
	assert_int_equal(e.env.mthp[3].kb, 2048);
	assert_string_equal(e.env.mthp[3].value, "madvise");
	assert_int_equal(e.env.mthp[4].kb, 128);
	assert_string_equal(e.env.governor, "performance");
	assert_string_equal(e.env.pin_cpu, "0");
	assert_int_equal(CPU_COUNT(&e.env.pin_set), 1);
	assert_true(CPU_ISSET(0, &e.env.pin_set));
	assert_true(e.env.drop_caches);
	assert_int_equal(e.env.zram_bytes, 1LL << 30);
	assert_string_equal(e.env.zram_comp, "lz4");
	assert_true(e.mon_vmstat);
	assert_false(e.mon_meminfo);
	assert_int_equal(e.nworkloads, 2);
	assert_int_equal(e.workloads[0].iterations, 10);
	assert_int_equal(e.workloads[0].warmup, 2);
	assert_int_equal(e.workloads[0].timeout_ns, 90 * SEC);
	assert_int_equal(e.workloads[0].nparams, 1);
	assert_string_equal(e.workloads[0].params[0].name, "size");
	assert_string_equal(e.workloads[0].params[0].values[0].text, "20%mem");
	assert_string_equal(e.workloads[1].name, "ebizzy");
	assert_int_equal(e.workloads[1].nparams, 0);	/* "params:" left empty */
	experiment_release(&e);
}

static void test_monitor_forms(void **state)
{
	struct experiment e;

	load_ok(&e, "experiment: m\nmonitors: none\n" MIN_WL);
	assert_false(e.mon_vmstat);
	assert_false(e.mon_meminfo);
	experiment_release(&e);
	load_ok(&e, "experiment: m\nmonitors: []\n" MIN_WL);
	assert_false(e.mon_vmstat);
	assert_false(e.mon_meminfo);
	experiment_release(&e);
	load_ok(&e, "experiment: m\nmonitors: meminfo\n" MIN_WL);
	assert_false(e.mon_vmstat);
	assert_true(e.mon_meminfo);
	experiment_release(&e);
	load_ok(&e, "experiment: m\nmonitors:\n  - meminfo\n  - vmstat\n" MIN_WL);
	assert_true(e.mon_vmstat);
	assert_true(e.mon_meminfo);
	experiment_release(&e);
	load_ok(&e, "experiment: m\nenvironment:\n  pin_cpu: none\n  drop_caches: off\n" MIN_WL);
	assert_null(e.env.pin_cpu);
	assert_false(e.env.drop_caches);
	experiment_release(&e);
	/* an empty environment / description is allowed */
	load_ok(&e, "experiment: m\nenvironment:\ndescription:\n" MIN_WL);
	assert_null(e.description);
	experiment_release(&e);
}

/* Lists are kept as lists, every element with its own position, in order. */
static void test_expansion_shape(void **state)
{
	const char *text =
		"experiment: shape\n"
		"workloads:\n"
		"  - name: pft\n"
		"    params:\n"
		"      size: 1G\n"
		"      clients: [1, 2, 4]\n"
		"      mode:\n"
		"        - threads\n"
		"        - processes\n"
		"      one: [only]\n"
		"      text: \"quoted: value\"\n"
		"      gen: stride:ncpu\n"
		"  - name: pft\n"
		"    params: { size: 2G }\n";
	struct experiment e;
	struct cfg_param *p;

	load_ok(&e, text);
	assert_int_equal(e.nworkloads, 2);
	assert_int_equal(e.workloads[0].nparams, 6);
	p = e.workloads[0].params;

	assert_string_equal(p[0].name, "size");
	assert_false(p[0].is_list);
	assert_int_equal(p[0].nvalues, 1);
	assert_string_equal(p[0].values[0].text, "1G");
	assert_int_equal(p[0].pos.line, 5);
	assert_int_equal(p[0].pos.col, 7);
	assert_int_equal(p[0].values[0].pos.line, 5);
	assert_int_equal(p[0].values[0].pos.col, 13);

	assert_string_equal(p[1].name, "clients");
	assert_true(p[1].is_list);
	assert_int_equal(p[1].nvalues, 3);
	assert_string_equal(p[1].values[0].text, "1");
	assert_string_equal(p[1].values[1].text, "2");
	assert_string_equal(p[1].values[2].text, "4");
	assert_int_equal(p[1].values[0].pos.line, 6);
	assert_int_equal(p[1].values[0].pos.col, 17);
	assert_int_equal(p[1].values[1].pos.col, 20);
	assert_int_equal(p[1].values[2].pos.col, 23);
	assert_ptr_equal(p[1].values[2].pos.file, e.path);

	assert_string_equal(p[2].name, "mode");
	assert_true(p[2].is_list);
	assert_int_equal(p[2].nvalues, 2);
	assert_string_equal(p[2].values[0].text, "threads");
	assert_int_equal(p[2].values[0].pos.line, 8);
	assert_int_equal(p[2].values[0].pos.col, 11);
	assert_string_equal(p[2].values[1].text, "processes");
	assert_int_equal(p[2].values[1].pos.line, 9);
	assert_int_equal(p[2].values[1].pos.col, 11);

	/* a one-element list is still a list (declared as a variant axis) */
	assert_string_equal(p[3].name, "one");
	assert_true(p[3].is_list);
	assert_int_equal(p[3].nvalues, 1);

	assert_string_equal(p[4].values[0].text, "quoted: value");
	assert_false(p[4].is_list);
	/* generators stay text: plan.c expands them with units_int_list() */
	assert_string_equal(p[5].values[0].text, "stride:ncpu");
	assert_false(p[5].is_list);

	assert_int_equal(e.workloads[1].nparams, 1);
	assert_string_equal(e.workloads[1].params[0].values[0].text, "2G");
	assert_int_equal(e.workloads[1].params[0].values[0].pos.line, 14);
	assert_int_equal(e.workloads[1].params[0].values[0].pos.col, 21);
	assert_int_equal(e.workloads[1].pos.line, 13);
	assert_int_equal(e.workloads[1].pos.col, 11);
	experiment_release(&e);
}

static void test_load_file(void **state)
{
	char path[] = "/tmp/mmb-test-config-XXXXXX";
	const char *text = "experiment: file\n" MIN_WL;
	struct experiment e;
	char *msg;
	int fd, ret;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);

	experiment_init(&e);
	msg = load_capture(&e, path, NULL, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(msg, "");
	free(msg);
	assert_string_equal(e.text, text);
	assert_string_equal(e.path, path);
	assert_string_equal(e.name, "file");
	experiment_release(&e);

	/* NUL bytes: not a text file */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "experiment: a\0b\n", 17), 17);
	close(fd);
	msg = load_capture(&e, path, NULL, &ret);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "not a text file"));
	assert_non_null(strstr(msg, path));
	free(msg);
	unlink(path);

	/* missing file */
	msg = load_capture(&e, path, NULL, &ret);
	assert_int_equal(ret, -1);
	assert_true(starts_with(msg, "error: "));
	assert_non_null(strstr(msg, path));
	assert_non_null(strstr(msg, "cannot read an experiment config: No such file"));
	free(msg);
	assert_null(e.text);
	experiment_release(&e);
}

static void test_yaml_syntax_errors(void **state)
{
	load_bad("experiment: a\nworkloads: [\n", 3, 1,
		 "invalid YAML: did not find expected node content");
	load_bad("experiment: a\n\tworkloads: []\n", 2, 1,
		 "tabs are not allowed for indentation, use spaces");
	load_bad("experiment: a\n  iterations: 3\n", 2, 13,
		 "invalid YAML: mapping values are not allowed in this context");
	load_bad("experiment: a\nworkloads:\n  - name: x\n - name: y\n", 4, 2,
		 "invalid YAML: did not find expected key");
	load_bad("experiment: \"unterminated\n", 2, 1,
		 "invalid YAML: found unexpected end of stream");
	load_bad("experiment: a\xff\n", 1, 14, "invalid YAML: invalid leading UTF-8 octet");
	load_bad("experiment: *nope\n", 1, 13, "invalid YAML: found undefined alias");
	load_bad("experiment: a\n" MIN_WL "---\nexperiment: b\n", 4, 1,
		 "only one YAML document per experiment file");
	load_bad("experiment: a\n" MIN_WL "---\n[\n", 6, 1, "invalid YAML:");
}

static void test_unknown_keys(void **state)
{
	load_bad("experiment: a\niterations: 3\niteratons: 4\n" MIN_WL, 3, 1,
		 "unknown key 'iteratons'; valid keys: experiment, description, iterations, "
		 "warmup, timeout, environment, monitors, counters, interference, workloads");
	load_bad("experiment: a\nenvironment:\n  thp_enabled: never\n" MIN_WL, 3, 3,
		 "unknown key 'thp_enabled' in environment; valid keys: thp, thp_defrag, mthp, "
		 "governor, pin_cpu, drop_caches, swap");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    param: {}\n", 4, 5,
		 "unknown key 'param' in a workload; valid keys: name, iterations, warmup, "
		 "timeout, params");
	load_bad("experiment: a\nenvironment:\n  swap: { zram: 1G, algo: lz4 }\n" MIN_WL, 3, 21,
		 "unknown key 'algo' in swap; valid keys: zram, comp");
	load_bad("experiment: a\n? [x, y]\n: 1\n" MIN_WL, 2, 3,
		 "expected a key name, got a list");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params: { ? {a: 1} : 2 }\n", 4, 17,
		 "expected a key name, got a mapping");
}

static void test_duplicates(void **state)
{
	load_bad("experiment: a\nexperiment: b\n" MIN_WL, 2, 1,
		 "duplicate key 'experiment' (first at line 1)");
	load_bad("experiment: a\nenvironment:\n  thp: never\n  thp: always\n" MIN_WL, 4, 3,
		 "duplicate key 'thp' (first at line 3)");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      size: 1G\n"
		 "      size: 2G\n", 6, 7, "duplicate key 'size' (first at line 5)");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    name: ebizzy\n", 4, 5,
		 "duplicate key 'name'");
	load_bad("experiment: a\nenvironment:\n  mthp: {16K: always, 16kB: never}\n" MIN_WL, 3, 23,
		 "duplicate mTHP size '16kB' (same as line 3: 16kB)");
	load_bad("experiment: a\nenvironment:\n  mthp:\n    2M: always\n    2048K: never\n" MIN_WL,
		 5, 5, "duplicate mTHP size '2048K' (same as line 4: 2048kB)");
	load_bad("experiment: a\nenvironment:\n  mthp:\n    hugepages-64kB: always\n"
		 "    64K: never\n" MIN_WL, 5, 5, "duplicate mTHP size '64K'");
}

static void test_wrong_types(void **state)
{
	load_bad("- a\n- b\n", 1, 1, "an experiment file expects a mapping with keys experiment, "
		 "description, iterations");
	load_bad("just text\n", 1, 1, "an experiment file expects a mapping with keys experiment, "
		 "description, iterations, warmup, timeout, environment, monitors, counters, interference, workloads, "
		 "got a scalar");
	load_bad("experiment: {a: 1}\n" MIN_WL, 1, 13, "'experiment' expects a string, got a mapping");
	load_bad("experiment:\n" MIN_WL, 1, 12, "'experiment' needs a value: a string");
	load_bad("experiment: a\ndescription: [x]\n" MIN_WL, 2, 14,
		 "'description' expects a string, got a list");
	load_bad("experiment: a\niterations: [1, 2]\n" MIN_WL, 2, 13,
		 "'iterations' expects a whole number, got a list");
	load_bad("experiment: a\nwarmup: {x: 1}\n" MIN_WL, 2, 9,
		 "'warmup' expects a whole number, got a mapping");
	load_bad("experiment: a\ntimeout: [1s]\n" MIN_WL, 2, 10,
		 "'timeout' expects a duration like 600s or 30m, got a list");
	load_bad("experiment: a\nenvironment: never\n" MIN_WL, 2, 14,
		 "'environment' expects a mapping with keys thp, thp_defrag, mthp, governor, "
		 "pin_cpu, drop_caches, swap, got a scalar");
	load_bad("experiment: a\nenvironment:\n  thp: [never]\n" MIN_WL, 3, 8,
		 "'thp' expects one of always, madvise, never, got a list");
	load_bad("experiment: a\nenvironment:\n  thp:\n" MIN_WL, 3, 7,
		 "'thp' expects one of always, madvise, never, got no value");
	load_bad("experiment: a\nenvironment:\n  mthp: always\n" MIN_WL, 3, 9,
		 "'mthp' expects a mapping, got a scalar");
	load_bad("experiment: a\nenvironment:\n  swap: 1G\n" MIN_WL, 3, 9,
		 "'swap' expects a mapping with keys zram, comp, got a scalar");
	load_bad("experiment: a\nenvironment:\n  governor: [performance]\n" MIN_WL, 3, 13,
		 "'governor' expects a string, got a list");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: [0]\n" MIN_WL, 3, 12,
		 "'pin_cpu' expects a CPU list like 0-3,8 or none, got a list");
	load_bad("experiment: a\nenvironment:\n  drop_caches: {}\n" MIN_WL, 3, 16,
		 "'drop_caches' expects true or false, got a mapping");
	load_bad("experiment: a\nmonitors: {vmstat: 1}\n" MIN_WL, 2, 11,
		 "'monitors' expects a list like [vmstat, meminfo] or none, got a mapping");
	load_bad("experiment: a\nmonitors: [[vmstat]]\n" MIN_WL, 2, 12,
		 "'monitors' expects a list of monitor names (vmstat, meminfo), got a list");
	load_bad("experiment: a\nworkloads: pft\n", 2, 12,
		 "'workloads' expects a list of workloads (- name: WORKLOAD), got a scalar");
	load_bad("experiment: a\nworkloads: {name: pft}\n", 2, 12,
		 "'workloads' expects a list of workloads (- name: WORKLOAD), got a mapping");
	load_bad("experiment: a\nworkloads:\n  - pft\n", 3, 5,
		 "a workload entry expects a mapping with keys name, iterations, warmup, timeout, "
		 "params, got a scalar");
	load_bad("experiment: a\nworkloads:\n  - name: [pft]\n", 3, 11,
		 "'name' expects a string, got a list");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params: [size, 1G]\n", 4, 13,
		 "'params' expects a mapping, got a list");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      size: {a: 1}\n", 5, 13,
		 "param 'size' expects a value or a list of values, got a mapping");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      size:\n", 5, 12,
		 "param 'size' expects a value or a list of values, got no value");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      clients: [1, [2, 3]]\n",
		 5, 20, "param 'clients': list elements must be single values, got a list");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      clients: [1, ~]\n",
		 5, 20, "param 'clients': list elements must be single values, got no value");
}

static void test_out_of_range(void **state)
{
	char text[256];
	struct unit_ctx host;

	load_bad("experiment: a\niterations: 0\n" MIN_WL, 2, 13, "'iterations' must be >= 1, got 0");
	load_bad("experiment: a\niterations: -3\n" MIN_WL, 2, 13, "'iterations' must be >= 1, got -3");
	load_bad("experiment: a\niterations: 3000000000\n" MIN_WL, 2, 13,
		 "'iterations' is too large (at most 2147483647), got 3000000000");
	load_bad("experiment: a\niterations: many\n" MIN_WL, 2, 13,
		 "'iterations': 'many': unexpected 'many'; expected an integer like 42");
	load_bad("experiment: a\niterations: 2.5\n" MIN_WL, 2, 13, "not a whole number");
	load_bad("experiment: a\nwarmup: -1\n" MIN_WL, 2, 9, "'warmup' must be >= 0, got -1");
	load_bad("experiment: a\ntimeout: 0\n" MIN_WL, 2, 10, "'timeout' must be greater than 0, got '0'");
	load_bad("experiment: a\ntimeout: -5s\n" MIN_WL, 2, 10,
		 "'timeout': '-5s': negative durations are not allowed");
	load_bad("experiment: a\ntimeout: 5 parsecs\n" MIN_WL, 2, 10,
		 "'timeout': '5 parsecs': unknown unit 'parsecs'; expected a duration like 300s");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    iterations: 0\n", 4, 17,
		 "'iterations' must be >= 1, got 0");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    warmup: -2\n", 4, 13,
		 "'warmup' must be >= 0, got -2");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    timeout: 0ms\n", 4, 14,
		 "'timeout' must be greater than 0");

	/* pin_cpu: a list of CPUs 0..ncpus-1 of this machine, or none */
	unit_ctx_host(&host);
	snprintf(text, sizeof(text), "experiment: a\nenvironment:\n  pin_cpu: %d\n" MIN_WL,
		 host.ncpus);
	char want[128];
	snprintf(want, sizeof(want), "'pin_cpu': CPU %d is not on this machine (CPUs 0..%d)",
		 host.ncpus, host.ncpus - 1);
	load_bad(text, 3, 12, want);
	/* a range past the end names its last CPU; one wholly past names its first */
	snprintf(text, sizeof(text), "experiment: a\nenvironment:\n  pin_cpu: 0,0-%d\n" MIN_WL,
		 host.ncpus + 3);
	snprintf(want, sizeof(want), "'pin_cpu': CPU %d is not on this machine", host.ncpus + 3);
	load_bad(text, 3, 12, want);
	snprintf(text, sizeof(text), "experiment: a\nenvironment:\n  pin_cpu: %d-%d\n" MIN_WL,
		 host.ncpus + 1, host.ncpus + 5);
	snprintf(want, sizeof(want), "'pin_cpu': CPU %d is not on this machine", host.ncpus + 1);
	load_bad(text, 3, 12, want);
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 99999999999999999999\n" MIN_WL, 3, 12,
		 "'pin_cpu': CPU 2147483647 is not on this machine");
	snprintf(want, sizeof(want), "'pin_cpu' expects a CPU list like 0-3,8 (CPUs 0..%d) or none, "
		 "got 'ncpu'", host.ncpus - 1);
	load_bad("experiment: a\nenvironment:\n  pin_cpu: ncpu\n" MIN_WL, 3, 12, want);
	load_bad("experiment: a\nenvironment:\n  pin_cpu: -1\n" MIN_WL, 3, 12,
		 "or none, got '-1'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: first\n" MIN_WL, 3, 12,
		 "'pin_cpu' expects a CPU list like 0-3,8 (CPUs 0..");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 0-\n" MIN_WL, 3, 12, "got '0-'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 0,\n" MIN_WL, 3, 12, "got '0,'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 0,,0\n" MIN_WL, 3, 12, "got '0,,0'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 0-0-0\n" MIN_WL, 3, 12, "got '0-0-0'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 0x1\n" MIN_WL, 3, 12, "got '0x1'");
	load_bad("experiment: a\nenvironment:\n  pin_cpu: 1-0\n" MIN_WL, 3, 12,
		 "'pin_cpu': range 1-0 runs backwards; write 0-1");

	load_bad("experiment: a\nenvironment:\n  drop_caches: maybe\n" MIN_WL, 3, 16,
		 "'drop_caches': 'maybe': expected a boolean: true/false, yes/no, on/off or 1/0");
	load_bad("experiment: a\nenvironment:\n  swap: { zram: 0 }\n" MIN_WL, 3, 17,
		 "'zram' must be greater than 0, got '0'");
	load_bad("experiment: a\nenvironment:\n  swap: { zram: lots }\n" MIN_WL, 3, 17,
		 "'zram': 'lots': unexpected 'lots'; expected a size like 4096, 4K, 1G");
	load_bad("experiment: a\nenvironment:\n  swap: { zram: -1G }\n" MIN_WL, 3, 17,
		 "negative values are not allowed");
	load_bad("experiment: a\nenvironment:\n  swap: { comp: lz4 }\n" MIN_WL, 3, 9,
		 "'swap' needs 'zram: SIZE'");
	load_bad("experiment: a\nenvironment:\n  swap: { zram: 1G, comp: ../x }\n" MIN_WL, 3, 27,
		 "'comp' expects a compressor name like lz4 or zstd, got '../x'");
	load_bad("experiment: a\nenvironment:\n  governor: ../../x\n" MIN_WL, 3, 13,
		 "'governor' expects a cpufreq governor name");
}

static void test_bad_choices(void **state)
{
	load_bad("experiment: a\nenvironment:\n  thp: sometimes\n" MIN_WL, 3, 8,
		 "invalid thp value 'sometimes'; valid values: always, madvise, never");
	load_bad("experiment: a\nenvironment:\n  thp: inherit\n" MIN_WL, 3, 8,
		 "invalid thp value 'inherit'; valid values: always, madvise, never");
	load_bad("experiment: a\nenvironment:\n  thp_defrag: sometimes\n" MIN_WL, 3, 15,
		 "invalid thp_defrag value 'sometimes'; valid values: always, defer, "
		 "defer+madvise, madvise, never");
	load_bad("experiment: a\nenvironment:\n  mthp: {16K: sometimes}\n" MIN_WL, 3, 15,
		 "invalid mthp 16K value 'sometimes'; valid values: always, inherit, madvise, never");
	load_bad("experiment: a\nmonitors: [vmstat, slabinfo]\n" MIN_WL, 2, 20,
		 "unknown monitor 'slabinfo'; valid monitors: vmstat, meminfo");
	load_bad("experiment: a\nmonitors: top\n" MIN_WL, 2, 11, "unknown monitor 'top'");
}

static void test_mthp_sizes(void **state)
{
	static const struct { const char *key; int col; const char *part; } bad[] = {
		{ "12K", 10, "must be a power of two >= 8K" },
		{ "4K", 10, "must be a power of two >= 8K" },
		{ "3M", 10, "must be a power of two >= 8K" },
		{ "16", 10, "missing unit; expected a size like 16K, 64kB, 2M or hugepages-16kB" },
		{ "16X", 10, "unknown unit; expected a size like 16K" },
		{ "hugepages-", 10, "expected a size like 16K, 64kB, 2M or hugepages-16kB" },
		{ "hugepages-16", 10, "missing unit" },
		{ "sixteen", 10, "expected a size like 16K" },
		{ "99999999999999999999K", 10, "size too large" },
		{ "\"\"", 10, "bad mTHP size '': expected a size like 16K" },
	};
	char text[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "experiment: a\nenvironment:\n  mthp: {%s: always}\n" MIN_WL, bad[i].key);
		load_bad(text, 3, bad[i].col, bad[i].part);
	}
	/* the key is named in the message */
	load_bad("experiment: a\nenvironment:\n  mthp: {12K: always}\n" MIN_WL, 3, 10,
		 "bad mTHP size '12K':");

	struct experiment e;
	load_ok(&e, "experiment: a\nenvironment:\n  mthp: {8K: never, 1G: never, 16kib: never, "
		    "hugepages-2048kB: always}\n" MIN_WL);
	assert_int_equal(e.env.nmthp, 4);
	assert_int_equal(e.env.mthp[0].kb, 8);
	assert_int_equal(e.env.mthp[1].kb, 1 << 20);
	assert_int_equal(e.env.mthp[2].kb, 16);
	assert_int_equal(e.env.mthp[3].kb, 2048);
	experiment_release(&e);
}

static void test_missing_and_empty(void **state)
{
	load_bad("", 1, 1, "empty experiment file; expected a mapping with keys experiment, "
		 "description, iterations, warmup, timeout, environment, monitors, counters, interference, workloads");
	load_bad("# only a comment\n", 1, 1, "empty experiment file");
	load_bad("workloads:\n  - name: pft\n", 1, 1, "missing 'experiment: NAME'");
	load_bad("experiment: a\niterations: 3\n", 1, 1, "missing 'workloads:'");
	load_bad("experiment: a\nworkloads: []\n", 2, 12,
		 "'workloads' is empty; list at least one (- name: WORKLOAD)");
	load_bad("experiment: a\nworkloads:\n", 2, 11,
		 "'workloads' expects a list of workloads (- name: WORKLOAD), got no value");
	load_bad("experiment: a\nworkloads:\n  - params: {size: 1G}\n", 3, 5,
		 "workload entry without 'name'");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n  - iterations: 3\n", 4, 5,
		 "workload entry without 'name'");
	load_bad("experiment: a\nworkloads:\n  -\n", 3, 4,
		 "a workload entry expects a mapping with keys name, iterations, warmup, timeout, "
		 "params, got no value");
	load_bad("experiment: a\nworkloads:\n  - name:\n", 3, 10, "'name' needs a value: a string");
	load_bad("experiment: a\nworkloads:\n  - name: pft\n    params:\n      clients: []\n", 5, 16,
		 "param 'clients' has an empty list; give at least one value");
	load_bad("experiment: a\nmonitors:\n" MIN_WL, 2, 10,
		 "'monitors' expects a list like [vmstat, meminfo] or none, got no value");
	load_bad("experiment: \"a\\nb\"\n" MIN_WL, 1, 13, "'experiment' must be a one-line name");
}

/* Many errors in one file: only the first is reported, and nothing leaks. */
static void test_first_error_only(void **state)
{
	load_bad("experiment: a\niterations: 0\nwarmup: -1\nbogus: 1\n" MIN_WL, 2, 13,
		 "'iterations' must be >= 1");
	/* a failure deep inside a later workload after earlier ones were built */
	load_bad("experiment: a\nenvironment:\n  mthp: {16K: always}\n  governor: ondemand\n"
		 "  swap: {zram: 1G, comp: zstd}\n"
		 "workloads:\n  - name: pft\n    params: {size: [1G, 2G], mode: threads}\n"
		 "  - name: ebizzy\n    params: {x: [1, {y: 2}]}\n", 10, 21,
		 "list elements must be single values");
}

/* Reloading into a used struct frees the old contents (LSan checks). */
static void test_reload(void **state)
{
	struct experiment e;
	char *msg;
	int ret;

	load_ok(&e, "experiment: one\nenvironment: {thp: never}\n" MIN_WL);
	msg = load_capture(&e, "b.yaml", "experiment: two\n" MIN_WL, &ret);
	assert_int_equal(ret, 0);
	free(msg);
	assert_string_equal(e.name, "two");
	assert_null(e.env.thp_enabled);
	assert_string_equal(e.path, "b.yaml");
	experiment_release(&e);
}

/* Shape limits, checked on the events before libyaml builds anything. */
static void test_shape_limits(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct experiment e;

	(void)state;
	/* 100k nested '[': libyaml's scanner is quadratic in the depth (> 20 s) */
	strbuf_addstr(&sb, "experiment: x\nworkloads:\n  - name: pft\n    params:\n      size: ");
	for (int i = 0; i < 100000; i++)
		strbuf_addch(&sb, '[');
	load_bad(sb.buf, 5, 41, "nested more than 32 levels deep");
	strbuf_reset(&sb);
	/* block mappings count too */
	strbuf_addstr(&sb, "experiment: x\n");
	for (int i = 0; i < 40; i++)
		strbuf_addf(&sb, "%*sk%d:\n", i, "", i);
	load_bad(sb.buf, 34, 33, "nested more than 32 levels deep");
	strbuf_reset(&sb);
	/* 1.2M workload entries: refused at the 1001st, block and flow style */
	strbuf_addstr(&sb, "experiment: x\nworkloads:\n");
	for (int i = 0; i < 1200000; i++)
		strbuf_addstr(&sb, "  - name: pft\n");
	load_bad(sb.buf, 1003, 5, "more than 1000 workloads in one experiment");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "experiment: x\nworkloads: [pft");
	for (int i = 0; i < 1200000; i++)
		strbuf_addstr(&sb, ",pft");
	strbuf_addstr(&sb, "]\n");
	load_bad(sb.buf, 2, 4013, "more than 1000 workloads in one experiment");
	strbuf_reset(&sb);
	/* a parameter list of 10001 values */
	strbuf_addstr(&sb, "experiment: x\nworkloads:\n  - name: pft\n    params:\n      clients: [1");
	for (int i = 0; i < 10000; i++)
		strbuf_addstr(&sb, ",1");
	strbuf_addstr(&sb, "]\n");
	load_bad(sb.buf, 5, 20017, "a list of more than 10000 items");
	strbuf_reset(&sb);
	/* at the limits: 1000 workloads and 10000 values load */
	strbuf_addstr(&sb, "experiment: x\nworkloads:\n");
	for (int i = 0; i < 999; i++)
		strbuf_addstr(&sb, "  - name: pft\n");
	strbuf_addstr(&sb, "  - name: pft\n    params:\n      clients: [1");
	for (int i = 0; i < 9999; i++)
		strbuf_addstr(&sb, ",1");
	strbuf_addstr(&sb, "]\n");
	load_ok(&e, sb.buf);
	assert_int_equal(e.nworkloads, 1000);
	experiment_release(&e);
	strbuf_release(&sb);
}

/* pin_cpu lists: sets and their canonical text (what run_env records) */
static void test_cpu_list(void **state)
{
	struct unit_ctx host;
	struct experiment e;
	char text[256], want[64];

	unit_ctx_host(&host);
	load_ok(&e, "experiment: c\nenvironment:\n  pin_cpu: \" 0 , 0-0,0 \"\n" MIN_WL);
	assert_string_equal(e.env.pin_cpu, "0");
	assert_int_equal(CPU_COUNT(&e.env.pin_set), 1);
	assert_true(CPU_ISSET(0, &e.env.pin_set));
	experiment_release(&e);
	/* every CPU of the machine, written backwards and in pieces */
	snprintf(text, sizeof(text), "experiment: c\nenvironment:\n  pin_cpu: %d,0-%d\n" MIN_WL,
		 host.ncpus - 1, host.ncpus - 1);
	load_ok(&e, text);
	if (host.ncpus > 1)
		snprintf(want, sizeof(want), "0-%d", host.ncpus - 1);
	else
		snprintf(want, sizeof(want), "0");
	assert_string_equal(e.env.pin_cpu, want);
	assert_int_equal(CPU_COUNT(&e.env.pin_set), host.ncpus > CPU_SETSIZE ? CPU_SETSIZE : host.ncpus);
	experiment_release(&e);
	if (host.ncpus >= 4) {
		load_ok(&e, "experiment: c\nenvironment:\n  pin_cpu: 3,0-1\n" MIN_WL);
		assert_string_equal(e.env.pin_cpu, "0-1,3");
		assert_int_equal(CPU_COUNT(&e.env.pin_set), 3);
		assert_false(CPU_ISSET(2, &e.env.pin_set));
		experiment_release(&e);
	}
	/* a later none wins and clears the set */
	load_ok(&e, "experiment: c\nenvironment:\n  pin_cpu: none\n" MIN_WL);
	assert_null(e.env.pin_cpu);
	assert_int_equal(CPU_COUNT(&e.env.pin_set), 0);
	experiment_release(&e);
}

/* experiment_set_env() with stderr captured: its return and message */
static char *set_capture(struct experiment *e, const char *setting, int *ret)
{
	struct capture c;
	char *out;

	capture_begin(&c);
	assert_non_null(c.tmp);
	*ret = experiment_set_env(e, setting);
	out = capture_end(&c);
	assert_non_null(out);
	return out;
}

static void set_ok(struct experiment *e, const char *setting)
{
	int ret;
	char *msg = set_capture(e, setting, &ret);

	if (ret || *msg) {
		fprintf(stderr, "%s", msg);
		free(msg);
		fail_msg("--set %s rejected", setting);
	}
	free(msg);
}

/* exactly one line "error: --set SETTING: ..." containing part; e unchanged */
static void set_bad(const char *setting, const char *part)
{
	static const char yaml[] = "experiment: s\nenvironment:\n  thp: madvise\n" MIN_WL;
	struct experiment e;
	char prefix[256];
	char *msg;
	int ret;

	load_ok(&e, yaml);
	msg = set_capture(&e, setting, &ret);
	snprintf(prefix, sizeof(prefix), "error: --set %s: ", setting);
	if (ret != -1 || strncmp(msg, prefix, strlen(prefix)) || !strstr(msg, part) ||
	    !strchr(msg, '\n') || strchr(msg, '\n')[1]) {
		print_error("want: %s...%s\ngot (ret %d): %s\n", prefix, part, ret, msg);
		free(msg);
		experiment_release(&e);
		fail();
	}
	free(msg);
	assert_string_equal(e.text, yaml);	/* a rejected --set is not recorded */
	assert_string_equal(e.env.thp_enabled, "madvise");
	experiment_release(&e);
}

static void test_set_env(void **state)
{
	struct unit_ctx host;
	struct experiment e;
	char want[256], setting[64];

	unit_ctx_host(&host);
	load_ok(&e, "experiment: s\nenvironment:\n  thp: always\n  mthp: { 64kB: never, 16K: always }\n"
		"  pin_cpu: none\n  drop_caches: true\n  swap: { zram: 1G }\n" MIN_WL);
	set_ok(&e, "thp=never");
	set_ok(&e, "thp_defrag=defer+madvise");
	set_ok(&e, "mthp.64K=always");		/* the file's 64kB, spelt another way */
	set_ok(&e, "mthp.hugepages-2048kB=madvise");	/* a size the file does not list */
	set_ok(&e, "governor=performance");
	set_ok(&e, "pin_cpu=0");
	set_ok(&e, "drop_caches=false");
	set_ok(&e, "swap.comp=lz4");
	set_ok(&e, "swap.zram=64M");
	assert_string_equal(e.env.thp_enabled, "never");
	assert_string_equal(e.env.thp_defrag, "defer+madvise");
	assert_int_equal(e.env.nmthp, 3);
	assert_int_equal(e.env.mthp[0].kb, 16);
	assert_string_equal(e.env.mthp[0].value, "always");
	assert_int_equal(e.env.mthp[1].kb, 64);
	assert_string_equal(e.env.mthp[1].value, "always");
	assert_int_equal(e.env.mthp[2].kb, 2048);
	assert_string_equal(e.env.mthp[2].value, "madvise");
	assert_string_equal(e.env.governor, "performance");
	assert_string_equal(e.env.pin_cpu, "0");
	assert_true(CPU_ISSET(0, &e.env.pin_set));
	assert_false(e.env.drop_caches);
	assert_int_equal(e.env.zram_bytes, 64LL << 20);
	assert_string_equal(e.env.zram_comp, "lz4");
	/* the recorded text is the file plus one comment per --set, in order */
	assert_non_null(strstr(e.text, "  swap: { zram: 1G }\n" MIN_WL "# --set thp=never\n"
			       "# --set thp_defrag=defer+madvise\n"));
	assert_non_null(strstr(e.text, "# --set swap.comp=lz4\n# --set swap.zram=64M\n"));
	set_ok(&e, "pin_cpu=none");
	assert_null(e.env.pin_cpu);
	experiment_release(&e);

	/* a file without a final newline still gets its comments on lines of their own */
	load_ok(&e, "experiment: s\n" MIN_WL "    params: {size: 1G}");
	set_ok(&e, "thp=never");
	set_ok(&e, "mthp.64kB=always");
	assert_string_equal(e.text, "experiment: s\n" MIN_WL "    params: {size: 1G}\n"
			    "# --set thp=never\n# --set mthp.64kB=always\n");
	assert_int_equal(e.env.nmthp, 1);
	/* the value is text, never YAML: a flow mapping is not a mapping */
	set_ok(&e, "governor={x}");
	assert_string_equal(e.env.governor, "{x}");
	experiment_release(&e);

	set_bad("thp=sometimes", "invalid thp value 'sometimes'; valid values: always, madvise, never");
	set_bad("thp=", "'thp' expects one of always, madvise, never, got no value");
	set_bad("thp", "expected KEY=VALUE, e.g. --set thp=never");
	set_bad("=never", "expected KEY=VALUE");
	set_bad("nosuch=1", "unknown environment key 'nosuch'; valid keys: thp, thp_defrag, "
		"mthp.SIZE, governor, pin_cpu, drop_caches, swap.zram, swap.comp");
	set_bad("thp.x=never", "unknown environment key 'thp.x'");
	set_bad("mthp.=always", "unknown environment key 'mthp.'");
	set_bad("mthp=always", "'mthp' is a mapping; set one of its keys, e.g. --set mthp.64K=always");
	set_bad("swap=1G", "'swap' is a mapping; set one of its keys, e.g. --set swap.zram=1G");
	set_bad("mthp.63K=always", "bad mTHP size '63K': an mTHP size must be a power of two");
	set_bad("mthp.64K=sometimes", "invalid mthp 64K value 'sometimes'; valid values: always, "
		"inherit, madvise, never");
	set_bad("swap.size=1G", "unknown key 'size' in swap; valid keys: zram, comp");
	set_bad("swap.comp=lz4", "'swap' needs a size: add --set swap.zram=SIZE (e.g. 1G)");
	set_bad("swap.zram=lots", "'zram': 'lots': unexpected 'lots'");
	set_bad("swap.comp=../x", "'comp' expects a compressor name like lz4 or zstd, got '../x'");
	set_bad("drop_caches=maybe", "'drop_caches': 'maybe': expected a boolean");
	set_bad("governor=a/b", "'governor' expects a cpufreq governor name");
	set_bad("pin_cpu=1-0", "'pin_cpu': range 1-0 runs backwards; write 0-1");
	set_bad("pin_cpu=0-x", "'pin_cpu' expects a CPU list like 0-3,8 (CPUs 0..");
	snprintf(setting, sizeof(setting), "pin_cpu=%d", host.ncpus);
	snprintf(want, sizeof(want), "'pin_cpu': CPU %d is not on this machine (CPUs 0..%d)",
		 host.ncpus, host.ncpus - 1);
	set_bad(setting, want);

	/* one line only: a newline would forge a line in the recorded text */
	{
		int ret;
		char *msg;

		load_ok(&e, "experiment: s\n" MIN_WL);
		msg = set_capture(&e, "governor=a\nthp: never", &ret);
		assert_int_equal(ret, -1);
		assert_string_equal(msg, "error: --set: KEY=VALUE must be one line\n");
		free(msg);
		assert_null(e.env.governor);
		experiment_release(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_monitor_forms),
		cmocka_unit_test(test_expansion_shape),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_yaml_syntax_errors),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_choices),
		cmocka_unit_test(test_mthp_sizes),
		cmocka_unit_test(test_missing_and_empty),
		cmocka_unit_test(test_first_error_only),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_shape_limits),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_set_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
