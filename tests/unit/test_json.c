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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_valid_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
