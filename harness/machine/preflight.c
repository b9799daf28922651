/* The pre-flight check (preflight.h). */
#include "preflight.h"
#include "quiet.h"
#include "sysinfo.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_load(const struct interference_limits *l)
{
	double foreign, steal;
	int n = 0;

	machine_look(QUIET_WINDOW_S, &foreign, &steal);
	if (l->foreign_cpu >= 0 && !isnan(foreign) && foreign > l->foreign_cpu) {
		warning("pre-flight: others use %.0f%% of the CPUs now (the limit is %.0f%%):"
			" iterations are likely to be marked disturbed and left out; stop that"
			" work, or `run --wait-quiet` to wait for it", 100 * foreign,
			100 * l->foreign_cpu);
		n++;
	}
	if (l->steal >= 0 && !isnan(steal) && steal > l->steal) {
		warning("pre-flight: the hypervisor steals %.0f%% of the CPUs now (the limit is"
			" %.0f%%): a busy host; run when it is quieter or on dedicated CPUs",
			100 * steal, 100 * l->steal);
		n++;
	}
	return n;
}

/* kdamonds that are on, and the DAMON modules that work by themselves. */
static int check_damon(const struct env_item *it, size_t nit)
{
	int n = 0;

	for (size_t i = 0; i < nit; i++) {
		int k;
		char tail[16];

		if (sscanf(it[i].key, "damon.kdamond.%d.%15s", &k, tail) == 2 &&
		    !strcmp(tail, "state") && !strcmp(it[i].value, "on")) {
			struct strbuf acts = STRBUF_INIT;
			char *prefix = xasprintf("damon.kdamond.%d.ctx.", k);

			for (size_t j = 0; j < nit; j++)
				if (starts_with(it[j].key, prefix) && strstr(it[j].key, ".action"))
					strbuf_addf(&acts, "%s%s", acts.len ? ", " : "", it[j].value);
			warning("pre-flight: DAMON kdamond %d is on (scheme actions: %s): it reclaims"
				" or moves memory while the benchmark runs; stop it for the run:"
				" echo off > /sys/kernel/mm/damon/admin/kdamonds/%d/state", k,
				acts.len ? acts.buf : "none", k);
			strbuf_release(&acts);
			free(prefix);
			n++;
		}
		if ((!strcmp(it[i].key, "damon_reclaim.enabled") ||
		     !strcmp(it[i].key, "damon_lru_sort.enabled")) && !strcmp(it[i].value, "Y")) {
			warning("pre-flight: %.*s is on: DAMON reclaims or sorts memory under the"
				" benchmark; echo N > /sys/module/%.*s/parameters/enabled",
				(int)strcspn(it[i].key, "."), it[i].key,
				(int)strcspn(it[i].key, "."), it[i].key);
			n++;
		}
	}
	return n;
}

static int check_governor(const struct env_item *it, size_t nit)
{
	for (size_t i = 0; i < nit; i++)
		if (!strcmp(it[i].key, "cpufreq.governor") && strcmp(it[i].value, "performance")) {
			warning("pre-flight: the CPU frequency governor is %s: the clock moves with"
				" the load; set `environment: governor: performance` in the"
				" experiment", it[i].value);
			return 1;
		}
	return 0;
}

int preflight_check(const struct interference_limits *l, bool look, bool sets_governor)
{
	struct env_item *it;
	size_t nit;
	int n = look ? check_load(l) : 0;

	env_snapshot(&it, &nit);
	n += check_damon(it, nit) + (sets_governor ? 0 : check_governor(it, nit));
	env_items_free(it, nit);
	return n;
}
