#include "interference.h"
#include "envctl.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the CPU set ---- */

static unsigned char watch_cpu[INTERFERENCE_MAX_CPUS];
static int nwatch = -1;
/*
 * cpufreq and thermal_throttle are there for every CPU or for none: looked
 * up once per run (interference_set_cpus), not on every snapshot.
 */
static bool have_freq_files, cpus_set;		/* -1: not set yet (watch every CPU) */
/* the harness's CPU that getrusage(CHILDREN) misses (interference_count_own) */
static struct rusage own_elsewhere;

void interference_set_cpus(const cpu_set_t *pin)
{
	cpu_set_t set;

	cpus_set = true;
	have_freq_files = access("/sys/devices/system/cpu/cpu0/cpufreq", F_OK) == 0 ||
			  access("/sys/devices/system/cpu/cpu0/thermal_throttle", F_OK) == 0;
	memset(watch_cpu, 0, sizeof(watch_cpu));
	nwatch = 0;
	CPU_ZERO(&set);
	if (pin) {
		set = *pin;
	} else if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		nwatch = -1;
		return;
	}
	for (int c = 0; c < INTERFERENCE_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			watch_cpu[c] = 1;
			nwatch++;
		}
	if (!nwatch)
		nwatch = -1;
}

static bool watched(int cpu)
{
	return nwatch < 0 || (cpu >= 0 && cpu < INTERFERENCE_MAX_CPUS && watch_cpu[cpu]);
}

/* ---- reading ---- */

/* A small /proc or /sys file into buf (NUL-terminated); bytes or -1. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

static bool irq_is_foreign = true;

void interference_irq_not_foreign(void)
{
	irq_is_foreign = false;
}

/*
 * "cpuN user nice system idle iowait irq softirq steal guest guest_nice":
 * sum the watched CPUs.  guest time is already inside user.
 */
static void read_stat(struct interference_snap *s)
{
	static char buf[1 << 16];
	char *line, *save = NULL;

	s->have_stat = false;
	if (slurp("/proc/stat", buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 9 || !watched(cpu))
			continue;
		s->busy += v[0] + v[1] + v[2] + (irq_is_foreign ? v[5] + v[6] : 0);
		s->idle += v[3];
		s->iowait += v[4];
		s->steal += v[7];
		s->have_stat = true;
	}
}

static void read_freq(struct interference_snap *s)
{
	char path[128], buf[64];
	int ncpu = online_cpus();

	for (int c = 0; have_freq_files && c < ncpu && c < INTERFERENCE_MAX_CPUS; c++) {
		unsigned long long khz, n;

		if (!watched(c))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		if (slurp(path, buf, sizeof(buf)) > 0 && (khz = strtoull(buf, NULL, 10)) &&
		    (!s->freq_khz_min || khz < s->freq_khz_min))
			s->freq_khz_min = khz;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count", c);
		if (slurp(path, buf, sizeof(buf)) > 0 && (n = strtoull(buf, NULL, 10)))
			s->throttle += n;
	}
}

static void read_swap(struct interference_snap *s)
{
	static char buf[1 << 15];
	const char *p;

	if (slurp("/proc/vmstat", buf, sizeof(buf)) <= 0)
		return;
	if ((p = strstr(buf, "\npswpin ")))
		s->pswpin = strtoull(p + 8, NULL, 10);
	if ((p = strstr(buf, "\npswpout ")))
		s->pswpout = strtoull(p + 9, NULL, 10);
}

/* The fields interference_diff() reads of the children's rusage: to += add. */
static void rusage_add(struct rusage *to, const struct rusage *add)
{
	timeradd(&to->ru_utime, &add->ru_utime, &to->ru_utime);
	timeradd(&to->ru_stime, &add->ru_stime, &to->ru_stime);
	to->ru_nvcsw += add->ru_nvcsw;
	to->ru_nivcsw += add->ru_nivcsw;
}

