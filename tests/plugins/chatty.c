/*
 * Test plugin for the runner's warn-once: every run logs `repeats` copies
 * of one warning whose numbers change each time (as pft's fault-count
 * check does), one warning that never changes, one that comes only once
 * per run with the same text, and an info line.
 */
#include <mmbench/workload.h>

enum { P_REPEATS };

static const struct mmb_param_def params[] = {
	{ "repeats", MMB_PARAM_INT, "12", 1, 10000, NULL, "copies of the changing warning per run" },
	{ 0 },
};

static const struct mmb_metric_def metrics[] = {
	{ .name = "value", .unit = "x", .better = MMB_HIGHER_IS_BETTER, .help = "always 1" },
	{ 0 },
};

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{
	(void)p; (void)s;
	h->log(c, MMB_LOG_WARN, "setup: the same words every time");
	return MMB_OK;
}

static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)s;
	for (long i = 0; i < p[P_REPEATS].i; i++)
		h->log(c, MMB_LOG_WARN, "%ld pages touched but %ld minor faults measured (%ld%% off)",
		       32768 + i, 2048 + 3 * i, 90 - i % 10);
	h->log(c, MMB_LOG_INFO, "an info line is not counted");
	h->report(c, 0, 1.0);
	return MMB_OK;
}

static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)p; (void)s;
	h->log(c, MMB_LOG_ERROR, "teardown: an error-level line");
}

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "chatty",
	.summary = "test plugin that repeats its warnings",
	.params = params,
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
