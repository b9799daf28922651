#include "procsnap.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void monitor_snap_init(struct monitor_snap *s)
{
	memset(s, 0, sizeof(*s));
}

void monitor_snap_release(struct monitor_snap *s)
{
	for (size_t i = 0; i < s->held; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->vals);
	monitor_snap_init(s);
}

/* /proc lists the same names in the same order every time: compare, do not rebuild */
static bool key_is(const char *key, const char *prefix, size_t plen, const char *name, size_t nlen)
{
	return !memcmp(key, prefix, plen) && key[plen] == ':' && !memcmp(key + plen + 1, name, nlen) &&
	       !key[plen + 1 + nlen];
}

static void snap_add(struct monitor_snap *s, const char *prefix, size_t plen, const char *name,
		     size_t nlen, double v)
{
	if (s->n + 1 > s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->keys = xrealloc(s->keys, s->alloc * sizeof(*s->keys));
		s->vals = xrealloc(s->vals, s->alloc * sizeof(*s->vals));
	}
	if (s->n < s->held && !key_is(s->keys[s->n], prefix, plen, name, nlen)) {
		free(s->keys[s->n]);
		s->keys[s->n] = xasprintf("%.*s:%.*s", (int)plen, prefix, (int)nlen, name);
	} else if (s->n >= s->held) {
		s->keys[s->held++] = xasprintf("%.*s:%.*s", (int)plen, prefix, (int)nlen, name);
	}
	s->vals[s->n++] = v;
}

/*
 * "name value" (vmstat) or "Name:   value kB" (meminfo) lines, read with
 * one read(2) and parsed in place: two snapshots an iteration went
 * through fgets, sscanf and snprintf for ~450 lines.
 */
static void read_file(struct monitor_snap *s, const char *path, const char *prefix,
		      bool meminfo)
{
	char buf[32768];
	size_t plen = strlen(prefix), len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return;
	while (len < sizeof(buf) - 1 && (got = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	buf[len] = 0;
	for (char *line = buf, *next; *line; line = next) {
		char *end = strchr(line, '\n'), *name = line, *p;
		size_t nlen;
		unsigned long long v;

		next = end ? end + 1 : line + strlen(line);
		if (end)
			*end = 0;
		nlen = strcspn(name, meminfo ? ":" : " \t");
		if (!nlen || nlen > 127 || !name[nlen])
			continue;
		p = name + nlen + (meminfo ? 1 : 0);
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			continue;
		errno = 0;
		v = strtoull(p, NULL, 10);
		if (errno)
			continue;
		snap_add(s, prefix, plen, name, nlen, (double)v);
	}
}

int monitor_take(struct monitor_snap *s, bool vmstat, bool meminfo)
{
	s->n = 0;	/* the names stay for the next read to reuse */
	if (vmstat)
		read_file(s, "/proc/vmstat", "vmstat", false);
	if (meminfo)
		/* deltas: not lkp's meminfo.*, which are levels (averaged over a run) */
		read_file(s, "/proc/meminfo", "meminfo-delta", true);
	return 0;
}

double monitor_get(const struct monitor_snap *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->keys[i], key))
			return s->vals[i];
	return -1;
}

void monitor_delta(const struct monitor_snap *before, const struct monitor_snap *after,
		   const char ***keys, double **deltas, size_t *n)
{
	size_t nr = 0, j = 0;

	*keys = xcalloc(after->n ? after->n : 1, sizeof(**keys));
	*deltas = xcalloc(after->n ? after->n : 1, sizeof(**deltas));
	for (size_t i = 0; i < after->n; i++) {
		double b = 0;

		/* both snapshots list keys in the same order: walk in step */
		if (j < before->n && !strcmp(before->keys[j], after->keys[i]))
			b = before->vals[j++];
		else
			b = monitor_get(before, after->keys[i]);
		if (b < 0 || after->vals[i] == b)
			continue;
		(*keys)[nr] = after->keys[i];
		(*deltas)[nr++] = after->vals[i] - b;
	}
	*n = nr;
}
