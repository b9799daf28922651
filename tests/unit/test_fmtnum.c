/*
 * fmt_g17() and fmt_int(): the bytes of printf's "%.17g" and "%d", checked
 * against snprintf; num_parse_decimal(): strtod's double, or a refusal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmtnum.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void same_g17(double v)
{
	char got[FMT_G17_MAX + 1], want[64];
	size_t n = fmt_g17(got, v);

	assert_true(n < sizeof(got));
	got[n] = '\0';
	snprintf(want, sizeof(want), "%.17g", v);
	if (strcmp(got, want))
		fail_msg("fmt_g17(%a) = '%s', snprintf gives '%s'", v, got, want);
}

static double from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

static void test_g17_edges(void **state)
{
	static const double v[] = {
		0.0, -0.0, 1, -1, 0.5, 0.1, 0.3, 2.5, 123.456, 1000, -1000.1234,
		1e16, 1e17, 99999999999999999.0, 9.9999999999999999e16, 1e15 + 0.5,
		1e-4, 1.2345e-4, 1e-5, 1e-6, 1e-7, 1e21, 1e22, 1e23, 1e38, 3.4e38, 1e39,
		1e100, 1e300, 1.7976931348623157e308, -1.7976931348623157e308,
		2.2250738585072014e-308, 5e-324, 9007199254740993.0, 4503599627370497.5,
		123456789012345678.0, INFINITY, -INFINITY, NAN,
		/* an 18th digit of exactly 5: ties go to the even 17th */
		1234567890123456.25, 1234567890123456.75, 1234567890123455.25,
	};
	char buf[FMT_G17_MAX];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		same_g17(v[i]);
	for (int k = -325; k <= 308; k++) {
		double p = pow(10, k);

		same_g17(p);
		same_g17(-nextafter(p, 0));
		same_g17(nextafter(p, INFINITY));
	}
	assert_int_equal(fmt_g17(buf, 1234567890123456.25), 18);
	assert_memory_equal(buf, "1234567890123456.2", 18);
	assert_int_equal(fmt_g17(buf, 1234567890123456.75), 18);
	assert_memory_equal(buf, "1234567890123456.8", 18);
}

/* every kind of value a sample can be, ~1M each way */
static void test_g17_random(void **state)
{
	for (int i = 0; i < 1600000; i++) {
		uint64_t r = next();
		double v;

		switch (i % 8) {
		case 0:	/* any bit pattern */
			v = from_bits(r);
			break;
		case 1:	/* integers */
			v = (double)(int64_t)(r % 2000000001) - 1e9;
			break;
		case 2:	/* few-bit fractions: many exact ties */
			v = ldexp((double)(r >> 11), -(int)(next() % 80));
			break;
		case 3:	/* what "%.4f" data reads back as */
			v = (double)(r % 100000000) / 10000.0;
			break;
		case 4:	/* huge and tiny, either sign */
			v = ldexp((double)(r >> 11), (int)(next() % 140) - 70) * (r & 1 ? -1 : 1);
			break;
		case 5:	/* random mantissa, exponents around the fast range */
			v = from_bits((r & 0x800fffffffffffffull) |
				      (uint64_t)(983 + next() % 200) << 52);
			break;
		case 6:	/* decimal-looking values of many magnitudes */
			v = (double)(r % 10000000000000000000ull) * pow(10, (int)(next() % 60) - 40);
			break;
		default:	/* big integers and their neighbours */
			v = nextafter(ldexp((double)(r >> 11), (int)(next() % 30)),
				      r & 2 ? 0 : INFINITY);
			break;
		}
		same_g17(v);
	}
}

static void test_int(void **state)
{
	static const int v[] = { 0, 1, -1, 9, 10, -10, 99, 100, 12345, -2147483647, INT_MAX, INT_MIN };
	char got[12], want[16];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) + 100000; i++) {
		int x = i < sizeof(v) / sizeof(v[0]) ? v[i] : (int)(uint32_t)next();
		size_t n = fmt_int(got, x);

		got[n] = '\0';
		snprintf(want, sizeof(want), "%d", x);
		assert_string_equal(got, want);
	}
}

/* s parsed both ways: false when the fast path refuses it, else the same bits */
static bool same_parse(const char *s)
{
	double fast, slow;
	char *end;

	if (!num_parse_decimal(s, strlen(s), &fast))
		return false;
	slow = strtod(s, &end);
	assert_true(*end == '\0');
	if (memcmp(&fast, &slow, sizeof(fast)))
		fail_msg("num_parse_decimal('%s') = %a, strtod gives %a", s, fast, slow);
	return true;
}

