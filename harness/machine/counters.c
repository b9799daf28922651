#include "counters.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HWC(cache, result) \
	((PERF_COUNT_HW_CACHE_##cache) | (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
	 ((PERF_COUNT_HW_CACHE_RESULT_##result) << 16))

/*
 * The named events; tracepoints ("sys:name") are resolved under tracefs.
 * CPU time, faults and context switches come from what the kernel keeps
 * per task anyway (getrusage), not from perf software events: a software
 * page-fault event runs perf's event lookup in every fault, a few per cent
 * of pft's fault cost inside the very region it measures, and any event on
 * a task makes each of its context switches switch perf's context too
 * (docs/counters.md has the numbers).  cpu-migrations has no such count:
 * it is a perf event, counted when listed.
 */
static const struct {
	const char *name;
	enum counter_kind kind;
	uint32_t type;
	uint64_t config;
} known[] = {
	{ "task-clock", COUNTER_RUSAGE, 0, RUSAGE_CPU_MS },
	{ "page-faults", COUNTER_RUSAGE, 0, RUSAGE_FAULTS_ALL },
	{ "minor-faults", COUNTER_RUSAGE, 0, RUSAGE_FAULTS_MIN },
	{ "major-faults", COUNTER_RUSAGE, 0, RUSAGE_FAULTS_MAJ },
	{ "context-switches", COUNTER_RUSAGE, 0, RUSAGE_SWITCHES },
	{ "cpu-migrations", COUNTER_SW, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", COUNTER_HW, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", COUNTER_HW, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", COUNTER_HW, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", COUNTER_HW, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "dTLB-loads", COUNTER_HW, PERF_TYPE_HW_CACHE, HWC(DTLB, ACCESS) },
	{ "dTLB-load-misses", COUNTER_HW, PERF_TYPE_HW_CACHE, HWC(DTLB, MISS) },
	{ "iTLB-loads", COUNTER_HW, PERF_TYPE_HW_CACHE, HWC(ITLB, ACCESS) },
	{ "iTLB-load-misses", COUNTER_HW, PERF_TYPE_HW_CACHE, HWC(ITLB, MISS) },
};

const char *const counters_default_names[] = {
	"task-clock", "page-faults", "minor-faults", "major-faults",
	"context-switches",
	/*
	 * why each tracepoint: docs/counters.md.  Not the ones that fire on
	 * every page (exceptions:page_fault_user, kmem:mm_page_alloc and
	 * mm_page_free): counted, they slow the faults being measured; they
	 * are counted when listed.
	 */
	"tlb:tlb_flush",
	"mmap_lock:mmap_lock_start_locking",
	"vmscan:mm_vmscan_direct_reclaim_begin",
	"compaction:mm_compaction_begin", "migrate:mm_migrate_pages",
	"cycles", "instructions", "cache-references", "cache-misses",
	"dTLB-loads", "dTLB-load-misses", "iTLB-loads", "iTLB-load-misses",
	NULL
};

/* tracefs subsystem and event names: what the kernel uses, nothing a path could abuse */
static bool tp_part_ok(const char *s, size_t len)
{
	if (!len || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static int known_index(const char *name)
{
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		if (!strcmp(known[k].name, name))
			return (int)k;
	return -1;
}

const char *counters_name_error(const char *name)
{
	const char *colon = strchr(name, ':');

	if (colon) {
		if (!tp_part_ok(name, (size_t)(colon - name)) ||
		    !tp_part_ok(colon + 1, strlen(colon + 1)))
			return "not a tracepoint name (subsystem:event, letters, digits and '_',"
			       " e.g. tlb:tlb_flush)";
		return NULL;
	}
	if (known_index(name) < 0)
		return "unknown event (known: task-clock, page-faults, minor-faults, major-faults,"
		       " context-switches, cpu-migrations, cycles, instructions, cache-references,"
		       " cache-misses, dTLB-loads, dTLB-load-misses, iTLB-loads, iTLB-load-misses,"
		       " or a tracepoint subsystem:event)";
	return NULL;
}

int counters_add(struct counters *c, const char *name)
{
	const char *why = counters_name_error(name);
	struct counter *e;
	int k;

	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->ev[i].name, name))
			return error("counters: '%s' is listed twice", name);
	if (c->n == COUNTERS_MAX)
		return error("counters: more than %d events ('%s')", COUNTERS_MAX, name);
	if (why)
		return error("counters: '%s': %s", name, why);
	e = &c->ev[c->n];
	memset(e, 0, sizeof(*e));
	e->fd = e->hold_fd = -1;
	if ((k = known_index(name)) < 0) {
		e->kind = COUNTER_TP;
		e->type = PERF_TYPE_TRACEPOINT;
	} else {
		e->kind = known[k].kind;
		e->type = known[k].type;
		e->config = known[k].config;
	}
	e->name = xstrdup(name);
	e->key = xasprintf("perf-stat:%s", name);
	c->n++;
	return 0;
}

int counters_add_defaults(struct counters *c)
{
	for (size_t i = 0; counters_default_names[i]; i++)
		if (counters_add(c, counters_default_names[i]))
			return -1;
	return 0;
}

static int perf_open(const struct counter *e, bool inherit)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.disabled = 1;
	a.inherit = inherit;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Read a tracepoint's id; *why says what is missing when it cannot be. */
static int tp_id(const char *root, const char *name, uint64_t *id, const char **why)
{
	const char *colon = strchr(name, ':');
	char *events = xasprintf("%s/events", root);
	char *path = xasprintf("%s/%.*s/%s/id", events, (int)(colon - name), name, colon + 1);
	char buf[32], *end;
	int ret = -1;

	if (access(events, R_OK | X_OK) < 0)
		*why = "tracefs not readable";
	else if (read_line_file(path, buf, sizeof(buf)) < 0)
		*why = "no such tracepoint";
	else {
		errno = 0;
		*id = strtoull(buf, &end, 10);
		if (errno || end == buf || *end)
			*why = "bad tracepoint id";
		else
			ret = 0;
	}
	free(events);
	free(path);
	return ret;
}

static const char *tracefs_root(const char *tracefs)
{
	struct stat st;

	if (tracefs)
		return tracefs;
	const char *env = getenv("MMBENCH_TRACEFS");

	if (env && *env)
		return env;
	if (stat("/sys/kernel/tracing/events", &st) == 0)
		return "/sys/kernel/tracing";
	if (stat("/sys/kernel/debug/tracing/events", &st) == 0)
		return "/sys/kernel/debug/tracing";
	return "/sys/kernel/tracing";
}

void counters_prepare(struct counters *c, const char *tracefs)
{
	const char *root = tracefs_root(tracefs), *why[COUNTERS_MAX];
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->n; i++) {
		struct counter *e = &c->ev[i];
		int fd;

		why[i] = NULL;
		e->supported = false;
		if (e->kind == COUNTER_RUSAGE) {
			e->supported = true;
			continue;
		}
		if (e->kind == COUNTER_TP && tp_id(root, e->name, &e->config, &why[i]))
			continue;
		if (e->hold_fd >= 0)
			close(e->hold_fd);
		e->hold_fd = -1;
		fd = perf_open(e, false);
		if (fd >= 0) {
			/*
			 * The first user of a tracepoint or of a software event
			 * flips a static key, patching the kernel text with IPIs to
			 * every CPU (~10 ms a tracepoint, measured; a third of an
			 * empty iteration's cost for the software events); held
			 * open (disabled) here, the iteration's own opens and
			 * closes are only reference counts.
			 */
			if (e->kind == COUNTER_TP || e->kind == COUNTER_SW)
				e->hold_fd = fd;
			else
				close(fd);
			e->supported = true;
		} else if (errno == EACCES || errno == EPERM)
			why[i] = "not permitted: kernel.perf_event_paranoid";
		else if (e->kind == COUNTER_HW && (errno == ENOENT || errno == EOPNOTSUPP ||
						   errno == ENODEV || errno == EINVAL))
			why[i] = "no PMU";
		else
			why[i] = strerror(errno);
	}
	/* one clause per reason: "cycles,instructions (no PMU); tlb:tlb_flush (...)" */
	for (size_t i = 0; i < c->n; i++) {
		bool first = true;

		if (!why[i])
			continue;
		for (size_t j = 0; j < i; j++)
			if (why[j] && !strcmp(why[j], why[i]))
				first = false;
		if (!first)
			continue;
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		for (size_t j = i, k = 0; j < c->n; j++)
			if (why[j] && !strcmp(why[j], why[i]))
				strbuf_addf(&sb, "%s%s", k++ ? "," : "", c->ev[j].name);
		strbuf_addf(&sb, " (%s)", why[i]);
	}
	free(c->unsupported);
	c->unsupported = sb.len ? strbuf_detach(&sb) : NULL;
	strbuf_release(&sb);
}

void counters_release(struct counters *c)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->ev[i].hold_fd >= 0)
			close(c->ev[i].hold_fd);
		free(c->ev[i].name);
		free(c->ev[i].key);
	}
	free(c->unsupported);
	memset(c, 0, sizeof(*c));
}

