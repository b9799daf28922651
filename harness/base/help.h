/* Command help texts, generated from docs/help/<cmd>.txt. */
#ifndef MMB_HELP_H
#define MMB_HELP_H

#include <stdio.h>

struct help_text {
	const char *cmd;
	const char *text;
};

extern const struct help_text help_texts[];	/* NULL-terminated */

/* Print the text for cmd ("mmbench" for the overview); -1 if none. */
int help_print(FILE *f, const char *cmd);

#endif