void interference_take(struct interference_snap *s)
{
	memset(s, 0, sizeof(*s));
	if (!cpus_set)
		interference_set_cpus(NULL);
	read_stat(s);
	read_freq(s);
	read_swap(s);
	getrusage(RUSAGE_SELF, &s->self);
	getrusage(RUSAGE_CHILDREN, &s->children);
	rusage_add(&s->children, &own_elsewhere);
	s->t_ns = now_ns();
}

void interference_count_own(const struct rusage *ru)
{
	rusage_add(&own_elsewhere, ru);
}

static double tv_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static double ru_cpu_s(const struct rusage *a, const struct rusage *b)
{
	return tv_s(&a->ru_utime, &b->ru_utime) + tv_s(&a->ru_stime, &b->ru_stime);
}

static void read_load(struct interference *x)
{
	char buf[128];
	double l1;
	int running, total;

	x->procs_running = NAN;
	x->load1 = NAN;
	if (slurp("/proc/loadavg", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%lf %*f %*f %d/%d", &l1, &running, &total) == 3) {
		x->load1 = l1;
		x->procs_running = running > 0 ? running - 1 : 0;	/* not us */
	}
}

static double mem_available(void)
{
	static char buf[1 << 13];
	const char *p;

	if (slurp("/proc/meminfo", buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "MemAvailable:")))
		return NAN;
	return strtod(p + 13, NULL) * 1024.0;
}

void interference_diff(const struct interference_snap *a, const struct interference_snap *b,
		       struct interference *x)
{
	double hz = (double)sysconf(_SC_CLK_TCK);
	double own;

	if (hz <= 0)
		hz = 100;
	memset(x, 0, sizeof(*x));
	x->wall_s = (b->t_ns - a->t_ns) / 1e9;
	x->window_s = NAN;
	x->cpus = nwatch > 0 ? nwatch : online_cpus();
	/* the iteration (reaped children) and the harness itself are "own" */
	own = ru_cpu_s(&a->children, &b->children) + ru_cpu_s(&a->self, &b->self);
	if (a->have_stat && b->have_stat && x->wall_s > 0) {
		double busy = (double)(b->busy - a->busy) / hz;

		x->foreign_cpu_s = busy > own ? busy - own : 0;
		x->foreign_share = x->foreign_cpu_s / (x->cpus * x->wall_s);
		x->steal_s = (double)(b->steal - a->steal) / hz;
		x->steal_share = x->steal_s / (x->cpus * x->wall_s);
		x->iowait_s = (double)(b->iowait - a->iowait) / hz;
	} else {
		x->foreign_cpu_s = x->foreign_share = x->steal_s = x->steal_share = NAN;
		x->iowait_s = NAN;
	}
	/* tick accounting is coarse: a share cannot pass 100% */
	if (x->foreign_share > 1)
		x->foreign_share = 1;
	x->nvcsw = (double)(b->children.ru_nvcsw - a->children.ru_nvcsw);
	x->nivcsw = (double)(b->children.ru_nivcsw - a->children.ru_nivcsw);
	if (a->freq_khz_min && b->freq_khz_min)
		x->freq_khz = (double)(a->freq_khz_min < b->freq_khz_min ? a->freq_khz_min
									 : b->freq_khz_min);
	else
		x->freq_khz = NAN;
	x->throttle_events = (double)(b->throttle >= a->throttle ? b->throttle - a->throttle : 0);
	x->pswpin = (double)(b->pswpin - a->pswpin);
	x->pswpout = (double)(b->pswpout - a->pswpout);
	read_load(x);
	x->mem_available_bytes = mem_available();
}

static uint64_t min_window_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (uint64_t)INTERFERENCE_MIN_WINDOW_TICKS * 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
}

