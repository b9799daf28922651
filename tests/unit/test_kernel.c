/*
 * Kernel builds and VMs without building or booting anything: fragment
 * parsing and verification against a resolved .config, `kernel build`
 * argument handling, cache keys, labels, the QEMU command line for KVM and
 * TCG, the cpio writer, and the guest -> host result stream (a guest's
 * stream sink merged record by record into a host DB, also when cut
 * mid-iteration).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db-internal.h"	/* the tests look inside with SQL */
#include "ab.h"
#include "db.h"
#include "initramfs.h"
#include "kargv.h"
#include "capture.h"
#include "builtin.h"
#include "kbuild.h"
#include "vmrun.h"
#include "guest-stream.h"
#include "proc.h"
#include "qemu.h"
#include "sink.h"
#include "util.h"

/* ---- fragments ---- */

static void test_fragment_parse(void **state)
{
	struct kconf_reqs r = { 0 };
	char err[256] = "";
	const char *text = "# comment\n\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"str\"\n"
			   "CONFIG_D=64\nCONFIG_A=m\n  CONFIG_E=n  \n";

	(void)state;
	assert_int_equal(kconf_parse_fragment(&r, "f.config", text, err, sizeof(err)), 0);
	assert_int_equal(r.nr, 5);
	/* last assignment wins, and keeps its line */
	assert_string_equal(r.v[0].sym, "CONFIG_A");
	assert_string_equal(r.v[0].value, "m");
	assert_int_equal(r.v[0].line, 7);
	assert_string_equal(r.v[1].value, "n");
	assert_string_equal(r.v[2].value, "\"str\"");
	assert_string_equal(r.v[4].sym, "CONFIG_E");
	assert_string_equal(r.v[4].value, "n");
	kconf_reqs_release(&r);
}

