#include "envctl.h"
#include "contain.h"
#include "hostroot.h"
#include "proc.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/*
 * Journal format, one change per line, fields separated by TAB, with \t, \n
 * and \\ escaped:  PID TAB "K" TAB path TAB old-value
 *                  PID TAB "U" TAB argv0 TAB argv1 ...
 *                  PID TAB "C" TAB cgroup-folder   (kill all in it, rmdir)
 *                  PID TAB "H" TAB unit-path TAB boot-id  (ab --host's resume hook)
 * Lines are appended with O_APPEND (atomic for small writes, so a forked
 * iteration child can journal too) and fsync'ed before the change is made.
 */

static char journal_path[4200], state_dir[4096];
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
	snprintf(state_dir, sizeof(state_dir), "%s", dir);
	/* "dir/" would make lstat() follow a symlink: check the name itself */
	for (size_t n = strlen(state_dir); n > 1 && state_dir[n - 1] == '/'; n--)
		state_dir[n - 1] = '\0';
	if (access(state_dir, F_OK) < 0 && errno == ENOENT && !mkdir_p(state_dir, 0755)) {
		/* ours and new: 0755 whatever the umask, or the checks refuse it */
		int fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0) {
			if (fchmod(fd, 0755) < 0)
				warning("cannot chmod %s: %s", state_dir, strerror(errno));
			close(fd);
		}
	}
	snprintf(journal_path, sizeof(journal_path), "%s/journal", state_dir);
	return journal_path;
}

const char *envctl_state_dir(void)
{
	envctl_journal_path();
	return state_dir;
}

/*
 * The journal is replayed at the next start, as root for system knobs: a
 * state folder or journal anyone else could write is a way to make root
 * write files.  Only a real folder/file owned by us or root, writable by
 * nobody else, is trusted.
 */
static int check_private(const char *path, bool dir)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;	/* nothing there yet, nothing to trust */
		return error("cannot check the restore journal %s: %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return error("refusing the restore journal: %s is a symbolic link%s", path,
			     dir ? " (give MMBENCH_STATE the real path)" : "");
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return error("refusing the restore journal: %s is not a %s", path,
			     dir ? "folder" : "regular file");
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return error("refusing the restore journal: %s belongs to uid %u, not to you (uid %u) or root; another user could plant settings to restore",
			     path, (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return error("refusing the restore journal: %s is %s-writable (mode %04o); another user could plant settings to restore (chmod go-w, or a private MMBENCH_STATE)",
			     path, st.st_mode & S_IWOTH ? "world" : "group",
			     (unsigned)(st.st_mode & 07777));
	return 0;
}

int envctl_check_private_file(const char *path)
{
	if (envctl_check_state())
		return -1;
	return check_private(path, false);
}

int envctl_check_state(void)
{
	const char *journal = envctl_journal_path();

	if (check_private(state_dir, true) || check_private(journal, false))
		return -1;
	return 0;
}

/* s is one name (or several with slashes) of letters, digits and extra */
static bool name_chars(const char *s, const char *extra, bool slashes)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '/' && slashes && s[1] && s[1] != '/')
			continue;
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	}
	return true;
}

static bool digits_then(const char *s, const char *rest, const char **tail)
{
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	if (!starts_with(s, rest))
		return false;
	*tail = s + strlen(rest);
	return true;
}

/*
 * The knobs mmbench writes: THP/mTHP (environment, pte-mapped-folio),
 * cpufreq governors, zram devices it set up, and vm sysctls.  The journal
 * replays only these, and host->write_knob() allows only these, so nothing
 * mmbench journals is refused at replay.
 */
bool envctl_knob_allowed(const char *path)
{
	const char *tail;

	/* no "..", ".", empty or hidden components: the names below have no dots */
	if (strstr(path, "/.") || strstr(path, "//"))
		return false;
	if (starts_with(path, "/sys/kernel/mm/transparent_hugepage/"))
		return name_chars(path + strlen("/sys/kernel/mm/transparent_hugepage/"), "_-", true);
	if (starts_with(path, "/sys/devices/system/cpu/cpu"))
		return digits_then(path + strlen("/sys/devices/system/cpu/cpu"),
				   "/cpufreq/scaling_governor", &tail) && !*tail;
	if (starts_with(path, "/sys/block/zram"))
		return digits_then(path + strlen("/sys/block/zram"), "/", &tail) &&
		       name_chars(tail, "_", false);
	if (starts_with(path, "/proc/sys/vm/"))
		return name_chars(path + strlen("/proc/sys/vm/"), "_", false);
	/* a zram device a run hot-added is removed again (runner.c setup_zram_swap()) */
	if (!strcmp(path, "/sys/class/zram-control/hot_remove"))
		return true;
	return false;
}

