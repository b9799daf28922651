/* Placeholder until the import command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'import' is not available in this build yet");
}
