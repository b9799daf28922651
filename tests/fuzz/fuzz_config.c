/*
 * libFuzzer target: the YAML experiment loader.  Any bytes go in; the loader
 * must either accept the file or print one error and return -1, never
 * crash, leak or exit.
 */
#include "config.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct experiment e;
	char *text = xstrndup((const char *)data, size);

	experiment_init(&e);
	if (!experiment_load_string(&e, "fuzz.yaml", text)) {
		/* an accepted experiment is well formed: walk it */
		for (size_t i = 0; i < e.nworkloads; i++) {
			const struct cfg_workload *w = &e.workloads[i];

			if (!w->name || !*w->name)
				abort();
			for (size_t j = 0; j < w->nparams; j++)
				if (!w->params[j].nvalues || !w->params[j].name)
					abort();
		}
	}
	experiment_release(&e);
	free(text);
	return 0;
}
