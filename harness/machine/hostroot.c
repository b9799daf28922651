#include "hostroot.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char *host_path(const char *abs)
{
	const char *root = getenv("MMBENCH_HOST_ROOT");

	return xasprintf("%s%s", root && *root ? root : "", abs);
}

int host_read_line(const char *abs, char *buf, size_t len)
{
	char *p = host_path(abs);
	int n = read_line_file(p, buf, len);
	char *t;

	free(p);

	if (n < 0)
		return -1;
	t = strtrim(buf);
	memmove(buf, t, strlen(t) + 1);
	return (int)strlen(buf);
}

void host_boot_id(char *buf, size_t len)
{
	if (host_read_line("/proc/sys/kernel/random/boot_id", buf, len) < 0)
		buf[0] = '\0';
}
