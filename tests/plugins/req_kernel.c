/*
 * Test plugin with a static requirement the harness must enforce before
 * running anything: min_kernel 99.0.0 (newer than any host).
 */
#include <mmbench/workload.h>

static const struct mmb_metric_def metrics[] = {
	{ "value", "units", MMB_HIGHER_IS_BETTER, "always 1" },
	{ 0 },
};

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{
	(void)h; (void)c; (void)p; (void)s;
	return MMB_OK;
}

static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)p; (void)s;
	h->report(c, 0, 1.0);
	return MMB_OK;
}

static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)h; (void)c; (void)p; (void)s;
}

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "req_kernel",
	.summary = "test plugin: requires kernel 99.0.0",
	.metrics = metrics,
	.min_kernel = MMB_KERNEL_VERSION(99, 0, 0),
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
