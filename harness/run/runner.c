#include "runner.h"
#include "runner-internal.h"
#include "contain.h"
#include "counters.h"
#include "envctl.h"
#include "forkserver.h"
#include "interference.h"
#include "precision.h"
#include "procsnap.h"
#include "perfrec.h"
#include "progress.h"
#include "util.h"
#include "warnonce.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* the run's counters (runner_iter_counters points here, or NULL: --no-counters) */
static struct counters run_counters;
/* run --profile: the probe (runner_iter_profile: perf on the profiled iteration) */
static struct perfrec_probe profile_probe;
static volatile sig_atomic_t stop_signal;

void runner_request_stop(int sig)
{
	stop_signal = sig;
}

int runner_stop_signal(void)
{
	return stop_signal;
}

/* ------------------------------------------------------------ parent side */

struct iter_result {
	struct sample_info *samples;
	size_t nsamples, asamples;
	char reason[1024];
	bool done_seen;
	uint32_t done;
	const char *status;
	struct rusage ru;	/* the iteration child's, from wait4() */
	size_t garbage;		/* bytes after the framing was lost */
	size_t ncounters;	/* counter values sent (0: none) */
	double counters[1 + COUNTERS_MAX];	/* overhead (ms), then the values */
	char garbage_head[80];	/* how they started, escaped */
};

