// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng: one mm stressor of Debian's stress-ng, run the way lkp's
 * stress-ng test runs it (programs/stress-ng/run), its output parsed by
 * lkp's rules (programs/stress-ng/parse) into lkp's metric names.
 *
 * The command, exec'ed without a shell in the iteration's child:
 *   stress-ng --timeout T --times --verify --metrics --no-rand-seed
 *             [--oom-avoid | --pathological] [--S-method all]
 *             --temp-path DIR --S N
 * --S-method all is added exactly when lkp adds it: when stress-ng --help
 * lists the stressor's method option with "all" among its choices (or an
 * explicit `method` is given).  The metrics: every line of the table after
 * the "(secs) (secs) (secs)" header gives S.ops (bogo ops) and
 * S.ops_per_sec (bogo ops/s, real time); every "miscellaneous" line gives
 * S.<its words joined by _> (pagemove.page_remaps_per_sec).  A stressor
 * with 0 bogo ops is lkp's S.fail: the iteration fails with the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <poll.h>

#include <mmbench/workload.h>

enum { P_TEST, P_NR_THREADS, P_TESTTIME, P_METHOD, P_DIR };

/* The mm stressors: X(stressor, lkp options beyond the common ones) */
#define SNG_STRESSORS(X)						\
	X(bigheap, "--oom-avoid") X(brk, "--oom-avoid") X(dev_shm, NULL)	\
	X(fork, NULL) X(madvise, NULL) X(malloc, NULL) X(memfd, NULL)	\
	X(mincore, NULL) X(mlock, NULL) X(mlockmany, "--pathological")	\
	X(mmap, NULL) X(mmapaddr, NULL) X(mmapfixed, NULL) X(mmapfork, NULL) \
	X(mmaphuge, "--oom-avoid") X(mmapmany, "--oom-avoid") X(mprotect, NULL) \
	X(mremap, NULL) X(msync, NULL) X(msyncmany, NULL) X(munmap, NULL) \
	X(pagemove, NULL) X(pageswap, "--oom-avoid") X(physpage, NULL)	\
	X(remap, NULL) X(rmap, NULL) X(shm, NULL) X(shm_sysv, NULL)	\
	X(stack, NULL) X(stackmmap, NULL) X(tlb_shootdown, NULL) X(tmpfs, NULL) \
	X(userfaultfd, NULL) X(vm, NULL) X(vm_addr, NULL) X(vm_rw, NULL)	\
	X(vm_segv, NULL) X(vm_splice, NULL)

#define SNG_ENUM(s, o) S_##s,
enum { SNG_STRESSORS(SNG_ENUM) NSTRESSORS };

/* stress-ng's names have '-' where C has '_' */
static const char *const stressor_opts[] = {
#define SNG_OPT(s, o) o,
	SNG_STRESSORS(SNG_OPT)
};

#define SNG_CHOICES "bigheap|brk|dev-shm|fork|madvise|malloc|memfd|mincore|mlock|" \
	"mlockmany|mmap|mmapaddr|mmapfixed|mmapfork|mmaphuge|mmapmany|mprotect|mremap|" \
	"msync|msyncmany|munmap|pagemove|pageswap|physpage|remap|rmap|shm|shm-sysv|stack|" \
	"stackmmap|tlb-shootdown|tmpfs|userfaultfd|vm|vm-addr|vm-rw|vm-segv|vm-splice"

static const struct mmb_param_def sng_params[] = {
	[P_TEST] = { "test", MMB_PARAM_ENUM, "pagemove", 0, 0, SNG_CHOICES,
		     "the stressor (lkp test)" },
	[P_NR_THREADS] = { "nr_threads", MMB_PARAM_INT, "100%", 1, 4096, NULL,
			   "instances (lkp nr_threads: 100% = one per CPU)" },
	[P_TESTTIME] = { "testtime", MMB_PARAM_DURATION, "60s", 1000000000LL, 86400000000000LL,
			 NULL, "--timeout, whole seconds (lkp testtime)" },
	[P_METHOD] = { "method", MMB_PARAM_STRING, "", 0, 0, NULL,
		       "--<stressor>-method M; empty: 'all' where stress-ng offers it (lkp's rule)" },
	[P_DIR] = { "dir", MMB_PARAM_STRING, "/tmp", 0, 0, NULL,
		    "--temp-path: where stressors make their files" },
	{ 0 },
};

