/*
 * ab --host and the machine: what kernel runs, the resume hook, kexec and
 * one-shot reboots.  Every tool is exec'ed by name from PATH, never
 * through a shell; every file of the machine goes through host_path().
 */
#include "abhost.h"
#include "abhost-internal.h"
#include "envctl.h"
#include "hostroot.h"
#include "proc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int abhost_bzimage_release(const char *path, char *buf, size_t len)
{
	unsigned char h[0x210];
	FILE *f = fopen(path, "rb");
	unsigned off;
	size_t n = 0;
	int c;

	if (!f)
		return -1;
	/* the setup header: "HdrS" at 0x202, the version string's offset - 0x200 at 0x20e */
	if (fread(h, 1, sizeof(h), f) != sizeof(h) || memcmp(h + 0x202, "HdrS", 4) ||
	    !(off = h[0x20e] | h[0x20f] << 8) || fseek(f, off + 0x200L, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	while (n + 1 < len && (c = fgetc(f)) != EOF && c > ' ' && c < 0x7f)
		buf[n++] = (char)c;
	buf[n] = '\0';
	fclose(f);
	return n ? 0 : -1;
}

/* The GNU build id note of /sys/kernel/notes, in hex. */
static void running_build_id(char *out, size_t len)
{
	char *p = host_path("/sys/kernel/notes");
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	out[0] = '\0';
	if (strbuf_read_file(&sb, p) >= 0) {
		while (i + 12 <= sb.len) {
			uint32_t nsz, dsz, type;

			memcpy(&nsz, sb.buf + i, 4);
			memcpy(&dsz, sb.buf + i + 4, 4);
			memcpy(&type, sb.buf + i + 8, 4);
			size_t name = i + 12, desc = name + ((nsz + 3) & ~3u);

			if (desc + dsz > sb.len)
				break;
			if (type == 3 && nsz == 4 && !memcmp(sb.buf + name, "GNU", 4)) {
				for (uint32_t k = 0; k < dsz && 2 * k + 3 <= len; k++)
					snprintf(out + 2 * k, 3, "%02x", (unsigned char)sb.buf[desc + k]);
				break;
			}
			i = desc + ((dsz + 3) & ~3u);
		}
	}
	strbuf_release(&sb);
	free(p);
}

void abhost_running(struct running *r)
{
	if (host_read_line("/proc/sys/kernel/osrelease", r->release, sizeof(r->release)) < 0)
		r->release[0] = '\0';
	if (host_read_line("/proc/cmdline", r->cmdline, sizeof(r->cmdline)) < 0)
		r->cmdline[0] = '\0';
	running_build_id(r->build_id, sizeof(r->build_id));
}

int abhost_running_side(const struct campaign *c, const struct running *r)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(c->k[i].release, r->release) && !strcmp(c->k[i].cmdline, r->cmdline))
			return i;
	return -1;
}

/* A value systemd takes verbatim inside "...": no quote, backslash, specifier or control. */
static bool unit_safe(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s == 0x7f || strchr("\"\\%$", *s))
			return false;
	return true;
}

static int systemctl(const char *a, const char *b)
{
	const char *argv[] = { "systemctl", a, b, NULL };
	struct strbuf err = STRBUF_INIT;
	int rc = run_argv(argv, NULL, &err);

	if (rc)
		error("ab --host: systemctl %s%s%s failed (%d): %s", a, b ? " " : "", b ? b : "", rc,
		      strtrim(err.buf ? err.buf : (char *)""));
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/*
 * Without systemd: the hook file in the state folder, what the machine's
 * init runs when it is there (the command in a comment: nothing parses it).
 */
static int hook_file_install(const char *path, const char *exe, const char *root)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&sb, "# written by mmbench ab --host, removed at the campaign's end.\n"
		    "# This machine has no systemd: its init, once the disk of this folder is\n"
		    "# mounted, runs while this file exists:\n#   MMBENCH_STATE=%s%s%s %s ab --host "
		    "--resume\n", envctl_state_dir(), root ? " MMBENCH_HOST_ROOT=" : "",
		    root ? root : "", exe);
	if (envctl_push_undo_hook(path) < 0)
		rc = -1;
	else if (write_file_atomic_mode(path, sb.buf, sb.len, 0600) < 0)
		rc = error("ab --host: cannot write %s: %s", path, strerror(errno));
	strbuf_release(&sb);
	return rc;
}

