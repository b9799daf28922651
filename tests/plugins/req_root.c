/*
 * Test plugin with a static requirement the harness must enforce before
 * running anything: MMB_REQ_ROOT (tests run it unprivileged).
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
	.name = "req_root",
	.summary = "test plugin: requires root",
	.metrics = metrics,
	.requires = MMB_REQ_ROOT,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
