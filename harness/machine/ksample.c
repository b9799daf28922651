/*
 * The built-in sampler (ksample.h, docs/profiles.md): cpu-clock on every
 * CPU through perf_event_open(2), read from the ring buffers in C,
 * kernel addresses named from /proc/kallsyms.
 */
#include "ksample.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ring data pages per CPU (a power of two); the parent drains them every 200 ms */
#define RING_PAGES 64

/* ------------------------------------------------------------ kallsyms */

struct ksym_ent {
	uint64_t addr;
	char *name;
};

static int ksym_cmp(const void *x, const void *y)
{
	const struct ksym_ent *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int ksyms_load(struct ksyms *k, FILE *f, char *err, size_t errlen)
{
	struct ksym_ent *e = NULL;
	size_t n = 0, alloc = 0, lineno = 0, cap = 0;
	char *line = NULL;
	bool nonzero = false;

	memset(k, 0, sizeof(*k));
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *end, type, *name;
		unsigned long long addr;

		lineno++;
		errno = 0;
		addr = strtoull(p, &end, 16);
		if (end == p || errno || *end != ' ' || !end[1] || end[2] != ' ') {
			snprintf(err, errlen, "line %zu: not 'ADDRESS TYPE NAME'", lineno);
			for (size_t i = 0; i < n; i++)
				free(e[i].name);
			free(e);
			free(line);
			return -1;
		}
		type = end[1];
		name = end + 3;
		name[strcspn(name, " \t\r\n")] = '\0';
		if (!strchr("tTwW", type) || !*name)
			continue;
		nonzero |= addr != 0;
		ALLOC_GROW(e, n + 1, alloc);
		e[n].addr = addr;
		e[n].name = xstrdup(name);
		n++;
	}
	free(line);
	if (!nonzero) {		/* hidden: kernel.kptr_restrict, or not root */
		for (size_t i = 0; i < n; i++)
			free(e[i].name);
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), ksym_cmp);
	k->addr = xcalloc(n, sizeof(*k->addr));
	k->name = xcalloc(n, sizeof(*k->name));
	for (size_t i = 0; i < n; i++) {
		k->addr[i] = e[i].addr;
		k->name[i] = e[i].name;
	}
	k->n = n;
	free(e);
	return 0;
}

const char *ksyms_find(const struct ksyms *k, uint64_t ip)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || ip < k->addr[0])
		return NULL;
	while (hi - lo > 1) {	/* addr[lo] <= ip < addr[hi] */
		size_t mid = lo + (hi - lo) / 2;

		if (k->addr[mid] <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return k->name[lo];
}

void ksyms_release(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->name[i]);
	free(k->name);
	free(k->addr);
	memset(k, 0, sizeof(*k));
}

/* ------------------------------------------------------------ records */

static const char *kname(const struct ksyms *k, uint64_t ip)
{
	const char *s = ksyms_find(k, ip);

	return s ? s : k->n ? "[unknown]" : "[kernel]";
}

int ksample_record(struct profile_agg *a, const struct ksyms *k, double period,
		   const void *rec, size_t len, int64_t *lost, char *err, size_t errlen)
{
	const struct perf_event_header *h = rec;
	const uint64_t *u = (const uint64_t *)(h + 1);
	size_t nu, nr, nf = 0;
	const char *frames[PROFILE_CHAIN_DEPTH + 1];
	bool kernel;

	if (len < sizeof(*h) || h->size != len) {
		snprintf(err, errlen, "a record of %zu bytes says %u", len,
			 len < sizeof(*h) ? 0 : h->size);
		return -1;
	}
	nu = (len - sizeof(*h)) / sizeof(*u);
	if (h->type == PERF_RECORD_LOST && nu >= 2)
		*lost += (int64_t)u[1];	/* id, lost */
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (nu < 2 || (nr = (size_t)u[1]) > nu - 2) {
		snprintf(err, errlen, "a sample of %zu bytes with a call chain of %llu", len,
			 nu < 2 ? 0ull : (unsigned long long)u[1]);
		return -1;
	}
	kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	if (!kernel) {
		frames[nf++] = "[user]";
		profile_agg_add(a, period, frames, nf);
		return 0;
	}
	frames[nf++] = kname(k, u[0]);
	/* the chain: context markers, then the kernel's frames, the sample's IP first */
	for (size_t i = 0; i < nr && nf < PROFILE_CHAIN_DEPTH; i++) {
		uint64_t ip = u[2 + i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX || (nf == 1 && ip == u[0]))
			continue;
		frames[nf++] = kname(k, ip);
	}
	profile_agg_add(a, period, frames, nf);
	return 0;
}

/* ------------------------------------------------------------ sampler */

