/*
 * run --profile's perf side (perfrec.h, docs/profiles.md): the perf script
 * parser, the probe, and perf record attached to one iteration child.
 */
#include "perfrec.h"
#include "ksample.h"
#include "proc.h"
#include "envctl.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ parser */

/* One sample being read: its period, leaf and the innermost known frames. */
struct cur_sample {
	bool open;
	double period;
	size_t nframes;
	char chain[PROFILE_CHAIN_DEPTH][PROFILE_SYM_MAX + 1];
	size_t nchain;
};

static void sample_commit(struct profile_agg *a, struct cur_sample *s)
{
	const char *frames[PROFILE_CHAIN_DEPTH];

	if (!s->open)
		return;
	s->open = false;
	for (size_t i = 0; i < s->nchain; i++)
		frames[i] = s->chain[i];
	profile_agg_add(a, s->period, frames, s->nchain);
}

/* "\t    ffffffff8123 clear_page_erms ([kernel.kallsyms])": the symbol into s. */
static int parse_frame(struct cur_sample *s, const char *line, char *err, size_t errlen,
		       size_t lineno)
{
	const char *p = line, *sym, *end;
	char name[PROFILE_SYM_MAX + 1];
	size_t len, o = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isxdigit((unsigned char)*p)) {
		snprintf(err, errlen, "line %zu: a call-chain frame without an address", lineno);
		return -1;
	}
	while (isxdigit((unsigned char)*p))
		p++;
	while (*p == ' ')
		p++;
	sym = p;
	end = sym + strlen(sym);
	while (end > sym && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	/* the dso in parentheses at the end: the last " (" */
	for (const char *q = end; q > sym; q--)
		if (q[-1] == ' ' && q[0] == '(') {
			end = q - 1;
			break;
		}
	len = (size_t)(end - sym);
	/* lkp's names have no blanks: a demangled C++ name gets '_' */
	for (size_t i = 0; i < len && o < PROFILE_SYM_MAX; i++)
		name[o++] = isspace((unsigned char)sym[i]) ? '_' : sym[i];
	name[o] = '\0';
	if (!o)
		snprintf(name, sizeof(name), "[unknown]");
	s->nframes++;
	/* the leaf always; callers only when perf knew them (else they break chains) */
	if (s->nchain < PROFILE_CHAIN_DEPTH && (s->nframes == 1 || strcmp(name, "[unknown]")))
		snprintf(s->chain[s->nchain++], PROFILE_SYM_MAX + 1, "%s", name);
	return 0;
}

int profile_agg_parse(struct profile_agg *a, FILE *f, char *err, size_t errlen)
{
	struct cur_sample *s = xcalloc(1, sizeof(*s));
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int ret = 0;

	while (!ret && getline(&line, &cap, f) >= 0) {
		const char *p = line;

		lineno++;
		if (line[0] == '\t') {
			if (!s->open) {
				snprintf(err, errlen, "line %zu: a call-chain frame before any sample",
					 lineno);
				ret = -1;
			} else {
				ret = parse_frame(s, line, err, errlen, lineno);
			}
			continue;
		}
		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\r' || !*p) {
			sample_commit(a, s);
			continue;
		}
		if (!isdigit((unsigned char)*p)) {
			snprintf(err, errlen, "line %zu: expected a sample's period"
				 " (perf script -F period,ip,sym,dso), not \"%.40s\"", lineno, p);
			ret = -1;
			break;
		}
		sample_commit(a, s);
		memset(s, 0, sizeof(*s));
		s->open = true;
		s->period = strtod(p, NULL);
	}
	if (!ret)
		sample_commit(a, s);
	free(line);
	free(s);
	return ret;
}

/* ------------------------------------------------------------- probe */

