#include "karch.h"

#include <string.h>
#include <sys/utsname.h>

static const struct karch karchs[] = {
	{
		.name = "x86_64", .uname = "x86_64", .kernel_arch = "x86_64",
		.cross_compile = "x86_64-linux-gnu-", .image_target = "bzImage",
		.image_path = "arch/x86/boot/bzImage", .image_name = "bzImage",
		.qemu = "qemu-system-x86_64", .machine = "q35", .console = "ttyS0",
		.earlycon = "earlyprintk=serial,ttyS0,115200",
		.extra_cmdline = "tsc=reliable no_timer_check",
		.libdirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64",
		.fragment = NULL, .guest_build = "x86_64",
	},
	{
		.name = "arm64", .uname = "aarch64", .kernel_arch = "arm64",
		.cross_compile = "aarch64-linux-gnu-", .image_target = "Image",
		.image_path = "arch/arm64/boot/Image", .image_name = "Image",
		.qemu = "qemu-system-aarch64", .machine = "virt", .console = "ttyAMA0",
		/* the virt machine's PL011 is at 0x09000000 */
		.earlycon = "earlycon=pl011,0x09000000",
		.extra_cmdline = NULL,
		.libdirs = "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:/lib",
		.fragment = "configs/kernel/arm64.config", .guest_build = "aarch64",
	},
};

const struct karch *karch_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(karchs) / sizeof(karchs[0]); i++)
		if (!strcmp(name, karchs[i].name))
			return &karchs[i];
	return NULL;
}

const struct karch *karch_host(void)
{
	struct utsname u;

	if (uname(&u) == 0)
		for (size_t i = 0; i < sizeof(karchs) / sizeof(karchs[0]); i++)
			if (!strcmp(u.machine, karchs[i].uname))
				return &karchs[i];
	return &karchs[0];
}

bool karch_native(const struct karch *a)
{
	return a == karch_host();
}

const char *karch_names(void)
{
	return "x86_64 or arm64";
}
