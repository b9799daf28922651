/* Placeholder until the report command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'report' is not available in this build yet");
}
