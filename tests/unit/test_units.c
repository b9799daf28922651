/* Units: ints, sizes, durations, bools, doubles, list generators, formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "units.h"

#define GiB (1024LL * 1024 * 1024)

static const struct unit_ctx ctx16 = { .ncpus = 16, .mem_total = 16 * GiB, .page_size = 4096 };

static char err[256];

static int64_t int_ok(const char *s, const struct unit_ctx *ctx)
{
	int64_t v = -12345;

	err[0] = '\0';
	if (units_parse_int(s, ctx, &v, err, sizeof(err)))
		fail_msg("units_parse_int('%s') failed: %s", s, err);
	return v;
}

static int64_t size_ok(const char *s)
{
	int64_t v = -12345;

	err[0] = '\0';
	if (units_parse_size(s, &ctx16, &v, err, sizeof(err)))
		fail_msg("units_parse_size('%s') failed: %s", s, err);
	return v;
}

static int64_t dur_ok(const char *s)
{
	int64_t v = -12345;

	err[0] = '\0';
	if (units_parse_duration(s, &v, err, sizeof(err)))
		fail_msg("units_parse_duration('%s') failed: %s", s, err);
	return v;
}

/* Must fail with a one-line reason containing `part`. */
static void check_err(int ret, const char *s, const char *part)
{
	if (ret != -1)
		fail_msg("'%s' was accepted", s);
	if (!strstr(err, part))
		fail_msg("'%s': error '%s' lacks '%s'", s, err, part);
	assert_null(strchr(err, '\n'));
}

static void int_bad(const char *s, const char *part)
{
	int64_t v;

	err[0] = '\0';
	check_err(units_parse_int(s, &ctx16, &v, err, sizeof(err)), s, part);
}

static void size_bad(const char *s, const char *part)
{
	int64_t v;

	err[0] = '\0';
	check_err(units_parse_size(s, &ctx16, &v, err, sizeof(err)), s, part);
}

static void dur_bad(const char *s, const char *part)
{
	int64_t v;

	err[0] = '\0';
	check_err(units_parse_duration(s, &v, err, sizeof(err)), s, part);
}

static void test_int_forms(void **state)
{
	const struct unit_ctx ctx3 = { .ncpus = 3, .mem_total = GiB, .page_size = 4096 };

	assert_int_equal(int_ok("42", &ctx16), 42);
	assert_int_equal(int_ok("0", &ctx16), 0);
	assert_int_equal(int_ok("-5", &ctx16), -5);
	assert_int_equal(int_ok(" 7 ", &ctx16), 7);
	assert_int_equal(int_ok("ncpu", &ctx16), 16);
	assert_int_equal(int_ok("2*ncpu", &ctx16), 32);
	assert_int_equal(int_ok("ncpu*2", &ctx16), 32);
	assert_int_equal(int_ok("ncpu/2", &ctx16), 8);
	assert_int_equal(int_ok("2 * ncpu", &ctx16), 32);
	assert_int_equal(int_ok("4*ncpu/2", &ctx16), 32);
	/* lkp: 200% of the CPUs, 100x is a plain count */
	assert_int_equal(int_ok("200%", &ctx16), 32);
	assert_int_equal(int_ok("50%", &ctx16), 8);
	assert_int_equal(int_ok("100%", &ctx3), 3);
	assert_int_equal(int_ok("50%", &ctx3), 1);	/* rounded down */
	assert_int_equal(int_ok("10%", &ctx3), 1);	/* but at least one CPU */
	assert_int_equal(int_ok("0%", &ctx3), 0);
	assert_int_equal(int_ok("100x", &ctx16), 100);
	assert_int_equal(int_ok("ncpu", &ctx3), 3);
	assert_int_equal(int_ok("9223372036854775807", &ctx16), INT64_MAX);
	assert_int_equal(int_ok("-9223372036854775808", &ctx16), INT64_MIN);
}

static void test_int_errors(void **state)
{
	int_bad("", "missing value");
	int_bad("abc", "expected an integer like 42, ncpu, 2*ncpu");
	int_bad("4K", "unexpected 'K'");
	int_bad("12abc", "unexpected 'abc'");
	int_bad("1.5", "not a whole number");
	int_bad("ncpus", "unexpected 'ncpus'");
	int_bad("2*", "missing value");
	int_bad("2**3", "unexpected '*3'");
	int_bad("ncpu/0", "division by zero");
	int_bad("9223372036854775808", "too large");
	int_bad("-9223372036854775809", "too large");
	int_bad("4294967296*4294967296", "too large");
	int_bad("-5x", "unexpected 'x'");
	int_bad("2+2", "unexpected '+2'");
	int_bad("2*-3", "negative values are not allowed");
	int_bad("0x10", "unexpected '10'");
	int_bad("10 20", "unexpected '20'");
	int64_t v;
	assert_int_equal(units_parse_int(NULL, &ctx16, &v, err, sizeof(err)), -1);
}

