/*
 * The guest side of `mmbench vm run`: PID 1's agent in the VM's initramfs
 * (`mmbench vm guest ARGS`).  It finds the result port, sends the guest's
 * facts, and runs the experiment in this process with the stream sink on
 * the port (db/sink.h): every row goes to the host as a db/guest-stream.h record
 * the moment the runner has it, nothing is written to a database here.  A
 * thread sends heartbeats meanwhile; the last record is the exit code.
 * The host driver is vmrun.c.
 */
#include "proc.h"
#include "vmrun.h"
#include "config.h"
#include "interference.h"
#include "guest-stream.h"
#include "parse-options.h"
#include "qemu.h"
#include "session.h"
#include "sink.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static char *find_port(const char *name)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *de;
	char *dev = NULL;

	if (!d)
		return NULL;
	while (!dev && (de = readdir(d))) {
		char *p = xasprintf("/sys/class/virtio-ports/%s/name", de->d_name);
		char buf[128];

		if (de->d_name[0] != '.' && read_line_file(p, buf, sizeof(buf)) > 0 &&
		    !strcmp(buf, name))
			dev = xasprintf("/dev/%s", de->d_name);
		free(p);
	}
	closedir(d);
	return dev;
}

static void port_write(int fd, struct strbuf *sb)
{
	const char *p = sb->buf;
	size_t len = sb->len;

	while (fd >= 0 && len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		p += n;
		len -= n;
	}
	strbuf_reset(sb);
}

static void guest_hello(struct strbuf *out)
{
	struct utsname u;
	char ncpu[16], mem[32], cmdline[1024] = "", model[256] = "";
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (starts_with(line, "model name") && strchr(line, ':')) {
				snprintf(model, sizeof(model), "%s", strtrim(strchr(line, ':') + 1));
				break;
			}
		fclose(f);
	}
	uname(&u);
	read_line_file("/proc/cmdline", cmdline, sizeof(cmdline));
	snprintf(ncpu, sizeof(ncpu), "%d", online_cpus());
	snprintf(mem, sizeof(mem), "%llu", (unsigned long long)mem_total_bytes());
	{
		const char *v[] = { "mmbench-stream", "1" };
		const char *mf[] = { ncpu, mem, model, u.release, u.version, cmdline };

		mstream_record(out, 'V', v, 2);
		mstream_record(out, 'M', mf, 6);
	}
}

static int guest_zram(const char *bytes, struct strbuf *out)
{
	const char *mk[] = { "mkswap", "/dev/zram0", NULL };
	struct strbuf err = STRBUF_INIT;
	int rc;

	rc = write_file_str("/sys/block/zram0/disksize", bytes);
	if (rc == 0 && run_argv(mk, NULL, &err) != 0)
		rc = -EIO;
	if (rc == 0 && swapon("/dev/zram0", SWAP_FLAG_PREFER | (100 << SWAP_FLAG_PRIO_SHIFT)) < 0)
		rc = -errno;
	if (rc) {
		char *msg = xasprintf("zram swap setup failed: %s %s", strerror(-rc),
				      err.buf ? err.buf : "");
		const char *f[] = { msg };

		mstream_record(out, 'L', f, 1);
		fprintf(stderr, "mmbench-vm: %s\n", msg);
		free(msg);
	} else {
		printf("mmbench-vm: zram swap of %s bytes on /dev/zram0\n", bytes);
	}
	strbuf_release(&err);
	return rc;
}

/* Seconds since the guest kernel started its clock (/proc/uptime); -1 unknown. */
static double guest_uptime(void)
{
	char buf[64] = "";
	FILE *f = fopen("/proc/uptime", "re");
	double v = -1;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtod(buf, NULL);
		fclose(f);
	}
	return v;
}

/*
 * The stream sink on the port, shared with the heartbeat thread: one
 * writer at a time, so a heartbeat never lands inside a record (a large
 * iteration takes several writes to a virtio port).
 */
struct guest_sink {
	struct result_sink base;	/* first: what the runner writes to */
	struct result_sink port;	/* the stream sink on the port */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	int crash_after, sent;		/* --crash-after: panic after N I records */
	double up_agent, up_ready;	/* guest uptime: agent started; ready (port found, zram set up) */
	bool first_sent;
};

#define GUEST(s) ((struct guest_sink *)(s))

static int guest_run_rec(struct result_sink *s, const struct run_info *ri)
{
	int ret;

	pthread_mutex_lock(&GUEST(s)->lock);
	ret = sink_run(&GUEST(s)->port, ri);
	pthread_mutex_unlock(&GUEST(s)->lock);
	return ret;
}