void interference_history_push(struct interference_history *h, const struct interference_snap *s)
{
	const struct interference_snap *newest =
		h->n ? &h->snap[(h->next + INTERFERENCE_HISTORY - 1) % INTERFERENCE_HISTORY] : NULL;

	if (newest && s->t_ns - newest->t_ns < min_window_ns() / 4)
		return;
	h->snap[h->next] = *s;
	h->next = (h->next + 1) % INTERFERENCE_HISTORY;
	if (h->n < INTERFERENCE_HISTORY)
		h->n++;
}

static const struct interference_snap *window_start(const struct interference_history *h,
						     const struct interference_snap *a,
						     const struct interference_snap *b)
{
	const struct interference_snap *start = a;
	uint64_t min = min_window_ns();

	/* newest first: the shortest window that is long enough, else the longest there is */
	for (unsigned k = 1; k <= h->n && b->t_ns - start->t_ns < min; k++) {
		const struct interference_snap *s =
			&h->snap[(h->next + INTERFERENCE_HISTORY - k) % INTERFERENCE_HISTORY];

		if (s->t_ns < start->t_ns && s->have_stat)
			start = s;
	}
	return start;
}

void interference_diff_window(const struct interference_history *h,
			      const struct interference_snap *a, const struct interference_snap *b,
			      struct interference *x)
{
	const struct interference_snap *start = window_start(h, a, b);
	struct interference wide;

	interference_diff(a, b, x);
	if (start == a)
		return;
	interference_diff(start, b, &wide);
	x->window_s = wide.wall_s;
	x->foreign_cpu_s = wide.foreign_cpu_s;
	x->foreign_share = wide.foreign_share;
	x->steal_s = wide.steal_s;
	x->steal_share = wide.steal_share;
}

int interference_keys(const struct interference *x, const char **keys, double *values)
{
	const struct { const char *key; double v; } all[] = {
		{ "interference:wall_s", x->wall_s },
		{ "interference:window_s", x->window_s },
		{ "interference:cpus", x->cpus },
		{ "interference:foreign_cpu_s", x->foreign_cpu_s },
		{ "interference:foreign_share", x->foreign_share },
		{ "interference:steal_s", x->steal_s },
		{ "interference:steal_share", x->steal_share },
		{ "interference:iowait_s", x->iowait_s },
		{ "interference:procs_running", x->procs_running },
		{ "interference:load1", x->load1 },
		{ "interference:nvcsw", x->nvcsw },
		{ "interference:nivcsw", x->nivcsw },
		{ "interference:freq_khz", x->freq_khz },
		{ "interference:throttle_events", x->throttle_events },
		{ "interference:mem_available_bytes", x->mem_available_bytes },
		{ "interference:pswpin", x->pswpin },
		{ "interference:pswpout", x->pswpout },
	};
	int n = 0;

	_Static_assert(sizeof(all) / sizeof(all[0]) == INTERFERENCE_NKEYS, "key count");
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (isnan(all[i].v))
			continue;
		keys[n] = all[i].key;
		values[n++] = all[i].v;
	}
	return n;
}

double interference_level(const struct interference *x)
{
	if (isnan(x->foreign_share))
		return NAN;
	return x->foreign_share + (isnan(x->steal_share) ? 0 : x->steal_share);
}

double interference_kthread_cpu_s(void)
{
	double hz = (double)sysconf(_SC_CLK_TCK), ticks = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return NAN;
	while ((de = readdir(d))) {
		char path[300], buf[1024], *p;
		unsigned long flags;
		unsigned long long ut, st;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (slurp(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
			continue;
		/* after "(comm)": state ppid pgrp session tty tpgid flags ... utime stime */
		if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u %llu %llu",
			   &flags, &ut, &st) == 3 && (flags & 0x00200000))	/* PF_KTHREAD */
			ticks += (double)(ut + st);
	}
	closedir(d);
	return ticks / (hz > 0 ? hz : 100);
}

