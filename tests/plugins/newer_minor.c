/* Loader test: built against a newer minor with a longer descriptor: accepted, extra fields ignored. */
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

struct bigger { struct mmb_workload w; void *future[4]; };
static const struct bigger desc_big = { .w = {
	MMB_WORKLOAD_INIT,

	.name = "newer_minor", .summary = "ABI 1.99 plugin",
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
	.abi_minor = MMB_ABI_MINOR + 99, .size = sizeof(struct bigger),
} };
static const struct mmb_workload *desc_p = &desc_big.w;
MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void);
MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void) { return desc_p; }
