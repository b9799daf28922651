#include "envctl.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Journal format, one change per line, fields separated by TAB, with \t, \n
 * and \\ escaped:  PID TAB "K" TAB path TAB old-value
 *                  PID TAB "U" TAB argv0 TAB argv1 ...
 * Lines are appended with O_APPEND (atomic for small writes, so a forked
 * iteration child can journal too) and fsync'ed before the change is made.
 */

static char journal_path[4200];
/*
 * The pid recorded with each change is the harness that will restore it,
 * not the iteration child that made it: a child exits long before its
 * changes are undone, and envctl_recover() must not take them as orphaned.
 */
static pid_t owner_pid;

static pid_t journal_owner(void)
{
	if (!owner_pid)
		owner_pid = getpid();
	return owner_pid;
}

const char *envctl_journal_path(void)
{
	const char *dir = getenv("MMBENCH_STATE");
	char buf[4096];

	if (journal_path[0])
		return journal_path;
	if (!dir || !*dir) {
		const char *home = getenv("HOME");

		if (geteuid() == 0)
			dir = "/var/lib/mmbench";
		else {
			snprintf(buf, sizeof(buf), "%s/.cache/mmbench", home ? home : "/tmp");
			dir = buf;
		}
	}
	mkdir_p(dir, 0755);
	snprintf(journal_path, sizeof(journal_path), "%s/journal", dir);
	return journal_path;
}

static void escape_into(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\\')
			strbuf_addstr(sb, "\\\\");
		else
			strbuf_addch(sb, *s);
	}
}

static char *unescape(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			*o++ = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : s[i];
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

static int journal_append(const char *type, const char *const *fields)
{
	struct strbuf sb = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&sb, "%d\t%s", (int)journal_owner(), type);
	for (; *fields; fields++) {
		strbuf_addch(&sb, '\t');
		escape_into(&sb, *fields);
	}
	strbuf_addch(&sb, '\n');
	fd = open(envctl_journal_path(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	if (ret)
		error("cannot write the restore journal %s: %s", envctl_journal_path(),
		      strerror(-ret));
	return ret;
}

int envctl_set_knob(const char *path, const char *value)
{
	char old[4096];
	const char *fields[3];
	int ret;

	ret = read_knob_value(path, old, sizeof(old));
	if (ret < 0)
		return ret;
	if (!strcmp(old, value))
		return 0;	/* nothing to change, nothing to undo */
	fields[0] = path;
	fields[1] = old;
	fields[2] = NULL;
	struct stat st;
	off_t before = stat(envctl_journal_path(), &st) == 0 ? st.st_size : 0;

	ret = journal_append("K", fields);
	if (ret)
		return ret;
	ret = write_file_str(path, value);
	/*
	 * Refused (EACCES when not root, EINVAL): nothing changed, so nothing
	 * to undo -- a restore would only fail the same way.  Only this
	 * harness appends while it holds the lock, so the entry is the last.
	 */
	if (ret && truncate(envctl_journal_path(), before) == 0 && before == 0)
		unlink(envctl_journal_path());
	return ret;
}

int envctl_push_undo_write(const char *path, const char *value)
{
	const char *fields[] = { path, value, NULL };

	return journal_append("K", fields);
}

int envctl_push_undo(const char *const *argv)
{
	return journal_append("U", argv);
}

static int lock_fd = -1;

int envctl_lock(void)
{
	char *path, pid[32] = "";
	ssize_t n;

	if (lock_fd >= 0)
		return 0;
	journal_owner();
	path = xasprintf("%s.lock", envctl_journal_path());
	lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd < 0) {
		error("cannot open %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		n = pread(lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		error("another mmbench (pid %s) is running benchmarks and owns the system settings (%s); runs must not overlap",
		      *strtrim(pid) ? strtrim(pid) : "?", path);
		close(lock_fd);
		lock_fd = -1;
		free(path);
		return -1;
	}
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(lock_fd, 0) == 0 && pwrite(lock_fd, pid, strlen(pid), 0) < 0)
		warning("cannot write %s", path);
	free(path);
	return 0;
}

off_t envctl_mark(void)
{
	struct stat st;

	if (stat(envctl_journal_path(), &st) < 0)
		return 0;
	return st.st_size;
}

struct entry {
	pid_t pid;
	char type;
	char **fields;
	int nfields;
};

