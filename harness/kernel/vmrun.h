/*
 * Run an experiment inside a built kernel under QEMU (`mmbench vm run`),
 * and the guest side of it (`mmbench vm guest`, PID 1's helper).
 *
 * Host: initramfs (initramfs.h) -> QEMU (qemu.h) -> the result stream is
 * tailed and merged into the host DB as it arrives (db/guest-stream.h).  The run
 * row is created before boot with runs.accel = kvm|tcg, so a guest that
 * never comes up, panics or hangs still leaves a 'failed' run with its
 * console log (path in run_env 'vm.console_log') and every sample that
 * arrived before.
 */
#ifndef MMB_VMRUN_H
#define MMB_VMRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "parse-options.h"
#include "qemu.h"

struct vm_opts {
	const char *label;		/* kernel label (kernel build --name) */
	const char *experiment;		/* CONFIG.yaml */
	const char *db_path;		/* NULL: db_default_path(NULL) */
	const char *cache_dir;		/* NULL: kbuild_cache_dir() */
	const char *qemu;		/* NULL: the arch's qemu-system-* */
	const struct karch *arch;	/* --arch: NULL the kernel's (kernel build: the host's) */
	enum accel accel;
	enum vm_clock clock;		/* --clock: VIRTUAL boots under TCG with icount */
	enum vm_machine machine;	/* --machine: AUTO microvm when the kernel can */
	int cpus;			/* 0: 2 (or fewer host CPUs) */
	uint64_t mem_bytes;		/* 0: 2 GiB */
	int timeout_s;			/* whole boot; 0: 6 h */
	int hang_s;			/* no heartbeat for this long = hung; 0: 120 */
	int boot_s;			/* first stream record within; 0: 60 kvm, 900 tcg (a loaded host) */
	int kvm_probe_s;		/* first console byte under KVM within; 0: 10 */
	int iterations;			/* 0: as the experiment says */
	bool quick;			/* pass --quick to the runner */
	bool profile;			/* pass --profile: the guest's built-in sampler, without perf */
	uint64_t zram_bytes;		/* 0: none; else guest zram swap of this size */
	int crash_after;		/* tests: panic the guest after N iterations streamed */
};

struct vm_result {
	int64_t run_id;
	enum accel accel;		/* what was really used */
	enum vm_clock clock;
	char status[16];		/* complete, interrupted, failed */
	int iterations, samples;
	double boot_to_first_sample;	/* seconds; 0 when none */
	double wall;			/* seconds */
	char *console_log;
	/*
	 * Where boot to first sample went (seconds; all 0 when the guest did
	 * not say): QEMU start, firmware and kernel decompression (before
	 * the guest clock runs), kernel init, the init script, the agent's
	 * set-up (result port, zram), the agent's run to its first sample.
	 */
	struct vm_boot_phases {
		double qemu_firmware, kernel, init, agent_setup, first_sample;
	} phases;
	/*
	 * The host was busy during the boot (others' CPU on the host beyond
	 * the experiment's interference limits): why, else "".  The run's
	 * iterations then count as disturbed (the guest cannot see the host).
	 */
	char host_busy[160];
};

void vm_opts_init(struct vm_opts *o);
/*
 * The value parsers of the guest's options `vm run`, `ab` and `reproduce
 * --tree` share (the table entries are VM_OPTIONS(&o), in
 * harness/commands/vm-options.h).  They check the value against this host.
 */
int vm_opt_cpus(const struct option *opt, const char *v);	/* int * */
int vm_opt_mem(const struct option *opt, const char *v);	/* uint64_t *, <= MemTotal */
int vm_opt_size(const struct option *opt, const char *v);	/* uint64_t * */
int vm_opt_secs(const struct option *opt, const char *v);	/* int * seconds */
int vm_opt_accel(const struct option *opt, const char *v);	/* enum accel * */
int vm_opt_clock(const struct option *opt, const char *v);	/* enum vm_clock * */
int vm_opt_machine(const struct option *opt, const char *v);	/* enum vm_machine * */
int vm_opt_arch(const struct option *opt, const char *v);	/* const struct karch ** */
/*
 * The arch against the accelerator and machine: a guest of another arch
 * than the host's runs under TCG (auto becomes tcg, kvm is refused), and
 * q35 and microvm are x86_64's.  0, or -1 after a message.
 */
int vm_arch_check(const struct karch *arch, enum accel *accel, enum vm_machine machine);
/*
 * The accelerator and clock together: the virtual clock runs under TCG
 * only (auto becomes tcg, kvm is refused).  0, or -1 after a message.
 */
int vm_clock_check(enum accel *accel, enum vm_clock clock, int cpus);
/*
 * Returns 0 when the run completed, -1 on a runtime failure (the run is
 * recorded as failed, console tail printed), MMB_EUSAGE on bad input (unknown
 * kernel label, unreadable or invalid experiment): exit code 2.
 */
int vm_run(const struct vm_opts *o, struct vm_result *r);
void vm_result_release(struct vm_result *r);

struct mmb_db;
struct kernel_entry;
struct experiment;
/*
 * The host's run row for a VM run of kernel k, made before boot (accel
 * is what the boot starts with); the guest's R and M records fill in the
 * rest.  Exposed for the stream replay of the golden test (tests/tools).
 */
int64_t vm_run_begin(struct mmb_db *db, const struct vm_opts *o, const struct kernel_entry *k,
		     const struct experiment *e, const char *cfgpath, const char *text,
		     enum accel accel);

/* Decide the accelerator for AUTO without booting (cached probe results). */
enum accel vm_pick_accel(enum accel want, const char *cache_dir, char *why, size_t len);

/* The guest agent: `mmbench vm guest ARGSFILE`.  Returns the exit code. */
int vm_guest_main(const char *args_file);

#endif
