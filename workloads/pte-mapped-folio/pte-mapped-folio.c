// SPDX-License-Identifier: GPL-2.0
/*
 * pte-mapped-folio: the benchmark of the fork/zap batching series (David
 * Hildenbrand's pte-mapped-folio-benchmarks, re-implemented from the mails
 * summarised in docs/workloads.md, pte-mapped-folio; the original program was
 * not available).  A region (1 GiB) is backed entirely by PTE-mapped folios
 * of one size, then one action is timed: fork(), munmap(), one
 * MADV_DONTNEED, MADV_DONTNEED page by page, or writing the region after a
 * fork (child alive: cow; child gone: cow-reuse).
 *
 * Creating the folios (kselftest mm/cow.c technique):
 *  - base page size: MADV_NOHUGEPAGE, so no THP of any order;
 *  - page < size < PMD: hugepages-<N>kB/enabled = always, every other size
 *    never (through host->write_knob: journaled and restored by the host),
 *    MADV_HUGEPAGE; the first touch allocates N KiB folios, PTE-mapped;
 *  - size = PMD: PMD THP, populate, then per PMD mprotect one page
 *    read-only and back, which splits the PMD mapping into PTEs while the
 *    folio stays; the VMAs merge back and we check that one VMA remains.
 * After populating, the PMD size is set to never so khugepaged cannot
 * collapse the region behind our back during the measurement.
 *
 * Verification before anything is timed (a run measuring the wrong folios
 * is failed, never reported):
 *  - /proc/self/maps: one VMA covers the region;
 *  - /proc/self/smaps: Rss = the region, AnonHugePages = 0 (PTE-mapped);
 *  - hugepages-<N>kB/stats/anon_fault_alloc moved by >= region / N;
 *  - as root, /proc/self/pagemap + /proc/kpageflags: every folio is
 *    naturally aligned, physically contiguous, starts with a compound head
 *    with the THP bit, has N-1 tails and is not part of a larger folio (for
 *    the base size: no page is compound).
 *
 * Test hook: `sabotage: true` undoes the folio set-up behind the benchmark's
 * back (writes never to the asked size after configuring it; for the base
 * size it enables the smallest mTHP size and MADV_HUGEPAGE instead), so the
 * verification must fail the iteration.  Used by tests/e2e; never set it in
 * a real experiment.
 */
#include <mmbench/workload.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

enum { P_TEST, P_FOLIO_KB, P_SIZE, P_SABOTAGE };
enum { T_FORK, T_MUNMAP, T_DONTNEED, T_PTE_DONTNEED, T_COW, T_COW_REUSE };

static const struct mmb_param_def pmf_params[] = {
	[P_TEST] = { "test", MMB_PARAM_ENUM, "fork", 0, 0,
		     "fork|munmap|dontneed|pte-dontneed|cow|cow-reuse",
		     "the timed action" },
	[P_FOLIO_KB] = { "folio_kb", MMB_PARAM_INT, "4", 4, 2048, NULL,
			 "folio size in KiB: base page .. PMD size, power of two" },
	[P_SIZE] = { "size", MMB_PARAM_SIZE, "1G", 2 << 20, 1LL << 40, NULL,
		     "region size, a multiple of the PMD size" },
	[P_SABOTAGE] = { "sabotage", MMB_PARAM_BOOL, "false", 0, 0, NULL,
			 "test hook: undo the folio set-up behind the benchmark's "
			 "back, verification must fail (never in real runs)" },
	{ 0 },
};

static const struct mmb_metric_def pmf_metrics[] = {
	/* a few ms in seconds: 6 decimals in mmtests' layout, not its 2 */
	{ "seconds", "s", MMB_LOWER_IS_BETTER, "time of the one timed action", .places = 6 },
	{ 0 },
};

struct pmf {
	size_t pg, pmd, folio, size;
	int test;
	char *region;		/* aligned region, NULL once unmapped */
	char *map;		/* what mmap returned, and its length */
	size_t map_len;
	char reason[256];
};

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static const char *pmf_check(const struct mmb_value *p)
{
	if (!is_pow2((uint64_t)p[P_FOLIO_KB].i))
		return "folio_kb must be a power of two (4, 16, 32, ... 2048)";
	if (p[P_SIZE].i % (2 << 20))
		return "size must be a multiple of 2M";
	return NULL;
}

