/*
 * The fleet without a cluster: args files round trip any text, the job
 * script is fixed (no user text in it or in sbatch's argv but as a path),
 * sbatch is asked for exclusive pinned jobs in round order, Slurm's
 * answers become the right outcome.  A fake stands in for the tools.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "fleet.h"
#include "kargv.h"
#include "proc.h"
#include "util.h"

/* ---- the fake tools ---- */
#define MAX_CALLS 64
static char *calls[MAX_CALLS][40];
static int ncalls, next_id;
static const char *sinfo_out, *squeue_out;

static void fake_reset(void)
{
	for (int i = 0; i < ncalls; i++)
		for (int k = 0; calls[i][k]; k++)
			free(calls[i][k]);
	memset(calls, 0, sizeof(calls));
	ncalls = 0;
	next_id = 100;
}

static int fake_exec(const char *const *argv, struct strbuf *out, struct strbuf *err)
{
	int k;

	/* submit's check of --mmbench (not counted: the tests count Slurm's calls) */
	if (argv[0][0] == '/') {
		if (argv[1] && !strcmp(argv[1], "list"))
			strbuf_addstr(out, "pft          page faults\nskeleton     example\n");
		else
			strbuf_addstr(out, "mmbench test\n");
		return 0;
	}
	assert_true(ncalls < MAX_CALLS);
	for (k = 0; argv[k] && k < 39; k++)
		calls[ncalls][k] = xstrdup(argv[k]);
	ncalls++;
	if (!strcmp(argv[0], "sinfo")) {
		strbuf_addstr(out, sinfo_out);
	} else if (!strcmp(argv[0], "sbatch")) {
		strbuf_addf(out, "%d;cluster\n", ++next_id);
	} else if (!strcmp(argv[0], "squeue")) {
		strbuf_addstr(out, squeue_out);
	} else if (!strcmp(argv[0], "scontrol")) {
		/* `scontrol show job -o`: every job slurmctld still remembers, one call */
		strbuf_addstr(out, "JobId=102 JobName=mmbench-r2-n1 JobState=FAILED "
				   "Reason=NonZeroExitCode Dependency=(null) ExitCode=2:0 "
				   "NodeList=n3 BatchHost=n3\n");
	} else if (!strcmp(argv[0], "sacct")) {
		strbuf_addstr(err, "sacct: error: Slurm accounting storage is disabled\n");
		return 1;
	}
	return 0;
}

static const char *arg_with(int call, const char *prefix)
{
	for (int k = 0; calls[call][k]; k++)
		if (starts_with(calls[call][k], prefix))
			return calls[call][k];
	return NULL;
}

static char tmpdir[256];

/* a path for one assertion: the last 8 stay valid */
static const char *tpath(const char *fmt, ...)
{
	static char bufs[8][1024];
	static int next;
	char *b = bufs[next++ % 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(bufs[0]), fmt, ap);
	va_end(ap);
	return b;
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/mmb-fleet-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	fleet_exec = fake_exec;
	fake_reset();
	return 0;
}

static int teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", tmpdir, NULL };

	fake_reset();
	fleet_exec = run_argv;
	return run_argv(argv, NULL, NULL);
}

static const char *const hostile[] = {
	"6.12 + it's \"fix\"",
	"$(touch /tmp/pwned); `id`",
	"a;b|c&d>e<f %j %% \\x \\\\",
	"two\nlines\r\n",
	"latin1 \xb1 byte",
	"",
	"-- --db=/etc/passwd",
};

static void test_args_round_trip(void **state)
{
	const char *argv[ARRAY_SIZE(hostile) + 2] = { "run" };
	struct strbuf sb = STRBUF_INIT;
	struct kargv back = KARGV_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		argv[i + 1] = hostile[i];
	fleet_args_encode(&sb, argv);
	assert_int_equal(fleet_args_decode(sb.buf, sb.len, "args", &back), 0);
	assert_int_equal(back.nr, ARRAY_SIZE(hostile) + 1);
	assert_string_equal(back.v[0], "run");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		assert_string_equal(back.v[i + 1], hostile[i]);
	assert_null(back.v[back.nr]);
	kargv_release(&back);
	strbuf_release(&sb);
}

static void expect_decode_error(const char *buf, size_t len, const char *msg)
{
	struct kargv a = KARGV_INIT;
	struct capture c;
	char *out;

	capture_begin(&c);
	assert_int_equal(fleet_args_decode(buf, len, "F", &a), -1);
	out = capture_end(&c);
	assert_non_null(strstr(out, msg));
	assert_int_equal(a.nr, 0);
	free(out);
	kargv_release(&a);
}

