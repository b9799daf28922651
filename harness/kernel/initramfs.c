#include "initramfs.h"
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * PID 1 in the guest.  Fixed text: everything run-specific is read by
 * `mmbench vm guest` from /mmbench/args, so no user text reaches a shell;
 * only the arch's library folders (karch.h) go between the two halves.
 */
static const char init_head[] =
	"#!/bin/busybox sh\n"
	"/bin/busybox mkdir -p /proc /sys /dev /tmp /run /root /var/lib/mmbench\n"
	"/bin/busybox mount -t proc proc /proc\n"
	/* the guest clock when init starts: the kernel's share of the boot */
	"read MMB_UPTIME_INIT MMB_IDLE </proc/uptime; export MMB_UPTIME_INIT\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp\n"
	"export LD_LIBRARY_PATH=";
static const char init_tail[] =
	"\nmount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"mkdir -p /sys/fs/cgroup\n"
	"mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"echo \"mmbench-vm: init up, $(nproc) cpus, kernel $(uname -r)\"\n"
	"/bin/mmbench vm guest /mmbench/args\n"
	"echo \"mmbench-vm: guest agent exited with $?\"\n"
	"sync\n"
	"poweroff -f\n"
	"reboot -f\n";

char *initramfs_init_script(const struct karch *arch)
{
	const struct karch *a = arch ? arch : karch_host();

	return xasprintf("%s%s%s", init_head, a->libdirs, init_tail);
}

/* ---- cpio newc ------------------------------------------------------ */

int cpio_open(struct cpio *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->f = fopen(path, "we");
	if (!c->f)
		return error("cannot create %s: %s", path, strerror(errno));
	c->ino = 300000;
	return 0;
}

static void cpio_pad(struct cpio *c)
{
	static const char zero[4];
	long pos = ftell(c->f);

	if (pos >= 0 && pos % 4 && fwrite(zero, 1, 4 - pos % 4, c->f) != (size_t)(4 - pos % 4))
		c->err = -1;
}

static int cpio_entry(struct cpio *c, const char *name, unsigned int mode, const void *data,
		      size_t len, unsigned int rmaj, unsigned int rmin)
{
	const char *n = name[0] == '/' ? name + 1 : name;	/* archive names are relative */
	char hdr[111];

	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0u, 0u, (mode & 0170000) == 0040000 ? 2u : 1u, 0u,
		 (unsigned int)len, 0u, 0u, rmaj, rmin, (unsigned int)strlen(n) + 1, 0u);
	if (fwrite(hdr, 1, 110, c->f) != 110 || fwrite(n, 1, strlen(n) + 1, c->f) != strlen(n) + 1)
		c->err = -1;
	cpio_pad(c);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->err = -1;
	cpio_pad(c);
	return c->err;
}

static bool cpio_has_dir(struct cpio *c, const char *path)
{
	for (size_t i = 0; i < c->ndirs; i++)
		if (!strcmp(c->dirs[i], path))
			return true;
	return false;
}

static void cpio_parents(struct cpio *c, const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		cpio_add_dir(c, p, 0755);
		*s = '/';
	}
	free(p);
}

int cpio_add_dir(struct cpio *c, const char *path, unsigned int mode)
{
	if (cpio_has_dir(c, path))
		return 0;
	cpio_parents(c, path);
	ALLOC_GROW(c->dirs, c->ndirs + 1, c->alloc);
	c->dirs[c->ndirs++] = xstrdup(path);
	return cpio_entry(c, path, 0040000 | (mode & 07777), NULL, 0, 0, 0);
}

int cpio_add_data(struct cpio *c, const char *path, unsigned int mode, const void *data,
		  size_t len)
{
	cpio_parents(c, path);
	return cpio_entry(c, path, 0100000 | (mode & 07777), data, len, 0, 0);
}