/* The bracketed choice of a sysfs enum ("always [madvise] never"). */
static int knob_choice(const struct mmb_host *host, struct mmb_ctx *ctx,
		       const char *path, char *out, size_t len)
{
	char buf[256], *l, *r, *v = buf;	/* the [selected] choice, else the whole line */
	int n = host->read_knob(ctx, path, buf, sizeof(buf));

	if (n < 0)
		return n;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		v = l + 1;
	}
	if (strlen(v) >= len)
		return -ENAMETOOLONG;
	memcpy(out, v, strlen(v) + 1);
	return 0;
}

static long read_long_file(const char *path)
{
	char buf[64];
	long v = -1;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		v = strtol(buf, NULL, 10);
	}
	return v;
}

static size_t pmd_size(void)
{
	long v = read_long_file(THP_DIR "/hpage_pmd_size");

	return v > 0 ? (size_t)v : 2 << 20;
}

static bool have_dir(const char *path)
{
	return access(path, F_OK) == 0;
}

static const char *pmf_supported(const struct mmb_host *host, const struct mmb_value *p)
{
	static char why[128];
	uint64_t folio = (uint64_t)p[P_FOLIO_KB].i << 10, pg = host->page_size;
	char path[128];

	if (folio < pg) {
		snprintf(why, sizeof(why), "folio_kb %" PRId64 " is below the page size",
			 p[P_FOLIO_KB].i);
		return why;
	}
	if (folio == pg)
		return NULL;
	if (!have_dir(THP_DIR))
		return "kernel lacks transparent hugepages";
	if (folio > pmd_size()) {
		snprintf(why, sizeof(why), "folio_kb %" PRId64 " exceeds the PMD size %zuK",
			 p[P_FOLIO_KB].i, pmd_size() >> 10);
		return why;
	}
	snprintf(path, sizeof(path), THP_DIR "/hugepages-%" PRId64 "kB/enabled",
		 p[P_FOLIO_KB].i);
	if (folio < pmd_size() && !have_dir(path)) {
		snprintf(why, sizeof(why), "kernel lacks hugepages-%" PRId64 "kB",
			 p[P_FOLIO_KB].i);
		return why;
	}
	return NULL;
}

/* Set a THP enum knob unless it already has the value.  MMB_* code. */
static int set_knob(const struct mmb_host *host, struct mmb_ctx *ctx,
		    const char *path, const char *value)
{
	char cur[64];
	int r = knob_choice(host, ctx, path, cur, sizeof(cur));

	if (r < 0) {
		host->fail(ctx, "cannot read %s: %s", path, strerror(-r));
		return MMB_FAIL;
	}
	if (!strcmp(cur, value))
		return MMB_OK;
	r = host->write_knob(ctx, path, value);
	if (r == -EACCES || r == -EPERM || r == -EROFS) {
		host->skip(ctx, "needs root to set %s to %s (it is %s)", path, value, cur);
		return MMB_SKIP;
	}
	if (r < 0) {
		host->fail(ctx, "cannot set %s to %s: %s", path, value, strerror(-r));
		return MMB_FAIL;
	}
	return MMB_OK;
}

/* Sizes (KiB) of the hugepages-<N>kB directories, ascending; count. */
static int mthp_sizes(unsigned long *kb, int max)
{
	DIR *d = opendir(THP_DIR);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		unsigned long v;
		char tail[8];

		char path[160];

		if (strlen(de->d_name) > 64)
			continue;
		/* Some sizes are shmem-only (no anon "enabled"): skip them. */
		if (sscanf(de->d_name, "hugepages-%lukB%7s", &v, tail) != 1)
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%.64s/enabled", de->d_name);
		if (access(path, F_OK) == 0)
			kb[n++] = v;
	}
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && kb[j - 1] > kb[j]; j--) {
			unsigned long t = kb[j];

			kb[j] = kb[j - 1];
			kb[j - 1] = t;
		}
	return n;
}

static void size_knob(char *buf, size_t len, unsigned long kb)
{
	snprintf(buf, len, THP_DIR "/hugepages-%lukB/enabled", kb);
}

/*
 * Allow exactly one large folio size (kb; 0 = none).  For the PMD size on
 * kernels without per-size directories, the global knob is used.
 */
