/* `mmbench vm run`, the host driver: boot the kernel under QEMU, merge the guest's result stream (the guest's PID-1 agent is vmguest.c). */
#include "vmrun.h"
#include "config.h"
#include "db.h"
#include "initramfs.h"
#include "interference.h"
#include "kbuild.h"
#include "guest-stream.h"
#include "notes.h"
#include "proc.h"
#include "progress.h"
#include "units.h"
#include "vmpin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

void vm_opts_init(struct vm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->accel = ACCEL_AUTO;
}

void vm_result_release(struct vm_result *r)
{
	free(r->console_log);
	r->console_log = NULL;
}

/*
 * auto: microvm for TCG on the real clock (quieter within a boot than q35,
 * a faster boot, no worse between boots: docs/kernel-ab.md), when the
 * kernel has virtio over MMIO and the guest is told its TSC rate (without
 * it a microvm guest hung in
 * calibrate_delay() in 11 of 20 boots on a busy host: host_tsc_khz());
 * q35 otherwise.  Debian's 6.1 hangs bringing up a second vCPU on the
 * virtual clock on either machine, and KVM's microvm is not measured here.
 */
static enum vm_machine pick_machine(enum vm_machine want, const struct kernel_entry *k,
				    const struct qemu_opts *q)
{
	char *cfg;
	bool mmio;

	if (want == VM_MACHINE_Q35)
		return VM_MACHINE_Q35;
	if (want == VM_MACHINE_AUTO &&
	    (q->accel != ACCEL_TCG || q->clock == VM_CLOCK_VIRTUAL || !q->tsc_khz))
		return VM_MACHINE_Q35;
	cfg = xasprintf("%s/config", k->dir);
	mmio = kconfig_file_has(cfg, "CONFIG_VIRTIO_MMIO=y");
	free(cfg);
	if (want == VM_MACHINE_AUTO)
		return mmio ? VM_MACHINE_MICROVM : VM_MACHINE_Q35;
	if (!mmio)
		warning("vm: %s was built without CONFIG_VIRTIO_MMIO: on microvm its result port "
			"will not appear (rebuild it with configs/kernel/mmbench.config)", k->label);
	return VM_MACHINE_MICROVM;
}

/* ---- accelerator ---------------------------------------------------- */

