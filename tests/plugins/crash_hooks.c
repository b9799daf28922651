/*
 * A plugin that segfaults or hangs in a plan-time hook on request (param
 * `crash`: none, supported, check_params, hang_supported, hang_check_params):
 * the harness runs those hooks in a child and must report the crash or the
 * hang, not die of it or wait forever.  With MMB_TEST_HOOK_PIDS set, each
 * call appends "hook pid" there (param `n` makes many variants): planning
 * calls each hook from one child per workload, not one per variant.
 */
#include "loader-case.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mmb_param_def params[] = {
	{ "crash", MMB_PARAM_ENUM, "none", 0, 0, "none|supported|check_params|hang_supported|hang_check_params",
	  "the hook that segfaults or hangs" },
	{ "n", MMB_PARAM_INT, "0", 0, 1000000, NULL, "a number, to make many variants" },
	{ 0 },
};

/* raised, not a NULL store: UBSan (check-asan) would trap that and exit 1 */
static void segfault(void)
{
	raise(SIGSEGV);
}

static void note(const char *hook)
{
	const char *path = getenv("MMB_TEST_HOOK_PIDS");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s %d\n", hook, (int)getpid());
		fclose(f);
	}
}

static const char *supported(const struct mmb_host *h, const struct mmb_value *p)
{
	(void)h;
	note("supported");
	if (!strcmp(p[0].s, "supported"))
		segfault();
	while (!strcmp(p[0].s, "hang_supported"))
		pause();
	return NULL;
}

static const char *check_params(const struct mmb_value *p)
{
	note("check_params");
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