static void test_fragment_errors(void **state)
{
	struct kconf_reqs r = { 0 };
	char err[256] = "";

	(void)state;
	assert_int_equal(kconf_parse_fragment(&r, "f.config", "CONFIG_A=y\nFOO=y\n", err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "f.config:2:1"));
	kconf_reqs_release(&r);
	assert_int_equal(kconf_parse_fragment(&r, "g.config", "CONFIG_A\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "g.config:1:"));
	assert_non_null(strstr(err, "CONFIG_NAME=VALUE"));
	kconf_reqs_release(&r);
	assert_int_equal(kconf_parse_fragment(&r, "h.config", "CONFIG_A=\n", err, sizeof(err)), -1);
	kconf_reqs_release(&r);
	assert_int_equal(kconf_parse_fragment(&r, "i", "# CONFIG_X-Y is not set\n", err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "i:1"));
	kconf_reqs_release(&r);
}

static void test_verify(void **state)
{
	struct kconf_reqs r = { 0 };
	struct strbuf rep = STRBUF_INIT;
	char err[256];
	const char *resolved = "CONFIG_A=y\nCONFIG_NR_CPUS=64\n# CONFIG_NFS_FS is not set\n"
			       "CONFIG_DEBUG_VM=y\nCONFIG_S=\"x\"\n";
	const char *frag = "CONFIG_A=y\nCONFIG_NR_CPUS=64\nCONFIG_NFS_FS=y\n"
			   "# CONFIG_DEBUG_VM is not set\n# CONFIG_GONE is not set\n"
			   "CONFIG_NR_CPUS_X=8\nCONFIG_S=\"x\"\n";
	char *v;

	(void)state;
	assert_int_equal(kconf_parse_fragment(&r, "frag", frag, err, sizeof(err)), 0);
	assert_int_equal(kconf_verify(&r, resolved, &rep, NULL), 3);
	assert_non_null(strstr(rep.buf, "CONFIG_NFS_FS=y (frag:3): resolved to not set"));
	assert_non_null(strstr(rep.buf, "# CONFIG_DEBUG_VM is not set (frag:4): resolved to CONFIG_DEBUG_VM=y"));
	assert_non_null(strstr(rep.buf, "CONFIG_NR_CPUS_X=8 (frag:6)"));
	assert_null(strstr(rep.buf, "CONFIG_GONE"));	/* absent = not set: fine */
	assert_null(strstr(rep.buf, "CONFIG_A="));
	strbuf_reset(&rep);
	kconf_reqs_release(&r);
	/* after "# mmbench: optional": a drop is a note, not counted */
	{
		struct strbuf notes = STRBUF_INIT;

		assert_int_equal(kconf_parse_fragment(&r, "opt", "CONFIG_NFS_FS=y\n"
						      "# mmbench: optional\nCONFIG_GONE=y\n",
						      err, sizeof(err)), 0);
		assert_int_equal(kconf_verify(&r, resolved, &rep, &notes), 1);
		assert_non_null(strstr(rep.buf, "CONFIG_NFS_FS=y (opt:1)"));
		assert_null(strstr(rep.buf, "CONFIG_GONE"));
		assert_non_null(strstr(notes.buf, "CONFIG_GONE=y (opt:3): resolved to not set"));
		assert_int_equal(kconf_verify(&r, resolved, &rep, NULL), 1);
		strbuf_release(&notes);
	}
	/* a prefix of another symbol is not that symbol */
	v = kconf_lookup(resolved, "CONFIG_NR_CPU");
	assert_string_equal(v, "n");
	free(v);
	v = kconf_lookup(resolved, "CONFIG_NR_CPUS");
	assert_string_equal(v, "64");
	free(v);
	strbuf_release(&rep);
	kconf_reqs_release(&r);
}

/* The shipped fragments parse. */
static void test_shipped_fragments(void **state)
{
	const char *files[] = { "configs/kernel/mmbench.config", "configs/kernel/benchmark.config" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct kconf_reqs r = { 0 };
		struct strbuf sb = STRBUF_INIT;
		char err[256];

		assert_int_equal(strbuf_read_file(&sb, files[i]), 0);
		assert_int_equal(kconf_parse_fragment(&r, files[i], sb.buf, err, sizeof(err)), 0);
		assert_true(r.nr > 10);
		kconf_reqs_release(&r);
		strbuf_release(&sb);
	}
}

/* ---- arguments ---- */

/* kernel_build_parse_args() on args; what it said on stderr into err */
static int parse(const char *const *args, struct kbuild_opts *o, char *err, size_t len)
{
	static char *argv[32];	/* o's strings point into it */
	struct capture c;
	int argc = 0, ret;
	char *said;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	kbuild_opts_init(o);
	capture_begin(&c);
	ret = kernel_build_parse_args(o, argc, argv);
	said = capture_end(&c);
	snprintf(err, len, "%s", said);
	free(said);
	return ret;
}

static void test_build_args(void **state)
{
	struct kbuild_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", "--ref=v6.12",
		"--patch", "a.patch", "--patch", "b..c", "--config", "x.config",
		"--base-config", "tinyconfig", "--name", "base", "-j", "3", NULL }, &o, err,
		sizeof(err)), 0);
	assert_string_equal(o.tree, "/t");
	assert_string_equal(o.ref, "v6.12");
	assert_int_equal(o.npatches, 2);
	assert_string_equal(o.patches[1], "b..c");
	assert_int_equal(o.nfragments, 1);
	assert_string_equal(o.base_config, "tinyconfig");
	assert_int_equal(o.jobs, 3);
	kbuild_opts_release(&o);

	/* defaults */
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", "--name", "x", NULL },
			       &o, err, sizeof(err)), 0);
	assert_string_equal(o.ref, "HEAD");
	assert_string_equal(o.base_config, "defconfig");
	kbuild_opts_release(&o);

	assert_int_equal(parse((const char *[]){ "build", "--name", "x", NULL }, &o, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--tree"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", NULL }, &o, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--name"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", "--name", "a/b", NULL },
			       &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'/'"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", "--name", "x",
		"--base-config", "/no/such/file", NULL }, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--base-config '/no/such/file'"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree", "/t", "--name", "x",
		"--jobs", "0", NULL }, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--jobs '0'"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree", NULL }, &o, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "option --tree needs a value"));
	kbuild_opts_release(&o);
	/* the next option is not taken as the value; --opt=VALUE still can start with '-' */
	assert_int_equal(parse((const char *[]){ "build", "--tree", "--name", "x", NULL }, &o, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "option --tree needs a value ('--name' is an option"));
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--tree=-t", "--name", "x", NULL }, &o,
			       err, sizeof(err)), 0);
	assert_string_equal(o.tree, "-t");
	kbuild_opts_release(&o);
	assert_int_equal(parse((const char *[]){ "build", "--bogus", NULL }, &o, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown option '--bogus'"));
	kbuild_opts_release(&o);
}

static void test_ab_args(void **state)
{
	struct ab_opts o;
	char *argv[] = { "ab", "--tree", "/t", "--base", "v1", "--patch", "p", "--rounds", "4",
			 "--cpus", "2", "--mem", "1G", "--accel", "tcg", "--no-plots", "x.yaml",
			 NULL };

	(void)state;
	ab_opts_init(&o);
	assert_int_equal(ab_parse_args(&o, 17, argv), 0);
	/* the build options are kernel build's own */
	assert_string_equal(o.build.tree, "/t");
	assert_string_equal(o.build.ref, "v1");
	assert_int_equal(o.build.npatches, 1);
	assert_string_equal(o.build.patches[0], "p");
	assert_string_equal(o.build.base_config, "defconfig");
	assert_int_equal(o.rounds, 4);
	assert_int_equal(o.vm.cpus, 2);
	assert_int_equal(o.vm.mem_bytes, 1ull << 30);
	assert_int_equal(o.vm.accel, ACCEL_TCG);
	assert_true(o.no_plots);
	assert_string_equal(o.experiment, "x.yaml");
	ab_opts_release(&o);

	{
		char *bad[] = { "ab", "--tree", "/t", "x.yaml", NULL };	/* no series */

		ab_opts_init(&o);
		assert_int_equal(ab_parse_args(&o, 4, bad), -1);
		ab_opts_release(&o);
	}
	{
		char *bad[] = { "ab", "--tree", "/t", "--patch", "p", "--accel", "hvf", "x.yaml", NULL };

		ab_opts_init(&o);
		assert_int_equal(ab_parse_args(&o, 8, bad), -1);
		ab_opts_release(&o);
	}
}

/* ---- cache keys and labels ---- */

static void test_cache_key(void **state)
{
	const char *p1[] = { "aaa", "bbb" }, *p2[] = { "bbb", "aaa" };
	char k1[65], k2[65], k3[65], k4[65], k5[65], k6[65];

	(void)state;
	kbuild_cache_key("c0ffee", p1, 2, "cfg", "gcc 12", "x86_64", k1);
	kbuild_cache_key("c0ffee", p1, 2, "cfg", "gcc 12", "x86_64", k2);
	assert_string_equal(k1, k2);		/* deterministic */
	assert_int_equal(strlen(k1), 64);
	kbuild_cache_key("c0ffee", p2, 2, "cfg", "gcc 12", "x86_64", k3);
	assert_string_not_equal(k1, k3);	/* order of the series matters */
	kbuild_cache_key("c0ffee", p1, 1, "cfg", "gcc 12", "x86_64", k4);
	assert_string_not_equal(k1, k4);
	kbuild_cache_key("c0ffee", p1, 2, "cfg2", "gcc 12", "x86_64", k5);
	assert_string_not_equal(k1, k5);
	kbuild_cache_key("c0ffee", p1, 2, "cfg", "gcc 13", "x86_64", k6);
	assert_string_not_equal(k1, k6);
	kbuild_cache_key("deadbeef", p1, 2, "cfg", "gcc 12", "x86_64", k6);
	assert_string_not_equal(k1, k6);
	kbuild_cache_key("c0ffee", p1, 2, "cfg", "gcc 12", "arm64", k6);
	assert_string_not_equal(k1, k6);	/* the arch is in the key */
}

static void test_labels(void **state)
{
	char err[256];
	char *l;

	(void)state;
	l = kbuild_label_from_text("mm/mmap: slow down brk() with a busy-wait", 60);
	assert_string_equal(l, "mm-mmap-slow-down-brk-with-a-busy-wait");
	assert_int_equal(kbuild_label_valid(l, err, sizeof(err)), 0);
	free(l);
	l = kbuild_label_from_text("  ...  ", 60);
	assert_string_equal(l, "patched");
	free(l);
	l = kbuild_label_from_text("abcdefghij", 4);
	assert_string_equal(l, "abcd");
	free(l);
	assert_int_equal(kbuild_label_valid("-x", err, sizeof(err)), -1);
	assert_int_equal(kbuild_label_valid("a b", err, sizeof(err)), -1);
	assert_int_equal(kbuild_label_valid("6.12+fix@v2", err, sizeof(err)), 0);
}

/* A cache with a label pointing at a build; list and rm. */
static void test_cache_entries(void **state)
{
	char tmpl[] = "/tmp/mmb-kcache-XXXXXX";
	char *dir = mkdtemp(tmpl), *p;
	struct kernel_entry e;
	size_t n;
	char **labels;

	(void)state;
	assert_non_null(dir);
	p = xasprintf("%s/kernels/abc", dir);
	assert_int_equal(mkdir_p(p, 0755), 0);
	free(p);
	p = xasprintf("%s/kernels/abc/meta", dir);
	assert_int_equal(write_file_atomic(p, "key=abc\nrelease=6.12.0-mmbabc\nbase_commit=c0\n"
					   "patches=[]\nbuilt=1700000000\n", 66), 0);
	free(p);
	p = xasprintf("%s/labels", dir);
	mkdir_p(p, 0755);
	free(p);
	p = xasprintf("%s/labels/one", dir);
	assert_int_equal(symlink("../kernels/abc", p), 0);
	free(p);
	p = xasprintf("%s/labels/two", dir);
	assert_int_equal(symlink("../kernels/abc", p), 0);
	free(p);

	assert_int_equal(kbuild_find(dir, "one", &e), 0);
	assert_string_equal(e.key, "abc");
	assert_string_equal(e.release, "6.12.0-mmbabc");
	assert_non_null(strstr(e.bzimage, "/kernels/abc/bzImage"));
	kernel_entry_release(&e);
	assert_int_equal(kbuild_find(dir, "nope", &e), -1);

	labels = kbuild_labels(dir, &n);
	assert_int_equal(n, 2);
	assert_string_equal(labels[0], "one");
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);

	/* removing one label keeps the build the other still names */
	assert_int_equal(kbuild_remove(dir, "one"), 0);
	p = xasprintf("%s/kernels/abc/meta", dir);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(kbuild_remove(dir, "two"), 0);
	assert_int_equal(access(p, F_OK), -1);
	free(p);
	assert_int_equal(kbuild_remove(dir, "two"), -2);
	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		run_argv(argv, NULL, NULL);
	}
}

