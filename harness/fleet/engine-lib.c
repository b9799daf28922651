/*
 * What an engine calls of the fleet (below fleet.c, which lists the
 * engines): the scheduler's tools run bounded, a job's path in the fleet
 * folder, a job id an engine may hand to its tools.
 */
#include "fleet.h"
#include "proc.h"

#include <stdlib.h>
#include <string.h>

double fleet_tool_timeout_s = 10;

/* One Slurm tool, in its own process group, stopped when it takes too long. */
static int run_tool_bounded(const char *const *argv, struct strbuf *out, struct strbuf *err)
{
	static double from_env = -1;
	struct proc p = PROC_INIT(argv);
	int rc;

	if (from_env < 0) {
		const char *e = getenv("MMBENCH_FLEET_TOOL_TIMEOUT");

		from_env = e && atof(e) > 0 ? atof(e) : 0;
		if (from_env > 0)
			fleet_tool_timeout_s = from_env;
	}
	p.out = out;
	p.err = err;
	p.flags = PROC_NEW_PGRP;
	p.timeout_s = fleet_tool_timeout_s;
	rc = proc_run(&p);
	if (p.timed_out) {
		if (err)
			strbuf_addf(err, "no answer in %g s", p.timeout_s);
		return FLEET_TOOL_TIMED_OUT;
	}
	return rc;
}

int (*fleet_exec)(const char *const *argv, struct strbuf *out, struct strbuf *err) = run_tool_bounded;

char *fleet_job_path(const struct fleet *f, const struct fleet_job *job, const char *what)
{
	return what ? xasprintf("%s/jobs/%s/%s", f->dir, job->tag, what)
		    : xasprintf("%s/jobs/%s", f->dir, job->tag);
}

/*
 * A job id is what the engine hands to its tools (`scancel ID`): Slurm's
 * are numbers, N_M for an array task.  Anything else ("-uroot") could be
 * read as an option.
 */
bool fleet_job_id_valid(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || n > 20)
		return false;
	if (!s[n])
		return true;
	return s[n] == '_' && strspn(s + n + 1, "0123456789") == strlen(s + n + 1) && s[n + 1] &&
	       strlen(s + n + 1) <= 20;
}
