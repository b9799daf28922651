/*
 * A fleet: one experiment run as one batch job per (node, round) of an
 * existing scheduler (Slurm today), each job into its own DB in a folder
 * every node shares; `fleet collect` merges the finished ones.
 * docs/fleet.md has the design; this header is the engine boundary.
 *
 * The fleet folder:
 *   DIR/fleet                 manifest: version, engine, one line per job
 *   DIR/experiment.yaml       the experiment, copied at submit
 *   DIR/jobs/TAG/args         the job's mmbench arguments (NUL-separated)
 *   DIR/jobs/TAG/log          its stdout and stderr
 *   DIR/jobs/TAG/run.db       its results
 *   DIR/jobs/TAG/exit         "exit RC" written by `mmbench fleet job`
 * TAG is "r<round>-n<node>".  No user text reaches a script: an engine's
 * fixed files name only DIR-relative paths, the rest is in args.
 */
#ifndef MMB_FLEET_H
#define MMB_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "kargv.h"
#include "util.h"

#define FLEET_MANIFEST_MAGIC	"mmbench-fleet 1"
#define FLEET_ARGS_MAGIC	"mmbench-fleet-args 1"
#define FLEET_MAX_ROUNDS	1000
#define FLEET_MAX_NODES		1000

struct fleet_job {
	char tag[24];		/* "r2-n1": round 2 on node 1; names its folder */
	int round, node;	/* 1-based */
	char host[128];		/* the node it is pinned to */
	char id[64];		/* the engine's job id; "" before submission */
};

struct fleet {
	char *dir;		/* absolute */
	char engine[32];
	struct fleet_job *jobs;
	size_t njobs, alloc;
};

/* Where and how many: what `fleet submit` asks the engine for. */
struct fleet_request {
	const char *partition;		/* Slurm partition; LAVA: device type */
	const char **constraints;	/* node features, all required; LAVA: tags */
	size_t nconstraints;
	int nodes, rounds;
	const char *time_limit;		/* engine's syntax; NULL: its default */
	const char *mmbench;		/* absolute path of the mmbench the jobs run */
	/* Slurm's own, passed through (NULL: not given) */
	const char *account, *qos, *reservation, *begin;
	const char *nodelist;		/* pick the nodes among these (a Slurm hostlist) */
	const char *exclude;		/* never these (a Slurm hostlist) */
	const char *dependency;		/* every job also waits for this (sbatch syntax) */
	bool no_requeue;		/* a job whose node fails is not rerun */
	bool array;			/* a node's rounds as one job array (submit_array) */
	const char **sbatch_args;	/* --sbatch-arg: more sbatch options, as given */
	size_t nsbatch_args;
};

/* What each job runs: `mmbench run` or, with tree set, `mmbench ab`. */
struct fleet_spec {
	const char *name;		/* run --name */
	int iterations;			/* 0: the experiment's */
	bool quick;
	const char *workload;
	const char **sets;
	size_t nsets;
	/* ab */
	const char *tree, *base, *base_config, *base_name, *new_name, *accel;
	const char **patches, **fragments;
	size_t npatches, nfragments;
	int cpus;
	const char *mem;
};

/* The engine's view of one job. */
enum fleet_engine_state {
	FLEET_E_UNKNOWN,	/* the engine could not be asked */
	FLEET_E_PENDING,
	FLEET_E_RUNNING,
	FLEET_E_ENDED,		/* done, whatever the outcome */
	FLEET_E_GONE,		/* the engine no longer knows the job */
};

struct fleet_engine_status {
	enum fleet_engine_state state;
	char detail[160];	/* engine's words: "PENDING (Dependency)", "FAILED 2:0" */
	char host[128];		/* where it ran or runs ("" unknown) */
	int restarts;		/* times the engine requeued it (its node failed...) */
};

/*
 * One engine: a file engine-NAME.c defining `const struct fleet_engine_ops
 * fleet_engine_NAME`, listed in fleet.c's engines[].  Hooks return 0 or
 * -1 with the error said.
 */