bool interference_record_only(struct interference_limits *l)
{
	const char *mode = getenv("MMBENCH_INTERFERENCE");

	if (!mode || strcmp(mode, "record"))
		return false;
	l->foreign_cpu = l->steal = l->freq_drop = -1;
	l->throttle = false;
	return true;
}

static void add_reason(struct strbuf *why, const char *fmt, ...) MMB_PRINTF_FMT(2, 3);
static void add_reason(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (why->len)
		strbuf_addstr(why, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
}

void interference_judge(const struct interference *x, const struct interference_limits *l,
			uint64_t *ref_freq_khz, struct strbuf *why)
{
	if (l->foreign_cpu >= 0 && !isnan(x->foreign_share) && x->foreign_share > l->foreign_cpu)
		add_reason(why, "foreign CPU %.0f%% of %g CPU%s (limit %.0f%%)",
			   100 * x->foreign_share, x->cpus, x->cpus == 1 ? "" : "s",
			   100 * l->foreign_cpu);
	if (l->steal >= 0 && !isnan(x->steal_share) && x->steal_share > l->steal)
		add_reason(why, "steal %.0f%% (limit %.0f%%)", 100 * x->steal_share,
			   100 * l->steal);
	if (!isnan(x->freq_khz)) {
		if (!*ref_freq_khz)
			*ref_freq_khz = (uint64_t)x->freq_khz;
		else if (l->freq_drop >= 0 && x->freq_khz < (1 - l->freq_drop) * *ref_freq_khz)
			add_reason(why, "CPU frequency %.0f MHz, %.0f%% below the run's first %.0f MHz",
				   x->freq_khz / 1000, 100 * (1 - x->freq_khz / *ref_freq_khz),
				   *ref_freq_khz / 1000.0);
	}
	if (l->throttle && x->throttle_events > 0)
		add_reason(why, "%.0f thermal throttling event%s", x->throttle_events,
			   x->throttle_events == 1 ? "" : "s");
}

/* ---- knobs ---- */

struct knob_watch {
	char *key, *path, *value;
};
static struct knob_watch *watches;
static size_t nwatches, awatches;

void knob_watch_add(const char *key, const char *path, const char *value)
{
	for (size_t i = 0; i < nwatches; i++)
		if (!strcmp(watches[i].path, path)) {
			free(watches[i].value);
			watches[i].value = xstrdup(value);
			return;
		}
	ALLOC_GROW(watches, nwatches + 1, awatches);
	watches[nwatches++] = (struct knob_watch){ xstrdup(key), xstrdup(path), xstrdup(value) };
}

int knob_watch_check(struct strbuf *why)
{
	int drifted = 0;

	for (size_t i = 0; i < nwatches; i++) {
		char now[512];
		int ret;

		if (read_knob_value(watches[i].path, now, sizeof(now)) < 0) {
			add_reason(why, "knob %s unreadable", watches[i].key);
			drifted++;
			continue;
		}
		if (!strcmp(now, watches[i].value))
			continue;
		add_reason(why, "knob %s changed to %s", watches[i].key, now);
		drifted++;
		/*
		 * Journaled as the value put back, not as the drifted one it
		 * replaces: when the experiment's own set was a no-op (THP
		 * already never) nothing was journaled before, and a journal of
		 * "always" made the final restore leave the drift in place.
		 * Replayed in reverse, the run's first entry still ends at the
		 * original.
		 */
		ret = envctl_push_undo_write(watches[i].path, watches[i].value);
		if (!ret)
			ret = write_file_str(watches[i].path, watches[i].value);
		if (ret)
			warning("cannot put %s back to %s: %s", watches[i].key, watches[i].value,
				strerror(-ret));
	}
	return drifted;
}

void knob_watch_reset(void)
{
	for (size_t i = 0; i < nwatches; i++) {
		free(watches[i].key);
		free(watches[i].path);
		free(watches[i].value);
	}
	free(watches);
	watches = NULL;
	nwatches = awatches = 0;
}
