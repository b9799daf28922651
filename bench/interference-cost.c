/*
 * Cost of the per-iteration interference record (harness/machine/interference.c):
 * two snapshots, the difference, the store keys and the judgement, as the
 * runner does around every iteration.  Prints microseconds per iteration.
 */
#include "interference.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	struct interference_limits l = INTERFERENCE_LIMITS_DEFAULT;
	struct strbuf why = STRBUF_INIT;
	uint64_t ref = 0, t0;
	const char *keys[INTERFERENCE_NKEYS];
	double vals[INTERFERENCE_NKEYS];

	interference_set_cpus(NULL);
	t0 = now_ns();
	for (int i = 0; i < n; i++) {
		struct interference_snap a, b;
		struct interference x;

		interference_take(&a);
		interference_take(&b);
		interference_diff(&a, &b, &x);
		interference_keys(&x, keys, vals);
		strbuf_reset(&why);
		interference_judge(&x, &l, &ref, &why);
	}
	printf("interference record: %.1f us per iteration (%d iterations, %d CPUs)\n",
	       (now_ns() - t0) / 1e3 / n, n, online_cpus());
	strbuf_release(&why);
	return 0;
}
