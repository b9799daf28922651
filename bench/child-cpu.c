/*
 * A command's CPU time, to the microsecond the kernel gives (make bench,
 * bench/vms-fidelity.sh): runs argv, waits for it, and appends
 * "cpu USER SYS" (seconds) to FILE.  GNU time prints hundredths, and
 * around a shell it also counts the shell: dd's 15-20 ms of user time a
 * task came out 10-25% off from those two alone.
 * Usage: child-cpu FILE COMMAND [ARG...]; exits with the command's status.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: child-cpu FILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("child-cpu: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "child-cpu: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("child-cpu: wait4");
			return 1;
		}
	f = fopen(argv[1], "a");
	if (!f || fprintf(f, "cpu %ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
			  (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
			  (long)ru.ru_stime.tv_usec) < 0 || fclose(f)) {
		fprintf(stderr, "child-cpu: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
