/* Loader test: built against a descriptor shorter than ABI 1 allows. */
/* The deliberate override of a MMB_WORKLOAD_INIT field is the point of the test. */
#pragma GCC diagnostic ignored "-Woverride-init"
#include <mmbench/workload.h>

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{ (void)h; (void)c; (void)p; (void)s; return MMB_OK; }
static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)s; (void)p; h->report(c, 0, 1.0); return MMB_OK; }
static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)h; (void)c; (void)p; (void)s; }

static const struct mmb_metric_def metrics[] = {
	{ "value", "x", MMB_HIGHER_IS_BETTER, "a value" },
	{ 0 },
};

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.size = 16,
	.name = "short_struct", .summary = "truncated",
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