#define METRIC(n, u, b, h) { .name = (n), .unit = (u), .better = (b), .help = (h) },
#define OPS(s) METRIC(#s ".ops", "bogo-ops", MMB_HIGHER_IS_BETTER, "bogo ops of all instances") \
	METRIC(#s ".ops_per_sec", "bogo-ops/s", MMB_HIGHER_IS_BETTER, "bogo ops per second, real time")
#define FAST(n, u) METRIC(n, u, MMB_HIGHER_IS_BETTER, "stress-ng's miscellaneous metric")
#define SLOW(n, u) METRIC(n, u, MMB_LOWER_IS_BETTER, "stress-ng's miscellaneous metric")

/* lkp's names: '-' kept in the stressor ("vm-rw.ops"). */
static const struct mmb_metric_def sng_metrics[] = {
	OPS(bigheap) OPS(brk) OPS(dev-shm) OPS(fork) OPS(madvise) OPS(malloc) OPS(memfd)
	OPS(mincore) OPS(mlock) OPS(mlockmany) OPS(mmap) OPS(mmapaddr) OPS(mmapfixed)
	OPS(mmapfork) OPS(mmaphuge) OPS(mmapmany) OPS(mprotect) OPS(mremap) OPS(msync)
	OPS(msyncmany) OPS(munmap) OPS(pagemove) OPS(pageswap) OPS(physpage) OPS(remap)
	OPS(rmap) OPS(shm) OPS(shm-sysv) OPS(stack) OPS(stackmmap) OPS(tlb-shootdown)
	OPS(tmpfs) OPS(userfaultfd) OPS(vm) OPS(vm-addr) OPS(vm-rw) OPS(vm-segv) OPS(vm-splice)
	FAST("bigheap.realloc_calls_per_sec", "calls/s")
	SLOW("brk.nanosecs_per_sbrk_page_expand", "ns")
	SLOW("brk.nanosecs_per_sbrk_page_shrink", "ns")
	SLOW("memfd.nanosecs_per_memfd_create_call", "ns")
	SLOW("mincore.nanosecs_per_mincore_call", "ns")
	SLOW("mlock.nanosecs_per_mlock_call", "ns")
	SLOW("mlock.nanosecs_per_munlock_call", "ns")
	SLOW("mremap.nanosecs_per_mremap_call", "ns")
	SLOW("munmap.nanosecs_per_page_mmap", "ns")
	FAST("pagemove.page_remaps_per_sec", "remaps/s")
	SLOW("remap.nanosecs_per_page_remap", "ns")
	SLOW("shm-sysv.nanosecs_per_shmget_call", "ns")
	SLOW("shm-sysv.nanosecs_per_shmat_call", "ns")
	SLOW("shm-sysv.nanosecs_per_shmdt_call", "ns")
	SLOW("userfaultfd.nanosecs_per_page_fault", "ns")
	FAST("vm-splice.vm-splice_calls_per_sec", "calls/s")
	FAST("vm-splice.MB_per_sec_vm-splice_rate", "MB/s")
	{ 0 },
};

#define OUT_CAP		(1u << 20)	/* stress-ng's output kept for parsing */
#define MAX_ARGS	32

struct sng_state {
	char bin[4096];
	char stressor[32];
	char *out;
	size_t len;
	bool method_all;
};

static void stressor_name(const struct mmb_value *params, char *buf, size_t len)
{
	snprintf(buf, len, "%s", params[P_TEST].s);
}

/* stress-ng on $PATH, as execvp would find it (no shell). */
static bool find_stress_ng(char *buf, size_t len)
{
	const char *path = getenv("PATH");

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		size_t n = strcspn(path, ":");
		struct stat sb;

		snprintf(buf, len, "%.*s/stress-ng", (int)n, n ? path : ".");
		if (!stat(buf, &sb) && S_ISREG(sb.st_mode) && !access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static const char *sng_check_params(const struct mmb_value *params)
{
	const char *m = params[P_METHOD].s;

	if (!params[P_DIR].s[0])
		return "dir must not be empty";
	if (params[P_TESTTIME].i % 1000000000LL)
		return "testtime: whole seconds (stress-ng --timeout)";
	if (strlen(m) > 64 || m[0] == '-' || strpbrk(m, " \t\n/"))
		return "method: one stress-ng method name";
	return NULL;
}

static const char *sng_supported(const struct mmb_host *host, const struct mmb_value *params)
{
	char bin[4096];

	(void)host;
	(void)params;
	if (!find_stress_ng(bin, sizeof(bin)))
		return "stress-ng is not installed (apt-get install stress-ng)";
	return NULL;
}

/*
 * Run argv (argv[0] a path), its stdout and stderr into *out (at most
 * OUT_CAP bytes kept).  Polls should_stop; then the command is killed.
 * Returns its wait status, or -1 with errno.
 */
static int capture(const struct mmb_host *host, struct mmb_ctx *ctx, char *const argv[],
		   char **out, size_t *len)
{
	int pfd[2], status = 0;
	size_t cap = 65536;
	pid_t pid;
	bool killed = false;

	*len = 0;
	*out = malloc(cap);
	if (!*out || pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { pfd[0], POLLIN, 0 };
		char buf[8192];
		ssize_t n;

		if (!killed && host->should_stop(ctx)) {
			kill(pid, SIGTERM);
			killed = true;
		}
		if (poll(&p, 1, 200) <= 0)
			continue;
		n = read(pfd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (*len + (size_t)n + 1 > cap && cap < OUT_CAP) {
			char *b = realloc(*out, cap * 4);

			if (b) {
				*out = b;
				cap *= 4;
			}
		}
		if (*len + (size_t)n + 1 <= cap) {
			memcpy(*out + *len, buf, (size_t)n);
			*len += (size_t)n;
		}
	}
	close(pfd[0]);
	(*out)[*len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* lkp's rule: stress-ng --help lists "--S-method" with "all" among its choices. */
static bool offers_method_all(const char *help, const char *stressor)
{
	char opt[64];
	size_t ol;

	snprintf(opt, sizeof(opt), "--%s-method ", stressor);
	ol = strlen(opt);
	for (const char *l = help; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *s = l, *end = strchr(l, '\n');
		size_t ll = end ? (size_t)(end - l) : strlen(l);
		char line[512];

		while (*s == ' ' && s < l + ll)
			s++;
		if (s == l || strncmp(s, opt, ol))
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)ll, l);
		{
			const char *b = strchr(line, '[');

			if ((b && strstr(b, "all")) || strstr(line, "all,"))
				return true;
		}
	}
	return false;
}

static int sng_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *params, void **state)
{
	struct sng_state *st = calloc(1, sizeof(*st));
	char *help = NULL, *ver = NULL;
	size_t hl, vl;

	if (!st) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = st;
	stressor_name(params, st->stressor, sizeof(st->stressor));
	if (!find_stress_ng(st->bin, sizeof(st->bin))) {
		host->skip(ctx, "stress-ng is not installed (apt-get install stress-ng)");
		return MMB_SKIP;
	}
	{
		char *const vargv[] = { st->bin, "--version", NULL };

		if (capture(host, ctx, vargv, &ver, &vl) >= 0 && vl)
			host->log(ctx, MMB_LOG_DEBUG, "%.*s", (int)strcspn(ver, "\n"), ver);
		free(ver);
	}
	if (!params[P_METHOD].s[0]) {
		char *const hargv[] = { st->bin, "--help", NULL };

		if (capture(host, ctx, hargv, &help, &hl) >= 0)
			st->method_all = offers_method_all(help, st->stressor);
		free(help);
	}
	return MMB_OK;
}

/* "nanosecs per page mmap()" -> "nanosecs_per_page_mmap" (lkp's normalize). */
static void normalize(const char *in, char *out, size_t len)
{
	size_t o = 0;
	bool sep = false;

	for (; *in && o + 1 < len; in++) {
		if (strchr(" \t,\"_[]():", *in)) {
			sep = o > 0;
			continue;
		}
		if (sep && o + 2 < len)
			out[o++] = '_';
		sep = false;
		out[o++] = *in;
	}
	out[o] = '\0';
}

static int metric_index(const char *name)
{
	for (int i = 0; sng_metrics[i].name; i++)
		if (!strcmp(sng_metrics[i].name, name))
			return i;
	return -1;
}

struct parsed {
	int nok, nfail;
	char why[600];		/* the 0-ops stressor, or why none ran */
	char err[256];		/* stress-ng's first error/fail line, without its prefix */
};

/* "stress-ng: error: [123] tmpfs: cannot ..." -> "tmpfs: cannot ..." */
static void keep_error(const char *l, char *buf, size_t len)
{
	const char *b = strchr(l, ']');

	if (buf[0])
		return;
	b = b ? b + 1 : l;
	while (*b == ' ')
		b++;
	snprintf(buf, len, "%s", b);
}

/* A line of the table: "stress-ng: metrc: [pid] S ops real usr sys ops/s ops/s [cpu% rss]". */
static void parse_major(const struct mmb_host *host, struct mmb_ctx *ctx, char *line,
			struct parsed *p)
{
	char *tok[16], *save = NULL, name[96];
	int n = 0, m;

	for (char *t = strtok_r(line, " \t\r", &save); t && n < 16; t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	if (n != 10 && n != 12)
		return;
	if (!strcmp(tok[4], "0")) {
		p->nfail++;
		snprintf(p->why, sizeof(p->why), "%s: 0 bogo ops (lkp: %s.fail)%s%s", tok[3], tok[3],
			 p->err[0] ? ": " : "", p->err);
		return;
	}
	snprintf(name, sizeof(name), "%s.ops", tok[3]);
	if ((m = metric_index(name)) >= 0)
		host->report(ctx, (unsigned int)m, strtod(tok[4], NULL));
	snprintf(name, sizeof(name), "%s.ops_per_sec", tok[3]);
	if ((m = metric_index(name)) >= 0) {
		host->report(ctx, (unsigned int)m, strtod(tok[8], NULL));
		p->nok++;
	}
}

/* "... S VALUE words of the unit (geometric mean of N instances)" */
static void parse_misc(const struct mmb_host *host, struct mmb_ctx *ctx, char *line)
{
	char *paren = NULL, *save = NULL, *tok[64], unit[160] = "", words[160] = "", name[256];
	const char *kinds[] = { " (average", " (geometic mean", " (geometric mean",
				" (harmonic mean", " (total", NULL };
	int n = 0, m;

	for (int k = 0; kinds[k]; k++)
		if ((paren = strstr(line, kinds[k])))
			break;
	if (!paren)
		return;
	*paren = '\0';
	for (char *t = strtok_r(line, " \t\r", &save); t && n < 64; t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	if (n < 6)
		return;
	for (int i = 5; i < n; i++)
		snprintf(words + strlen(words), sizeof(words) - strlen(words), "%s%s", i > 5 ? " " : "",
			 tok[i]);
	normalize(words, unit, sizeof(unit));
	snprintf(name, sizeof(name), "%s.%s", tok[3], unit);
	if (!strcmp(tok[4], "0") || !strcmp(tok[4], "0.00"))
		return;		/* lkp: S.unit.fail, not a value */
	m = metric_index(name);
	if (m < 0) {
		host->log(ctx, MMB_LOG_DEBUG, "stress-ng metric %s is not one mmbench declares; not kept",
			  name);
		return;
	}
	host->report(ctx, (unsigned int)m, strtod(tok[4], NULL));
}

/* lkp's parse, line by line, up to the "run time:" summary. */
static void parse_output(const struct mmb_host *host, struct mmb_ctx *ctx, char *out,
			 struct parsed *p)
{
	bool table = false;
	char *save = NULL;

	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strstr(l, "this stressor is not implemented on this system") ||
		    strstr(l, "No stress workers invoked")) {
			keep_error(l, p->why, sizeof(p->why));
			return;
		}
		if (strstr(l, "fail:") || strstr(l, "warn:") || strstr(l, "error:")) {
			if (strstr(l, "error:") || strstr(l, "fail:"))
				keep_error(l, p->err, sizeof(p->err));
			continue;
		}
		if (strstr(l, "(secs)") && strstr(strstr(l, "(secs)") + 6, "(secs)")) {
			table = true;
			continue;
		}
		if (strstr(l, "run time:"))
			return;
		if (!table || !(strstr(l, "stress-ng: info:") || strstr(l, "stress-ng: metrc:")))
			continue;
		if (strstr(l, " (average") || strstr(l, " mean") || strstr(l, " (total"))
			parse_misc(host, ctx, l);
		else
			parse_major(host, ctx, l, p);
	}
}

static int build_argv(const struct mmb_value *params, const struct sng_state *st,
		      char *const argv[], char *bufs, size_t blen)
{
	const char **a = (const char **)argv;
	int n = 0;
	size_t used = 0;
	const char *opt = stressor_opts[params[P_TEST].i];

#define ADD(s) (a[n++] = (s))
#define ADDF(...) (a[n++] = bufs + used, \
		   used += (size_t)snprintf(bufs + used, blen - used, __VA_ARGS__) + 1)
	ADD(st->bin);
	ADD("--timeout");
	ADDF("%lld", (long long)(params[P_TESTTIME].i / 1000000000LL));
	ADD("--times");
	ADD("--verify");
	ADD("--metrics");
	ADD("--no-rand-seed");
	if (opt)
		ADD(opt);
	if (params[P_METHOD].s[0] || st->method_all) {
		ADDF("--%s-method", st->stressor);
		ADD(params[P_METHOD].s[0] ? params[P_METHOD].s : "all");
	}
	ADD("--temp-path");
	ADD(params[P_DIR].s);
	ADDF("--%s", st->stressor);
	ADDF("%lld", (long long)params[P_NR_THREADS].i);
	a[n] = NULL;
#undef ADD
#undef ADDF
	return n;
}

/*
 * The last lines stress-ng printed (its stderr and stdout are one pipe), for
 * a failure reason: at most TAIL_MAX bytes of its last 3 lines, newlines
 * as " | ", any other byte outside printable ASCII as \xNN, so that its own
 * words reach the user and nothing it printed can forge a line.
 */
#define TAIL_MAX 300
static void out_tail(const char *out, size_t len, char *buf, size_t blen)
{
	size_t start = len, lines = 0, n = 0;

	while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
		len--;
	for (start = len; start > 0 && lines < 3; start--)
		lines += out[start - 1] == '\n';
	if (start < len && out[start] == '\n')
		start++;
	if (len - start > TAIL_MAX)
		start = len - TAIL_MAX;
	for (size_t i = start; i < len && n + 5 < blen; i++) {
		unsigned char c = (unsigned char)out[i];

		if (c == '\n')
			n += (size_t)snprintf(buf + n, blen - n, " | ");
		else if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(buf + n, blen - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n < blen ? n : blen - 1] = '\0';
}

/* how stress-ng ended, with its last words: "exit 2; it said: ..." */
static void how_ended(int status, const char *tail, char *buf, size_t blen)
{
	int k = 0;

	if (WIFEXITED(status))
		k = snprintf(buf, blen, "exit %d%s", WEXITSTATUS(status),
			     WEXITSTATUS(status) == 127 ? ": could not be run" : "");
	else if (WIFSIGNALED(status))
		k = snprintf(buf, blen, "killed by signal %d", WTERMSIG(status));
	if (k >= 0 && (size_t)k < blen)
		snprintf(buf + k, blen - (size_t)k, "%s%s", *tail ? "; it said: " : "; it printed nothing",
			 tail);
}

static int sng_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *params, void *state)
{
	struct sng_state *st = state;
	char *argv[MAX_ARGS], bufs[512];
	struct parsed p = { 0 };
	char tail[TAIL_MAX + 8], ended[TAIL_MAX + 96];
	bool region = host->size >= offsetof(struct mmb_host, timed_end) + sizeof(host->timed_end) &&
		      host->timed_begin && host->timed_end;
	int status;

	build_argv(params, st, argv, bufs, sizeof(bufs));
	if (region)
		host->timed_begin(ctx);
	status = capture(host, ctx, argv, &st->out, &st->len);
	if (region)
		host->timed_end(ctx);
	if (status < 0) {
		host->fail(ctx, "cannot run %s: %s", st->bin, strerror(errno));
		return MMB_FAIL;
	}
	if (host->should_stop(ctx)) {
		host->fail(ctx, "stopped");
		return MMB_FAIL;
	}
	/* before the parse, which cuts the text into lines */
	out_tail(st->out, st->len, tail, sizeof(tail));
	parse_output(host, ctx, st->out, &p);
	if (!p.nok) {
		how_ended(status, tail, ended, sizeof(ended));
		if (p.why[0] || p.err[0])
			host->fail(ctx, "%s", p.why[0] ? p.why : p.err);
		else
			host->fail(ctx, "stress-ng printed no metrics line (%s)", ended);
		return MMB_FAIL;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status))
		host->log(ctx, MMB_LOG_WARN, "stress-ng exited with %d%s%s", WEXITSTATUS(status),
			  p.err[0] ? ": " : "", p.err);
	return MMB_OK;
}

static void sng_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *params, void *state)
{
	struct sng_state *st = state;

	(void)host;
	(void)ctx;
	(void)params;
	if (!st)
		return;
	free(st->out);
	free(st);
}

static const struct mmb_workload sng_workload = {
	MMB_WORKLOAD_INIT,
	.name = "stress-ng",
	.summary = "stress-ng mm stressors with lkp's options: <stressor>.ops_per_sec and its metrics",
	.params = sng_params,
	.metrics = sng_metrics,
	.supported = sng_supported,
	.setup = sng_setup,
	.run = sng_run,
	.teardown = sng_teardown,
	.check_params = sng_check_params,
	.programs = (const char *const[]){ "stress-ng", NULL },
};

MMB_WORKLOAD(sng_workload);
