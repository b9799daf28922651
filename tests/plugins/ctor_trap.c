/*
 * Loader test: a constructor that crashes or never returns when asked
 * (MMB_TEST_CTOR=segv or hang), or that starts a setsid() daemon writing
 * its pid to $MMB_TEST_CTOR_FILE (daemon); with MMB_TEST_CTOR_FILE set it
 * also appends the pid of every process that ran it.  Otherwise a minimal
 * valid plugin.  The harness must name the crash or the hang, not die of
 * it or hang, never run the constructor in its own process, and leave no
 * daemon behind.
 */
#include "loader-case.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void append_line(const char *file, const char *tag, pid_t pid)
{
	char line[64];
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0600);
	int n = snprintf(line, sizeof(line), "%s %d\n", tag, (int)pid);

	if (fd >= 0 && write(fd, line, (size_t)n) != n)
		n = 0;
	if (fd >= 0)
		close(fd);
}

/* setsid(), a second fork, the daemon's pid written before the constructor returns */
static void start_daemon(const char *file)
{
	pid_t mid = fork(), d;

	if (mid > 0) {
		waitpid(mid, NULL, 0);
		return;
	}
	if (mid < 0)
		return;
	setsid();
	d = fork();
	if (d > 0)
		append_line(file, "daemon", d);
	if (d != 0)
		_exit(0);
	for (int i = 0; i < 600; i++)
		sleep(1);
	_exit(0);
}

__attribute__((constructor)) static void trap(void)
{
	const char *e = getenv("MMB_TEST_CTOR"), *file = getenv("MMB_TEST_CTOR_FILE");

	if (file && *file)
		append_line(file, "ctor", getpid());
	if (file && *file && e && !strcmp(e, "daemon"))
		start_daemon(file);

	if (e && !strcmp(e, "segv"))
		raise(SIGSEGV);
	while (e && !strcmp(e, "hang"))
		pause();
}

static const struct mmb_workload desc = { LOADER_CASE("ctor_trap", "a constructor that crashes or hangs on request") };
MMB_WORKLOAD(desc)
