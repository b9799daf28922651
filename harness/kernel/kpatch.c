/*
 * Patch series for kernel builds: --patch files, folders and git ranges
 * resolved to files, recorded as JSON, applied with git am (kbuild.h).
 */
#include "kbuild.h"
#include "kbuild-internal.h"
#include "json.h"
#include "kargv.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- patches ---------------------------------------------------------- */

static bool patch_name(const char *n)
{
	if (n[0] == '.' || strstr(n, "0000-cover-letter"))
		return false;
	return ends_with(n, ".patch") || ends_with(n, ".diff") || ends_with(n, ".mbox") ||
	       ends_with(n, ".eml");
}

/*
 * Expand --patch arguments into an ordered list of files.  Ranges become an
 * mbox written with `git format-patch` into the cache.  Returns 0 or MMB_EUSAGE.
 */
int kpatch_resolve(const struct kbuild_opts *o, const char *tree, const char *cache,
			   struct kargv *files)
{
	for (size_t i = 0; i < o->npatches; i++) {
		const char *p = o->patches[i];
		struct stat st;

		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(p);
			struct dirent *de;
			char **names = NULL;
			size_t n = 0, alloc = 0;

			if (!d)
				return error("--patch %s: %s", p, strerror(errno)), MMB_EUSAGE;
			while ((de = readdir(d))) {
				if (!patch_name(de->d_name))
					continue;
				ALLOC_GROW(names, n + 1, alloc);
				names[n++] = xstrdup(de->d_name);
			}
			closedir(d);
			if (!n) {
				free(names);
				return error("--patch %s: no *.patch, *.diff, *.mbox or *.eml files in the directory",
					     p), MMB_EUSAGE;
			}
			qsort(names, n, sizeof(*names), kcache_cmp_str);
			for (size_t k = 0; k < n; k++) {
				char *f = xasprintf("%s/%s", p, names[k]);
				char *abs = realpath(f, NULL);

				kargv_push(files, abs ? abs : f);
				free(abs);
				free(f);
				free(names[k]);
			}
			free(names);
		} else if (stat(p, &st) == 0) {
			char *abs = realpath(p, NULL);

			kargv_push(files, abs ? abs : p);
			free(abs);
		} else if (strstr(p, "..")) {
			struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
			char hex[65], *path, *dir;
			int rc;

			/* "--output=FILE..x" would make format-patch write FILE */
			if (kbuild_range_check("--patch", p))
				return MMB_EUSAGE;
			rc = kbuild_git(tree, &out, &err, "format-patch", "--stdout", "--no-signature",
				 "--end-of-options", p, "--", NULL);

			if (rc || !out.len) {
				error("--patch %s: %s", p,
				      rc ? kbuild_first_line(err.buf) : "the range has no commits");
				strbuf_release(&out);
				strbuf_release(&err);
				return MMB_EUSAGE;
			}
			sha256_hex(out.buf, out.len, hex);
			dir = xasprintf("%s/patches", cache);
			mkdir_p(dir, 0755);
			path = xasprintf("%s/%.16s.mbox", dir, hex);
			if (write_file_atomic(path, out.buf, out.len) < 0)
				error("cannot write %s: %s", path, strerror(errno));
			kargv_push(files, path);
			free(path);
			free(dir);
			strbuf_release(&out);
			strbuf_release(&err);
		} else {
			return error("--patch %s: no such file or directory, and not a git range A..B",
				     p), MMB_EUSAGE;
		}
	}
	return 0;
}

/* [{"subject":..,"hash":..}] of the commits base..HEAD in the work clone. */
char *kpatch_series_json(const char *src, const char *base)
{
	struct strbuf out = STRBUF_INIT, js = STRBUF_INIT;
	char *range = xasprintf("%s..HEAD", base);

	strbuf_addch(&js, '[');
	if (kbuild_git(src, &out, NULL, "log", "--reverse", "--format=%H%x09%s", "--end-of-options",
		range, NULL) == 0) {
		int n = 0;

		for (char *line = strtok(out.buf, "\n"); line; line = strtok(NULL, "\n")) {
			char *tab = strchr(line, '\t');
			struct strbuf diff = STRBUF_INIT;
			char hex[65];

			if (!tab)
				continue;
			*tab = '\0';
			kbuild_git(src, &diff, NULL, "diff-tree", "-p", "--no-commit-id", "--end-of-options",
			    line, NULL);
			sha256_hex(diff.buf ? diff.buf : "", diff.len, hex);
			strbuf_release(&diff);
			if (n++)
				strbuf_addch(&js, ',');
			strbuf_addstr(&js, "{\"subject\":");
			json_add_string(&js, tab + 1);
			strbuf_addf(&js, ",\"hash\":\"%.12s\"}", hex);
		}
	}
	strbuf_addch(&js, ']');
	strbuf_release(&out);
	free(range);
	return strbuf_detach(&js);
}

/*
 * Apply the series one file at a time, so a failure names the file.  On
 * failure: the patch, the failing file:line from git, `git am --abort`.
 */
int kpatch_apply(const char *src, const struct kargv *files, const char *ref)
{
	for (size_t i = 0; i < files->nr; i++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, where = STRBUF_INIT;
		const char *f = files->v[i];
		int rc = kbuild_git(src, &out, &err, "am", "-q", "--no-3way", f, NULL);
		const char *p;

		if (rc == 0) {
			strbuf_release(&out);
			strbuf_release(&err);
			continue;
		}
		for (p = err.buf; p && *p;) {
			const char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);

			if (starts_with(p, "error: patch failed: ") ||
			    (starts_with(p, "error: ") && strstr(p, "does not exist in index")) ||
			    (starts_with(p, "error: ") && strstr(p, "does not apply")) ||
			    starts_with(p, "Patch failed at ")) {
				if (where.len)
					strbuf_addstr(&where, "; ");
				strbuf_add(&where, p, len);
			}
			p = eol ? eol + 1 : NULL;
		}
		if (!where.len) {
			for (p = out.buf; p && *p;) {
				const char *eol = strchr(p, '\n');
				size_t len = eol ? (size_t)(eol - p) : strlen(p);

				if (starts_with(p, "Patch failed at ") || starts_with(p, "error: ")) {
					if (where.len)
						strbuf_addstr(&where, "; ");
					strbuf_add(&where, p, len);
				}
				p = eol ? eol + 1 : NULL;
			}
		}
		error("patch %s does not apply on %s: %s", f, ref,
		      where.len ? where.buf : kbuild_first_line(err.len ? err.buf : out.buf));
		kbuild_git(src, NULL, NULL, "am", "--abort", NULL);
		strbuf_release(&out);
		strbuf_release(&err);
		strbuf_release(&where);
		return MMB_EUSAGE;
	}
	return 0;
}