static double tv_ms(const struct timeval *t)
{
	return (double)t->tv_sec * 1e3 + (double)t->tv_usec / 1e3;
}

static double rusage_pick(const struct rusage *u, uint64_t which)
{
	switch (which) {
	case RUSAGE_FAULTS_MIN:
		return (double)u->ru_minflt;
	case RUSAGE_FAULTS_MAJ:
		return (double)u->ru_majflt;
	case RUSAGE_CPU_MS:
		return tv_ms(&u->ru_utime) + tv_ms(&u->ru_stime);
	case RUSAGE_SWITCHES:
		return (double)u->ru_nvcsw + (double)u->ru_nivcsw;
	default:
		return (double)u->ru_minflt + (double)u->ru_majflt;
	}
}

/*
 * One count of this process (every thread, live or exited), and of the
 * children it has waited for (*kids): what perf's inherited events see.
 * The CPU time's sum is the scheduler's exact runtime (only its
 * user/system split is sampled).
 */
static double rusage_value(uint64_t which, double *kids)
{
	struct rusage s, k;

	if (getrusage(RUSAGE_SELF, &s) || getrusage(RUSAGE_CHILDREN, &k))
		return *kids = NAN;
	*kids = rusage_pick(&k, which);
	return rusage_pick(&s, which) + *kids;
}

