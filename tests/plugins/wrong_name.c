/* Loader test: the descriptor names another plugin than the file; rejected. */
#include "loader-case.h"

static const struct mmb_workload desc = { LOADER_CASE("someone_else", "misnamed") };
MMB_WORKLOAD(desc)