static int allow_only(const struct mmb_host *host, struct mmb_ctx *ctx, unsigned long kb,
		      size_t pmd)
{
	unsigned long sizes[32];
	int n = mthp_sizes(sizes, 32), r;
	bool found = false;
	char path[128];

	for (int i = 0; i < n; i++) {
		size_knob(path, sizeof(path), sizes[i]);
		found |= sizes[i] == kb;
		r = set_knob(host, ctx, path, sizes[i] == kb ? "always" : "never");
		if (r)
			return r;
	}
	if (kb && !found) {
		if (kb << 10 != pmd) {
			host->skip(ctx, "kernel lacks hugepages-%lukB", kb);
			return MMB_SKIP;
		}
		return set_knob(host, ctx, THP_DIR "/enabled", "always");
	}
	return MMB_OK;
}

static int disallow(const struct mmb_host *host, struct mmb_ctx *ctx, unsigned long kb,
		    size_t pmd)
{
	char path[128];

	size_knob(path, sizeof(path), kb);
	if (have_dir(path))	/* the "enabled" file */
		return set_knob(host, ctx, path, "never");
	if (kb << 10 == pmd)
		return set_knob(host, ctx, THP_DIR "/enabled", "never");
	return MMB_OK;
}

/* One counter of /proc/vmstat, -1 when absent. */
static long vmstat_counter(const char *name)
{
	char line[128];
	size_t len = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ') {
			v = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * A fault counter of one folio size ("anon_fault_alloc" or
 * "anon_fault_fallback"): the per-size stats where the kernel has them
 * (6.9+), else, for the PMD size, /proc/vmstat's thp_fault_* (older
 * kernels such as 6.1 count PMD THP faults only there).  -1 when neither.
 */
static long mthp_stat(unsigned long kb, const char *name)
{
	char path[160];
	long v;

	snprintf(path, sizeof(path), THP_DIR "/hugepages-%lukB/stats/%s", kb, name);
	if ((v = read_long_file(path)) >= 0 || kb << 10 != pmd_size())
		return v;
	return vmstat_counter(!strcmp(name, "anon_fault_alloc") ? "thp_fault_alloc"
								 : "thp_fault_fallback");
}

static const char *mthp_stat_source(unsigned long kb, char *buf, size_t len)
{
	snprintf(buf, len, THP_DIR "/hugepages-%lukB/stats", kb);
	if (access(buf, F_OK) == 0)
		snprintf(buf, len, "hugepages-%lukB/stats: anon_fault_alloc", kb);
	else
		snprintf(buf, len, "/proc/vmstat: thp_fault_alloc");
	return buf;
}

/* ----------------------------------------------------------- verification */

/* One VMA must cover [start, end).  Returns 0 or writes the reason. */
static int check_vmas(struct pmf *s, uintptr_t start, uintptr_t end, unsigned long *rss_kb,
		      unsigned long *anon_huge_kb)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int nvma = 0;
	bool in = false, covers = false;

	*rss_kb = *anon_huge_kb = 0;
	if (!f) {
		snprintf(s->reason, sizeof(s->reason), "cannot read /proc/self/smaps: %s",
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		uintptr_t a, b;
		unsigned long kb;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &a, &b) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a < end && b > start;
			if (in) {
				nvma++;
				covers = a <= start && b >= end;
			}
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "Rss: %lu kB", &kb) == 1)
			*rss_kb += kb;
		else if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			*anon_huge_kb += kb;
	}
	fclose(f);
	if (nvma != 1 || !covers) {
		snprintf(s->reason, sizeof(s->reason),
			 "the region is split into %d VMAs (one expected)", nvma);
		return -1;
	}
	return 0;
}

#define PM_PRESENT	(1ULL << 63)
#define PM_PFN_MASK	((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_THP		22

/*
 * Physical check via pagemap + kpageflags (root only).  Returns 0 when all
 * folios are as asked, 1 when the check is not possible here, -1 with a
 * reason otherwise.
 */
