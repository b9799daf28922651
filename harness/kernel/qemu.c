#include "qemu.h"
#include "db.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static const char *const accel_names[] = { [ACCEL_AUTO] = "auto", [ACCEL_KVM] = "kvm", [ACCEL_TCG] = "tcg" };

int accel_parse(const char *s, enum accel *out)
{
	return NAME_PARSE(accel_names, 0, s, out);
}

const char *accel_name(enum accel a)
{
	return (size_t)a < ARRAY_SIZE(accel_names) ? accel_names[a] : "auto";
}

static const char *const clock_names[] = { [VM_CLOCK_REAL] = "real", [VM_CLOCK_VIRTUAL] = "virtual" };

int clock_parse(const char *s, enum vm_clock *out)
{
	return NAME_PARSE(clock_names, 0, s, out);
}

static const char *const machine_names[] = {
	[VM_MACHINE_AUTO] = "auto", [VM_MACHINE_Q35] = "q35", [VM_MACHINE_MICROVM] = "microvm",
};

int machine_parse(const char *s, enum vm_machine *out)
{
	return NAME_PARSE(machine_names, 0, s, out);
}

const char *machine_name(enum vm_machine m)
{
	return (size_t)m < ARRAY_SIZE(machine_names) ? machine_names[m] : "auto";
}

const char *accel_record_name(enum accel a, enum vm_clock c)
{
	return c == VM_CLOCK_VIRTUAL ? RUN_ACCEL_VIRTUAL : accel_name(a);
}

bool kvm_usable(char *why, size_t len)
{
	const char *env = getenv("MMBENCH_KVM_DEV");	/* tests point it elsewhere */
	const char *dev = env && *env ? env : "/dev/kvm";
	int fd = open(dev, O_RDWR | O_CLOEXEC), vm, ver;

	if (fd < 0) {
		snprintf(why, len, "%s: %s", dev, strerror(errno));
		return false;
	}
	ver = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (ver != KVM_API_VERSION) {
		snprintf(why, len, "%s: KVM API version %d, expected %d", dev, ver, KVM_API_VERSION);
		close(fd);
		return false;
	}
	vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm < 0) {
		snprintf(why, len, "%s: cannot create a VM: %s", dev, strerror(errno));
		close(fd);
		return false;
	}
	close(vm);
	close(fd);
	return true;
}

/* QEMU option values double a comma to keep it literal. */
static char *comma_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (; *s; s++) {
		strbuf_addch(&sb, *s);
		if (*s == ',')
			strbuf_addch(&sb, ',');
	}
	return strbuf_detach(&sb);
}

bool vm_env_flag(const char *name)
{
	const char *e = getenv(name);

	return e && *e && strcmp(e, "0");
}

#if defined(__x86_64__)
static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* A TSC reading and the raw monotonic time beside it: the tightest of 16 brackets. */
static bool tsc_at(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		struct timespec a, b;
		uint64_t t;

		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		t = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		if (ns_of(&b) - ns_of(&a) < best) {
			best = ns_of(&b) - ns_of(&a);
			*tsc = t;
			*ns = (ns_of(&a) + ns_of(&b)) / 2;
		}
	}
	return best < 20000;	/* a bracket over 20 us: preempted every time */
}

static double tsc_khz_over(long window_ns)
{
	struct timespec w = { 0, window_ns };
	uint64_t t0, n0, t1, n1;

	if (!tsc_at(&t0, &n0))
		return 0;
	nanosleep(&w, NULL);
	if (!tsc_at(&t1, &n1) || n1 <= n0 || t1 <= t0)
		return 0;
	return (double)(t1 - t0) * 1e6 / (double)(n1 - n0);
}

static unsigned long measure_tsc_khz(void)
{
	double k[3];

	for (int i = 0; i < 3; i++)
		if ((k[i] = tsc_khz_over(20000000)) <= 0)
			return 0;
	stats_sort(k, 3);
	/* three windows that disagree by more than 0.1%: no steady TSC to state */
	if (k[2] - k[0] > k[1] * 1e-3)
		return 0;
	return (unsigned long)(k[1] / 1000.0 + 0.5) * 1000;
}
#else
static unsigned long measure_tsc_khz(void)
{
	return 0;	/* QEMU's TCG ticks at the host's own counter, not a TSC */
}
#endif

/*
 * Under multi-threaded TCG the guest calibrates its TSC against the PIT;
 * on a busy host the vCPU thread is preempted mid-calibration, both PIT
 * methods fail, and a microvm guest (no HPET, no ACPI PM timer) marks the
 * TSC unstable and spins in calibrate_delay() waiting for a jiffy that
 * never comes: 11 of 20 microvm boots beside a loaded host, 0 of 16 given
 * tsc_early_khz (docs/kernel-ab.md).  MMBENCH_VM_TSC_KHZ: the rate to
 * state, or 0 to state none.
 */
unsigned long host_tsc_khz(void)
{
	static unsigned long khz;
	static bool done;
	const char *e = getenv("MMBENCH_VM_TSC_KHZ");

	if (e && *e) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(e, &end, 10);
		if (errno || *end || end == e || v > 100000000ul || *e == '-')
			die_usage("MMBENCH_VM_TSC_KHZ: '%s' is not a rate in kHz (0 to 100000000; 0: "
				  "let the guest calibrate)", e);
		return v;
	}
	if (!done) {
		khz = measure_tsc_khz();
		done = true;
	}
	return khz;
}

/*
 * MMBENCH_VM_APPEND: kernel parameters added to every boot of the process
 * (both sides of an ab), e.g. the size knob of the tunable check-kernel
 * fixture; a kernel that does not know a parameter hands it to init.
 */