void counters_open(struct counters *c)
{
	uint64_t t0 = now_ns();

	for (size_t i = 0; i < c->n; i++) {
		struct counter *e = &c->ev[i];

		e->fd = -1;
		e->open = e->supported && e->kind == COUNTER_RUSAGE;
		e->acc = 0;
		if (e->open)	/* children reaped from now on count (counters_read) */
			rusage_value(e->config, &e->kids_off);
		if (e->supported && e->kind != COUNTER_RUSAGE)
			e->fd = perf_open(e, true);
	}
	c->spent_ns += now_ns() - t0;
}

static void toggle(struct counters *c, unsigned long req, bool on)
{
	uint64_t t0 = now_ns();

	for (size_t i = 0; i < c->n; i++) {
		struct counter *e = &c->ev[i];

		if (e->fd >= 0)
			ioctl(e->fd, req, 0);
		else if (e->open && on)
			e->since = rusage_value(e->config, &e->kids_off);
		else if (e->open)
			e->acc += rusage_value(e->config, &e->kids_off) - e->since;
	}
	c->enabled = on;
	c->spent_ns += now_ns() - t0;
}

void counters_enable(struct counters *c)
{
	if (!c->enabled)
		toggle(c, PERF_EVENT_IOC_ENABLE, true);
}

void counters_region_begin(struct counters *c)
{
	if (!c->region_seen) {
		c->region_seen = true;
		counters_read(c, c->base);
	}
	counters_enable(c);
}

void counters_disable(struct counters *c)
{
	if (c->enabled)
		toggle(c, PERF_EVENT_IOC_DISABLE, false);
}

void counters_read(struct counters *c, double *vals)
{
	uint64_t t0 = now_ns();

	for (size_t i = 0; i < c->n; i++) {
		uint64_t v[3];	/* value, time enabled, time running */
		double x;

		vals[i] = NAN;
		if (c->ev[i].open) {
			double kids;

			/*
			 * As a perf event reads: what was counted while enabled,
			 * and what children alive then did, once reaped (a plugin
			 * may reap its workers in teardown: will-it-scale).
			 */
			x = c->ev[i].acc;
			if (c->enabled)
				x += rusage_value(c->ev[i].config, &kids) - c->ev[i].since;
			else if (!isnan(rusage_value(c->ev[i].config, &kids)))
				x += kids - c->ev[i].kids_off;
		} else if (c->ev[i].fd < 0 || read(c->ev[i].fd, v, sizeof(v)) != sizeof(v)) {
			continue;
		} else {
			x = (double)v[0];
			/* multiplexed (hardware events only): scale to the enabled time */
			if (v[2] && v[2] < v[1])
				x *= (double)v[1] / (double)v[2];
		}
		/* the part before the plugin's timed region began */
		if (c->region_seen && vals != c->base && !isnan(c->base[i]))
			x -= c->base[i];
		vals[i] = x;
	}
	c->spent_ns += now_ns() - t0;
}

void counters_close(struct counters *c)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->ev[i].fd >= 0)
			close(c->ev[i].fd);
		c->ev[i].fd = -1;
		c->ev[i].open = false;
	}
}

static double value_of(const struct counters *c, const double *vals, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->ev[i].name, name))
			return vals[i];
	return NAN;
}

size_t counters_rows(const struct counters *c, const double *vals, double overhead_ms,
		     const char **keys, double *out, size_t max)
{
	/* lkp's derived perf-stat rows: numerator, denominator, scale */
	static const struct { const char *key, *num, *den; double scale; } derived[] = {
		{ "perf-stat:ipc", "instructions", "cycles", 1 },
		{ "perf-stat:cpi", "cycles", "instructions", 1 },
		{ "perf-stat:cache-miss-rate%", "cache-misses", "cache-references", 100 },
		{ "perf-stat:dTLB-load-miss-rate%", "dTLB-load-misses", "dTLB-loads", 100 },
		{ "perf-stat:iTLB-load-miss-rate%", "iTLB-load-misses", "iTLB-loads", 100 },
	};
	size_t n = 0;

	for (size_t i = 0; i < c->n && n < max; i++)
		if (!isnan(vals[i])) {
			keys[n] = c->ev[i].key;
			out[n++] = vals[i];
		}
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]) && n < max; i++) {
		double a = value_of(c, vals, derived[i].num), b = value_of(c, vals, derived[i].den);

		if (!isnan(a) && !isnan(b) && b > 0) {
			keys[n] = derived[i].key;
			out[n++] = derived[i].scale * a / b;
		}
	}
	if (n < max && !isnan(overhead_ms)) {
		keys[n] = "counters:overhead_ms";
		out[n++] = overhead_ms;
	}
	return n;
}