static void test_args_refused(void **state)
{
	static const char v2[] = "mmbench-fleet-args 2\0run\0";
	static const char trunc[] = "mmbench-fleet-args 1\0run\0--db";
	static const char shell[] = "mmbench-fleet-args 1\0sh\0-c\0id\0";
	static const char none[] = "mmbench-fleet-args 1\0";

	expect_decode_error("", 0, "F: not an mmbench fleet args file");
	expect_decode_error(v2, sizeof(v2) - 1, "not an mmbench fleet args file");
	expect_decode_error(trunc, sizeof(trunc) - 1, "F: truncated");
	expect_decode_error(shell, sizeof(shell) - 1, "runs 'run' or 'ab', not 'sh'");
	expect_decode_error(none, sizeof(none) - 1, "runs 'run' or 'ab', not ''");
}

static char *write_config(void)
{
	char *path = xasprintf("%s/tiny.yaml", tmpdir);
	static const char yaml[] = "experiment: tiny\niterations: 2\nwarmup: 0\n"
				   "workloads:\n  - name: pft\n    params:\n      size: 8M\n";

	assert_int_equal(write_file_atomic(path, yaml, strlen(yaml)), 0);
	return path;
}

static void test_submit_script_and_argv(void **state)
{
	const char *cons[] = { "a", "b" };
	const char *sets[] = { "thp=never" };
	struct fleet_request req = { .constraints = cons, .nconstraints = 2, .nodes = 2,
				     .rounds = 2, .partition = "mm", .mmbench = "/opt/mmb/mmbench" };
	const char *label = hostile[1];
	struct fleet_spec spec = { .name = label, .iterations = 3, .sets = sets, .nsets = 1 };
	char *config = write_config();
	/* a folder name Slurm would expand or mangle, and a shell would run */
	char *dir = xasprintf("%s/fl %%j \\x $(id)\n'q'", tmpdir);
	struct strbuf sb = STRBUF_INIT;
	struct fleet f;
	const char *want_host[] = { "n1", "n3", "n1", "n3" };

	sinfo_out = "n1|a,b|idle\nn2|a|idle\nn1|a,b|idle\nn4|a,b|down*\nn5|a,b|drain\n"
		    "n3|b,a,c|mix\nn6|a,b|idle\n";
	assert_int_equal(fleet_submit(&fleet_engine_slurm, dir, config, &req, &spec), 0);
	/* sinfo, then sbatch per job, round by round */
	assert_int_equal(ncalls, 5);
	assert_string_equal(calls[0][0], "sinfo");
	assert_string_equal(arg_with(0, "mm"), "mm");
	assert_int_equal(fleet_load(&f, dir), 0);
	assert_int_equal(f.njobs, 4);
	for (int i = 0; i < 4; i++) {
		int c = i + 1;
		char *args = fleet_job_path(&f, &f.jobs[i], "args");
		char *log = fleet_job_path(&f, &f.jobs[i], "log");
		char *script = xasprintf("%s/job.sh", f.dir);
		char nodelist[64], id[16];
		struct kargv a = KARGV_INIT;
		int k;

		assert_string_equal(calls[c][0], "sbatch");
		assert_non_null(arg_with(c, "--exclusive"));
		assert_non_null(arg_with(c, "--nodes=1"));
		snprintf(nodelist, sizeof(nodelist), "--nodelist=%s", want_host[i]);
		assert_string_equal(arg_with(c, "--nodelist="), nodelist);
		assert_string_equal(f.jobs[i].host, want_host[i]);
		assert_string_equal(arg_with(c, "--constraint="), "--constraint=a&b");
		assert_string_equal(arg_with(c, "--partition="), "--partition=mm");
		assert_string_equal(arg_with(c, "--output="), "--output=/dev/null");
		snprintf(id, sizeof(id), "%d", 101 + i);
		assert_string_equal(f.jobs[i].id, id);
		if (f.jobs[i].round == 1) {
			assert_null(arg_with(c, "--dependency"));
		} else {
			char dep[64];

			snprintf(dep, sizeof(dep), "--dependency=afterany:%d", 101 + i - 2);
			assert_string_equal(arg_with(c, "--dependency="), dep);
		}
		/* the script, then its three arguments: mmbench, args, log */
		for (k = 0; calls[c][k]; k++)
			if (!strcmp(calls[c][k], script))
				break;
		assert_non_null(calls[c][k]);
		assert_string_equal(calls[c][k + 1], "/opt/mmb/mmbench");
		assert_string_equal(calls[c][k + 2], args);
		assert_string_equal(calls[c][k + 3], log);
		assert_null(calls[c][k + 4]);
		/* the label travels only in the args file */
		for (k = 0; calls[c][k]; k++)
			assert_null(strstr(calls[c][k], label));
		strbuf_reset(&sb);
		assert_int_equal(read_file_capped(&sb, args, 1 << 20), 0);
		assert_int_equal(fleet_args_decode(sb.buf, sb.len, args, &a), 0);
		assert_string_equal(a.v[0], "run");
		assert_int_not_equal(kargv_find(&a, "--db"), -1);
		assert_string_equal(a.v[kargv_find(&a, "--db") + 1],
				    tpath("%s/jobs/%s/run.db", f.dir, f.jobs[i].tag));
		assert_string_equal(a.v[kargv_find(&a, "--name") + 1], label);
		assert_string_equal(a.v[kargv_find(&a, "--set") + 1], "thp=never");
		assert_int_not_equal(kargv_find(&a, "--iterations=3"), -1);
		assert_string_equal(a.v[a.nr - 1], tpath("%s/experiment.yaml", f.dir));
		kargv_release(&a);
		free(args);
		free(log);
		free(script);
	}
	/* the script is the fixed text: no folder, no label in it */
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, tpath("%s/job.sh", f.dir)), 0);
	assert_string_equal(sb.buf, fleet_slurm_script);
	assert_null(strstr(sb.buf, tmpdir));
	assert_null(strstr(sb.buf, "$(id)"));
	/* the experiment is copied as it was */
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, tpath("%s/experiment.yaml", f.dir)), 0);
	assert_non_null(strstr(sb.buf, "experiment: tiny"));
	fleet_release(&f);

	/* a folder that holds a fleet is never submitted into again */
	fake_reset();
	{
		struct capture c;
		char *msg;

		capture_begin(&c);
		assert_int_equal(fleet_submit(&fleet_engine_slurm, dir, config, &req, &spec), -1);
		msg = capture_end(&c);
		assert_non_null(strstr(msg, "already holds a fleet"));
		free(msg);
	}
	assert_int_equal(ncalls, 1);	/* sinfo only: nothing queued */
	strbuf_release(&sb);
	free(dir);
	free(config);
}

