/*
 * System state control.  Every change the harness makes to the machine
 * (sysfs/procfs knobs, swap) is first appended to an on-disk journal with
 * the value to put back, fsync'ed, and only then made.  Restoring replays
 * the journal backwards.  A killed run's journal is replayed by the next
 * mmbench start (envctl_recover) or by `mmbench restore`.
 */
#ifndef MMB_ENVCTL_H
#define MMB_ENVCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Journal location: $MMBENCH_STATE, else /var/lib/mmbench (root) or ~/.cache/mmbench. */
const char *envctl_journal_path(void);
/* The folder the journal is in (the state folder). */
const char *envctl_state_dir(void);

/* Write a knob, journaling its old value first.  0 or -errno. */
int envctl_set_knob(const char *path, const char *value);
/*
 * Journal an arbitrary undo action: argv of a command to run on restore
 * (e.g. {"swapoff", "/dev/zram0"}); exec'ed, never through a shell.
 */
int envctl_push_undo(const char *const *argv);

/* Journal "kill everything in this iteration cgroup and remove it" (contain.c). */
int envctl_push_undo_cgroup(const char *dir);

/*
 * ab --host's resume hook (ENVCTL_HOOK_UNIT at unit_path, under the host
 * root): journaled with this boot's id before it is installed.  A replay
 * disables and removes it -- except at the start of a later boot (a kexec
 * or a power cut in the campaign), when envctl_recover() keeps it for the
 * campaign to go on; `mmbench restore` and the campaign's end remove it.
 */
#define ENVCTL_HOOK_UNIT "mmbench-ab-resume.service"
/*
 * A machine without systemd (an initramfs-only system) has no unit: the
 * hook is the file ENVCTL_HOOK_FILE in the state folder, which must be on
 * disk for the campaign file beside it to survive the boots; its init runs
 * `mmbench ab --host --resume` when the file is there.
 */
#define ENVCTL_HOOK_FILE "ab-host.hook"
/* The hook's path on this machine: the unit where systemd runs, else the file. */
char *envctl_hook_path(void);
/* Whether path is the systemd unit (else the plain file). */
bool envctl_hook_is_unit(const char *path);
int envctl_push_undo_hook(const char *unit_path);
/* The unit: systemctl disable, remove it, daemon-reload; the file: removed.  0 or -1. */
int envctl_remove_hook(const char *unit_path);

/* Journal "write value to path on restore" without changing anything now. */
int envctl_push_undo_write(const char *path, const char *value);

/*
 * Take the machine: one benchmarking mmbench at a time per state dir and
 * per machine, whatever the state dir (an overlapping run would both
 * disturb the numbers and fight over knobs).  The machine lock is
 * envctl_machine_lock_path() (falling back to /tmp/mmbench.lock for a
 * user who cannot create it).  Held until exit.  0, or -1 after printing
 * who holds it (pid and state folder).
 */
int envctl_lock(void);
/* $MMBENCH_LOCK (tests), else /run/mmbench.lock. */
const char *envctl_machine_lock_path(void);

/* Current journal position; restore everything after it with envctl_restore_to. */
off_t envctl_mark(void);
int envctl_restore_to(off_t mark);
int envctl_restore_all(void);

/*
 * Replay a journal left behind by a dead mmbench; quiet if there is none.
 * -1 (after saying why) when the state folder or journal is not private
 * (envctl_check_state): nothing is replayed then.
 */
int envctl_recover(void);

/*
 * The state folder and journal must be ours or root's, writable by nobody
 * else, and no symlinks: the journal is replayed as root.  0, or -1 after
 * an error naming the path and why.
 */
int envctl_check_state(void);
/* The same for another file of the state folder (ab --host's campaign file). */
int envctl_check_private_file(const char *path);

/*
 * What the journal replays (and host->write_knob() accepts): THP/mTHP
 * sysfs, cpufreq scaling_governor, /sys/block/zramN/ and /proc/sys/vm/
 * knobs, with no "..".  Values: printable, at most ENVCTL_VALUE_MAX bytes.
 */
#define ENVCTL_VALUE_MAX 256
bool envctl_knob_allowed(const char *path);
bool envctl_value_ok(const char *value);

/* SIGSEGV/SIGBUS/SIGABRT/SIGFPE: restore the journal, then die with the signal. */
void envctl_install_signal_handlers(void);

/* In a forked child: close the inherited lock fd (the lock stays the parent's). */
void envctl_forget_lock(void);

#endif
