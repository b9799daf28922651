/*
 * VM guests' result streams for the golden test (tests/e2e/48), without a VM.
 *
 *   vm-stream record KERNEL CONFIG > STREAM
 *	what `mmbench vm guest` writes on its port for CONFIG under KERNEL
 *	(vm-base or vm-new, below), with fixed guest facts and results: V
 *	and M as guest_hello() writes them, the run through the stream sink
 *	(db/sink.c) as the runner sends it, heartbeats, the exit code.  The
 *	same bytes every time.
 *   vm-stream replay KERNEL CONFIG STREAM
 *	the host's side: a VM run of KERNEL begun as `mmbench vm run` begins
 *	it (vm_run_begin), STREAM merged into it with merge_feed() in odd
 *	pieces, as the stream arrives from QEMU, and the run finished with
 *	the status the guest reported.  The DB is $MMBENCH_DB.
 */
#include "config.h"
#include "db.h"
#include "interference.h"
#include "kbuild.h"
#include "guest-stream.h"
#include "qemu.h"
#include "sink.h"
#include "util.h"
#include "vmrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GUEST_VERSION "#1 SMP PREEMPT_DYNAMIC Thu Jan  1 00:00:00 UTC 2026"
#define GUEST_CMDLINE "console=ttyS0 rdinit=/init panic=-1 quiet"
#define GUEST_COMPILER "gcc (Debian 12.2.0-14) 12.2.0"

/* The two kernels an A/B would boot; the new one's guest measures 12.5% less. */
static const struct guest_kernel {
	const char *label, *release, *config_hash;
	double scale;
} kernels[] = {
	{ "vm-base", "6.12.0-mmb", "5eed0000c0ffee00", 1.0 },
	{ "vm-new", "6.12.0-mmb+", "5eed0000c0ffee01", 0.875 },
};

static const struct guest_kernel *kernel_named(const char *label)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
		if (!strcmp(kernels[i].label, label))
			return &kernels[i];
	error("vm-stream: no kernel '%s' (vm-base or vm-new)", label);
	return NULL;
}

/* Records the sink does not write; flushed at once, the sink writes to fd 1 itself. */
static int put(struct strbuf *b)
{
	int ret = fwrite(b->buf, 1, b->len, stdout) == b->len && !fflush(stdout) ? 0 : -1;

	strbuf_reset(b);
	return ret ? error("vm-stream: cannot write the stream") : 0;
}

/* One measured (or warm-up) iteration of faulty as the guest's runner records it. */
static int record_iteration(struct result_sink *s, const struct guest_kernel *k, int i,
			    bool warm, const char *params)
{
	struct iteration_info it = {
		.workload = "faulty", .variant = "", .variant_json = "[]", .params = params,
		.iteration = i, .warmup = warm, .status = "ok",
		.started = 1767225600 + 10.0 * (i + 1), .elapsed = 1.5 + i / 8.0,
		.measured = true, .interference = i == 4 ? 0.375 : 0.015625,
	};
	struct interference x = {
		.wall_s = it.elapsed, .window_s = NAN, .cpus = 2, .foreign_share = it.interference,
		.foreign_cpu_s = it.interference * 2 * it.elapsed, .procs_running = 1,
		.load1 = 0.25, .nvcsw = 40 + i, .nivcsw = 3, .freq_khz = 2400000,
		.mem_available_bytes = 1610612736,
	};
	/* the guest's iteration 4 overlapped something in the VM */
	struct sample_info smp = { .metric = "value", .unit = "units", .better = 1,
				   .value = k->scale * (100 + (i * 3 + 7) % 7) };
	struct iteration_record r = ITERATION_RECORD_INIT;
	const char *keys[INTERFERENCE_NKEYS + 2] = { "pgfault", "meminfo:AnonHugePages" };
	double vals[INTERFERENCE_NKEYS + 2] = { 2000 + 16 * i, 0 };

	if (i == 4)
		it.disturbed = "foreign CPU 38% of 2 CPUs (limit 10%)";
	r.it = &it;
	r.samples = &smp;
	r.nsamples = 1;
	r.mon_keys = keys;
	r.mon_values = vals;
	r.nmon = 2 + (size_t)interference_keys(&x, keys + 2, vals + 2);
	r.mon_source = "vmstat";
	return sink_iteration(s, &r);
}

