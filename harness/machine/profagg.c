/*
 * A profile's aggregate (perfrec.h): the name -> period maps of both kinds
 * and their entries.  Below perfrec.c (perf script's parser) and
 * ksample.c (the built-in sampler), which both add to it.
 */
#include "perfrec.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ name -> period map */

struct profile_map {
	char **key;
	double *val;
	size_t n, cap;		/* cap: a power of two, or 0 */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static double *map_slot(struct profile_map *m, const char *key)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct profile_map g = { .cap = m->cap ? 2 * m->cap : 256 };

		g.key = xcalloc(g.cap, sizeof(*g.key));
		g.val = xcalloc(g.cap, sizeof(*g.val));
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->key[j])
				continue;
			for (i = hash_str(m->key[j]) & (g.cap - 1); g.key[i]; i = (i + 1) & (g.cap - 1))
				;
			g.key[i] = m->key[j];
			g.val[i] = m->val[j];
		}
		free(m->key);
		free(m->val);
		m->key = g.key;
		m->val = g.val;
		m->cap = g.cap;
	}
	for (i = hash_str(key) & (m->cap - 1); m->key[i]; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->key[i], key))
			return &m->val[i];
	m->key[i] = xstrdup(key);
	m->n++;
	return &m->val[i];
}

void profile_agg_init(struct profile_agg *a)
{
	memset(a, 0, sizeof(*a));
	for (int k = 0; k < PROFILE_NKINDS; k++)
		a->map[k] = xcalloc(1, sizeof(*a->map[k]));
}

void profile_agg_release(struct profile_agg *a)
{
	for (int k = 0; k < PROFILE_NKINDS; k++) {
		struct profile_map *m = a->map[k];

		for (size_t i = 0; m && i < m->cap; i++)
			free(m->key[i]);
		if (m) {
			free(m->key);
			free(m->val);
		}
		free(m);
	}
	memset(a, 0, sizeof(*a));
}

void profile_agg_add(struct profile_agg *a, double period, const char *const *frames, size_t n)
{
	char key[PROFILE_CHAIN_DEPTH * (PROFILE_SYM_MAX + 1) + 1];
	const char *chain[PROFILE_CHAIN_DEPTH];
	size_t nchain = 0, off = 0;

	/* the leaf always; callers only when known (else they break chains) */
	for (size_t i = 0; i < n && nchain < PROFILE_CHAIN_DEPTH; i++)
		if (!i || strcmp(frames[i], "[unknown]"))
			chain[nchain++] = frames[i];
	if (!nchain)
		chain[nchain++] = "[unknown]";
	a->samples++;
	a->total += period;
	*map_slot(a->map[PROFILE_SELF], chain[0]) += period;
	/* caller first, as lkp writes a chain: outermost kept frame .. leaf */
	for (size_t i = nchain; i-- > 0;)
		off += (size_t)snprintf(key + off, sizeof(key) - off, "%s%.*s", off ? "." : "",
					PROFILE_SYM_MAX, chain[i]);
	*map_slot(a->map[PROFILE_CALLTRACE], key) += period;
}

static int entry_cmp(const void *x, const void *y)
{
	const struct profile_entry *a = x, *b = y;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->pct != b->pct)
		return a->pct > b->pct ? -1 : 1;
	return strcmp(a->name, b->name);
}

size_t profile_agg_entries(const struct profile_agg *a, double min_pct,
			   struct profile_entry **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	if (!(a->total > 0))
		return 0;
	for (int k = 0; k < PROFILE_NKINDS; k++) {
		const struct profile_map *m = a->map[k];

		for (size_t i = 0; i < m->cap; i++) {
			double pct = 100 * m->val[i] / a->total;

			if (!m->key[i] || pct < min_pct)
				continue;
			ALLOC_GROW(*out, n + 1, alloc);
			(*out)[n].kind = (enum profile_kind)k;
			(*out)[n].name = xstrdup(m->key[i]);
			(*out)[n].pct = pct > 100 ? 100 : pct;
			n++;
		}
	}
	if (n)
		qsort(*out, n, sizeof(**out), entry_cmp);
	return n;
}

void profile_entries_free(struct profile_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}