static char *boot_id(void)
{
	char buf[64];

	if (read_line_file("/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) <= 0)
		return xstrdup("unknown");
	return xstrdup(buf);
}

/* A KVM guest that did not come up on this host boot: remembered, so we probe once. */
static char *kvm_probe_file(const char *cache)
{
	return xasprintf("%s/kvm-probe", cache);
}

static bool kvm_known_hanging(const char *cache)
{
	char *f = kvm_probe_file(cache), *id = boot_id();
	char buf[128];
	bool hang = false;

	if (read_line_file(f, buf, sizeof(buf)) > 0 && starts_with(buf, id) &&
	    strstr(buf, " hang"))
		hang = true;
	free(f);
	free(id);
	return hang;
}

static void kvm_mark_hanging(const char *cache)
{
	char *f = kvm_probe_file(cache), *id = boot_id();
	char *line = xasprintf("%s hang\n", id);

	mkdir_p(cache, 0755);
	write_file_atomic(f, line, strlen(line));
	free(line);
	free(f);
	free(id);
}

enum accel vm_pick_accel(enum accel want, const char *cache, char *why, size_t len)
{
	why[0] = '\0';
	if (want != ACCEL_AUTO)
		return want;
	if (!kvm_usable(why, len))
		return ACCEL_TCG;
	if (kvm_known_hanging(cache)) {
		snprintf(why, len, "a KVM guest did not come up earlier on this host boot");
		return ACCEL_TCG;
	}
	return ACCEL_KVM;
}

/* ---- host side -------------------------------------------------------- */

static void print_tail(const char *path, int lines)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int n = 0;

	if (strbuf_read_file(&sb, path) < 0 || !sb.len) {
		fprintf(stderr, "  (console log %s is empty)\n", path);
		strbuf_release(&sb);
		return;
	}
	p = sb.buf + sb.len;
	if (p > sb.buf && p[-1] == '\n')
		p--;
	while (p > sb.buf && n < lines) {
		p--;
		if (*p == '\n')
			n++;
	}
	if (*p == '\n')
		p++;
	fprintf(stderr, "---- last %d lines of %s ----\n", lines, path);
	for (; *p; p++)
		if (*p != '\r')
			fputc(*p, stderr);
	if (sb.len && sb.buf[sb.len - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "----\n");
	strbuf_release(&sb);
}

/* Last non-empty line of a small file (static buffer), for messages. */
static const char *last_line(const char *path)
{
	static char buf[512];
	struct strbuf sb = STRBUF_INIT;
	char *p;

	buf[0] = '\0';
	if (strbuf_read_file(&sb, path) == 0 && sb.len) {
		while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == '\r'))
			sb.buf[--sb.len] = '\0';
		p = strrchr(sb.buf, '\n');
		snprintf(buf, sizeof(buf), "%s", p ? p + 1 : sb.buf);
	}
	strbuf_release(&sb);
	return buf;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

/* Read what was appended to the stream since *off and merge it. */
static int pump_stream(int *fd, const char *path, off_t *off, struct merge_ctx *m, bool *bad)
{
	char buf[65536];
	ssize_t n;

	if (*fd < 0) {
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return 0;
	}
	while ((n = pread(*fd, buf, sizeof(buf), *off)) > 0) {
		*off += n;
		if (!*bad && merge_feed(m, buf, n) < 0)
			*bad = true;	/* keep what merged; stop trusting the rest */
	}
	return 0;
}

static void push_arg(struct strbuf *args, const char *s)
{
	strbuf_add(args, s, strlen(s) + 1);
}

enum boot_end {
	BOOT_EXITED, BOOT_NO_CONSOLE, BOOT_TIMEOUT, BOOT_HANG, BOOT_NO_CHANNEL,
	BOOT_PROBE_DIED,	/* QEMU died under a KVM probe before the guest printed */
	BOOT_EARLY_HANG,	/* the console stopped growing before the agent's first record */
};

struct boot {
	const struct vm_opts *o;
	struct qemu_opts q;
	const char *qemu_log;
	struct merge_ctx *m;
	int probe_s;			/* >0: give up when the console stays empty this long */
	int qemu_status;
	double started;
	struct interference host;	/* the host during the boot, QEMU and us not counted */
	double host_kthread_share;	/* of it, the kernel's own threads' (NAN: unknown) */
	char pinned[96];		/* host CPUs of the vCPUs ("0,1"), "" not pinned */
};

/*
 * Pin vCPU threads (vmpin.h)?  Only where each has a host thread of its own
 * (KVM, multi-threaded TCG), and only when MMBENCH_VM_PIN asks: pinning did
 * not lower the noise (docs/kernel-ab.md, "Real time, less noisy").
 */
static bool vm_pin_wanted(const struct boot *b)
{
	return b->q.clock != VM_CLOCK_VIRTUAL && vm_env_flag("MMBENCH_VM_PIN");
}

/* QEMU with argv a, its output to the QEMU log (the command line first); 0 or -1. */
static int qemu_spawn(const struct boot *b, const struct kargv *a, struct proc *qp)
{
	int logfd = open(b->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc;

	if (logfd >= 0) {
		char *line = kargv_join(a);

		dprintf(logfd, "$ %s\n", line);
		free(line);
	}
	/* it dies with us (proc.h): a killed harness leaves no guest running */
	*qp = (struct proc)PROC_INIT((const char *const *)a->v);
	qp->out_fd = qp->err_fd = logfd;
	rc = proc_start(qp);
	if (logfd >= 0)
		close(logfd);
	return rc;
}

/*
 * The kernel's own threads during a boot mostly work on the guest's memory
 * (khugepaged, kswapd, DAMON, compaction): kept apart from other jobs,
 * which are what makes a boot's numbers untrustworthy.
 */
static void host_without_kthreads(struct boot *b, double kthread_s)
{
	struct interference *x = &b->host;

	b->host_kthread_share = NAN;
	if (isnan(kthread_s) || isnan(x->foreign_cpu_s) || !(x->wall_s > 0) || !(x->cpus > 0))
		return;
	if (kthread_s < 0)
		kthread_s = 0;
	if (kthread_s > x->foreign_cpu_s)
		kthread_s = x->foreign_cpu_s;
	b->host_kthread_share = kthread_s / (x->cpus * x->wall_s);
	x->foreign_cpu_s -= kthread_s;
	x->foreign_share = x->foreign_cpu_s / (x->cpus * x->wall_s);
}

static enum boot_end boot_once(struct boot *b)
{
	struct kargv a = KARGV_INIT;
	struct interference_snap host0, host1;
	double kt0;
	int sfd = -1, status = 0;
	off_t soff = 0;
	bool bad = false, exited = false;
	enum boot_end end = BOOT_EXITED;
	double t0 = now_wall(), last = t0, console_at = t0;
	off_t console_len = 0, clen;
	int boot_s = b->o->boot_s ? b->o->boot_s : b->q.accel == ACCEL_KVM ? 60 : 900;
	int hang_s = b->o->hang_s ? b->o->hang_s : 120;
	int timeout_s = b->o->timeout_s ? b->o->timeout_s : 6 * 3600;
	struct proc qp;

	unlink(b->q.console_log);
	unlink(b->q.result_file);
	qemu_build_argv(&b->q, &a);
	b->started = t0;
	/* QEMU is our only child until it is reaped below: its CPU time is "own" */
	interference_take(&host0);
	kt0 = interference_kthread_cpu_s();
	if (qemu_spawn(b, &a, &qp) < 0) {
		kargv_release(&a);
		return BOOT_EXITED;
	}
	b->pinned[0] = '\0';
	if (vm_pin_wanted(b) && vm_pin_vcpus(qp.pid, b->q.cpus, 5000, b->pinned, sizeof(b->pinned)) < 0) {
		warning("vm: vCPU threads not pinned: %s", b->pinned);
		b->pinned[0] = '\0';
	}
	for (;;) {
		double now = now_wall();
		bool ended = proc_ended_yet(&qp);

		pump_stream(&sfd, b->q.result_file, &soff, b->m, &bad);
		if (b->m->last_record_wall > last)
			last = b->m->last_record_wall;
		if (ended) {
			exited = true;
			break;
		}
		if (b->probe_s && now - t0 > b->probe_s && file_size(b->q.console_log) == 0) {
			end = BOOT_NO_CONSOLE;
			break;
		}
		if (now - t0 > timeout_s) {
			end = BOOT_TIMEOUT;
			break;
		}
		if (!b->m->records && now - t0 > boot_s) {
			end = file_size(b->q.console_log) ? BOOT_NO_CHANNEL : BOOT_HANG;
			break;
		}
		/* a boot whose console stopped growing before the agent spoke: hung early */
		if (!b->m->records && (clen = file_size(b->q.console_log)) != console_len) {
			console_len = clen;
			console_at = now;
		} else if (!b->m->records && console_len > 0 && now - console_at > hang_s) {
			end = BOOT_EARLY_HANG;
			break;
		}
		if (b->m->records && !b->m->have_exit && now - last > hang_s) {
			end = BOOT_HANG;
			break;
		}
		if (progress_enabled())
			progress_update("vm: %s [%s] %.0fs, %d iterations, %d samples",
					b->o->label, accel_record_name(b->q.accel, b->q.clock), now - t0,
					b->m->iterations, b->m->nsamples_total);
		usleep(100000);
	}
	if (!exited)
		proc_finish(&qp, SIGKILL);
	status = qp.status;
	interference_take(&host1);
	interference_diff(&host0, &host1, &b->host);
	host_without_kthreads(b, interference_kthread_cpu_s() - kt0);
	pump_stream(&sfd, b->q.result_file, &soff, b->m, &bad);
	if (sfd >= 0)
		close(sfd);
	if (progress_enabled())
		progress_clear();
	b->qemu_status = status;
	kargv_release(&a);
	/*
	 * /dev/kvm opens but QEMU aborts (seen: "failed to set MSR 0x10a" on
	 * a VM without nested virtualisation): as good as a hang for the probe.
	 */
	if (exited && b->probe_s && !b->m->records && file_size(b->q.console_log) == 0 &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 127))
		end = BOOT_PROBE_DIED;
	return end;
}

static int guest_asserts(const struct vm_opts *o, const struct merge_ctx *m, int cpus,
			 uint64_t mem, struct strbuf *why)
{
	if (!m->have_machine) {
		strbuf_addstr(why, "the guest never reported its CPUs and memory");
		return -1;
	}
	if (m->guest_ncpus != cpus) {
		strbuf_addf(why, "the guest sees %d CPUs, %d were requested", m->guest_ncpus, cpus);
		return -1;
	}
	/* MemTotal excludes what the kernel reserves; a quarter is a generous bound */
	if (m->guest_mem > mem || m->guest_mem < mem / 4 * 3) {
		strbuf_addf(why, "the guest sees %llu MiB of memory, %llu MiB were requested",
			    (unsigned long long)(m->guest_mem >> 20),
			    (unsigned long long)(mem >> 20));
		return -1;
	}
	(void)o;
	return 0;
}

/* The agent's arguments, then the run's (vmguest.c reads them), NUL-separated. */
static void vm_guest_args(const struct vm_opts *o, struct strbuf *args)
{
	char num[32];

	if (o->zram_bytes) {
		push_arg(args, "--zram");
		snprintf(num, sizeof(num), "%llu", (unsigned long long)o->zram_bytes);
		push_arg(args, num);
	}
	if (o->crash_after > 0) {
		push_arg(args, "--crash-after");
		snprintf(num, sizeof(num), "%d", o->crash_after);
		push_arg(args, num);
	}
	if (o->clock == VM_CLOCK_VIRTUAL)
		push_arg(args, "--virtual-clock");
	/* the guest runs it into the result port: no DB, no label of its own */
	push_arg(args, "--");
	push_arg(args, "run");
	push_arg(args, "/mmbench/experiment.yaml");
	if (o->iterations > 0) {
		snprintf(num, sizeof(num), "%d", o->iterations);
		push_arg(args, "--iterations");
		push_arg(args, num);
	}
	if (o->quick)
		push_arg(args, "--quick");
	if (o->profile)
		push_arg(args, "--profile");
}

/* How the boot ended, from what the stream said: "complete", "interrupted" or "failed" (why says why). */
static const char *vm_verdict(const struct vm_opts *o, const struct boot *b, enum boot_end end,
			      const struct merge_ctx *m, int cpus, uint64_t mem, struct strbuf *why)
{
	if (end == BOOT_TIMEOUT)
		strbuf_addf(why, "timed out after %ds (--timeout)", o->timeout_s ? o->timeout_s : 6 * 3600);
	else if (end == BOOT_HANG)
		strbuf_addf(why, "the guest hung (nothing from it for %ds)",
			    m->records ? (o->hang_s ? o->hang_s : 120)
				      : (o->boot_s ? o->boot_s : b->q.accel == ACCEL_KVM ? 60 : 900));
	else if (end == BOOT_EARLY_HANG)
		strbuf_addf(why, "the guest hung while booting (its console stopped growing for %ds "
			    "before the agent started)", o->hang_s ? o->hang_s : 120);
	else if (end == BOOT_NO_CHANNEL)
		strbuf_addstr(why, "the guest booted but the result channel stayed silent "
				    "(virtio-serial port missing?)");
	else if (!m->records && WIFEXITED(b->qemu_status) && WEXITSTATUS(b->qemu_status) &&
		 !file_size(b->q.console_log))
		strbuf_addf(why, "QEMU exited with %d before the guest started: %s",
			    WEXITSTATUS(b->qemu_status), last_line(b->qemu_log));
	else if (!m->records)
		strbuf_addstr(why, "the guest stopped before sending any result (panic or missing "
				    "result channel)");
	else if (!m->have_exit)
		strbuf_addstr(why, "the guest stopped in the middle of the run (panic?)");
	else if (m->exit_code != 0)
		strbuf_addf(why, "mmbench run exited with %d in the guest%s%s", m->exit_code,
			    m->last_message ? ": " : "", m->last_message ? m->last_message : "");
	else if (guest_asserts(o, m, cpus, mem, why) == 0)
		return m->guest_status && !strcmp(m->guest_status, "interrupted") ? "interrupted"
			: m->guest_status && !strcmp(m->guest_status, "failed") ? "failed"
			: "complete";
	return "failed";
}

/* Boot once; when KVM opened but the guest never printed, once more under TCG. */
static enum boot_end vm_boot(struct boot *b, const char *cache, struct mmb_db *db, int64_t run_id)
{
	enum boot_end end;

	end = boot_once(b);
	if (end == BOOT_NO_CONSOLE || end == BOOT_PROBE_DIED) {
		/* /dev/kvm opened but the guest never printed: fall back */
		if (end == BOOT_NO_CONSOLE)
			warning("vm: no console output under KVM after %ds; falling back to TCG",
				b->probe_s);
		else
			warning("vm: QEMU died under KVM before the guest printed (%s); falling "
				"back to TCG", last_line(b->qemu_log));
		kvm_mark_hanging(cache);
		b->q.accel = ACCEL_TCG;
		b->probe_s = 0;
		db_run_set_accel(db, run_id, accel_name(ACCEL_TCG));
		merge_release(b->m);
		merge_init(b->m, db, run_id);
		end = boot_once(b);
	}
	return end;
}

/* The host's run row for a VM run: the kernel as built, the guest fills in the rest (R). */
int64_t vm_run_begin(struct mmb_db *db, const struct vm_opts *o, const struct kernel_entry *k,
		     const struct experiment *e, const char *cfgpath, const char *text,
		     enum accel accel)
{
	struct run_info ri;
	struct kernel_info ki = { 0 };
	int64_t kid;

	ki.label = o->label;
	ki.release = k->release;
	ki.config_hash = k->config_hash;
	ki.base_commit = k->base_commit;
	ki.patches = k->patches_json;
	ki.compiler = k->compiler;
	kid = db_kernel_upsert(db, &ki);
	if (kid < 0)
		return -1;
	run_info_init(&ri, kid, e->name, cfgpath ? cfgpath : o->experiment,
		      accel_record_name(accel, o->clock));
	ri.config_text = text;
	ri.release = k->release;
	ri.config_hash = k->config_hash;
	ri.compiler = k->compiler;
	return db_run_begin(db, &ri);
}

/*
 * The guest's boot phases line (VM_BOOT_LINE, guest uptime at init, agent
 * start, agent ready and first sample) against the host's boot to first
 * sample: said, and kept with the run (vm.boot.*).
 */
static void boot_phases(const char *console, struct vm_result *r, struct mmb_db *db,
			bool virtual, double host_ready)
{
	struct strbuf log = STRBUF_INIT;
	struct vm_boot_phases *p = &r->phases;
	double init, agent, ready, first;
	const char *line;
	char num[32];

	if (strbuf_read_file(&log, console) < 0)
		return;
	line = strstr(log.buf, VM_BOOT_LINE);
	if (line && sscanf(line + strlen(VM_BOOT_LINE), "init %lf agent %lf ready %lf first-sample %lf",
			   &init, &agent, &ready, &first) == 4 &&
	    init >= 0 && agent >= init && ready >= agent && first >= ready &&
	    (virtual || first <= r->boot_to_first_sample)) {
		const struct { const char *key; double v; } kv[] = {
			{ "vm.boot.qemu_firmware_s", p->qemu_firmware = r->boot_to_first_sample - first },
			{ "vm.boot.kernel_s", p->kernel = init },
			{ "vm.boot.init_s", p->init = agent - init },
			{ "vm.boot.agent_setup_s", p->agent_setup = ready - agent },
			{ "vm.boot.first_sample_s", p->first_sample = first - ready },
		};

		/* on the virtual clock guest seconds are not host seconds: no difference of the two */
		for (size_t i = virtual ? 1 : 0; i < ARRAY_SIZE(kv); i++) {
			snprintf(num, sizeof(num), "%.3f", kv[i].v);
			db_run_env(db, r->run_id, kv[i].key, num, NULL);
		}
		if (virtual) {
			p->qemu_firmware = 0;
			snprintf(num, sizeof(num), "%.3f", host_ready);
			db_run_env(db, r->run_id, "vm.boot.host_to_ready_s", num, NULL);
			info("vm: boot to first sample %.2fs, QEMU start to agent ready %.2fs (host "
			     "time); guest clock (virtual s): kernel %.2f, init script %.2f, agent "
			     "set-up %.2f, agent to first sample %.2f", r->boot_to_first_sample,
			     host_ready, p->kernel, p->init, p->agent_setup, p->first_sample);
		} else {
			info("vm: boot to first sample %.2fs: QEMU, firmware and decompression %.2f, "
			     "kernel %.2f, init script %.2f, agent set-up %.2f, agent to first sample "
			     "%.2f", r->boot_to_first_sample, p->qemu_firmware, p->kernel, p->init,
			     p->agent_setup, p->first_sample);
		}
	}
	strbuf_release(&log);
}

/*
 * What else ran on the host during the boot, kept with the run
 * (vm.host.*); past the experiment's interference limits the run's
 * iterations count as disturbed: under TCG above all, a guest slows with
 * the host, and nothing inside it can tell.
 */
static void host_check(const struct experiment *e, const struct boot *b, struct mmb_db *db,
		       struct vm_result *r)
{
	const struct interference *x = &b->host;
	struct interference_limits limits = e->limits;
	struct strbuf why = STRBUF_INIT;
	uint64_t no_ref = 0;
	const struct { const char *key; double v; } kv[] = {
		{ "vm.host.cpus", x->cpus },
		{ "vm.host.foreign_share", x->foreign_share },
		{ "vm.host.steal_share", x->steal_share },
		{ "vm.host.kthread_share", b->host_kthread_share },
	};
	char num[32];

	for (size_t i = 0; i < ARRAY_SIZE(kv); i++) {
		if (isnan(kv[i].v))
			continue;
		snprintf(num, sizeof(num), "%.3f", kv[i].v);
		db_run_env(db, r->run_id, kv[i].key, num, NULL);
	}
	interference_record_only(&limits);
	interference_judge(x, &limits, &no_ref, &why);
	/* the virtual clock counts guest instructions: a busy host slows the boot, not its numbers */
	if (why.len && b->q.clock == VM_CLOCK_VIRTUAL) {
		info("vm: run %lld on %s: the host was busy during the boot (%s); the virtual "
		     "clock does not see it", (long long)r->run_id, b->o->label, why.buf);
	} else if (why.len) {
		snprintf(r->host_busy, sizeof(r->host_busy), "host: %s", why.buf);
		if (db_run_disturb(db, r->run_id, r->host_busy) == 0)
			warning("vm: run %lld on %s: the host was busy during the boot (%s): its "
				"iterations count as disturbed", (long long)r->run_id, b->o->label,
				why.buf);
	}
	strbuf_release(&why);
}

/* A VM run's files, in a folder of its own under the cache. */
struct vm_paths {
	char *rundir, *initrd, *console, *stream, *qlog;
};

static int vm_paths_make(struct vm_paths *p, const char *cache, const char *label, int64_t run_id)
{
	p->rundir = xasprintf("%s/runs/%s-run%lld-%d", cache, label, (long long)run_id,
			      (int)getpid());
	if (mkdir_p(p->rundir, 0755))
		return error("cannot create %s: %s", p->rundir, strerror(errno));
	p->initrd = xasprintf("%s/initramfs.cpio", p->rundir);
	p->console = xasprintf("%s/console.log", p->rundir);
	p->stream = xasprintf("%s/results.stream", p->rundir);
	p->qlog = xasprintf("%s/qemu.log", p->rundir);
	return 0;
}

static void vm_paths_release(struct vm_paths *p)
{
	free(p->rundir);
	free(p->initrd);
	free(p->console);
	free(p->stream);
	free(p->qlog);
	memset(p, 0, sizeof(*p));
}

static void vm_record_env(struct mmb_db *db, int64_t run_id, const struct vm_paths *p,
			  const struct kernel_entry *k, int cpus, uint64_t mem, enum vm_clock clock)
{
	char num[32];

	if (clock == VM_CLOCK_VIRTUAL) {
		snprintf(num, sizeof(num), "icount shift=%d", VM_ICOUNT_SHIFT);
		db_run_env(db, run_id, "vm.clock", num, NULL);
	} else {
		db_run_env(db, run_id, "vm.clock", "real", NULL);
	}

	db_run_env(db, run_id, "vm.arch", k->arch->name, NULL);
	db_run_env(db, run_id, "vm.console_log", p->console, NULL);
	db_run_env(db, run_id, "vm.kernel_key", k->key, NULL);
	snprintf(num, sizeof(num), "%d", cpus);
	db_run_env(db, run_id, "vm.cpus", num, NULL);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)mem);
	db_run_env(db, run_id, "vm.mem_bytes", num, NULL);
}

