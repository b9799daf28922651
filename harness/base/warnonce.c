#include "warnonce.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct kind {
	char *key;	/* the message with digit runs masked */
	char *first;	/* the first message of the kind, as it came */
	size_t count;
};

static struct kind *kinds;
static size_t nkinds, akinds;

/* Past this many kinds a plugin is printing something new each time: let it through. */
#define MAX_KINDS 256

static char *mask_digits(const char *msg)
{
	char *key = xmalloc(strlen(msg) + 1), *o = key;

	for (const char *p = msg; *p; p++) {
		if (isdigit((unsigned char)*p)) {
			*o++ = '#';
			while (isdigit((unsigned char)p[1]))
				p++;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return key;
}

static struct kind *find(const char *key)
{
	for (size_t i = 0; i < nkinds; i++)
		if (!strcmp(kinds[i].key, key))
			return &kinds[i];
	return NULL;
}

bool warnonce_first(const char *msg)
{
	char *key = mask_digits(msg);
	struct kind *k = find(key);

	if (k) {
		k->count++;
		free(key);
		return false;
	}
	if (nkinds >= MAX_KINDS) {
		free(key);
		return true;
	}
	ALLOC_GROW(kinds, nkinds + 1, akinds);
	kinds[nkinds++] = (struct kind){ .key = key, .first = xstrdup(msg), .count = 1 };
	return true;
}

size_t warnonce_count(const char *msg)
{
	char *key = mask_digits(msg);
	struct kind *k = find(key);

	free(key);
	return k ? k->count : 0;
}

void warnonce_flush(void)
{
	for (size_t i = 0; i < nkinds; i++) {
		if (kinds[i].count > 1)
			warning("%s (repeated %zu times)", kinds[i].first, kinds[i].count);
		free(kinds[i].key);
		free(kinds[i].first);
	}
	free(kinds);
	kinds = NULL;
	nkinds = akinds = 0;
}
