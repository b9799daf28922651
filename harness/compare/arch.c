/*
 * The guest arch of the compared VM runs (run_env vm.arch, compare.h): an
 * arm64 guest under TCG and an x86_64 one run different kernels' code
 * paths on different emulated CPUs, so they never share a table unless
 * asked (--mix-arches), as the clocks do not (clock.c).
 */
#include "compare.h"
#include "db.h"
#include "query.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static bool is_vm(const char *accel)
{
	return !strcmp(accel, "kvm") || !strcmp(accel, "tcg") || !strcmp(accel, RUN_ACCEL_VIRTUAL);
}

/* The run's guest arch: vm.arch, x86_64 for VM runs made before it was recorded, NULL not a VM run. */
static char *run_arch(const struct compare_run *cr)
{
	const char *accel = cr->run->accel;

	if (!is_vm(accel ? accel : ""))
		return NULL;
	for (size_t i = 0; i < cr->nenv; i++)
		if (!strcmp(cr->env[i].key, "vm.arch"))
			return xstrdup(cr->env[i].value);
	return xstrdup("x86_64");
}

int compare_check_arches(const struct compare *c, bool mix, char *arch, size_t len)
{
	const struct query_set *qs = c->qs;
	struct strbuf why = STRBUF_INIT;
	char first[32] = "";
	bool mixed = false;

	for (size_t i = 0; i < qs->nlabels; i++) {
		const struct query_kernel *k = &qs->kernels[i];
		char mine[32] = "";

		for (size_t j = 0; j < c->nruns; j++) {
			char *a = c->runs[j].label == i ? run_arch(&c->runs[j]) : NULL;

			if (a && !first[0])
				snprintf(first, sizeof(first), "%s", a);
			if (a && strcmp(a, first))
				mixed = true;
			if (a && !strstr(mine, a) && strlen(mine) + strlen(a) + 2 < sizeof(mine))
				snprintf(mine + strlen(mine), sizeof(mine) - strlen(mine), "%s%s",
					 mine[0] ? "|" : "", a);
			free(a);
		}
		if (mine[0])
			strbuf_addf(&why, "%s%s for %s", why.len ? ", " : "", mine, k->label);
	}
	snprintf(arch, len, "%s", mixed ? "mixed" : first);
	if (mixed && !mix) {
		error("the runs to compare were made on guests of different archs: %s; an emulated "
		      "arm64 CPU and an x86_64 one run different code at different costs.\n"
		      "hint: measure both with one --arch, or compare --mix-arches to see them side "
		      "by side anyway", why.buf);
		strbuf_release(&why);
		return MMB_EUSAGE;
	}
	strbuf_release(&why);
	return 0;
}

void compare_arch_line(struct strbuf *out, const struct compare *c, const char *prefix)
{
	if (!c->arch[0])
		return;		/* runs on the machine itself */
	if (!strcmp(c->arch, "mixed"))
		strbuf_addf(out, "%sMIXED: guests of different archs side by side (--mix-arches)\n",
			    prefix);
	else
		strbuf_addf(out, "%s%s (the guest's)\n", prefix, c->arch);
}
