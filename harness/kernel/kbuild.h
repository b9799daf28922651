/*
 * Test kernels: build a kernel tree at a ref with a patch series and config
 * fragments, out of tree, cached.
 *
 * Cache layout ($MMBENCH_CACHE, default ~/.cache/mmbench):
 *   src/<tree-id>/          a `git clone --shared` of the user's tree; the
 *                           user's work tree, index and branches are never
 *                           touched.  Checked out detached at REF, series
 *                           applied with `git am`.
 *   obj/<tree-id>-<arch>/   make O= build dir, one per tree and arch: base and
 *                           patched builds (and other configs) share it,
 *                           so a rebuild only recompiles what the series or
 *                           the config change touched (ccache helps too).
 *   kernels/<key>/          bzImage (arm64: Image), config, build.log, meta (key=value)
 *   labels/<label> -> ../kernels/<key>
 * key = sha256(tree commit, patch file hashes, config recipe, compiler, arch).
 */
#ifndef MMB_KBUILD_H
#define MMB_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "karch.h"
#include "util.h"

/* One requested option from a fragment: "CONFIG_X=y" or "# CONFIG_X is not set". */
struct kconf_req {
	char *sym;		/* "CONFIG_X" */
	char *value;		/* "y", "m", "64", "\"str\"", or "n" for not set */
	char *file;		/* fragment it came from (for messages) */
	int line;
	bool optional;		/* after "# mmbench: optional": a drop is a note */
};

struct kconf_reqs {
	struct kconf_req *v;
	size_t nr, alloc;
};

/*
 * Parse a fragment.  Later assignments of a symbol replace earlier ones
 * (Kconfig keeps the last).  Lines that are neither an assignment, a "is
 * not set" line, a comment nor blank are an error: "file:line: why".
 * Requests after a "# mmbench: optional" line are wanted where the kernel
 * has them (options that older or newer kernels lack or gate differently).
 */
int kconf_parse_fragment(struct kconf_reqs *reqs, const char *file, const char *text,
			 char *err, size_t errlen);
void kconf_reqs_release(struct kconf_reqs *reqs);

/* Value of sym in a resolved .config text: malloc'ed "y"/"64"/..., "n" when unset. */
char *kconf_lookup(const char *config_text, const char *sym);

/*
 * Verify every request against the resolved .config.  Appends one line per
 * dropped option to report ("  CONFIG_X=y (frag:3): resolved to not set")
 * and returns how many were dropped; a dropped optional request goes to
 * notes instead (NULL: not reported) and is not counted.
 */
int kconf_verify(const struct kconf_reqs *reqs, const char *config_text, struct strbuf *report,
		 struct strbuf *notes);

struct kbuild_opts {
	const char *tree;		/* user's git work tree */
	const char *ref;		/* default HEAD */
	const char **patches;		/* FILE, DIR, MBOX or a git range A..B */
	size_t npatches;
	const char **fragments;		/* user fragments, after mmbench.config */
	size_t nfragments;
	const char *base_config;	/* defconfig (default), tinyconfig or FILE */
	const char *label;
	const char *db_path;		/* NULL: db_default_path(NULL) */
	const char *cache_dir;		/* NULL: kbuild_cache_dir() */
	const struct karch *arch;	/* --arch; NULL: the host's */
	const char *mmbench_fragment;	/* NULL: configs/kernel/mmbench.config found near the binary */
	int jobs;			/* 0: online CPUs */
	bool no_db;			/* do not record in the DB (tests) */
};

struct kbuild_result {
	char *key;			/* cache key (hex) */
	char *dir;			/* kernels/<key> */
	char *bzimage;			/* the boot image (arm64: Image) */
	char *release;			/* kernelrelease */
	char *base_commit;
	char *patches_json;		/* [{"subject":..,"hash":..},...] */
	char *config_hash;		/* sha256 of the resolved .config */
	char *compiler;
	bool cached;			/* came from the cache */
	double seconds;			/* build wall time (0 when cached) */
};

void kbuild_opts_init(struct kbuild_opts *o);
void kbuild_opts_release(struct kbuild_opts *o);
/*
 * Check `kernel build`'s options as parsed into o (the table is
 * builtin-kernel.c's) and the operands left (none are taken).  Returns 0,
 * or -1 with one message naming the argument (a usage error).
 */
