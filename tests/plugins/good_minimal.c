/* Loader test: a minimal descriptor of the current ABI, accepted. */
#include "loader-case.h"

static const struct mmb_workload desc = { LOADER_CASE("good_minimal", "minimal valid plugin") };
MMB_WORKLOAD(desc)
