/* Placeholder until the compare command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'compare' is not available in this build yet");
}