static int check_kpageflags(struct pmf *s)
{
	size_t npages = s->size / s->pg, n = s->folio / s->pg;
	uint64_t *pm = NULL, *fl = NULL;
	int pmfd = -1, kfd = -1, ret = 1;
	size_t bad = 0, first_bad = 0;
	const char *what = NULL;

	if (!n || !npages)
		return 1;
	kfd = open("/proc/kpageflags", O_RDONLY);
	if (kfd < 0)
		return 1;
	pmfd = open("/proc/self/pagemap", O_RDONLY);
	pm = malloc(npages * sizeof(*pm));
	fl = malloc((n + 1) * sizeof(*fl));
	if (pmfd < 0 || !pm || !fl)
		goto out;
	if (pread(pmfd, pm, npages * sizeof(*pm),
		  (off_t)((uintptr_t)s->region / s->pg * sizeof(*pm))) !=
	    (ssize_t)(npages * sizeof(*pm)))
		goto out;
	if ((pm[0] & PM_PRESENT) && !(pm[0] & PM_PFN_MASK))
		goto out;		/* PFNs hidden: not privileged */
	ret = 0;
	for (size_t i = 0; i < npages; i += n) {
		uint64_t pfn0 = pm[i] & PM_PFN_MASK;
		const char *why = NULL;
		size_t want = n == 1 ? 1 : n + 1;

		for (size_t j = 0; j < n; j++) {
			if (!(pm[i + j] & PM_PRESENT)) {
				why = "page not present";
				break;
			}
			if ((pm[i + j] & PM_PFN_MASK) != pfn0 + j) {
				why = "folio not physically contiguous";
				break;
			}
		}
		if (!why && pfn0 % n)
			why = "folio not naturally aligned";
		if (!why && pread(kfd, fl, want * sizeof(*fl), (off_t)(pfn0 * sizeof(*fl))) !=
			    (ssize_t)(want * sizeof(*fl)))
			why = "cannot read /proc/kpageflags";
		if (!why && n == 1) {
			if (fl[0] & (1ULL << KPF_COMPOUND_HEAD | 1ULL << KPF_COMPOUND_TAIL))
				why = "page belongs to a large folio";
		} else if (!why) {
			if (!(fl[0] & (1ULL << KPF_COMPOUND_HEAD)) || !(fl[0] & (1ULL << KPF_THP)))
				why = "first page is not the head of a THP folio";
			for (size_t j = 1; !why && j < n; j++)
				if (!(fl[j] & (1ULL << KPF_COMPOUND_TAIL)))
					why = "folio smaller than asked";
			if (!why && (fl[n] & (1ULL << KPF_COMPOUND_TAIL)))
				why = "folio larger than asked";
		}
		if (why) {
			if (!bad++) {
				first_bad = i;
				what = why;
			}
		}
	}
	if (bad) {
		snprintf(s->reason, sizeof(s->reason),
			 "%zu of %zu %zuK folios are wrong (kpageflags; first at +%zuK: %s)",
			 bad, npages / n, s->folio >> 10, first_bad * s->pg >> 10, what);
		ret = -1;
	}
out:
	free(pm);
	free(fl);
	if (pmfd >= 0)
		close(pmfd);
	close(kfd);
	return ret;
}

/* ------------------------------------------------------------------ hooks */

/* The folio size policy, journaled and restored by the host; the mTHP
 * counters before, in alloc0 and fallback0 (-1: none). */
static int pmf_policy(const struct mmb_host *host, struct mmb_ctx *ctx, struct pmf *s,
		      unsigned long kb, bool sabotage, long *alloc0, long *fallback0)
{
	int r;

	if (s->folio == s->pg) {
		if (sabotage) {
			unsigned long sizes[32];
			int n = mthp_sizes(sizes, 32);

			r = n ? allow_only(host, ctx, sizes[0], s->pmd)
			      : set_knob(host, ctx, THP_DIR "/enabled", "always");
			if (r)
				return r;
		}
		return MMB_OK;
	}
	r = allow_only(host, ctx, kb, s->pmd);
	if (r)
		return r;
	if (sabotage && (r = disallow(host, ctx, kb, s->pmd)))
		return r;
	*alloc0 = mthp_stat(kb, "anon_fault_alloc");
	*fallback0 = mthp_stat(kb, "anon_fault_fallback");
	return MMB_OK;
}

