#include "builtin.h"
#include "util.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'list' is not available in this build yet");
}