int cpio_add_file(struct cpio *c, const char *path, unsigned int mode, const char *src)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, src) < 0) {
		strbuf_release(&sb);
		return error("initramfs: cannot read %s: %s", src, strerror(errno));
	}
	ret = cpio_add_data(c, path, mode, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int cpio_add_symlink(struct cpio *c, const char *path, const char *target)
{
	cpio_parents(c, path);
	return cpio_entry(c, path, 0120777, target, strlen(target), 0, 0);
}

int cpio_add_chardev(struct cpio *c, const char *path, unsigned int mode, unsigned int major,
		     unsigned int minor)
{
	cpio_parents(c, path);
	return cpio_entry(c, path, 0020000 | (mode & 07777), NULL, 0, major, minor);
}

int cpio_finish(struct cpio *c)
{
	int ret;

	cpio_entry(c, "TRAILER!!!", 0, NULL, 0, 0, 0);
	ret = c->err;
	if (fclose(c->f) != 0)
		ret = -1;
	c->f = NULL;
	for (size_t i = 0; i < c->ndirs; i++)
		free(c->dirs[i]);
	free(c->dirs);
	c->dirs = NULL;
	return ret ? error("initramfs: write failed: %s", strerror(errno)) : 0;
}

/* ---- libraries -------------------------------------------------------- */

static void add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

int elf_needed_libs(const char *path, char ***libs, size_t *nlibs)
{
	const char *argv[] = { "ldd", path, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc = run_argv(argv, &out, &err);

	strbuf_release(&err);
	/* "not a dynamic executable" (static busybox) is fine: nothing needed */
	if (rc != 0) {
		strbuf_release(&out);
		return 0;
	}
	for (char *line = strtok(out.buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *arrow = strstr(line, "=> "), *p, *end;

		if (strstr(line, "not found")) {
			error("initramfs: %s needs a library that is missing: %s", path,
			      strtrim(line));
			strbuf_release(&out);
			return -1;
		}
		p = arrow ? arrow + 3 : strtrim(line);
		if (*p != '/')
			continue;	/* linux-vdso.so.1 */
		end = strpbrk(p, " \t(");
		if (end)
			*end = '\0';
		add_unique(libs, nlibs, p);
	}
	strbuf_release(&out);
	return 0;
}

/*
 * readelf's value after marker up to the ']' that ends it, or NULL:
 * "Shared library: [libc.so.6]", "[Requesting program interpreter: /lib/ld.so]".
 */
static char *bracketed_after(const char *text, const char *marker)
{
	const char *p = strstr(text, marker), *end;

	if (!p)
		return NULL;
	p += strlen(marker) + strspn(p + strlen(marker), " [");
	end = strchr(p, ']');
	return end && !memchr(p, '\n', (size_t)(end - p)) ? xstrndup(p, (size_t)(end - p)) : NULL;
}

/* path's interpreter and NEEDED libraries (not theirs) */
static int foreign_needs(const char *path, const struct karch *arch, char ***libs, size_t *nlibs)
{
	/* -d: NEEDED entries; -l: the interpreter; -W: lines unwrapped */
	const char *argv[] = { "readelf", "-W", "-d", "-l", path, NULL };
	struct strbuf out = STRBUF_INIT;
	char *interp, *lib;

	if (run_argv(argv, &out, NULL) != 0) {
		strbuf_release(&out);
		return error("initramfs: readelf cannot read %s (binutils installed?)", path);
	}
	interp = bracketed_after(out.buf, "Requesting program interpreter:");
	if (interp)
		add_unique(libs, nlibs, interp);
	free(interp);
	for (const char *p = out.buf; (p = strstr(p, "(NEEDED)")); p++) {
		char *name = bracketed_after(p, "Shared library:");

		if (!name)
			continue;
		lib = dirs_lookup(arch->libdirs, name, R_OK);
		if (!lib) {
			error("initramfs: %s needs %s, which is in none of %s (install the "
			      "%s multiarch package)", path, name, arch->libdirs, arch->name);
			free(name);
			strbuf_release(&out);
			return -1;
		}
		add_unique(libs, nlibs, lib);
		free(lib);
		free(name);
	}
	strbuf_release(&out);
	return 0;
}

int elf_needed_libs_foreign(const char *path, const struct karch *arch, char ***libs,
			    size_t *nlibs)
{
	size_t i = *nlibs;

	if (foreign_needs(path, arch, libs, nlibs) < 0)
		return -1;
	/* the libraries' own needs: each new one read once, the list grows as we go */
	for (; i < *nlibs; i++)
		if (foreign_needs((*libs)[i], arch, libs, nlibs) < 0)
			return -1;
	return 0;
}


/* Add a host file at the same path, following symlinks for the content. */
static int add_host_file(struct cpio *c, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return error("initramfs: %s: %s", path, strerror(errno));
	return cpio_add_file(c, path, st.st_mode & 0777, path);
}

/* The host's static busybox, or NULL. */
static char *host_busybox(void)
{
	const char *cands[] = { "/bin/busybox", "/usr/bin/busybox", NULL };

	for (int i = 0; cands[i]; i++)
		if (access(cands[i], X_OK) == 0)
			return xstrdup(cands[i]);
	return path_lookup("busybox");
}

/*
 * The guest's programs: for the host's arch this mmbench, its plugins and
 * the host's busybox; for another, the cross-built ones in
 * BIN/<guest_build> (make guest-arm64).  0 or -1 after a message.
 */
static int guest_programs(const struct initramfs_opts *o, const struct karch *arch, char **mmbench,
			  char **busybox, char **plugdir)
{
	bool native = karch_native(arch);
	char *dir = native ? xstrdup(exe_dir()) : xasprintf("%s/%s", exe_dir(), arch->guest_build);
	const char *self = exe_path();

	*mmbench = o->mmbench ? xstrdup(o->mmbench)
		 : native ? (self ? xstrdup(self) : NULL) : xasprintf("%s/mmbench", dir);
	*busybox = o->busybox ? xstrdup(o->busybox)
		 : native ? host_busybox() : xasprintf("%s/busybox", dir);
	*plugdir = o->plugin_dir ? xstrdup(o->plugin_dir) : xasprintf("%s/workloads", dir);
	free(dir);
	if (!*mmbench)
		return error("initramfs: cannot find the mmbench binary");
	if (!native && access(*mmbench, X_OK) < 0)
		return error("initramfs: %s: %s (the %s guest's mmbench: `make guest-%s`)", *mmbench,
			     strerror(errno), arch->name, arch->name);
	if (!*busybox || (!native && access(*busybox, X_OK) < 0))
		return error("initramfs: %s busybox not found (%s)", arch->name,
			     native ? "apt-get install busybox-static" : "`make guest-arm64` unpacks "
			     "Debian's busybox-static:arm64");
	return 0;
}

int initramfs_guest_ready(const struct karch *arch)
{
	struct initramfs_opts o = { 0 };
	char *mmbench = NULL, *busybox = NULL, *plugdir = NULL;
	int rc = guest_programs(&o, arch, &mmbench, &busybox, &plugdir);

	free(mmbench);
	free(busybox);
	free(plugdir);
	return rc;
}

/* the libraries path needs, with ldd or (another arch) readelf */
static int needs(const char *path, const struct karch *arch, char ***libs, size_t *nlibs)
{
	return karch_native(arch) ? elf_needed_libs(path, libs, nlibs)
				  : elf_needed_libs_foreign(path, arch, libs, nlibs);
}

/* /init: the fixed script, or its head with o->init_tail's text in place of the agent's */
static char *init_script(const struct initramfs_opts *o, const struct karch *arch)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	if (!o->init_tail)
		return initramfs_init_script(arch);
	if (strbuf_read_file(&sb, o->init_tail) < 0) {
		error("initramfs: %s: %s", o->init_tail, strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	s = xasprintf("%s%s\n%s", init_head, arch->libdirs, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return s;
}

/* o->extra's programs in /usr/sbin, their libraries added to *libs */
static int add_extra(struct cpio *c, const struct initramfs_opts *o, const struct karch *arch,
		     char ***libs, size_t *nlibs)
{
	for (size_t i = 0; o->extra && o->extra[i]; i++) {
		const char *base = strrchr(o->extra[i], '/');
		char *dst = xasprintf("/usr/sbin/%s", base ? base + 1 : o->extra[i]);
		int rc = cpio_add_file(c, dst, 0755, o->extra[i]) || needs(o->extra[i], arch, libs, nlibs);

		free(dst);
		if (rc)
			return -1;
	}
	return 0;
}

int initramfs_build(const struct initramfs_opts *o)
{
	const struct karch *arch = o->arch ? o->arch : karch_host();
	char *mmbench = NULL, *busybox = NULL, *plugdir = NULL, *init = NULL;
	char **libs = NULL;
	size_t nlibs = 0;
	struct cpio c;
	DIR *d;
	struct dirent *de;
	int ret = -1;

	if (guest_programs(o, arch, &mmbench, &busybox, &plugdir) < 0 ||
	    !(init = init_script(o, arch)))
		goto out;

	if (cpio_open(&c, o->out))
		goto out;
	cpio_add_dir(&c, "/dev", 0755);
	cpio_add_chardev(&c, "/dev/console", 0600, 5, 1);
	cpio_add_chardev(&c, "/dev/null", 0666, 1, 3);
	cpio_add_dir(&c, "/proc", 0755);
	cpio_add_dir(&c, "/sys", 0755);
	cpio_add_dir(&c, "/tmp", 01777);
	cpio_add_dir(&c, "/root", 0700);
	cpio_add_dir(&c, "/sbin", 0755);
	cpio_add_dir(&c, "/usr/bin", 0755);
	cpio_add_dir(&c, "/usr/sbin", 0755);
	cpio_add_dir(&c, "/var/lib/mmbench", 0755);
	cpio_add_data(&c, "/init", 0755, init, strlen(init));
	if (cpio_add_file(&c, "/bin/busybox", 0755, busybox) ||
	    cpio_add_file(&c, "/bin/mmbench", 0755, mmbench) ||
	    needs(busybox, arch, &libs, &nlibs) || needs(mmbench, arch, &libs, &nlibs))
		goto out_cpio;
	d = opendir(plugdir);
	if (d) {
		while ((de = readdir(d))) {
			char *src, *dst;

			if (!ends_with(de->d_name, ".so"))
				continue;
			src = xasprintf("%s/%s", plugdir, de->d_name);
			dst = xasprintf("/bin/workloads/%s", de->d_name);
			if (cpio_add_file(&c, dst, 0755, src) || needs(src, arch, &libs, &nlibs)) {
				free(src);
				free(dst);
				closedir(d);
				goto out_cpio;
			}
			free(src);
			free(dst);
		}
		closedir(d);
	} else {
		warning("initramfs: no plugin directory %s", plugdir);
	}
	if (add_extra(&c, o, arch, &libs, &nlibs))
		goto out_cpio;
	for (size_t i = 0; i < nlibs; i++)
		if (add_host_file(&c, libs[i]))
			goto out_cpio;
	/* Debian's ld.so path; glibc binaries also look for /lib64 */
	if (o->experiment && cpio_add_file(&c, "/mmbench/experiment.yaml", 0644, o->experiment))
		goto out_cpio;
	if (o->guest_args &&
	    cpio_add_data(&c, "/mmbench/args", 0644, o->guest_args, o->guest_args_len))
		goto out_cpio;
	ret = 0;
out_cpio:
	if (cpio_finish(&c))
		ret = -1;
out:
	free(init);
	free(mmbench);
	for (size_t i = 0; i < nlibs; i++)
		free(libs[i]);
	free(libs);
	free(busybox);
	free(plugdir);
	return ret;
}
