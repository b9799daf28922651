/*
 * Which mmbench this is.  The git sha is compiled into this one object,
 * rebuilt whenever HEAD moves (Makefile: $(BUILD)/gen/git-sha), so an
 * incremental build never records another commit's sha with its runs.
 */
#include "version.h"

const char mmb_version[] = MMB_VERSION;
const char mmb_git_sha[] = MMB_GIT_SHA;
