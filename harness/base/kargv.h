/* A growable, NULL-terminated argv (for exec'ing make, git, qemu). */
#ifndef MMB_KARGV_H
#define MMB_KARGV_H

#include <stddef.h>

#include "util.h"

struct kargv {
	char **v;	/* always NULL terminated once something was pushed */
	size_t nr, alloc;
};
#define KARGV_INIT { NULL, 0, 0 }

void kargv_push(struct kargv *a, const char *s);
void kargv_pushf(struct kargv *a, const char *fmt, ...) MMB_PRINTF_FMT(2, 3);
void kargv_release(struct kargv *a);
/* Drop (and free) elements from index nr on. */
void kargv_truncate(struct kargv *a, size_t nr);
/* Index of the first element equal to s, or -1 (tests). */
int kargv_find(const struct kargv *a, const char *s);
/* "a b 'c d'" for messages and logs only (never given to a shell). */
char *kargv_join(const struct kargv *a);

#endif
