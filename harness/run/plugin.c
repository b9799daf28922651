#include "contain.h"
#include "plugin.h"
#include "util.h"

#include <dirent.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MMB_PLUGIN_DIR
#define MMB_PLUGIN_DIR "/usr/local/lib/mmbench"
#endif

/* The smallest descriptor an ABI 1.x plugin can have: through teardown. */
#define MMB_WORKLOAD_MIN_SIZE \
	(offsetof(struct mmb_workload, teardown) + sizeof(((struct mmb_workload *)0)->teardown))
#define MMB_PARAM_DEF_MIN_SIZE \
	(offsetof(struct mmb_param_def, help) + sizeof(const char *))
#define MMB_METRIC_DEF_MIN_SIZE \
	(offsetof(struct mmb_metric_def, help) + sizeof(const char *))

void plugin_init(struct plugin *p)
{
	memset(p, 0, sizeof(*p));
}

void plugin_release(struct plugin *p)
{
	for (size_t i = 0; i < p->nparams; i++)
		free((void *)p->params[i]);
	for (size_t i = 0; i < p->nmetrics; i++)
		free((void *)p->metrics[i]);
	free(p->params);
	free(p->metrics);
	free(p->programs);
	if (p->handle)
		dlclose(p->handle);
	free(p->desc_buf);
	free(p->path);
	plugin_init(p);
}

int plugin_name_valid(const char *name)
{
	if (!name || !*name || strlen(name) > 64)
		return 0;
	if (!((*name >= 'a' && *name <= 'z') || (*name >= '0' && *name <= '9')))
		return 0;
	for (const char *s = name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_'))
			return 0;
	return 1;
}

static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".so"))
		len -= 3;
	return xstrndup(base, len);
}

/* Only we and root are trusted with code we run: root owns the system anyway. */
static bool trusted_owner(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/*
 * Anyone who can write the plugin or its folder can run code as us: a
 * world-writable file or (non-sticky) folder, and a file or folder another
 * user owns (in a sticky /tmp they can still plant their own file).  The
 * symlink-resolved path is checked, which is the file dlopen() maps.
 */
static int check_plugin_file(const char *path)
{
	struct stat st;
	char *real = realpath(path, NULL), *slash;
	const char *dir;
	int ret = 0;

	if (!real || stat(real, &st) < 0) {
		ret = error("%s: %s", path, strerror(errno));
		free(real);
		return ret;
	}
	slash = strrchr(real, '/');
	*slash = '\0';
	dir = *real ? real : "/";
	if (st.st_mode & S_IWOTH)
		ret = error("%s: refusing a world-writable plugin", path);
	else if (!trusted_owner(&st))
		ret = error("%s: refusing a plugin owned by uid %u (only yours, uid %u, or root's are loaded)",
			    path, (unsigned)st.st_uid, (unsigned)geteuid());
	else if (stat(dir, &st) < 0)
		ret = error("%s: %s: %s", path, dir, strerror(errno));
	else if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		ret = error("%s: refusing a plugin in world-writable folder %s", path, dir);
	else if (!trusted_owner(&st))
		ret = error("%s: refusing a plugin in folder %s owned by uid %u (only yours, uid %u, or root's are trusted)",
			    path, dir, (unsigned)st.st_uid, (unsigned)geteuid());
	free(real);
	return ret;
}

static const char *param_type_ok(const struct mmb_param_def *d)
{
	switch (d->type) {
	case MMB_PARAM_ENUM:
		return d->choices && *d->choices ? NULL : "enum parameter without choices";
	case MMB_PARAM_INT: case MMB_PARAM_SIZE: case MMB_PARAM_DURATION:
	case MMB_PARAM_BOOL: case MMB_PARAM_STRING: case MMB_PARAM_DOUBLE:
		return NULL;
	}
	return "unknown parameter type";
}

/*
 * One element of the plugin's param/metric array as a host struct: the
 * plugin's element may be shorter (an older minor: the fields appended
 * since read as zero) or longer (a newer minor: the extra is not ours).
 */
static void *host_copy(const char *elem, size_t plugin_size, size_t host_size)
{
	void *copy = xcalloc(1, host_size);

	memcpy(copy, elem, plugin_size < host_size ? plugin_size : host_size);
	return copy;
}

/* Element i of a plugin's table, walked with the plugin's element size. */
static const void *def_at(const void *table, size_t i, size_t plugin_size)
{
	return (const char *)table + i * plugin_size;
}

/*
 * How many defs a plugin's table (params or metrics: the name first) holds
 * before its NULL name; 0 for no table, -1 after an error when no NULL name
 * comes within 256 entries.
 */
static long def_count(const char *path, const char *what, const void *table, size_t plugin_size)
{
	long n;

	for (n = 0; table; n++) {
		if (!*(const char *const *)def_at(table, (size_t)n, plugin_size))
			break;
		if (n >= 256)
			return error("%s: %s list not terminated by a NULL name", path, what);
	}
	return n;
}

#define PLUGIN_PROGRAMS_MAX 8

/* A name to find on $PATH and run as NAME --version: no path, no option. */
static bool program_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || *s == '-' || *s == '.')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
			return false;
	return true;
}