static void iter_result_release(struct iter_result *r)
{
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

/* Parse whole messages from buf; returns bytes consumed. */
static size_t parse_msgs(const char *buf, size_t len, const struct plan_workload *w,
			 struct iter_result *r)
{
	size_t off = 0;

	/* framing lost: whatever follows cannot be trusted either */
	if (r->garbage) {
		r->garbage += len;
		return len;
	}
	while (len - off >= sizeof(struct msg_hdr)) {
		struct msg_hdr h;
		const char *p;

		memcpy(&h, buf + off, sizeof(h));
		/* no message of ours looks like this: the plugin wrote into the pipe */
		if (h.type < MSG_SAMPLE || h.type > MSG_COUNTERS || h.len > PIPE_BUF - sizeof(h)) {
			size_t o = 0;

			r->garbage = len - off;
			for (size_t i = off; i < len && i < off + 16 &&
			     o + 5 < sizeof(r->garbage_head); i++) {
				unsigned char ch = (unsigned char)buf[i];

				if (ch == '\n')
					o += snprintf(r->garbage_head + o, 5, "\\n");
				else if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\')
					o += snprintf(r->garbage_head + o, 5, "\\x%02x", ch);
				else
					r->garbage_head[o++] = (char)ch;
			}
			r->garbage_head[o] = '\0';
			return len;
		}
		if (len - off < sizeof(h) + h.len)
			break;
		p = buf + off + sizeof(h);
		if (h.type == MSG_SAMPLE && h.len == sizeof(struct msg_sample)) {
			struct msg_sample s;

			memcpy(&s, p, sizeof(s));
			if (s.metric >= w->plugin.nmetrics) {
				snprintf(r->reason, sizeof(r->reason),
					 "plugin reported metric index %u, it declares %zu metrics",
					 s.metric, w->plugin.nmetrics);
				r->status = "failed";
			} else if (!isfinite(s.value)) {
				snprintf(r->reason, sizeof(r->reason),
					 "plugin reported a non-finite value (%g) for %s", s.value,
					 w->plugin.metrics[s.metric]->name);
				r->status = "failed";
			} else {
				const struct mmb_metric_def *md = w->plugin.metrics[s.metric];

				ALLOC_GROW(r->samples, r->nsamples + 1, r->asamples);
				r->samples[r->nsamples++] = (struct sample_info){
					.metric = md->name, .unit = md->unit,
					.better = md->better, .seq = (int)s.seq, .value = s.value,
				};
			}
		} else if (h.type == MSG_REASON) {
			snprintf(r->reason, sizeof(r->reason), "%.*s", (int)h.len, p);
		} else if (h.type == MSG_LOG && h.len >= 1) {
			int level = p[0];

			progress_clear();
			if (level == MMB_LOG_ERROR || level == MMB_LOG_WARN) {
				/* once per kind; the count comes at the end of the run */
				char *m = xasprintf("%s: %.*s", w->plugin.w.name, (int)h.len - 1, p + 1);

				if (warnonce_first(m))
					warning("%s", m);
				free(m);
			} else if (level == MMB_LOG_INFO)
				info("%s: %.*s", w->plugin.w.name, (int)h.len - 1, p + 1);
		} else if (h.type == MSG_COUNTERS && runner_iter_counters &&
			   h.len == (1 + runner_iter_counters->n) * sizeof(double)) {
			memcpy(r->counters, p, h.len);
			r->ncounters = runner_iter_counters->n;
		} else if (h.type == MSG_DONE && h.len == sizeof(uint32_t)) {
			memcpy(&r->done, p, sizeof(uint32_t));
			r->done_seen = true;
		}
		off += sizeof(h) + h.len;
	}
	return off;
}

static void kill_group(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

/* One read of the result pipe, its whole messages parsed; true at EOF. */
static bool read_msgs(int fd, struct strbuf *buf, const struct plan_workload *w,
		      struct iter_result *r)
{
	char tmp[8192];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	size_t used;

	if (n <= 0)
		return n == 0 || errno != EINTR;
	strbuf_add(buf, tmp, n);
	used = parse_msgs(buf->buf, buf->len, w, r);
	memmove(buf->buf, buf->buf + used, buf->len - used);
	buf->len -= used;
	return false;
}

/* The result pipe and the go pipe of an iteration (both ends of each). */
static int pipes_open(int fds[2], int go[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("pipe: %s", strerror(errno));
	if (pipe2(go, O_CLOEXEC) < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("pipe: %s", strerror(errno));
	}
	return 0;
}

static void pipes_close(int fds[2], int go[2])
{
	close(fds[0]);
	close(fds[1]);
	close(go[0]);
	close(go[1]);
}

/* What an ended iteration was: r->status and reason; -1 when a signal stops the run. */
static int iter_verdict(const struct plan_workload *w, int status, bool timed_out,
			struct iter_result *r)
{
	if (stop_signal && !timed_out) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason), "interrupted by signal %d", stop_signal);
		return -1;
	}
	if (timed_out) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason), "timed out after %.0fs (killed)",
			 w->timeout_ns / 1e9);
	} else if (WIFSIGNALED(status)) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason), "killed by signal %d (%s)%s",
			 WTERMSIG(status), strsignal(WTERMSIG(status)),
			 WCOREDUMP(status) ? ", core dumped" : "");
	} else if (r->garbage) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason),
			 "plugin wrote %zu bytes to the result pipe that are not mmbench messages (starting \"%s\"); what it reported after them is lost",
			 r->garbage, r->garbage_head);
	} else if (!r->done_seen) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason),
			 "plugin exited with status %d in the middle of the iteration (exit() called?)",
			 WEXITSTATUS(status));
	} else if (r->status) {
		/* already failed while parsing (bad metric, NaN) */
	} else if (r->done == DONE_SKIP) {
		r->status = "skipped";
		if (!r->reason[0])
			snprintf(r->reason, sizeof(r->reason), "plugin skipped without a reason");
	} else if (r->done == DONE_FAIL) {
		r->status = "failed";
		if (!r->reason[0])
			snprintf(r->reason, sizeof(r->reason), "plugin failed without a reason");
	} else if (!r->nsamples) {
		r->status = "failed";
		snprintf(r->reason, sizeof(r->reason), "plugin reported no samples");
	} else {
		r->status = "ok";
	}
	return 0;
}

