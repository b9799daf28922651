/*
 * Test plugin with a static requirement the harness must enforce before
 * running anything: min_kernel 99.0.0 (newer than any host).
 */
#include "loader-case.h"

static const struct mmb_workload desc = {
	LOADER_CASE("req_kernel", "test plugin: requires kernel 99.0.0"),
	.min_kernel = MMB_KERNEL_VERSION(99, 0, 0),
};
MMB_WORKLOAD(desc)
