/* fleet resubmit: the jobs that did not finish, queued again on their nodes. */
#include "fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fleet_keep_aside(const char *path, char **kept)
{
	*kept = NULL;
	if (access(path, F_OK) != 0)
		return 0;
	for (int n = 1; n < 1000; n++) {
		char *to = xasprintf("%s.%d", path, n);

		if (access(to, F_OK) != 0) {
			if (rename(path, to)) {
				error("cannot keep %s as %s: %s", path, to, strerror(errno));
				free(to);
				return -1;
			}
			*kept = to;
			return 0;
		}
		free(to);
	}
	return error("cannot keep %s: %s.1 to .999 all exist", path, path);
}

/* The old attempt's files out of the way: run.db kept as run.db.N, the rest gone. */
static int clear_attempt(const struct fleet *f, const struct fleet_job *j)
{
	static const char *const stale[] = { "exit", "engine-state", "restored", "restarts" };
	char *db = fleet_job_path(f, j, "run.db"), *kept = NULL;
	int ret = fleet_keep_aside(db, &kept);

	free(kept);
	free(db);
	for (size_t k = 0; !ret && k < ARRAY_SIZE(stale); k++) {
		char *sp = fleet_job_path(f, j, stale[k]);

		if (unlink(sp) && errno != ENOENT)
			ret = error("cannot remove %s: %s", sp, strerror(errno));
		free(sp);
	}
	return ret;
}

int fleet_resubmit(const char *dir, const struct fleet_request *req, bool failed_only,
		   const struct fleet_jobs_sel *sel, FILE *out)
{
	const struct fleet_engine_ops *eng;
	struct fleet_engine_status *st;
	struct fleet f;
	bool asked, *redo;
	size_t nredo = 0, busy = 0;
	int ret = 0;

	if (!(st = fleet_open(dir, &f, &eng, &asked)))
		return -1;
	redo = xcalloc(f.njobs + 1, sizeof(*redo));
	if (fleet_jobs_sel_check(sel, &f)) {
		ret = MMB_EUSAGE;
		goto out;
	}
	for (size_t i = 0; i < f.njobs; i++) {
		char why[256];
		enum fleet_outcome o = fleet_job_outcome(&f, &f.jobs[i], &st[i], why, sizeof(why));

		if (!fleet_job_selected(sel, &f.jobs[i]))
			continue;
		if (o == FLEET_FAILED)
			redo[i] = true, nredo++;
		else if (o != FLEET_DONE)
			busy++;
		else if (sel && sel->n)
			fprintf(out, "%s: done, not queued again\n", f.jobs[i].tag);
	}
	/* a job named on its own: the others may run on */
	if (busy && !failed_only) {
		ret = error("%s: %zu job%s still pending or running: `fleet wait` or `fleet cancel`"
			    " first, or `fleet resubmit --failed` for the failed ones only",
			    f.dir, busy, busy == 1 ? "" : "s");
		goto out;
	}
	for (size_t i = 0; i < f.njobs && !ret; i++) {
		struct fleet_job *j = &f.jobs[i];
		const struct fleet_job *after = NULL;

		if (!redo[i])
			continue;
		/* the same node's earlier round queued again here: keep the order */
		for (size_t k = 0; k < i; k++)
			if (redo[k] && f.jobs[k].node == j->node)
				after = &f.jobs[k];
		if (clear_attempt(&f, j) || eng->submit(&f, req, j, after)) {
			ret = error("resubmitting %s failed; the jobs before it are queued", j->tag);
			break;
		}
		fprintf(out, "%s: %s job %s on %s (again)\n", j->tag, eng->name, j->id, j->host);
		if (fleet_save(&f))
			ret = -1;
	}
	if (!ret)
		fprintf(out, "%zu of %zu jobs queued again in %s\n", nredo, f.njobs, f.dir);
out:
	free(redo);
	free(st);
	fleet_release(&f);
	return ret;
}
