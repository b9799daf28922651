/* Facts about the kernel, machine and environment, recorded with each run. */
#ifndef MMB_SYSINFO_H
#define MMB_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sysinfo {
	char *release, *version, *cmdline, *config_hash;
	char *hostname, *cpu_model;
	int ncpus;
	uint64_t mem_bytes;
	char *compiler;			/* the compiler that built mmbench */
	char *kernel_compiler;		/* the running kernel's, from /proc/version; NULL: unknown */
	unsigned int kernel_version;	/* MMB_KERNEL_VERSION */
};

void sysinfo_collect(struct sysinfo *si);
void sysinfo_release(struct sysinfo *si);
/*
 * The compiler named in a /proc/version text ("... (gcc-12 (Debian
 * 12.2.0-14) 12.2.0, GNU ld ...) #1 ..." -> "gcc-12 (Debian 12.2.0-14)
 * 12.2.0"), malloc'ed; NULL when the text names none.
 */
char *sysinfo_kernel_compiler(const char *proc_version);

/* "key=value" snapshot of the settings that move mm numbers. */
struct env_item {
	char *key, *value;
};
void env_snapshot(struct env_item **items, size_t *n);
void env_items_free(struct env_item *items, size_t n);

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/*
 * Whether a swap device is on: swaps (normally "/proc/swaps") lists one
 * after its header line.  Plan time and the runner ask (MMB_REQ_SWAP).
 */
#define PROC_SWAPS "/proc/swaps"
bool swap_active(const char *swaps);

/* Kernel version a.b.c from a release string ("6.12.0-rc1" -> 6.12.0). */
unsigned int kernel_version_parse(const char *release);

#endif