/* ---- QEMU ---- */

static const char *after(const struct kargv *a, const char *opt)
{
	int i = kargv_find(a, opt);

	return i >= 0 && (size_t)i + 1 < a->nr ? a->v[i + 1] : NULL;
}

/* arm64: qemu-system-aarch64 -machine virt -cpu max, PL011 console, virtio-serial on PCI */
static void test_qemu_argv_arm64(void **state)
{
	struct qemu_opts q = {
		.arch = karch_find("arm64"), .kernel = "/k/Image", .initrd = "/r/initrd.cpio",
		.console_log = "/r/console.log", .result_file = "/r/results.stream",
		.accel = ACCEL_TCG, .cpus = 4, .mem_bytes = 1ull << 30,
	};
	struct kargv a = KARGV_INIT;
	enum accel acc = ACCEL_AUTO;

	(void)state;
	assert_non_null(q.arch);
	assert_null(karch_find("aarch64"));	/* the kernel's name, not uname's */
	assert_null(karch_find(NULL));
	qemu_build_argv(&q, &a);
	assert_string_equal(a.v[0], "qemu-system-aarch64");
	assert_string_equal(after(&a, "-machine"), "virt");
	assert_string_equal(after(&a, "-cpu"), "max");
	assert_string_equal(after(&a, "-accel"), "tcg,thread=multi");
	assert_string_equal(after(&a, "-smp"), "4");
	assert_string_equal(after(&a, "-kernel"), "/k/Image");
	assert_true(kargv_find(&a, "virtio-serial-pci") > 0);
	assert_non_null(strstr(after(&a, "-append"), "console=ttyAMA0 earlycon=pl011,0x09000000 "));
	assert_null(strstr(after(&a, "-append"), "ttyS0"));
	assert_null(strstr(after(&a, "-append"), "tsc="));	/* x86's only */
	assert_string_equal(qemu_machine(&q), "virt");
	kargv_release(&a);

	/* the virtual clock and --machine microvm (x86's): still virt, on PCI */
	q.clock = VM_CLOCK_VIRTUAL;
	q.machine = VM_MACHINE_MICROVM;
	qemu_build_argv(&q, &a);
	assert_string_equal(after(&a, "-machine"), "virt");
	assert_string_equal(after(&a, "-icount"), "shift=3,sleep=off,align=off");
	assert_true(kargv_find(&a, "virtio-serial-pci") > 0);
	kargv_release(&a);

	/* a guest of another arch: TCG only; q35/microvm are x86_64's */
	if (!karch_native(q.arch)) {
		assert_int_equal(vm_arch_check(q.arch, &acc, VM_MACHINE_AUTO), 0);
		assert_int_equal(acc, ACCEL_TCG);
		acc = ACCEL_KVM;
		assert_int_equal(vm_arch_check(q.arch, &acc, VM_MACHINE_AUTO), -1);
	}
	acc = ACCEL_TCG;
	assert_int_equal(vm_arch_check(q.arch, &acc, VM_MACHINE_Q35), -1);
	assert_int_equal(vm_arch_check(karch_find("x86_64"), &acc, VM_MACHINE_Q35), 0);
}

