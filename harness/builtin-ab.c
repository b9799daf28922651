/* Placeholder until the ab command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_ab(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'ab' is not available in this build yet");
}
