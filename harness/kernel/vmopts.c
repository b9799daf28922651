/* The options every command that boots a kernel shares (vm run, ab, bisect, reproduce): parsed and checked. */
#include "vmrun.h"
#include "units.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int parse_int_arg(const char *name, const char *v, int lo, int hi, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < lo || n > hi)
		return error("%s '%s': expected a number %d..%d", name, v, lo, hi);
	*out = (int)n;
	return 0;
}

static int parse_secs(const char *name, const char *v, int *out)
{
	int64_t ns;
	char err[128];

	if (units_parse_duration(v, &ns, err, sizeof(err)) < 0 || ns <= 0)
		return error("%s '%s': expected a duration like 600, 600s or 10m", name, v);
	*out = (int)((ns + 999999999) / 1000000000);
	return 0;
}

static int parse_size_arg(const char *name, const char *v, uint64_t *out)
{
	struct unit_ctx ctx;
	int64_t b;
	char err[128];

	unit_ctx_host(&ctx);
	if (units_parse_size(v, &ctx, &b, err, sizeof(err)) < 0 || b <= 0)
		return error("%s '%s': expected a size like 2G or 512M", name, v);
	*out = (uint64_t)b;
	return 0;
}

/* What the host can give a guest: no more memory than it has (CPUs: vm_clock_check). */
#define VM_MIN_MEM (64ull << 20)	/* a kernel, the initramfs and a workload */

static int check_mem(const char *v, uint64_t b)
{
	uint64_t host = mem_total_bytes();
	size_t len = strlen(v);
	char have[32], lim[32];

	units_format_size((int64_t)b, have, sizeof(have));
	if (b < VM_MIN_MEM) {
		units_format_size((int64_t)VM_MIN_MEM, lim, sizeof(lim));
		return error("--mem '%s' is %s: a guest needs at least %s%s", v, have, lim,
			     len && (v[len - 1] == 'P' || v[len - 1] == 'p')
			     ? " (P counts pages, not petabytes)" : "");
	}
	if (host && b > host) {
		units_format_size((int64_t)host, lim, sizeof(lim));
		return error("--mem '%s' is %s: more than this host's memory (MemTotal %s)", v, have,
			     lim);
	}
	return 0;
}

/* The VM_OPTIONS callbacks: opt->value is the vm_opts field, opt->long_name its option. */
int vm_opt_cpus(const struct option *opt, const char *v)
{
	int *cpus = opt->value;

	return parse_int_arg("--cpus", v, 1, 256, cpus) ? -1 : 0;
}

int vm_opt_mem(const struct option *opt, const char *v)
{
	uint64_t *b = opt->value;

	return parse_size_arg("--mem", v, b) || check_mem(v, *b) ? -1 : 0;
}

int vm_opt_size(const struct option *opt, const char *v)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->long_name);
	return parse_size_arg(name, v, opt->value);
}

int vm_opt_secs(const struct option *opt, const char *v)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->long_name);
	return parse_secs(name, v, opt->value);
}

/* One of a fixed set of names: parse_rc is its parser's; 0 or -1 naming the choices. */
static int named_opt(int parse_rc, const char *opt, const char *v, const char *choices)
{
	return parse_rc ? error("--%s '%s': expected %s", opt, v, choices) : 0;
}

int vm_opt_accel(const struct option *opt, const char *v)
{
	return named_opt(accel_parse(v, opt->value), "accel", v, "auto, kvm or tcg");
}

int vm_opt_clock(const struct option *opt, const char *v)
{
	return named_opt(clock_parse(v, opt->value), "clock", v, "real or virtual");
}

int vm_opt_machine(const struct option *opt, const char *v)
{
	return named_opt(machine_parse(v, opt->value), "machine", v, "auto, q35 or microvm");
}

int vm_opt_arch(const struct option *opt, const char *v)
{
	const struct karch **out = opt->value;

	*out = karch_find(v);
	return named_opt(*out ? 0 : -1, "arch", v, karch_names());
}

int vm_arch_check(const struct karch *arch, enum accel *accel, enum vm_machine machine)
{
	if (!arch)
		return 0;
	if (strcmp(arch->name, "x86_64") && machine != VM_MACHINE_AUTO)
		return error("--machine %s: an x86_64 machine; %s guests boot on '%s'",
			     machine_name(machine), arch->name, arch->machine);
	if (karch_native(arch))
		return 0;
	if (*accel == ACCEL_KVM)
		return error("--arch %s on a %s host runs under TCG (KVM runs the host's "
			     "instructions only): drop --accel kvm", arch->name, karch_host()->name);
	*accel = ACCEL_TCG;
	return 0;
}


int vm_clock_check(enum accel *accel, enum vm_clock clock, int cpus)
{
	int host = online_cpus();

	/*
	 * On the real clock each vCPU is a host thread: more vCPUs than host
	 * CPUs measure the host's scheduler.  On the virtual clock they take
	 * turns on one thread anyway (a 4-vCPU arm64 guest on a 2-CPU host).
	 */
	if (clock != VM_CLOCK_VIRTUAL && cpus > host)
		return error("--cpus %d: this host has %d online CPU%s; a guest on the real clock "
			     "gets at most that many (on --clock virtual the vCPUs take turns on one "
			     "host thread, so more are allowed)", cpus, host, host == 1 ? "" : "s");
	if (clock != VM_CLOCK_VIRTUAL)
		return 0;
	if (*accel == ACCEL_KVM)
		return error("--clock virtual runs under TCG (QEMU's icount counts emulated "
			     "instructions; KVM runs them on the CPU): drop --accel kvm");
	*accel = ACCEL_TCG;
	return 0;
}