/* need_hooks: false for a description sent by the loader child, whose hooks stay there. */
static int plugin_check(struct plugin *p, const struct mmb_workload *d, const char *fname,
			bool need_hooks)
{
	const char *path = p->path;
	size_t i;
	long n;

	if (d->abi_major != MMB_ABI_MAJOR)
		return error("%s: plugin built for ABI %u.%u, this mmbench speaks ABI %u.%u: rebuild it against this include/mmbench/workload.h",
			     path, d->abi_major, d->abi_minor, MMB_ABI_MAJOR, MMB_ABI_MINOR);
	if (d->size < MMB_WORKLOAD_MIN_SIZE)
		return error("%s: descriptor is %zu bytes, ABI %u needs at least %zu (struct truncated?)",
			     path, d->size, MMB_ABI_MAJOR, (size_t)MMB_WORKLOAD_MIN_SIZE);
	/* Copy what the plugin has; the rest of ours stays zero. */
	memset(&p->w, 0, sizeof(p->w));
	memcpy(&p->w, d, d->size < sizeof(p->w) ? d->size : sizeof(p->w));

	if (!p->w.name || !*p->w.name)
		return error("%s: descriptor has no name", path);
	if (strcmp(p->w.name, fname))
		return error("%s: plugin calls itself '%s' but the file is named '%s.so'; the two must match",
			     path, p->w.name, fname);
	if (!p->w.summary)
		return error("%s: descriptor has no summary", path);
	if (need_hooks && (!p->w.run || !p->w.setup || !p->w.teardown))
		return error("%s: missing hook(s):%s%s%s", path, p->w.setup ? "" : " setup",
			     p->w.run ? "" : " run", p->w.teardown ? "" : " teardown");
	if (p->w.params && p->w.param_def_size < MMB_PARAM_DEF_MIN_SIZE)
		return error("%s: param_def_size %zu is smaller than ABI %u's %zu", path,
			     p->w.param_def_size, MMB_ABI_MAJOR, (size_t)MMB_PARAM_DEF_MIN_SIZE);
	/* arrays are walked with the plugin's stride: it must keep elements aligned */
	if (p->w.params && p->w.param_def_size % _Alignof(struct mmb_param_def))
		return error("%s: param_def_size %zu is not a multiple of %zu", path,
			     p->w.param_def_size, (size_t)_Alignof(struct mmb_param_def));
	if (p->w.metrics && p->w.metric_def_size % _Alignof(struct mmb_metric_def))
		return error("%s: metric_def_size %zu is not a multiple of %zu", path,
			     p->w.metric_def_size, (size_t)_Alignof(struct mmb_metric_def));
	if (!p->w.metrics || p->w.metric_def_size < MMB_METRIC_DEF_MIN_SIZE)
		return error("%s: no metrics, or metric_def_size %zu smaller than %zu", path,
			     p->w.metric_def_size, (size_t)MMB_METRIC_DEF_MIN_SIZE);

	n = def_count(path, "parameter", p->w.params, p->w.param_def_size);
	if (n < 0)
		return -1;
	p->params = xcalloc((size_t)n, sizeof(*p->params));
	for (i = 0; i < (size_t)n; i++) {
		struct mmb_param_def *pd = host_copy(def_at(p->w.params, i, p->w.param_def_size),
						     p->w.param_def_size, sizeof(*pd));
		const char *why;

		p->params[i] = pd;
		p->nparams = i + 1;
		if ((why = param_type_ok(pd)))
			return error("%s: parameter '%s': %s", path, pd->name, why);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->params[j]->name, pd->name))
				return error("%s: parameter '%s' declared twice", path, pd->name);
	}
	n = def_count(path, "metric", p->w.metrics, p->w.metric_def_size);
	if (n < 0)
		return -1;
	p->metrics = xcalloc((size_t)n, sizeof(*p->metrics));
	for (i = 0; i < (size_t)n; i++) {
		struct mmb_metric_def *md = host_copy(def_at(p->w.metrics, i, p->w.metric_def_size),
						      p->w.metric_def_size, sizeof(*md));

		p->metrics[i] = md;
		p->nmetrics = i + 1;
		if (md->better != MMB_HIGHER_IS_BETTER && md->better != MMB_LOWER_IS_BETTER)
			return error("%s: metric '%s': better must be MMB_HIGHER_IS_BETTER or MMB_LOWER_IS_BETTER",
				     path, md->name);
		if (!md->unit)
			return error("%s: metric '%s' has no unit", path, md->name);
		if (md->places < 0 || md->places > 9)
			return error("%s: metric '%s': places %lld: 1 to 9, or 0 for mmtests' 2", path,
				     md->name, (long long)md->places);
	}
	if (!p->nmetrics)
		return error("%s: declares no metrics", path);
	for (i = 0; p->w.programs && p->w.programs[i]; i++)
		if (i >= PLUGIN_PROGRAMS_MAX || !program_name_ok(p->w.programs[i]))
			return error("%s: programs[%zu]: %s", path, i, i >= PLUGIN_PROGRAMS_MAX ?
				     "more than 8 programs (the list ends with NULL)" :
				     "not a program name (1-64 of A-Z a-z 0-9 . _ + -, not starting"
				     " with - or .)");
	if (need_hooks)
		p->hooks = (p->w.supported ? PLUGIN_HAS_SUPPORTED : 0) |
			   (p->w.check_params ? PLUGIN_HAS_CHECK_PARAMS : 0);
	return 0;
}

