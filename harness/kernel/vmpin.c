#include "vmpin.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_VCPUS 1024

/* vCPU n's thread id, from "CPU n/TCG" or "CPU n/KVM" in its comm; 0 when not (yet) there. */
static int find_vcpus(pid_t pid, pid_t *tid, int ncpus)
{
	char path[64], comm[32];
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		int n;
		char rest[8];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/comm", (int)pid, d->d_name);
		if (read_line_file(path, comm, sizeof(comm)) <= 0 ||
		    sscanf(comm, "CPU %d/%7s", &n, rest) != 2 || n < 0 || n >= ncpus ||
		    (strcmp(rest, "TCG") && strcmp(rest, "KVM")))
			continue;
		if (!tid[n])
			found++;
		tid[n] = (pid_t)atoi(d->d_name);
	}
	closedir(dir);
	return found;
}

int vm_pin_vcpus(pid_t pid, int ncpus, int wait_ms, char *where, size_t len)
{
	pid_t tid[MAX_VCPUS] = { 0 };
	int host[CPU_SETSIZE], nhost = 0, found = 0;
	cpu_set_t mine;
	size_t off = 0;

	where[0] = '\0';
	if (ncpus < 1 || ncpus > MAX_VCPUS)
		return snprintf(where, len, "%d vCPUs", ncpus), -1;
	if (sched_getaffinity(0, sizeof(mine), &mine) < 0)
		return snprintf(where, len, "sched_getaffinity: %s", strerror(errno)), -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			host[nhost++] = c;
	for (int waited = 0; waited <= wait_ms; waited += 10) {
		int f = find_vcpus(pid, tid, ncpus);

		if (f < 0)
			return snprintf(where, len, "QEMU (pid %d) is gone", (int)pid), -1;
		found += f;
		if (found >= ncpus)
			break;
		usleep(10000);
	}
	if (found < ncpus)
		return snprintf(where, len, "%d of %d vCPU threads seen in %d ms", found, ncpus,
				wait_ms), -1;
	for (int i = 0; i < ncpus; i++) {
		cpu_set_t one;
		int c = host[i % nhost];

		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(tid[i], sizeof(one), &one) < 0)
			return snprintf(where, len, "vCPU %d (thread %d): %s", i, (int)tid[i],
					strerror(errno)), -1;
		if (off < len)
			off += (size_t)snprintf(where + off, len - off, "%s%d", i ? "," : "", c);
	}
	return 0;
}
