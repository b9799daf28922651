/*
 * mmbench fleet submit|status|collect|cancel: an experiment on many
 * machines through a batch scheduler (docs/fleet.md).  `fleet job ARGS`
 * is what a job runs on its node.
 */
#include "builtin.h"
#include "fleet.h"
#include "parse-options.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ./fleet-<config's name>, in characters any file system takes */
static char *default_dir(const char *config)
{
	const char *base = strrchr(config, '/') ? strrchr(config, '/') + 1 : config;
	size_t n = strlen(base);
	char *d, *p;

	if (n > 5 && ends_with(base, ".yaml"))
		n -= 5;
	else if (n > 4 && ends_with(base, ".yml"))
		n -= 4;
	d = xasprintf("fleet-%.*s", (int)(n > 64 ? 64 : n), base);
	for (p = d; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-", *p)))
			*p = '_';
	return d;
}

/* run's and ab's options do not mix: -1 after saying which */
static int spec_check(const struct fleet_spec *spec)
{
	if (!spec->tree && (spec->base || spec->npatches || spec->nfragments || spec->base_config ||
			    spec->base_name || spec->new_name || spec->accel || spec->cpus || spec->mem))
		return error("--base, --patch, --config, --base-config, --base-name, --new-name, "
			     "--accel, --cpus and --mem are for ab: they need --tree");
	if (spec->tree && !spec->npatches)
		return error("--tree runs `mmbench ab`: give the series with --patch");
	if (spec->tree && (spec->name || spec->workload || spec->nsets))
		return error("with --tree, label the kernels with --base-name/--new-name; --name, "
			     "--workload and --set are for run");
	return 0;
}

static int fleet_submit_cmd(int argc, char **argv)
{
	struct fleet_request req = { .nodes = 1, .rounds = 1 };
	struct fleet_spec spec = { 0 };
	const struct fleet_engine_ops *eng;
	const char *engine = NULL, *dir = NULL;
	char *dflt = NULL;
	int ret;
	const struct option opts[] = {
		OPT_STRING(0, "engine", &engine, "NAME", "batch system (slurm)"),
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder, shared by every node"),
		OPT_STRING(0, "partition", &req.partition, "P", "partition to run in"),
		OPT_LIST(0, "constraint", &req.constraints, &req.nconstraints, "FEATURE",
			 "node feature the nodes must have (repeatable)"),
		OPT_INT_RANGE(0, "nodes", &req.nodes, 1, FLEET_MAX_NODES, "N", "nodes (default 1)"),
		OPT_INT_RANGE(0, "rounds", &req.rounds, 1, FLEET_MAX_ROUNDS, "R",
			      "jobs per node (default 1)"),
		OPT_STRING(0, "time", &req.time_limit, "LIMIT", "each job's time limit"),
		OPT_STRING(0, "account", &req.account, "A", "sbatch --account"),
		OPT_STRING(0, "qos", &req.qos, "Q", "sbatch --qos"),
		OPT_STRING(0, "reservation", &req.reservation, "R", "sbatch --reservation"),
		OPT_STRING(0, "begin", &req.begin, "TIME", "sbatch --begin"),
		OPT_STRING(0, "nodelist", &req.nodelist, "HOSTS", "pick the nodes among these"),
		OPT_STRING(0, "exclude", &req.exclude, "HOSTS", "never run on these nodes"),
		OPT_STRING(0, "dependency", &req.dependency, "DEP",
			   "every job also waits for this (sbatch --dependency)"),
		OPT_BOOL(0, "no-requeue", &req.no_requeue,
			 "a job whose node fails is not rerun (sbatch --no-requeue)"),
		OPT_BOOL(0, "array", &req.array,
			 "a node's rounds as one job array (sbatch --array=1-R%1)"),
		OPT_LIST(0, "sbatch-arg", &req.sbatch_args, &req.nsbatch_args, "OPT",
			 "one more sbatch option, as --name=value (repeatable)"),
		OPT_STRING(0, "mmbench", &req.mmbench, "PATH",
			   "the mmbench the nodes run (default: this one)"),
		OPT_STRING(0, "name", &spec.name, "LABEL", "run --name"),
		OPT_INT_RANGE(0, "iterations", &spec.iterations, 1, 1000000, "N",
			      "measured iterations"),
		OPT_BOOL(0, "quick", &spec.quick, "smoke test"),
		OPT_STRING(0, "workload", &spec.workload, "NAME", "run only this workload"),
		OPT_LIST(0, "set", &spec.sets, &spec.nsets, "KEY=VALUE", "run --set"),
		OPT_STRING(0, "tree", &spec.tree, "DIR", "ab: kernel work tree"),
		OPT_STRING(0, "base", &spec.base, "REF", "ab: base commit"),
		OPT_LIST(0, "patch", &spec.patches, &spec.npatches, "P", "ab: the series"),
		OPT_LIST(0, "config", &spec.fragments, &spec.nfragments, "FRAG",
			 "ab: config fragment"),
		OPT_STRING(0, "base-config", &spec.base_config, "B", "ab: defconfig, ..."),
		OPT_STRING(0, "base-name", &spec.base_name, "L", "ab: base label"),
		OPT_STRING(0, "new-name", &spec.new_name, "L", "ab: patched label"),
		OPT_STRING(0, "accel", &spec.accel, "NAME", "ab: accelerator (default kvm)"),
		OPT_INT_RANGE(0, "cpus", &spec.cpus, 1, 4096, "N", "ab: guest CPUs"),
		OPT_STRING(0, "mem", &spec.mem, "SIZE", "ab: guest memory"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "fleet submit", "CONFIG", 0);
	if (argc < 0)
		goto usage;
	if (argc != 1) {
		error(argc ? "fleet submit takes one CONFIG" : "missing CONFIG (the experiment)");
		parse_options_usage(stderr, opts, "fleet submit", "CONFIG");
		goto usage;
	}
	if (!engine) {
		error("--engine is required (slurm)");
		goto usage;
	}
	if (!(eng = fleet_engine_find(engine)))
		goto usage;
	if (spec_check(&spec))
		goto usage;
	if (!req.mmbench) {
		if (!(req.mmbench = exe_path()))
			goto usage_self;
	} else if (req.mmbench[0] != '/') {
		error("--mmbench '%s': an absolute path (the nodes run it)", req.mmbench);
		goto usage;
	}
	if (!dir)
		dir = dflt = default_dir(argv[0]);
	ret = mmb_exit_code(fleet_submit(eng, dir, argv[0], &req, &spec));
	free(dflt);
	goto out;
usage_self:
	error("cannot find my own executable; give --mmbench PATH");
	ret = EXIT_RUNTIME;
	goto out;
usage:
	ret = EXIT_USAGE;
out:
	/* parse_options grew the lists; their strings are argv's */
	free(req.constraints);
	free(req.sbatch_args);
	free(spec.sets);
	free(spec.patches);
	free(spec.fragments);
	return ret;
}

/* status/collect/cancel take the folder as --dir DIR or as DIR */
static const char *dir_arg(int *argc, char **argv, const char *cmd, const char *dir,
			   const struct option *opts)
{
	if (*argc == 1 && !dir)
		return argv[0];
	if (*argc == 0 && dir)
		return dir;
	error(*argc ? "%s takes one fleet folder" : "%s: which fleet? give DIR (or --dir DIR)",
	      cmd);
	parse_options_usage(stderr, opts, cmd, "DIR");
	return NULL;
}

static int fleet_status_cmd(int argc, char **argv)
{
	int rc;
	bool json = false;
	const char *dir = NULL;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "one JSON object for scripts"),
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "fleet status", "DIR", 0);
	if (argc < 0 || !(dir = dir_arg(&argc, argv, "fleet status", dir, opts)))
		return EXIT_USAGE;
	rc = json ? fleet_status_json(dir, stdout) : fleet_status(dir, stdout);
	return rc < 0 ? EXIT_RUNTIME : rc;	/* enum fleet_exit (docs/fleet.md) */
}