/* A child with a pipe to answer on: its pid (0 in the child), or -1 after the message. */
static pid_t fork_piped(int fds[2])
{
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("fork: %s", strerror(errno));
	}
	return pid;
}

static long hook_timeout_ms(void);
static const char *signal_name(int sig, char *buf, size_t len);

/*
 * The description the loader child sends: the checked descriptor, its
 * strings NUL-terminated after a 64-bit length (UINT64_MAX: NULL).  The
 * parent trusts none of it: lengths, NULs and counts are checked, then the
 * whole goes through plugin_check() again.
 */
#define DESC_MAGIC	0x3143534544424d4dull	/* "MMBDESC1" */
#define DESC_STR_MAX	65536
#define DESC_MAX	(4u << 20)

static void put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *s)
{
	size_t n;

	if (!s) {
		put_u64(sb, UINT64_MAX);
		return;
	}
	n = strlen(s);
	put_u64(sb, n);
	strbuf_add(sb, s, n + 1);
}

static void desc_encode(struct strbuf *sb, const struct plugin *p)
{
	put_u64(sb, DESC_MAGIC);
	put_u64(sb, p->w.abi_major);
	put_u64(sb, p->w.abi_minor);
	put_u64(sb, p->w.size);
	put_str(sb, p->w.name);
	put_str(sb, p->w.summary);
	put_u64(sb, p->w.requires);
	put_u64(sb, p->w.min_kernel);
	put_u64(sb, p->w.param_def_size);
	put_u64(sb, p->w.metric_def_size);
	put_u64(sb, (p->w.supported ? PLUGIN_HAS_SUPPORTED : 0) |
		    (p->w.check_params ? PLUGIN_HAS_CHECK_PARAMS : 0));
	put_u64(sb, p->nparams);
	for (size_t i = 0; i < p->nparams; i++) {
		const struct mmb_param_def *d = p->params[i];

		put_str(sb, d->name);
		put_u64(sb, (uint64_t)d->type);
		put_str(sb, d->def);
		put_u64(sb, (uint64_t)d->min);
		put_u64(sb, (uint64_t)d->max);
		put_str(sb, d->choices);
		put_str(sb, d->help);
	}
	put_u64(sb, p->nmetrics);
	for (size_t i = 0; i < p->nmetrics; i++) {
		const struct mmb_metric_def *d = p->metrics[i];

		put_str(sb, d->name);
		put_str(sb, d->unit);
		put_u64(sb, (uint64_t)(int64_t)d->better);
		put_str(sb, d->help);
		put_u64(sb, (uint64_t)(int64_t)d->places);
	}
	{
		size_t n = 0;

		while (p->w.programs && p->w.programs[n])
			n++;
		put_u64(sb, n);
		for (size_t i = 0; i < n; i++)
			put_str(sb, p->w.programs[i]);
	}
}

