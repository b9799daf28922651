/* Loader test: ABI 1.2's facts, a metric's places and the programs it runs; MMB_TEST_FACTS spoils one. */
#include <mmbench/workload.h>
#include <stdlib.h>
#include <string.h>

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{ (void)h; (void)c; (void)p; (void)s; return MMB_OK; }
static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)s; (void)p; h->report(c, 0, 1.0); return MMB_OK; }
static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)h; (void)c; (void)p; (void)s; }

static struct mmb_metric_def metrics[] = {
	{ .name = "value", .unit = "x", .better = MMB_HIGHER_IS_BETTER, .help = "a value", .places = 3 },
	{ .name = "plain", .unit = "x", .better = MMB_HIGHER_IS_BETTER, .help = "no places said" },
	{ 0 },
};
static const char *programs[12] = { "stress-ng", "true", NULL };

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "facts", .summary = "ABI 1.2 facts",
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
	.programs = programs,
};

__attribute__((constructor)) static void spoil(void)
{
	const char *e = getenv("MMB_TEST_FACTS");

	if (!e)
		return;
	if (!strcmp(e, "places"))
		metrics[0].places = 12;
	else if (!strcmp(e, "option"))
		programs[1] = "-rf";
	else if (!strcmp(e, "path"))
		programs[1] = "/bin/sh";
	else if (!strcmp(e, "many"))
		for (int i = 0; i < 9; i++)
			programs[i] = "true";
}

MMB_WORKLOAD(desc)
