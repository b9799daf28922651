#include "builtin.h"
#include "util.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'run' is not available in this build yet");
}
