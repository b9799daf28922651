/* Placeholder until the vm command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_vm(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'vm' is not available in this build yet");
}