/* After the boot: the result's numbers, the verdict said and recorded; 0, -1 or MMB_EUSAGE. */
static int vm_outcome(const struct vm_opts *o, struct boot *b, enum boot_end end,
		      struct mmb_db *db, struct vm_result *r, const char *console)
{
	struct merge_ctx *m = b->m;
	struct strbuf why = STRBUF_INIT;
	const char *status;
	int ret = 0;

	r->accel = b->q.accel;
	r->clock = b->q.clock;
	r->wall = now_wall() - b->started;
	r->iterations = m->iterations;
	r->samples = m->nsamples_total;
	if (m->first_sample_wall)
		r->boot_to_first_sample = m->first_sample_wall - b->started;
	if (r->boot_to_first_sample > 0)
		boot_phases(console, r, db, b->q.clock == VM_CLOCK_VIRTUAL,
			    m->first_record_wall - b->started);
	status = vm_verdict(o, b, end, m, b->q.cpus, b->q.mem_bytes, &why);
	if (!strcmp(status, "complete")) {
		info("vm: run %lld on %s [%s] complete: %d iterations, %d samples in %.0fs "
		     "(boot to first sample %.1fs)", (long long)r->run_id, o->label,
		     accel_record_name(r->accel, r->clock), r->iterations, r->samples, r->wall,
		     r->boot_to_first_sample);
	} else {
		if (!why.len)
			strbuf_addf(&why, "the guest run ended '%s'", m->guest_status ? m->guest_status : "?");
		error("vm run %s (run %lld): %s; %d samples received are kept", o->label,
		      (long long)r->run_id, why.buf, m->nsamples_total);
		db_run_env(db, r->run_id, "vm.failure", why.buf, NULL);
		print_tail(console, 25);
		ret = m->have_exit && m->exit_code == EXIT_USAGE ? MMB_EUSAGE : -1;
	}
	db_run_finish(db, r->run_id, status);
	snprintf(r->status, sizeof(r->status), "%s", status);
	strbuf_release(&why);
	return ret;
}