struct desc_rd {
	const char *buf;
	size_t len, pos;
	bool bad;
};

static uint64_t get_u64(struct desc_rd *r)
{
	uint64_t v = 0;

	if (r->bad || r->len - r->pos < sizeof(v)) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->buf + r->pos, sizeof(v));
	r->pos += sizeof(v);
	return v;
}

static const char *get_str(struct desc_rd *r)
{
	uint64_t n = get_u64(r);
	const char *s;

	if (r->bad || n == UINT64_MAX)
		return NULL;
	if (n > DESC_STR_MAX || r->len - r->pos < n + 1 || r->buf[r->pos + n] ||
	    strlen(r->buf + r->pos) != n) {
		r->bad = true;
		return NULL;
	}
	s = r->buf + r->pos;
	r->pos += n + 1;
	return s;
}

/* A count of table entries: within plugin_check()'s 256, else the description is bad. */
static size_t get_count(struct desc_rd *r)
{
	uint64_t n = get_u64(r);

	if (n > 256)
		r->bad = true;
	return r->bad ? 0 : (size_t)n;
}

static void get_params(struct desc_rd *r, struct mmb_param_def *t, size_t n)
{
	for (size_t i = 0; i < n && !r->bad; i++) {
		t[i].name = get_str(r);
		t[i].type = (enum mmb_param_type)(int)get_u64(r);
		t[i].def = get_str(r);
		t[i].min = (int64_t)get_u64(r);
		t[i].max = (int64_t)get_u64(r);
		t[i].choices = get_str(r);
		t[i].help = get_str(r);
		if (!t[i].name)
			r->bad = true;	/* would end the table early */
	}
}

static void get_metrics(struct desc_rd *r, struct mmb_metric_def *t, size_t n)
{
	for (size_t i = 0; i < n && !r->bad; i++) {
		t[i].name = get_str(r);
		t[i].unit = get_str(r);
		t[i].better = (enum mmb_better)(int)(int64_t)get_u64(r);
		t[i].help = get_str(r);
		t[i].places = (int64_t)get_u64(r);
		if (!t[i].name)
			r->bad = true;
	}
}

