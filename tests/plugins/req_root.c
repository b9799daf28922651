/*
 * Test plugin with a static requirement the harness must enforce before
 * running anything: MMB_REQ_ROOT (tests run it unprivileged).
 */
#include "loader-case.h"

static const struct mmb_workload desc = {
	LOADER_CASE("req_root", "test plugin: requires root"),
	.requires = MMB_REQ_ROOT,
};
MMB_WORKLOAD(desc)