int kbuild_opts_check(const struct kbuild_opts *o, int argc, char **argv);

void kbuild_result_release(struct kbuild_result *r);

/*
 * Build (or find in the cache) the kernel.  Returns 0, -1 on a runtime
 * failure (build error: first compiler error and the log path printed), or
 * MMB_EUSAGE for bad input (a patch that does not apply, a dropped option, an
 * unknown ref): callers exit with 2.
 */
int kbuild_build(const struct kbuild_opts *o, struct kbuild_result *r);

/* $MMBENCH_CACHE, else $XDG_CACHE_HOME/mmbench, else ~/.cache/mmbench. */
const char *kbuild_cache_dir(void);

/*
 * The cache key: sha256 over the tree commit, each patch's content hash in
 * order, the config recipe hash, the compiler version and the arch name.
 */
void kbuild_cache_key(const char *commit, const char *const *patch_hashes, size_t npatches,
		      const char *config_recipe_hash, const char *compiler, const char *arch,
		      char out[65]);

/* A built kernel found by label in the cache. */
struct kernel_entry {
	char *label, *key, *dir, *bzimage, *release, *base_commit, *patches_json,
		*config_hash, *compiler, *built;
	char *recipe;			/* meta's recipe version (none: before version 2) */
	const struct karch *arch;	/* meta's arch (none: x86_64, made before arm64) */
};
int kbuild_find(const char *cache_dir, const char *label, struct kernel_entry *e);
/* Does the .config at path hold this line ("CONFIG_X=y") verbatim? */
bool kconfig_file_has(const char *path, const char *line);
void kernel_entry_release(struct kernel_entry *e);
/* Labels in the cache, sorted (malloc'ed array of malloc'ed strings). */
char **kbuild_labels(const char *cache_dir, size_t *n);
/* Remove the label; the build goes too when no other label points to it. */
int kbuild_remove(const char *cache_dir, const char *label);

/* Check a label is usable as a file name and a DB label. */
int kbuild_label_valid(const char *label, char *err, size_t errlen);
/*
 * A cache folder we may trust: missing, or a folder (its labels/ and
 * kernels/ too) owned by us or root, not world-writable, labels/ and
 * kernels/ no symbolic links.  0, or -1 after saying why.
 */
int kbuild_cache_check(const char *cache);
#define KBUILD_EREFUSED (-3)	/* kbuild_remove(): a bad label or cache (check them first) */

/*
 * Refs reach git as arguments.  A ref names one commit: a commit id, tag
 * or branch name, optionally followed by ~N or ^N steps (v6.12, HEAD~1,
 * v6.12^).  Refused: empty, a leading '-' (git would read an option), and
 * what git reads as other revision syntax: a leading '^' (exclusion:
 * rev-parse --verify takes "^X" and answers "^sha"), "..", ':' (a file, or
 * a search of commit messages), "@{" (the reflog), "^{", "^!", "^@",
 * "^-", '?', '*', '[', '\', spaces and control characters.  0 or -1
 * after an error "WHAT REF: ...".
 */
int kbuild_ref_check(const char *what, const char *ref);
/* A --patch range A..B: both sides refs as kbuild_ref_check() takes them. */
int kbuild_range_check(const char *what, const char *range);

/* Full commit id of REF in TREE (malloc'ed), or NULL with a message. */
char *kbuild_resolve_ref(const char *tree, const char *ref);
/*
 * `git describe --tags --always` of REF in TREE as a label (malloc'ed; the
 * short commit id when nothing describes it), or NULL with a message.
 */
char *kbuild_describe_ref(const char *tree, const char *ref);
/*
 * Subject of the last patch of the series (without "[PATCH n/m]"), for
 * default labels; NULL when there is none.
 */
char *kbuild_series_subject(const struct kbuild_opts *o);
/* A label made from free text: [A-Za-z0-9._+-], at most max characters. */
char *kbuild_label_from_text(const char *text, size_t max);

/* Path of a file shipped with mmbench (configs/kernel/mmbench.config...). */
char *mmb_data_file(const char *rel);

#endif
