/*
 * The pre-flight check of `run`: before the first iteration, what on this
 * machine will make the results noisy, each with its fix, as warnings
 * (nothing when all is well).
 */
#ifndef MMB_PREFLIGHT_H
#define MMB_PREFLIGHT_H

#include "interference.h"

#include <stdbool.h>

/*
 * Warn about others' CPU share and steal now (a one-second look against
 * l, when look), DAMON kdamonds and modules that reclaim or move memory,
 * and a CPU frequency governor other than performance (unless the
 * experiment sets one: sets_governor).  Returns how many
 * warnings it gave.
 */
int preflight_check(const struct interference_limits *l, bool look, bool sets_governor);

#endif
