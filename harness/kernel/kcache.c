/*
 * The kernel cache: where built kernels live, their meta files, labels as
 * symlinks, and removing them without leaving the cache (kbuild.h).
 */
#include "kbuild.h"
#include "kbuild-internal.h"
#include "proc.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- paths ---------------------------------------------------------- */

const char *kbuild_cache_dir(void)
{
	static char *dir;
	const char *e;

	if (dir)
		return dir;
	if ((e = getenv("MMBENCH_CACHE")) && *e) {
		dir = xstrdup(e);
	} else if ((e = getenv("XDG_CACHE_HOME")) && *e) {
		dir = xasprintf("%s/mmbench", e);
	} else {
		/* without HOME, the home folder of the user, never a shared /tmp */
		const struct passwd *pw = getpwuid(geteuid());

		e = getenv("HOME");
		if (!e || !*e)
			e = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
		dir = e ? xasprintf("%s/.cache/mmbench", e)
			: xasprintf("/tmp/mmbench-cache-%u", (unsigned)geteuid());
	}
	return dir;
}

/*
 * Kernels in the cache are booted and its folders removed with rm -rf: a
 * cache (or one of its labels/ and kernels/ folders) that another user
 * owns or may write could point us anywhere.  Missing is fine (made ours).
 */
int kbuild_cache_check(const char *cache)
{
	static const char *const sub[] = { "", "/labels", "/kernels" };
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sub) && !ret; i++) {
		char *p = xasprintf("%s%s", cache, sub[i]);
		struct stat st;

		if (lstat(p, &st) < 0) {
			if (errno != ENOENT)
				ret = error("kernel cache %s: %s", p, strerror(errno));
		} else if (S_ISLNK(st.st_mode) && i) {
			ret = error("refusing the kernel cache: %s is a symbolic link", p);
		} else if (S_ISLNK(st.st_mode) && stat(p, &st) < 0) {
			/* the cache itself may be a link the user made; its target is checked */
			ret = error("kernel cache %s: %s", p, strerror(errno));
		} else if (!S_ISDIR(st.st_mode)) {
			ret = error("refusing the kernel cache: %s is not a folder", p);
		} else if (st.st_uid != geteuid() && st.st_uid != 0) {
			ret = error("refusing the kernel cache: %s belongs to uid %u, not to you (uid %u) or root; another user could plant kernels or make `kernel rm` remove your files (set MMBENCH_CACHE to a folder of yours)",
				    p, (unsigned)st.st_uid, (unsigned)geteuid());
		} else if (st.st_mode & S_IWOTH) {
			ret = error("refusing the kernel cache: %s is world-writable (mode %04o); another user could plant kernels or links (chmod o-w, or set MMBENCH_CACHE)",
				    p, (unsigned)(st.st_mode & 07777));
		}
		free(p);
	}
	return ret;
}

char *mmb_data_file(const char *rel)
{
	const char *e = getenv("MMBENCH_DATA_DIR");
	char *c[5];
	int n = 0;

	if (e && *e)
		c[n++] = xasprintf("%s/%s", e, rel);
	c[n++] = xasprintf("%s/../%s", exe_dir(), rel);		/* build/mmbench in a checkout */
	c[n++] = xasprintf("%s/%s", exe_dir(), rel);
	/* PREFIX/bin/mmbench: PREFIX/share/mmbench, wherever it was installed */
	c[n++] = xasprintf("%s/../share/mmbench/%s", exe_dir(), rel);
	c[n++] = xasprintf("%s/%s", MMB_DATA_DIR, rel);		/* installed */
	for (int i = 0; i < n; i++) {
		if (access(c[i], R_OK) == 0) {
			char *r = realpath(c[i], NULL);

			for (int j = 0; j < n; j++)
				free(c[j]);
			return r;
		}
	}
	for (int j = 0; j < n; j++)
		free(c[j]);
	return NULL;
}

void kbuild_cache_key(const char *commit, const char *const *patch_hashes, size_t npatches,
		      const char *config_recipe_hash, const char *compiler, const char *arch,
		      char out[65])
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s\ncommit %s\n", KB_RECIPE_VERSION, commit);
	for (size_t i = 0; i < npatches; i++)
		strbuf_addf(&sb, "patch %s\n", patch_hashes[i]);
	strbuf_addf(&sb, "config %s\ncompiler %s\narch %s\n", config_recipe_hash, compiler,
		    arch);
	sha256_hex(sb.buf, sb.len, out);
	strbuf_release(&sb);
}

/* ---- meta files ----------------------------------------------------- */

