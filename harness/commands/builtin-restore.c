/* mmbench restore: replay the knob journal a killed run left behind. */
#include "builtin.h"
#include "envctl.h"
#include "parse-options.h"
#include "util.h"

#include <unistd.h>

int cmd_restore(int argc, char **argv)
{
	const struct option opts[] = { OPT_END() };
	off_t size;
	int n = parse_options(argc, argv, opts, "restore", "", 0);

	if (n < 0)
		return EXIT_USAGE;
	if (n > 0)
		die_usage("restore takes no arguments");
	if (envctl_lock())
		return EXIT_RUNTIME;	/* a live run owns the journal */
	size = envctl_mark();
	if (!size) {
		info("nothing to restore (%s is empty)", envctl_journal_path());
		return EXIT_OK;
	}
	if (envctl_restore_all())
		return error("some settings could not be restored or were skipped; see above (need root?)");
	info("restored the settings recorded in %s", envctl_journal_path());
	return EXIT_OK;
}