static void test_qemu_argv(void **state)
{
	struct qemu_opts q = {
		.kernel = "/k/bzImage", .initrd = "/r/initrd.cpio", .console_log = "/r/console.log",
		.result_file = "/r,x/results.stream", .accel = ACCEL_TCG, .cpus = 2,
		.mem_bytes = 2ull << 30,
	};
	struct kargv a = KARGV_INIT;
	enum accel acc;

	(void)state;
	qemu_build_argv(&q, &a);
	assert_string_equal(a.v[0], "qemu-system-x86_64");
	assert_null(a.v[a.nr]);
	assert_true(kargv_find(&a, "-no-reboot") > 0);
	assert_true(kargv_find(&a, "-nodefaults") > 0);
	assert_string_equal(after(&a, "-accel"), "tcg,thread=multi");
	assert_string_equal(after(&a, "-cpu"), "max");
	assert_string_equal(after(&a, "-machine"), "q35");
	assert_string_equal(after(&a, "-smp"), "2");
	assert_string_equal(after(&a, "-m"), "2048M");
	assert_string_equal(after(&a, "-kernel"), "/k/bzImage");
	assert_string_equal(after(&a, "-initrd"), "/r/initrd.cpio");
	assert_string_equal(after(&a, "-serial"), "file:/r/console.log");
	/* commas in paths are doubled for QEMU's option parser */
	assert_string_equal(after(&a, "-chardev"), "file,id=mmbres,path=/r,,x/results.stream");
	assert_true(kargv_find(&a, "virtserialport,chardev=mmbres,name=mmbench.results") > 0);
	assert_non_null(strstr(after(&a, "-append"), "panic=-1"));
	assert_non_null(strstr(after(&a, "-append"), "oops=panic"));
	assert_non_null(strstr(after(&a, "-append"), "console=ttyS0"));
	assert_non_null(strstr(after(&a, "-append"), "rdinit=/init"));
	kargv_release(&a);

	q.accel = ACCEL_KVM;
	q.cpus = 4;
	q.qemu = "/opt/qemu";
	q.extra_append = "foo=1";
	qemu_build_argv(&q, &a);
	assert_string_equal(a.v[0], "/opt/qemu");
	assert_string_equal(after(&a, "-machine"), "q35");
	assert_string_equal(after(&a, "-accel"), "kvm");
	assert_string_equal(after(&a, "-cpu"), "host");
	assert_int_equal(kargv_find(&a, "-icount"), -1);
	assert_string_equal(after(&a, "-smp"), "4");
	assert_non_null(strstr(after(&a, "-append"), " foo=1"));
	kargv_release(&a);

	/* the virtual clock: one TCG thread counting instructions; microvm's MMIO port */
	q.accel = ACCEL_TCG;
	q.clock = VM_CLOCK_VIRTUAL;
	q.machine = VM_MACHINE_MICROVM;
	qemu_build_argv(&q, &a);
	assert_string_equal(after(&a, "-machine"), "microvm");
	assert_string_equal(after(&a, "-accel"), "tcg,thread=single");
	assert_string_equal(after(&a, "-icount"), "shift=3,sleep=off,align=off");
	assert_true(kargv_find(&a, "virtio-serial-device") > 0);
	assert_int_equal(kargv_find(&a, "virtio-serial-pci"), -1);
	kargv_release(&a);
	assert_string_equal(accel_record_name(ACCEL_TCG, VM_CLOCK_VIRTUAL), "tcg-icount");
	assert_string_equal(accel_record_name(ACCEL_TCG, VM_CLOCK_REAL), "tcg");
	assert_int_equal(clock_parse("virtual", &(enum vm_clock){ 0 }), 0);
	assert_int_equal(clock_parse("icount", &(enum vm_clock){ 0 }), -1);

	assert_int_equal(accel_parse("auto", &acc), 0);
	assert_int_equal(acc, ACCEL_AUTO);
	assert_int_equal(accel_parse("kvm", &acc), 0);
	assert_int_equal(acc, ACCEL_KVM);
	assert_int_equal(accel_parse("tcg", &acc), 0);
	assert_int_equal(acc, ACCEL_TCG);
	assert_int_equal(accel_parse("xen", &acc), -1);
	assert_string_equal(accel_name(ACCEL_TCG), "tcg");
}

