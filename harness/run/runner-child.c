/*
 * The iteration's child: the host function table a plugin calls (samples,
 * logs, reasons, knobs, the timed region) and setup -> run -> teardown,
 * all reported to the parent over a pipe in whole messages (runner.h).
 */
#include "runner.h"
#include "runner-internal.h"
#include "contain.h"
#include "counters.h"
#include "envctl.h"
#include "perfrec.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* ------------------------------------------------------ child -> parent */

struct mmb_ctx {
	int fd;				/* write end of the pipe */
	size_t nmetrics;
	uint32_t *seq;			/* per metric: samples reported so far */
};

/* set by runner.c for each iteration; defined here, where the child reads them */
struct counters *runner_iter_counters;
struct perfrec *runner_iter_profile;

static volatile sig_atomic_t child_stop;

/* Whole messages up to PIPE_BUF are written atomically. */
static void send_msg(int fd, uint32_t type, const void *data, size_t len)
{
	char buf[PIPE_BUF];
	struct msg_hdr h = { type, (uint32_t)len };
	const char *p = buf;
	size_t left;

	if (len > sizeof(buf) - sizeof(h))
		len = h.len = sizeof(buf) - sizeof(h);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), data, len);
	left = sizeof(h) + len;
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		left -= n;
	}
}

static void host_report(struct mmb_ctx *ctx, unsigned int metric, double value)
{
	struct msg_sample s;

	if (!ctx || ctx->fd < 0)
		return;
	s.metric = metric;
	s.seq = metric < ctx->nmetrics ? ctx->seq[metric]++ : 0;
	s.value = value;
	send_msg(ctx->fd, MSG_SAMPLE, &s, sizeof(s));
}

static void host_vsend(struct mmb_ctx *ctx, uint32_t type, int level, const char *fmt,
		       va_list ap)
{
	char buf[1024];
	int off = 0;

	if (!ctx || ctx->fd < 0)
		return;
	if (type == MSG_LOG) {
		buf[0] = (char)level;
		off = 1;
	}
	vsnprintf(buf + off, sizeof(buf) - off, fmt, ap);
	send_msg(ctx->fd, type, buf, off + strlen(buf + off));
}

static void host_log(struct mmb_ctx *ctx, enum mmb_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	host_vsend(ctx, MSG_LOG, level, fmt, ap);
	va_end(ap);
}

static void host_skip(struct mmb_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	host_vsend(ctx, MSG_REASON, 0, fmt, ap);
	va_end(ap);
}

static bool host_should_stop(struct mmb_ctx *ctx)
{
	(void)ctx;
	return child_stop != 0;
}

static uint64_t host_now_ns(void)
{
	return now_ns();
}

static int host_write_knob(struct mmb_ctx *ctx, const char *path, const char *value)
{
	(void)ctx;
	/*
	 * Only the mm knobs the journal replays (envctl_knob_allowed): a
	 * plugin has no business writing elsewhere, and a knob the replay
	 * refused would stay changed after a crash.
	 */
	if (!envctl_knob_allowed(path))
		return -EPERM;
	return envctl_set_knob(path, value);
}

static int host_read_knob(struct mmb_ctx *ctx, const char *path, char *buf, size_t len)
{
	(void)ctx;
	return read_line_file(path, buf, len);
}

/* The plugin's timed region: counters count only inside it (counters.h), and so does the profile. */
static void timed_region(bool on)
{
	if (runner_iter_counters && on)
		counters_region_begin(runner_iter_counters);
	else if (runner_iter_counters)
		counters_disable(runner_iter_counters);
	if (runner_iter_profile)
		perfrec_child_enable(runner_iter_profile, on);
}

static void host_timed_begin(struct mmb_ctx *ctx)
{
	(void)ctx;
	timed_region(true);
}

static void host_timed_end(struct mmb_ctx *ctx)
{
	(void)ctx;
	timed_region(false);
}

static struct mmb_host host_table = {
	.abi_major = MMB_ABI_MAJOR,
	.abi_minor = MMB_ABI_MINOR,
	.size = sizeof(struct mmb_host),
	.report = host_report,
	.log = host_log,
	.skip = host_skip,
	.fail = host_skip,	/* same channel: the reason of the outcome */
	.should_stop = host_should_stop,
	.now_ns = host_now_ns,
	.write_knob = host_write_knob,
	.read_knob = host_read_knob,
	.pin_cpu = -1,
	.timed_begin = host_timed_begin,
	.timed_end = host_timed_end,
};

