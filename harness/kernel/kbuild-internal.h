/* What kbuild.c, kcache.c, kpatch.c and kgit.c share and nobody else needs. */
#ifndef MMB_KBUILD_INTERNAL_H
#define MMB_KBUILD_INTERNAL_H

#include "util.h"

#include <stdbool.h>

/*
 * In every cache key: bumped when the same inputs would now build another
 * kernel.  2: a build folder's resolved .config is reused only on the same
 * base commit (1 reused it across commits, so a cached 6.12 could carry
 * 6.1's resolution: ZRAM off): kernels cached by 1 are built again.
 */
#define KB_RECIPE_VERSION "mmbench-kbuild-2"

/* "key value" lines of a kernel's meta file */
void kcache_meta_put(struct strbuf *sb, const char *key, const char *value);
/* remove a folder tree, never following a symlink out of it */
int kcache_rm_rf(const char *path);
/* qsort() comparison of char * */
int kcache_cmp_str(const void *a, const void *b);

/* kgit.c: the environment kernel builds run git (and git am) with */
extern const char *const kbuild_git_env[];
/* git -C dir ARGS... (NULL-ended), with the environment kernel builds use;
 * git's exit code, output in out/err when given */
int kbuild_git(const char *dir, struct strbuf *out, struct strbuf *err, ...);
/* the first non-empty line of s, in a static buffer */
const char *kbuild_first_line(const char *s);

struct kbuild_opts;
struct kargv;
/* --patch arguments (files, folders, git ranges) resolved to files */
int kpatch_resolve(const struct kbuild_opts *o, const char *tree, const char *cache,
		   struct kargv *files);
/* the series as JSON (commit subjects and hashes) */
char *kpatch_series_json(const char *src, const char *base);
/* git am the files onto src at ref; one message naming the patch that failed */
int kpatch_apply(const char *src, const struct kargv *files, const char *ref);

/* a letter, digit or _ (Kconfig symbols; kernel labels allow these and more) */
bool kconf_sym_char(char c);

#endif
