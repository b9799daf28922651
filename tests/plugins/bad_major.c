/* Loader test: built against a future ABI major; must be rejected. */
/* The deliberate override of a LOADER_CASE field is the point of the test. */
#pragma GCC diagnostic ignored "-Woverride-init"
#include "loader-case.h"

static const struct mmb_workload desc = {
	LOADER_CASE("bad_major", "future ABI"),
	.abi_major = MMB_ABI_MAJOR + 98,
};
MMB_WORKLOAD(desc)