/* Fill p from the child's description (p->desc_buf, which keeps the strings): 0, or -1 after error(). */
static int desc_decode(struct plugin *p, const char *fname)
{
	struct desc_rd r = { .buf = p->desc_buf, .len = 0 };
	struct mmb_workload d = { 0 };
	struct mmb_param_def *params = NULL;
	struct mmb_metric_def *metrics = NULL;
	size_t np, nm, ng, psize, msize;
	const char **progs;
	unsigned int hooks;
	int ret = -1;

	r.len = p->desc_len;
	if (get_u64(&r) != DESC_MAGIC)
		goto bad;
	d.abi_major = (uint32_t)get_u64(&r);
	d.abi_minor = (uint32_t)get_u64(&r);
	d.size = (size_t)get_u64(&r);
	d.name = get_str(&r);
	d.summary = get_str(&r);
	d.requires = (uint32_t)get_u64(&r);
	d.min_kernel = (unsigned int)get_u64(&r);
	psize = (size_t)get_u64(&r);
	msize = (size_t)get_u64(&r);
	hooks = (unsigned int)get_u64(&r);
	np = get_count(&r);
	params = xcalloc(np + 1, sizeof(*params));
	get_params(&r, params, np);
	nm = get_count(&r);
	metrics = xcalloc(nm + 1, sizeof(*metrics));
	get_metrics(&r, metrics, nm);
	ng = get_count(&r);
	progs = xcalloc(ng + 1, sizeof(*progs));
	for (size_t i = 0; i < ng && !r.bad; i++)
		if (!(progs[i] = get_str(&r)))
			r.bad = true;
	p->programs = progs;	/* freed with p */
	d.programs = ng ? progs : NULL;
	if (r.bad || r.pos != r.len || hooks & ~(PLUGIN_HAS_SUPPORTED | PLUGIN_HAS_CHECK_PARAMS))
		goto bad;
	/* our own tables, laid out as this harness's structs */
	d.params = np ? params : NULL;
	d.param_def_size = sizeof(*params);
	d.metrics = metrics;
	d.metric_def_size = sizeof(*metrics);
	ret = plugin_check(p, &d, fname, false);
	/* the plugin's element sizes, as the harness reports them; its tables stay in the child */
	p->w.params = NULL;
	p->w.metrics = NULL;
	p->w.param_def_size = psize;
	p->w.metric_def_size = msize;
	p->hooks = hooks;
	goto out;
bad:
	ret = error("plugin %s: its loader sent a garbled description (%zu bytes): %s", fname,
		    r.len, p->path);
out:
	free(params);
	free(metrics);
	return ret;
}

/* The loader child: map the plugin, check it, send its description; exit 2 after saying why. */
static void __attribute__((noreturn)) describe_child(const char *path, int fd)
{
	struct plugin local;
	struct strbuf sb = STRBUF_INIT;
	mmb_entry_fn entry = NULL;
	const struct mmb_workload *d;
	const char *q;
	char *fname;
	void *h;
	int ret;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* die of the crash itself, so the parent can name it */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	plugin_init(&local);
	local.path = (char *)path;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		error("cannot load plugin %s: %s", path, dlerror());
		_exit(2);
	}
	*(void **)&entry = dlsym(h, MMB_ENTRY_SYMBOL);
	if (!entry) {
		error("%s: no %s() symbol: not an mmbench workload plugin", path, MMB_ENTRY_SYMBOL);
		_exit(2);
	}
	d = entry();
	if (!d) {
		error("%s: %s() returned NULL", path, MMB_ENTRY_SYMBOL);
		_exit(2);
	}
	fname = name_from_path(path);
	ret = plugin_check(&local, d, fname, true) ? 2 : 0;
	if (!ret)
		desc_encode(&sb, &local);
	for (q = sb.buf; !ret && q < sb.buf + sb.len;) {
		ssize_t w = write(fd, q, (size_t)(sb.buf + sb.len - q));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			ret = 1;
		else
			q += w;
	}
	/* freed, so a leak checker on the child (e2e 84) sees only real leaks */
	free(fname);
	strbuf_release(&sb);
	local.path = NULL;
	plugin_release(&local);
	_exit(ret);
}

