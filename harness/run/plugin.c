#include "plugin.h"
#include "util.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	if (p->handle)
		dlclose(p->handle);
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

static int plugin_check(struct plugin *p, const struct mmb_workload *d, const char *fname)
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
	if (!p->w.run || !p->w.setup || !p->w.teardown)
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
	}
	if (!p->nmetrics)
		return error("%s: declares no metrics", path);
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
 * dlopen() runs the plugin's constructors, and then its entry point runs:
 * a truncated .so (SIGBUS), a constructor that crashes or never returns
 * took the harness down or hung it.  Load it first in a child of its own
 * process group, under the hook time limit; only what loads there is
 * loaded here.  (A constructor that starts a setsid() daemon is not caught.)
 */
static int probe_load(const char *path)
{
	int fds[2], status = 0, ret;
	char *name;
	long long deadline;
	char sig[64], c;
	pid_t pid;

	pid = fork_piped(fds);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		void *h;
		mmb_entry_fn entry = NULL;

		setpgid(0, 0);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		close(fds[0]);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h)
			*(void **)&entry = dlsym(h, MMB_ENTRY_SYMBOL);
		if (entry)
			entry();
		/* loaded, or an error the parent's own dlopen() will word */
		if (write(fds[1], "o", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	deadline = (long long)now_ns() + hook_timeout_ms() * 1000000LL;
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		long long left = (deadline - (long long)now_ns()) / 1000000LL;
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			close(fds[0]);
			name = name_from_path(path);
			ret = error("plugin %s: did not answer in %.0f s while loading (an endless loop in a constructor or in %s()?): %s",
				    name, hook_timeout_ms() / 1000.0, MMB_ENTRY_SYMBOL, path);
			free(name);
			return ret;
		}
		n = read(fds[0], &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);	/* anything it left in its group */
	if (!WIFSIGNALED(status))
		return 0;
	name = name_from_path(path);
	ret = error("plugin %s: crashed while loading (%s): %s", name,
		    signal_name(WTERMSIG(status), sig, sizeof(sig)), path);
	free(name);
	return ret;
}

int plugin_load_file(struct plugin *p, const char *path)
{
	mmb_entry_fn entry;
	const struct mmb_workload *d;
	char *fname;
	int ret;

	plugin_init(p);
	p->path = xstrdup(path);
	if (check_plugin_file(path))
		return -1;
	/* nothing allocated across the probe's fork: its child leaves by _exit() */
	if (probe_load(path))
		return -1;
	/* RTLD_LOCAL: plugins cannot see each other or resolve against us. */
	p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle)
		return error("cannot load plugin %s: %s", path, dlerror());
	*(void **)&entry = dlsym(p->handle, MMB_ENTRY_SYMBOL);
	if (!entry)
		return error("%s: no %s() symbol: not an mmbench workload plugin", path,
			     MMB_ENTRY_SYMBOL);
	d = entry();
	if (!d)
		return error("%s: %s() returned NULL", path, MMB_ENTRY_SYMBOL);
	fname = name_from_path(path);
	ret = plugin_check(p, d, fname);
	free(fname);
	return ret;
}

const char *const *plugin_search_path(void)
{
	static char **dirs;
	size_t n = 0, alloc = 0;
	const char *env;

	if (dirs)
		return (const char *const *)dirs;
	env = getenv("MMBENCH_PLUGIN_PATH");
	if (env && *env) {
		char *copy = xstrdup(env), *save = NULL;

		for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			ALLOC_GROW(dirs, n + 1, alloc);
			dirs[n++] = xstrdup(tok);
		}
		free(copy);
	}
	ALLOC_GROW(dirs, n + 4, alloc);
	dirs[n++] = xasprintf("%s/workloads", exe_dir());
	dirs[n++] = xasprintf("%s/../lib/mmbench", exe_dir());
	dirs[n++] = xstrdup(MMB_PLUGIN_DIR);
	dirs[n] = NULL;
	return (const char *const *)dirs;
}

