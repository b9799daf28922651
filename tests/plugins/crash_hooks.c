/*
 * A plugin that segfaults or hangs in a plan-time hook on request (param
 * `crash`: none, supported, check_params, hang_supported, hang_check_params):
 * the harness runs those hooks in a child and must report the crash or the
 * hang, not die of it or wait forever.
 */
#include "loader-case.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const struct mmb_param_def params[] = {
	{ "crash", MMB_PARAM_ENUM, "none", 0, 0, "none|supported|check_params|hang_supported|hang_check_params",
	  "the hook that segfaults or hangs" },
	{ 0 },
};

/* raised, not a NULL store: UBSan (check-asan) would trap that and exit 1 */
static void segfault(void)
{
	raise(SIGSEGV);
}

static const char *supported(const struct mmb_host *h, const struct mmb_value *p)
{
	(void)h;
	if (!strcmp(p[0].s, "supported"))
		segfault();
	while (!strcmp(p[0].s, "hang_supported"))
		pause();
	return NULL;
}

static const char *check_params(const struct mmb_value *p)
{
	if (!strcmp(p[0].s, "check_params"))
		segfault();
	while (!strcmp(p[0].s, "hang_check_params"))
		pause();
	return NULL;
}

static const struct mmb_workload desc = {
	LOADER_CASE("crash_hooks", "segfaults in supported() or check_params() on request"),
	.params = params,
	.supported = supported,
	.check_params = check_params,
};
MMB_WORKLOAD(desc)
