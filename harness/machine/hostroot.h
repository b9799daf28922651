/*
 * The files of the running machine that `ab --host` reads and writes
 * (/proc/cmdline, the release, boot id and build id notes, the watchdog
 * device, systemd's unit folder), under $MMBENCH_HOST_ROOT when set: the
 * tests stand a folder in for the machine, so nothing of the shared test
 * host is ever read as "the kernel" or written as a boot hook.
 */
#ifndef MMB_HOSTROOT_H
#define MMB_HOSTROOT_H

#include <stddef.h>

/* abs ("/proc/cmdline") under the host root: malloc'ed. */
char *host_path(const char *abs);
/* The first line of host file abs, trimmed, into buf: its length, or -1. */
int host_read_line(const char *abs, char *buf, size_t len);
/* /proc/sys/kernel/random/boot_id ("" when unreadable). */
void host_boot_id(char *buf, size_t len);

#endif
