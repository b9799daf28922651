// SPDX-License-Identifier: GPL-2.0
/*
 * no-thp: run a command with transparent hugepages disabled for it and its
 * children (prctl PR_SET_THP_DISABLE: inherited across fork, kept across
 * execve, and it covers every mTHP size).  bench/pft-fidelity.sh runs both
 * pft-ref and `mmbench run` under it, so both take base-page faults whatever
 * the system THP knobs say, and no system setting is changed.
 *
 *   no-thp COMMAND [ARGS...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: no-thp COMMAND [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)) {
		fprintf(stderr, "no-thp: prctl(PR_SET_THP_DISABLE): %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-thp: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
