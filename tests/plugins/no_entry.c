/* Loader test: a shared object without the entry symbol. */
#include <mmbench/workload.h>

MMB_EXPORT int not_a_plugin(void);
MMB_EXPORT int not_a_plugin(void) { return 42; }
