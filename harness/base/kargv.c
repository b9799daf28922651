#include "kargv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void kargv_add(struct kargv *a, char *s)
{
	ALLOC_GROW(a->v, a->nr + 2, a->alloc);
	a->v[a->nr++] = s;
	a->v[a->nr] = NULL;
}

void kargv_push(struct kargv *a, const char *s)
{
	kargv_add(a, xstrdup(s));
}

void kargv_pushf(struct kargv *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kargv_add(a, strbuf_detach(&sb));
}

void kargv_release(struct kargv *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->nr = a->alloc = 0;
}

int kargv_find(const struct kargv *a, const char *s)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->v[i], s))
			return (int)i;
	return -1;
}

char *kargv_join(const struct kargv *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t i = 0; i < a->nr; i++) {
		const char *s = a->v[i];

		if (i)
			strbuf_addch(&sb, ' ');
		if (*s && !strpbrk(s, " \t\n'\"\\$`*?;&|<>()"))
			strbuf_addstr(&sb, s);
		else {
			strbuf_addch(&sb, '\'');
			for (; *s; s++) {
				if (*s == '\'')
					strbuf_addstr(&sb, "'\\''");
				else
					strbuf_addch(&sb, *s);
			}
			strbuf_addch(&sb, '\'');
		}
	}
	return strbuf_detach(&sb);
}

void kargv_truncate(struct kargv *a, size_t nr)
{
	while (a->nr > nr)
		free(a->v[--a->nr]);
	if (a->v)
		a->v[a->nr] = NULL;
}