#define FLEET_ENGINE_ABI 1
struct fleet_engine_ops {
	unsigned int abi;	/* FLEET_ENGINE_ABI */
	const char *name;
	const char *summary;
	/* req->nodes node names fitting req, in a stable order (xstrdup'ed). */
	int (*pick_nodes)(const struct fleet_request *req, char ***names, size_t *n);
	/* Write the engine's fixed files into f->dir, once before any submit. */
	int (*prepare)(const struct fleet *f, const struct fleet_request *req);
	/* Queue job on job->host after `after` (the node's previous round, or
	 * NULL) has ended, whatever its outcome; sets job->id. */
	int (*submit)(const struct fleet *f, const struct fleet_request *req,
		      struct fleet_job *job, const struct fleet_job *after);
	/* st[i] for f->jobs[i]; -1 when the engine cannot be asked at all. */
	int (*status)(const struct fleet *f, struct fleet_engine_status *st);
	/* Optional: dequeue or stop a job. */
	int (*cancel)(const struct fleet *f, const struct fleet_job *job);
	/* Optional: bring run.db and exit into the job's folder (NULL: the
	 * folder is shared, they are there already). */
	int (*fetch)(const struct fleet *f, const struct fleet_job *job);
	/* Optional: dequeue or stop n jobs in one call (else cancel, each). */
	int (*cancel_many)(const struct fleet *f, const struct fleet_job *const *jobs, size_t n);
	/* Optional: refuse a request the engine cannot take, before anything is queued. */
	int (*check)(const struct fleet_request *req);
	/* Optional (req->array): queue the n rounds of one node, jobs[] in
	 * round order, as one array, one round at a time; sets each id. */
	int (*submit_array)(const struct fleet *f, const struct fleet_request *req,
			    struct fleet_job **jobs, size_t n);
};

extern const struct fleet_engine_ops fleet_engine_slurm;
/* Slurm's batch script (fixed: $1 the mmbench binary, $2 the args file). */
extern const char fleet_slurm_script[];
/* An array task's ($1 mmbench, $2 DIR/jobs, $3 the node; the round is the task id). */
extern const char fleet_slurm_array_script[];
/* NULL, said, if no engine is called name; the list is in the message. */
const struct fleet_engine_ops *fleet_engine_find(const char *name);

/*
 * How engines run their tools (sbatch, squeue...): an argv, never a shell,
 * each call bounded by fleet_tool_timeout_s (a hung controller cannot hold
 * status or wait); FLEET_TOOL_TIMED_OUT when it did not answer in time.
 * Tests point it at a fake.
 */
#define FLEET_TOOL_TIMED_OUT 124
extern int (*fleet_exec)(const char *const *argv, struct strbuf *out, struct strbuf *err);
/* Seconds one tool call may take: 10, MMBENCH_FLEET_TOOL_TIMEOUT, or what wait has left. */
extern double fleet_tool_timeout_s;

/*
 * The exit statuses of `fleet status` and `fleet wait` (docs/fleet.md), so
 * a script can act: in this order of precedence, a job failed with nothing
 * to collect; the engine did not answer about jobs without an exit file;
 * wait's --timeout passed with jobs pending or running; every failed job
 * left finished iterations (collect merges them); nothing failed.
 */
enum fleet_exit {
	FLEET_EXIT_OK = 0,
	FLEET_EXIT_FAILED = 1,
	FLEET_EXIT_UNREACHABLE = 3,
	FLEET_EXIT_PARTIAL = 4,
	FLEET_EXIT_WAITING = 5,
};

/* ---- the folder ---- */
void fleet_init(struct fleet *f);
void fleet_release(struct fleet *f);
/* DIR/jobs/TAG/what (what NULL: the folder); free() it. */
char *fleet_job_path(const struct fleet *f, const struct fleet_job *job, const char *what);
struct fleet_job *fleet_add_job(struct fleet *f, int round, int node, const char *host);
/* Manifest: write atomically; load refuses anything it did not write. */
int fleet_save(const struct fleet *f);
int fleet_load(struct fleet *f, const char *dir);
/* A Slurm job id: N, or N_M for an array task (never an option such as "-uroot"). */
bool fleet_job_id_valid(const char *s);

/*
 * An earlier attempt's database out of the way: path kept as path.N (the
 * first N free); *kept (free() it) the new name, NULL when there was no
 * file.  0 or -1 (said).
 */
int fleet_keep_aside(const char *path, char **kept);

