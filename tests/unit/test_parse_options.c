/* parse_options(): the one option parser of every command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "parse-options.h"
#include "util.h"

struct vals {
	const char *db, *name;
	int jobs, level, runs;
	double scale;
	bool quick, verbose;
	const char **patches;
	size_t npatches;
	const char *cb_arg;
	int cb_calls;
};

static int cb_upper(const struct option *opt, const char *arg)
{
	struct vals *v = opt->value;

	if (arg && strcmp(arg, "ok"))
		return error("--mode '%s': expected ok", arg);
	v->cb_arg = arg;
	v->cb_calls++;
	return 0;
}

static struct vals v;

static const struct option opts[] = {
	OPT_STRING(0, "db", &v.db, "FILE", "results database"),
	OPT_STRING('n', "name", &v.name, "LABEL", "label"),
	OPT_INT_RANGE('j', "jobs", &v.jobs, 1, 4096, "N", "parallel jobs"),
	OPT_INT(0, "level", &v.level, "L", "any int"),
	OPT_DOUBLE(0, "scale", &v.scale, "X", "a factor"),
	OPT_BOOL(0, "quick", &v.quick, "smoke test"),
	OPT_BOOL('v', "verbose", &v.verbose, "more"),
	OPT_LIST(0, "patch", &v.patches, &v.npatches, "P", "a patch (repeatable)"),
	OPT_CALLBACK(0, "mode", &v, "M", "checked by a callback", cb_upper),
	{ .type = OPTION_INT, .long_name = "runs", .value = &v.runs, .argh = "N", .min = 1,
	  .max = 9, .what = "a positive digit" },
	{ .type = OPTION_BOOL, .long_name = "secret", .value = &v.verbose,
	  .flags = PARSE_OPT_HIDDEN },
	OPT_END(),
};

/* parse the NULL-terminated words (argv[0] "cmd" is added); the result, stderr in *err */
static int parse(char **err, const char *const *words, char ***out)
{
	static char *argv[32];
	struct capture c;
	int argc = 1, n;

	free(v.patches);
	memset(&v, 0, sizeof(v));
	argv[0] = "cmd";
	for (; words[argc - 1]; argc++)
		argv[argc] = (char *)words[argc - 1];
	argv[argc] = NULL;
	capture_begin(&c);
	n = parse_options(argc, argv, opts, "cmd", "ARG...", 0);
	*err = capture_end(&c);
	if (out)
		*out = argv;
	return n;
}

#define P(err, out, ...) parse(err, (const char *const[]){ __VA_ARGS__, NULL }, out)

static void test_values(void **state)
{
	char *err, **rest;

	(void)state;
	/* --opt=value and --opt value */
	assert_int_equal(P(&err, &rest, "--db=a.db", "x", "--name", "L", "y"), 2);
	assert_string_equal(v.db, "a.db");
	assert_string_equal(v.name, "L");
	assert_string_equal(rest[0], "x");
	assert_string_equal(rest[1], "y");
	assert_null(rest[2]);
	assert_string_equal(err, "");
	free(err);
	/* short: -n L, -nL, -j4; flags bundle */
	assert_int_equal(P(&err, NULL, "-nL", "-j4", "-v", "--quick"), 0);
	assert_string_equal(v.name, "L");
	assert_int_equal(v.jobs, 4);
	assert_true(v.verbose);
	assert_true(v.quick);
	free(err);
	assert_int_equal(P(&err, NULL, "-vj", "7"), 0);
	assert_true(v.verbose);
	assert_int_equal(v.jobs, 7);
	free(err);
	/* a value may start with '-' when joined; "-" and negative numbers are values */
	assert_int_equal(P(&err, NULL, "--db=-q", "--name", "-", "--level", "-3", "--scale",
			   "-0.5e3"), 0);
	assert_string_equal(v.db, "-q");
	assert_string_equal(v.name, "-");
	assert_int_equal(v.level, -3);
	assert_true(v.scale == -500.0);
	free(err);
	/* an empty joined value is a value */
	assert_int_equal(P(&err, NULL, "--db="), 0);
	assert_string_equal(v.db, "");
	free(err);
}

static void test_missing_value(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(P(&err, NULL, "x", "--db"), -1);
	assert_string_equal(err, "error: option --db needs a value\n");
	free(err);
	assert_int_equal(P(&err, NULL, "--db", "-q", "x"), -1);
	assert_non_null(strstr(err, "option --db needs a value ('-q' is an option; write --db=-q"
				    " if it is the value)"));
	assert_null(v.db);
	free(err);
	assert_int_equal(P(&err, NULL, "--db", "--quick"), -1);
	assert_non_null(strstr(err, "option --db needs a value ('--quick' is an option"));
	assert_false(v.quick);
	free(err);
	assert_int_equal(P(&err, NULL, "-j"), -1);
	assert_string_equal(err, "error: option -j needs a value\n");
	free(err);
	assert_int_equal(P(&err, NULL, "-n", "-v"), -1);
	assert_non_null(strstr(err, "write --name=-v if it is the value"));
	free(err);
	/* a flag takes no value */
	assert_int_equal(P(&err, NULL, "--quick=yes"), -1);
	assert_string_equal(err, "error: option --quick takes no value\n");
	free(err);
}