char *plugin_find(const char *name)
{
	if (!plugin_name_valid(name))
		return NULL;
	for (const char *const *dirs = plugin_search_path(); *dirs; dirs++) {
		char *path = xasprintf("%s/%s.so", *dirs, name);

		if (access(path, F_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

int plugin_load(struct plugin *p, const char *name)
{
	char *path;
	int ret;

	plugin_init(p);
	if (!plugin_name_valid(name))
		return error("'%s' is not a valid workload name", name);
	path = plugin_find(name);
	if (path) {
		ret = plugin_load_file(p, path);
		free(path);
		return ret;
	}
	return error("no workload plugin '%s' (looked for %s.so in the plugin path; `mmbench list workloads` shows what exists)",
		     name, name);
}

int plugin_param_index(const struct plugin *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i]->name, name))
			return (int)i;
	return -1;
}

int plugin_metric_index(const struct plugin *p, const char *name)
{
	for (size_t i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i]->name, name))
			return (int)i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int plugin_list(char ***names, size_t *n)
{
	size_t nr = 0, alloc = 0;
	char **out = NULL;

	for (const char *const *dirs = plugin_search_path(); *dirs; dirs++) {
		DIR *d = opendir(*dirs);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);
			char *name;
			bool dup = false;

			if (len < 4 || strcmp(de->d_name + len - 3, ".so"))
				continue;
			name = xstrndup(de->d_name, len - 3);
			for (size_t i = 0; i < nr; i++)
				dup |= !strcmp(out[i], name);
			if (dup || !plugin_name_valid(name)) {
				free(name);
				continue;
			}
			ALLOC_GROW(out, nr + 1, alloc);
			out[nr++] = name;
		}
		closedir(d);
	}
	if (nr)
		qsort(out, nr, sizeof(*out), cmp_str);
	*names = out;
	*n = nr;
	return 0;
}

/* The descriptor checks alone, for the fuzzer and its regression test. */
int plugin_check_descriptor(struct plugin *p, const struct mmb_workload *d, const char *fname)
{
	return plugin_check(p, d, fname);
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
	for (size_t i = 0; i < n; i++) {
		const char *r = host ? p->w.supported(host, vals[i]) : p->w.check_params(vals[i]);
		char out[4096];
		int len = snprintf(out, sizeof(out) - 1, "%c%s", r ? '1' : '0', r ? r : "");
		const char *q = out;

		if (len > (int)sizeof(out) - 2)
			len = sizeof(out) - 2;
		out[len++] = '\0';
		while (len > 0) {
			ssize_t w = write(fd, q, len);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(1);
			q += w;
			len -= w;
		}
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
	char tmp[4096], sig[64];
	int fds[2], status = 0, hung = 0;
	long long deadline;
	size_t got = 0;
	pid_t pid;
	ssize_t r;

	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	pid = fork_piped(fds);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child_answers(p, host, vals, n, fds[1]);
	}
	close(fds[1]);
	strbuf_init(&sb);
	deadline = (long long)now_ns() +
		   hook_timeout_ms() * (long long)(1 + n / 1000) * 1000000LL;
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		long long left_ms = (deadline - (long long)now_ns()) / 1000000LL;

		if (left_ms <= 0 || poll(&pfd, 1, (int)left_ms) == 0) {
			hung = 1;
			break;
		}
		r = read(fds[0], tmp, sizeof(tmp));
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0 || sb.len > n * 4096 + 65536)
			break;
		strbuf_add(&sb, tmp, r);
	}
	close(fds[0]);
	/* a hook that answered but does not exit is as hung as a silent one */
	while (!hung && waitpid(pid, &status, WNOHANG) == 0) {
		if ((long long)now_ns() >= deadline) {
			hung = 1;
			break;
		}
		usleep(1000);
	}
	if (hung) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		strbuf_release(&sb);
		return error("plugin %s did not return from %s within %ld ms (hung?): killed it",
			     p->w.name, hook, hook_timeout_ms() * (long)(1 + n / 1000));
	}
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
	if (!p->w.supported)
		return 0;
	return call_in_child(p, "supported", host, &vals, 1, why);
}

int plugin_call_check_params(const struct plugin *p, const struct mmb_value *vals, char **why)
{
	*why = NULL;
	if (!p->w.check_params)
		return 0;
	return call_in_child(p, "check_params", NULL, &vals, 1, why);
}

int plugin_call_supported_all(const struct plugin *p, const struct mmb_host *host,
			      const struct mmb_value *const *vals, size_t n, char **why)
{
	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	if (!p->w.supported || !n)
		return 0;
	return call_in_child(p, "supported", host, vals, n, why);
}

int plugin_call_check_params_all(const struct plugin *p, const struct mmb_value *const *vals,
				 size_t n, char **why)
{
	for (size_t i = 0; i < n; i++)
		why[i] = NULL;
	if (!p->w.check_params || !n)
		return 0;
	return call_in_child(p, "check_params", NULL, vals, n, why);
}
