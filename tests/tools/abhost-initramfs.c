/*
 * The initramfs of ab --host's QEMU stand-in (tests/kernel/abhost.sh),
 * made as `vm run` makes its guests': busybox, this build's mmbench and
 * plugins, their libraries, and the given host programs (kexec) with
 * theirs; /init's agent half replaced by INIT_TAIL.
 *
 *   abhost-initramfs OUT MMBENCH PLUGIN_DIR INIT_TAIL [PROGRAM]...
 */
#include "initramfs.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct initramfs_opts o;

	if (argc < 5) {
		fprintf(stderr, "usage: %s OUT MMBENCH PLUGIN_DIR INIT_TAIL [PROGRAM]...\n", argv[0]);
		return 2;
	}
	memset(&o, 0, sizeof(o));
	o.out = argv[1];
	o.mmbench = argv[2];
	o.plugin_dir = argv[3];
	o.init_tail = argv[4];
	o.extra = (const char *const *)argv + 5;
	return initramfs_build(&o) ? 1 : 0;
}