/* MMBENCH_VM_APPEND reaches every boot's command line; a bad one is refused. */
static void test_qemu_env_append(void **state)
{
	struct qemu_opts q = { .kernel = "/k/bzImage", .accel = ACCEL_TCG, .cpus = 1,
			       .mem_bytes = 1ull << 30, .extra_append = "foo=1" };
	const char *bad[] = { "mmb_brk_loops=1\nx", "a\tb" };
	char *c, big[600];
	int status;
	pid_t pid;

	(void)state;
	setenv("MMBENCH_VM_APPEND", "mmb_brk_loops=250 quiet", 1);
	c = qemu_kernel_cmdline(&q);
	assert_non_null(strstr(c, " foo=1 mmb_brk_loops=250 quiet"));
	assert_true(ends_with(c, " mmb_brk_loops=250 quiet"));
	free(c);
	unsetenv("MMBENCH_VM_APPEND");
	c = qemu_kernel_cmdline(&q);
	assert_null(strstr(c, "mmb_brk_loops"));
	assert_true(ends_with(c, " foo=1"));
	free(c);

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (size_t i = 0; i <= ARRAY_SIZE(bad); i++) {
		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			freopen("/dev/null", "w", stderr);
			setenv("MMBENCH_VM_APPEND", i < ARRAY_SIZE(bad) ? bad[i] : big, 1);
			free(qemu_kernel_cmdline(&q));
			_exit(0);	/* accepted: the test fails below */
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 2);
	}
}