static char *meta_get(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=')
			return xstrndup(p + kl + 1, len - kl - 1);
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

void kcache_meta_put(struct strbuf *sb, const char *key, const char *value)
{
	strbuf_addf(sb, "%s=", key);
	for (const char *p = value ? value : ""; *p; p++)
		strbuf_addch(sb, *p == '\n' ? ' ' : *p);
	strbuf_addch(sb, '\n');
}

/*
 * The kernel folder labels/LABEL points at (set_label() makes it
 * ../kernels/KEY), resolved, or NULL when it resolves to anything but a
 * folder inside the cache other than labels/ or kernels/ themselves: a
 * link out of the cache is never followed (only removed).
 */
static char *label_target(const char *cache_dir, const char *link)
{
	char *real = realpath(link, NULL), *cache = realpath(cache_dir, NULL);
	size_t n = cache ? strlen(cache) : 0;
	struct stat st;
	bool ok = real && cache && !strncmp(real, cache, n) && real[n] == '/' &&
		  strcmp(real + n, "/labels") && strcmp(real + n, "/kernels") &&
		  !stat(real, &st) && S_ISDIR(st.st_mode);

	free(cache);
	if (!ok) {
		free(real);
		return NULL;
	}
	return real;
}

int kbuild_find(const char *cache_dir, const char *label, struct kernel_entry *e)
{
	struct strbuf meta = STRBUF_INIT;
	char *link, *dir, *path, err[256];

	memset(e, 0, sizeof(*e));
	/* a label is a name in labels/, never a path; the link must be ours */
	if (kbuild_label_valid(label, err, sizeof(err)))
		return -1;
	link = xasprintf("%s/labels/%s", cache_dir, label);
	dir = label_target(cache_dir, link);
	free(link);
	if (!dir)
		return -1;
	path = xasprintf("%s/meta", dir);
	if (strbuf_read_file(&meta, path) < 0) {
		free(path);
		free(dir);
		strbuf_release(&meta);
		return -1;
	}
	free(path);
	e->label = xstrdup(label);
	e->dir = dir;
	e->key = meta_get(meta.buf, "key");
	path = meta_get(meta.buf, "arch");
	e->arch = karch_find(path ? path : "x86_64");
	free(path);
	if (!e->arch) {
		error("%s/meta: an arch this mmbench does not know", dir);
		e->arch = karch_find("x86_64");
	}
	e->bzimage = xasprintf("%s/%s", dir, e->arch->image_name);

	e->release = meta_get(meta.buf, "release");
	e->base_commit = meta_get(meta.buf, "base_commit");
	e->patches_json = meta_get(meta.buf, "patches");
	e->config_hash = meta_get(meta.buf, "config_hash");
	e->compiler = meta_get(meta.buf, "compiler");
	e->built = meta_get(meta.buf, "built");
	e->recipe = meta_get(meta.buf, "recipe");
	strbuf_release(&meta);
	return 0;
}

void kernel_entry_release(struct kernel_entry *e)
{
	free(e->label);
	free(e->key);
	free(e->dir);
	free(e->bzimage);

	free(e->release);
	free(e->base_commit);
	free(e->patches_json);
	free(e->config_hash);
	free(e->compiler);
	free(e->built);
	free(e->recipe);
	memset(e, 0, sizeof(*e));
}

char **kbuild_labels(const char *cache_dir, size_t *n)
{
	char *d = xasprintf("%s/labels", cache_dir);
	DIR *dir = opendir(d);
	char **v = NULL;
	size_t alloc = 0;
	struct dirent *de;

	*n = 0;
	free(d);
	if (!dir)
		return NULL;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(v, *n + 1, alloc);
		v[(*n)++] = xstrdup(de->d_name);
	}
	closedir(dir);
	if (*n)
		qsort(v, *n, sizeof(*v), kcache_cmp_str);
	return v;
}

int kcache_rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", "--", path, NULL };

	return run_argv(argv, NULL, NULL) ? -1 : 0;
}

int kbuild_remove(const char *cache_dir, const char *label)
{
	char err[256];
	char *link, *target;
	size_t n;
	char **labels;
	bool shared = false;
	int ret = 0;
	struct stat st;

	/* the caller said why (kernel rm checks first); this is the last gate */
	if (kbuild_label_valid(label, err, sizeof(err)) || kbuild_cache_check(cache_dir))
		return KBUILD_EREFUSED;
	link = xasprintf("%s/labels/%s", cache_dir, label);
	if (lstat(link, &st) < 0 || !S_ISLNK(st.st_mode)) {
		ret = errno == ENOENT || !S_ISLNK(st.st_mode) ? MMB_EUSAGE : -1;
		free(link);
		return ret;
	}
	target = label_target(cache_dir, link);
	if (unlink(link) < 0) {
		ret = errno == ENOENT ? MMB_EUSAGE : -1;
		free(link);
		free(target);
		return ret;
	}
	free(link);
	labels = kbuild_labels(cache_dir, &n);
	for (size_t i = 0; i < n; i++) {
		char *l = xasprintf("%s/labels/%s", cache_dir, labels[i]);
		char *t = label_target(cache_dir, l);

		if (t && target && !strcmp(t, target))
			shared = true;
		free(t);
		free(l);
		free(labels[i]);
	}
	free(labels);
	if (target && !shared)
		ret = kcache_rm_rf(target);
	free(target);
	return ret;
}
