/* proc: the one process runner (harness/base/proc.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

/* stdin fed, stdout and stderr drained at once: 1 MiB through cat, more
 * than any pipe holds, cannot deadlock */
static void test_big_stdin_to_stdout(void **state)
{
	const char *argv[] = { "cat", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct proc p = PROC_INIT(argv);
	size_t n = 1u << 20;
	char *in = malloc(n);

	(void)state;
	for (size_t i = 0; i < n; i++)
		in[i] = (char)('a' + i % 26);
	p.in = in;
	p.in_len = n;
	p.out = &out;
	p.err = &err;
	assert_int_equal(proc_run(&p), 0);
	assert_int_equal(out.len, n);
	assert_memory_equal(out.buf, in, n);
	assert_int_equal(err.len, 0);
	assert_false(p.truncated);
	free(in);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* a cap keeps the first bytes and says it dropped the rest */
static void test_cap(void **state)
{
	const char *argv[] = { "seq", "1", "100000", NULL };
	struct strbuf out = STRBUF_INIT;
	struct proc p = PROC_INIT(argv);

	(void)state;
	p.out = &out;
	p.cap = 10;
	assert_int_equal(proc_run(&p), 0);
	assert_int_equal(out.len, 10);
	assert_memory_equal(out.buf, "1\n2\n3\n4\n5\n", 10);
	assert_true(p.truncated);
	strbuf_release(&out);
}

/* exit codes, a program that is not there, a signal: one wording */
static void test_endings(void **state)
{
	const char *fail[] = { "sh", "-c", "echo oops >&2; exit 3", NULL };
	const char *none[] = { "/nonexistent/mmbench-no-such-program", NULL };
	const char *kill9[] = { "sh", "-c", "kill -9 $$", NULL };
	struct strbuf err = STRBUF_INIT;
	struct proc p = PROC_INIT(fail);
	char buf[64];

	(void)state;
	p.err = &err;
	assert_int_equal(proc_run(&p), 3);
	assert_string_equal(proc_ended(&p, buf, sizeof(buf)), "exited with 3");
	assert_string_equal(err.buf, "oops\n");
	assert_int_equal(proc_error(&p, "testing"), -1);

	p = (struct proc)PROC_INIT(none);
	assert_int_equal(proc_run(&p), 127);
	assert_string_equal(proc_ended(&p, buf, sizeof(buf)), "could not be started");

	p = (struct proc)PROC_INIT(kill9);
	assert_int_equal(proc_run(&p), 128 + SIGKILL);
	assert_string_equal(proc_ended(&p, buf, sizeof(buf)), "killed by SIGKILL");
	strbuf_release(&err);
}

/* the time limit stops the whole group: a child of the program too */
static void test_timeout_group(void **state)
{
	const char *argv[] = { "sh", "-c", "sleep 600 & sleep 600; echo never", NULL };
	struct strbuf out = STRBUF_INIT;
	struct proc p = PROC_INIT(argv);
	char buf[64];
	int rc;

	(void)state;
	p.out = &out;
	p.flags = PROC_NEW_PGRP;
	p.timeout_s = 0.2;
	rc = proc_run(&p);
	assert_true(p.timed_out);
	assert_int_equal(rc, 128 + SIGTERM);
	assert_string_equal(proc_ended(&p, buf, sizeof(buf)), "stopped after the 0.2 s time limit");
	/* the backgrounded sleep held stdout: had it lived, proc_run would not have returned */
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

struct ticks {
	int n;
};

static void count_tick(void *arg)
{
	((struct ticks *)arg)->n++;
}

/* dir, env and the tick that drives progress lines */
static void test_dir_env_tick(void **state)
{
	const char *argv[] = { "sh", "-c", "pwd; echo $MMB_PROC_TEST; sleep 0.6", NULL };
	const char *env[] = { "MMB_PROC_TEST=hello", NULL };
	struct strbuf out = STRBUF_INIT;
	struct proc p = PROC_INIT(argv);
	struct ticks t = { 0 };

	(void)state;
	p.dir = "/";
	p.env = env;
	p.out = &out;
	p.tick = count_tick;
	p.tick_arg = &t;
	assert_int_equal(proc_run(&p), 0);
	assert_string_equal(out.buf, "/\nhello\n");
	assert_true(t.n >= 1);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_stdin_to_stdout),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_endings),
		cmocka_unit_test(test_timeout_group),
		cmocka_unit_test(test_dir_env_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
