#include "sysinfo.h"
#include "util.h"

#include <dirent.h>
#include <mmbench/workload.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

bool swap_active(const char *swaps)
{
	char line[512];
	FILE *f = fopen(swaps, "re");
	int n = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n > 1;	/* a header line, then one per device */
}

unsigned int kernel_version_parse(const char *release)
{
	unsigned int a = 0, b = 0, c = 0;

	sscanf(release, "%u.%u.%u", &a, &b, &c);
	if (c > 255)
		c = 255;
	return MMB_KERNEL_VERSION(a, b, c);
}

static char *cpu_model(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	if (!f)
		return xstrdup("unknown");
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && (starts_with(line, "model name") || starts_with(line, "Model") ||
			      starts_with(line, "cpu model"))) {
			fclose(f);
			return xstrdup(strtrim(colon + 1));
		}
	}
	fclose(f);
	return xstrdup("unknown");
}

static char *config_hash(const char *release)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[65], *path = xasprintf("/boot/config-%s", release);

	/* The running kernel's config: /boot first, else /proc/config.gz (as stored). */
	if (strbuf_read_file(&sb, path) < 0 || !sb.len) {
		strbuf_reset(&sb);
		if (strbuf_read_file(&sb, "/proc/config.gz") < 0 || !sb.len) {
			free(path);
			strbuf_release(&sb);
			return NULL;
		}
	}
	free(path);
	sha256_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

void sysinfo_collect(struct sysinfo *si)
{
	struct utsname u;
	struct strbuf sb = STRBUF_INIT;
	char host[256] = "";

	memset(si, 0, sizeof(*si));
	uname(&u);
	si->release = xstrdup(u.release);
	si->version = xstrdup(u.version);
	si->kernel_version = kernel_version_parse(u.release);
	if (strbuf_read_file(&sb, "/proc/cmdline") == 0)
		si->cmdline = xstrdup(strtrim(sb.buf));
	strbuf_release(&sb);
	si->config_hash = config_hash(u.release);
	if (strbuf_read_file(&sb, "/proc/version") == 0)
		si->kernel_compiler = sysinfo_kernel_compiler(sb.buf);
	strbuf_release(&sb);
	gethostname(host, sizeof(host) - 1);
	si->hostname = xstrdup(host);
	si->cpu_model = cpu_model();
	si->ncpus = online_cpus();
	si->mem_bytes = mem_total_bytes();
#ifdef __VERSION__
	si->compiler = xasprintf("%s %s",
#ifdef __clang__
				 "clang",
#else
				 "gcc",
#endif
				 __VERSION__);
#else
	si->compiler = xstrdup("unknown");
#endif
}

char *sysinfo_kernel_compiler(const char *v)
{
	const char *open = v ? strstr(v, ") (") : NULL, *p, *end;
	int depth = 0;

	if (!open)
		return NULL;
	p = open + 3;
	/* to the first ", " outside parentheses, or the group's end */
	for (end = p; *end && *end != '\n'; end++) {
		if (*end == '(')
			depth++;
		else if (*end == ')' && depth-- == 0)
			break;
		else if (depth == 0 && end[0] == ',' && end[1] == ' ')
			break;
	}
	if (end == p || (*end != ')' && *end != ','))
		return NULL;
	while (end > p && end[-1] == ' ')
		end--;
	return end > p ? xstrndup(p, (size_t)(end - p)) : NULL;
}

void sysinfo_release(struct sysinfo *si)
{
	free(si->kernel_compiler);
	free(si->release);
	free(si->version);
	free(si->cmdline);
	free(si->config_hash);
	free(si->hostname);
	free(si->cpu_model);
	free(si->compiler);
	memset(si, 0, sizeof(*si));
}

static void add_item(struct env_item **items, size_t *n, size_t *alloc, const char *key,
		     const char *value)
{
	ALLOC_GROW(*items, *n + 1, *alloc);
	(*items)[*n].key = xstrdup(key);
	(*items)[*n].value = xstrdup(value);
	(*n)++;
}

static void add_knob(struct env_item **items, size_t *n, size_t *alloc, const char *key,
		     const char *path)
{
	char val[512];

	if (read_knob_value(path, val, sizeof(val)) >= 0)
		add_item(items, n, alloc, key, val);
}

/* The numbered entries (0, 1, ...) of a DAMON sysfs folder: their count. */
static int damon_count(const char *dir)
{
	char *p = xasprintf("%s/nr_%s", dir, strrchr(dir, '/') + 1), val[32];
	int nr = read_knob_value(p, val, sizeof(val)) >= 0 ? atoi(val) : 0;

	free(p);
	return nr > 64 ? 64 : nr;
}