static void test_ab_argv(void **state)
{
	const char *patches[] = { "A..B" };
	struct fleet_spec spec = { .tree = "/src/linux", .base = "v6.12", .patches = patches,
				   .npatches = 1, .cpus = 4 };
	struct fleet f;
	struct kargv a = KARGV_INIT;

	fleet_init(&f);
	f.dir = xstrdup("/shared/fl");
	fleet_add_job(&f, 1, 1, "n1");
	fleet_job_argv(&f, &f.jobs[0], &spec, &a);
	assert_string_equal(a.v[0], "ab");
	assert_string_equal(a.v[kargv_find(&a, "--tree") + 1], "/src/linux");
	assert_string_equal(a.v[kargv_find(&a, "--patch") + 1], "A..B");
	assert_string_equal(a.v[kargv_find(&a, "--rounds") + 1], "1");
	assert_string_equal(a.v[kargv_find(&a, "--accel") + 1], "kvm");
	assert_int_not_equal(kargv_find(&a, "--no-plots"), -1);
	assert_int_not_equal(kargv_find(&a, "--cpus=4"), -1);
	assert_string_equal(a.v[kargv_find(&a, "--db") + 1], "/shared/fl/jobs/r1-n1/run.db");
	assert_string_equal(a.v[a.nr - 1], "/shared/fl/experiment.yaml");
	kargv_release(&a);
	fleet_release(&f);
}

static void put(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	free(p);
}