static int fleet_wait_cmd(int argc, char **argv)
{
	const char *dir = NULL;
	int interval = 30, timeout = 0, stall = 0, rc;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder"),
		OPT_INT(0, "interval", &interval, "S", "seconds between looks (default 30)"),
		OPT_INT(0, "timeout", &timeout, "S", "give up after S seconds (default: never)"),
		OPT_INT(0, "stall", &stall, "S",
			"give up once no job changed for S seconds (default: never)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "fleet wait", "DIR", 0);
	if (argc < 0 || !(dir = dir_arg(&argc, argv, "fleet wait", dir, opts)))
		return EXIT_USAGE;
	if (interval < 1 || interval > 3600 || timeout < 0 || stall < 0)
		return usage_error("fleet", "fleet wait: --interval is 1..3600 s, --timeout and "
				   "--stall >= 0");
	rc = fleet_wait(dir, interval, timeout, stall, stdout);
	return rc < 0 ? EXIT_RUNTIME : rc;	/* enum fleet_exit (docs/fleet.md) */
}

static int fleet_cancel_cmd(int argc, char **argv)
{
	struct fleet_jobs_sel sel = { 0 };
	const char *dir = NULL;
	int ret;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder"),
		OPT_LIST(0, "job", &sel.tags, &sel.n, "JOB", "only this job: r1-n2 or its id (repeatable)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "fleet cancel", "DIR", 0);
	if (argc < 0 || !(dir = dir_arg(&argc, argv, "fleet cancel", dir, opts))) {
		free(sel.tags);
		return EXIT_USAGE;
	}
	ret = mmb_exit_code(fleet_cancel(dir, &sel));
	free(sel.tags);
	return ret;
}

static int fleet_resubmit_cmd(int argc, char **argv)
{
	struct fleet_request req = { .nodes = 1, .rounds = 1 };
	struct fleet_jobs_sel sel = { 0 };
	const char *dir = NULL;
	bool failed_only = false;
	int ret;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder"),
		OPT_BOOL(0, "failed", &failed_only, "only the failed jobs, while others still run"),
		OPT_LIST(0, "job", &sel.tags, &sel.n, "JOB",
			 "only this job, if it failed: r1-n2 or its id (repeatable)"),
		OPT_STRING(0, "partition", &req.partition, "P", "partition to run in"),
		OPT_STRING(0, "time", &req.time_limit, "LIMIT", "each job's time limit"),
		OPT_STRING(0, "mmbench", &req.mmbench, "PATH",
			   "the mmbench the nodes run (default: this one)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, "fleet resubmit", "DIR", 0);
	if (argc < 0 || !(dir = dir_arg(&argc, argv, "fleet resubmit", dir, opts))) {
		ret = EXIT_USAGE;
	} else if (!req.mmbench && !(req.mmbench = exe_path())) {
		ret = usage_error("fleet", "cannot find my own executable; give --mmbench PATH");
	} else if (req.mmbench[0] != '/') {
		ret = usage_error("fleet", "--mmbench: an absolute path (the nodes run it)");
	} else {
		/* a job named on its own is resubmitted while the others run */
		ret = mmb_exit_code(fleet_resubmit(dir, &req, failed_only || sel.n, &sel, stdout));
	}
	free(sel.tags);
	return ret;
}

static int fleet_collect_cmd(int argc, char **argv)
{
	const char *dir = NULL, *db = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "fleet folder"),
		OPT_STRING(0, "db", &db, "FILE", "results database merged into"),
		OPT_END(),
	};
	int r;

	argc = parse_options(argc, argv, opts, "fleet collect", "DIR", 0);
	if (argc < 0 || !(dir = dir_arg(&argc, argv, "fleet collect", dir, opts)))
		return EXIT_USAGE;
	r = fleet_collect(dir, db, stdout);
	return r ? EXIT_RUNTIME : EXIT_OK;
}

static int fleet_job_cmd(int argc, char **argv)
{
	if (argc != 2)
		return usage_error("fleet", "usage: mmbench fleet job ARGSFILE (what a fleet job runs)");
	/* `run` or `ab` (fleet_args_decode allows only these), as main() runs them */
	return fleet_run_job(argv[1], run_command);
}

int cmd_fleet(int argc, char **argv)
{
	static const struct command subs[] = {
		{ "submit", fleet_submit_cmd, 0 },
		{ "status", fleet_status_cmd, 0 },
		{ "wait", fleet_wait_cmd, 0 },
		{ "collect", fleet_collect_cmd, 0 },
		{ "cancel", fleet_cancel_cmd, 0 },
		{ "resubmit", fleet_resubmit_cmd, 0 },
		{ "job", fleet_job_cmd, SUBCOMMAND_HIDDEN },
	};

	return run_subcommand("fleet", subs, ARRAY_SIZE(subs), argc - 1, argv + 1);
}
