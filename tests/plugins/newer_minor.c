/*
 * Loader test: a plugin of a newer minor ABI whose descriptor is longer
 * than this harness knows: accepted, the extra fields ignored.
 */
/* The deliberate override of a LOADER_CASE field is the point of the test. */
#pragma GCC diagnostic ignored "-Woverride-init"
#include "loader-case.h"

struct bigger {
	struct mmb_workload w;
	void *future[4];	/* fields a later ABI 1.x appended */
};

static const struct bigger desc = { .w = {
	LOADER_CASE("newer_minor", "ABI 1.99 plugin"),
	.abi_minor = MMB_ABI_MINOR + 99,
	.size = sizeof(struct bigger),
} };

MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void);
MMB_EXPORT const struct mmb_workload *mmbench_workload_entry(void)
{
	return &desc.w;
}