/* Map the region PMD-aligned, fault it in and PTE-map PMD folios. */
static int pmf_map(const struct mmb_host *host, struct mmb_ctx *ctx, struct pmf *s,
		   bool sabotage, uintptr_t *start)
{
	uintptr_t a;

	/* Map with slack and align to the PMD size. */
	s->map_len = s->size + s->pmd;
	s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		host->fail(ctx, "mmap of %zu bytes: %s", s->map_len, strerror(errno));
		return MMB_FAIL;
	}
	a = ((uintptr_t)s->map + s->pmd - 1) & ~(uintptr_t)(s->pmd - 1);
	s->region = (char *)a;
	/* Trim the slack so only the region stays mapped. */
	if (s->region > s->map)
		munmap(s->map, (size_t)(s->region - s->map));
	if (s->region + s->size < s->map + s->map_len)
		munmap(s->region + s->size, (size_t)(s->map + s->map_len - (s->region + s->size)));
	s->map = NULL;
	if (madvise(s->region, s->size,
		    (s->folio == s->pg && !sabotage) ? MADV_NOHUGEPAGE : MADV_HUGEPAGE)) {
		host->fail(ctx, "madvise(%s): %s",
			   s->folio == s->pg ? "MADV_NOHUGEPAGE" : "MADV_HUGEPAGE", strerror(errno));
		return MMB_FAIL;
	}

	memset(s->region, 0xaa, s->size);

	if (s->folio == s->pmd) {
		/* PTE-map each PMD THP: the folio stays, the mapping splits. */
		for (size_t off = 0; off < s->size; off += s->pmd) {
			if (mprotect(s->region + off, s->pg, PROT_READ) ||
			    mprotect(s->region + off, s->pg, PROT_READ | PROT_WRITE)) {
				host->fail(ctx, "mprotect at +%zu: %s", off, strerror(errno));
				return MMB_FAIL;
			}
		}
	}
	*start = a;
	return MMB_OK;
}

/* A run on the wrong folios is a failure, not a number: 0 verified (r:
 * 1 when kpageflags could not be read), -1 with s->reason. */
static int pmf_verify(struct pmf *s, uintptr_t a, unsigned long kb, long alloc0, long fallback0)
{
	unsigned long rss_kb, ahp_kb;

	if (check_vmas(s, a, a + s->size, &rss_kb, &ahp_kb))
		return -1;
	if (rss_kb < s->size >> 10) {
		snprintf(s->reason, sizeof(s->reason), "only %lu of %zu kB populated", rss_kb,
			 s->size >> 10);
		return -1;
	}
	if (ahp_kb) {
		snprintf(s->reason, sizeof(s->reason),
			 "%lu kB still PMD-mapped (AnonHugePages), not PTE-mapped", ahp_kb);
		return -1;
	}
	if (alloc0 >= 0) {
		long alloc = mthp_stat(kb, "anon_fault_alloc") - alloc0;
		long fallback = mthp_stat(kb, "anon_fault_fallback") - fallback0;
		long want = (long)(s->size / s->folio);

		if (alloc < want) {
			char src[96];

			snprintf(s->reason, sizeof(s->reason),
				 "only %ld of %ld %luK folios allocated (%s +%ld, fallback +%ld)",
				 alloc < 0 ? 0 : alloc, want, kb,
				 mthp_stat_source(kb, src, sizeof(src)), alloc, fallback);
			return -1;
		}
	}
	return check_kpageflags(s);
}

/* Name the likely culprit of a failed verification: another process
 * changing the knob. */
static int pmf_not_verified(const struct mmb_host *host, struct mmb_ctx *ctx, struct pmf *s,
			    unsigned long kb, bool sabotage)
{
	if (s->folio > s->pg && !sabotage) {
		char path[128], cur[64];

		size_knob(path, sizeof(path), kb);
		if (!have_dir(path))
			snprintf(path, sizeof(path), THP_DIR "/enabled");
		if (knob_choice(host, ctx, path, cur, sizeof(cur)) == 0 &&
		    strcmp(cur, s->folio == s->pmd ? "never" : "always")) {
			host->fail(ctx, "folios are not %luK PTE-mapped: %s "
				   "(%s was changed to %s behind our back)",
				   kb, s->reason, path, cur);
			return MMB_FAIL;
		}
	}
	host->fail(ctx, "folios are not %luK PTE-mapped: %s", kb, s->reason);
	return MMB_FAIL;
}