static int record(const struct guest_kernel *k, const char *config)
{
	struct experiment e;
	struct result_sink s;
	struct strbuf b = STRBUF_INIT;
	const char *v[] = { "mmbench-stream", "1" };
	const char *m[] = { "2", "2061787136", "QEMU Virtual CPU version 2.5+", k->release,
			    GUEST_VERSION, GUEST_CMDLINE };
	const char *hb[] = { "3" }, *rc[] = { "0" };
	const char *found_keys[] = { "thp.enabled", "thp.defrag", "vm.swappiness" };
	const char *found_vals[] = { "never", "madvise", "60" };
	struct run_info ri;
	char *params;
	int ret = -1;

	experiment_init(&e);
	if (experiment_load(&e, config))
		goto out;
	run_info_init(&ri, 0, e.name, "/mmbench/experiment.yaml", "host");
	ri.config_text = e.text;
	ri.release = k->release;
	ri.version = GUEST_VERSION;
	ri.cmdline = GUEST_CMDLINE;
	ri.config_hash = k->config_hash;
	ri.harness_version = "0.1.0";
	ri.git_sha = "0123456789ab";
	ri.compiler = GUEST_COMPILER;
	mstream_record(&b, 'V', v, 2);
	mstream_record(&b, 'M', m, 6);
	mstream_record(&b, 'H', hb, 1);
	if (put(&b))
		goto out;
	sink_stream_init(&s, 1);
	params = xasprintf("script=ok,ok,ok,ok,ok,ok,ok state_dir=/mmbench/state");
	ret = sink_run(&s, &ri) || sink_env(&s, "thp.enabled", "never", "always") ||
	      sink_env_found(&s, found_keys, found_vals, ARRAY_SIZE(found_keys)) ||
	      record_iteration(&s, k, -1, true, params) ? -1 : 0;
	for (int i = 1; !ret && i <= 6; i++) {
		ret = record_iteration(&s, k, i, false, params);
		if (!ret && i == 3) {
			mstream_record(&b, 'H', hb, 1);
			ret = put(&b);
		}
	}
	free(params);
	if (!ret && !sink_finish(&s, "complete")) {
		mstream_record(&b, 'X', rc, 1);
		ret = put(&b);
	}
out:
	experiment_release(&e);
	strbuf_release(&b);
	return ret ? 1 : 0;
}

static int replay(const struct guest_kernel *gk, const char *config, const char *stream)
{
	struct vm_opts o;
	/* the kernel as `kernel build` recorded it */
	struct kernel_entry k = { .label = (char *)gk->label, .release = (char *)gk->release,
				  .config_hash = (char *)gk->config_hash,
				  .compiler = GUEST_COMPILER };
	struct experiment e;
	struct strbuf data = STRBUF_INIT;
	struct mmb_db db;
	struct merge_ctx m;
	char *cfgpath = realpath(config, NULL);
	int64_t run;
	int ret = 1;

	vm_opts_init(&o);
	o.label = gk->label;
	o.experiment = config;
	experiment_init(&e);
	if (!cfgpath || experiment_load(&e, config) || strbuf_read_file(&data, stream) < 0) {
		error("vm-stream: cannot read %s or %s", config, stream);
		goto out;
	}
	if (db_open(&db, db_default_path(NULL)))
		goto out;
	run = vm_run_begin(&db, &o, &k, &e, cfgpath, e.text, ACCEL_KVM);
	if (run > 0) {
		const char *status = "failed";
		int bad = 0;

		merge_init(&m, &db, run);
		/* any split: a record may arrive in pieces */
		for (size_t off = 0; !bad && off < data.len; off += 13)
			bad = merge_feed(&m, data.buf + off, data.len - off < 13 ? data.len - off : 13);
		if (!bad && m.have_exit && !m.exit_code && m.guest_status)
			status = m.guest_status;
		ret = db_run_finish(&db, run, status) || bad ? 1 : 0;
		printf("run %lld: %s, %d iterations, %d samples\n", (long long)run, status,
		       m.iterations, m.nsamples_total);
		merge_release(&m);
	}
	db_close(&db);
out:
	experiment_release(&e);
	strbuf_release(&data);
	free(cfgpath);
	return ret;
}

int main(int argc, char **argv)
{
	const struct guest_kernel *k = argc > 2 ? kernel_named(argv[2]) : NULL;

	if (k && argc == 4 && !strcmp(argv[1], "record"))
		return record(k, argv[3]);
	if (k && argc == 5 && !strcmp(argv[1], "replay"))
		return replay(k, argv[3], argv[4]);
	fprintf(stderr, "usage: vm-stream record KERNEL CONFIG > STREAM\n"
		"       vm-stream replay KERNEL CONFIG STREAM   (into $MMBENCH_DB)\n"
		"KERNEL: vm-base or vm-new\n");
	return 2;
}