static void test_status_and_outcome(void **state)
{
	struct fleet f;
	struct fleet_engine_status st[4];
	char why[256], *jd;
	static const enum fleet_outcome want[] = { FLEET_RUNNING, FLEET_FAILED, FLEET_FAILED,
						   FLEET_DONE };

	fleet_init(&f);
	f.dir = xstrdup(tmpdir);
	snprintf(f.engine, sizeof(f.engine), "slurm");
	for (int i = 0; i < 4; i++) {
		struct fleet_job *j = fleet_add_job(&f, i + 1, 1, "n1");

		snprintf(j->id, sizeof(j->id), "%d", 101 + i);
		jd = fleet_job_path(&f, j, NULL);
		assert_int_equal(mkdir_p(jd, 0755), 0);
		free(jd);
	}
	/* 101 in the queue; 102 left it failed; 103 purged; 104 wrote exit 0 */
	squeue_out = "101|RUNNING|n1|None\n";
	jd = fleet_job_path(&f, &f.jobs[3], NULL);
	put(jd, "exit", "exit 0\nhost n1\n");
	put(jd, "run.db", "");
	free(jd);
	assert_int_equal(fleet_engine_slurm.status(&f, st), 0);
	assert_string_equal(calls[0][0], "squeue");
	assert_string_equal(calls[0][5], "101,102,103,104");
	assert_int_equal(st[0].state, FLEET_E_RUNNING);
	assert_int_equal(st[1].state, FLEET_E_ENDED);
	assert_string_equal(st[1].detail, "FAILED (exit 2:0, NonZeroExitCode)");
	assert_string_equal(st[1].host, "n3");
	assert_int_equal(st[2].state, FLEET_E_GONE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fleet_job_outcome(&f, &f.jobs[i], &st[i], why, sizeof(why)),
				 want[i]);
	assert_non_null(strstr((fleet_job_outcome(&f, &f.jobs[1], &st[1], why, sizeof(why)),
				why), "ended without an exit file"));

	/* the exit file decides: a non-zero one is failed whatever Slurm says */
	jd = fleet_job_path(&f, &f.jobs[0], NULL);
	put(jd, "exit", "exit 2\nhost n1\n");
	free(jd);
	assert_int_equal(fleet_job_outcome(&f, &f.jobs[0], &st[0], why, sizeof(why)),
			 FLEET_FAILED);
	assert_string_equal(why, "mmbench exited 2");
	/* exit 0 without a database is no success */
	jd = fleet_job_path(&f, &f.jobs[2], NULL);
	put(jd, "exit", "exit 0\n");
	free(jd);
	assert_int_equal(fleet_job_outcome(&f, &f.jobs[2], &st[2], why, sizeof(why)),
			 FLEET_FAILED);
	/* the engine out of reach, no exit file: not finished */
	memset(&st[1], 0, sizeof(st[1]));
	jd = fleet_job_path(&f, &f.jobs[1], NULL);
	free(jd);
	assert_int_equal(fleet_job_outcome(&f, &f.jobs[1], &st[1], why, sizeof(why)),
			 FLEET_PENDING);
	fleet_release(&f);
}

static void test_nodes_refused(void **state)
{
	const char *bad[] = { "a|b" };
	struct fleet_request req = { .nodes = 2, .rounds = 1, .mmbench = "/x" };
	char **names = NULL;
	size_t n = 0;
	struct capture c;
	char *msg;

	sinfo_out = "n1||idle\nn2||down\nn3||drain\n";
	capture_begin(&c);
	assert_int_equal(fleet_engine_slurm.pick_nodes(&req, &names, &n), -1);
	msg = capture_end(&c);
	assert_non_null(strstr(msg, "2 nodes wanted, 1 of the 3"));
	free(msg);
	req.constraints = bad;
	req.nconstraints = 1;
	capture_begin(&c);
	assert_int_equal(fleet_engine_slurm.pick_nodes(&req, &names, &n), -1);
	msg = capture_end(&c);
	assert_non_null(strstr(msg, "--constraint 'a|b': one node feature"));
	free(msg);
	assert_null(names);
}

static void test_manifest_refused(void **state)
{
	static const char *const bad[] = {
		"mmbench-fleet 2\nengine slurm\n",
		"mmbench-fleet 1\njob 1 1 n1 5\n",
		"mmbench-fleet 1\nengine slurm\njob 1 1 n1;rm 5\n",
		"mmbench-fleet 1\nengine slurm\njob 0 1 n1 5\n",
		"mmbench-fleet 1\nengine slurm\njob 1 1 n1 5 extra\n",
	};
	struct fleet f;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct capture c;
		char *msg;

		put(tmpdir, "fleet", bad[i]);
		capture_begin(&c);
		assert_int_equal(fleet_load(&f, tmpdir), -1);
		msg = capture_end(&c);
		assert_non_null(strstr(msg, "error: "));
		free(msg);
	}
	put(tmpdir, "fleet", "mmbench-fleet 1\nengine slurm\njob 2 3 n-1.x 77\n");
	assert_int_equal(fleet_load(&f, tmpdir), 0);
	assert_int_equal(f.njobs, 1);
	assert_string_equal(f.jobs[0].tag, "r2-n3");
	assert_string_equal(f.jobs[0].id, "77");
	fleet_release(&f);
	assert_null(fleet_engine_find("lava"));
	assert_ptr_equal(fleet_engine_find("slurm"), &fleet_engine_slurm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_round_trip),
		cmocka_unit_test(test_args_refused),
		cmocka_unit_test_setup_teardown(test_submit_script_and_argv, setup, teardown),
		cmocka_unit_test(test_ab_argv),
		cmocka_unit_test_setup_teardown(test_status_and_outcome, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nodes_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_manifest_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
