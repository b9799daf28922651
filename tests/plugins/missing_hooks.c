/* Loader test: no run hook; must be rejected. */
/* The deliberate override of a LOADER_CASE field is the point of the test. */
#pragma GCC diagnostic ignored "-Woverride-init"
#include "loader-case.h"

static const struct mmb_workload desc = {
	LOADER_CASE("missing_hooks", "no run"),
	.run = NULL,
};
MMB_WORKLOAD(desc)