/* Fork the iteration child ourselves: it waits for "go", then runs the plugin. */
static pid_t fork_child(const struct plan_workload *w, const struct plan_variant *v,
			const cpu_set_t *pin, int fds[2], int go[2])
{
	pid_t pid, harness = getpid();

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		die_with_parent_by(harness, SIGKILL);	/* never outlive a killed harness */
		close(fds[0]);
		close(go[1]);
		runner_child_start(go[0], w, v, fds[1], pin);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/*
 * Run one iteration in a child; fill r.  Returns -1 if the harness must stop.
 * Every process the iteration starts is contained (contain.h): killed at
 * the timeout and at the end, so none can outlive it or hold the pipe.
 * The fork server (fs, when it runs) forks the child and reports its end;
 * else we fork it and a pidfd tells us.
 */
static int run_child(struct forkserver *fs, const struct plan *plan,
		     const struct plan_workload *w, const struct plan_variant *v,
		     const cpu_set_t *pin, struct iter_result *r)
{
	int fds[2], go[2], status = 0;
	pid_t pid = -1;
	struct strbuf buf = STRBUF_INIT;
	struct contain c;
	uint64_t deadline = now_ns() + (uint64_t)w->timeout_ns, kill_at = 0, eof_by = 0;
	bool exited = false, eof = false, timed_out = false, served = false;
	int pidfd = -1;

	strbuf_init(&buf);
	if (pipes_open(fds, go) < 0)
		return -1;
	contain_begin(&c);
	if (fs && fs->pid) {
		pid = forkserver_spawn(fs, plan, w, v, pin, fds[1], go[0]);
		served = pid > 0;
	}
	if (!served && (!fs || !fs->pid))
		pid = fork_child(w, v, pin, fds, go);
	if (pid < 0) {
		int err = errno;

		pipes_close(fds, go);
		contain_end(&c);
		return error("fork: %s", strerror(err));
	}
	close(fds[1]);
	close(go[0]);
	contain_enter(&c, pid);
	perfrec_attach(runner_iter_profile, pid);	/* NULL: not the profiled iteration */
	if (write(go[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	/* a pidfd wakes us the moment the child exits; without one, poll in short steps */
	if (!served)
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	while (!exited || !eof) {
		struct pollfd pfd[2] = {
			{ .fd = eof ? -1 : fds[0], .events = POLLIN },
			{ .fd = exited ? -1 : served ? fs->sock : pidfd, .events = POLLIN },
		};
		uint64_t now = now_ns();
		int wait_ms = pfd[1].fd >= 0 ? 200 : (eof ? 1 : 200);
		pid_t got = 0;

		if (!timed_out && now > deadline) {
			timed_out = true;
			kill_group(pid, SIGTERM);
			kill_at = now + 2000000000ull;	/* grace for should_stop() */
		}
		if (stop_signal && !kill_at) {
			kill_group(pid, SIGTERM);
			kill_at = now + 2000000000ull;
		}
		if (kill_at && now > kill_at && !exited)
			contain_kill(&c);
		/* everything is dead: what an escaped holder still keeps open is not waited for */
		if (exited && now > eof_by)
			break;
		if (poll(pfd, 2, exited ? 50 : wait_ms) > 0 && !eof &&
		    (pfd[0].revents & (POLLIN | POLLHUP)))
			eof = read_msgs(fds[0], &buf, w, r);
		if (exited)
			continue;
		perfrec_poll(runner_iter_profile);	/* the built-in sampler's rings */
		if (!served) {
			got = wait4(pid, &status, WNOHANG, &r->ru);
		} else if (pfd[1].revents) {
			int rc = forkserver_reaped(fs, pid, &status, &r->ru);

			/* the server died: the child died with it (PR_SET_PDEATHSIG) */
			if (rc < 0)
				status = SIGKILL;
			got = rc ? pid : 0;
		}
		if (got == pid) {
			exited = true;
			/* perf first: the sweep below kills every child of ours */
			perfrec_stop(runner_iter_profile);
			/* what it left behind (daemons, grandchildren) dies with it */
			contain_end(&c);
			eof_by = now_ns() + 1000000000ull;
			if (pidfd >= 0) {
				close(pidfd);
				pidfd = -1;
			}
		}
	}
	close(fds[0]);
	strbuf_release(&buf);

	return iter_verdict(w, status, timed_out, r);
}

static void drop_caches(void)
{
	static bool warned;

	sync();
	if (write_file_str("/proc/sys/vm/drop_caches", "3") < 0 && !warned) {
		warned = true;
		warning("cannot drop caches (needs root); going on without");
	}
}

static uint64_t ref_freq_khz;	/* the run's first frequency reading */
static struct interference_limits limits;	/* the experiment's, maybe relaxed */

/* --precision: each metric's per-iteration mean over the clean iterations. */
struct precise {
	struct precise_metric {
		const char *metric;	/* the plugin's (static) name */
		double *v;
	} *m;
	size_t nm, n;		/* metrics, clean iterations so far */
};

static void precise_release(struct precise *p)
{
	for (size_t k = 0; k < p->nm; k++)
		free(p->m[k].v);
	free(p->m);
	memset(p, 0, sizeof(*p));
}

/* Add one clean iteration; true when the rule (precision.h) says stop. */
static bool precise_enough(struct precise *p, const struct iter_result *r, const struct plan *plan)
{
	size_t nmin = (size_t)plan->min_iterations;

	for (size_t s = 0; s < r->nsamples; s++) {
		size_t k;
		double sum = 0;
		int cnt = 0;

		if (s && !strcmp(r->samples[s].metric, r->samples[s - 1].metric))
			continue;	/* per-thread samples: averaged below */
		for (k = 0; k < p->nm && strcmp(p->m[k].metric, r->samples[s].metric); k++)
			;
		if (k == p->nm) {
			if (p->n)
				continue;	/* a metric that came late cannot be judged */
			p->m = xrealloc(p->m, (p->nm + 1) * sizeof(*p->m));
			p->m[p->nm].metric = r->samples[s].metric;
			p->m[p->nm].v = xcalloc((size_t)plan->max_iterations + 1, sizeof(double));
			p->nm++;
		}
		for (size_t j = s; j < r->nsamples && !strcmp(r->samples[j].metric,
								r->samples[s].metric); j++) {
			sum += r->samples[j].value;
			cnt++;
		}
		if (p->n < (size_t)plan->max_iterations)
			p->m[k].v[p->n] = sum / cnt;
	}
	p->n++;
	if (!precision_look(p->n, nmin))
		return false;
	for (size_t k = 0; k < p->nm; k++)
		if (precision_rel_halfwidth(p->m[k].v, p->n) > plan->precision)
			return false;
	return p->nm > 0;
}

/* What one runner_run() carries from iteration to iteration. */
struct run_state {
	struct plan *plan;
	const struct experiment *e;
	struct result_sink *sink;
	struct runner_stats *st;
	struct monitor_snap before, after;
	struct interference_snap isa, isb;
	struct interference_history ih;	/* widens short iterations' windows */
	struct strbuf why;
	size_t done;		/* iterations done or skipped, for the ETA */
	uint64_t t0;
	bool monitors;
	struct forkserver server;	/* forks the iterations (forkserver.h) */
};

/*
 * The interference record of one iteration (appended to its monitor rows)
 * and its verdict: it->disturbed names every reason, or stays NULL.  The
 * knobs the experiment set are re-read and put back here, before the next
 * iteration starts.
 */
static void judge_iteration(struct run_state *rs, struct iteration_info *it,
			    const char ***keys, double **deltas, size_t *nmon)
{
	struct strbuf *why = &rs->why;
	const char *ikeys[INTERFERENCE_NKEYS];
	double ivals[INTERFERENCE_NKEYS];
	struct interference x;
	int n;

	interference_diff_window(&rs->ih, &rs->isa, &rs->isb, &x);
	interference_history_push(&rs->ih, &rs->isa);
	strbuf_reset(why);
	interference_judge(&x, &limits, &ref_freq_khz, why);
	if (limits.knobs)
		knob_watch_check(why);
	it->disturbed = why->len ? why->buf : NULL;
	it->interference = interference_level(&x);
	it->measured = !isnan(it->interference);
	n = interference_keys(&x, ikeys, ivals);
	*keys = xrealloc(*keys, (*nmon + n + 1) * sizeof(**keys));
	*deltas = xrealloc(*deltas, (*nmon + n + 1) * sizeof(**deltas));
	for (int i = 0; i < n; i++) {
		(*keys)[*nmon] = ikeys[i];
		(*deltas)[(*nmon)++] = ivals[i];
	}
}

/* The iteration's perf-stat rows, appended to its monitor rows. */
static void counter_rows(const struct iter_result *r, const char ***keys, double **deltas,
			 size_t *nmon)
{
	*keys = xrealloc(*keys, (*nmon + COUNTERS_MAX_ROWS) * sizeof(**keys));
	*deltas = xrealloc(*deltas, (*nmon + COUNTERS_MAX_ROWS) * sizeof(**deltas));
	*nmon += counters_rows(runner_iter_counters, r->counters + 1, r->counters[0], *keys + *nmon,
			       *deltas + *nmon, COUNTERS_MAX_ROWS);
}

/*
 * The iteration child's rusage (setup and teardown included), as lkp's
 * /usr/bin/time rows: monitor source "time", compared as <workload>.time.*.
 */
static void time_rows(const struct iter_result *r, double elapsed, const char ***keys,
		      double **deltas, size_t *nmon)
{
	const struct rusage *u = &r->ru;
	const struct { const char *key; double v; } t[] = {
		{ "time:elapsed_time", elapsed },
		{ "time:user_time", u->ru_utime.tv_sec + u->ru_utime.tv_usec / 1e6 },
		{ "time:system_time", u->ru_stime.tv_sec + u->ru_stime.tv_usec / 1e6 },
		{ "time:minor_page_faults", (double)u->ru_minflt },
		{ "time:major_page_faults", (double)u->ru_majflt },
		{ "time:voluntary_context_switches", (double)u->ru_nvcsw },
		{ "time:involuntary_context_switches", (double)u->ru_nivcsw },
		{ "time:max_resident_set_size", (double)u->ru_maxrss },
	};

	*keys = xrealloc(*keys, (*nmon + ARRAY_SIZE(t)) * sizeof(**keys));
	*deltas = xrealloc(*deltas, (*nmon + ARRAY_SIZE(t)) * sizeof(**deltas));
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		(*keys)[*nmon] = t[i].key;
		(*deltas)[(*nmon)++] = t[i].v;
	}
}

/* The experiment's counters, probed once: what cannot count is noted, once. */
static int start_counters(const struct experiment *e, struct result_sink *sink)
{
	runner_iter_counters = NULL;
	counters_release(&run_counters);
	if (e->no_counters)
		return 0;
	for (size_t i = 0; i < e->ncounters; i++)
		if (counters_add(&run_counters, e->counters[i]))
			return -1;
	if (!e->ncounters && counters_add_defaults(&run_counters))
		return -1;
	counters_prepare(&run_counters, NULL);
	runner_iter_counters = &run_counters;
	if (run_counters.unsupported)
		return sink_env(sink, "counters.unsupported", run_counters.unsupported, NULL);
	return 0;
}

static void show_progress(struct run_state *rs, const struct plan_workload *w,
			  const struct plan_variant *v, int i)
{
	bool warm = i < w->warmup;
	double elapsed_s = (now_ns() - rs->t0) / 1e9;
	char eta[32] = "?";

	if (rs->done)
		format_eta(elapsed_s / rs->done * (rs->plan->total_iterations - rs->done), eta,
			   sizeof(eta));
	progress_update("%s%s%s  %s %d/%d  [%zu/%zu, ETA %s]", w->plugin.w.name,
			*v->variant ? " " : "", v->variant, warm ? "warm-up" : "iteration",
			warm ? i + 1 : i - w->warmup + 1 + v->resume_measured,
			warm ? w->warmup : w->iterations,
			rs->done + 1, rs->plan->total_iterations, eta);
}

/* Count the iteration's outcome and say what the user must know. */
static void account(struct run_state *rs, const struct plan_workload *w,
		    const struct plan_variant *v, const struct iteration_info *it,
		    const struct iter_result *r)
{
	struct runner_stats *st = rs->st;

	if (it->disturbed && !it->warmup) {
		/* the first says why; the summary counts the rest */
		if (!st->disturbed) {
			progress_clear();
			warning("%s%s%s iteration %d disturbed: %s (`mmbench show %lld` lists every"
				" iteration)", w->plugin.w.name, *v->variant ? " " : "", v->variant,
				it->iteration, it->disturbed, (long long)rs->sink->run_id);
		}
		st->disturbed++;
	}
	if (!strcmp(r->status, "ok")) {
		if (!it->warmup)
			st->ok++;
	} else if (!strcmp(r->status, "skipped")) {
		progress_clear();
		info("%s%s%s: skipped: %s", w->plugin.w.name, *v->variant ? " " : "", v->variant,
		     r->reason);
		st->skipped++;
	} else {
		progress_clear();
		warning("%s %s iteration %d failed: %s", w->plugin.w.name, v->variant,
			it->iteration, r->reason);
		st->failed++;
	}
}

/*
 * Iteration i (warm-ups first) of a variant: run, measure, judge, record.
 * 0 to go on, 1 when this variant is done (skipped, precise enough), 2 when
 * interrupted, -1 when the sink failed (the run must stop).
 */
static int run_iteration(struct run_state *rs, struct plan_workload *w, struct plan_variant *v,
			 int i, struct precise *pr)
{
	const struct experiment *e = rs->e;
	bool warm = i < w->warmup;
	struct iteration_record rec = ITERATION_RECORD_INIT;
	struct iteration_info it;
	struct iter_result r;
	const char **keys = NULL;
	double *deltas = NULL;
	size_t nmon = 0;
	uint64_t it0;
	off_t mark;
	int rc, ret = 0;

	show_progress(rs, w, v, i);
	if (e->env.drop_caches)
		drop_caches();
	memset(&r, 0, sizeof(r));
	mark = envctl_mark();
	if (rs->monitors)
		monitor_take(&rs->before, e->mon_vmstat, e->mon_meminfo);
	interference_take(&rs->isa);
	it0 = now_ns();
	memset(&it, 0, sizeof(it));
	it.started = now_wall();
	rc = run_child(&rs->server, rs->plan, w, v, e->env.pin_cpu ? &e->env.pin_set : NULL, &r);
	it.elapsed = (now_ns() - it0) / 1e9;
	interference_take(&rs->isb);
	if (rs->monitors) {
		monitor_take(&rs->after, e->mon_vmstat, e->mon_meminfo);
		monitor_delta(&rs->before, &rs->after, &keys, &deltas, &nmon);
	}
	/* knobs the plugin changed go back after every iteration */
	envctl_restore_to(mark);
	judge_iteration(rs, &it, &keys, &deltas, &nmon);
	if (r.ncounters)
		counter_rows(&r, &keys, &deltas, &nmon);
	if (rs->monitors)
		time_rows(&r, it.elapsed, &keys, &deltas, &nmon);
	rs->done++;
	if (rc < 0) {
		ret = 2;	/* interrupted: the in-flight iteration is dropped */
		goto out;
	}
	it.workload = w->plugin.w.name;
	it.variant = v->variant;
	it.variant_json = v->variant_json;
	it.params = v->params_text;
	/* a resumed variant numbers on from what the run recorded */
	it.iteration = warm ? -(v->resume_warmups + i + 1) : i - w->warmup + 1 + v->resume_measured;
	it.warmup = warm;
	it.status = r.status;
	it.reason = r.reason[0] ? r.reason : NULL;
	rec.it = &it;
	rec.samples = r.samples;
	rec.nsamples = strcmp(r.status, "ok") ? 0 : r.nsamples;
	rec.mon_keys = keys;
	rec.mon_values = deltas;
	rec.nmon = nmon;
	rec.mon_source = "vmstat";
	if (sink_iteration(rs->sink, &rec) < 0) {
		ret = -1;
		goto out;
	}
	account(rs, w, v, &it, &r);
	if (!strcmp(r.status, "skipped")) {
		ret = 1;
	} else if (rs->plan->precision > 0 && !warm && !strcmp(r.status, "ok") && !it.disturbed &&
		   precise_enough(pr, &r, rs->plan)) {
		progress_clear();
		info("%s%s%s: every metric's 95%% CI within %.3g%% of its mean after %zu clean"
		     " iterations", w->plugin.w.name, *v->variant ? " " : "", v->variant,
		     100 * rs->plan->precision, pr->n);
		ret = 1;
	}
out:
	free(keys);
	free(deltas);
	iter_result_release(&r);
	return ret;
}

/*
 * run --profile: one more iteration of the variant under perf record,
 * after its measured ones; it is neither a sample nor an iteration row.
 */
static void run_profiled(struct run_state *rs, struct plan_workload *w, struct plan_variant *v)
{
	struct profile_info p = { .workload = w->plugin.w.name, .variant = v->variant };
	struct perfrec pr;
	struct iter_result r;
	off_t mark;
	int rc;

	if (perfrec_begin(&pr, &profile_probe, rs->sink->run_id, w->plugin.w.name, v->variant))
		return;
	progress_update("%s%s%s  profile (%s)", w->plugin.w.name, *v->variant ? " " : "",
			v->variant, profile_probe.builtin ? "built-in sampler" : "perf record");
	if (rs->e->env.drop_caches)
		drop_caches();
	memset(&r, 0, sizeof(r));
	mark = envctl_mark();
	runner_iter_profile = &pr;
	/* perf attaches to a child of ours: this one we fork ourselves */
	rc = run_child(NULL, rs->plan, w, v, rs->e->env.pin_cpu ? &rs->e->env.pin_set : NULL, &r);
	runner_iter_profile = NULL;
	envctl_restore_to(mark);
	progress_clear();
	if (rc == 0 && strcmp(r.status, "ok"))
		warning("no profile of %s%s%s: the profiled iteration %s: %s", p.workload,
			*p.variant ? " " : "", p.variant, r.status, r.reason);
	else if (rc == 0)
		perfrec_store(&pr, rs->sink, &p);
	iter_result_release(&r);
	perfrec_release(&pr);
}

/* run --profile: can perf sample here?  Said once, recorded with the run. */
static int start_profile(struct result_sink *sink)
{
	perfrec_probe(&profile_probe);
	if (!profile_probe.usable) {
		warning("profile: %s; the run goes on without profiles", profile_probe.why);
		return sink_env(sink, "profile", profile_probe.why, NULL);
	}
	if (profile_probe.builtin) {
		info("profile: %s, the built-in sampler (cpu-clock on every CPU)",
		     strcmp(profile_probe.perf, "builtin") ? "no perf" : "MMBENCH_PERF=builtin");
		return sink_env(sink, "profile.event", "cpu-clock (" PERFREC_BUILTIN_NOTE ")", NULL);
	}
	if (profile_probe.no_pmu)
		info("profile: no hardware PMU, sampled cpu-clock");
	return sink_env(sink, "profile.event", profile_probe.no_pmu ? "cpu-clock (no hardware PMU)"
				   : profile_probe.event, NULL);
}

/* Every iteration of one variant; 0, or -1 when the run must stop. */
static int run_variant(struct run_state *rs, struct plan_workload *w, struct plan_variant *v)
{
	const struct plan *plan = rs->plan;
	int total = w->warmup + (plan->precision > 0 ? plan->max_iterations : w->iterations) -
		    v->resume_measured;
	struct precise pr = { 0 };
	int i, rc = 0, ok0 = rs->st->ok;

	if (v->resume_done)
		return 0;
	if (v->unsupported) {
		struct iteration_info it = {
			.workload = w->plugin.w.name, .variant = v->variant,
			.params = v->params_text, .iteration = 0, .status = "skipped",
			.reason = v->unsupported, .started = now_wall(),
		};
		struct iteration_record rec = ITERATION_RECORD_INIT;

		progress_clear();
		info("%s%s%s: skipped: %s", w->plugin.w.name, *v->variant ? " " : "", v->variant,
		     v->unsupported);
		rec.it = &it;
		if (sink_iteration(rs->sink, &rec) < 0)
			return -1;
		rs->st->skipped++;
		rs->done += total;
		return 0;
	}
	for (i = 0; i < total && !stop_signal && !rc; i++)
		rc = run_iteration(rs, w, v, i, &pr);
	if (rc == 1)
		rs->done += total - i;
	if (plan->profile && profile_probe.usable && rc >= 0 && rs->st->ok > ok0 && !stop_signal)
		run_profiled(rs, w, v);
	if (plan->precision > 0 && !rc && !stop_signal) {
		progress_clear();
		warning("%s%s%s: %d iterations (--max-iterations), %zu of them clean, and the 95%% CI"
			" is still wider than %.3g%% of the mean", w->plugin.w.name,
			*v->variant ? " " : "", v->variant, plan->max_iterations, pr.n,
			100 * plan->precision);
	}
	precise_release(&pr);
	return rc < 0 ? -1 : 0;
}

int runner_run(struct plan *plan, struct result_sink *sink, struct runner_stats *st)
{
	struct run_state rs = {
		.plan = plan, .e = plan->exp, .sink = sink, .st = st, .why = STRBUF_INIT,
		.t0 = now_ns(), .monitors = plan->exp->mon_vmstat || plan->exp->mon_meminfo,
	};
	int ret = 0;

	memset(st, 0, sizeof(*st));
	runner_host_table();
	interference_set_cpus(rs.e->env.pin_cpu ? &rs.e->env.pin_set : NULL);
	ref_freq_khz = 0;
	limits = rs.e->limits;
	interference_record_only(&limits);
	/* the first iteration's window may reach back to here */
	interference_take(&rs.isa);
	interference_history_push(&rs.ih, &rs.isa);
	monitor_snap_init(&rs.before);
	monitor_snap_init(&rs.after);
	if (start_counters(plan->exp, sink))
		return -1;
	if (plan->profile && start_profile(sink))
		return -1;
	contain_run_begin();
	forkserver_start(&rs.server, plan);
	contain_spare(rs.server.pid);
	for (size_t wi = 0; wi < plan->nwls && !stop_signal && !ret; wi++)
		for (size_t vi = 0; vi < plan->wls[wi].nvariants && !stop_signal && !ret; vi++)
			ret = run_variant(&rs, &plan->wls[wi], &plan->wls[wi].variants[vi]);
	forkserver_stop(&rs.server);
	contain_spare(0);
	contain_run_end();
	progress_clear();
	warnonce_flush();
	monitor_snap_release(&rs.before);
	monitor_snap_release(&rs.after);
	runner_iter_counters = NULL;
	counters_release(&run_counters);
	strbuf_release(&rs.why);
	knob_watch_reset();
	st->interrupted = stop_signal != 0;
	return ret;
}
