/* Placeholder until the plot command lands; replaced by its owner. */
#include "builtin.h"
#include "util.h"

int cmd_plot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'plot' is not available in this build yet");
}
