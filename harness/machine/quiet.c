/* Waiting for a quiet machine (quiet.h). */
#include "quiet.h"
#include "progress.h"
#include "util.h"

#include <math.h>
#include <time.h>

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void machine_look(double window_s, double *foreign, double *steal)
{
	struct interference_snap a, b;
	struct interference x;
	struct timespec ts = { (time_t)window_s,
			       (long)((window_s - (double)(time_t)window_s) * 1e9) };

	interference_set_cpus(NULL);
	interference_take(&a);
	while (nanosleep(&ts, &ts) < 0)
		;
	interference_take(&b);
	interference_diff(&a, &b, &x);
	*foreign = x.foreign_share;
	*steal = x.steal_share;
}

static bool within(double v, double limit)
{
	return limit < 0 || isnan(v) || v <= limit;
}

int machine_wait_quiet(const struct interference_limits *l, double timeout_s)
{
	double t0 = mono_s(), foreign = NAN, steal = NAN;
	int quiet = 0;

	while (quiet < QUIET_WINDOWS) {
		double waited = mono_s() - t0;

		if (timeout_s > 0 && waited > timeout_s) {
			if (progress_enabled())
				progress_clear();
			return error("the machine did not become quiet in %.0f s: others used %.0f%%"
				     " of our CPUs in the last second (limit %.0f%%), steal %.0f%%"
				     " (limit %.0f%%); stop the other work (top shows it), or run"
				     " without --wait-quiet and let the disturbed iterations be"
				     " marked", timeout_s, 100 * foreign, 100 * l->foreign_cpu,
				     isnan(steal) ? 0.0 : 100 * steal, 100 * l->steal);
		}
		machine_look(QUIET_WINDOW_S, &foreign, &steal);
		quiet = within(foreign, l->foreign_cpu) && within(steal, l->steal) ? quiet + 1 : 0;
		if (progress_enabled())
			progress_update("waiting for a quiet machine: others use %.0f%% of the CPUs"
					" (limit %.0f%%), steal %.0f%%; %.0f s%s", 100 * foreign,
					100 * l->foreign_cpu, isnan(steal) ? 0.0 : 100 * steal,
					mono_s() - t0, quiet ? ", quiet now" : "");
	}
	if (progress_enabled())
		progress_clear();
	info("the machine is quiet: others used %.0f%% of the CPUs in the last second",
	     100 * foreign);
	return 0;
}
