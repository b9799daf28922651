#include "contain.h"
#include "envctl.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

static char *own_cg;		/* the harness's cgroup v2 folder, NULL: none usable */
static bool probed;
static unsigned int seq;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Where the cgroup2 hierarchy is mounted, and the mount's root in it. */
static bool cgroup2_mount(char *mnt, size_t mlen, char *root, size_t rlen)
{
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !found && getline(&line, &cap, f) > 0) {
		char r[4096], m[4096], type[64];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(sep + 3, "%63s", type) != 1 || strcmp(type, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2)
			continue;
		/* mountinfo escapes blanks as \040: such a mount point is not worth decoding */
		if (strchr(m, '\\') || strchr(r, '\\'))
			continue;
		snprintf(mnt, mlen, "%s", m);
		snprintf(root, rlen, "%s", r);
		found = true;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* The harness's own cgroup v2 folder, if it may make sub-cgroups there. */
static char *find_own_cgroup(void)
{
	char *line = NULL, *rel = NULL, *dir = NULL, mnt[4096], root[4096];
	size_t cap = 0, n;
	FILE *f = fopen("/proc/self/cgroup", "re");

	while (f && !rel && getline(&line, &cap, f) > 0)
		if (starts_with(line, "0::"))
			rel = xstrdup(strtrim(line + 3));
	free(line);
	if (f)
		fclose(f);
	if (!rel || !cgroup2_mount(mnt, sizeof(mnt), root, sizeof(root))) {
		free(rel);
		return NULL;
	}
	/* in a cgroup namespace the mount's root is a prefix of our path */
	n = strcmp(root, "/") ? strlen(root) : 0;
	if (!strncmp(rel, root, n) && (rel[n] == '/' || !rel[n]))
		dir = xasprintf("%s%s", mnt, strcmp(rel + n, "/") ? rel + n : "");
	free(rel);
	if (dir && access(dir, W_OK) < 0) {
		free(dir);
		dir = NULL;
	}
	return dir;
}

bool contain_cgroup_path_ok(const char *path)
{
	const char *base = strrchr(path, '/'), *p;

	if (path[0] != '/' || strstr(path, "/.") || strstr(path, "//") || strlen(path) > 4000 ||
	    !base || !starts_with(base, "/mmbench-"))
		return false;
	p = base + strlen("/mmbench-");
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '-' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p;
}

static bool cg_populated(const char *dir)
{
	char *path = xasprintf("%s/cgroup.events", dir), buf[256];
	FILE *f = fopen(path, "re");
	bool pop = false;

	while (f && fgets(buf, sizeof(buf), f))
		if (!strcmp(buf, "populated 1\n"))
			pop = true;
	if (f)
		fclose(f);
	free(path);
	return pop;
}

/* Killed tasks take a moment to leave: up to 5 s. */
static void cg_wait_empty(const char *dir)
{
	for (int i = 0; i < 5000 && cg_populated(dir); i++)
		sleep_ms(1);
}

/* SIGKILL everything in dir and below: cgroup.kill (5.14+), else one by one. */
static void cg_kill(const char *dir)
{
	char *path = xasprintf("%s/cgroup.kill", dir);

	if (write_file_str(path, "1") == -ENOENT) {
		free(path);
		path = xasprintf("%s/cgroup.procs", dir);
		for (int round = 0; round < 100 && cg_populated(dir); round++) {
			FILE *f = fopen(path, "re");
			long pid;

			while (f && fscanf(f, "%ld", &pid) == 1)
				kill((pid_t)pid, SIGKILL);
			if (f)
				fclose(f);
			sleep_ms(1);
		}
	}
	free(path);
}

/* rmdir dir and any sub-cgroups a (root) plugin made in it, deepest first. */
static int cg_rmdir_tree(const char *dir, int depth)
{
	DIR *d = depth < 16 ? opendir(dir) : NULL;
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			char *sub = xasprintf("%s/%s", dir, de->d_name);

			cg_rmdir_tree(sub, depth + 1);
			free(sub);
		}
	}
	if (d)
		closedir(d);
	/* exiting tasks may keep it busy a moment */
	for (int i = 0; i < 2000; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(1);
	}
	return -errno;
}

int contain_cgroup_destroy(const char *path)
{
	struct statfs sf;
	int ret;

	if (!contain_cgroup_path_ok(path))
		return error("not removing %s: not a cgroup mmbench makes", path);
	if (statfs(path, &sf) < 0)
		return errno == ENOENT ? 0 : error("cannot check %s: %s", path, strerror(errno));
	if (sf.f_type != CGROUP2_SUPER_MAGIC)
		return error("not removing %s: not a cgroup v2 folder", path);
	cg_kill(path);
	cg_wait_empty(path);
	ret = cg_rmdir_tree(path, 0);
	if (ret)
		return error("cannot remove the iteration cgroup %s: %s", path, strerror(-ret));
	return 0;
}

