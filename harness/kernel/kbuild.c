/*
 * Kernel builds for `mmbench kernel build` and `mmbench ab`; see kbuild.h
 * for the cache layout.  Every external tool (git, make) is exec'ed with an
 * argv, never through a shell.
 */
#include "kbuild.h"
#include "db.h"
#include "json.h"
#include "kargv.h"
#include "parse-options.h"
#include "progress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define KB_ARCH "x86_64"
#define KB_RECIPE_VERSION "mmbench-kbuild-1"

/* ---- fragments and .config ---------------------------------------- */

static void kconf_set(struct kconf_reqs *reqs, const char *sym, const char *value,
		      const char *file, int line)
{
	for (size_t i = 0; i < reqs->nr; i++) {
		struct kconf_req *r = &reqs->v[i];

		if (!strcmp(r->sym, sym)) {
			/* Kconfig keeps the last assignment: so do we */
			free(r->value);
			free(r->file);
			r->value = xstrdup(value);
			r->file = xstrdup(file);
			r->line = line;
			return;
		}
	}
	ALLOC_GROW(reqs->v, reqs->nr + 1, reqs->alloc);
	reqs->v[reqs->nr].sym = xstrdup(sym);
	reqs->v[reqs->nr].value = xstrdup(value);
	reqs->v[reqs->nr].file = xstrdup(file);
	reqs->v[reqs->nr].line = line;
	reqs->nr++;
}

static bool sym_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

int kconf_parse_fragment(struct kconf_reqs *reqs, const char *file, const char *text,
			 char *err, size_t errlen)
{
	const char *p = text;
	int lineno = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xstrndup(p, len), *s = strtrim(line);

		lineno++;
		p += len + (eol ? 1 : 0);
		if (starts_with(s, "# CONFIG_") && ends_with(s, " is not set")) {
			char *sym = s + 2, *end = sym;

			while (sym_char(*end))
				end++;
			if (strcmp(end, " is not set") || end == sym + 7) {
				snprintf(err, errlen, "%s:%d: malformed '# CONFIG_X is not set' line",
					 file, lineno);
				free(line);
				return -1;
			}
			*end = '\0';
			kconf_set(reqs, sym, "n", file, lineno);
		} else if (!*s || *s == '#') {
			/* comment or blank */
		} else if (starts_with(s, "CONFIG_")) {
			char *eq = strchr(s, '='), *q;

			for (q = s; q < (eq ? eq : s + strlen(s)); q++)
				if (!sym_char(*q))
					break;
			if (!eq || q != eq || eq == s + 7 || !eq[1]) {
				snprintf(err, errlen, "%s:%d:%d: expected CONFIG_NAME=VALUE", file,
					 lineno, (int)((eq ? q : s) - s) + 1);
				free(line);
				return -1;
			}
			*eq = '\0';
			kconf_set(reqs, s, eq + 1, file, lineno);
		} else {
			snprintf(err, errlen,
				 "%s:%d:1: not a config line (expected CONFIG_NAME=VALUE or "
				 "'# CONFIG_NAME is not set')", file, lineno);
			free(line);
			return -1;
		}
		free(line);
	}
	return 0;
}

void kconf_reqs_release(struct kconf_reqs *reqs)
{
	for (size_t i = 0; i < reqs->nr; i++) {
		free(reqs->v[i].sym);
		free(reqs->v[i].value);
		free(reqs->v[i].file);
	}
	free(reqs->v);
	reqs->v = NULL;
	reqs->nr = reqs->alloc = 0;
}

char *kconf_lookup(const char *config_text, const char *sym)
{
	size_t sl = strlen(sym);
	const char *p = config_text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > sl && !strncmp(p, sym, sl) && p[sl] == '=') {
			const char *v = p + sl + 1;
			size_t vl = len - sl - 1;

			if (vl == 1 && *v == 'n')
				break;
			return xstrndup(v, vl);
		}
		p = eol ? eol + 1 : NULL;
	}
	return xstrdup("n");
}

int kconf_verify(const struct kconf_reqs *reqs, const char *config_text, struct strbuf *report)
{
	int dropped = 0;

	for (size_t i = 0; i < reqs->nr; i++) {
		const struct kconf_req *r = &reqs->v[i];
		char *got = kconf_lookup(config_text, r->sym);

		if (strcmp(got, r->value)) {
			if (!strcmp(r->value, "n"))
				strbuf_addf(report, "  # %s is not set (%s:%d): resolved to %s=%s\n",
					    r->sym, r->file, r->line, r->sym, got);
			else if (!strcmp(got, "n"))
				strbuf_addf(report, "  %s=%s (%s:%d): resolved to not set\n",
					    r->sym, r->value, r->file, r->line);
			else
				strbuf_addf(report, "  %s=%s (%s:%d): resolved to %s=%s\n",
					    r->sym, r->value, r->file, r->line, r->sym, got);
			dropped++;
		}
		free(got);
	}
	return dropped;
}

/* ---- options -------------------------------------------------------- */

void kbuild_opts_init(struct kbuild_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ref = "HEAD";
	o->base_config = "defconfig";
}