/* ---- the args file ---- */
/* FLEET_ARGS_MAGIC then each argument, every one NUL-terminated. */
void fleet_args_encode(struct strbuf *out, const char *const *argv);
/* Back into argv (pushed to out); what names the file in errors. */
int fleet_args_decode(const char *buf, size_t len, const char *what, struct kargv *out);
/* The job's mmbench arguments: run or ab, into DIR/jobs/TAG/run.db. */
void fleet_job_argv(const struct fleet *f, const struct fleet_job *job,
		    const struct fleet_spec *spec, struct kargv *out);

/* ---- outcome ---- */
enum fleet_outcome { FLEET_PENDING, FLEET_RUNNING, FLEET_DONE, FLEET_FAILED };
const char *fleet_outcome_name(enum fleet_outcome o);
/*
 * The job's exit file decides when there is one (exit 0 and a run.db:
 * done; else failed); without it, the engine's state: pending/running, or
 * failed if it ended or is gone.  why: a line for the user.
 */
enum fleet_outcome fleet_job_outcome(const struct fleet *f, const struct fleet_job *job,
				     const struct fleet_engine_status *st, char *why, size_t whylen);

/* ---- commands (builtin-fleet.c parses their options) ---- */
/* --job TAG...: the jobs a cancel or resubmit is about (n 0: all of them). */
struct fleet_jobs_sel {
	const char **tags;
	size_t n;
};
/* Is job one sel names?  Every tag of sel must name a job of f: -1 (said) if not. */
bool fleet_job_selected(const struct fleet_jobs_sel *sel, const struct fleet_job *job);
int fleet_jobs_sel_check(const struct fleet_jobs_sel *sel, const struct fleet *f);
int fleet_submit(const struct fleet_engine_ops *eng, const char *dir, const char *config,
		 const struct fleet_request *req, const struct fleet_spec *spec);
/* Every job's engine status (st[] has f->njobs entries; UNKNOWN if unreachable). */
/* 0, or -1 (said, st all unknown) when the engine could not be asked. */
int fleet_query(const struct fleet_engine_ops *eng, const struct fleet *f,
		 struct fleet_engine_status *st);
/* The table; an enum fleet_exit (0: no job failed so far), -1 when dir is no fleet. */
int fleet_status(const char *dir, FILE *out);
/* status's first line for a fleet whose failed submit may have left jobs queued */
void fleet_submit_failed_line(const struct fleet *f, FILE *out);
/* The same as one JSON object (docs/fleet.md): jobs, states, iterations, the exit status. */
int fleet_status_json(const char *dir, FILE *out);
/* The fleet of dir, its engine and every job's state (xcalloc'ed); NULL after an error. */
struct fleet_engine_status *fleet_open(const char *dir, struct fleet *f,
				       const struct fleet_engine_ops **eng, bool *asked);
/*
 * Queue again, each on its node, the jobs that failed: every job not done
 * (refused while one is pending or running), or with failed_only only the
 * failed ones.  A job's old run.db is kept as run.db.N; 0 when all queued.
 */
int fleet_resubmit(const char *dir, const struct fleet_request *req, bool failed_only,
		   const struct fleet_jobs_sel *sel, FILE *out);
/*
 * Until no job is pending or running, asking every interval_s (a progress
 * line on a terminal): an enum fleet_exit; FLEET_EXIT_WAITING once
 * timeout_s (0: none) has passed, which bounds the whole wait, the
 * engine's calls included, or once stall_s (0: none) passed with no job
 * changing (state, engine detail, iterations, restarts): a job stuck
 * after its node failed; -1 when the fleet cannot be read.
 */
int fleet_wait(const char *dir, int interval_s, int timeout_s, int stall_s, FILE *out);
int fleet_cancel(const char *dir, const struct fleet_jobs_sel *sel);
/*
 * Merge every done job's run.db into dbpath (NULL: the default DB) with
 * db_merge_file (idempotent by run uuid); failed jobs are named with their
 * log and nothing of them merged.  0: every job merged; 1: some failed or
 * are not finished (said); -1: an error.
 */
int fleet_collect(const char *dir, const char *dbpath, FILE *out);
/* `mmbench fleet job ARGS`: run the args file's mmbench, then write exit. */
/* run_cmd(argc, argv) runs the job's command ("run" or "ab") in this process. */
int fleet_run_job(const char *argsfile, int (*run_cmd)(int argc, char **argv));

#endif