/* Our children, from /proc/self/task/TID/children; n = 0 when none. */
static size_t list_children(pid_t *out, size_t max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d))) {
		char path[300];
		FILE *f;
		long pid;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", de->d_name);
		f = fopen(path, "re");
		while (f && n < max && fscanf(f, "%ld", &pid) == 1)
			out[n++] = (pid_t)pid;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * The subreaper's part: orphans of the iteration are our children now.
 * Kill and reap every child but skip (the iteration child, which
 * run_child reaps itself) and the spared one until none is left.
 */
static pid_t spared;

void contain_spare(pid_t pid)
{
	spared = pid;
}

static void sweep(pid_t skip)
{
	pid_t kids[256];

	for (int round = 0; round < 1000; round++) {
		size_t n = list_children(kids, ARRAY_SIZE(kids)), left = 0;

		for (size_t i = 0; i < n; i++) {
			if (kids[i] == skip || (spared > 0 && kids[i] == spared))
				continue;
			left++;
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
		if (!left)
			return;
	}
}

static void become_reaper(void)
{
	static bool reaper;

	if (!reaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	reaper = true;
}

void contain_begin_reaper(struct contain *c)
{
	memset(c, 0, sizeof(*c));
	become_reaper();
}

static char *run_cg;		/* contain_run_begin()'s, or NULL */

static void probe(void)
{
	if (!probed) {
		const char *no = getenv("MMBENCH_NO_CGROUP");

		probed = true;
		/* the fallback, and a net under the cgroup: orphans come to us */
		become_reaper();
		if (!no || !*no || !strcmp(no, "0"))
			own_cg = find_own_cgroup();
	}
}

void contain_begin(struct contain *c)
{
	memset(c, 0, sizeof(*c));
	probe();
	if (!own_cg)
		return;
	if (run_cg) {
		c->cg = xstrdup(run_cg);
		c->shared = true;
		return;
	}
	c->cg = xasprintf("%s/mmbench-%d-%u", own_cg, (int)getpid(), seq++);
	if (mkdir(c->cg, 0755) < 0 && (errno != EEXIST || contain_cgroup_destroy(c->cg) ||
				       mkdir(c->cg, 0755) < 0)) {
		/* not ours to divide (not delegated): the subreaper alone, from now on */
		free(c->cg);
		c->cg = NULL;
		free(own_cg);
		own_cg = NULL;
		return;
	}
	/*
	 * a SIGKILLed run's cgroup is emptied and removed at the next start.
	 * The one allowed cycle of files (tools/check-layout.py ALLOW_CYCLES):
	 * the journal records this cgroup and its replay removes it with
	 * contain_cgroup_destroy(), one crash-safe mechanism split by job.
	 */
	envctl_push_undo_cgroup(c->cg);
}

void contain_enter(struct contain *c, pid_t pid)
{
	char *path, buf[32];

	c->pid = pid;
	if (!c->cg)
		return;
	path = xasprintf("%s/cgroup.procs", c->cg);
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	if (write_file_str(path, buf)) {
		if (c->shared)
			contain_run_end();	/* the rest make their own, or none */
		else
			rmdir(c->cg);
		free(c->cg);
		c->cg = NULL;
	}
	free(path);
}

void contain_kill(struct contain *c)
{
	if (c->pid > 0 && kill(-c->pid, SIGKILL) < 0)
		kill(c->pid, SIGKILL);
	if (c->cg)
		cg_kill(c->cg);
	sweep(c->pid);
}

void contain_end(struct contain *c)
{
	if (c->cg)
		cg_kill(c->cg);
	sweep(0);
	if (c->cg && c->shared) {
		/* the next iteration finds it empty: what is exiting has left */
		cg_wait_empty(c->cg);
	} else if (c->cg) {
		contain_cgroup_destroy(c->cg);
	}
	free(c->cg);
	c->cg = NULL;
}

void contain_run_begin(void)
{
	struct contain c;

	if (run_cg)
		return;
	contain_begin(&c);	/* made and journaled as an iteration's would be */
	run_cg = c.cg;
}

void contain_run_end(void)
{
	if (!run_cg)
		return;
	contain_cgroup_destroy(run_cg);
	free(run_cg);
	run_cg = NULL;
}