void kbuild_opts_release(struct kbuild_opts *o)
{
	free(o->patches);
	free(o->fragments);
	o->patches = o->fragments = NULL;
	o->npatches = o->nfragments = 0;
}

int kbuild_label_valid(const char *label, char *err, size_t errlen)
{
	char *esc;

	if (!label || !*label) {
		snprintf(err, errlen, "'': empty kernel label");
		return -1;
	}
	esc = ctl_escape(label);
	if (strlen(label) > 100 || label[0] == '.' || label[0] == '-') {
		snprintf(err, errlen, "'%s': must be 1-100 characters, not starting with '.' or '-'",
			 esc);
		free(esc);
		return -1;
	}
	for (const char *p = label; *p; p++) {
		if (sym_char(*p) || *p == '.' || *p == '-' || *p == '+' || *p == '@' || *p == ':')
			continue;
		if (*p >= 0x20 && *p < 0x7f)
			snprintf(err, errlen, "'%s': character '%c' not allowed (use letters, digits and . - _ + @ :)",
				 esc, *p);
		else
			snprintf(err, errlen, "'%s': byte 0x%02x not allowed (use letters, digits and . - _ + @ :)",
				 esc, (unsigned char)*p);
		free(esc);
		return -1;
	}
	free(esc);
	return 0;
}

int kbuild_opts_parse(struct kbuild_opts *o, int argc, char **argv)
{
	const struct option opts[] = {
		OPT_STRING(0, "tree", &o->tree, "DIR", "git work tree of the kernel"),
		OPT_STRING(0, "ref", &o->ref, "REF", "commit, tag or branch to build"),
		OPT_LIST(0, "patch", &o->patches, &o->npatches, "P", "a patch series"),
		OPT_LIST(0, "config", &o->fragments, &o->nfragments, "FRAG", "a config fragment"),
		OPT_STRING(0, "base-config", &o->base_config, "B",
			   "defconfig, tinyconfig or a config file"),
		OPT_STRING(0, "name", &o->label, "LABEL", "the kernel's label"),
		OPT_STRING(0, "db", &o->db_path, "FILE", "results database"),
		OPT_STRING(0, "cache", &o->cache_dir, "DIR", "kernel cache"),
		OPT_INT_RANGE('j', "jobs", &o->jobs, 1, 4096, "N", "parallel make jobs"),
		OPT_END(),
	};
	char err[512];
	int n = parse_options(argc, argv, opts, "kernel build", "", 0);

	if (n < 0)
		return -1;
	if (n)
		return error("kernel build: %s: unknown argument", argv[0]);
	if (!o->tree)
		return error("kernel build: --tree DIR is required");
	if (!o->label)
		return error("kernel build: --name LABEL is required");
	if (!*o->ref)
		return error("kernel build: --ref: empty");
	if (o->ref[0] == '-')
		return error("kernel build: --ref %s: a git ref cannot start with '-' (git would read it as an option)",
			     o->ref);
	for (size_t i = 0; i < o->npatches; i++)
		/* not a file, so a range: refused here, before anything runs */
		if (o->patches[i][0] == '-' && access(o->patches[i], F_OK) < 0)
			return error("kernel build: --patch %s: a git ref cannot start with '-' (git would read it as an option)",
				     o->patches[i]);
	if (strcmp(o->base_config, "defconfig") && strcmp(o->base_config, "tinyconfig") &&
	    access(o->base_config, R_OK) < 0)
		return error("kernel build: --base-config '%s': not defconfig, tinyconfig or a readable file",
			     o->base_config);
	if (kbuild_label_valid(o->label, err, sizeof(err)))
		return error("kernel build: --name %s", err);
	return 0;
}

void kbuild_result_release(struct kbuild_result *r)
{
	free(r->key);
	free(r->dir);
	free(r->bzimage);
	free(r->release);
	free(r->base_commit);
	free(r->patches_json);
	free(r->config_hash);
	free(r->compiler);
	memset(r, 0, sizeof(*r));
}

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
	char *c[4];
	int n = 0;

	if (e && *e)
		c[n++] = xasprintf("%s/%s", e, rel);
	c[n++] = xasprintf("%s/../%s", exe_dir(), rel);		/* build/mmbench in a checkout */
	c[n++] = xasprintf("%s/%s", exe_dir(), rel);
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
		      const char *config_recipe_hash, const char *compiler, char out[65])
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s\ncommit %s\n", KB_RECIPE_VERSION, commit);
	for (size_t i = 0; i < npatches; i++)
		strbuf_addf(&sb, "patch %s\n", patch_hashes[i]);
	strbuf_addf(&sb, "config %s\ncompiler %s\narch %s\n", config_recipe_hash, compiler,
		    KB_ARCH);
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

static void meta_put(struct strbuf *sb, const char *key, const char *value)
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
	e->bzimage = xasprintf("%s/bzImage", dir);
	e->release = meta_get(meta.buf, "release");
	e->base_commit = meta_get(meta.buf, "base_commit");
	e->patches_json = meta_get(meta.buf, "patches");
	e->config_hash = meta_get(meta.buf, "config_hash");
	e->compiler = meta_get(meta.buf, "compiler");
	e->built = meta_get(meta.buf, "built");
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
	memset(e, 0, sizeof(*e));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static int rm_rf(const char *path)
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
		ret = rm_rf(target);
	free(target);
	return ret;
}