static void test_size_forms(void **state)
{
	assert_int_equal(size_ok("4096"), 4096);
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("4K"), 4096);
	assert_int_equal(size_ok("64k"), 65536);
	assert_int_equal(size_ok("4KB"), 4096);
	assert_int_equal(size_ok("4kB"), 4096);
	assert_int_equal(size_ok("4KiB"), 4096);
	assert_int_equal(size_ok("1M"), 1 << 20);
	assert_int_equal(size_ok("1G"), GiB);
	assert_int_equal(size_ok("1T"), 1024 * GiB);
	assert_int_equal(size_ok("1.5G"), 3 * GiB / 2);
	assert_int_equal(size_ok("0.5K"), 512);
	assert_int_equal(size_ok("100B"), 100);
	assert_int_equal(size_ok("3P"), 3 * 4096);
	assert_int_equal(size_ok("20%mem"), 16 * GiB / 5);
	assert_int_equal(size_ok("mem/5"), 16 * GiB / 5);
	assert_int_equal(size_ok("mem"), 16 * GiB);
	assert_int_equal(size_ok("2.5%mem"), 16 * GiB / 40);
	assert_int_equal(size_ok("64M*ncpu"), 16LL << 26);
	assert_int_equal(size_ok("2*1G"), 2 * GiB);
}

static void test_size_errors(void **state)
{
	const struct unit_ctx nomem = { .ncpus = 2, .mem_total = 0, .page_size = 4096 };
	int64_t v;

	size_bad("", "expected a size like 4096, 4K, 1G, 3P (pages), 20%mem");
	size_bad("-1", "negative values are not allowed");
	size_bad("-1G", "negative values are not allowed");
	size_bad("1Q", "unknown unit 'Q'");
	size_bad("1Gx", "unknown unit 'Gx'");
	size_bad("1 G", "unexpected 'G'");
	size_bad("1.5", "a fraction needs a unit");
	size_bad("20%", "a percentage must be of mem");
	size_bad("20%cpu", "a percentage must be of mem");
	size_bad("memory", "unexpected 'memory'");
	size_bad("mem/0", "division by zero");
	size_bad("8388608T", "too large");
	size_bad("1T*1T", "too large");
	size_bad("99999999999999999999", "too large");
	size_bad("1G,", "unexpected ','");
	size_bad("G", "unexpected 'G'");
	err[0] = '\0';
	check_err(units_parse_size("20%mem", &nomem, &v, err, sizeof(err)), "20%mem",
		  "total memory is unknown");
	err[0] = '\0';
	check_err(units_parse_size("mem/5", NULL, &v, err, sizeof(err)), "mem/5",
		  "total memory is unknown");
}

static void test_duration(void **state)
{
	assert_int_equal(dur_ok("300s"), 300000000000LL);
	assert_int_equal(dur_ok("300"), 300000000000LL);
	assert_int_equal(dur_ok("10ms"), 10000000LL);
	assert_int_equal(dur_ok("500us"), 500000LL);
	assert_int_equal(dur_ok("100ns"), 100);
	assert_int_equal(dur_ok("2m"), 120000000000LL);
	assert_int_equal(dur_ok("1h"), 3600000000000LL);
	assert_int_equal(dur_ok("1d"), 86400000000000LL);
	assert_int_equal(dur_ok("1.5s"), 1500000000LL);
	assert_int_equal(dur_ok("0.25"), 250000000LL);
	assert_int_equal(dur_ok("0"), 0);

	dur_bad("", "expected a duration like 300s");
	dur_bad("-1s", "negative durations are not allowed");
	dur_bad("10x", "unknown unit 'x'");
	dur_bad("10 minutes", "unknown unit 'minutes'");
	dur_bad("10s5", "unknown unit 's5'");
	dur_bad("10s 5", "unexpected '5'");
	dur_bad("s", "not a number");
	dur_bad("999999999999h", "too long");
	dur_bad("99999999999999999999s", "too large");
}