static int guest_env(struct result_sink *s, const char *key, const char *value,
		     const char *original)
{
	int ret;

	pthread_mutex_lock(&GUEST(s)->lock);
	ret = sink_env(&GUEST(s)->port, key, value, original);
	pthread_mutex_unlock(&GUEST(s)->lock);
	return ret;
}

static int guest_env_found(struct result_sink *s, const char *const *keys,
			   const char *const *values, size_t n)
{
	int ret;

	pthread_mutex_lock(&GUEST(s)->lock);
	ret = sink_env_found(&GUEST(s)->port, keys, values, n);
	pthread_mutex_unlock(&GUEST(s)->lock);
	return ret;
}

static int guest_iteration(struct result_sink *s, const struct iteration_record *r)
{
	struct guest_sink *g = GUEST(s);
	int ret;

	pthread_mutex_lock(&g->lock);
	ret = sink_iteration(&g->port, r);
	/* the first measured sample, as the host counts it (guest-stream.c: warm-ups are not samples) */
	if (!ret && !g->first_sent && !r->it->warmup && r->nsamples) {
		/* the boot's phases in guest time, for the host's breakdown (vmrun.c) */
		const char *init = getenv("MMB_UPTIME_INIT");

		g->first_sent = true;
		fprintf(stderr, VM_BOOT_LINE "init %s agent %.3f ready %.3f first-sample %.3f\n",
			init && *init ? init : "-1", g->up_agent, g->up_ready, guest_uptime());
	}
	if (!ret && g->crash_after && ++g->sent >= g->crash_after) {
		/* test hook: a kernel panic mid-run, after N iterations went out */
		fsync(g->port.fd);
		fprintf(stderr, "mmbench-vm: --crash-after %d: crashing the kernel\n",
			g->crash_after);
		write_file_str("/proc/sys/kernel/sysrq", "1");
		write_file_str("/proc/sysrq-trigger", "c");
	}
	pthread_mutex_unlock(&g->lock);
	return ret;
}

static int guest_finish(struct result_sink *s, const char *status)
{
	int ret;

	pthread_mutex_lock(&GUEST(s)->lock);
	ret = sink_finish(&GUEST(s)->port, status);
	pthread_mutex_unlock(&GUEST(s)->lock);
	return ret;
}

/* run --profile in the guest: a P record on the port (merged under the host's run) */
static int guest_profile(struct result_sink *s, const struct profile_info *p,
			 const struct profile_entry *e, size_t n)
{
	int ret;

	pthread_mutex_lock(&GUEST(s)->lock);
	ret = sink_profile(&GUEST(s)->port, p, e, n);
	pthread_mutex_unlock(&GUEST(s)->lock);
	return ret;
}

static const struct result_sink_ops guest_ops = {
	.name = "stream", .run = guest_run_rec, .env = guest_env, .env_found = guest_env_found,
	.iteration = guest_iteration, .finish = guest_finish, .profile = guest_profile,
};