/* What is left in the pipe of a child that has exited. */
static void drain(int fd, struct strbuf *sb, size_t cap)
{
	char tmp[8192];
	ssize_t n;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while ((n = read(fd, tmp, sizeof(tmp))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && sb->len <= cap)
			strbuf_add(sb, tmp, (size_t)n);
}

/*
 * A loader or hook child's answer, until the child exits (reaped into
 * *status) or the deadline: 1 exited, 0 still running.  EOF is not awaited:
 * a daemon the plugin started may hold the pipe open.  More than cap bytes
 * are read but not kept (sb->len > cap tells).
 */
static int read_answer(int fd, pid_t pid, long long deadline, struct strbuf *sb, size_t cap,
		       int *status)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), ret = 0;
	bool eof = false;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = eof ? -1 : fd, .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		long long left = (deadline - (long long)now_ns()) / 1000000LL;
		char tmp[8192];
		ssize_t n;

		if (waitpid(pid, status, WNOHANG) == pid) {
			drain(fd, sb, cap);
			ret = 1;
			break;
		}
		if (left <= 0)
			break;
		/* without a pidfd, look for the exit in short steps */
		if (poll(pfd, 2, pidfd >= 0 ? (int)left : (int)(left < 5 ? left : 5)) <= 0 ||
		    !(pfd[0].revents & (POLLIN | POLLHUP)))
			continue;
		n = read(fd, tmp, sizeof(tmp));
		if (n > 0 && sb->len <= cap)
			strbuf_add(sb, tmp, (size_t)n);
		else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			eof = true;
	}
	if (pidfd >= 0)
		close(pidfd);
	return ret;
}

/*
 * dlopen() runs the plugin's constructors, and then its entry point runs:
 * a truncated .so (SIGBUS), a constructor that crashes, never returns or
 * starts a daemon would take the harness with it.  So the harness never
 * maps a plugin: a child of its own process group does, under the hook
 * time limit, and sends the checked descriptor back; whatever it started
 * is killed when it ends (contain.h: the harness is a child subreaper).
 */