static void test_bool_double(void **state)
{
	static const char *const yes[] = { "true", "yes", "on", "1", "TRUE", "Yes" };
	static const char *const no[] = { "false", "no", "off", "0", "False", "OFF" };
	int64_t b;
	double d;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = -1;
		assert_int_equal(units_parse_bool(yes[i], &b, err, sizeof(err)), 0);
		assert_int_equal(b, 1);
		b = -1;
		assert_int_equal(units_parse_bool(no[i], &b, err, sizeof(err)), 0);
		assert_int_equal(b, 0);
	}
	check_err(units_parse_bool("maybe", &b, err, sizeof(err)), "maybe",
		  "expected a boolean: true/false, yes/no, on/off or 1/0");
	check_err(units_parse_bool("", &b, err, sizeof(err)), "", "expected a boolean");
	check_err(units_parse_bool("2", &b, err, sizeof(err)), "2", "expected a boolean");

	assert_int_equal(units_parse_double("0.5", &d, err, sizeof(err)), 0);
	assert_true(d == 0.5);
	assert_int_equal(units_parse_double("-3", &d, err, sizeof(err)), 0);
	assert_true(d == -3.0);
	assert_int_equal(units_parse_double("1e-3", &d, err, sizeof(err)), 0);
	assert_true(d == 1e-3);
	check_err(units_parse_double("abc", &d, err, sizeof(err)), "abc", "expected a number");
	check_err(units_parse_double("1.5x", &d, err, sizeof(err)), "1.5x", "unexpected 'x'");
	check_err(units_parse_double("", &d, err, sizeof(err)), "", "missing value");
	check_err(units_parse_double("1e999", &d, err, sizeof(err)), "1e999", "out of range");
	check_err(units_parse_double("nan", &d, err, sizeof(err)), "nan", "out of range");
	check_err(units_parse_double("inf", &d, err, sizeof(err)), "inf", "out of range");
	/* one reading of a written number: no hex floats, no silent 0 for an underflow */
	check_err(units_parse_double("0x1p3", &d, err, sizeof(err)), "0x1p3", "hex");
	check_err(units_parse_double("1e-400", &d, err, sizeof(err)), "1e-400", "would read as 0");
	assert_int_equal(units_parse_double(" 4.9e-324 ", &d, err, sizeof(err)), 0);
	assert_true(d > 0);
	assert_int_equal(units_parse_double("0e-999", &d, err, sizeof(err)), 0);
	assert_true(d == 0);
	assert_int_equal(units_parse_share("0x1p-1", &d), -1);
	assert_int_equal(units_parse_share("1e-400%", &d), -1);
	assert_int_equal(units_parse_share("50%", &d), 0);
	assert_true(d == 0.5);
}

/* Expand and compare with an expected list. */
static void list_is(const char *s, int ncpus, const int64_t *want, size_t nwant)
{
	struct unit_ctx ctx = { .ncpus = ncpus, .mem_total = GiB, .page_size = 4096 };
	int64_t *vals = NULL;
	size_t n = 0;

	err[0] = '\0';
	if (units_int_list(s, &ctx, &vals, &n, err, sizeof(err)))
		fail_msg("units_int_list('%s') failed: %s", s, err);
	if (n != nwant) {
		free(vals);
		fail_msg("'%s' with %d CPUs: %zu values, want %zu", s, ncpus, n, nwant);
	}
	for (size_t i = 0; i < n; i++)
		if (vals[i] != want[i]) {
			int64_t got = vals[i];

			free(vals);
			fail_msg("'%s' with %d CPUs: value %zu is %lld, want %lld", s, ncpus, i,
				 (long long)got, (long long)want[i]);
		}
	free(vals);
}

#define LIST_IS(s, ncpus, ...) do {						\
		static const int64_t w_[] = { __VA_ARGS__ };			\
		list_is(s, ncpus, w_, sizeof(w_) / sizeof(w_[0]));		\
	} while (0)