/*
 * DAMON: each kdamond's state, each context's operations and each scheme's
 * action (a kdamond with a pageout scheme on paddr reclaims memory under a
 * benchmark), and the DAMON_RECLAIM / DAMON_LRU_SORT modules.
 */
static void add_damon(struct env_item **items, size_t *n, size_t *alloc)
{
	const char *root = "/sys/kernel/mm/damon/admin/kdamonds";

	for (int k = 0, nk = damon_count(root); k < nk; k++) {
		char *kd = xasprintf("%s/%d", root, k), *ctxs = xasprintf("%s/contexts", kd);
		char *key = xasprintf("damon.kdamond.%d.state", k), *path = xasprintf("%s/state", kd);

		add_knob(items, n, alloc, key, path);
		free(key);
		free(path);
		for (int c = 0, nc = damon_count(ctxs); c < nc; c++) {
			char *cx = xasprintf("%s/%d", ctxs, c), *sch = xasprintf("%s/schemes", cx);

			key = xasprintf("damon.kdamond.%d.ctx.%d.operations", k, c);
			path = xasprintf("%s/operations", cx);
			add_knob(items, n, alloc, key, path);
			free(key);
			free(path);
			for (int sc = 0, ns = damon_count(sch); sc < ns; sc++) {
				key = xasprintf("damon.kdamond.%d.ctx.%d.scheme.%d.action", k, c, sc);
				path = xasprintf("%s/%d/action", sch, sc);
				add_knob(items, n, alloc, key, path);
				free(key);
				free(path);
			}
			free(sch);
			free(cx);
		}
		free(ctxs);
		free(kd);
	}
	add_knob(items, n, alloc, "damon_reclaim.enabled", "/sys/module/damon_reclaim/parameters/enabled");
	add_knob(items, n, alloc, "damon_lru_sort.enabled", "/sys/module/damon_lru_sort/parameters/enabled");
}

void env_snapshot(struct env_item **items, size_t *n)
{
	size_t alloc = 0;
	DIR *d;
	struct dirent *de;
	FILE *f;
	char line[256];
	unsigned long long swap_total = 0;

	*items = NULL;
	*n = 0;
	add_knob(items, n, &alloc, "thp.enabled", THP_DIR "/enabled");
	add_knob(items, n, &alloc, "thp.defrag", THP_DIR "/defrag");
	add_knob(items, n, &alloc, "thp.shmem_enabled", THP_DIR "/shmem_enabled");
	add_knob(items, n, &alloc, "thp.use_zero_page", THP_DIR "/use_zero_page");
	add_knob(items, n, &alloc, "thp.khugepaged.defrag", THP_DIR "/khugepaged/defrag");
	d = opendir(THP_DIR);
	while (d && (de = readdir(d))) {
		char *path, *key;

		if (!starts_with(de->d_name, "hugepages-"))
			continue;
		path = xasprintf(THP_DIR "/%s/enabled", de->d_name);
		key = xasprintf("mthp.%s.enabled", de->d_name + strlen("hugepages-"));
		add_knob(items, n, &alloc, key, path);
		free(path);
		free(key);
	}
	if (d)
		closedir(d);
	add_knob(items, n, &alloc, "cpufreq.governor",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	add_knob(items, n, &alloc, "cpufreq.boost", "/sys/devices/system/cpu/cpufreq/boost");
	add_knob(items, n, &alloc, "intel_pstate.no_turbo",
		 "/sys/devices/system/cpu/intel_pstate/no_turbo");
	add_knob(items, n, &alloc, "smt.active", "/sys/devices/system/cpu/smt/active");
	add_knob(items, n, &alloc, "kernel.numa_balancing", "/proc/sys/kernel/numa_balancing");
	add_knob(items, n, &alloc, "vm.overcommit_memory", "/proc/sys/vm/overcommit_memory");
	add_knob(items, n, &alloc, "vm.swappiness", "/proc/sys/vm/swappiness");
	add_knob(items, n, &alloc, "mm.lru_gen", "/sys/kernel/mm/lru_gen/enabled");
	add_knob(items, n, &alloc, "zswap.enabled", "/sys/module/zswap/parameters/enabled");
	add_knob(items, n, &alloc, "ksm.run", "/sys/kernel/mm/ksm/run");
	add_damon(items, n, &alloc);
	f = fopen("/proc/meminfo", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SwapTotal: %llu kB", &swap_total) == 1)
			break;
	if (f)
		fclose(f);
	snprintf(line, sizeof(line), "%llu", swap_total);
	add_item(items, n, &alloc, "swap.total_kb", line);
}

void env_items_free(struct env_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(items[i].key);
		free(items[i].value);
	}
	free(items);
}
