/*
 * Guest initramfs for `mmbench vm run`: a cpio "newc" archive (the format
 * the kernel unpacks into rootfs, uncompressed so the kernel needs no
 * decompressor) holding busybox, the mmbench binary, its plugins, the
 * shared libraries they need (from ldd, including the ELF interpreter),
 * the experiment and a fixed /init script.
 */
#ifndef MMB_INITRAMFS_H
#define MMB_INITRAMFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "karch.h"
#include "util.h"

struct cpio {
	FILE *f;
	uint32_t ino;
	char **dirs;		/* directories already emitted */
	size_t ndirs, alloc;
	int err;		/* sticky write error */
};

int cpio_open(struct cpio *c, const char *path);
/* Parent directories are created as needed.  Paths are absolute in the guest. */
int cpio_add_dir(struct cpio *c, const char *path, unsigned int mode);
int cpio_add_data(struct cpio *c, const char *path, unsigned int mode, const void *data,
		  size_t len);
int cpio_add_file(struct cpio *c, const char *path, unsigned int mode, const char *src);
int cpio_add_symlink(struct cpio *c, const char *path, const char *target);
int cpio_add_chardev(struct cpio *c, const char *path, unsigned int mode, unsigned int major,
		     unsigned int minor);
/* Write the trailer and close; returns 0 or -1. */
int cpio_finish(struct cpio *c);

/*
 * Shared libraries an ELF file needs (absolute host paths, the ELF
 * interpreter included), appended to *libs (deduplicated) via `ldd`.
 */
int elf_needed_libs(const char *path, char ***libs, size_t *nlibs);
/*
 * The same for an ELF file of another arch (ldd cannot run it): its
 * interpreter and NEEDED entries, read with readelf and found in the
 * arch's multiarch library folders, recursively.
 */
int elf_needed_libs_foreign(const char *path, const struct karch *arch, char ***libs,
			    size_t *nlibs);

struct initramfs_opts {
	const struct karch *arch;	/* the guest's; NULL the host's */
	const char *out;		/* cpio path to write */
	/*
	 * NULL: this one, its plugins next to it and the host's static
	 * busybox; for a guest of another arch, mmbench, workloads/ and
	 * busybox in the folder BIN/<arch guest_build> (make guest-arm64).
	 */
	const char *mmbench;
	const char *plugin_dir;		/* workloads/NAME.so */
	const char *busybox;
	const char *experiment;		/* experiment file, copied to /mmbench/experiment.yaml */
	const char *guest_args;		/* NUL-separated agent arguments -> /mmbench/args */
	size_t guest_args_len;
	/*
	 * ab --host's QEMU stand-in (tests/kernel/abhost.sh): a file whose text
	 * replaces the guest agent's half of /init (PATH, libraries and /proc
	 * set up as for the agent), and host programs copied to /usr/sbin with
	 * their libraries (NULL-terminated).  NULL: the agent's /init, none.
	 */
	const char *init_tail;
	const char *const *extra;
};

/* Build the archive; returns 0 or -1 (message printed). */
int initramfs_build(const struct initramfs_opts *o);
/*
 * Are the guest's programs there for arch (another arch's: make
 * guest-arm64)?  Asked before a kernel is built for it, so a missing one
 * is said at once, not after the build.  0, or -1 after a message.
 */
int initramfs_guest_ready(const struct karch *arch);

/*
 * The fixed /init script for arch (NULL: the host's), malloc'ed; no user
 * text in it, arguments travel in a file.
 */
char *initramfs_init_script(const struct karch *arch);

#endif