/* A value to put back: a short printable line (tabs allowed: some sysctls list numbers). */
bool envctl_value_ok(const char *v)
{
	size_t n = 0;

	for (; v[n]; n++) {
		unsigned char c = (unsigned char)v[n];

		if (c != '\t' && (c < 0x20 || c > 0x7e))
			return false;
	}
	return n <= ENVCTL_VALUE_MAX;
}

/* The only command mmbench journals: swapoff of the zram device it set up. */
static bool undo_allowed(char *const *argv, int n)
{
	const char *tail;

	return n == 2 && !strcmp(argv[0], "swapoff") &&
	       starts_with(argv[1], "/dev/zram") &&
	       digits_then(argv[1] + strlen("/dev/zram"), "", &tail) && !*tail;
}

bool envctl_hook_is_unit(const char *path)
{
	char *unit = host_path("/etc/systemd/system/" ENVCTL_HOOK_UNIT);
	bool is = !strcmp(path, unit);

	free(unit);
	return is;
}

static char *hook_file_path(void)
{
	return xasprintf("%s/" ENVCTL_HOOK_FILE, envctl_state_dir());
}

char *envctl_hook_path(void)
{
	char *sd = host_path("/run/systemd/system");	/* sd_booted()'s test */
	struct stat st;
	bool systemd = stat(sd, &st) == 0 && S_ISDIR(st.st_mode);

	free(sd);
	return systemd ? host_path("/etc/systemd/system/" ENVCTL_HOOK_UNIT) : hook_file_path();
}

/* The one boot hook `ab --host` installs (abhost.c): the unit or the file. */
static bool hook_path_ok(const char *path)
{
	char *file = hook_file_path();
	bool ok = envctl_hook_is_unit(path) || !strcmp(path, file);

	free(file);
	return ok;
}

