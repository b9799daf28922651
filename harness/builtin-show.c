#include "builtin.h"
#include "util.h"

int cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'show' is not available in this build yet");
}