int abhost_hook_install(void)
{
	char *unit = envctl_hook_path();
	const char *state = envctl_state_dir();
	const char *exe = exe_path(), *root = getenv("MMBENCH_HOST_ROOT");
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;

	if (root && !*root)
		root = NULL;
	if (!envctl_hook_is_unit(unit)) {
		rc = hook_file_install(unit, exe ? exe : "mmbench", root);
		goto out;
	}
	if (!exe || !unit_safe(exe) || !unit_safe(state) || (root && !unit_safe(root))) {
		error("ab --host: the mmbench path or state folder holds a character a systemd "
		      "unit cannot carry (quote, backslash, %% or $): %s, %s", exe ? exe : "?", state);
		goto out;
	}
	strbuf_addf(&sb, "# written by mmbench ab --host, removed at the campaign's end\n"
		    "[Unit]\nDescription=mmbench ab --host: resume the kernel A/B campaign\n"
		    "After=multi-user.target\n\n[Service]\nType=oneshot\nTimeoutStartSec=infinity\n"
		    "Environment=\"MMBENCH_STATE=%s\"\n", state);
	if (root)
		strbuf_addf(&sb, "Environment=\"MMBENCH_HOST_ROOT=%s\"\n", root);
	strbuf_addf(&sb, "ExecStart=\"%s\" ab --host --resume\n\n[Install]\n"
		    "WantedBy=multi-user.target\n", exe);
	/* journaled first: a crash of this boot removes it again */
	if (envctl_push_undo_hook(unit) < 0)
		goto out;
	if (write_file_atomic_mode(unit, sb.buf, sb.len, 0644) < 0) {
		error("ab --host: cannot write %s: %s", unit, strerror(errno));
		goto out;
	}
	if (systemctl("daemon-reload", NULL) || systemctl("enable", ENVCTL_HOOK_UNIT))
		goto out;
	rc = 0;
out:
	strbuf_release(&sb);
	free(unit);
	return rc;
}

static int run_tool(const char *const *argv)
{
	struct strbuf err = STRBUF_INIT;
	int rc = run_argv(argv, NULL, &err);

	if (rc)
		error("ab --host: %s %s failed (%d): %s", argv[0], argv[1], rc,
		      strtrim(err.buf ? err.buf : (char *)""));
	strbuf_release(&err);
	return rc ? -1 : 0;
}

int abhost_boot(const struct campaign *c, int side)
{
	const struct abhost_side *k = &c->k[side];

	sync();
	if (!strcmp(c->mode, "reboot")) {
		char *opt = xasprintf("--boot-loader-entry=%s", k->entry);
		const char *grub[] = { "grub-reboot", k->entry, NULL };
		const char *sd[] = { "systemctl", "reboot", opt, NULL };
		/* one-shot either way: grub's next_entry, or systemd-boot's LoaderEntryOneShot */
		char *g = path_lookup("grub-reboot");
		int rc = g ? run_tool(grub) || systemctl("reboot", NULL) : run_tool(sd);

		free(g);
		free(opt);
		return rc ? -1 : error("ab --host: the reboot into %s returned", k->label);
	}
	char *cmd = xasprintf("--command-line=%s", k->cmdline);
	char *initrd = k->initrd ? xasprintf("--initrd=%s", k->initrd) : NULL;
	const char *load[] = { "kexec", "-l", k->image, cmd, initrd, NULL };
	const char *exec[] = { "kexec", "-e", NULL };
	int rc = run_tool(load);

	free(cmd);
	free(initrd);
	if (rc)
		return -1;
	run_tool(exec);
	return error("ab --host: kexec -e into %s returned", k->label);
}

void abhost_reboot_default(void)
{
	char *hook = envctl_hook_path();
	/* no systemd to stop the services: the disks synced, then reboot(2) */
	const char *argv[] = { "reboot", "-f", NULL };

	info("ab --host: rebooting to the machine's default kernel");
	sync();
	if (envctl_hook_is_unit(hook))
		systemctl("reboot", NULL);
	else
		run_tool(argv);
	free(hook);
}

static bool has_panic_timeout(const char *cmdline)
{
	for (const char *p = cmdline; (p = strstr(p, "panic=")); p += 6)
		if ((p == cmdline || p[-1] == ' ') && atoi(p + 6) > 0)
			return true;
	return false;
}

int abhost_safety(bool console, const char *const *cmdlines, size_t n)
{
	char *wd = host_path("/dev/watchdog");
	bool watchdog = access(wd, F_OK) == 0, panic = true;

	free(wd);
	for (size_t i = 0; i < n; i++)
		panic &= has_panic_timeout(cmdlines[i]);
	if (console || watchdog || panic)
		return 0;
	return error("ab --host: no way back from a kernel that hangs: give --i-have-console "
		     "(you can reach this machine's console), or have a watchdog device "
		     "(/dev/watchdog), or put panic=N (N > 0) on every cmdline (the running "
		     "one and both kernels')");
}