int envctl_remove_hook(const char *unit_path)
{
	const char *disable[] = { "systemctl", "disable", "--quiet", ENVCTL_HOOK_UNIT, NULL };
	const char *reload[] = { "systemctl", "daemon-reload", NULL };
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (!hook_path_ok(unit_path))
		return error("not removing %s: not the resume hook mmbench installs", unit_path);
	if (access(unit_path, F_OK) < 0 && errno == ENOENT)
		return 0;	/* gone already: --abort, or the campaign's end */
	if (!envctl_hook_is_unit(unit_path)) {
		if (unlink(unit_path) < 0 && errno != ENOENT)
			return error("cannot remove %s: %s", unit_path, strerror(errno));
		return 0;
	}
	if (run_argv(disable, NULL, &err))
		rc = error("systemctl disable %s failed: %s", ENVCTL_HOOK_UNIT, strtrim(err.buf));
	if (unlink(unit_path) < 0 && errno != ENOENT)
		rc = error("cannot remove %s: %s", unit_path, strerror(errno));
	strbuf_reset(&err);
	if (run_argv(reload, NULL, &err))
		rc = error("systemctl daemon-reload failed: %s", strtrim(err.buf));
	strbuf_release(&err);
	return rc;
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

static int count_fields(const char *const *fields)
{
	int n = 0;

	while (fields[n])
		n++;
	return n;
}

static int journal_append(const char *type, const char *const *fields)
{
	struct strbuf sb = STRBUF_INIT;
	int fd, ret = 0;

	/* never journal what a replay would refuse */
	if (*type == 'K' ? !fields[0] || !fields[1] || fields[2] ||
			   !envctl_knob_allowed(fields[0]) || !envctl_value_ok(fields[1])
	    : *type == 'C' ? !fields[0] || fields[1] || !contain_cgroup_path_ok(fields[0])
	    : *type == 'H' ? !fields[0] || !fields[1] || fields[2] || !hook_path_ok(fields[0])
			 : !undo_allowed((char *const *)fields, count_fields(fields))) {
		error("not journaling %s: the restore journal only takes the settings mmbench manages",
		      fields[0] ? fields[0] : "(nothing)");
		return -EPERM;
	}
	if (envctl_check_state())
		return -EPERM;
	strbuf_addf(&sb, "%d\t%s", (int)journal_owner(), type);
	for (; *fields; fields++) {
		strbuf_addch(&sb, '\t');
		escape_into(&sb, *fields);
	}
	strbuf_addch(&sb, '\n');
	fd = open(envctl_journal_path(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  0600);
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
	if (!envctl_knob_allowed(path) || !envctl_value_ok(old)) {
		error("not changing %s: %s", path, envctl_knob_allowed(path) ?
		      "its current value is too long or not printable to journal" :
		      "not a setting mmbench manages (see docs/security.md)");
		return -EPERM;
	}
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

int envctl_push_undo_hook(const char *unit_path)
{
	char boot[64];
	const char *fields[] = { unit_path, boot, NULL };

	host_boot_id(boot, sizeof(boot));
	return journal_append("H", fields);
}

int envctl_push_undo_cgroup(const char *dir)
{
	const char *fields[] = { dir, NULL };

	return journal_append("C", fields);
}

static int lock_fd = -1, machine_fd = -1;

/*
 * The machine lock: the knobs are the machine's, so two runs with
 * different state folders must not overlap either.  /run is root's; a
 * user who cannot create the lock there still locks it when a root run
 * made it (flock needs no write access), else falls back to /tmp, which
 * root also checks.  MMBENCH_LOCK points tests elsewhere.
 */
#define MACHINE_LOCK "/run/mmbench.lock"
#define MACHINE_LOCK_FALLBACK "/tmp/mmbench.lock"

const char *envctl_machine_lock_path(void)
{
	const char *env = getenv("MMBENCH_LOCK");

	return env && *env ? env : MACHINE_LOCK;
}

/* The pid holding an flock on fd's file, from /proc/locks; 0 if unknown. */
static pid_t flock_holder(int fd)
{
	struct stat st;
	char line[256];
	pid_t pid = 0;
	FILE *f;

	if (fstat(fd, &st) < 0 || !(f = fopen("/proc/locks", "re")))
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long long ino;
		char kind[16];
		int p;

		if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%llu", kind, &p, &maj, &min, &ino) == 5 &&
		    !strcmp(kind, "FLOCK") && ino == (unsigned long long)st.st_ino &&
		    maj == major(st.st_dev) && min == minor(st.st_dev))
			pid = p;
	}
	fclose(f);
	return pid;
}

/* "PID\tSTATE\n" a holder wrote: the state folder if pid wrote it. */
static bool holder_state(int fd, pid_t pid, char *state, size_t len)
{
	char buf[4200], *tab, *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	tab = strchr(buf, '\t');
	if (!tab || strtol(buf, &end, 10) != pid || end != tab || pid <= 0)
		return false;
	snprintf(state, len, "%s", strtrim(tab + 1));
	return true;
}

struct entry;
static int parse_entries(const char *buf, size_t len, int line, struct entry **out, size_t *nout);
static bool only_cgroups_left(const char *journal);

/* Open a lock file to flock: read-write when we may write it, else read-only. */
static int open_lock(const char *path, bool *ours)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	*ours = false;
	if (fd < 0 && errno != ELOOP)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* never write into what someone else could have planted (a hard link) */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    st.st_uid == geteuid() && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR)
		*ours = true;
	return fd;
}

