/*
 * A plugin built against the frozen ABI 1.0 header (tests/plugins/abi-1.0/
 * mmbench/workload.h, compiled with -Itests/plugins/abi-1.0 only): it knows
 * no timed_begin/timed_end and its param/metric elements are as long as
 * 1.0 made them.  Every field of every definition holds a distinct value,
 * so a loader that reads an element with the wrong size or stride shows it
 * (tests/unit/test_plugin_abi.c); run() faults in `size` bytes, which the
 * host counts over the whole run() (tests/e2e/49-abi-old-minor.sh).
 */
#include <mmbench/workload.h>

#include <string.h>
#include <sys/mman.h>

enum { P_SIZE, P_PASSES, P_MODE, P_LABEL, P_VERBOSE, P_RATIO };

static const struct mmb_param_def params[] = {
	{ "size", MMB_PARAM_SIZE, "4M", 4096, 1LL << 30, NULL, "bytes faulted in by run()" },
	{ "passes", MMB_PARAM_INT, "1", 1, 100, NULL, "times run() writes every page" },
	{ "mode", MMB_PARAM_ENUM, "touch", 0, 0, "touch|zero", "one byte a page, or memset" },
	{ "label", MMB_PARAM_STRING, "old", 0, 0, NULL, "free text, unused" },
	{ "verbose", MMB_PARAM_BOOL, "false", 0, 0, NULL, "log what run() did" },
	{ "ratio", MMB_PARAM_DOUBLE, "0.5", 0, 0, NULL, "a double, unused" },
	{ 0 },
};

static const struct mmb_metric_def metrics[] = {
	{ "pages", "pages", MMB_HIGHER_IS_BETTER, "pages written by run()" },
	{ "elapsed", "s", MMB_LOWER_IS_BETTER, "run()'s wall time" },
	{ 0 },
};

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{
	(void)h; (void)c; (void)p; (void)s;
	return MMB_OK;
}

static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	size_t len = (size_t)p[P_SIZE].i, pg = (size_t)h->page_size, pages = 0;
	uint64_t t0 = h->now_ns();
	char *buf;

	(void)s;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		h->fail(c, "mmap %zu bytes failed", len);
		return MMB_FAIL;
	}
	for (int64_t n = 0; n < p[P_PASSES].i; n++) {
		if (p[P_MODE].i == 1) {
			memset(buf, 1, len);
			pages += len / pg;
			continue;
		}
		for (size_t off = 0; off < len; off += pg, pages++)
			buf[off] = 1;
	}
	munmap(buf, len);
	if (p[P_VERBOSE].i)
		h->log(c, MMB_LOG_INFO, "%zu pages (%s)", pages, p[P_LABEL].s);
	h->report(c, 0, (double)pages);
	h->report(c, 1, (double)(h->now_ns() - t0) / 1e9);
	return MMB_OK;
}

static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)h; (void)c; (void)p; (void)s;
}

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "abi10",
	.summary = "a plugin built against ABI 1.0",
	.params = params,
	.metrics = metrics,
	.setup = setup,
	.run = run,
	.teardown = teardown,
};

MMB_WORKLOAD(desc)
