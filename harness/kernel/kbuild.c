/*
 * Kernel builds for `mmbench kernel build` and `mmbench ab`; see kbuild.h
 * for the cache layout.  Every external tool (git, make) is exec'ed with an
 * argv, never through a shell.
 */
#include "kbuild.h"
#include "kbuild-internal.h"
#include "db.h"
#include "json.h"
#include "kargv.h"
#include "parse-options.h"
#include "proc.h"
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

int kbuild_opts_check(const struct kbuild_opts *o, int argc, char **argv)
{
	char err[512];

	if (argc)
		return error("kernel build: %s: unknown argument", argv[0]);
	if (!o->tree)
		return error("kernel build: --tree DIR is required");
	if (!o->label)
		return error("kernel build: --name LABEL is required");
	if (kbuild_ref_check("kernel build: --ref", o->ref))
		return -1;
	for (size_t i = 0; i < o->npatches; i++)
		/* not a file, so a range: refused here, before anything runs */
		if ((o->patches[i][0] == '-' || strstr(o->patches[i], "..")) &&
		    access(o->patches[i], F_OK) < 0 &&
		    kbuild_range_check("kernel build: --patch", o->patches[i]))
			return -1;
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

/* ---- running tools --------------------------------------------------- */

struct build_tick {
	const char *what;
	uint64_t t0;
};

static void show_elapsed(void *arg)
{
	const struct build_tick *t = arg;

	if (progress_enabled())
		progress_update("%s: %.0fs", t->what, (now_ns() - t->t0) / 1e9);
}

/*
 * Run make with output appended to the log.  On a terminal a status line
 * shows the elapsed time.  In its own group ^C reaches only us; when we
 * die make gets SIGTERM and stops its jobs.
 */
static int run_logged(struct kargv *a, const char *logpath, const char *what)
{
	int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	struct build_tick tick = { what, now_ns() };
	struct proc p = PROC_INIT((const char *const *)a->v);
	int rc;

	if (fd < 0)
		return error("cannot write %s: %s", logpath, strerror(errno));
	{
		char *line = kargv_join(a);

		dprintf(fd, "$ %s\n", line);
		free(line);
	}
	p.out_fd = p.err_fd = fd;
	p.env = kbuild_git_env;
	p.flags = PROC_NEW_PGRP;
	p.tick = show_elapsed;
	p.tick_arg = &tick;
	rc = proc_run(&p);
	close(fd);
	if (progress_enabled())
		progress_clear();
	return rc;
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
			res = xstrdup(kbuild_first_line(bol));
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

/* gcc, or the arch's cross gcc on a host of another arch */
static char *gcc_name(const struct karch *a)
{
	return karch_native(a) ? xstrdup("gcc") : xasprintf("%sgcc", a->cross_compile);
}

static char *compiler_version(const struct karch *a)
{
	struct strbuf out = STRBUF_INIT;
	char *gcc = gcc_name(a);
	const char *argv[] = { gcc, "--version", NULL };
	char *v;

	if (run_argv(argv, &out, NULL) != 0) {
		strbuf_release(&out);
		free(gcc);
		return xstrdup("unknown");
	}
	free(gcc);
	v = xstrdup(kbuild_first_line(out.buf));
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

/*
 * A label naming a build of an older recipe version is free again: that
 * build's inputs would now make another kernel (KB_RECIPE_VERSION), and
 * the request in hand is the same one that made it.
 */
static bool label_stale(const char *cache, const char *label)
{
	struct kernel_entry e;
	bool stale;

	if (kbuild_find(cache, label, &e) < 0)
		return false;
	stale = !e.recipe || strcmp(e.recipe, KB_RECIPE_VERSION);
	if (stale)
		info("kernel: label '%s' named a build of an older recipe (%s); it names the new "
		     "build now", label, e.recipe ? e.recipe : "before mmbench-kbuild-2");
	kernel_entry_release(&e);
	return stale;
}

static int label_conflict(const char *cache, const char *label, const char *key)
{
	char *link = xasprintf("%s/labels/%s", cache, label);
	char cur[PATH_MAX];
	ssize_t n = readlink(link, cur, sizeof(cur) - 1);
	int ret = 0;

	if (n >= 0)
		cur[n] = '\0';
	if (n >= 0 && !ends_with(cur, key)) {
		if (!label_stale(cache, label)) {
			error("kernel label '%s' already names another build (%s); use another --name "
			      "or `mmbench kernel rm %s`", label, cur, label);
			ret = MMB_EUSAGE;
		} else if (unlink(link) < 0) {
			ret = error("cannot remove %s: %s", link, strerror(errno));
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
	const struct karch *arch;
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
	if (kbuild_git(k->tree, &k->out, &k->err, "rev-parse", "--verify", "--quiet", "--end-of-options", k->rev,
		NULL) != 0) {
		error("--ref %s: not a commit in %s%s%s", k->o->ref, k->tree, k->err.len ? ": " : "",
		      k->err.len ? kbuild_first_line(k->err.buf) : "");
		return MMB_EUSAGE;
	}
	k->commit = xstrdup(strtrim(k->out.buf));
	if ((ret = kpatch_resolve(k->o, k->tree, k->cache, &k->files)) < 0)
		return ret;
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
	if (k->arch->fragment) {
		char *f = mmb_data_file(k->arch->fragment);

		if (!f) {
			error("%s not found (set MMBENCH_DATA_DIR)", k->arch->fragment);
			return ret;
		}
		kargv_push(&k->frags, f);
		free(f);
	}
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
	k->compiler = compiler_version(k->arch);
	kbuild_cache_key(k->commit, (const char *const *)k->phash, k->files.nr, k->hex, k->compiler,
			 k->arch->name, k->key);
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
		if (kbuild_git(k->cache, NULL, &k->err, "clone", "-q", "--shared", "--no-checkout", "--", k->tree,
			k->src, NULL)) {
			error("git clone --shared %s: %s", k->tree, kbuild_first_line(k->err.buf));
			return ret;
		}
	}
	path_set(&k->path, xasprintf("%s/.git/rebase-apply", k->src));
	if (access(k->path, F_OK) == 0)
		kbuild_git(k->src, NULL, NULL, "am", "--abort", NULL);
	strbuf_reset(&k->err);
	if (kbuild_git(k->src, NULL, &k->err, "checkout", "-q", "-f", "--detach", k->commit, NULL)) {
		error("git checkout %s in %s: %s", k->commit, k->src, kbuild_first_line(k->err.buf));
		return ret;
	}
	if ((ret = kpatch_apply(k->src, &k->files, k->o->ref)) < 0)
		return ret;
	k->r->patches_json = kpatch_series_json(k->src, k->commit);
	return 0;
}

/* Requests the resolved .config (k->out) dropped: count; optional ones noted. */
static int kb_verify_config(struct kb *k)
{
	struct strbuf notes = STRBUF_INIT;
	int dropped = kconf_verify(&k->reqs, k->out.buf, &k->report, &notes);

	if (notes.len)
		info("kernel: options this kernel lacks or gates off, wanted only where available "
		     "(\"# mmbench: optional\"):\n%.*s", (int)notes.len - 1, notes.buf);
	strbuf_release(&notes);
	return dropped;
}

/* make's ARCH=, CROSS_COMPILE= (another arch than the host's) and CC= (ccache) */
static void kb_push_arch(struct kb *k)
{
	char *gcc = gcc_name(k->arch);

	kargv_pushf(&k->mk, "ARCH=%s", k->arch->kernel_arch);
	if (!karch_native(k->arch))
		kargv_pushf(&k->mk, "CROSS_COMPILE=%s", k->arch->cross_compile);
	if (have_ccache())
		kargv_pushf(&k->mk, "CC=ccache %s", gcc);
	free(gcc);
}

/*
 * Configure out of tree; 0, -1, or MMB_EUSAGE when Kconfig dropped what
 * was asked.  The same recipe on the same base commit as the last
 * configure in this build dir: the .config is already what olddefconfig
 * makes of it, so the (slow) base config + olddefconfig are skipped.  The
 * commit is part of it: another version's Kconfig resolves the same recipe
 * differently (6.1's .config reused for 6.12 left ZRAM off).  A series'
 * Kconfig changes are resolved by Kbuild's own syncconfig.
 */
static int kb_configure(struct kb *k)
{
	int ret = -1, rc;

	/* configure out of tree: base, fragments appended, olddefconfig, verify */
	/*
	 * One build dir per tree: a different config or series reconfigures it
	 * and Kbuild rebuilds only what changed (and ccache helps further).
	 */
	k->obj = xasprintf("%s/obj/%s-%s", k->cache, k->treeid, k->arch->name);
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
	kb_push_arch(k);
	kargv_pushf(&k->mk, "LOCALVERSION=-mmb%.8s", k->key);
	kargv_push(&k->mk, "KBUILD_BUILD_USER=mmbench");
	kargv_push(&k->mk, "KBUILD_BUILD_HOST=mmbench");
	kargv_push(&k->mk, "KBUILD_BUILD_TIMESTAMP=2024-01-01");
	{
		size_t base_nr = k->mk.nr;
		char *dotconfig = xasprintf("%s/.config", k->obj);
		char *marker = xasprintf("%s/.mmbench-recipe", k->obj);
		char cur[160] = "", want[160];
		int fd;

		/* the same recipe and base commit as last time: see kb_configure's comment */
		snprintf(want, sizeof(want), "%s %s", k->hex, k->commit ? k->commit : "-");
		if (read_line_file(marker, cur, sizeof(cur)) > 0 && !strcmp(cur, want) &&
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
		if (kb_verify_config(k)) {
			error("Kconfig dropped options the fragments ask for (unmet dependencies?); "
			      "resolved config: %s\n%s", dotconfig, k->report.buf);
			free(dotconfig);
			free(marker);
			return MMB_EUSAGE;
		}
		write_file_atomic(marker, want, strlen(want));
		free(marker);
		sha256_hex(k->out.buf, k->out.len, k->hex);
		k->r->config_hash = xstrdup(k->hex);
		free(dotconfig);
	}
	return 0;
}

/* make the boot image, then ask its release */
static int kb_make(struct kb *k)
{
	int rc;

	/* build */
	kargv_pushf(&k->mk, "-j%d", k->o->jobs > 0 ? k->o->jobs : online_cpus());
	kargv_push(&k->mk, k->arch->image_target);
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

bool kconfig_file_has(const char *path, const char *line)
{
	struct strbuf sb = STRBUF_INIT;
	bool has = false;

	if (strbuf_read_file(&sb, path) >= 0)
		for (const char *p = sb.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, line, strlen(line)) && (p[strlen(line)] == '\n' || !p[strlen(line)])) {
				has = true;
				break;
			}
	strbuf_release(&sb);
	return has;
}

/* publish kernels/<key> atomically and label it */
static int kb_publish(struct kb *k)
{
	int rc;

	/* publish kernels/<key> atomically */
	k->tmpdir = xasprintf("%s.tmp%d", k->kdir, (int)getpid());
	kcache_rm_rf(k->tmpdir);
	if (mkdir_p(k->tmpdir, 0755)) {
		error("cannot create %s: %s", k->tmpdir, strerror(errno));
		return -1;
	}
	path_set(&k->path, xasprintf("%s/%s", k->obj, k->arch->image_path));
	{
		char *dst = xasprintf("%s/%s", k->tmpdir, k->arch->image_name);
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
	kcache_meta_put(&k->meta, "key", k->key);
	kcache_meta_put(&k->meta, "recipe", KB_RECIPE_VERSION);
	kcache_meta_put(&k->meta, "label", k->o->label);
	kcache_meta_put(&k->meta, "release", k->r->release);
	kcache_meta_put(&k->meta, "tree", k->tree);
	kcache_meta_put(&k->meta, "ref", k->o->ref);
	kcache_meta_put(&k->meta, "base_commit", k->commit);
	kcache_meta_put(&k->meta, "patches", k->r->patches_json);
	kcache_meta_put(&k->meta, "base_config", k->o->base_config);
	kcache_meta_put(&k->meta, "config_hash", k->r->config_hash);
	kcache_meta_put(&k->meta, "compiler", k->compiler);
	kcache_meta_put(&k->meta, "arch", k->arch->name);
	{
		char secs[32], when[32];

		snprintf(secs, sizeof(secs), "%.1f", k->r->seconds);
		snprintf(when, sizeof(when), "%.0f", now_wall());
		kcache_meta_put(&k->meta, "build_seconds", secs);
		kcache_meta_put(&k->meta, "built", when);
	}
	path_set(&k->path, xasprintf("%s/meta", k->tmpdir));
	if (write_file_atomic(k->path, k->meta.buf, k->meta.len) < 0) {
		error("cannot write %s: %s", k->path, strerror(errno));
		return -1;
	}
	kcache_rm_rf(k->kdir);
	if (rename(k->tmpdir, k->kdir) < 0) {
		error("cannot rename %s: %s", k->tmpdir, strerror(errno));
		return -1;
	}
	k->r->dir = xstrdup(k->kdir);
	k->r->bzimage = xasprintf("%s/%s", k->kdir, k->arch->image_name);
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
		.mk = KARGV_INIT, .lockfd = -1, .t0 = now_ns(), .arch = o->arch ? o->arch : karch_host(),
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
	if (kbuild_git(tree, &out, &err, "rev-parse", "--verify", "--quiet", "--end-of-options", rev,
		NULL) == 0)
		sha = xstrdup(strtrim(out.buf));
	else
		error("--ref %s: not a commit in %s", ref, tree);
	free(rev);
	strbuf_release(&out);
	strbuf_release(&err);
	return sha;
}

char *kbuild_describe_ref(const char *tree, const char *ref)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *sha = kbuild_resolve_ref(tree, ref), *label = NULL;

	if (!sha)
		return NULL;
	/* the operand is the resolved id: never an option */
	if (kbuild_git(tree, &out, &err, "describe", "--tags", "--always", "--abbrev=12", sha,
		       NULL) == 0 && *strtrim(out.buf))
		label = kbuild_label_from_text(strtrim(out.buf), 60);
	else
		label = xstrndup(sha, 12);
	free(sha);
	strbuf_release(&out);
	strbuf_release(&err);
	return label;
}

char *kbuild_series_subject(const struct kbuild_opts *o)
{
	const char *cache = o->cache_dir ? o->cache_dir : kbuild_cache_dir();
	struct kargv files = KARGV_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *tree = realpath(o->tree, NULL), *subject = NULL;

	if (!tree || kpatch_resolve(o, tree, cache, &files) < 0 || !files.nr)
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

		if (kconf_sym_char(c) || c == '.' || c == '+')
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