static void test_parse_decimal(void **state)
{
	static const char *const refused[] = {
		"", "-", ".5", "5.", "+5", "1e5", "0x10", " 5", "5 ", "1.2.3", "--1", "nan", "inf",
		"12345678901234567890", "9007199254740993", "1.00000000000000000000001",
	};
	char buf[64];
	size_t fast = 0;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		double v = 42;

		if (num_parse_decimal(refused[i], strlen(refused[i]), &v))
			fail_msg("num_parse_decimal('%s') took it as %a", refused[i], v);
	}
	assert_true(same_parse("0"));
	assert_true(same_parse("-0"));
	assert_true(same_parse("007"));
	assert_true(same_parse("9007199254740992"));
	assert_true(same_parse("0.1"));
	assert_true(same_parse("1000.1234"));
	assert_true(same_parse("0.0000000000000000000001"));
	for (int i = 0; i < 400000; i++) {
		uint64_t r = next();
		int digits = 1 + (int)(next() % 19), point = (int)(next() % (digits + 1));
		size_t n = 0;

		if (r & 1)
			buf[n++] = '-';
		for (int d = 0; d < digits; d++) {
			if (d == point && d)
				buf[n++] = '.';
			buf[n++] = (char)('0' + next() % 10);
		}
		buf[n] = '\0';
		fast += same_parse(buf);
	}
	/* most of them went the fast way (w <= 2^53): the test tested it */
	assert_true(fast > 300000);
}

/* bounded digits: printf's %f up to 20 integer digits (mmtests' own), the %e form beyond */
static void test_fixed(void **state)
{
	char buf[FMT_FIXED_MAX];

	(void)state;
	assert_string_equal(fmt_fixed(buf, 12.345, 2, false), "12.35");
	assert_string_equal(fmt_fixed(buf, -5.88, 2, true), "-5.88");
	assert_string_equal(fmt_fixed(buf, 5.88, 1, true), "+5.9");
	assert_string_equal(fmt_fixed(buf, 999999999999999.0, 2, false), "999999999999999.00");
	assert_string_equal(fmt_fixed(buf, 1e17, 2, false), "100000000000000000.00");
	assert_string_equal(fmt_fixed(buf, 1e20, 2, false), "1.00e+20");
	assert_string_equal(fmt_fixed(buf, 1.7e308, 2, false), "1.70e+308");
	assert_string_equal(fmt_fixed(buf, -1.7e308, 0, true), "-1.70e+308");
	assert_string_equal(fmt_fixed(buf, 1e300, 3, true), "+1.000e+300");
	assert_string_equal(fmt_fixed(buf, 1e-310, 2, false), "0.00");
	assert_string_equal(fmt_fixed(buf, INFINITY, 2, true), "+inf");
	assert_string_equal(fmt_fixed(buf, NAN, 2, false), "nan");
	assert_string_equal(fmt_fixed(buf, 1.7e308, 99, false),
			    "1.69999999999999994e+308");	/* prec capped at 17 */
	assert_true(strlen(FMT_FP(-DBL_MAX, 17)) < FMT_FIXED_MAX);
}

/* The one text of a p-value: a table's cell, a sentence's, and none. */
static void test_p(void **state)
{
	char buf[FMT_P_MAX];

	(void)state;
	assert_string_equal(fmt_p(buf, 0.01234, false, "-"), "0.0123");
	assert_string_equal(fmt_p(buf, 0.0001, false, "-"), "0.0001");
	assert_string_equal(fmt_p(buf, 3.2e-05, false, "-"), "3.2e-05");
	assert_string_equal(fmt_p(buf, 0, false, "-"), "0.0e+00");
	assert_string_equal(fmt_p(buf, NAN, false, "-"), "-");
	assert_string_equal(FMT_P(NAN, "n/a"), "n/a");
	assert_string_equal(FMT_P(1, "n/a"), "1.0000");
	assert_string_equal(FMT_P_PROSE(0.01234), "0.012");
	assert_string_equal(FMT_P_PROSE(3.2e-05), "3.2e-05");
	assert_string_equal(FMT_P_PROSE(0.5), "0.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_g17_edges),
		cmocka_unit_test(test_g17_random),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_parse_decimal),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
