/* Loader test: built against a calls itself by another name. */
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

	.name = "someone_else", .summary = "misnamed",
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
