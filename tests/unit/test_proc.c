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

	(void)state;
	p.err = &err;
	assert_int_equal(proc_run(&p), 3);
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 3);
	assert_string_equal(err.buf, "oops\n");

	p = (struct proc)PROC_INIT(none);
	assert_int_equal(proc_run(&p), 127);

	p = (struct proc)PROC_INIT(kill9);
	assert_int_equal(proc_run(&p), 128 + SIGKILL);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGKILL);
	strbuf_release(&err);
}

/* the time limit stops the whole group: a child of the program too */
static void test_timeout_group(void **state)
{
	const char *argv[] = { "sh", "-c", "sleep 600 & sleep 600; echo never", NULL };
	struct strbuf out = STRBUF_INIT;
	struct proc p = PROC_INIT(argv);
	int rc;

	(void)state;
	p.out = &out;
	p.flags = PROC_NEW_PGRP;
	p.timeout_s = 0.2;
	rc = proc_run(&p);
	assert_true(p.timed_out);
	assert_int_equal(rc, 128 + SIGTERM);
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

/*
 * A program beside us: keep_fds become its 3, 4; with PROC_CLOSE_FDS no
 * other fd of ours (here one without CLOEXEC) reaches it; SIGPIPE (bit 13
 * of SigIgn) ignored in the harness is default again in it; proc_finish() ends its group.
 */
static void test_start_keep_finish(void **state)
{
	int keep[2], stray, out[2], rc;
	char buf[256] = "";
	ssize_t n;
	const char *argv[] = { "sh", "-c",
		"for f in 3 4 5; do [ -e /proc/self/fd/$f ] && printf '%s ' $f; done; "
		"i=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status); "
		"[ $(( 0x${i#????????????} & 0x1000 )) = 0 ] || printf pipe-ignored; "
		"printf x >&3; exec sleep 30", NULL };
	struct proc p = PROC_INIT(argv);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;

	(void)state;
	assert_int_equal(pipe(keep), 0);
	assert_int_equal(pipe(out), 0);
	stray = dup(keep[0]);		/* no CLOEXEC */
	assert_true(stray >= 0);
	p.keep_fds = (const int[]){ keep[1], keep[0] };
	p.nkeep = 2;
	p.out_fd = out[1];
	p.flags = PROC_NEW_PGRP | PROC_CLOSE_FDS;
	sigaction(SIGPIPE, &ign, &old);
	assert_int_equal(proc_start(&p), 0);
	sigaction(SIGPIPE, &old, NULL);
	close(out[1]);
	close(keep[1]);
	n = read(keep[0], buf, 1);
	assert_int_equal(n, 1);
	assert_int_equal(buf[0], 'x');
	n = read(out[0], buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	assert_string_equal(buf, "3 4 ");
	assert_false(proc_ended_yet(&p));
	rc = proc_finish(&p, SIGTERM);
	assert_int_equal(rc, 128 + SIGTERM);
	/* a capture or a time limit is proc_run()'s, not proc_start()'s */
	p = (struct proc)PROC_INIT(argv);
	p.timeout_s = 1;
	assert_int_equal(proc_start(&p), -1);
	close(out[0]);
	close(keep[0]);
	close(stray);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_stdin_to_stdout),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_endings),
		cmocka_unit_test(test_timeout_group),
		cmocka_unit_test(test_dir_env_tick),
		cmocka_unit_test(test_start_keep_finish),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