static void test_stride(void **state)
{
	/* the mmtests reference values */
	LIST_IS("stride:ncpu", 16, 1, 3, 5, 7, 12, 16);
	LIST_IS("stride:ncpu", 64, 1, 4, 7, 12, 21, 30, 48, 64);
	LIST_IS("stride:ncpu", 2, 1, 2);
	LIST_IS("stride:ncpu", 1, 1);
	LIST_IS("stride:7", 1, 1, 3, 5, 7);	/* end already produced: not repeated */
	LIST_IS("stride:8", 1, 1, 3, 5, 7, 8);
	LIST_IS("stride:9", 1, 1, 3, 5, 7, 9);
	LIST_IS("stride:32", 1, 1, 3, 5, 7, 12, 18, 24, 30, 32);
	LIST_IS("stride:33", 1, 1, 4, 7, 12, 21, 30, 33);
	LIST_IS("stride:128", 1, 1, 4, 7, 12, 21, 30, 48, 79, 110, 128);
	LIST_IS("stride:2*ncpu", 8, 1, 3, 5, 7, 12, 16);
}

static void test_pow2_range(void **state)
{
	LIST_IS("pow2:1..4*ncpu", 6, 1, 2, 4, 8, 16, 24);
	LIST_IS("pow2:1..16", 2, 1, 2, 4, 8, 16);
	LIST_IS("pow2:3..20", 2, 3, 6, 12, 20);
	LIST_IS("pow2:5..5", 2, 5);
	LIST_IS("range:1..4", 2, 1, 2, 3, 4);
	LIST_IS("range:1..10:4", 2, 1, 5, 9);
	LIST_IS("range:0..ncpu:2", 4, 0, 2, 4);
	LIST_IS("range:-2..1", 2, -2, -1, 0, 1);
	LIST_IS("range:3..3", 2, 3);
	LIST_IS("range:9223372036854775806..9223372036854775807", 2,
		9223372036854775806LL, INT64_MAX);
	LIST_IS("pow2:1..9223372036854775807", 2,
		1LL, 2LL, 4LL, 8LL, 16LL, 32LL, 64LL, 128LL, 256LL, 512LL, 1LL << 10,
		1LL << 11, 1LL << 12, 1LL << 13, 1LL << 14, 1LL << 15, 1LL << 16, 1LL << 17,
		1LL << 18, 1LL << 19, 1LL << 20, 1LL << 21, 1LL << 22, 1LL << 23, 1LL << 24,
		1LL << 25, 1LL << 26, 1LL << 27, 1LL << 28, 1LL << 29, 1LL << 30, 1LL << 31,
		1LL << 32, 1LL << 33, 1LL << 34, 1LL << 35, 1LL << 36, 1LL << 37, 1LL << 38,
		1LL << 39, 1LL << 40, 1LL << 41, 1LL << 42, 1LL << 43, 1LL << 44, 1LL << 45,
		1LL << 46, 1LL << 47, 1LL << 48, 1LL << 49, 1LL << 50, 1LL << 51, 1LL << 52,
		1LL << 53, 1LL << 54, 1LL << 55, 1LL << 56, 1LL << 57, 1LL << 58, 1LL << 59,
		1LL << 60, 1LL << 61, 1LL << 62, INT64_MAX);
}

static void list_bad(const char *s, const char *part)
{
	int64_t *vals = (int64_t *)&vals;	/* must be reset to NULL */
	size_t n = 99;

	err[0] = '\0';
	check_err(units_int_list(s, &ctx16, &vals, &n, err, sizeof(err)), s, part);
	assert_null(vals);
	assert_int_equal(n, 0);
}

static void test_list_errors_and_non_lists(void **state)
{
	int64_t *vals;
	size_t n;

	/* not generators: returns 1 and leaves parsing to units_parse_int */
	assert_int_equal(units_int_list("4", &ctx16, &vals, &n, err, sizeof(err)), 1);
	assert_int_equal(units_int_list("2*ncpu", &ctx16, &vals, &n, err, sizeof(err)), 1);
	assert_int_equal(units_int_list("200%", &ctx16, &vals, &n, err, sizeof(err)), 1);
	assert_int_equal(units_int_list("Stride 3", &ctx16, &vals, &n, err, sizeof(err)), 1);
	assert_int_equal(units_int_list(NULL, &ctx16, &vals, &n, err, sizeof(err)), 1);

	list_bad("strid:ncpu", "unknown list generator 'strid'; expected stride:E, pow2:A..B or range:A..B[:S]");
	list_bad("stride:", "bad end");
	list_bad("stride:0", "the end must be >= 1");
	list_bad("stride:-4", "the end must be >= 1");
	list_bad("stride:abc", "bad end");
	list_bad("stride:8x9", "bad end");
	list_bad("pow2:1", "missing '..'");
	list_bad("pow2:0..8", "pow2 start must be >= 1");
	list_bad("pow2:8..1", "start 8 is greater than end 1");
	list_bad("pow2:1..8:2", "pow2 takes no step");
	list_bad("pow2:x..8", "bad start");
	list_bad("pow2:1..y", "bad end");
	list_bad("range:1..10:0", "step must be >= 1");
	list_bad("range:1..10:-1", "step must be >= 1");
	list_bad("range:1..10:z", "bad step");
	list_bad("range:5..1", "start 5 is greater than end 1");
	list_bad("range:1..10000000", "more than 100000 values");
	list_bad("range:-9223372036854775807..9223372036854775807", "more than 100000 values");
	list_bad("range:1...5", "bad end");
}