static void test_unknown(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(P(&err, NULL, "x", "--bogus", "y"), -1);
	/* one error naming it, then the usage made from the table */
	assert_true(starts_with(err, "error: unknown option '--bogus'\nusage: mmbench cmd [--db FILE]"
				     " [-n|--name LABEL] [-j|--jobs N]"));
	assert_non_null(strstr(err, "[--patch P]..."));
	assert_non_null(strstr(err, " ARG...\nsee `mmbench help cmd`\n"));
	free(err);
	/* no abbreviations: --qui is not --quick, though it is named as the near one */
	assert_int_equal(P(&err, NULL, "--qui"), -1);
	assert_true(starts_with(err, "error: unknown option '--qui'; did you mean '--quick'?\n"));
	free(err);
	assert_int_equal(P(&err, NULL, "-vx"), -1);
	assert_true(starts_with(err, "error: unknown option '-x'\n"));
	free(err);
	/* a number that is not a value of anything is an unknown option too */
	assert_int_equal(P(&err, NULL, "-5"), -1);
	assert_true(starts_with(err, "error: unknown option '-5'\n"));
	free(err);
}

static void test_dashdash(void **state)
{
	char *err, **rest;

	(void)state;
	assert_int_equal(P(&err, &rest, "--quick", "--", "--db", "-v", "--"), 3);
	assert_true(v.quick);
	assert_null(v.db);
	assert_false(v.verbose);
	assert_string_equal(rest[0], "--db");
	assert_string_equal(rest[1], "-v");
	assert_string_equal(rest[2], "--");
	free(err);
	/* "-" alone is an operand (stdin) */
	assert_int_equal(P(&err, &rest, "-", "--quick"), 1);
	assert_string_equal(rest[0], "-");
	free(err);
}

static void test_lists(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(P(&err, NULL, "--patch", "a", "--patch=b", "x", "--patch", "c"), 1);
	assert_int_equal(v.npatches, 3);
	assert_string_equal(v.patches[0], "a");
	assert_string_equal(v.patches[1], "b");
	assert_string_equal(v.patches[2], "c");
	free(err);
	free(v.patches);
	v.patches = NULL;
}

static void test_numbers(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(P(&err, NULL, "--jobs", "0"), -1);
	assert_string_equal(err, "error: --jobs '0': expected a number 1..4096\n");
	free(err);
	assert_int_equal(P(&err, NULL, "-j", "4097"), -1);
	assert_string_equal(err, "error: -j '4097': expected a number 1..4096\n");
	free(err);
	assert_int_equal(P(&err, NULL, "--jobs=4x"), -1);
	assert_string_equal(err, "error: --jobs '4x': expected a number 1..4096\n");
	free(err);
	assert_int_equal(P(&err, NULL, "--jobs="), -1);
	free(err);
	/* beyond int: refused, not wrapped */
	assert_int_equal(P(&err, NULL, "--level", "99999999999"), -1);
	assert_string_equal(err, "error: --level '99999999999': expected a number\n");
	free(err);
	assert_int_equal(P(&err, NULL, "--level=-2147483648"), 0);
	assert_int_equal(v.level, INT_MIN);
	free(err);
	assert_int_equal(P(&err, NULL, "--scale", "inf"), -1);
	assert_string_equal(err, "error: --scale 'inf': expected a number\n");
	free(err);
	assert_int_equal(P(&err, NULL, "--scale", "1e999"), -1);
	free(err);
	/* what: the command's own words for the range */
	assert_int_equal(P(&err, NULL, "--runs", "-3"), -1);
	assert_string_equal(err, "error: --runs wants a positive digit, not '-3'\n");
	free(err);
}

static void test_hidden(void **state)
{
	char *err;

	(void)state;
	/* taken, but not in the usage */
	assert_int_equal(P(&err, NULL, "--secret"), 0);
	assert_true(v.verbose);
	free(err);
	assert_int_equal(P(&err, NULL, "--nope"), -1);
	assert_null(strstr(err, "secret"));
	assert_non_null(strstr(err, "[--runs N]"));
	free(err);
}

static void test_callback(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(P(&err, NULL, "--mode", "ok", "--mode=ok"), 0);
	assert_int_equal(v.cb_calls, 2);
	assert_string_equal(v.cb_arg, "ok");
	free(err);
	assert_int_equal(P(&err, NULL, "--mode", "bad"), -1);
	assert_string_equal(err, "error: --mode 'bad': expected ok\n");
	free(err);
}

static void test_stop_at_non_option(void **state)
{
	static const struct option none[] = { OPT_BOOL('q', "quiet", &v.quick, "q"), OPT_END() };
	char *argv[] = { "mmbench", "-q", "kernel", "build", "--bogus", NULL };

	(void)state;
	v.quick = false;
	assert_int_equal(parse_options(5, argv, none, "", "COMMAND", PARSE_OPT_STOP_AT_NON_OPTION), 3);
	assert_true(v.quick);
	assert_string_equal(argv[0], "kernel");
	assert_string_equal(argv[2], "--bogus");
	assert_null(argv[3]);
}

static void test_looks_like_option(void **state)
{
	(void)state;
	assert_true(looks_like_option("-q"));
	assert_true(looks_like_option("--db"));
	assert_false(looks_like_option("-"));
	assert_false(looks_like_option("-1"));
	assert_false(looks_like_option("-0.5e3"));
	assert_false(looks_like_option("x-y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_dashdash),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_callback),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_stop_at_non_option),
		cmocka_unit_test(test_looks_like_option),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	free(v.patches);
	return ret;
}