static int try_event(uint32_t type, uint64_t config)
{
	struct perf_event_attr at;
	int fd;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = type;
	at.config = config;
	at.sample_period = 1000000;
	at.disabled = 1;
	at.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void first_line(const char *s, char *out, size_t len)
{
	size_t n = strcspn(s, "\n");

	snprintf(out, len, "%.*s", (int)n, s);
}

/* The built-in sampler as p's profiler: 0, or -1 with why. */
static int builtin_probe(struct perfrec_probe *p, char *why, size_t len)
{
	if (ksampler_probe(why, len))
		return -1;
	p->event = "cpu-clock";
	p->builtin = true;
	p->usable = true;
	return 0;
}

void perfrec_probe(struct perfrec_probe *p)
{
	const char *env = getenv("MMBENCH_PERF");
	const char *argv[] = { p->perf, "--version", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char msg[256], par[32] = "?";
	int rc, hw, sw;

	memset(p, 0, sizeof(*p));
	snprintf(p->perf, sizeof(p->perf), "%s", env && *env ? env : "perf");
	if (!strcmp(p->perf, "builtin")) {
		if (builtin_probe(p, msg, sizeof(msg)))
			snprintf(p->why, sizeof(p->why), "the built-in sampler (MMBENCH_PERF=builtin)"
				 " cannot run: %s", msg);
		return;
	}
	rc = run_argv(argv, &out, &err);
	first_line(err.len ? err.buf : out.buf ? out.buf : "", msg, sizeof(msg));
	strbuf_release(&out);
	strbuf_release(&err);
	if (rc == 127 || rc < 0) {
		char why[256];

		/* no perf on PATH (an arm64 guest): the built-in sampler, if the kernel lets it;
		 * a perf named by MMBENCH_PERF is what was asked for, and only that */
		if (env && *env) {
			snprintf(p->why, sizeof(p->why), "perf is not installed (%s: %s; Debian:"
				 " apt-get install linux-perf)", p->perf, *msg ? msg : "cannot run it");
			return;
		}
		if (!builtin_probe(p, why, sizeof(why)))
			return;
		snprintf(p->why, sizeof(p->why), "perf is not installed (%.200s: %.200s; Debian:"
			 " apt-get install linux-perf), and the built-in sampler cannot run: %s", p->perf,
			 *msg ? msg : "cannot run it", why);
		return;
	}
	if (rc) {
		snprintf(p->why, sizeof(p->why), "`%s --version` failed (status %d): %s", p->perf,
			 rc, msg);
		return;
	}
	hw = try_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (!hw) {
		p->event = "cycles";
		p->usable = true;
		return;
	}
	sw = try_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	if (sw == -EACCES || sw == -EPERM) {
		read_line_file("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
		snprintf(p->why, sizeof(p->why), "not permitted: kernel.perf_event_paranoid is %s"
			 " (profiling the kernel needs root, CAP_PERFMON or a value <= 1)", par);
		return;
	}
	if (sw) {
		snprintf(p->why, sizeof(p->why), "cannot sample cpu-clock: %s", strerror(-sw));
		return;
	}
	p->event = "cpu-clock";
	p->no_pmu = hw == -ENOENT || hw == -EOPNOTSUPP || hw == -ENODEV;
	p->usable = true;
}

/* ------------------------------------------------------ perf processes */

/*
 * perf with stdout/stderr on out/err and keep[i] as its fd 3+i, nothing
 * else of ours open in it, in a process group of its own (the terminal's
 * ^C is the harness's to handle); it ends with us.  The pid, or -1.
 */
static pid_t spawn(const char *const *argv, int out, int err, const int *keep, int nkeep)
{
	struct proc p = PROC_INIT(argv);

	p.out_fd = out;
	p.err_fd = err;
	p.keep_fds = keep;
	p.nkeep = nkeep;
	p.flags = PROC_NEW_PGRP | PROC_CLOSE_FDS;
	return proc_start(&p) < 0 ? -1 : p.pid;
}

/* The last line perf wrote to its log, for messages. */
static void log_tail(const char *path, char *out, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *s, *nl;

	snprintf(out, len, "(no message)");
	if (read_file_capped(&sb, path, 1 << 20) < 0) {
		strbuf_release(&sb);
		return;
	}
	s = strtrim(sb.buf ? sb.buf : (char *)"");
	nl = strrchr(s, '\n');
	if (*s)
		snprintf(out, len, "%s", strtrim(nl ? nl + 1 : s));
	strbuf_release(&sb);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Send one --control command and wait up to ms for perf's "ack". 0 or -1. */
static int ctl_cmd(int ctl, int ack, const char *cmd, int ms)
{
	char buf[64];
	size_t got = 0;
	struct timespec t0, t;
	size_t len = strlen(cmd);

	if (send(ctl, cmd, len, MSG_NOSIGNAL) != (ssize_t)len)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = ack, .events = POLLIN };
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - (int)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return -1;
		if (poll(&pfd, 1, left) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!pfd.revents)
			continue;
		n = read(ack, buf + got, sizeof(buf) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;	/* perf is gone */
		got += (size_t)n;
		buf[got] = '\0';
		if (strchr(buf, '\n') || got == sizeof(buf) - 1)
			return strncmp(buf, "ack", 3) ? -1 : 0;
	}
}

/* A file name part: letters, digits and ._=,+- only. */
static void name_part(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addch(sb, isalnum((unsigned char)*s) || strchr("._=,+-", *s) ? *s : '_');
}

int perfrec_begin(struct perfrec *r, const struct perfrec_probe *p, int64_t run_id,
		  const char *workload, const char *variant)
{
	struct strbuf base = STRBUF_INIT;
	const char *journal = envctl_journal_path(), *slash = strrchr(journal, '/');
	char *dir;

	memset(r, 0, sizeof(*r));
	r->probe = p;
	r->run_id = run_id;
	r->ctl[0] = r->ctl[1] = r->ack[0] = r->ack[1] = -1;
	if (p->builtin) {
		char why[512];

		/* opened before the child is forked: it inherits the events to enable */
		r->ks = xcalloc(1, sizeof(*r->ks));
		if (ksampler_open(r->ks, why, sizeof(why))) {
			free(r->ks);
			r->ks = NULL;
			return error("profile: %s", why);
		}
		return 0;
	}
	dir = xasprintf("%.*s/profile", slash ? (int)(slash - journal) : 1, slash ? journal : ".");
	if (mkdir_p(dir, 0755) < 0) {
		error("profile: cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	strbuf_addf(&base, "%s/run%lld-", dir, (long long)run_id);
	name_part(&base, workload);
	if (variant && *variant) {
		strbuf_addch(&base, '-');
		name_part(&base, variant);
	}
	r->data = xasprintf("%s.data", base.buf);
	r->log = xasprintf("%s.log", base.buf);
	strbuf_release(&base);
	free(dir);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, r->ctl) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, r->ack) < 0) {
		error("profile: socketpair: %s", strerror(errno));
		perfrec_release(r);
		return -1;
	}
	return 0;
}

static void attach(struct perfrec *r, pid_t child)
{
	char pid[24];
	const char *argv[] = { r->probe->perf, "record", "-g", "-e", r->probe->event, "-p", pid,
			       "-D", "-1", "--control", "fd:3,4", "-o", r->data, NULL };
	int keep[2], logfd;

	keep[0] = r->ctl[1];
	keep[1] = r->ack[1];
	snprintf(pid, sizeof(pid), "%d", (int)child);
	unlink(r->data);	/* perf would keep the old one as .old */
	logfd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		snprintf(r->why, sizeof(r->why), "cannot write %s: %s", r->log, strerror(errno));
		goto out;
	}
	r->pid = spawn(argv, logfd, logfd, keep, 2);
	close(logfd);
	if (r->pid < 0) {
		r->pid = 0;
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		goto out;
	}
	close_fd(&r->ctl[1]);
	close_fd(&r->ack[1]);
	/* a no-op command: its ack says perf has opened its events on the child */
	if (ctl_cmd(r->ctl[0], r->ack[0], "disable\n", 30000) == 0) {
		r->attached = true;
	} else {
		char tail[400];

		log_tail(r->log, tail, sizeof(tail));
		snprintf(r->why, sizeof(r->why), "perf record did not start: %s", tail);
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
out:
	close_fd(&r->ctl[1]);
	close_fd(&r->ack[1]);
	/*
	 * Our ends stay open until perf is done: a hang-up on its control
	 * socket while it records (the child exiting) makes perf 6.1 fail
	 * with "Thread and evlist pollfd index mismatch" and lose the data.
	 */
}

void perfrec_attach(struct perfrec *r, pid_t child)
{
	if (r && r->ks)
		r->attached = true;	/* system-wide: nothing to attach to */
	else if (r)
		attach(r, child);
}

void perfrec_poll(struct perfrec *r)
{
	if (r && r->ks)
		ksampler_drain(r->ks);
}

void perfrec_child_init(struct perfrec *r)
{
	/* with perf's ends closed here, a dead perf reads as EOF, not a hang */
	close_fd(&r->ctl[1]);
	close_fd(&r->ack[1]);
	r->on = false;
}

void perfrec_child_enable(struct perfrec *r, bool on)
{
	if (r->ks && r->on != on)
		ksampler_enable(r->ks, on);
	if (r->ks)
		r->on = on;
	if (r->ctl[0] < 0 || r->on == on)
		return;
	r->on = on;
	if (ctl_cmd(r->ctl[0], r->ack[0], on ? "enable\n" : "disable\n", 10000))
		close_fd(&r->ctl[0]);	/* perf is gone: no more waiting on it */
}

/* Wait up to ms for pid; its status, or -1 when it still runs (or is not ours). */
static int wait_ms(pid_t pid, int ms, int *status)
{
	for (int t = 0; t <= ms; t += 20) {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -2;	/* reaped elsewhere: killed with the iteration */
		usleep(20000);
	}
	return -1;
}

void perfrec_stop(struct perfrec *r)
{
	int status = 0, rc;
	char tail[400];

	if (!r)
		return;
	if (r->ks) {
		ksampler_enable(r->ks, false);	/* a child killed inside its timed region */
		ksampler_drain(r->ks);
		return;
	}
	if (r->pid <= 0) {
		close_fd(&r->ctl[0]);
		close_fd(&r->ack[0]);
		return;
	}
	/* perf record -p ends by itself once the child is gone */
	rc = wait_ms(r->pid, 10000, &status);
	if (rc == -1) {
		kill(r->pid, SIGINT);
		rc = wait_ms(r->pid, 10000, &status);
	}
	if (rc == -1) {
		kill(r->pid, SIGKILL);
		rc = waitpid(r->pid, &status, 0) == r->pid ? 0 : -2;
	}
	r->pid = 0;
	close_fd(&r->ctl[0]);
	close_fd(&r->ack[0]);
	if (rc == -2) {
		snprintf(r->why, sizeof(r->why), "perf record was killed with the iteration");
	} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGINT) {
		snprintf(r->why, sizeof(r->why), "perf record was killed by signal %d",
			 WTERMSIG(status));
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		log_tail(r->log, tail, sizeof(tail));
		snprintf(r->why, sizeof(r->why), "perf record failed (status %d): %s",
			 WEXITSTATUS(status), tail);
	}
}

/* The built-in sampler's aggregate handed over to a. */
static int builtin_read(struct perfrec *r, struct profile_agg *a)
{
	struct ksampler *ks = r->ks;

	ksampler_drain(ks);
	profile_agg_release(a);
	*a = ks->agg;
	profile_agg_init(&ks->agg);
	if (ks->err[0])
		snprintf(r->why, sizeof(r->why), "the built-in sampler read %s", ks->err);
	else if (!a->samples)
		snprintf(r->why, sizeof(r->why), "the built-in sampler recorded no samples");
	return r->why[0] ? -1 : 0;
}

int perfrec_read(struct perfrec *r, struct profile_agg *a)
{
	const char *argv[] = { r->probe->perf, "script", "-i", r->data, "-F", "period,ip,sym,dso",
			       NULL };
	char err[256] = "", tail[400];
	int pfd[2], logfd, status = 0, rc;
	pid_t pid;
	FILE *f;

	if (r->why[0])
		return -1;
	if (r->ks)
		return builtin_read(r, a);
	logfd = open(r->log, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (logfd < 0 || pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(r->why, sizeof(r->why), "cannot run perf script: %s", strerror(errno));
		if (logfd >= 0)
			close(logfd);
		return -1;
	}
	pid = spawn(argv, pfd[1], logfd, NULL, 0);
	close(pfd[1]);
	close(logfd);
	f = pid > 0 ? fdopen(pfd[0], "r") : NULL;
	if (!f) {
		close(pfd[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		snprintf(r->why, sizeof(r->why), "cannot run perf script: %s", strerror(errno));
		return -1;
	}
	rc = profile_agg_parse(a, f, err, sizeof(err));
	fclose(f);	/* a perf script still writing gets EPIPE and ends */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		snprintf(r->why, sizeof(r->why), "cannot read perf script's output: %s", err);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		log_tail(r->log, tail, sizeof(tail));
		snprintf(r->why, sizeof(r->why), "perf script failed: %s", tail);
	} else if (!a->samples) {
		snprintf(r->why, sizeof(r->why), "perf recorded no samples");
	}
	return r->why[0] ? -1 : 0;
}

void perfrec_release(struct perfrec *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
	}
	close_fd(&r->ctl[0]);
	close_fd(&r->ctl[1]);
	close_fd(&r->ack[0]);
	close_fd(&r->ack[1]);
	if (r->ks) {
		ksampler_close(r->ks);
		free(r->ks);
		r->ks = NULL;
	}
	free(r->data);
	free(r->log);
	r->data = r->log = NULL;
}

/* What the built-in sampler could not do: said once a run (unnamed symbols), or per profile (lost). */
static void builtin_notes(struct perfrec *r)
{
	static bool said_syms;

	if (!r->ks)
		return;
	if (r->ks->syms_why[0] && !said_syms) {
		said_syms = true;
		warning("profile: %s", r->ks->syms_why);
	}
	if (r->ks->lost)
		warning("profile: the built-in sampler lost %lld samples (its ring buffers"
			" were full)", (long long)r->ks->lost);
}

int perfrec_store(struct perfrec *r, struct result_sink *sink, const struct profile_info *info_)
{
	struct profile_info p = *info_;
	struct profile_agg a;
	struct profile_entry *e = NULL;
	size_t n;
	int ret = -1;

	profile_agg_init(&a);
	if (perfrec_read(r, &a))
		goto out;
	n = profile_agg_entries(&a, PROFILE_STORE_MIN, &e);
	p.event = r->probe->event;
	p.note = r->ks ? PERFREC_BUILTIN_NOTE : r->probe->no_pmu ? "no hardware PMU" : NULL;
	p.samples = a.samples;
	if (sink_profile(sink, &p, e, n) == 0) {
		/* the biggest self share: what the profile is mostly about */
		const char *top = n && e[0].kind == PROFILE_SELF ? e[0].name : "?";

		info("profile of %s%s%s: %lld samples of %s, most in %s (%.1f%%); %s%s",
		     p.workload, *p.variant ? " " : "", p.variant, (long long)a.samples, p.event, top,
		     n ? e[0].pct : 0.0, r->ks ? "built-in sampler, every CPU" : "perf data: ",
		     r->ks ? "" : r->data);
		builtin_notes(r);
		ret = 0;
	}
	profile_entries_free(e, n);
out:
	if (ret && r->why[0])
		warning("no profile of %s%s%s: %s", p.workload, *p.variant ? " " : "", p.variant,
			r->why);
	profile_agg_release(&a);
	return ret;
}