/* TCG on the real clock states the TSC rate; the virtual clock and KVM do not. */
static void test_qemu_tsc_khz(void **state)
{
	struct qemu_opts q = { .kernel = "/k/bzImage", .accel = ACCEL_TCG, .cpus = 2,
			       .mem_bytes = 1ull << 30, .tsc_khz = 2596000 };
	unsigned long khz;
	char *c;

	(void)state;
	c = qemu_kernel_cmdline(&q);
	assert_non_null(strstr(c, " tsc_early_khz=2596000"));
	free(c);
	q.clock = VM_CLOCK_VIRTUAL;	/* icount: the TSC counts instructions */
	c = qemu_kernel_cmdline(&q);
	assert_null(strstr(c, "tsc_early_khz"));
	free(c);
	q.clock = VM_CLOCK_REAL;
	q.accel = ACCEL_KVM;
	c = qemu_kernel_cmdline(&q);
	assert_null(strstr(c, "tsc_early_khz"));
	free(c);

	setenv("MMBENCH_VM_TSC_KHZ", "1234567", 1);
	assert_int_equal(host_tsc_khz(), 1234567);
	setenv("MMBENCH_VM_TSC_KHZ", "0", 1);
	assert_int_equal(host_tsc_khz(), 0);
	unsetenv("MMBENCH_VM_TSC_KHZ");
	khz = host_tsc_khz();
#if defined(__x86_64__)
	/* measured: whole MHz, the same every call (a campaign states one value) */
	if (khz) {
		assert_int_equal(khz % 1000, 0);
		assert_true(khz > 100000 && khz < 100000000);
	}
#else
	assert_int_equal(khz, 0);
#endif
	assert_int_equal(host_tsc_khz(), khz);
}

static void test_kvm_probe_missing(void **state)
{
	char why[256];

	(void)state;
	setenv("MMBENCH_KVM_DEV", "/nonexistent/kvm", 1);
	assert_false(kvm_usable(why, sizeof(why)));
	assert_non_null(strstr(why, "/nonexistent/kvm"));
	unsetenv("MMBENCH_KVM_DEV");
}

/* ---- cpio ---- */

static void test_cpio(void **state)
{
	char path[] = "/tmp/mmb-cpio-XXXXXX";
	int fd = mkstemp(path);
	struct cpio c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cpio_open(&c, path), 0);
	assert_int_equal(cpio_add_data(&c, "/a/b/hello", 0644, "hi\n", 3), 0);
	assert_int_equal(cpio_add_symlink(&c, "/a/link", "b/hello"), 0);
	assert_int_equal(cpio_finish(&c), 0);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	/* parents first, every header newc, names relative, 4-byte aligned, trailer */
	assert_memory_equal(sb.buf, "070701", 6);
	assert_int_equal(sb.len % 4, 0);
	assert_non_null(memmem(sb.buf, sb.len, "a/b/hello", 10));
	assert_true((char *)memmem(sb.buf, sb.len, "a\0", 2) < (char *)memmem(sb.buf, sb.len, "a/b/hello", 9));
	assert_non_null(memmem(sb.buf, sb.len, "TRAILER!!!", 10));
	assert_non_null(memmem(sb.buf, sb.len, "hi\n", 3));
	strbuf_release(&sb);
	/* cpio(1) agrees, when installed */
	if (access("/usr/bin/cpio", X_OK) == 0) {
		struct strbuf out = STRBUF_INIT;
		const char *argv[] = { "cpio", "-it", "-F", path, NULL };

		assert_int_equal(run_argv(argv, &out, &sb), 0);
		assert_non_null(strstr(out.buf, "a/b/hello"));
		assert_non_null(strstr(out.buf, "a/link"));
		strbuf_release(&out);
		strbuf_release(&sb);
	}
	unlink(path);
}

static void test_init_script(void **state)
{
	(void)state;
	/* fixed text: no run-specific value is ever substituted into it */
	char *init = initramfs_init_script(karch_find("x86_64"));

	assert_null(strchr(init, '%'));
	assert_non_null(strstr(init, "mmbench vm guest /mmbench/args"));
	assert_non_null(strstr(init, "poweroff -f"));
	assert_non_null(strstr(init, "LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:"));
	free(init);
	init = initramfs_init_script(karch_find("arm64"));
	assert_non_null(strstr(init, "LD_LIBRARY_PATH=/lib/aarch64-linux-gnu:"));
	assert_null(strstr(init, "x86_64"));
	free(init);
}

/* ---- result stream ---- */

