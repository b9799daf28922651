/* util: capped reads, mode-keeping copies (options: test_parse_options.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "sysinfo.h"

static char dir[] = "/tmp/mmb-util-XXXXXX";

static char *path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put(const char *p, size_t n, mode_t mode)
{
	char *buf = xcalloc(n + 1, 1);

	memset(buf, 'x', n);
	assert_int_equal(write_file_atomic(p, buf, n), 0);
	assert_int_equal(chmod(p, mode), 0);
	free(buf);
}

static void test_read_capped(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = path("f");
	int fds[2];

	(void)state;
	put(p, 4096, 0644);
	/* exactly the cap is fine, one byte over is EFBIG */
	assert_int_equal(read_file_capped(&sb, p, 4096), 0);
	assert_int_equal(sb.len, 4096);
	strbuf_reset(&sb);
	errno = 0;
	assert_int_equal(read_file_capped(&sb, p, 4095), -1);
	assert_int_equal(errno, EFBIG);
	strbuf_reset(&sb);
	/* without a size to check first: /dev/zero stops one byte past the cap */
	assert_int_equal(read_file_capped(&sb, "/dev/zero", 100000), -1);
	assert_int_equal(errno, EFBIG);
	assert_true(sb.len <= 100000);
	strbuf_reset(&sb);
	/* a pipe within the cap */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "abc", 3), 3);
	close(fds[1]);
	assert_int_equal(strbuf_read_fd_capped(&sb, fds[0], 3), 0);
	assert_string_equal(sb.buf, "abc");
	close(fds[0]);
	strbuf_reset(&sb);
	/* the message names the file, the limit and what it is */
	assert_int_equal(read_input(&sb, p, 1024, "a thing"), -1);
	strbuf_release(&sb);
	unlink(p);
	free(p);
}

static void test_copy_keeps_mode(void **state)
{
	char *src = path("secret"), *dst = path("copy"), *big = path("big");
	struct stat st;
	mode_t old = umask(0);

	(void)state;
	put(src, 100, 0640);
	assert_int_equal(copy_file_capped(src, dst, 1 << 20), 0);
	assert_int_equal(stat(dst, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(st.st_size, 100);
	unlink(dst);
	/* a non-regular source: 0600 */
	assert_int_equal(copy_file_capped("/dev/null", dst, 1 << 20), 0);
	assert_int_equal(stat(dst, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	unlink(dst);
	/* over the cap: EFBIG, nothing left behind */
	put(big, 5000, 0644);
	assert_int_equal(copy_file_capped(big, dst, 4096), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(copy_file_capped("/dev/zero", dst, 4096), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(access(dst, F_OK), -1);
	umask(old);
	unlink(src);
	unlink(big);
	free(src);
	free(dst);
	free(big);
}

/* /proc/swaps: a header line, then one line per device; no file is no swap. */
static void test_swap_active(void **state)
{
	static const char header[] = "Filename\tType\tSize\tUsed\tPriority\n";
	static const char dev[] = "/dev/zram0\tpartition\t262140\t0\t100\n";
	char *p = path("swaps");
	char *both = xasprintf("%s%s", header, dev);

	(void)state;
	assert_false(swap_active(p));
	assert_int_equal(write_file_atomic(p, header, strlen(header)), 0);
	assert_false(swap_active(p));
	assert_int_equal(write_file_atomic(p, both, strlen(both)), 0);
	assert_true(swap_active(p));
	unlink(p);
	free(both);
	free(p);
}

/* An enum's words by value: whole words only, a hole in the table matches nothing. */
static void test_name_index(void **state)
{
	static const char *const names[] = { [0] = "auto", [2] = "kvm", [3] = "" };

	(void)state;
	assert_int_equal(name_index(names, ARRAY_SIZE(names), "auto"), 0);
	assert_int_equal(name_index(names, ARRAY_SIZE(names), "kvm"), 2);
	assert_int_equal(name_index(names, ARRAY_SIZE(names), ""), 3);
	assert_int_equal(name_index(names, ARRAY_SIZE(names), "kv"), -1);
	assert_int_equal(name_index(names, ARRAY_SIZE(names), "kvmx"), -1);
	assert_int_equal(name_index(names, ARRAY_SIZE(names), "AUTO"), -1);
	assert_int_equal(name_index(names, 2, "kvm"), -1);
}

/* The running kernel's compiler, as the report names it (it said "compiler unknown"). */
static void test_kernel_compiler(void **st)
{
	static const struct { const char *version, *want; } cases[] = {
		{ "Linux version 6.1.0-28-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian"
		  " 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC"
		  " Debian 6.1.119-1 (2024-11-22)\n", "gcc-12 (Debian 12.2.0-14) 12.2.0" },
		{ "Linux version 6.18.44 (builder@sandboxing) (gcc (GCC) 15.3.0, GNU ld (GNU"
		  " Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0\n", "gcc (GCC) 15.3.0" },
		{ "Linux version 6.8.0 (u@h) (Debian clang version 14.0.6, LLD 14.0.6) #1 SMP\n",
		  "Debian clang version 14.0.6" },
		{ "Linux version 4.4.0 (u@h) (gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.12) ) #1\n",
		  "gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.12)" },
		{ "Linux version 6.1.0 #1 SMP\n", NULL },
		{ "", NULL },
	};

	(void)st;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = sysinfo_kernel_compiler(cases[i].version);

		if (!cases[i].want)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
		free(got);
	}
	assert_null(sysinfo_kernel_compiler(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_capped),
		cmocka_unit_test(test_name_index),
		cmocka_unit_test(test_copy_keeps_mode),
		cmocka_unit_test(test_swap_active),
		cmocka_unit_test(test_kernel_compiler),
	};
	int ret;

	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return ret;
}
