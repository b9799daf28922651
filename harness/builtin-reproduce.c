/* Placeholder until the reproduce command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_reproduce(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'reproduce' is not available in this build yet");
}
