/* mmbench help [CMD]: the same text as `mmbench CMD --help` and the man page. */
#include "builtin.h"
#include "help.h"
#include "parse-options.h"
#include "util.h"

#include <string.h>

int help_print(FILE *f, const char *cmd)
{
	for (const struct help_text *h = help_texts; h->cmd; h++) {
		if (!strcmp(h->cmd, cmd)) {
			fputs(h->text, f);
			return 0;
		}
	}
	return -1;
}

int help_show(const char *cmd)
{
	if (help_print(stdout, cmd) < 0)
		return error("no help for '%s'; try `mmbench help`", cmd);
	return 0;
}

int cmd_help(int argc, char **argv)
{
	const struct option opts[] = { OPT_END() };
	int n = parse_options(argc, argv, opts, "help", "[COMMAND]", 0);

	if (n < 0)
		return EXIT_USAGE;
	return help_show(n ? argv[0] : "mmbench") ? EXIT_USAGE : EXIT_OK;
}