static bool said_turns;

/* The boot's QEMU options, said before it starts. */
static void boot_prepare(struct boot *b, const struct vm_opts *o, const struct kernel_entry *k,
			 const struct vm_paths *path, int cpus, uint64_t mem, enum accel accel)
{
	memset(b, 0, sizeof(*b));
	b->o = o;
	b->q.qemu = o->qemu;
	b->q.arch = k->arch;
	b->q.kernel = k->bzimage;
	b->q.initrd = path->initrd;
	b->q.console_log = path->console;
	b->q.result_file = path->stream;
	b->q.cpus = cpus;
	b->q.mem_bytes = mem;
	b->q.accel = accel;
	b->q.clock = o->clock;
	/* an x86 guest's TSC under TCG is the host's counter (tsc_early_khz=) */
	if (accel == ACCEL_TCG && o->clock != VM_CLOCK_VIRTUAL && !strcmp(k->arch->name, "x86_64"))
		b->q.tsc_khz = host_tsc_khz();
	b->q.machine = pick_machine(o->machine, k, &b->q);
	b->qemu_log = path->qlog;
	info("vm: booting %s [%s, %s, %s, %d CPUs, %llu MiB]", o->label, k->arch->name,
	     accel_record_name(accel, o->clock),
	     qemu_machine(&b->q), cpus,
	     (unsigned long long)(mem >> 20));
	if (o->clock == VM_CLOCK_VIRTUAL && cpus > 1 && !said_turns) {
		said_turns = true;	/* once a process: ab boots many times */
		info("vm: on the virtual clock the %d vCPUs take turns on one host thread: no "
		     "parallel speed-up, and a spinning vCPU pays its whole turn (docs/kernel-ab.md)",
		     cpus);
	}
	if (accel == ACCEL_KVM && o->accel == ACCEL_AUTO)
		b->probe_s = o->kvm_probe_s ? o->kvm_probe_s : 10;
}