static void test_escape_split(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *f[] = { "a\tb", NULL, "line1\nline2\\", "" };
	char **g;
	int n;

	(void)state;
	mstream_record(&sb, 'E', f, 4);
	assert_string_equal(sb.buf, "E\ta\\tb\t\\N\tline1\\nline2\\\\\t\n");
	sb.buf[--sb.len] = '\0';
	g = mstream_split(sb.buf, &n);
	assert_int_equal(n, 5);
	assert_string_equal(g[0], "E");
	assert_string_equal(g[1], "a\tb");
	assert_null(g[2]);
	assert_string_equal(g[3], "line1\nline2\\");
	assert_string_equal(g[4], "");
	mstream_fields_free(g, n);
	strbuf_release(&sb);
}

static char *tmpdb(void)
{
	char tmpl[] = "/tmp/mmb-merge-XXXXXX";
	char *d = mkdtemp(tmpl);

	return d ? xstrdup(d) : NULL;
}

static int64_t count(struct mmb_db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db->c->sql, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* What a stream sink wrote into a pipe, as the host would read it. */
static void pipe_drain(int p[2], struct strbuf *out)
{
	close(p[1]);
	assert_int_equal(strbuf_read_fd(out, p[0]), 0);
	close(p[0]);
}

/* A guest run with 3 iterations (1 warm-up) streamed into a host run. */
static void test_stream_roundtrip(void **state)
{
	char *dir = tmpdb();
	char *hpath = xasprintf("%s/host.db", dir);
	struct mmb_db h;
	struct run_info ri = { .experiment = "aim9-short", .config_text = "experiment: x\n",
			       .release = "6.12.0-mmb", .accel = "host" };
	struct strbuf s1 = STRBUF_INIT, s2 = STRBUF_INIT, hello = STRBUF_INIT;
	struct result_sink g;
	struct merge_ctx m;
	int64_t hrun;
	int p[2];

	(void)state;
	/* the guest's stream sink: the first part, then the rest after a pause */
	assert_int_equal(pipe(p), 0);
	sink_stream_init(&g, p[1]);
	assert_int_equal(sink_run(&g, &ri), 0);
	assert_int_equal(sink_env(&g, "thp.enabled", "never", "always"), 0);
	for (int i = -1; i <= 2; i++) {
		struct iteration_info it = { .workload = "aim9",
			.variant = "test=brk_test", .params = "test=brk_test testtime=1s",
			.iteration = i, .warmup = i < 0, .status = "ok", .started = 1.5,
			.elapsed = 1.0 };
		struct sample_info s[2] = {
			{ .metric = "brk_test.ops_per_sec", .unit = "ops/s", .better = 1,
			  .value = 1000.0 + i },
			{ .metric = "sys\\time", .unit = NULL, .better = -1, .seq = 1,
			  .value = 0.125 },
		};
		const char *keys[] = { "vmstat:pgfault" };
		double d[] = { 42 };
		struct iteration_record r = ITERATION_RECORD_INIT;

		if (i == 0)
			continue;
		r.it = &it;
		r.samples = s;
		r.nsamples = 2;
		r.mon_keys = keys;
		r.mon_values = d;
		r.nmon = 1;
		r.mon_source = "vmstat";
		assert_int_equal(sink_iteration(&g, &r), 0);
		if (i == 1) {
			pipe_drain(p, &s1);
			assert_int_equal(pipe(p), 0);
			g.fd = p[1];
		}
	}
	assert_int_equal(sink_finish(&g, "complete"), 0);
	pipe_drain(p, &s2);
	assert_non_null(strstr(s2.buf, "F\tcomplete\n"));
	assert_true(starts_with(s1.buf, "R\taim9-short\t"));

	/* host side */
	assert_int_equal(db_open(&h, hpath), 0);
	{
		struct kernel_info hk = { .label = "vm-kernel" };
		struct run_info hr = { .experiment = "aim9-short", .accel = "tcg" };

		hr.kernel_id = db_kernel_upsert(&h, &hk);
		hrun = db_run_begin(&h, &hr);
	}
	merge_init(&m, &h, hrun);
	{
		const char *v[] = { "mmbench-stream", "1" };
		const char *mf[] = { "2", "2000000000", "QEMU TCG CPU", "6.12.0-mmb", "#1", "x" };

		mstream_record(&hello, 'V', v, 2);
		mstream_record(&hello, 'M', mf, 6);
	}
	assert_int_equal(merge_feed(&m, hello.buf, hello.len), 0);
	/* feed byte by byte: records may arrive split anywhere */
	for (size_t i = 0; i < s1.len; i++)
		assert_int_equal(merge_feed(&m, s1.buf + i, 1), 0);
	assert_int_equal(merge_feed(&m, s2.buf, s2.len), 0);
	assert_int_equal(merge_feed(&m, "X\t0\n", 4), 0);
	assert_true(m.have_exit);
	assert_int_equal(m.exit_code, 0);
	assert_string_equal(m.guest_status, "complete");
	assert_int_equal(m.guest_ncpus, 2);
	assert_int_equal(m.iterations, 3);
	assert_int_equal(m.nsamples_total, 4);
	assert_true(m.first_sample_wall > 0);
	merge_release(&m);

	assert_int_equal(count(&h, "SELECT count(*) FROM iterations"), 3);
	assert_int_equal(count(&h, "SELECT count(*) FROM samples"), 4);	/* warm-up not sampled */
	assert_int_equal(count(&h, "SELECT count(*) FROM samples s JOIN runs r ON s.run_id = r.id"
				   " JOIN kernels k ON r.kernel_id = k.id WHERE k.label = 'vm-kernel'"),
			 4);
	assert_int_equal(count(&h, "SELECT count(*) FROM samples WHERE metric = 'sys\\time'"), 2);
	assert_int_equal(count(&h, "SELECT count(*) FROM monitors WHERE source = 'vmstat'"
				   " AND key = 'pgfault' AND delta = 42"), 3);
	assert_int_equal(count(&h, "SELECT count(*) FROM run_env WHERE key = 'thp.enabled'"
				   " AND value = 'never' AND original = 'always'"), 1);
	assert_int_equal(count(&h, "SELECT count(*) FROM runs WHERE release = '6.12.0-mmb'"
				   " AND accel = 'tcg'"), 1);
	assert_int_equal(count(&h, "SELECT count(*) FROM run_env WHERE key = 'vm.guest_ncpus'"
				   " AND value = '2'"), 1);
	assert_int_equal(count(&h, "SELECT count(*) FROM runs r JOIN machines m ON r.machine_id = m.id"
				   " WHERE m.ncpus = 2 AND m.cpu_model = 'QEMU TCG CPU'"), 1);
	db_close(&h);
	strbuf_release(&s1);
	strbuf_release(&s2);
	strbuf_release(&hello);
	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		run_argv(argv, NULL, NULL);
	}
	free(hpath);
	free(dir);
}

