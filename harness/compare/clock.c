/*
 * Which clock the compared runs were timed on (compare.h): the host's
 * (plain runs, KVM and TCG boots) or the virtual clock of a TCG boot with
 * icount (runs.accel RUN_ACCEL_VIRTUAL).  A virtual second is a count of
 * guest instructions, so the two never share a table unless asked.
 */
#include "compare.h"
#include "db.h"
#include "util.h"

#include <stdbool.h>
#include <string.h>

static bool is_vm(const char *accel)
{
	return !strcmp(accel, "kvm") || !strcmp(accel, "tcg") || !strcmp(accel, RUN_ACCEL_VIRTUAL);
}

/* The labels whose pooled runs are (virtual) or are not (!virtual) on the virtual clock. */
static void labels_on(const struct query_set *qs, bool virtual, struct strbuf *out)
{
	for (size_t i = 0; i < qs->nlabels; i++) {
		const struct query_kernel *k = &qs->kernels[i];
		bool any = false;

		for (size_t j = 0; j < k->nruns; j++)
			any |= k->runs[j].pooled &&
			       !strcmp(k->runs[j].accel ? k->runs[j].accel : "", RUN_ACCEL_VIRTUAL) == virtual;
		if (any)
			strbuf_addf(out, "%s%s", out->len ? ", " : "", k->label);
	}
}

int compare_check_clocks(const struct query_set *qs, bool mix, enum compare_clock *clock)
{
	bool virt = false, real = false, vm = false;
	struct strbuf v = STRBUF_INIT, r = STRBUF_INIT;

	for (size_t i = 0; i < qs->nlabels; i++)
		for (size_t j = 0; j < qs->kernels[i].nruns; j++) {
			const struct query_run *run = &qs->kernels[i].runs[j];
			const char *a = run->accel ? run->accel : "";

			if (!run->pooled)
				continue;
			virt |= !strcmp(a, RUN_ACCEL_VIRTUAL);
			real |= strcmp(a, RUN_ACCEL_VIRTUAL) != 0;
			vm |= is_vm(a);
		}
	*clock = virt && real ? COMPARE_CLOCK_MIXED : virt ? COMPARE_CLOCK_VIRTUAL
		 : vm ? COMPARE_CLOCK_REAL_VM : COMPARE_CLOCK_HOST;
	if (*clock != COMPARE_CLOCK_MIXED || mix)
		return 0;
	labels_on(qs, true, &v);
	labels_on(qs, false, &r);
	error("the runs to compare were timed on different clocks: virtual (guest instructions) "
	      "for %s, real (host time) for %s; a virtual second is not a second.\n"
	      "hint: measure both under one --clock, or compare --mix-clocks to see them side "
	      "by side anyway", v.buf, r.buf);
	strbuf_release(&v);
	strbuf_release(&r);
	return MMB_EUSAGE;
}

const char *compare_clock_name(const struct compare *c)
{
	static const char *const names[] = {
		[COMPARE_CLOCK_HOST] = "real", [COMPARE_CLOCK_REAL_VM] = "real",
		[COMPARE_CLOCK_VIRTUAL] = "virtual", [COMPARE_CLOCK_MIXED] = "mixed",
	};

	return (size_t)c->clock < ARRAY_SIZE(names) ? names[c->clock] : "real";
}

void compare_clock_line(struct strbuf *out, const struct compare *c, const char *prefix)
{
	switch (c->clock) {
	case COMPARE_CLOCK_HOST:
		return;		/* runs on the machine itself: nothing else was possible */
	case COMPARE_CLOCK_REAL_VM:
		strbuf_addf(out, "%sreal (host time; a guest slows with a busy host)\n", prefix);
		return;
	case COMPARE_CLOCK_VIRTUAL:
		strbuf_addf(out, "%svirtual (guest instructions; cache, TLB and memory latency are "
			    "not modelled)\n", prefix);
		return;
	case COMPARE_CLOCK_MIXED:
		strbuf_addf(out, "%sMIXED: virtual and real clocks side by side (--mix-clocks); "
			    "their times are not comparable\n", prefix);
		return;
	}
}