/* The kernel by label, its arch the one asked for, and what that allows; 0 or -1 (usage). */
static int vm_kernel_find(const struct vm_opts *o, const char *cache, struct kernel_entry *k,
			  enum accel *want)
{
	if (vm_clock_check(want, o->clock, o->cpus) < 0)
		return -1;
	if (kbuild_find(cache, o->label, k) < 0)
		return error("vm run: no kernel labelled '%s' in %s (see `mmbench kernel list`)",
			     o->label, cache);
	if (o->arch && o->arch != k->arch) {
		error("vm run --arch %s: kernel '%s' is built for %s", o->arch->name, o->label,
		      k->arch->name);
		kernel_entry_release(k);
		return -1;
	}
	if (vm_arch_check(k->arch, want, o->machine) < 0) {
		kernel_entry_release(k);
		return -1;
	}
	return 0;
}

int vm_run(const struct vm_opts *o, struct vm_result *r)
{
	const char *cache = o->cache_dir ? o->cache_dir : kbuild_cache_dir();
	struct kernel_entry k;
	struct experiment e;
	struct mmb_db db;
	struct merge_ctx m;
	struct strbuf text = STRBUF_INIT, args = STRBUF_INIT;
	struct initramfs_opts io = { 0 };
	struct vm_paths path = { 0 };
	struct boot b;
	char *cfgpath = NULL;
	char whybuf[256];
	int cpus = o->cpus > 0 ? o->cpus : (online_cpus() < 2 ? online_cpus() : 2);
	uint64_t mem = o->mem_bytes ? o->mem_bytes : 2ull << 30;
	int ret = -1;
	enum boot_end end;
	enum accel accel, want;
	bool db_open_ok = false;

	memset(r, 0, sizeof(*r));
	memset(&m, 0, sizeof(m));
	want = o->accel;
	if (vm_kernel_find(o, cache, &k, &want) < 0)
		return MMB_EUSAGE;
	experiment_init(&e);
	if (experiment_load(&e, o->experiment) < 0) {
		kernel_entry_release(&k);
		experiment_release(&e);
		return MMB_EUSAGE;
	}
	if (read_input(&text, o->experiment, MMB_CAP_EXPERIMENT, "an experiment config") < 0) {
		ret = MMB_EUSAGE;
		goto out;
	}
	cfgpath = realpath(o->experiment, NULL);

	accel = vm_pick_accel(want, cache, whybuf, sizeof(whybuf));
	if (o->accel == ACCEL_AUTO && accel == ACCEL_TCG && o->clock == VM_CLOCK_REAL)
		info("vm: using TCG (no KVM: %s)", whybuf);

	if (db_open(&db, db_default_path(o->db_path)))
		goto out;
	db_open_ok = true;
	r->run_id = vm_run_begin(&db, o, &k, &e, cfgpath, text.buf, accel);
	if (r->run_id < 0)
		goto out;
	if (vm_paths_make(&path, cache, o->label, r->run_id) < 0)
		goto fail_run;
	r->console_log = xstrdup(path.console);
	vm_record_env(&db, r->run_id, &path, &k, cpus, mem, o->clock);

	vm_guest_args(o, &args);
	io.arch = k.arch;
	io.out = path.initrd;
	io.experiment = o->experiment;
	io.guest_args = args.buf;
	io.guest_args_len = args.len;
	if (initramfs_build(&io) < 0)
		goto fail_run;

	boot_prepare(&b, o, &k, &path, cpus, mem, accel);
	db_run_env(&db, r->run_id, "vm.machine", qemu_machine(&b.q), NULL);
	b.m = &m;
	merge_init(&m, &db, r->run_id);
	end = vm_boot(&b, cache, &db, r->run_id);
	if (b.pinned[0])
		db_run_env(&db, r->run_id, "vm.pinned", b.pinned, NULL);
	ret = vm_outcome(o, &b, end, &db, r, path.console);
	if (ret == 0)
		host_check(&e, &b, &db, r);
	if (!getenv("MMBENCH_VM_KEEP"))	/* debugging: keep the initramfs */
		unlink(path.initrd);
	merge_release(&m);
	goto out;
fail_run:
	db_run_finish(&db, r->run_id, "failed");
	snprintf(r->status, sizeof(r->status), "failed");
out:
	if (db_open_ok)
		db_close(&db);
	kernel_entry_release(&k);
	experiment_release(&e);
	strbuf_release(&text);
	strbuf_release(&args);
	vm_paths_release(&path);
	free(cfgpath);
	return ret;
}