/* A stream cut mid-iteration (guest panic): complete iterations stay merged. */
static void test_stream_cut(void **state)
{
	char *dir = tmpdb(), *hpath = xasprintf("%s/host.db", dir);
	struct mmb_db h;
	struct merge_ctx m;
	struct kernel_info hk = { .label = "k" };
	struct run_info hr = { .experiment = "e", .accel = "tcg" };
	const char *stream =
		"V\tmmbench-stream\t1\n"
		"I\taim9\ttest=brk_test\t\\N\t1\t0\tok\t\\N\t1\t1\t1\t0\n"
		"S\tbrk_test.ops_per_sec\tops/s\t1\t0\t1234.5\n"
		"I\taim9\ttest=brk_test\t\\N\t2\t0\tok\t\\N\t1\t1\t2\t0\n"
		"S\tbrk_test.ops_per_sec\tops/s\t1\t0\t1200\n"
		"S\tbrk_te";	/* the guest died here */

	(void)state;
	assert_int_equal(db_open(&h, hpath), 0);
	hr.kernel_id = db_kernel_upsert(&h, &hk);
	merge_init(&m, &h, db_run_begin(&h, &hr));
	assert_int_equal(merge_feed(&m, stream, strlen(stream)), 0);
	assert_false(m.have_exit);
	assert_int_equal(m.iterations, 1);
	assert_int_equal(count(&h, "SELECT count(*) FROM samples WHERE value = 1234.5"), 1);
	/* garbage is refused, what merged stays */
	assert_int_equal(merge_feed(&m, "\nZ\tbad\n", 7), -1);
	assert_int_equal(count(&h, "SELECT count(*) FROM samples"), 1);
	merge_release(&m);
	db_close(&h);
	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		run_argv(argv, NULL, NULL);
	}
	free(hpath);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragment_parse),
		cmocka_unit_test(test_fragment_errors),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_shipped_fragments),
		cmocka_unit_test(test_build_args),
		cmocka_unit_test(test_ab_args),
		cmocka_unit_test(test_cache_key),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_cache_entries),
		cmocka_unit_test(test_qemu_argv),
		cmocka_unit_test(test_qemu_argv_arm64),
		cmocka_unit_test(test_qemu_env_append),
		cmocka_unit_test(test_qemu_tsc_khz),
		cmocka_unit_test(test_kvm_probe_missing),
		cmocka_unit_test(test_cpio),
		cmocka_unit_test(test_init_script),
		cmocka_unit_test(test_escape_split),
		cmocka_unit_test(test_stream_roundtrip),
		cmocka_unit_test(test_stream_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
