/*
 * QEMU for test kernels: accelerator choice and the command line.
 *
 * The guest gets no disk and no network: -kernel bzImage -initrd cpio,
 * the serial console in a file (console.log), and one virtio-serial port
 * named "mmbench.results" backed by a host file that receives the result
 * stream (db/guest-stream.h).  -no-reboot + panic=-1 + oops=panic turn a guest
 * crash into a QEMU exit instead of a hang.
 */
#ifndef MMB_QEMU_H
#define MMB_QEMU_H

#include <stdbool.h>
#include <stdint.h>

#include "karch.h"
#include "kargv.h"

enum accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };

/*
 * The guest's clock.  Real: host time, under KVM or multi-threaded TCG.
 * Virtual: single-threaded TCG with icount, so guest time advances by
 * 2^VM_ICOUNT_SHIFT ns per guest instruction and host load cannot reach
 * it (docs/kernel-ab.md, "The virtual clock").  Recorded in runs.accel as
 * RUN_ACCEL_VIRTUAL (db.h), so every check that keeps accelerators apart
 * (ab's rounds, compare's clock check) keeps the clocks apart too.
 */
enum vm_clock { VM_CLOCK_REAL, VM_CLOCK_VIRTUAL };

/*
 * The emulated machine.  q35: PCI, SeaBIOS, the bzImage's real-mode
 * entry.  microvm: no PCI and no legacy firmware (qboot), virtio over
 * MMIO: about half a second less per boot under TCG (docs/kernel-ab.md,
 * "Boot cost").  AUTO picks microvm for kernels built with
 * CONFIG_VIRTIO_MMIO (configs/kernel/mmbench.config asks for it), else q35.
 */
enum vm_machine { VM_MACHINE_AUTO, VM_MACHINE_Q35, VM_MACHINE_MICROVM };
int machine_parse(const char *s, enum vm_machine *out);
const char *machine_name(enum vm_machine m);
#define VM_ICOUNT_SHIFT 3

#define QEMU_RESULT_PORT "mmbench.results"
/* The guest's console line with its boot phases, read back by vm run. */
#define VM_BOOT_LINE "mmbench-vm: boot phases (guest uptime, s): "

int accel_parse(const char *s, enum accel *out);
const char *accel_name(enum accel a);
int clock_parse(const char *s, enum vm_clock *out);
/* What runs.accel records for a boot: kvm, tcg, or tcg-icount (virtual clock). */
const char *accel_record_name(enum accel a, enum vm_clock c);

/*
 * Can this host run KVM at all: /dev/kvm opens, the API version is 12 and a
 * VM can be created.  why gets the reason when not.
 */
bool kvm_usable(char *why, size_t len);

struct qemu_opts {
	const struct karch *arch;	/* NULL: x86_64 */
	const char *qemu;		/* NULL: the arch's qemu-system-* */
	const char *kernel;		/* bzImage (arm64: Image) */
	const char *initrd;
	const char *console_log;	/* serial console file */
	const char *result_file;	/* virtio-serial port backing file */
	const char *extra_append;	/* appended to the kernel command line */
	enum accel accel;		/* KVM or TCG (never AUTO here) */
	enum vm_clock clock;		/* VIRTUAL: TCG only */
	enum vm_machine machine;	/* Q35 or MICROVM (never AUTO here); arm64: virt always */
	int cpus;
	uint64_t mem_bytes;
	/*
	 * TCG on the real clock: the guest's TSC runs at the host's rate, and
	 * this tells it so (tsc_early_khz=) instead of letting it calibrate
	 * against the PIT; 0: not said.
	 */
	unsigned long tsc_khz;
};

/* Is environment variable name set to anything but "" or "0"?  (The VM knobs of the benches.) */
bool vm_env_flag(const char *name);

/*
 * The host's TSC rate in kHz, rounded to whole MHz so every boot of a
 * campaign states the same value; 0 where it cannot be measured (not
 * x86_64, or no steady reading).  Measured once a process.
 */
unsigned long host_tsc_khz(void);

/* The kernel command line mmbench boots with. */
char *qemu_kernel_cmdline(const struct qemu_opts *o);
/* The -machine the boot gets: q35, microvm or virt. */
const char *qemu_machine(const struct qemu_opts *o);
/* Build the argv (a->v ends with NULL). */
void qemu_build_argv(const struct qemu_opts *o, struct kargv *a);

#endif