static int pmf_setup(const struct mmb_host *host, struct mmb_ctx *ctx,
		     const struct mmb_value *p, void **state)
{
	struct pmf *s = calloc(1, sizeof(*s));
	unsigned long kb = (unsigned long)p[P_FOLIO_KB].i;
	long alloc0 = -1, fallback0 = -1;
	bool sabotage = p[P_SABOTAGE].i;
	const char *why;
	uintptr_t a;
	int r;

	if (!s) {
		host->fail(ctx, "out of memory");
		return MMB_FAIL;
	}
	*state = s;
	s->pg = (size_t)sysconf(_SC_PAGESIZE);
	s->pmd = pmd_size();
	s->folio = kb << 10;
	s->size = (size_t)p[P_SIZE].i;
	s->test = (int)p[P_TEST].i;

	if ((why = pmf_supported(host, p))) {
		host->skip(ctx, "%s", why);
		return MMB_SKIP;
	}
	if (s->size % s->pmd) {
		host->fail(ctx, "size %zu is not a multiple of the PMD size %zu", s->size, s->pmd);
		return MMB_FAIL;
	}
	r = pmf_policy(host, ctx, s, kb, sabotage, &alloc0, &fallback0);
	if (r)
		return r;
	r = pmf_map(host, ctx, s, sabotage, &a);
	if (r)
		return r;
	/* No khugepaged collapse while we measure (best effort). */
	if (s->folio > s->pg && !sabotage)
		(void)disallow(host, ctx, s->pmd >> 10, s->pmd);
	r = pmf_verify(s, a, kb, alloc0, fallback0);
	if (r < 0)
		return pmf_not_verified(host, ctx, s, kb, sabotage);
	host->log(ctx, MMB_LOG_DEBUG, "verified %zu %luK PTE-mapped folios (%s)",
		  s->size / s->folio, kb, r ? "smaps+stats" : "smaps+stats+kpageflags");
	return MMB_OK;
}

static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int pmf_run(const struct mmb_host *host, struct mmb_ctx *ctx,
		   const struct mmb_value *p, void *state)
{
	struct pmf *s = state;
	uint64_t t0 = 0, t1 = 0;
	size_t errs = 0;
	int pfd[2] = { -1, -1 };
	pid_t pid;
	char c;

	switch (s->test) {
	case T_FORK:
		t0 = host->now_ns();
		pid = fork();
		if (pid == 0)
			_exit(0);
		t1 = host->now_ns();
		if (pid < 0)
			goto fork_failed;
		reap(pid);
		break;
	case T_MUNMAP:
		t0 = host->now_ns();
		errs = munmap(s->region, s->size) != 0;
		t1 = host->now_ns();
		if (!errs)
			s->region = NULL;
		break;
	case T_DONTNEED:
		t0 = host->now_ns();
		errs = madvise(s->region, s->size, MADV_DONTNEED) != 0;
		t1 = host->now_ns();
		break;
	case T_PTE_DONTNEED:
		t0 = host->now_ns();
		for (size_t off = 0; off < s->size; off += s->pg)
			errs += madvise(s->region + off, s->pg, MADV_DONTNEED) != 0;
		t1 = host->now_ns();
		break;
	case T_COW:
		/* The child keeps the folios shared until we have written them. */
		if (pipe(pfd)) {
			host->fail(ctx, "pipe: %s", strerror(errno));
			return MMB_FAIL;
		}
		pid = fork();
		if (pid == 0) {
			close(pfd[1]);
			while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		close(pfd[0]);
		if (pid < 0) {
			close(pfd[1]);
			goto fork_failed;
		}
		t0 = host->now_ns();
		memset(s->region, 0x55, s->size);
		t1 = host->now_ns();
		close(pfd[1]);
		reap(pid);
		break;
	case T_COW_REUSE:
		/* The child is gone before we write: the folios can be reused. */
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0)
			goto fork_failed;
		reap(pid);
		t0 = host->now_ns();
		memset(s->region, 0x55, s->size);
		t1 = host->now_ns();
		break;
	}
	if (errs) {
		host->fail(ctx, "%s failed %zu times: %s", p[P_TEST].s, errs, strerror(errno));
		return MMB_FAIL;
	}
	host->report(ctx, 0, (t1 - t0) / 1e9);
	return MMB_OK;
fork_failed:
	host->fail(ctx, "fork: %s", strerror(errno));
	return MMB_FAIL;
}

static void pmf_teardown(const struct mmb_host *host, struct mmb_ctx *ctx,
			 const struct mmb_value *p, void *state)
{
	struct pmf *s = state;

	if (!s)
		return;
	if (s->region)
		munmap(s->region, s->size);
	if (s->map)
		munmap(s->map, s->map_len);
	free(s);
}

static const struct mmb_workload pmf_workload = {
	MMB_WORKLOAD_INIT,
	.name = "pte-mapped-folio",
	.summary = "time fork/munmap/dontneed/COW of a region of PTE-mapped folios of one size",
	.params = pmf_params,
	.metrics = pmf_metrics,
	.requires = 0,
	.supported = pmf_supported,
	.setup = pmf_setup,
	.run = pmf_run,
	.teardown = pmf_teardown,
	.check_params = pmf_check,
};

MMB_WORKLOAD(pmf_workload);
