/*
 * The guest architectures test kernels are built and booted for: one table
 * every kernel path reads (kernel build, vm run, the initramfs, QEMU), so
 * adding an arch is one row (docs/kernel-ab.md, "arm64 guests").
 */
#ifndef MMB_KARCH_H
#define MMB_KARCH_H

#include <stdbool.h>

struct karch {
	const char *name;		/* --arch, cache key, meta, run_env vm.arch */
	const char *uname;		/* uname -m of a host of this arch */
	const char *kernel_arch;	/* make ARCH= */
	const char *cross_compile;	/* CROSS_COMPILE= on a host of another arch */
	const char *image_target;	/* make target */
	const char *image_path;		/* the image, relative to O= */
	const char *image_name;		/* the image's file name in the cache */
	const char *qemu;		/* qemu-system-* */
	const char *machine;		/* -machine (the PCI one; x86_64 also has microvm) */
	const char *console;		/* console= device */
	const char *earlycon;		/* early console parameter (the KVM probe watches it) */
	const char *extra_cmdline;	/* arch-only kernel parameters */
	const char *libdirs;		/* the guest's LD_LIBRARY_PATH (Debian multiarch) */
	const char *fragment;		/* configs/kernel/ fragment after mmbench.config, or NULL */
	const char *guest_build;	/* the guest's mmbench/plugins on another host: BUILD/<this> */
};

/* x86_64 or arm64; NULL after no message. */
const struct karch *karch_find(const char *name);
/* The host's arch (x86_64 when the host is neither). */
const struct karch *karch_host(void);
/* Is a the host's arch (so no cross compiler, KVM possible)? */
bool karch_native(const struct karch *a);
/* "x86_64, arm64" for messages. */
const char *karch_names(void);

#endif
