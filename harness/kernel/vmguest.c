/*
 * The guest side of `mmbench vm run`: PID 1's agent in the VM's initramfs
 * (`mmbench vm guest ARGS`).  It finds the result port, sends the guest's
 * facts, runs the runner and streams what it recorded (db/merge.h's
 * records) to the host, with heartbeats, until the runner exits.  The host
 * driver is vmrun.c.
 */
#include "vmrun.h"
#include "db.h"
#include "kargv.h"
#include "merge.h"
#include "qemu.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <sys/utsname.h>
#include <sys/wait.h>
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

int vm_guest_main(const char *args_file)
{
	struct strbuf args = STRBUF_INIT, out = STRBUF_INIT;
	struct kargv runner = KARGV_INIT;
	struct mstream_pos pos = { 0 };
	const char *zram = NULL;
	struct mmb_db g;
	bool have_g = false;
	char *port = NULL;
	int fd = -1, status = 0, rc;
	double last_hb = 0;
	pid_t pid;
	bool in_runner = false;
	int crash_after = 0, sent = 0;
	const char *dbfile = "/results.db";

	if (strbuf_read_file(&args, args_file) < 0)
		return error("vm guest: %s: %s", args_file, strerror(errno)), 3;
	kargv_push(&runner, "mmbench");
	for (size_t off = 0; off < args.len; off += strlen(args.buf + off) + 1) {
		const char *a = args.buf + off;

		if (in_runner)
			kargv_push(&runner, a);
		else if (!strcmp(a, "--"))
			in_runner = true;
		else if (!strcmp(a, "--zram") && off + strlen(a) + 1 < args.len)
			zram = args.buf + (off += strlen(a) + 1);
		else if (!strcmp(a, "--crash-after") && off + strlen(a) + 1 < args.len)
			crash_after = atoi(args.buf + (off += strlen(a) + 1));
	}
	/* the runner's --db is the file to stream */
	for (size_t i = 1; i + 1 < runner.nr; i++)
		if (!strcmp(runner.v[i], "--db"))
			dbfile = runner.v[i + 1];
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
		strbuf_release(&args);
		kargv_release(&runner);
		return 3;
	}
	guest_hello(&out);
	if (zram)
		guest_zram(zram, &out);
	port_write(fd, &out);

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", runner.v);
		fprintf(stderr, "mmbench-vm: cannot exec the runner: %s\n", strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = pid > 0 ? waitpid(pid, &status, WNOHANG) : pid;
		double now = now_wall();

		if (!have_g && access(dbfile, F_OK) == 0)
			have_g = db_open_stream_source(&g, dbfile) == 0;
		if (have_g)
			mstream_poll(&g, &pos, &out);
		if (now - last_hb >= 5) {
			char up[32];
			const char *f[] = { up };

			snprintf(up, sizeof(up), "%.0f", now_ns() / 1e9);
			mstream_record(&out, 'H', f, 1);
			last_hb = now;
		}
		for (const char *p = out.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (p[0] == 'I' && p[1] == '\t')
				sent++;
		port_write(fd, &out);
		if (crash_after && sent >= crash_after) {
			/* test hook: a kernel panic mid-run, after N iterations went out */
			fsync(fd);
			fprintf(stderr, "mmbench-vm: --crash-after %d: crashing the kernel\n", crash_after);
			write_file_str("/proc/sys/kernel/sysrq", "1");
			write_file_str("/proc/sysrq-trigger", "c");
		}
		if (w == pid || w < 0)
			break;
		usleep(250000);
	}
	if (have_g) {
		mstream_poll(&g, &pos, &out);
		db_close(&g);
	}
	rc = pid < 0 ? 127 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
	strbuf_release(&args);
	strbuf_release(&out);
	kargv_release(&runner);
	return rc;
}