/* flock path; 1 when taken, 0 when someone else holds it (error printed), -1 when unusable. */
static int take_machine_lock(const char *path, int *fdp)
{
	char state[4096], line[4200];
	bool ours;
	pid_t pid;
	int fd = open_lock(path, &ours);

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		pid = flock_holder(fd);
		if (pid && holder_state(fd, pid, state, sizeof(state)))
			error("another mmbench (pid %d) is running benchmarks with state folder %s and owns the system settings (machine lock %s); runs must not overlap",
			      (int)pid, state, path);
		else if (pid)
			error("another mmbench (pid %d) is running benchmarks and owns the system settings (machine lock %s); runs must not overlap",
			      (int)pid, path);
		else
			error("another mmbench is running benchmarks and owns the system settings (machine lock %s); runs must not overlap",
			      path);
		close(fd);
		return 0;
	}
	/* a holder that died without restoring, in a state folder not ours */
	{
		char prev[4096], *end;
		char buf[64] = "";
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		pid_t old;
		struct stat st;
		char *journal;

		buf[n > 0 ? n : 0] = '\0';
		old = (pid_t)strtol(buf, &end, 10);
		if (old > 0 && *end == '\t' && holder_state(fd, old, prev, sizeof(prev)) &&
		    strcmp(prev, state_dir)) {
			journal = xasprintf("%s/journal", prev);
			if (lstat(journal, &st) == 0 && st.st_size > 0 &&
			    (kill(old, 0) < 0 && errno == ESRCH) && !only_cgroups_left(journal)) {
				error("the previous run (pid %d, state folder %s) died without restoring the system settings; restore them first: MMBENCH_STATE=%s mmbench restore",
				      (int)old, prev, prev);
				free(journal);
				close(fd);
				return 0;
			}
			free(journal);
		}
	}
	if (ours) {
		snprintf(line, sizeof(line), "%d\t%s\n", (int)getpid(), state_dir);
		if (ftruncate(fd, 0) < 0 || pwrite(fd, line, strlen(line), 0) < 0)
			warning("cannot write %s", path);
	}
	*fdp = fd;
	return 1;
}