/* ---- running tools --------------------------------------------------- */

static const char *const git_env[] = {
	"GIT_COMMITTER_NAME=mmbench", "GIT_COMMITTER_EMAIL=mmbench@localhost",
	"GIT_COMMITTER_DATE=1700000000 +0000", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", NULL,
};

static int git(const char *dir, struct strbuf *out, struct strbuf *err, ...)
{
	struct kargv a = KARGV_INIT;
	const char *s;
	va_list ap;
	int rc;

	kargv_push(&a, "git");
	kargv_push(&a, "-C");
	kargv_push(&a, dir);
	va_start(ap, err);
	while ((s = va_arg(ap, const char *)))
		kargv_push(&a, s);
	va_end(ap);
	rc = run_argv_dir((const char *const *)a.v, NULL, git_env, out, err);
	kargv_release(&a);
	return rc;
}

int kbuild_ref_check(const char *what, const char *ref)
{
	if (!ref || !*ref)
		return error("%s: an empty git ref", what);
	if (ref[0] == '-')
		return error("%s %s: a git ref cannot start with '-' (git would read it as an option)",
			     what, ref);
	return 0;
}

/* First line of a buffer (static, for messages). */
static const char *first_line(const char *s)
{
	static char buf[512];
	size_t n;

	s = s ? s : "";
	while (*s == '\n')
		s++;
	n = strcspn(s, "\n");
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Run make with output appended to the log.  On a terminal a status line
 * shows the elapsed time.
 */
static int run_logged(struct kargv *a, const char *logpath, const char *what)
{
	int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	uint64_t t0 = now_ns();
	pid_t pid;
	int status;

	if (fd < 0)
		return error("cannot write %s: %s", logpath, strerror(errno));
	{
		char *line = kargv_join(a);

		dprintf(fd, "$ %s\n", line);
		free(line);
	}
	fflush(stdout);
	fflush(stderr);
	pid_t self = getpid();
	pid = fork();
	if (pid < 0) {
		close(fd);
		return error("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		/* in its own group ^C reaches only us; when we die make gets SIGTERM and stops its jobs */
		die_with_parent(self);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setpgid(0, 0);
		for (const char *const *e = git_env; *e; e++)
			putenv((char *)*e);
		execvp(a->v[0], a->v);
		fprintf(stderr, "cannot run %s: %s\n", a->v[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		if (progress_enabled())
			progress_update("%s: %.0fs", what, (now_ns() - t0) / 1e9);
		usleep(250000);
	}
	if (progress_enabled())
		progress_clear();
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first compiler/linker/make error in a build log. */
static char *first_build_error(const char *logpath)
{
	struct strbuf log = STRBUF_INIT;
	char *res = NULL;
	const char *pats[] = { ": error:", ": fatal error:", "undefined reference", "*** ", NULL };

	if (strbuf_read_file(&log, logpath) < 0)
		return NULL;
	for (int k = 0; pats[k] && !res; k++) {
		const char *hit = strstr(log.buf, pats[k]);

		if (hit) {
			const char *bol = hit;

			while (bol > log.buf && bol[-1] != '\n')
				bol--;
			res = xstrdup(first_line(bol));
		}
	}
	strbuf_release(&log);
	return res;
}

/* The build's own outputs into the cache: streamed (no cap), the source's mode kept. */
static int copy_file(const char *from, const char *to)
{
	if (copy_file_capped(from, to, SIZE_MAX) == 0)
		return 0;
	return error("cannot copy %s to %s: %s", from, to, strerror(errno));
}

static char *file_hash(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[65];

	if (read_file_capped(&sb, path, MMB_CAP_PATCH) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	sha256_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

static char *compiler_version(void)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { "gcc", "--version", NULL };
	char *v;

	if (run_argv(argv, &out, NULL) != 0) {
		strbuf_release(&out);
		return xstrdup("unknown");
	}
	v = xstrdup(first_line(out.buf));
	strbuf_release(&out);
	return v;
}

static bool have_ccache(void)
{
	const char *argv[] = { "ccache", "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	int rc;

	if (getenv("MMBENCH_NO_CCACHE"))
		return false;
	rc = run_argv(argv, &out, NULL);
	strbuf_release(&out);
	return rc == 0;
}

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
static int resolve_patches(const struct kbuild_opts *o, const char *tree, const char *cache,
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
			qsort(names, n, sizeof(*names), cmp_str);
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
			if (kbuild_ref_check("--patch", p))
				return MMB_EUSAGE;
			rc = git(tree, &out, &err, "format-patch", "--stdout", "--no-signature",
				 "--end-of-options", p, "--", NULL);

			if (rc || !out.len) {
				error("--patch %s: %s", p,
				      rc ? first_line(err.buf) : "the range has no commits");
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
static char *series_json(const char *src, const char *base)
{
	struct strbuf out = STRBUF_INIT, js = STRBUF_INIT;
	char *range = xasprintf("%s..HEAD", base);

	strbuf_addch(&js, '[');
	if (git(src, &out, NULL, "log", "--reverse", "--format=%H%x09%s", "--end-of-options",
		range, NULL) == 0) {
		int n = 0;

		for (char *line = strtok(out.buf, "\n"); line; line = strtok(NULL, "\n")) {
			char *tab = strchr(line, '\t');
			struct strbuf diff = STRBUF_INIT;
			char hex[65];

			if (!tab)
				continue;
			*tab = '\0';
			git(src, &diff, NULL, "diff-tree", "-p", "--no-commit-id", "--end-of-options",
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
static int apply_series(const char *src, const struct kargv *files, const char *ref)
{
	for (size_t i = 0; i < files->nr; i++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, where = STRBUF_INIT;
		const char *f = files->v[i];
		int rc = git(src, &out, &err, "am", "-q", "--no-3way", f, NULL);
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
		      where.len ? where.buf : first_line(err.len ? err.buf : out.buf));
		git(src, NULL, NULL, "am", "--abort", NULL);
		strbuf_release(&out);
		strbuf_release(&err);
		strbuf_release(&where);
		return MMB_EUSAGE;
	}
	return 0;
}

/* ---- the build ---------------------------------------------------------- */

static int record_in_db(const struct kbuild_opts *o, const struct kbuild_result *r)
{
	struct mmb_db db;
	struct kernel_info k = {
		.label = o->label,
		.release = r->release,
		.config_hash = r->config_hash,
		.base_commit = r->base_commit,
		.patches = r->patches_json,
		.compiler = r->compiler,
	};
	int64_t id;

	if (o->no_db)
		return 0;
	if (db_open(&db, db_default_path(o->db_path)))
		return -1;
	id = db_kernel_upsert(&db, &k);
	db_close(&db);
	return id > 0 ? 0 : -1;
}

static void result_from_entry(struct kbuild_result *r, struct kernel_entry *e)
{
	r->key = e->key ? xstrdup(e->key) : NULL;
	r->dir = xstrdup(e->dir);
	r->bzimage = xstrdup(e->bzimage);
	r->release = e->release ? xstrdup(e->release) : NULL;
	r->base_commit = e->base_commit ? xstrdup(e->base_commit) : NULL;
	r->patches_json = e->patches_json ? xstrdup(e->patches_json) : xstrdup("[]");
	r->config_hash = e->config_hash ? xstrdup(e->config_hash) : NULL;
	r->compiler = e->compiler ? xstrdup(e->compiler) : NULL;
}

/* Point labels/<label> at kernels/<key>; refuse to re-point a label. */
static int set_label(const char *cache, const char *label, const char *key)
{
	char *dir = xasprintf("%s/labels", cache);
	char *link = xasprintf("%s/%s", dir, label);
	char *target = xasprintf("../kernels/%s", key);
	char cur[PATH_MAX];
	ssize_t n;
	int ret = 0;

	mkdir_p(dir, 0755);
	n = readlink(link, cur, sizeof(cur) - 1);
	if (n >= 0) {
		cur[n] = '\0';
		if (strcmp(cur, target))
			ret = MMB_EUSAGE;
	} else if (symlink(target, link) < 0) {
		ret = error("cannot create %s: %s", link, strerror(errno));
	}
	free(dir);
	free(link);
	free(target);
	return ret;
}

static int label_conflict(const char *cache, const char *label, const char *key)
{
	char *link = xasprintf("%s/labels/%s", cache, label);
	char cur[PATH_MAX];
	ssize_t n = readlink(link, cur, sizeof(cur) - 1);
	int ret = 0;

	if (n >= 0) {
		cur[n] = '\0';
		if (!ends_with(cur, key)) {
			error("kernel label '%s' already names another build (%s); use another --name "
			      "or `mmbench kernel rm %s`", label, cur, label);
			ret = MMB_EUSAGE;
		}
	}
	free(link);
	return ret;
}

static void path_set(char **p, char *v)
{
	free(*p);
	*p = v;
}

/* dirname of a path in a static buffer */
static const char *xstrdup_tmp_dirname(const char *p)
{
	static char buf[PATH_MAX];
	char *slash;

	snprintf(buf, sizeof(buf), "%s", p);
	slash = strrchr(buf, '/');
	if (slash && slash != buf)
		*slash = '\0';
	return buf;
}

/* One kernel build's state, shared by its phases (kbuild_build). */
struct kb {
	const struct kbuild_opts *o;
	struct kbuild_result *r;
	const char *cache;
	struct strbuf out, err, recipe, report, cfg, meta, basecfg;
	mode_t basemode;
	struct kargv files, frags, mk;
	struct kconf_reqs reqs;
	char *tree, *commit, *mmfrag, *compiler;
	char **phash;
	char key[65], hex[65], treeid[65], errbuf[512];
	char *src, *obj, *kdir, *tmpdir, *logdir, *log, *lockpath, *path, *rev;
	int lockfd;
	uint64_t t0;
	struct kernel_entry e;
};

static void kb_release(struct kb *k)
{
	strbuf_release(&k->out);
	strbuf_release(&k->err);
	strbuf_release(&k->recipe);
	strbuf_release(&k->basecfg);
	strbuf_release(&k->report);
	strbuf_release(&k->cfg);
	strbuf_release(&k->meta);
	kargv_release(&k->files);
	kargv_release(&k->frags);
	kargv_release(&k->mk);
	kconf_reqs_release(&k->reqs);
	if (k->phash)
		for (size_t i = 0; k->phash[i]; i++)
			free(k->phash[i]);
	free(k->phash);
	free(k->tree);
	free(k->commit);
	free(k->mmfrag);
	free(k->compiler);
	free(k->src);
	free(k->obj);
	free(k->kdir);
	free(k->tmpdir);
	free(k->logdir);
	free(k->log);
	free(k->lockpath);
	free(k->path);
	free(k->rev);
	if (k->lockfd >= 0)
		close(k->lockfd);
}

/* the tree's commit and the patches' hashes */
static int kb_inputs(struct kb *k)
{
	int ret = -1;

	/* inputs: tree commit, patches, config recipe, compiler */
	k->tree = realpath(k->o->tree, NULL);
	if (!k->tree) {
		error("--tree %s: %s", k->o->tree, strerror(errno));
		return MMB_EUSAGE;
	}
	k->rev = xasprintf("%s^{commit}", k->o->ref);
	if (git(k->tree, &k->out, &k->err, "rev-parse", "--verify", "--quiet", "--end-of-options", k->rev,
		NULL) != 0) {
		error("--ref %s: not a commit in %s%s%s", k->o->ref, k->tree, k->err.len ? ": " : "",
		      k->err.len ? first_line(k->err.buf) : "");
		return MMB_EUSAGE;
	}
	k->commit = xstrdup(strtrim(k->out.buf));
	if ((ret = resolve_patches(k->o, k->tree, k->cache, &k->files)) < 0)
		return ret;
	ret = -1;
	k->phash = xcalloc(k->files.nr + 1, sizeof(*k->phash));
	for (size_t i = 0; i < k->files.nr; i++) {
		k->phash[i] = file_hash(k->files.v[i]);
		if (!k->phash[i]) {
			char c[32];

			if (errno == EFBIG)
				error("--patch %s: larger than %s, the limit for a patch file", k->files.v[i],
				      cap_str(MMB_CAP_PATCH, c));
			else
				error("--patch %s: %s", k->files.v[i], strerror(errno));
			return MMB_EUSAGE;
		}
	}
	return 0;
}

/* the config recipe (base, fragments) and the cache key */
static int kb_recipe(struct kb *k)
{
	int ret = -1;

	k->mmfrag = k->o->mmbench_fragment ? xstrdup(k->o->mmbench_fragment)
				     : mmb_data_file("configs/kernel/mmbench.config");
	if (!k->mmfrag) {
		error("configs/kernel/mmbench.config not found (set MMBENCH_DATA_DIR)");
		return ret;
	}
	kargv_push(&k->frags, k->mmfrag);
	for (size_t i = 0; i < k->o->nfragments; i++)
		kargv_push(&k->frags, k->o->fragments[i]);
	strbuf_addf(&k->recipe, "base %s\n", k->o->base_config);
	if (strcmp(k->o->base_config, "defconfig") && strcmp(k->o->base_config, "tinyconfig")) {
		/* read once: a pipe (<(...)) cannot be read again for the copy */
		if (read_input_mode(&k->basecfg, k->o->base_config, MMB_CAP_BASE_CONFIG,
				    "a base config (--base-config)", &k->basemode) < 0)
			return MMB_EUSAGE;
		strbuf_add(&k->recipe, k->basecfg.buf, k->basecfg.len);
	}
	for (size_t i = 0; i < k->frags.nr; i++) {
		size_t before = k->cfg.len;

		if (read_input(&k->cfg, k->frags.v[i], MMB_CAP_FRAGMENT,
			       "a kernel config fragment (--config)") < 0)
			return MMB_EUSAGE;
		if (kconf_parse_fragment(&k->reqs, k->frags.v[i], k->cfg.buf + before, k->errbuf,
					 sizeof(k->errbuf))) {
			error("%s", k->errbuf);
			return MMB_EUSAGE;
		}
		if (k->cfg.len && k->cfg.buf[k->cfg.len - 1] != '\n')
			strbuf_addch(&k->cfg, '\n');
		strbuf_addf(&k->recipe, "fragment\n%s", k->cfg.buf + before);
	}
	sha256_hex(k->recipe.buf, k->recipe.len, k->hex);
	k->compiler = compiler_version();
	kbuild_cache_key(k->commit, (const char *const *)k->phash, k->files.nr, k->hex, k->compiler, k->key);
	return 0;
}

/* a private clone at the commit, the series applied */
static int kb_checkout(struct kb *k)
{
	int ret = -1;

	/* a private clone of the tree: the user's work tree is never touched */
	sha256_hex(k->tree, strlen(k->tree), k->treeid);
	k->treeid[16] = '\0';
	k->src = xasprintf("%s/src/%s", k->cache, k->treeid);
	k->lockpath = xasprintf("%s/src/%s.lock", k->cache, k->treeid);
	k->logdir = xasprintf("%s/logs", k->cache);
	if (mkdir_p(k->logdir, 0755) || mkdir_p(xstrdup_tmp_dirname(k->src), 0755)) {
		error("cannot create %s: %s", k->cache, strerror(errno));
		return ret;
	}
	k->lockfd = open(k->lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (k->lockfd < 0 || flock(k->lockfd, LOCK_EX) < 0) {
		error("cannot lock %s: %s", k->lockpath, strerror(errno));
		return ret;
	}
	path_set(&k->path, xasprintf("%s/.git", k->src));
	if (access(k->path, F_OK) < 0) {
		info("kernel: cloning %s (shared, no checkout) into %s", k->tree, k->src);
		strbuf_reset(&k->err);
		if (git(k->cache, NULL, &k->err, "clone", "-q", "--shared", "--no-checkout", "--", k->tree,
			k->src, NULL)) {
			error("git clone --shared %s: %s", k->tree, first_line(k->err.buf));
			return ret;
		}
	}
	path_set(&k->path, xasprintf("%s/.git/rebase-apply", k->src));
	if (access(k->path, F_OK) == 0)
		git(k->src, NULL, NULL, "am", "--abort", NULL);
	strbuf_reset(&k->err);
	if (git(k->src, NULL, &k->err, "checkout", "-q", "-f", "--detach", k->commit, NULL)) {
		error("git checkout %s in %s: %s", k->commit, k->src, first_line(k->err.buf));
		return ret;
	}
	if ((ret = apply_series(k->src, &k->files, k->o->ref)) < 0)
		return ret;
	ret = -1;
	k->r->patches_json = series_json(k->src, k->commit);
	return 0;
}

/* configure out of tree; 0, -1, or MMB_EUSAGE when Kconfig dropped what was asked */
static int kb_configure(struct kb *k)
{
	int ret = -1, rc;

	/* configure out of tree: base, fragments appended, olddefconfig, verify */
	/*
	 * One build dir per tree: a different config or series reconfigures it
	 * and Kbuild rebuilds only what changed (and ccache helps further).
	 */
	k->obj = xasprintf("%s/obj/%s-" KB_ARCH, k->cache, k->treeid);
	if (mkdir_p(k->obj, 0755)) {
		error("cannot create %s: %s", k->obj, strerror(errno));
		return ret;
	}
	k->log = xasprintf("%s/%s-%.12s.build.log", k->logdir, k->o->label, k->key);
	unlink(k->log);
	kargv_push(&k->mk, "make");
	kargv_push(&k->mk, "-C");
	kargv_push(&k->mk, k->src);
	kargv_pushf(&k->mk, "O=%s", k->obj);
	kargv_push(&k->mk, "ARCH=" KB_ARCH);
	if (have_ccache())
		kargv_push(&k->mk, "CC=ccache gcc");
	kargv_pushf(&k->mk, "LOCALVERSION=-mmb%.8s", k->key);
	kargv_push(&k->mk, "KBUILD_BUILD_USER=mmbench");
	kargv_push(&k->mk, "KBUILD_BUILD_HOST=mmbench");
	kargv_push(&k->mk, "KBUILD_BUILD_TIMESTAMP=2024-01-01");
	{
		size_t base_nr = k->mk.nr;
		char *dotconfig = xasprintf("%s/.config", k->obj);
		char *marker = xasprintf("%s/.mmbench-recipe", k->obj);
		char cur[80] = "";
		int fd;

		/*
		 * The same recipe as the last configure in this build dir: the
		 * .config is already what olddefconfig makes of it, skip the
		 * (slow) base config + olddefconfig.  Verified below anyway.
		 */
		if (read_line_file(marker, cur, sizeof(cur)) > 0 && !strcmp(cur, k->hex) &&
		    access(dotconfig, R_OK) == 0) {
			info("kernel: config recipe unchanged, reusing %s", dotconfig);
			goto configured;
		}
		unlink(marker);

		if (!strcmp(k->o->base_config, "defconfig") || !strcmp(k->o->base_config, "tinyconfig")) {
			kargv_push(&k->mk, k->o->base_config);
			rc = run_logged(&k->mk, k->log, "kernel: configuring");
		} else {
			/* the source's mode: a 0640 secret is not made readable to all */
			rc = write_file_atomic_mode(dotconfig, k->basecfg.buf, k->basecfg.len, k->basemode);
			if (rc)
				error("cannot write %s: %s", dotconfig, strerror(errno));
		}
		kargv_truncate(&k->mk, base_nr);
		if (rc) {
			error("kernel: %s failed; log: %s", k->o->base_config, k->log);
			free(dotconfig);
			free(marker);
			return -1;
		}
		fd = open(dotconfig, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 || write(fd, k->cfg.buf, k->cfg.len) != (ssize_t)k->cfg.len || close(fd) < 0) {
			error("cannot append fragments to %s: %s", dotconfig, strerror(errno));
			free(dotconfig);
			free(marker);
			return -1;
		}
		kargv_push(&k->mk, "olddefconfig");
		rc = run_logged(&k->mk, k->log, "kernel: configuring");
		kargv_truncate(&k->mk, base_nr);
		if (rc) {
			error("kernel: make olddefconfig failed; log: %s", k->log);
			free(dotconfig);
			free(marker);
			return -1;
		}
configured:
		strbuf_reset(&k->out);
		if (strbuf_read_file(&k->out, dotconfig) < 0) {
			error("cannot read %s: %s", dotconfig, strerror(errno));
			free(dotconfig);
			free(marker);
			return -1;
		}
		if (kconf_verify(&k->reqs, k->out.buf, &k->report)) {
			error("Kconfig dropped options the fragments ask for (unmet dependencies?); "
			      "resolved config: %s\n%s", dotconfig, k->report.buf);
			free(dotconfig);
			free(marker);
			return MMB_EUSAGE;
		}
		write_file_atomic(marker, k->hex, strlen(k->hex));
		free(marker);
		sha256_hex(k->out.buf, k->out.len, k->hex);
		k->r->config_hash = xstrdup(k->hex);
		free(dotconfig);
	}
	return 0;
}

/* make bzImage, then ask its release */
static int kb_make(struct kb *k)
{
	int rc;

	/* build */
	kargv_pushf(&k->mk, "-j%d", k->o->jobs > 0 ? k->o->jobs : online_cpus());
	kargv_push(&k->mk, "bzImage");
	info("kernel: building %s (log: %s)", k->o->label, k->log);
	rc = run_logged(&k->mk, k->log, "kernel: building");
	if (rc) {
		char *first = first_build_error(k->log);

		error("kernel build of '%s' failed%s%s; log: %s", k->o->label, first ? ": " : "",
		      first ? first : "", k->log);
		free(first);
		return -1;
	}
	kargv_truncate(&k->mk, k->mk.nr - 2);
	kargv_push(&k->mk, "-s");
	kargv_push(&k->mk, "kernelrelease");
	strbuf_reset(&k->out);
	if (run_argv_dir((const char *const *)k->mk.v, NULL, NULL, &k->out, NULL) != 0) {
		error("make kernelrelease failed");
		return -1;
	}
	k->r->release = xstrdup(strtrim(k->out.buf));
	k->r->base_commit = xstrdup(k->commit);
	k->r->compiler = xstrdup(k->compiler);
	k->r->key = xstrdup(k->key);
	k->r->seconds = (now_ns() - k->t0) / 1e9;
	return 0;
}

/* publish kernels/<key> atomically and label it */
static int kb_publish(struct kb *k)
{
	int rc;

	/* publish kernels/<key> atomically */
	k->tmpdir = xasprintf("%s.tmp%d", k->kdir, (int)getpid());
	rm_rf(k->tmpdir);
	if (mkdir_p(k->tmpdir, 0755)) {
		error("cannot create %s: %s", k->tmpdir, strerror(errno));
		return -1;
	}
	path_set(&k->path, xasprintf("%s/arch/x86/boot/bzImage", k->obj));
	{
		char *dst = xasprintf("%s/bzImage", k->tmpdir);
		char *cfgsrc = xasprintf("%s/.config", k->obj), *cfgdst = xasprintf("%s/config", k->tmpdir);
		char *logdst = xasprintf("%s/build.log", k->tmpdir);

		rc = copy_file(k->path, dst) || copy_file(cfgsrc, cfgdst) || copy_file(k->log, logdst);
		free(dst);
		free(cfgsrc);
		free(cfgdst);
		free(logdst);
		if (rc)
			return -1;
	}
	meta_put(&k->meta, "key", k->key);
	meta_put(&k->meta, "label", k->o->label);
	meta_put(&k->meta, "release", k->r->release);
	meta_put(&k->meta, "tree", k->tree);
	meta_put(&k->meta, "ref", k->o->ref);
	meta_put(&k->meta, "base_commit", k->commit);
	meta_put(&k->meta, "patches", k->r->patches_json);
	meta_put(&k->meta, "base_config", k->o->base_config);
	meta_put(&k->meta, "config_hash", k->r->config_hash);
	meta_put(&k->meta, "compiler", k->compiler);
	{
		char secs[32], when[32];

		snprintf(secs, sizeof(secs), "%.1f", k->r->seconds);
		snprintf(when, sizeof(when), "%.0f", now_wall());
		meta_put(&k->meta, "build_seconds", secs);
		meta_put(&k->meta, "built", when);
	}
	path_set(&k->path, xasprintf("%s/meta", k->tmpdir));
	if (write_file_atomic(k->path, k->meta.buf, k->meta.len) < 0) {
		error("cannot write %s: %s", k->path, strerror(errno));
		return -1;
	}
	rm_rf(k->kdir);
	if (rename(k->tmpdir, k->kdir) < 0) {
		error("cannot rename %s: %s", k->tmpdir, strerror(errno));
		return -1;
	}
	k->r->dir = xstrdup(k->kdir);
	k->r->bzimage = xasprintf("%s/bzImage", k->kdir);
	if (set_label(k->cache, k->o->label, k->key) < 0) {
		error("label '%s' is taken", k->o->label);
		return -1;
	}
	return 0;
}

int kbuild_build(const struct kbuild_opts *o, struct kbuild_result *r)
{
	struct kb kb = {
		.o = o, .r = r, .cache = o->cache_dir ? o->cache_dir : kbuild_cache_dir(),
		.out = STRBUF_INIT, .err = STRBUF_INIT, .recipe = STRBUF_INIT,
		.report = STRBUF_INIT, .cfg = STRBUF_INIT, .meta = STRBUF_INIT,
		.basecfg = STRBUF_INIT, .basemode = 0600, .files = KARGV_INIT, .frags = KARGV_INIT,
		.mk = KARGV_INIT, .lockfd = -1, .t0 = now_ns(),
	}, *k = &kb;
	int ret;

	memset(r, 0, sizeof(*r));
	if (kbuild_label_valid(o->label, k->errbuf, sizeof(k->errbuf)))
		return error("--name %s", k->errbuf), MMB_EUSAGE;
	if (kbuild_ref_check("--ref", o->ref))
		return MMB_EUSAGE;
	if (kbuild_cache_check(k->cache))
		return -1;
	if ((ret = kb_inputs(k)) || (ret = kb_recipe(k)) ||
	    (ret = label_conflict(k->cache, o->label, k->key)) < 0)
		goto out;
	ret = -1;
	/* cached? */
	k->kdir = xasprintf("%s/kernels/%s", k->cache, k->key);
	k->path = xasprintf("%s/meta", k->kdir);
	if (access(k->path, R_OK) == 0) {
		if (set_label(k->cache, o->label, k->key) < 0)
			goto out;
		if (kbuild_find(k->cache, o->label, &k->e) == 0) {
			result_from_entry(r, &k->e);
			kernel_entry_release(&k->e);
			r->cached = true;
			ret = record_in_db(o, r);
			goto out;
		}
	}
	if ((ret = kb_checkout(k)) || (ret = kb_configure(k)) || (ret = kb_make(k)) ||
	    (ret = kb_publish(k)))
		goto out;
	ret = record_in_db(o, r);
out:
	kb_release(k);
	return ret;
}

char *kbuild_resolve_ref(const char *tree, const char *ref)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *rev, *sha = NULL;

	if (kbuild_ref_check("--ref", ref))
		return NULL;
	rev = xasprintf("%s^{commit}", ref);
	if (git(tree, &out, &err, "rev-parse", "--verify", "--quiet", "--end-of-options", rev,
		NULL) == 0)
		sha = xstrdup(strtrim(out.buf));
	else
		error("--ref %s: not a commit in %s", ref, tree);
	free(rev);
	strbuf_release(&out);
	strbuf_release(&err);
	return sha;
}

char *kbuild_series_subject(const struct kbuild_opts *o)
{
	const char *cache = o->cache_dir ? o->cache_dir : kbuild_cache_dir();
	struct kargv files = KARGV_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *tree = realpath(o->tree, NULL), *subject = NULL;

	if (!tree || resolve_patches(o, tree, cache, &files) < 0 || !files.nr)
		goto out;
	if (read_file_capped(&sb, files.v[files.nr - 1], MMB_CAP_PATCH) < 0)
		goto out;
	for (const char *p = sb.buf; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (starts_with(p, "Subject: ")) {
			char *s = xstrndup(p + 9, len - 9), *t = strtrim(s);

			/* folded header: the next lines starting with a blank continue it */
			while (eol && (eol[1] == ' ' || eol[1] == '\t')) {
				const char *e2 = strchr(eol + 1, '\n');
				size_t l2 = e2 ? (size_t)(e2 - eol - 1) : strlen(eol + 1);
				char *more = xstrndup(eol + 1, l2), *n = xasprintf("%s %s", t, strtrim(more));

				free(more);
				free(s);
				s = t = n;
				eol = e2;
			}
			if (*t == '[' && strchr(t, ']'))
				t = strtrim(strchr(t, ']') + 1);
			free(subject);
			subject = xstrdup(t);
			free(s);
		}
		p = eol ? eol + 1 : NULL;
	}
out:
	free(tree);
	kargv_release(&files);
	strbuf_release(&sb);
	return subject;
}

char *kbuild_label_from_text(const char *text, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (const char *p = text; *p && sb.len < max; p++) {
		char c = *p;

		if (sym_char(c) || c == '.' || c == '+')
			strbuf_addch(&sb, c);
		else if (sb.len && sb.buf[sb.len - 1] != '-')
			strbuf_addch(&sb, '-');
	}
	while (sb.len && (sb.buf[sb.len - 1] == '-' || sb.buf[sb.len - 1] == '.'))
		sb.buf[--sb.len] = '\0';
	while (sb.len && (sb.buf[0] == '-' || sb.buf[0] == '.')) {
		memmove(sb.buf, sb.buf + 1, sb.len);
		sb.len--;
	}
	if (!sb.len)
		strbuf_addstr(&sb, "patched");
	return strbuf_detach(&sb);
}
