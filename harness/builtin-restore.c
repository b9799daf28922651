#include "builtin.h"
#include "util.h"

int cmd_restore(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'restore' is not available in this build yet");
}