static void test_format(void **state)
{
	char buf[32];

	units_format_size(GiB, buf, sizeof(buf));
	assert_string_equal(buf, "1.0G");
	units_format_size(512, buf, sizeof(buf));
	assert_string_equal(buf, "512B");
	units_format_size(1536, buf, sizeof(buf));
	assert_string_equal(buf, "1.5K");
	units_format_size(16 * GiB / 5, buf, sizeof(buf));
	assert_string_equal(buf, "3.2G");
	units_format_size(3LL << 40, buf, sizeof(buf));
	assert_string_equal(buf, "3.0T");
	/* P means pages when parsing, so formatting stops at T */
	units_format_size(INT64_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "8388608.0T");

	units_format_duration(300000000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "300s");
	units_format_duration(1500000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "1.5s");
	units_format_duration(10000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "10ms");
	units_format_duration(500000, buf, sizeof(buf));
	assert_string_equal(buf, "500us");
	units_format_duration(100, buf, sizeof(buf));
	assert_string_equal(buf, "100ns");
	units_format_duration(1234567, buf, sizeof(buf));
	assert_string_equal(buf, "1.235ms");

	/* round trip through the parsers */
	int64_t v;
	units_format_duration(2500000000LL, buf, sizeof(buf));
	assert_int_equal(units_parse_duration(buf, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 2500000000LL);
}

static void test_host_ctx(void **state)
{
	struct unit_ctx c;
	int64_t v;

	unit_ctx_host(&c);
	assert_true(c.ncpus >= 1);
	assert_true(c.mem_total > 0);
	assert_true(c.page_size >= 4096);
	assert_int_equal(units_parse_int("ncpu", &c, &v, err, sizeof(err)), 0);
	assert_int_equal(v, c.ncpus);
	assert_int_equal(units_parse_size("mem/5", &c, &v, err, sizeof(err)), 0);
	assert_int_equal(v, (int64_t)(c.mem_total / 5));
	assert_int_equal(units_parse_size("1P", &c, &v, err, sizeof(err)), 0);
	assert_int_equal(v, (int64_t)c.page_size);
}

static void test_size_exact_and_size_list(void **state)
{
	char buf[32];
	int64_t *v = NULL;
	size_t n = 0;

	(void)state;
	units_format_size_exact(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4K");
	units_format_size_exact(3 * GiB, buf, sizeof(buf));
	assert_string_equal(buf, "3G");
	units_format_size_exact(1536, buf, sizeof(buf));
	assert_string_equal(buf, "1536");
	units_format_size_exact(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	units_format_size_exact(2048LL * GiB, buf, sizeof(buf));
	assert_string_equal(buf, "2T");
	/* sizes as endpoints; an int list of the same text is refused */
	assert_int_equal(units_size_list("pow2:4K..16K", &ctx16, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 4096);
	assert_int_equal(v[2], 16384);
	free(v);
	assert_int_equal(units_size_list("range:1M..10%mem:1G", &ctx16, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(v);
	assert_int_equal(units_size_list("4K", &ctx16, &v, &n, err, sizeof(err)), 1);
	assert_int_equal(units_size_list("stride:8", &ctx16, &v, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "stride: makes client counts"));
	assert_int_equal(units_int_list("pow2:4K..16K", &ctx16, &v, &n, err, sizeof(err)), -1);
	assert_true(units_is_generator(" range:1..2"));
	assert_false(units_is_generator("4K"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_forms),
		cmocka_unit_test(test_int_errors),
		cmocka_unit_test(test_size_forms),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_bool_double),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_pow2_range),
		cmocka_unit_test(test_list_errors_and_non_lists),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_host_ctx),
		cmocka_unit_test(test_size_exact_and_size_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
