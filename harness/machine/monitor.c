#include "monitor.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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

static void snap_add(struct monitor_snap *s, const char *key, double v)
{
	if (s->n + 1 > s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->keys = xrealloc(s->keys, s->alloc * sizeof(*s->keys));
		s->vals = xrealloc(s->vals, s->alloc * sizeof(*s->vals));
	}
	/* /proc lists the same names in the same order every time */
	if (s->n < s->held && strcmp(s->keys[s->n], key)) {
		free(s->keys[s->n]);
		s->keys[s->n] = xstrdup(key);
	} else if (s->n >= s->held) {
		s->keys[s->held++] = xstrdup(key);
	}
	s->vals[s->n++] = v;
}

static void read_file(struct monitor_snap *s, const char *path, const char *prefix,
		      bool meminfo)
{
	FILE *f = fopen(path, "re");
	char line[256], name[128], key[160];
	unsigned long long v;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int ok = meminfo ? sscanf(line, "%127[^:]: %llu", name, &v)
				 : sscanf(line, "%127s %llu", name, &v);
		if (ok != 2)
			continue;
		snprintf(key, sizeof(key), "%s:%s", prefix, name);
		snap_add(s, key, (double)v);
	}
	fclose(f);
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
