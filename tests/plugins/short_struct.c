/* Loader test: a descriptor shorter than ABI 1 allows; must be rejected. */
/* The deliberate override of a LOADER_CASE field is the point of the test. */
#pragma GCC diagnostic ignored "-Woverride-init"
#include "loader-case.h"

static const struct mmb_workload desc = {
	LOADER_CASE("short_struct", "truncated"),
	.size = 16,
};
MMB_WORKLOAD(desc)
