/* Placeholder until the kernel command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_kernel(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'kernel' is not available in this build yet");
}