static void heartbeat_write(int fd)
{
	char rec[48];
	int n = snprintf(rec, sizeof(rec), "H\t%.0f\n", now_ns() / 1e9);

	/* no malloc here: the runner forks while the heartbeat thread runs */
	for (int off = 0; off < n;) {
		ssize_t w = write(fd, rec + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (int)w;
	}
}

/* An H record every 5 s until stopped: the host takes silence for a hang. */
static void *heartbeat(void *arg)
{
	struct guest_sink *g = arg;
	struct timespec ts;

	pthread_mutex_lock(&g->lock);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 5;
	while (!g->stop) {
		if (pthread_cond_timedwait(&g->wake, &g->lock, &ts) == ETIMEDOUT) {
			heartbeat_write(g->port.fd);
			ts.tv_sec += 5;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Start the heartbeat with every signal blocked in it: signals are the runner's. */
static int heartbeat_start(struct guest_sink *g, pthread_t *t)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->wake, &ca);
	pthread_condattr_destroy(&ca);
	heartbeat_write(g->port.fd);	/* the first one now */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, NULL, heartbeat, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return error("vm guest: no heartbeat thread: %s", strerror(rc));
	return 0;
}

static void heartbeat_stop(struct guest_sink *g, pthread_t t)
{
	pthread_mutex_lock(&g->lock);
	g->stop = true;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	pthread_join(t, NULL);
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
}

/*
 * The runner's part of the args ("run CONFIG [--iterations N] [--quick] [--profile]"),
 * run here into the port; the exit code `mmbench run` would have had.
 */
static int guest_experiment(int fd, int argc, char **argv, int crash_after, double up_agent,
			    double up_ready)
{
	struct guest_sink g = { .crash_after = crash_after, .up_agent = up_agent,
				.up_ready = up_ready };
	struct run_request rq = { 0 };
	struct experiment exp;
	pthread_t t;
	int n, rc;
	const struct option opts[] = {
		OPT_INT_RANGE(0, "iterations", &rq.iterations, 1, 1000000, "N",
			      "measured iterations for every workload"),
		OPT_BOOL(0, "quick", &rq.quick, "smoke test"),
		OPT_BOOL(0, "profile", &rq.profile, "a profile per variant"),
		OPT_END(),
	};

	if (argc < 1 || strcmp(argv[0], "run"))
		return error("vm guest: the args file has no 'run CONFIG' after '--'"), EXIT_USAGE;
	n = parse_options(argc, argv, opts, "vm guest -- run", "CONFIG", 0);
	if (n != 1)
		return n < 0 ? EXIT_USAGE
			     : (error("vm guest: one CONFIG after 'run', not %d", n), EXIT_USAGE);
	rq.config_path = argv[0];
	experiment_init(&exp);
	if (experiment_load(&exp, rq.config_path)) {
		experiment_release(&exp);
		return EXIT_USAGE;
	}
	sink_stream_init(&g.port, fd);
	g.base.ops = &guest_ops;
	g.base.fd = -1;
	if (heartbeat_start(&g, &t)) {
		experiment_release(&exp);
		return EXIT_RUNTIME;
	}
	rc = run_experiment_to(&exp, &rq, &g.base);
	heartbeat_stop(&g, t);
	experiment_release(&exp);
	return rc;
}

int vm_guest_main(const char *args_file)
{
	struct strbuf args = STRBUF_INIT, out = STRBUF_INIT;
	const char **runner = NULL;
	size_t nrunner = 0, alloc = 0;
	const char *zram = NULL;
	char *port = NULL;
	int fd = -1, rc;
	bool in_runner = false;
	int crash_after = 0;
	double up_agent = guest_uptime();

	if (strbuf_read_file(&args, args_file) < 0)
		return error("vm guest: %s: %s", args_file, strerror(errno)), 3;
	for (size_t off = 0; off < args.len; off += strlen(args.buf + off) + 1) {
		const char *a = args.buf + off;

		if (in_runner) {
			ALLOC_GROW(runner, nrunner + 2, alloc);
			runner[nrunner++] = a;
			runner[nrunner] = NULL;
		} else if (!strcmp(a, "--")) {
			in_runner = true;
		} else if (!strcmp(a, "--zram") && off + strlen(a) + 1 < args.len) {
			zram = args.buf + (off += strlen(a) + 1);
		} else if (!strcmp(a, "--crash-after") && off + strlen(a) + 1 < args.len) {
			crash_after = atoi(args.buf + (off += strlen(a) + 1));
		} else if (!strcmp(a, "--virtual-clock")) {
			interference_irq_not_foreign();
		}
	}
	/* MMBENCH_VM_PORT: a file instead of the port, to test the agent on a host */
	if (getenv("MMBENCH_VM_PORT"))
		port = xstrdup(getenv("MMBENCH_VM_PORT"));
	/* virtio probing can be slow under TCG: wait up to 60 s */
	for (int i = 0; i < 600 && !port && !(port = find_port(QEMU_RESULT_PORT)); i++)
		usleep(100000);
	if (!port || (fd = open(port, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
		const char *ls[] = { "ls", "-l", "/sys/class/virtio-ports", "/sys/bus/virtio/devices",
				     NULL };

		fprintf(stderr, "mmbench-vm: result port %s not found: %s\n", QEMU_RESULT_PORT,
			port ? strerror(errno) : "no such virtio-serial port");
		run_argv(ls, NULL, NULL);
		free(port);
		free(runner);
		strbuf_release(&args);
		return 3;
	}
	guest_hello(&out);
	if (zram)
		guest_zram(zram, &out);
	port_write(fd, &out);

	rc = guest_experiment(fd, (int)nrunner, (char **)runner, crash_after, up_agent,
			      guest_uptime());
	fflush(stdout);
	fflush(stderr);
	{
		char n[16];
		const char *f[] = { n };

		snprintf(n, sizeof(n), "%d", rc);
		mstream_record(&out, 'X', f, 1);
	}
	port_write(fd, &out);
	fsync(fd);
	close(fd);
	free(port);
	free(runner);
	strbuf_release(&args);
	strbuf_release(&out);
	return rc;
}
