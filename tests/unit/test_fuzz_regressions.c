/*
 * Replays every input under tests/fuzz/regressions/<target>/ (crashes the
 * fuzzers found, kept forever) and the seed corpora tests/fuzz/corpus/<target>/
 * through the same entry points the libFuzzer targets use: the fuzzer
 * sources are included here with their entry points renamed.  Each input
 * runs in a forked child (ASan/UBSan abort it on a bug) with stderr kept
 * in a file, printed only when the child does not exit cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LLVMFuzzerTestOneInput fuzz_config_one
#include "../fuzz/fuzz_config.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_units_one
#include "../fuzz/fuzz_units.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_lkpreport_one
#include "../fuzz/fuzz_lkpreport.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_import_one
#define LLVMFuzzerInitialize fuzz_import_init
#include "../fuzz/fuzz_import.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize
#define LLVMFuzzerTestOneInput fuzz_plugin_one
#include "../fuzz/fuzz_plugin.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_mergedb_one
#define LLVMFuzzerInitialize fuzz_mergedb_init
#include "../fuzz/fuzz_mergedb.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize

typedef int (*fuzz_fn)(const uint8_t *, size_t);

static char fuzz_dir[4096];

/* tests/fuzz, from the repo root (make check) or next to this source. */
static const char *find_fuzz_dir(void)
{
	struct stat st;
	const char *file = __FILE__, *slash = strrchr(file, '/');

	if (stat("tests/fuzz/corpus", &st) == 0)
		return "tests/fuzz";
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%.*s/../fuzz",
		 slash ? (int)(slash - file) : 1, slash ? file : ".");
	return fuzz_dir;
}

static int read_all(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t alloc = 4096, n = 0, r;

	if (!f)
		return -1;
	*data = malloc(alloc);
	while ((r = fread(*data + n, 1, alloc - n, f)) > 0) {
		n += r;
		if (n == alloc)
			*data = realloc(*data, alloc *= 2);
	}
	fclose(f);
	*len = n;
	return 0;
}

/* Run one input in a child; returns 0 when it came back cleanly. */
static int replay_one(fuzz_fn fn, const char *path)
{
	char log[] = "/tmp/mmb-fuzz-replay-XXXXXX";
	int fd = mkstemp(log), status;
	uint8_t *data;
	size_t len;
	pid_t pid;

	if (fd < 0 || read_all(path, &data, &len)) {
		print_error("cannot read %s\n", path);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		fn(data, len);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	free(data);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(fd);
		unlink(log);
		return 0;
	}
	/* show what the sanitizer said */
	char buf[4096];
	ssize_t r;

	print_error("%s: the input %s\n", path,
		    WIFSIGNALED(status) ? "crashed the parser" : "made the parser exit");
	lseek(fd, 0, SEEK_SET);
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)r, stderr);
	close(fd);
	unlink(log);
	return -1;
}

/* Every file in <fuzz>/<kind>/<target>/; returns how many ran, fails on a crash. */
static size_t replay_dir(fuzz_fn fn, const char *kind, const char *target)
{
	char dir[4096 + 64];
	struct dirent **ents;
	size_t ran = 0;
	int n, bad = 0;

	snprintf(dir, sizeof(dir), "%s/%s/%s", find_fuzz_dir(), kind, target);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		char path[sizeof(dir) + 256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_one(fn, path))
				bad++;
			ran++;
		}
		free(ents[i]);
	}
	free(ents);
	if (bad)
		fail_msg("%d of %zu inputs in %s failed", bad, ran, dir);
	return ran;
}

static void replay(fuzz_fn fn, const char *target)
{
	size_t seeds = replay_dir(fn, "corpus", target);
	size_t regs = replay_dir(fn, "regressions", target);

	/* the seed corpus must exist: an empty replay would assert nothing */
	assert_true(seeds > 0);
	print_message("%s: %zu seeds, %zu regression inputs replayed\n", target, seeds, regs);
}

static void test_config(void **state) { (void)state; replay(fuzz_config_one, "config"); }
static void test_units(void **state) { (void)state; replay(fuzz_units_one, "units"); }
static void test_lkpreport(void **state) { (void)state; replay(fuzz_lkpreport_one, "lkpreport"); }
static void test_plugin(void **state) { (void)state; replay(fuzz_plugin_one, "plugin"); }
static void test_import(void **state)
{
	(void)state;
	fuzz_import_init(NULL, NULL);
	replay(fuzz_import_one, "import");
	db_close(&fdb);
}

static void test_mergedb(void **state)
{
	(void)state;
	fuzz_mergedb_init(NULL, NULL);
	replay(fuzz_mergedb_one, "mergedb");
	db_close(&mdb);
}

/* The entry points themselves reject and accept: a known-good and a known-bad input. */
static void test_entry_points_decide(void **state)
{
	struct experiment e;
	const char *good = "experiment: x\nworkloads:\n  - name: pft\n";

	(void)state;
	experiment_init(&e);
	assert_int_equal(experiment_load_string(&e, "t.yaml", good), 0);
	assert_int_equal(experiment_load_string(&e, "t.yaml", "experiment: [\n"), -1);
	experiment_release(&e);
}

/* fuzz_plugin found (int64_t)1e308 in plan_parse_value (UB); now clamped */
static void test_double_param_beyond_int64(void **state)
{
	struct mmb_param_def d = { .name = "x", .type = MMB_PARAM_DOUBLE };
	struct unit_ctx u = { .ncpus = 4, .mem_total = 1ULL << 33, .page_size = 4096 };
	struct mmb_value v;
	char err[256];

	(void)state;
	assert_int_equal(plan_parse_value(&d, "1e308", &u, &v, err, sizeof(err)), 0);
	assert_true(v.d == 1e308);
	assert_true(v.i == INT64_MAX);
	assert_int_equal(plan_parse_value(&d, "-1e300", &u, &v, err, sizeof(err)), 0);
	assert_true(v.i == INT64_MIN);
	assert_int_equal(plan_parse_value(&d, "-2.5", &u, &v, err, sizeof(err)), 0);
	assert_true(v.i == -2 && v.d == -2.5);
	assert_int_equal(plan_parse_value(&d, "inf", &u, &v, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_lkpreport),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_mergedb),
		cmocka_unit_test(test_plugin),
		cmocka_unit_test(test_entry_points_decide),
		cmocka_unit_test(test_double_param_beyond_int64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
