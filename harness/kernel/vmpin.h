/*
 * A guest's vCPU threads, each on a host CPU of its own (vm run, real
 * clock).  QEMU names them "CPU N/TCG" or "CPU N/KVM"; unpinned, the host
 * scheduler moves them between CPUs and beside each other, which is one
 * source of the boot-to-boot noise docs/kernel-ab.md measures.
 */
#ifndef MMB_VMPIN_H
#define MMB_VMPIN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Pin the ncpus vCPU threads of QEMU process pid, vCPU i to the i-th CPU
 * of this process's own affinity (round robin when the guest has more).
 * Waits up to wait_ms for the threads to appear.  0 and the host CPUs
 * used ("0,1") in where, or -1 with the reason in where.
 */
int vm_pin_vcpus(pid_t pid, int ncpus, int wait_ms, char *where, size_t len);

#endif