static void entry_free(struct entry *e)
{
	for (int i = 0; i < e->nfields; i++)
		free(e->fields[i]);
	free(e->fields);
}

static int parse_entries(const char *buf, size_t len, struct entry **out, size_t *nout)
{
	size_t alloc = 0, nr = 0;
	struct entry *ents = NULL;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *f, *tab;
		struct entry e = { 0 };
		size_t fa = 0;

		if (!nl)
			break;	/* torn last line: the change was never made */
		e.pid = (pid_t)strtol(p, NULL, 10);
		f = memchr(p, '\t', nl - p);
		if (!f || f + 2 > nl) {
			p = nl + 1;
			continue;
		}
		e.type = f[1];
		f += 2;
		while (f < nl && *f == '\t') {
			f++;
			tab = memchr(f, '\t', nl - f);
			if (!tab)
				tab = nl;
			ALLOC_GROW(e.fields, (size_t)e.nfields + 2, fa);
			e.fields[e.nfields++] = unescape(f, tab - f);
			e.fields[e.nfields] = NULL;
			f = tab;
		}
		ALLOC_GROW(ents, nr + 1, alloc);
		ents[nr++] = e;
		p = nl + 1;
	}
	*out = ents;
	*nout = nr;
	return 0;
}

static int undo_entry(const struct entry *e)
{
	if (e->type == 'K' && e->nfields >= 2) {
		int ret = write_file_str(e->fields[0], e->fields[1]);

		if (ret)
			return error("cannot restore %s to '%s': %s", e->fields[0], e->fields[1],
				     strerror(-ret));
		return 0;
	}
	if (e->type == 'U' && e->nfields >= 1) {
		struct strbuf err = STRBUF_INIT;
		int rc = run_argv((const char *const *)e->fields, NULL, &err);

		if (rc)
			error("restore step '%s' failed (%d): %s", e->fields[0], rc,
			      err.buf ? strtrim(err.buf) : "");
		strbuf_release(&err);
		return rc ? -1 : 0;
	}
	return 0;
}

int envctl_restore_to(off_t mark)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *ents = NULL;
	size_t n = 0;
	int ret = 0, fd;
	const char *path = envctl_journal_path();

	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return errno == ENOENT ? 0 : -1;
	}
	if ((size_t)mark > sb.len)
		mark = sb.len;
	parse_entries(sb.buf + mark, sb.len - mark, &ents, &n);
	for (size_t i = n; i-- > 0;) {
		if (undo_entry(&ents[i]))
			ret = -1;
		entry_free(&ents[i]);
	}
	free(ents);
	strbuf_release(&sb);
	if (mark == 0) {
		unlink(path);
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (ftruncate(fd, mark) == 0)
				fsync(fd);
			close(fd);
		}
	}
	return ret;
}

int envctl_restore_all(void)
{
	return envctl_restore_to(0);
}

void envctl_recover(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *ents = NULL;
	size_t n = 0;
	bool live = false;

	if (strbuf_read_file(&sb, envctl_journal_path()) < 0 || !sb.len) {
		strbuf_release(&sb);
		return;
	}
	parse_entries(sb.buf, sb.len, &ents, &n);
	for (size_t i = 0; i < n; i++) {
		if (ents[i].pid != getpid() && kill(ents[i].pid, 0) == 0)
			live = true;
		entry_free(&ents[i]);
	}
	free(ents);
	strbuf_release(&sb);
	if (live)
		return;		/* another mmbench is running and owns the journal */
	warning("a previous mmbench run did not restore the system; restoring it now (%s)",
		envctl_journal_path());
	if (envctl_restore_all())
		warning("some settings could not be restored; see above (root needed?), then run `mmbench restore`");
}

static volatile sig_atomic_t in_handler;

static void on_fatal_signal(int sig)
{
	/* Not async-signal-safe, but the alternative is a changed machine;
	 * the on-disk journal covers us if this fails. */
	if (!in_handler) {
		in_handler = 1;
		envctl_restore_all();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void envctl_install_signal_handlers(void)
{
	int sigs[] = { SIGHUP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * In a forked iteration child: drop the inherited copy of the lock so the
 * lock dies with the harness.  Otherwise a SIGKILLed harness's child,
 * still on its way out, makes an immediate `mmbench restore` or the next
 * run report "another mmbench is running".
 */
void envctl_forget_lock(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}