static int lock_machine(void)
{
	const char *path = envctl_machine_lock_path();
	int rc = take_machine_lock(path, &machine_fd);
	int fd = -1;

	if (rc == 0)
		return -1;
	if (rc < 0 && strcmp(path, MACHINE_LOCK))
		return error("cannot open the machine lock %s: %s", path, strerror(errno));
	if (rc < 0) {
		/* /run not ours and no root run made the lock: the shared fallback */
		rc = take_machine_lock(MACHINE_LOCK_FALLBACK, &machine_fd);
		if (rc < 0)
			return error("cannot open the machine lock %s or %s: %s", MACHINE_LOCK,
				     MACHINE_LOCK_FALLBACK, strerror(errno));
		return rc ? 0 : -1;
	}
	/* a user's run holding the fallback counts too (only ever opened, not created) */
	if (!getenv("MMBENCH_LOCK") &&
	    (fd = open(MACHINE_LOCK_FALLBACK, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
			pid_t pid = flock_holder(fd);

			error("another mmbench (pid %d) is running benchmarks and owns the system settings (machine lock %s); runs must not overlap",
			      (int)pid, MACHINE_LOCK_FALLBACK);
			close(fd);
			close(machine_fd);
			machine_fd = -1;
			return -1;
		}
		close(fd);
	}
	return 0;
}

int envctl_lock(void)
{
	char *path, pid[32] = "";
	ssize_t n;

	if (lock_fd >= 0)
		return 0;
	journal_owner();
	if (envctl_check_state())
		return -1;
	path = xasprintf("%s.lock", envctl_journal_path());
	lock_fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock_fd < 0) {
		error("cannot open %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		n = pread(lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		error("another mmbench (pid %s) is running benchmarks with state folder %s and owns the system settings (%s); runs must not overlap",
		      *strtrim(pid) ? strtrim(pid) : "?", state_dir, path);
		close(lock_fd);
		lock_fd = -1;
		free(path);
		return -1;
	}
	if (lock_machine()) {
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
	char type;		/* 'K', 'U', 'C', 'H', or 0 for a line that is no entry */
	bool kept;		/* an 'H' recovery keeps for the campaign (carried_hooks) */
	char **fields;
	int nfields;
	int line;		/* in the journal file, for messages */
};

static void entry_free(struct entry *e)
{
	for (int i = 0; i < e->nfields; i++)
		free(e->fields[i]);
	free(e->fields);
}

/* line: the journal line buf starts at */
static int parse_entries(const char *buf, size_t len, int line, struct entry **out, size_t *nout)
{
	size_t alloc = 0, nr = 0;
	struct entry *ents = NULL;
	const char *p = buf, *end = buf + len;

	for (; p < end; line++) {
		const char *nl = memchr(p, '\n', end - p);
		const char *f, *tab;
		char *pend;
		struct entry e = { 0 };
		size_t fa = 0;

		if (!nl)
			break;	/* torn last line: the change was never made */
		e.line = line;
		e.pid = (pid_t)strtol(p, &pend, 10);
		f = memchr(p, '\t', nl - p);
		/* kept with type 0 so the replay can say which line it skipped */
		if (f && f + 2 <= nl && pend == f && e.pid > 0 && (f + 2 == nl || f[2] == '\t')) {
			e.type = f[1];
			f += 2;
		} else {
			f = nl;
		}
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

/*
 * A dead run's journal in another state folder that holds only iteration
 * cgroups (a SIGKILL mid-iteration): nothing of the machine's settings to
 * put back, so no reason to refuse the machine; the cgroups are emptied and
 * removed here (the journal stays its owner's, replaying it later is a no-op).
 */
static bool only_cgroups_left(const char *journal)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *ents = NULL;
	size_t n = 0;
	bool only = true;

	if (strbuf_read_file(&sb, journal) < 0) {
		strbuf_release(&sb);
		return false;
	}
	parse_entries(sb.buf, sb.len, 1, &ents, &n);
	for (size_t i = 0; i < n; i++)
		only &= ents[i].type == 'C' && ents[i].nfields == 1 &&
			contain_cgroup_path_ok(ents[i].fields[0]);
	for (size_t i = 0; i < n; i++) {
		if (only)
			contain_cgroup_destroy(ents[i].fields[0]);
		entry_free(&ents[i]);
	}
	free(ents);
	strbuf_release(&sb);
	return only;
}

/* A journal field for a message: it may be anything, so at most 80 printable bytes. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; *s && i + 4 < len && i < 80; s++)
		buf[i++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
	if (*s)
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

/* Why an entry must not be replayed, or NULL. */
static const char *entry_refused(const struct entry *e)
{
	if (e->type == 'K') {
		if (e->nfields != 2)
			return "not a 'path value' entry";
		if (!envctl_knob_allowed(e->fields[0]))
			return "not a setting mmbench manages";
		if (!envctl_value_ok(e->fields[1]))
			return "the value is too long or not printable";
		return NULL;
	}
	if (e->type == 'U')
		return e->nfields >= 1 && undo_allowed(e->fields, e->nfields) ? NULL :
			"not a command mmbench journals (only swapoff /dev/zramN)";
	if (e->type == 'C')
		return e->nfields == 1 && contain_cgroup_path_ok(e->fields[0]) ? NULL :
			"not an iteration cgroup mmbench makes (.../mmbench-N-N)";
	if (e->type == 'H')
		return e->nfields == 2 && hook_path_ok(e->fields[0]) ? NULL :
			"not the resume hook mmbench installs";
	return "not a journal entry";
}

static int undo_entry(const struct entry *e, const char *journal)
{
	const char *why = entry_refused(e);
	char b1[96], b2[96];

	if (why)
		return error("%s:%d: skipping %s%s%s: %s", journal, e->line,
			     e->nfields ? "'" : "the line", e->nfields ? shown(e->fields[0], b1, sizeof(b1)) : "",
			     e->nfields ? "'" : "", why);
	/* contain.c journals its cgroups here: the one allowed file cycle (ALLOW_CYCLES) */
	if (e->type == 'C')
		return contain_cgroup_destroy(e->fields[0]);
	if (e->type == 'H')
		return envctl_remove_hook(e->fields[0]);
	if (e->type == 'K') {
		int ret = write_file_str(e->fields[0], e->fields[1]);

		if (ret)
			return error("cannot restore %s to '%s': %s", e->fields[0],
				     shown(e->fields[1], b2, sizeof(b2)), strerror(-ret));
		return 0;
	}
	if (e->type != 'U' || e->nfields != 2)	/* entry_refused() said so; said again for the analyzer */
		return -1;
	/* undo_allowed(): only "swapoff /dev/zramN", done with the syscall (no program needed) */
	if (swapoff(e->fields[1]) < 0 && errno != EINVAL)
		return error("restore step '%s %s' failed: %s", e->fields[0], e->fields[1],
			     strerror(errno));
	return 0;
}

/*
 * ab --host's resume hook journaled in an earlier boot of the machine (a
 * kexec or power cut, not a crash of this boot) is the campaign going on:
 * recovery keeps it (kept, written back) unless this boot journaled the hook too
 * and then died, which is a crash to undo, hook and all.
 */
static bool recovering;

static size_t carried_hooks(struct entry *ents, size_t n, bool carry)
{
	char boot[64];
	bool this_boot = false;
	size_t kept = 0;

	if (!carry)
		return 0;
	host_boot_id(boot, sizeof(boot));
	for (size_t i = 0; i < n; i++)
		this_boot |= ents[i].type == 'H' && ents[i].nfields == 2 &&
			     !strcmp(ents[i].fields[1], boot);
	for (size_t i = 0; i < n && !this_boot; i++)
		if (ents[i].type == 'H' && !entry_refused(&ents[i])) {
			ents[i].kept = true;
			kept++;
		}
	return kept;
}

int envctl_restore_to(off_t mark)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *ents = NULL;
	size_t n = 0;
	int ret = 0, fd, line = 1;
	const char *path = envctl_journal_path();

	if (envctl_check_state())
		return -1;
	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return errno == ENOENT ? 0 : -1;
	}
	if ((size_t)mark > sb.len)
		mark = sb.len;
	/* nothing journaled since the mark (an iteration that changed nothing) */
	if (mark > 0 && (size_t)mark == sb.len) {
		strbuf_release(&sb);
		return 0;
	}
	for (off_t i = 0; i < mark; i++)
		line += sb.buf[i] == '\n';
	parse_entries(sb.buf + mark, sb.len - mark, line, &ents, &n);
	strbuf_reset(&sb);
	carried_hooks(ents, n, recovering);
	/* a bad entry is reported and skipped; the others are still put back */
	for (size_t i = n; i-- > 0;) {
		if (ents[i].kept && ents[i].nfields == 2)	/* for the campaign: written back */
			strbuf_addf(&sb, "%d\tH\t%s\t%s\n", (int)ents[i].pid, ents[i].fields[0],
				    ents[i].fields[1]);
		else if (undo_entry(&ents[i], path))
			ret = -1;
		entry_free(&ents[i]);
	}
	free(ents);
	if (mark == 0 && sb.len) {
		if (write_file_atomic_mode(path, sb.buf, sb.len, 0600) < 0)
			ret = error("cannot rewrite the restore journal %s", path);
	} else if (mark == 0) {
		unlink(path);
	} else {
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (ftruncate(fd, mark) == 0)
				fsync(fd);
			close(fd);
		}
	}
	strbuf_release(&sb);
	return ret;
}