const struct mmb_host *runner_host_table(void)
{
	if (!host_table.ncpus) {
		struct sysinfo si;

		sysinfo_collect(&si);
		host_table.ncpus = si.ncpus;
		host_table.mem_total = si.mem_bytes;
		host_table.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
		host_table.kernel_version = si.kernel_version;
		sysinfo_release(&si);
	}
	return &host_table;
}

static void child_on_term(int sig)
{
	(void)sig;
	child_stop = 1;
}

/* After teardown: the threads have exited and their counts are folded in. */
static void send_counters(int fd, struct counters *c)
{
	double m[1 + COUNTERS_MAX];

	counters_read(c, m + 1);
	counters_close(c);
	m[0] = c->spent_ns / 1e6;
	send_msg(fd, MSG_COUNTERS, m, (1 + c->n) * sizeof(double));
}

void runner_child_main(const struct plan_workload *w,
						 const struct plan_variant *v, int fd,
						 const cpu_set_t *pin)
{
	struct mmb_ctx ctx = { .fd = fd, .nmetrics = w->plugin.nmetrics };
	struct plugin bound = w->plugin;	/* the harness holds a description; the hooks are mapped here */
	const struct mmb_workload *d = &bound.w;
	char unbound[512];
	struct sigaction sa;
	void *state = NULL;
	uint32_t done = DONE_OK;
	int rc;

	setpgid(0, 0);	/* PR_SET_PDEATHSIG: set by whoever forked us (die_with_parent_by()) */
	envctl_forget_lock();
	if (runner_iter_profile)
		perfrec_child_init(runner_iter_profile);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (pin && sched_setaffinity(0, sizeof(*pin), pin) < 0)
		host_log(&ctx, MMB_LOG_WARN, "cannot pin to the pin_cpu CPUs: %s", strerror(errno));
	/* plugins are told a CPU only when the set is one CPU */
	host_table.pin_cpu = -1;
	for (int c = 0; pin && CPU_COUNT(pin) == 1 && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, pin))
			host_table.pin_cpu = c;
	ctx.seq = calloc(ctx.nmetrics ? ctx.nmetrics : 1, sizeof(*ctx.seq));

	if (runner_iter_counters)
		counters_open(runner_iter_counters);
	/* plan time counted the experiment's own swap as there: now it must be */
	if (plugin_bind(&bound, unbound, sizeof(unbound))) {
		host_skip(&ctx, "%s", unbound);	/* the reason, for skip or fail alike */
		rc = MMB_FAIL;
	} else if ((d->requires & MMB_REQ_SWAP) && !swap_active(PROC_SWAPS)) {
		host_skip(&ctx, "no swap");
		rc = MMB_SKIP;
	} else {
		rc = d->setup(&host_table, &ctx, v->values, &state);
	}
	if (rc == MMB_OK) {
		if (runner_iter_counters)
			counters_enable(runner_iter_counters);
		if (runner_iter_profile)
			perfrec_child_enable(runner_iter_profile, true);
		rc = d->run(&host_table, &ctx, v->values, state);
		if (runner_iter_profile)
			perfrec_child_enable(runner_iter_profile, false);
		if (runner_iter_counters)
			counters_disable(runner_iter_counters);
		d->teardown(&host_table, &ctx, v->values, state);
	}
	if (runner_iter_counters && rc == MMB_OK)
		send_counters(fd, runner_iter_counters);
	if (rc == MMB_SKIP)
		done = DONE_SKIP;
	else if (rc != MMB_OK)
		done = DONE_FAIL;
	send_msg(fd, MSG_DONE, &done, sizeof(done));
	_exit(0);
}

void runner_child_start(int go_fd, const struct plan_workload *w, const struct plan_variant *v,
			int fd, const cpu_set_t *pin)
{
	char ok;
	ssize_t n;

	while ((n = read(go_fd, &ok, 1)) < 0 && errno == EINTR)
		;
	/* no "go": the harness died (or gave up on us) before; run nothing */
	if (n != 1)
		_exit(0);
	close(go_fd);
	runner_child_main(w, v, fd, pin);
}