static int load_described(struct plugin *p, const char *path)
{
	int fds[2], status = 0, done;
	char *name = name_from_path(path), sig[64];
	struct strbuf sb = STRBUF_INIT;
	struct contain c;
	pid_t pid;

	contain_begin_reaper(&c);
	pid = fork_piped(fds);
	if (pid < 0) {
		free(name);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		free(name);
		describe_child(path, fds[1]);
	}
	close(fds[1]);
	setpgid(pid, pid);
	contain_enter(&c, pid);
	done = read_answer(fds[0], pid, (long long)now_ns() + hook_timeout_ms() * 1000000LL, &sb,
			   DESC_MAX, &status);
	close(fds[0]);
	if (!done) {
		contain_kill(&c);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	contain_kill(&c);	/* its process group, then the orphans it left to us */
	contain_end(&c);
	p->desc_len = sb.len;
	p->desc_buf = strbuf_detach(&sb);
	if (!done)
		done = error("plugin %s: did not answer in %.0f s while loading (an endless loop in a constructor or in %s()?): %s",
			     name, hook_timeout_ms() / 1000.0, MMB_ENTRY_SYMBOL, path);
	else if (WIFSIGNALED(status))
		done = error("plugin %s: crashed while loading (%s): %s", name,
			     signal_name(WTERMSIG(status), sig, sizeof(sig)), path);
	else if (WEXITSTATUS(status) == 2)
		done = -1;	/* the child said why */
	else if (WEXITSTATUS(status) || !p->desc_len || p->desc_len > DESC_MAX)
		done = error("plugin %s: exited with status %d while loading, without a description (exit() in a constructor?): %s",
			     name, WEXITSTATUS(status), path);
	else
		done = desc_decode(p, name);
	free(name);
	return done;
}

int plugin_load_file(struct plugin *p, const char *path)
{
	plugin_init(p);
	p->path = xstrdup(path);
	if (check_plugin_file(path))
		return -1;
	return load_described(p, path);
}

int plugin_bind(struct plugin *p, char *why, size_t len)
{
	struct mmb_workload w;
	mmb_entry_fn entry = NULL;
	const struct mmb_workload *d = NULL;
	void *h;

	if (p->w.run)
		return 0;
	h = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, len, "cannot load plugin %s: %s", p->path, dlerror());
		return -1;
	}
	*(void **)&entry = dlsym(h, MMB_ENTRY_SYMBOL);
	if (entry)
		d = entry();
	memset(&w, 0, sizeof(w));
	if (d && d->abi_major == MMB_ABI_MAJOR && d->size >= MMB_WORKLOAD_MIN_SIZE)
		memcpy(&w, d, d->size < sizeof(w) ? d->size : sizeof(w));
	/* the file was replaced, or the plugin describes itself differently each time */
	if (!w.name || strcmp(w.name, p->w.name) || !w.setup || !w.run || !w.teardown ||
	    !w.supported != !(p->hooks & PLUGIN_HAS_SUPPORTED) ||
	    !w.check_params != !(p->hooks & PLUGIN_HAS_CHECK_PARAMS)) {
		snprintf(why, len, "plugin %s is not the plugin it was when loaded: %s", p->w.name,
			 p->path);
		dlclose(h);
		return -1;
	}
	p->w.setup = w.setup;
	p->w.run = w.run;
	p->w.teardown = w.teardown;
	p->w.supported = w.supported;
	p->w.check_params = w.check_params;
	p->handle = h;
	return 0;
}

/* The descriptor checks alone, for the fuzzer and its regression test. */
int plugin_check_descriptor(struct plugin *p, const struct mmb_workload *d, const char *fname)
{
	return plugin_check(p, d, fname, true);
}

/* "SIGSEGV" for messages */
static const char *signal_name(int sig, char *buf, size_t len)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev) {
		snprintf(buf, len, "SIG%s", abbrev);
		return buf;
	}
#endif
	snprintf(buf, len, "signal %d (%s)", sig, strsignal(sig));
	return buf;
}

/*
 * Run a plan-time hook in a forked child and bring back what it returned:
 * the harness has changed nothing yet and must not crash in plugin code.
 * The child sends "1<reason>" or "0" and exits.
 */
/*
 * A plan-time hook decides from its params and the machine: it has no
 * business taking long.  10 s; MMBENCH_HOOK_TIMEOUT_MS for the tests.
 */
static long hook_timeout_ms(void)
{
	const char *e = getenv("MMBENCH_HOOK_TIMEOUT_MS");
	long v = e ? strtol(e, NULL, 10) : 0;

	return v > 0 ? v : 10000;
}

/* The child's side: hook on each value set, one record each ('0', or '1' and why, then NUL). */
static void __attribute__((noreturn)) child_answers(const struct plugin *p, const struct mmb_host *host,
					 const struct mmb_value *const *vals, size_t n, int fd)
{
	/* die of the crash itself, so the parent can name it (no sanitizer or restore handler) */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	/* answers batched: a write per value made 100000 variants take seconds */
	static char out[65536];
	size_t used = 0;

	for (size_t i = 0; i <= n; i++) {
		const char *r = NULL;
		int len;

		if (i < n)
			r = host ? p->w.supported(host, vals[i]) : p->w.check_params(vals[i]);
		if (i == n || used + 4096 > sizeof(out)) {
			const char *q = out;

			while (used > 0) {
				ssize_t w = write(fd, q, used);

				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					_exit(1);
				q += w;
				used -= (size_t)w;
			}
		}
		if (i == n)
			break;
		len = snprintf(out + used, 4095, "%c%s", r ? '1' : '0', r ? r : "");
		if (len > 4094)
			len = 4094;
		used += (size_t)len;
		out[used++] = '\0';
	}
	_exit(0);
}