int envctl_restore_all(void)
{
	return envctl_restore_to(0);
}

int envctl_recover(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *ents = NULL;
	size_t n = 0, kept;
	bool live = false;
	int rc;

	if (envctl_check_state())
		return -1;
	if (strbuf_read_file(&sb, envctl_journal_path()) < 0 || !sb.len) {
		strbuf_release(&sb);
		return 0;
	}
	parse_entries(sb.buf, sb.len, 1, &ents, &n);
	kept = carried_hooks(ents, n, true);
	for (size_t i = 0; i < n; i++) {
		/* a hook of another boot has an old pid, perhaps someone's now */
		if (ents[i].type && !ents[i].kept && ents[i].pid != getpid() &&
		    kill(ents[i].pid, 0) == 0)
			live = true;
		entry_free(&ents[i]);
	}
	free(ents);
	strbuf_release(&sb);
	if (live || kept == n)
		return 0;	/* another mmbench owns the journal, or only the campaign's hook */
	warning("a previous mmbench run did not restore the system; restoring it now (%s)",
		envctl_journal_path());
	recovering = true;
	rc = envctl_restore_all();
	recovering = false;
	if (rc)
		warning("some settings could not be restored; see above (root needed?), then run `mmbench restore`");
	return 0;
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
	/* SIGINT/SIGTERM/SIGHUP/SIGQUIT are the caller's: a polite stop, not a crash */
	int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
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
	if (machine_fd >= 0)
		close(machine_fd);
	lock_fd = machine_fd = -1;
}