static const char *env_append(void)
{
	const char *e = getenv("MMBENCH_VM_APPEND");
	size_t n;

	if (!e || !*e)
		return NULL;
	n = strlen(e);
	if (n > 512)
		die_usage("MMBENCH_VM_APPEND: %zu bytes; at most 512 are added to the kernel command line", n);
	for (size_t i = 0; i < n; i++)
		if (e[i] < 0x20 || e[i] > 0x7e)
			die_usage("MMBENCH_VM_APPEND: byte 0x%02x at offset %zu is not printable ASCII",
				  (unsigned char)e[i], i);
	return e;
}

static const struct karch *qemu_arch(const struct qemu_opts *o)
{
	return o->arch ? o->arch : karch_find("x86_64");
}

char *qemu_kernel_cmdline(const struct qemu_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	const char *env = env_append();
	const struct karch *arch = qemu_arch(o);

	/* the early console: the first bytes arrive at once, which the KVM probe watches */
	strbuf_addf(&sb, "console=%s %s rdinit=/init panic=-1 oops=panic softlockup_panic=1 "
		    "nmi_watchdog=panic loglevel=4", arch->console, arch->earlycon);
	if (arch->extra_cmdline)
		strbuf_addf(&sb, " %s", arch->extra_cmdline);
	/*
	 * The virtual clock: the same address-space layout every boot.  With
	 * randomised layouts boot means fell into two clusters 0.7% apart
	 * (between-boot CoV 0.41% against 0.07% within a boot); with
	 * norandmaps 0.05% (docs/kernel-ab.md, "A per-boot factor").
	 * MMBENCH_VM_RANDMAPS=1 keeps them randomised (bench/vm-noise.sh).
	 */
	if (o->clock == VM_CLOCK_VIRTUAL && !vm_env_flag("MMBENCH_VM_RANDMAPS"))
		strbuf_addstr(&sb, " norandmaps");
	if (o->accel == ACCEL_TCG && o->clock != VM_CLOCK_VIRTUAL && o->tsc_khz)
		strbuf_addf(&sb, " tsc_early_khz=%lu", o->tsc_khz);
	if (o->extra_append && *o->extra_append) {
		strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, o->extra_append);
	}
	if (env) {
		strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, env);
	}
	return strbuf_detach(&sb);
}

const char *qemu_machine(const struct qemu_opts *o)
{
	const struct karch *arch = qemu_arch(o);

	/* microvm is x86_64's only; virt has PCI (ECAM) like q35 */
	return o->machine == VM_MACHINE_MICROVM && !strcmp(arch->name, "x86_64") ? "microvm"
										   : arch->machine;
}

void qemu_build_argv(const struct qemu_opts *o, struct kargv *a)
{
	char *append = qemu_kernel_cmdline(o);
	const struct karch *arch = qemu_arch(o);
	bool pci = strcmp(qemu_machine(o), "microvm");

	kargv_push(a, o->qemu ? o->qemu : arch->qemu);
	kargv_push(a, "-nodefaults");
	kargv_push(a, "-no-reboot");
	kargv_push(a, "-display");
	kargv_push(a, "none");
	kargv_push(a, "-monitor");
	kargv_push(a, "none");
	kargv_push(a, "-parallel");
	kargv_push(a, "none");
	/* vCPU threads named "CPU N/TCG" or "CPU N/KVM", so they can be found and pinned (vmpin.h) */
	kargv_push(a, "-name");
	kargv_push(a, "mmbench,debug-threads=on");
	kargv_push(a, "-machine");
	kargv_push(a, qemu_machine(o));
	if (o->accel == ACCEL_KVM) {
		kargv_push(a, "-accel");
		kargv_push(a, "kvm");
		kargv_push(a, "-cpu");
		kargv_push(a, "host");
	} else if (o->clock == VM_CLOCK_VIRTUAL) {
		/*
		 * icount needs one TCG thread: the vCPUs take turns on it, so
		 * guest time is a count of guest instructions.  sleep=off: an
		 * idle guest jumps to its next timer instead of waiting in host
		 * time; align=off: never slowed to keep pace with the host.
		 */
		kargv_push(a, "-accel");
		kargv_push(a, "tcg,thread=single");
		kargv_push(a, "-icount");
		kargv_pushf(a, "shift=%d,sleep=off,align=off", VM_ICOUNT_SHIFT);
		kargv_push(a, "-cpu");
		kargv_push(a, "max");
	} else {
		/* TCG: multi-threaded so -smp N really runs N vCPUs in parallel */
		kargv_push(a, "-accel");
		kargv_push(a, "tcg,thread=multi");
		kargv_push(a, "-cpu");
		kargv_push(a, "max");
	}
	kargv_push(a, "-smp");
	kargv_pushf(a, "%d", o->cpus > 0 ? o->cpus : 1);
	kargv_push(a, "-m");
	kargv_pushf(a, "%lluM", (unsigned long long)(o->mem_bytes ? o->mem_bytes >> 20 : 1024));
	kargv_push(a, "-kernel");
	kargv_push(a, o->kernel);
	if (o->initrd) {
		kargv_push(a, "-initrd");
		kargv_push(a, o->initrd);
	}
	kargv_push(a, "-append");
	kargv_push(a, append);
	kargv_push(a, "-serial");
	kargv_pushf(a, "file:%s", o->console_log);
	if (o->result_file) {
		kargv_push(a, "-device");
		kargv_push(a, pci ? "virtio-serial-pci" : "virtio-serial-device");
		kargv_push(a, "-chardev");
		char *p = comma_escape(o->result_file);

		kargv_pushf(a, "file,id=mmbres,path=%s", p);
		free(p);
		kargv_push(a, "-device");
		kargv_push(a, "virtserialport,chardev=mmbres,name=" QEMU_RESULT_PORT);
	}
	free(append);
}