/*
 * hook on n value sets in one forked child (a fork per variant made
 * planning 1000 variants take 27 s): why[i] is NULL or the plugin's
 * reason.  The time limit is the hook's per 1000 sets.  0, or -1 after
 * naming a crash, a hang or an exit.
 */
static int call_in_child(const struct plugin *p, const char *hook, const struct mmb_host *host,
			 const struct mmb_value *const *vals, size_t n, char **why)
{
	struct strbuf sb = STRBUF_INIT;
	char sig[64];
	int fds[2], status = 0, hung = 0;
	struct contain c;
	long long deadline;
	size_t got = 0;
	pid_t pid;

	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	contain_begin_reaper(&c);
	pid = fork_piped(fds);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct plugin bound = *p;
		char bad[512];

		close(fds[0]);
		setpgid(0, 0);
		if (plugin_bind(&bound, bad, sizeof(bad))) {
			error("%s", bad);
			_exit(2);
		}
		child_answers(&bound, host, vals, n, fds[1]);
	}
	close(fds[1]);
	setpgid(pid, pid);
	contain_enter(&c, pid);
	deadline = (long long)now_ns() +
		   hook_timeout_ms() * (long long)(1 + n / 1000) * 1000000LL;
	/* a hook that answered but does not exit is as hung as a silent one */
	hung = !read_answer(fds[0], pid, deadline, &sb, n * 4096 + 65536, &status);
	close(fds[0]);
	if (hung) {
		contain_kill(&c);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		contain_end(&c);
		strbuf_release(&sb);
		return error("plugin %s did not return from %s within %ld ms (hung?): killed it",
			     p->w.name, hook, hook_timeout_ms() * (long)(1 + n / 1000));
	}
	contain_kill(&c);	/* what the hook or a constructor left behind */
	contain_end(&c);
	if (WIFSIGNALED(status)) {
		strbuf_release(&sb);
		return error("plugin %s crashed in %s: %s", p->w.name, hook,
			     signal_name(WTERMSIG(status), sig, sizeof(sig)));
	}
	for (size_t off = 0; off < sb.len && got < n; got++) {
		const char *rec = sb.buf + off;
		size_t len = strnlen(rec, sb.len - off);

		if (off + len == sb.len)
			break;		/* no NUL: cut short */
		if (rec[0] == '1')
			why[got] = xstrdup(rec + 1);
		off += len + 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || got < n) {
		for (size_t i = 0; i < n; i++) {
			free(why[i]);
			why[i] = NULL;
		}
		strbuf_release(&sb);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && !got)
			return -1;	/* it could not map the plugin, and said why */
		return error("plugin %s exited with status %d in %s, without an answer (exit() called?)",
			     p->w.name, WIFEXITED(status) ? WEXITSTATUS(status) : -1, hook);
	}
	strbuf_release(&sb);
	return 0;
}

int plugin_call_supported(const struct plugin *p, const struct mmb_host *host,
			  const struct mmb_value *vals, char **why)
{
	*why = NULL;
	if (!(p->hooks & PLUGIN_HAS_SUPPORTED))
		return 0;
	return call_in_child(p, "supported", host, &vals, 1, why);
}

int plugin_call_supported_all(const struct plugin *p, const struct mmb_host *host,
			      const struct mmb_value *const *vals, size_t n, char **why)
{
	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	if (!(p->hooks & PLUGIN_HAS_SUPPORTED) || !n)
		return 0;
	return call_in_child(p, "supported", host, vals, n, why);
}

int plugin_call_check_params_all(const struct plugin *p, const struct mmb_value *const *vals,
				 size_t n, char **why)
{
	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	if (!(p->hooks & PLUGIN_HAS_CHECK_PARAMS) || !n)
		return 0;
	return call_in_child(p, "check_params", NULL, vals, n, why);
}
