/*
 * Shared body of the loader and requirement test plugins: trivial hooks and one metric.
 * Each case file only says how its descriptor differs from a valid one.
 */
#ifndef LOADER_CASE_H
#define LOADER_CASE_H

#include <mmbench/workload.h>

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{ (void)h; (void)c; (void)p; (void)s; return MMB_OK; }
static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)s; (void)p; h->report(c, 0, 1.0); return MMB_OK; }
static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)h; (void)c; (void)p; (void)s; }

static const struct mmb_metric_def metrics[] = {
	{ .name = "value", .unit = "x", .better = MMB_HIGHER_IS_BETTER, .help = "a value" },
	{ 0 },
};

/* A valid descriptor's fields; a case overrides some after it. */
#define LOADER_CASE(name_, summary_)					\
	MMB_WORKLOAD_INIT,						\
	.name = name_, .summary = summary_,				\
	.metrics = metrics,						\
	.setup = setup, .run = run, .teardown = teardown

#endif