static int open_cpu(int cpu, double period)
{
	struct perf_event_attr at;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_SOFTWARE;
	at.config = PERF_COUNT_SW_CPU_CLOCK;
	at.sample_period = (uint64_t)period;
	at.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	at.disabled = 1;
	at.exclude_hv = 1;
	at.exclude_idle = 1;		/* shares of the busy time, as perf record -p sees it */
	at.exclude_callchain_user = 1;	/* user stacks without frame pointers are junk */
	return (int)syscall(SYS_perf_event_open, &at, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void why_errno(int e, char *why, size_t len)
{
	char par[32] = "?";

	if (e == EACCES || e == EPERM) {
		read_line_file("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
		snprintf(why, len, "not permitted: kernel.perf_event_paranoid is %s (sampling"
			 " every CPU needs root, CAP_PERFMON or a value <= 0)", par);
	} else if (e == ENOSYS || e == ENOENT) {
		snprintf(why, len, "this kernel has no perf events (CONFIG_PERF_EVENTS)");
	} else {
		snprintf(why, len, "cannot sample cpu-clock on every CPU: %s", strerror(e));
	}
}

int ksampler_probe(char *why, size_t len)
{
	int fd = open_cpu(0, 1e9 / KSAMPLE_FREQ);

	if (fd < 0) {
		why_errno(errno, why, len);
		return -1;
	}
	close(fd);
	return 0;
}

static void load_syms(struct ksampler *s)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char err[128];

	if (!f) {
		snprintf(s->syms_why, sizeof(s->syms_why), "no /proc/kallsyms (CONFIG_KALLSYMS):"
			 " kernel samples are [kernel]");
		return;
	}
	if (ksyms_load(&s->syms, f, err, sizeof(err)))
		snprintf(s->syms_why, sizeof(s->syms_why), "/proc/kallsyms: %s: kernel samples"
			 " are [kernel]", err);
	else if (!s->syms.n)
		snprintf(s->syms_why, sizeof(s->syms_why), "/proc/kallsyms shows no addresses"
			 " (kernel.kptr_restrict, or not root): kernel samples are [kernel]");
	fclose(f);
}

int ksampler_open(struct ksampler *s, char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);

	memset(s, 0, sizeof(*s));
	profile_agg_init(&s->agg);
	s->period = 1e9 / KSAMPLE_FREQ;
	s->ring_len = (size_t)page * (RING_PAGES + 1);
	s->fd = xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(*s->fd));
	s->ring = xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(*s->ring));
	for (int cpu = 0; cpu < ncpu; cpu++) {
		int fd = open_cpu(cpu, s->period);
		void *m;

		if (fd < 0 && errno == ENODEV)
			continue;	/* offline */
		if (fd < 0) {
			why_errno(errno, why, len);
			goto fail;
		}
		s->fd[s->n] = fd;
		m = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(why, len, "cannot map the ring buffer of CPU %d: %s%s", cpu,
				 strerror(errno), errno == EPERM ?
				 " (kernel.perf_event_mlock_kb)" : "");
			close(fd);
			goto fail;
		}
		s->ring[s->n++] = m;
	}
	if (!s->n) {
		snprintf(why, len, "no online CPU to sample");
		goto fail;
	}
	load_syms(s);
	return 0;
fail:
	ksampler_close(s);
	return -1;
}

void ksampler_enable(struct ksampler *s, bool on)
{
	for (int i = 0; i < s->n; i++)
		ioctl(s->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static void drain_one(struct ksampler *s, unsigned char *ring)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)ring;
	size_t size = s->ring_len - (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *data = ring + (s->ring_len - size);
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	unsigned char rec[65536];

	while (tail + sizeof(struct perf_event_header) <= head && !s->err[0]) {
		struct perf_event_header h;
		size_t off = (size_t)(tail % size);

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h) || tail + h.size > head) {
			snprintf(s->err, sizeof(s->err), "a ring record of %u bytes", h.size);
			break;
		}
		for (size_t i = 0; i < h.size; i++)	/* a record may wrap */
			rec[i] = data[(off + i) % size];
		ksample_record(&s->agg, &s->syms, s->period, rec, h.size, &s->lost, s->err,
			       sizeof(s->err));
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

void ksampler_drain(struct ksampler *s)
{
	for (int i = 0; i < s->n; i++)
		drain_one(s, s->ring[i]);
}

void ksampler_close(struct ksampler *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->ring[i])
			munmap(s->ring[i], s->ring_len);
		close(s->fd[i]);
	}
	free(s->fd);
	free(s->ring);
	ksyms_release(&s->syms);
	if (s->agg.map[0])
		profile_agg_release(&s->agg);
	s->fd = NULL;
	s->ring = NULL;
	s->n = 0;
}
