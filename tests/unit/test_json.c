/* json writer: strings are always well-formed UTF-8 JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "json.h"
#include "util.h"

static void check(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	json_add_string(&sb, in);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_invalid_utf8_replaced(void **state)
{
	(void)state;
	check("base\xff", "\"base\\ufffd\"");
	check("\xc0\xaf", "\"\\ufffd\\ufffd\"");		/* overlong '/' */
	check("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");	/* overlong, 3 bytes */
	check("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");	/* UTF-16 surrogate */
	check("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* past U+10FFFF */
	check("\xe2\x82", "\"\\ufffd\\ufffd\"");		/* cut short at the end */
	check("\xe2\x82x", "\"\\ufffd\\ufffdx\"");		/* cut short mid-string */
	check("\x80", "\"\\ufffd\"");				/* lone continuation */
}

static void test_valid_kept(void **state)
{
	(void)state;
	check("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	check("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");	/* U+10FFFF */
	check("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");		/* U+D7FF, below the surrogates */
	check("a\"b\\c\nd\te\x01", "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

/* The literal words: each read as its type, a cut-short one is an error where it starts. */
static void test_parse_literals(void **state)
{
	const char *in = "[true, false, null]";
	struct json *j;
	char err[128];

	(void)state;
	assert_int_equal(json_parse(in, strlen(in), &j, err, sizeof(err)), 0);
	assert_int_equal(j->n, 3);
	assert_int_equal(j->items[0].type, JSON_BOOL);
	assert_true(j->items[0].b);
	assert_int_equal(j->items[1].type, JSON_BOOL);
	assert_false(j->items[1].b);
	assert_int_equal(j->items[2].type, JSON_NULL);
	json_free(j);
	assert_int_equal(json_parse("[fals]", 6, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "1:2: unexpected character");
	assert_int_equal(json_parse("nul", 3, &j, err, sizeof(err)), -1);
	assert_string_equal(err, "1:1: unexpected character");
	/* the length bounds the word: "true" cut at 3 bytes is not true */
	assert_int_equal(json_parse("true", 3, &j, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_valid_kept),
		cmocka_unit_test(test_parse_literals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
