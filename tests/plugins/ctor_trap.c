/*
 * Loader test: a constructor that crashes or never returns when asked
 * (MMB_TEST_CTOR=segv or hang); otherwise a minimal valid plugin.  The
 * harness loads a plugin in a child first and must name the crash or the
 * hang, not die of it or hang.
 */
#include "loader-case.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void trap(void)
{
	const char *e = getenv("MMB_TEST_CTOR");

	if (e && !strcmp(e, "segv"))
		raise(SIGSEGV);
	while (e && !strcmp(e, "hang"))
		pause();
}

static const struct mmb_workload desc = { LOADER_CASE("ctor_trap", "a constructor that crashes or hangs on request") };
MMB_WORKLOAD(desc)
