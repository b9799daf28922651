/*
 * Golden tests of the 0-day report parser (every table, every row) and of
 * the report -> experiment mapping.  Fixtures: tests/fixtures/reports/,
 * found under $MMBENCH_SRC (the Makefile sets it to the source tree), else
 * in the current directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "config.h"
#include "lkpreport.h"
#include "repcompare.h"
#include "reproduce.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A follow-up in the aim9 brk_test thread: five machines, three commits. */
#define SEED "aim9-followup.txt"

static char *fixture_path(const char *name)
{
	const char *src = getenv("MMBENCH_SRC");

	return xasprintf("%s/tests/fixtures/reports/%s", src ? src : ".", name);
}

static void load(const char *name, struct strbuf *sb)
{
	char *p = fixture_path(name);

	strbuf_init(sb);
	if (strbuf_read_file(sb, p) < 0)
		fail_msg("cannot read fixture %s", p);
	free(p);
}

static void parse_ok(const char *name, struct lkp_report *r)
{
	struct strbuf sb;
	char err[512];
	int rc;

	load(name, &sb);
	rc = lkpreport_parse(r, sb.buf, sb.len, err, sizeof(err));
	if (rc)
		fail_msg("%s: %s", name, err);
	strbuf_release(&sb);
}

static void parse_err(const char *data, size_t len, const char *want)
{
	struct lkp_report r;
	char err[512] = "";

	assert_int_equal(lkpreport_parse(&r, data, len, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
	assert_null(strchr(err, '\n'));		/* one line */
}

static void parse_file_err(const char *name, const char *want)
{
	struct strbuf sb;

	load(name, &sb);
	parse_err(sb.buf, sb.len, want);
	strbuf_release(&sb);
}

/* Assert one row: means, stddevs (-1 blank), changes of columns 1.. */
static void check_row(const struct lkp_table *t, size_t i, const char *metric, bool absolute,
		      const double *mean, const int *sd, const double *chg)
{
	const struct lkp_row *row;

	assert_true(i < t->nrows);
	row = &t->rows[i];
	assert_string_equal(row->metric, metric);
	assert_int_equal(row->absolute, absolute);
	for (size_t c = 0; c < t->ncommits; c++) {
		if (fabs(row->mean[c] - mean[c]) > 1e-9 * fmax(1, fabs(mean[c])))
			fail_msg("%s col %zu: mean %g, want %g", metric, c, row->mean[c], mean[c]);
		assert_int_equal(row->stddev[c], sd[c]);
		if (c > 0 && fabs(row->change[c] - chg[c]) > 1e-9)
			fail_msg("%s col %zu: change %g, want %g", metric, c, row->change[c], chg[c]);
	}
}

#define STR(s) (s), (sizeof(s) - 1)
#define D(...) ((const double[]){ __VA_ARGS__ })
#define I(...) ((const int[]){ __VA_ARGS__ })

static const char *const AIM9_KEYS =
	"compiler/cpufreq_governor/kconfig/rootfs/tbox_group/test/testcase/testtime";

static void check_seed_commits(const struct lkp_table *t)
{
	assert_int_equal(t->ncommits, 3);
	assert_string_equal(t->commits[0].sha, "fc21959f74bc11");
	assert_string_equal(t->commits[0].long_sha, "fc21959f74bc1138");
	assert_string_equal(t->commits[0].subject, "mm: abstract vma_expand() to use vma_merge_struct");
	assert_string_equal(t->commits[1].sha, "cacded5e42b960");
	assert_string_equal(t->commits[1].long_sha, "cacded5e42b9609b07b22d80c10");
	assert_string_equal(t->commits[1].subject, "mm: avoid using vma_merge() for new VMAs");
	assert_string_equal(t->commits[2].sha, "9cecc5dc893886");
	assert_string_equal(t->commits[2].long_sha, "9cecc5dc89388676d1d0d47461c");
	assert_string_equal(t->commits[2].subject,
			    "mm: add expand-only VMA merge mode and optimise do_brk_flags()");
}

/* The follow-up: five tables, one row each, three commit columns. */
static void check_seed(const struct lkp_report *rp)
{
	static const struct {
		const char *model, *tbox;
		int nr_cpu;
		double base, c1, new1, c2, new2;
	} want[] = {
		{ "model: Granite Rapids nr_node: 1 nr_cpu: 240 memory: 192G", "lkp-gnr-1ap1", 240,
		  3220697, -6.0, 3028867, -2.0, 3156931 },
		{ "model: Emerald Rapids nr_node: 4 nr_cpu: 256 memory: 256G brand: INTEL(R) XEON(R) PLATINUM 8592+",
		  "lkp-emr-2sp1", 256, 3669298, -6.5, 3430070, -2.7, 3571699 },
		{ "model: Sapphire Rapids nr_node: 2 nr_cpu: 224 memory: 512G brand: Intel(R) Xeon(R) Platinum 8480CTDX",
		  "lkp-spr-2sp4", 224, 3540976, -6.4, 3314159, -2.6, 3449384 },
		{ "model: Ice Lake nr_node: 2 nr_cpu: 64 memory: 256G brand: Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz",
		  "lkp-icl-2sp9", 64, 2667734, -5.6, 2518021, -1.0, 2640850 },
		{ "test machine: 48 threads 2 sockets Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz (Ivy Bridge-EP) with 64G memory",
		  "lkp-ivb-2ep2", 48, 1322908, -5.0, 1256536, -1.6, 1301387 },
	};
	const struct lkp_report r = *rp;

	assert_string_equal(r.testcase, "aim9");
	assert_int_equal(r.ntables, 5);
	for (size_t i = 0; i < 5; i++) {
		const struct lkp_table *t = &r.tables[i];

		assert_string_equal(t->model, want[i].model);
		assert_int_equal(t->nr_cpu, want[i].nr_cpu);
		assert_string_equal(t->axes_keys, AIM9_KEYS);
		assert_int_equal(t->naxes, 8);
		assert_string_equal(lkp_table_axis(t, "compiler"), "gcc-12");
		assert_string_equal(lkp_table_axis(t, "cpufreq_governor"), "performance");
		assert_string_equal(lkp_table_axis(t, "kconfig"), "x86_64-rhel-8.3");
		assert_string_equal(lkp_table_axis(t, "rootfs"), "debian-12-x86_64-20240206.cgz");
		assert_string_equal(lkp_table_axis(t, "tbox_group"), want[i].tbox);
		assert_string_equal(lkp_table_axis(t, "test"), "brk_test");
		assert_string_equal(lkp_table_axis(t, "testcase"), "aim9");
		assert_string_equal(lkp_table_axis(t, "testtime"), "300s");
		check_seed_commits(t);
		assert_int_equal(t->nrows, 1);
		check_row(t, 0, "aim9.brk_test.ops_per_sec", false,
			  D(want[i].base, want[i].new1, want[i].new2), I(-1, -1, -1),
			  D(0, want[i].c1, want[i].c2));
	}
	/* the original machine's table is the one the verdict uses */
	assert_ptr_equal(lkp_report_main_table(&r), &r.tables[4]);
	assert_string_equal(r.headline_metric, "aim9.brk_test.ops_per_sec");
	assert_true(r.headline_from_table);
	assert_true(fabs(r.headline_change + 5.0) < 1e-9);
	assert_int_equal(r.direction, -1);
	assert_string_equal(r.test_machine,
			    "48 threads 2 sockets Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz (Ivy Bridge-EP) with 64G memory");
	assert_int_equal(r.nr_cpu, 48);
	assert_true(r.params_from_axes);
	assert_int_equal(r.nparams, 3);
	assert_string_equal(lkp_report_param(&r, "cpufreq_governor"), "performance");
	assert_string_equal(lkp_report_param(&r, "test"), "brk_test");
	assert_string_equal(lkp_report_param(&r, "testtime"), "300s");
	assert_null(r.materials_url);
}

/* As written, and collapsed onto one line the way some mail archives keep it. */
static void test_seed(void **state)
{
	struct lkp_report r;
	struct strbuf sb, one = STRBUF_INIT;
	char err[512];

	(void)state;
	parse_ok(SEED, &r);
	check_seed(&r);
	lkp_report_release(&r);

	load(SEED, &sb);
	for (size_t i = 0; i < sb.len; i++) {
		if (!isspace((unsigned char)sb.buf[i]))
			strbuf_addch(&one, sb.buf[i]);
		else if (one.len && one.buf[one.len - 1] != ' ')
			strbuf_addch(&one, ' ');
	}
	assert_null(memchr(one.buf, '\n', one.len));
	if (lkpreport_parse(&r, one.buf, one.len, err, sizeof(err)))
		fail_msg("collapsed %s: %s", SEED, err);
	check_seed(&r);
	lkp_report_release(&r);
	strbuf_release(&one);
	strbuf_release(&sb);
}

static void check_aim9_report(const struct lkp_report *r)
{
	const struct lkp_table *t;

	assert_string_equal(r->testcase, "aim9");
	assert_string_equal(r->test_machine,
			    "48 threads 2 sockets Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz (Ivy Bridge-EP) with 64G memory");
	assert_int_equal(r->nr_cpu, 48);
	assert_string_equal(r->headline_metric, "aim9.brk_test.ops_per_sec");
	assert_true(fabs(r->headline_change + 5.0) < 1e-9);
	assert_false(r->headline_absolute);
	assert_false(r->headline_from_table);
	assert_int_equal(r->direction, -1);
	assert_string_equal(r->commit_sha, "cacded5e42b9609b07b22d80c10f0076d439f7d1");
	assert_string_equal(r->commit_subject, "mm: avoid using vma_merge() for new VMAs");
	assert_false(r->params_from_axes);
	assert_int_equal(r->nparams, 3);
	assert_string_equal(r->params[0].key, "testtime");
	assert_string_equal(r->params[0].value, "300s");
	assert_string_equal(r->params[1].key, "test");
	assert_string_equal(r->params[1].value, "brk_test");
	assert_string_equal(r->params[2].key, "cpufreq_governor");
	assert_string_equal(r->params[2].value, "performance");
	assert_string_equal(r->materials_url,
			    "https://download.01.org/0day-ci/archive/20240930/202409301043.629bea78-oliver.sang@intel.com");
	assert_int_equal(r->ntables, 1);
	t = &r->tables[0];
	assert_null(t->model);
	assert_string_equal(t->axes_keys, AIM9_KEYS);
	assert_string_equal(t->axes_values,
			    "gcc-12/performance/x86_64-rhel-8.3/debian-12-x86_64-20240206.cgz/lkp-ivb-2ep2/brk_test/aim9/300s");
	assert_int_equal(t->ncommits, 2);
	assert_string_equal(t->commits[0].sha, "fc21959f74");
	assert_string_equal(t->commits[0].long_sha, "fc21959f74bc1138");
	assert_string_equal(t->commits[1].sha, "cacded5e42");
	/* the top "commit:" line gives the full sha */
	assert_string_equal(t->commits[1].long_sha, "cacded5e42b9609b07b22d80c10f0076d439f7d1");
	assert_string_equal(t->commits[1].subject, "mm: avoid using vma_merge() for new VMAs");
	assert_int_equal(t->nfail_rows, 1);
	assert_int_equal(t->nrows, 9);
	check_row(t, 0, "aim9.brk_test.ops_per_sec", false, D(1322908, 1256536), I(-1, -1), D(0, -5.0));
	check_row(t, 1, "aim9.time.system_time", false, D(201.54, 207.44), I(-1, -1), D(0, 2.9));
	check_row(t, 2, "aim9.time.user_time", false, D(97.70, 91.84), I(-1, -1), D(0, -6.0));
	check_row(t, 3,
		  "perf-sched.sch_delay.avg.ms.__cond_resched.down_write.vma_prepare.vma_expand.vma_merge_new_range",
		  false, D(0.04, 0.00), I(82, -1), D(0, -100.0));
	check_row(t, 4, "perf-stat.i.branch-instructions", false, D(8.33e+08, 8.654e+08), I(-1, -1),
		  D(0, 3.9));
	check_row(t, 5, "perf-stat.i.branch-miss-rate%", true, D(1.15, 1.09), I(-1, -1), D(0, -0.1));
	check_row(t, 6, "mpstat.cpu.all.soft%", true, D(0.21, 0.22), I(3, 2), D(0, 0.0));
	check_row(t, 7, "perf-profile.calltrace.cycles-pp.entry_SYSCALL_64_after_hwframe.__x64_sys_brk",
		  true, D(7.16, 6.76), I(2, 4), D(0, -0.4));
	check_row(t, 8, "proc-vmstat.pgfault", false, D(30.12, 34.73), I(12, 10), D(0, 15.3));
	assert_ptr_equal(lkp_table_row(t, "mpstat.cpu.all.soft%"), &t->rows[6]);
	assert_null(lkp_table_row(t, "nope"));
}

/* The original report (UTF-8 ±) and every mangled form of it. */
static void test_aim9_report_and_variants(void **state)
{
	static const char *const files[] = {
		"aim9-report.txt", "quoted.txt", "rewrapped.txt", "collapsed.txt", "latin1.txt",
		"mangled-aogonek.txt", "mangled-acirc.txt", "crlf.txt", "raw-qp.eml", "raw-base64.eml",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct lkp_report r;

		print_message("  %s\n", files[i]);
		parse_ok(files[i], &r);
		check_aim9_report(&r);
		lkp_report_release(&r);
	}
}

/* The base64 multipart mail with CRLF line ends, as saved from some clients. */
static void test_base64_crlf(void **state)
{
	struct strbuf src, out;
	struct lkp_report r;
	char err[512];

	(void)state;
	load("raw-base64.eml", &src);
	strbuf_init(&out);
	for (size_t i = 0; i < src.len; i++) {
		if (src.buf[i] == '\n')
			strbuf_addch(&out, '\r');
		strbuf_addch(&out, src.buf[i]);
	}
	if (lkpreport_parse(&r, out.buf, out.len, err, sizeof(err)))
		fail_msg("CRLF base64 mail: %s", err);
	check_aim9_report(&r);
	lkp_report_release(&r);
	strbuf_release(&out);
	strbuf_release(&src);
}

/* In-memory manglings on top of the files: 3 quote levels, tabs, ">>>". */
static void test_aim9_in_memory_variants(void **state)
{
	struct strbuf src, out;
	const char *prefixes[] = { "> > > ", ">>> ", "\t", "> >\t" };

	(void)state;
	load("latin1.txt", &src);
	for (size_t k = 0; k < ARRAY_SIZE(prefixes); k++) {
		struct lkp_report r;
		char err[512];
		const char *p = src.buf;

		strbuf_init(&out);
		strbuf_addstr(&out, "Some reply text on top.\n\n");
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			strbuf_addstr(&out, prefixes[k]);
			strbuf_add(&out, p, n);
			strbuf_addch(&out, '\n');
			p += n + (nl ? 1 : 0);
		}
		if (lkpreport_parse(&r, out.buf, out.len, err, sizeof(err)))
			fail_msg("prefix '%s': %s", prefixes[k], err);
		check_aim9_report(&r);
		lkp_report_release(&r);
		strbuf_release(&out);
	}
	strbuf_release(&src);
}

static void check_multi(const struct lkp_report *r)
{
	const struct lkp_table *t;

	assert_int_equal(r->ntables, 2);
	t = &r->tables[0];
	assert_string_equal(t->model, "model: Granite Rapids nr_node: 1 nr_cpu: 240 memory: 192G");
	check_seed_commits(t);
	assert_int_equal(t->nrows, 4);
	check_row(t, 0, "aim9.brk_test.ops_per_sec", false, D(3220697, 3028867, 3156931),
		  I(-1, -1, -1), D(0, -6.0, -2.0));
	check_row(t, 1, "aim9.time.system_time", false, D(285.12, 296.80, 287.97), I(3, 2, 11),
		  D(0, 4.1, 1.0));
	check_row(t, 2, "mpstat.cpu.all.soft%", true, D(0.52, 0.62, 0.54), I(4, 3, 5),
		  D(0, 0.1, 0.0));
	check_row(t, 3, "perf-stat.i.instructions", false, D(4.567e+10, 4.864e+10, 4.667e+10),
		  I(-1, -1, -1), D(0, 6.5, 2.2));
	t = &r->tables[1];
	assert_true(starts_with(t->model, "test machine: 48 threads"));
	assert_int_equal(t->nr_cpu, 48);
	check_seed_commits(t);
	assert_int_equal(t->nrows, 2);
	check_row(t, 0, "aim9.brk_test.ops_per_sec", false, D(1322908, 1256536, 1301387),
		  I(-1, -1, -1), D(0, -5.0, -1.6));
	check_row(t, 1, "aim9.time.system_time", false, D(201.54, 207.44, 202.95), I(-1, 3, -1),
		  D(0, 2.9, 0.7));
	assert_ptr_equal(lkp_report_main_table(r), &r->tables[1]);
	assert_string_equal(r->testcase, "aim9");
	assert_true(r->headline_from_table);
	assert_true(fabs(r->headline_change + 5.0) < 1e-9);
}

static void test_multi_commit(void **state)
{
	struct lkp_report r;

	(void)state;
	parse_ok("multi-commit.txt", &r);
	check_multi(&r);
	lkp_report_release(&r);
	parse_ok("multi-commit-quoted.txt", &r);	/* "> " + CRLF */
	check_multi(&r);
	lkp_report_release(&r);
	{
		/* the caption's model name wrapped over two lines */
		struct strbuf sb, w = STRBUF_INIT;
		char *at, err[512];

		load("multi-commit.txt", &sb);
		at = strstr(sb.buf, "for model: Granite Rapids\n");
		assert_non_null(at);
		strbuf_add(&w, sb.buf, (size_t)(at - sb.buf));
		strbuf_addstr(&w, "for model: Granite\nRapids\n");
		strbuf_addstr(&w, at + strlen("for model: Granite Rapids\n"));
		if (lkpreport_parse(&r, w.buf, w.len, err, sizeof(err)))
			fail_msg("%s", err);
		check_multi(&r);
		lkp_report_release(&r);
		strbuf_release(&w);
		strbuf_release(&sb);
	}
}

/* "s" with its first "from" replaced by "to" (the fixture must have it). */
static void replace_once(struct strbuf *s, const char *from, const char *to)
{
	char *at = strstr(s->buf, from);
	struct strbuf out = STRBUF_INIT;

	assert_non_null(at);
	strbuf_add(&out, s->buf, (size_t)(at - s->buf));
	strbuf_addstr(&out, to);
	strbuf_addstr(&out, at + strlen(from));
	strbuf_release(s);
	*s = out;
}

/*
 * An improvement mail: 0-day writes its change unsigned ("noticed a 94.7%
 * improvement of will-it-scale.per_process_ops"); the headline is that
 * sentence's metric, +94.7%, never the table's first row (issue 45 item 8).
 */
static void test_improvement_unsigned(void **state)
{
	struct lkp_report r;
	struct strbuf sb;
	char err[512];

	(void)state;
	load("wis-report.txt", &sb);
	replace_once(&sb, "noticed a -12.3% regression of", "noticed a 94.7% improvement of");
	/* a monitor first in the table: the row the fallback would take */
	replace_once(&sb, "    180342 \xc2\xb1  2%     -12.3%     158160 \xc2\xb1  3%  will-it-scale.per_process_ops\n",
		     "      4.23 \xc2\xb1  5%      -7.2%       3.93 \xc2\xb1  4%  mpstat.cpu.all.soft%\n"
		     "    180342 \xc2\xb1  2%     +94.7%     351126 \xc2\xb1  3%  will-it-scale.per_process_ops\n");
	if (lkpreport_parse(&r, sb.buf, sb.len, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(r.headline_metric, "will-it-scale.per_process_ops");
	assert_false(r.headline_from_table);
	assert_true(fabs(r.headline_change - 94.7) < 1e-9);
	assert_int_equal(r.direction, 1);
	lkp_report_release(&r);
	/* an improvement of a lower-is-better metric is a fall */
	replace_once(&sb, "noticed a 94.7% improvement of will-it-scale.per_process_ops",
		     "noticed a 30.1% improvement of will-it-scale.time.elapsed_time");
	if (lkpreport_parse(&r, sb.buf, sb.len, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(fabs(r.headline_change + 30.1) < 1e-9);
	lkp_report_release(&r);
	strbuf_release(&sb);
}

static void test_wis_report(void **state)
{
	struct lkp_report r;
	const struct lkp_table *t;

	(void)state;
	parse_ok("wis-report.txt", &r);
	assert_string_equal(r.testcase, "will-it-scale");
	assert_string_equal(r.test_machine, "104 threads 2 sockets (Skylake) with 192G memory");
	assert_int_equal(r.nr_cpu, 104);
	assert_string_equal(r.headline_metric, "will-it-scale.per_process_ops");
	assert_true(fabs(r.headline_change + 12.3) < 1e-9);
	assert_int_equal(r.direction, -1);
	assert_int_equal(r.nparams, 4);
	assert_string_equal(lkp_report_param(&r, "nr_task"), "100%");
	assert_string_equal(lkp_report_param(&r, "mode"), "process");
	assert_string_equal(lkp_report_param(&r, "test"), "page_fault2");
	assert_string_equal(lkp_report_param(&r, "cpufreq_governor"), "performance");
	assert_int_equal(r.ntables, 1);
	t = &r.tables[0];
	assert_int_equal(t->naxes, 9);
	assert_string_equal(lkp_table_axis(t, "nr_task"), "100%");
	assert_string_equal(t->commits[0].long_sha, "fedcba98765432100123");
	assert_string_equal(t->commits[1].long_sha, "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(t->nrows, 6);
	check_row(t, 0, "will-it-scale.per_process_ops", false, D(180342, 158160), I(2, 3), D(0, -12.3));
	check_row(t, 1, "will-it-scale.workload", false, D(18755648, 16448640), I(2, 3), D(0, -12.3));
	check_row(t, 2, "mpstat.cpu.all.soft%", true, D(4.23, 5.43), I(5, 4), D(0, 1.2));
	check_row(t, 3, "mpstat.cpu.all.sys%", true, D(62.10, 58.70), I(-1, -1), D(0, -3.4));
	check_row(t, 4, "proc-vmstat.pgfault", false, D(1.234e+09, 1.085e+09), I(-1, -1), D(0, -12.1));
	check_row(t, 5, "perf-profile.self.cycles-pp.clear_page_erms", true, D(45.67, 52.47), I(8, 6),
		  D(0, 6.8));
	lkp_report_release(&r);
}

static void test_missing_sections(void **state)
{
	(void)state;
	parse_file_err("missing-commit-list.txt", "missing the 'commit:' list");
	parse_file_err("missing-commit-list.txt", "table 1 (line 36)");
	parse_file_err("missing-rows.txt", "no rows after the header");
	parse_file_err("missing-table.txt", "missing comparison table");
	parse_file_err("missing-testcase.txt", "missing testcase");
	parse_err(STR("compiler/testcase:\n  gcc-12\n"), "has 2 keys but its values line 'gcc-12' has 1 values");
	parse_err(STR("compiler/testcase:\n  gcc-12/aim9\ncommit:\n  fc21959f74 (\"a\")\n"),
		  "only one commit");
	parse_err(STR("compiler/testcase:\n  gcc-12/aim9\ncommit:\n  fc21959f74 (\"a\n"),
		  "unterminated commit subject");
}

static void test_garbage(void **state)
{
	static const char bin[] = { 'E', 'L', 'F', 0, 1, 2, 3, (char)0xff };
	struct strbuf sb;
	char rnd[4096];
	unsigned int x = 12345;

	(void)state;
	parse_err(bin, sizeof(bin), "binary data (NUL byte at offset 3)");
	parse_err("", 0, "empty report");
	parse_err(STR(" \n\r\n\t \n"), "empty report");
	parse_err(STR("> \n>>\n"), "empty report");
	load("normal-mail.txt", &sb);
	parse_err(sb.buf, sb.len, "not an LKP/0-day report");
	strbuf_release(&sb);
	/* random high bytes, no NUL */
	for (size_t i = 0; i < sizeof(rnd); i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (char)((x >> 16) | 1);
	}
	parse_err(rnd, sizeof(rnd), "not an LKP/0-day report");
}

/* Every prefix of a report parses or fails cleanly (ASan watches). */
static void test_truncations(void **state)
{
	struct strbuf sb;
	size_t ok = 0;

	(void)state;
	load("multi-commit.txt", &sb);
	for (size_t n = 0; n <= sb.len; n += 7) {
		struct lkp_report r;
		char err[512] = "";

		if (lkpreport_parse(&r, sb.buf, n, err, sizeof(err)) == 0) {
			assert_true(r.ntables >= 1);
			ok++;
			lkp_report_release(&r);
		} else {
			assert_true(err[0] != '\0');
		}
	}
	assert_true(ok > 0);
	strbuf_release(&sb);
}

/* Mutated reports (bytes flipped, dropped, duplicated) never crash. */
static void test_mutations(void **state)
{
	static const char *const files[] = { "aim9-report.txt", "multi-commit.txt", "wis-report.txt" };
	static const char junk[] = { '\n', ' ', '>', '%', '-', '+', (char)0xb1, '(', '"', ')', ':', '/', '9' };
	unsigned int x = 2024;
	size_t parsed = 0, failed = 0;

	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct strbuf sb;

		load(files[f], &sb);
		for (int round = 0; round < 300; round++) {
			char *m = xmalloc(sb.len * 2 + 1);
			size_t n = 0;
			struct lkp_report r;
			char err[512] = "";

			for (size_t i = 0; i < sb.len; i++) {
				x = x * 1103515245u + 12345u;
				switch ((x >> 16) % (64u << (round % 6))) {
				case 0:		/* drop */
					break;
				case 1:		/* replace with a syntax character */
					m[n++] = junk[(x >> 8) % sizeof(junk)];
					break;
				case 2:		/* duplicate */
					m[n++] = sb.buf[i];
					m[n++] = sb.buf[i];
					break;
				default:
					m[n++] = sb.buf[i];
				}
			}
			if (lkpreport_parse(&r, m, n, err, sizeof(err)) == 0) {
				assert_true(r.ntables >= 1 && r.testcase && r.headline_metric);
				for (size_t k = 0; k < r.ntables; k++)
					assert_true(r.tables[k].nrows >= 1 && r.tables[k].ncommits >= 2);
				lkp_report_release(&r);
				parsed++;
			} else {
				assert_true(err[0] != '\0');
				assert_null(strchr(err, '\n'));
				failed++;
			}
			free(m);
		}
		strbuf_release(&sb);
	}
	print_message("  mutations: %zu parsed, %zu rejected\n", parsed, failed);
	assert_true(parsed + failed == 900);
}

/* ---------------------------------------------------------------- mapping */

static int plan_for(const char *name, int ncpus, bool cpufreq, struct repro_plan *p,
		    struct lkp_report *r, char *err, size_t errlen)
{
	struct repro_opts o = { .runs = 6, .ncpus = ncpus, .has_cpufreq = cpufreq,
				.where = "this machine" };

	parse_ok(name, r);
	return repro_plan_build(r, &o, p, err, errlen);
}

static bool has_note(const struct repro_plan *p, const char *s)
{
	for (size_t i = 0; i < p->nnotes; i++)
		if (strstr(p->notes[i], s))
			return true;
	return false;
}

static void test_plan_seed(void **state)
{
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_for(SEED, 2, true, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "aim9");
	assert_string_equal(p.metric, "brk_test.ops_per_sec");
	assert_string_equal(p.lkp_metric, "aim9.brk_test.ops_per_sec");
	assert_int_equal(p.nparams, 2);
	assert_string_equal(p.params[0].name, "test");
	assert_string_equal(p.params[0].value, "brk_test");
	assert_string_equal(p.params[1].name, "testtime");
	assert_string_equal(p.params[1].value, "300s");
	assert_string_equal(p.governor, "performance");
	assert_int_equal(p.runs, 6);
	assert_non_null(p.row);
	assert_true(fabs(p.row->change[1] + 5.0) < 1e-9);
	assert_true(fabs(p.row->change[2] + 1.6) < 1e-9);
	assert_non_null(strstr(p.yaml, "  governor: performance\n"));
	assert_non_null(strstr(p.yaml, "      test: brk_test\n"));
	assert_non_null(strstr(p.yaml, "      testtime: 300s\n"));
	assert_non_null(strstr(p.yaml, "iterations: 6\n"));
	assert_non_null(strstr(p.yaml, "  - name: aim9\n"));
	repro_plan_release(&p);
	lkp_report_release(&r);

	/* no cpufreq: governor skipped and said, kept as a comment */
	assert_int_equal(plan_for(SEED, 2, false, &p, &r, err, sizeof(err)), 0);
	assert_null(p.governor);
	assert_true(has_note(&p, "cpufreq_governor performance"));
	assert_true(has_note(&p, "skipped"));
	assert_non_null(strstr(p.yaml, "#   governor: performance    # skipped"));
	repro_plan_caveats(&p, &r, 2, "tcg");
	assert_true(has_note(&p, "48 CPUs, this one 2; aim9 runs a single task"));
	assert_true(has_note(&p, "TCG"));
	repro_plan_release(&p);
	lkp_report_release(&r);
}

static void test_plan_wis(void **state)
{
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_for("wis-report.txt", 2, false, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "will-it-scale");
	assert_string_equal(p.metric, "per_process_ops");
	assert_string_equal(p.lkp_metric, "will-it-scale.per_process_ops");
	assert_string_equal(p.params[0].value, "page_fault2");
	assert_string_equal(p.params[1].value, "process");
	assert_string_equal(p.params[2].name, "nr_task");
	assert_string_equal(p.params[2].value, "100%");
	assert_string_equal(p.params[2].note, "100% of 2 CPUs here = 2");
	assert_non_null(p.row);
	assert_true(fabs(p.row->change[1] + 12.3) < 1e-9);
	repro_plan_release(&p);
	lkp_report_release(&r);
}

/* The experiment value reproduce runs is what its YAML record says. */
static void same_experiment(const struct repro_plan *p)
{
	const struct experiment *v = &p->exp;
	struct experiment y;

	experiment_init(&y);
	assert_int_equal(experiment_load_string(&y, "<record>", p->yaml), 0);
	assert_string_equal(v->text, p->yaml);
	assert_string_equal(v->name, y.name);
	assert_string_equal(v->description, y.description);
	assert_int_equal(v->iterations, y.iterations);
	assert_int_equal(v->warmup, y.warmup);
	assert_true(v->timeout_ns == y.timeout_ns);
	assert_true((v->env.governor == NULL) == (y.env.governor == NULL));
	if (y.env.governor)
		assert_string_equal(v->env.governor, y.env.governor);
	assert_true(v->mon_vmstat == y.mon_vmstat && v->mon_meminfo == y.mon_meminfo);
	assert_int_equal(v->nworkloads, 1);
	assert_int_equal(y.nworkloads, 1);
	assert_string_equal(v->workloads[0].name, y.workloads[0].name);
	assert_int_equal(v->workloads[0].pos.line, y.workloads[0].pos.line);
	assert_int_equal(v->workloads[0].iterations, y.workloads[0].iterations);
	assert_int_equal(v->workloads[0].warmup, y.workloads[0].warmup);
	assert_int_equal(v->workloads[0].nparams, y.workloads[0].nparams);
	for (size_t i = 0; i < y.workloads[0].nparams; i++) {
		const struct cfg_param *a = &v->workloads[0].params[i], *b = &y.workloads[0].params[i];

		assert_string_equal(a->name, b->name);
		assert_int_equal(a->pos.line, b->pos.line);
		assert_int_equal(a->pos.col, b->pos.col);
		assert_int_equal(a->nvalues, 1);
		assert_int_equal(b->nvalues, 1);
		assert_false(b->is_list);
		assert_string_equal(a->values[0].text, b->values[0].text);
		assert_int_equal(a->values[0].pos.line, b->values[0].pos.line);
		assert_int_equal(a->values[0].pos.col, b->values[0].pos.col);
	}
	experiment_release(&y);
}

static void test_plan_value_is_record(void **state)
{
	static const char *const reports[] = { SEED, "wis-report.txt", "aim9-report.txt" };
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		for (int cpufreq = 0; cpufreq < 2; cpufreq++) {
			assert_int_equal(plan_for(reports[i], 2, cpufreq, &p, &r, err, sizeof(err)), 0);
			same_experiment(&p);
			repro_plan_release(&p);
			lkp_report_release(&r);
		}
}

static int plan_text(const char *text, int ncpus, struct repro_plan *p, struct lkp_report *r,
		     char *err, size_t errlen)
{
	struct repro_opts o = { .runs = 6, .ncpus = ncpus, .has_cpufreq = false, .where = "here" };
	char perr[512];

	if (lkpreport_parse(r, text, strlen(text), perr, sizeof(perr)))
		fail_msg("parse: %s", perr);
	return repro_plan_build(r, &o, p, err, errlen);
}

static void test_plan_ebizzy_pft(void **state)
{
	static const char ebizzy[] =
		"kernel test robot noticed a 7.5% improvement of ebizzy.throughput on:\n"
		"testcase: ebizzy\nparameters:\n\n\tnr_threads: 200%\n\titerations: 100x\n"
		"\tduration: 10s\n\tcpufreq_governor: performance\n\n"
		"compiler/cpufreq_governor/duration/iterations/kconfig/nr_threads/rootfs/tbox_group/testcase:\n"
		"  gcc-12/performance/10s/100x/x86_64-rhel-8.3/200%/debian-12.cgz/lkp-x/ebizzy\n\n"
		"commit:\n  1111111111 (\"a\")\n  2222222222 (\"b\")\n\n"
		"         %stddev     %change         %stddev\n"
		"     12345            +7.5%      13271        ebizzy.throughput\n";
	static const char pft[] =
		"kernel test robot noticed a -4.2% regression of pft.faults_per_sec_per_cpu on:\n"
		"testcase: pft\nparameters:\n\n\truntime: 300s\n\tnr_task: 50%\n\n"
		"compiler/kconfig/nr_task/rootfs/runtime/tbox_group/testcase:\n"
		"  gcc-12/x86_64-rhel-8.3/50%/debian-12.cgz/300s/lkp-x/pft\n\n"
		"commit:\n  1111111111 (\"a\")\n  2222222222 (\"b\")\n\n"
		"    400000            -4.2%     383200        pft.faults_per_sec_per_cpu\n";
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_text(ebizzy, 2, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "ebizzy");
	assert_string_equal(p.metric, "throughput");
	assert_int_equal(r.direction, 1);
	assert_string_equal(p.params[0].name, "threads");
	assert_string_equal(p.params[0].value, "200%");
	assert_string_equal(p.params[0].note, "200% of 2 CPUs here = 4");
	assert_string_equal(p.params[1].name, "duration");
	assert_string_equal(p.params[1].value, "10s");
	assert_int_equal(p.workload_iterations, 100);
	assert_non_null(strstr(p.yaml, "    iterations: 100\n"));
	assert_true(has_note(&p, "skipped"));
	same_experiment(&p);
	repro_plan_release(&p);
	lkp_report_release(&r);

	assert_int_equal(plan_text(pft, 8, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "pft");
	assert_string_equal(p.metric, "faults/cpu");
	assert_string_equal(p.lkp_metric, "pft.faults_per_sec_per_cpu");
	assert_string_equal(p.params[1].name, "clients");
	assert_string_equal(p.params[1].note, "50% of 8 CPUs here = 4");
	assert_string_equal(p.params[2].value, "processes");
	assert_true(has_note(&p, "runtime: 300s"));
	assert_null(p.governor);
	same_experiment(&p);
	repro_plan_release(&p);
	lkp_report_release(&r);
}

static int plan_mem(const char *text, int ncpus, uint64_t mem, struct repro_plan *p,
		    struct lkp_report *r, char *err, size_t errlen)
{
	struct repro_opts o = { .runs = 6, .ncpus = ncpus, .mem_bytes = mem,
				.has_cpufreq = false, .where = "this machine" };
	char perr[512];

	if (lkpreport_parse(r, text, strlen(text), perr, sizeof(perr)))
		fail_msg("parse: %s", perr);
	return repro_plan_build(r, &o, p, err, errlen);
}

static const char *param_value(const struct repro_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name))
			return p->params[i].value;
	return NULL;
}

#define VMS_MAIL(headline, machine, params, axes_keys, axes_values, row)			\
	"kernel test robot noticed a -9.0% regression of " headline " on:\n"			\
	"testcase: vm-scalability\ntest machine: " machine "\nparameters:\n\n" params "\n"	\
	axes_keys ":\n  " axes_values "\n\ncommit:\n  1111111111 (\"a\")\n  2222222222 (\"b\")\n\n" \
	"         %stddev     %change         %stddev\n" row

/* vm-scalability: lkp's sizes become the same share of this machine's memory. */
static void test_plan_vms(void **state)
{
	static const char w[] = VMS_MAIL("vm-scalability.throughput", "104 threads with 192G memory",
		"\truntime: 300s\n\tsize: 128G\n\ttest: anon-w-rand\n",
		"compiler/runtime/size/tbox_group/test/testcase", "gcc-12/300s/128G/lkp-x/anon-w-rand/vm-scalability",
		"   1000000            -9.0%     910000        vm-scalability.throughput\n");
	static const char cow[] = VMS_MAIL("vm-scalability.free_time", "104 threads with 192G memory",
		"\tsize: 512G\n\ttest: anon-cow-seq\n\tnr_task: 50%\n",
		"compiler/nr_task/size/tbox_group/test/testcase", "gcc-12/50%/512G/lkp-x/anon-cow-seq/vm-scalability",
		"      1.00            -9.0%       0.91        vm-scalability.free_time\n");
	static const char nomem[] = VMS_MAIL("vm-scalability.stddev", "104 threads",
		"\ttest: lru-shm\n", "compiler/tbox_group/test/testcase", "gcc-12/lkp-x/lru-shm/vm-scalability",
		"      1.00            -9.0%       0.91        vm-scalability.stddev\n");
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_mem(w, 2, 24ull << 30, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "vm-scalability");
	assert_string_equal(p.metric, "throughput");
	assert_string_equal(param_value(&p, "test"), "anon-w-rand");
	/* 128G of 192G is 16G of 24G; lkp's unit mem/2 is 12G: rounds of 12G */
	assert_string_equal(param_value(&p, "size"), "16G");
	assert_string_equal(param_value(&p, "unit_size"), "12G");
	assert_string_equal(param_value(&p, "nr_task"), "100%");
	assert_string_equal(param_value(&p, "runtime"), "300s");
	assert_non_null(strstr(p.yaml, "# size 128G -> 16G: the report's machine has 192G, this machine has 24.0G"));
	assert_int_equal(p.better, 1);
	same_experiment(&p);
	repro_plan_release(&p);
	lkp_report_release(&r);

	/* cow: a round is at most 3/8 of memory (the copies need as much again); free_time is lower-better */
	assert_int_equal(plan_mem(cow, 4, 24ull << 30, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.metric, "free_time");
	assert_string_equal(p.lkp_metric, "vm-scalability.free_time");
	assert_int_equal(p.better, -1);
	assert_string_equal(param_value(&p, "unit_size"), "9G");
	assert_string_equal(param_value(&p, "size"), "64G");
	assert_string_equal(p.params[3].note, "50% of 4 CPUs here = 2");
	repro_plan_release(&p);
	lkp_report_release(&r);

	/* no memory in the mail: half of it here, one round; an unknown headline falls back */
	assert_int_equal(plan_mem(nomem, 2, 24ull << 30, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(param_value(&p, "size"), "50%mem");
	assert_null(param_value(&p, "unit_size"));
	assert_string_equal(p.metric, "throughput");
	assert_true(has_note(&p, "is not a metric mmbench's vm-scalability measures"));
	repro_plan_release(&p);
	lkp_report_release(&r);
}

#define SNG_MAIL(headline, params)								\
	"kernel test robot noticed a 5.0% improvement of " headline " on:\n"			\
	"testcase: stress-ng\nparameters:\n\n" params "\n"					\
	"compiler/nr_threads/tbox_group/test/testcase/testtime:\n  gcc-12/100%/lkp-x/mmap/stress-ng/60s\n\n" \
	"commit:\n  1111111111 (\"a\")\n  2222222222 (\"b\")\n\n"				\
	"         %stddev     %change         %stddev\n"					\
	"     10000            +5.0%      10500        " headline "\n"

static void test_plan_stress_ng(void **state)
{
	static const char ops[] = SNG_MAIL("stress-ng.mmap.ops_per_sec",
					   "\tnr_threads: 100%\n\ttesttime: 60s\n\ttest: mmap\n");
	static const char ns[] = SNG_MAIL("stress-ng.brk.nanosecs_per_sbrk_page_expand",
					  "\tnr_threads: 1\n\ttest: brk\n");
	static const char other[] = SNG_MAIL("stress-ng.mmap.some_new_metric",
					     "\ttest: mmap\n\tclass: vm\n");
	static const char cpu[] = SNG_MAIL("stress-ng.cpu.ops_per_sec", "\ttest: cpu\n");
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_mem(ops, 2, 0, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.workload, "stress-ng");
	assert_string_equal(p.metric, "mmap.ops_per_sec");
	assert_string_equal(p.lkp_metric, "stress-ng.mmap.ops_per_sec");
	assert_string_equal(param_value(&p, "nr_threads"), "100%");
	assert_string_equal(param_value(&p, "testtime"), "60s");
	assert_true(has_note(&p, "stress-ng version"));
	same_experiment(&p);
	repro_plan_release(&p);
	lkp_report_release(&r);

	assert_int_equal(plan_mem(ns, 2, 0, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.metric, "brk.nanosecs_per_sbrk_page_expand");
	assert_int_equal(p.better, -1);
	assert_string_equal(param_value(&p, "testtime"), "60s");
	repro_plan_release(&p);
	lkp_report_release(&r);

	assert_int_equal(plan_mem(other, 2, 0, &p, &r, err, sizeof(err)), 0);
	assert_string_equal(p.metric, "mmap.ops_per_sec");
	assert_true(has_note(&p, "comparing stress-ng.mmap.ops_per_sec instead"));
	assert_true(has_note(&p, "report parameter class: vm has no mmbench equivalent"));
	repro_plan_release(&p);
	lkp_report_release(&r);

	assert_int_equal(plan_mem(cpu, 2, 0, &p, &r, err, sizeof(err)), -1);
	assert_true(starts_with(err, "not supported: stress-ng/cpu; mmbench can reproduce: "));
	lkp_report_release(&r);
}

static void test_plan_unsupported(void **state)
{
	struct lkp_report r;
	struct repro_plan p;
	char err[512];

	(void)state;
	assert_int_equal(plan_for("unsupported.txt", 2, false, &p, &r, err, sizeof(err)), -1);
	assert_true(starts_with(err, "not supported: unixbench/fsdisk; mmbench can reproduce: aim9/brk_test"));
	assert_non_null(strstr(err, "will-it-scale/{page_fault1"));
	lkp_report_release(&r);
}

static void test_verdict(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(repro_verdict(-5.0, -4.1, -5.3, -2.9, 0.0012, &sb), 1);
	assert_string_equal(sb.buf, "report: -5.0%, here: -4.1% [CI -5.3, -2.9], p=0.0012: reproduced");
	strbuf_reset(&sb);
	assert_int_equal(repro_verdict(-5.0, -0.4, -1.9, 1.1, 0.61, &sb), 0);
	assert_non_null(strstr(sb.buf, ": not reproduced (no significant difference)"));
	strbuf_reset(&sb);
	assert_int_equal(repro_verdict(-5.0, 3.0, 1.0, 5.0, 0.01, &sb), 0);
	assert_non_null(strstr(sb.buf, "opposite direction"));
	strbuf_reset(&sb);
	assert_int_equal(repro_verdict(-5.0, -40.0, -45.0, -35.0, 1e-9, &sb), 1);
	assert_non_null(strstr(sb.buf, "p=1.0e-09: reproduced (magnitude differs"));
	strbuf_release(&sb);
}

static void test_release_sha(void **state)
{
	(void)state;
	assert_true(repro_release_has_sha("6.12.0-rc1-00042-gcacded5e42b9", "cacded5e42"));
	assert_true(repro_release_has_sha("6.12.0-rc1-00042-gcacded5e42b9",
					  "cacded5e42b9609b07b22d80c10f0076d439f7d1"));
	assert_true(repro_release_has_sha("6.12.0-cacded5e42b9609b", "cacded5e42b960"));
	assert_false(repro_release_has_sha("6.12.0-rc1-00042-gcacded5e42b9", "cacded5e43"));
	assert_false(repro_release_has_sha("6.12.0-rc1-00042-gcacded5e42b9", "fc21959f74"));
	assert_false(repro_release_has_sha("6.18.44-fc-v782", "fc21959f74"));
	assert_false(repro_release_has_sha("6.12.0-gcacded", "cacded5e42"));	/* too short */
	assert_false(repro_release_has_sha("", "cacded5e42"));
}

/*
 * A mail of many small tables parses in linear time: parse_top() asked
 * "is this token in a table?" by scanning every table for every token, so
 * 2M of them took many seconds (found profiling fuzz_lkpreport).
 */
static void test_many_tables_linear(void **state)
{
	static const char one[] = "a/testcase:\nx/y\ncommit:\n1234567 (\"s\")\n"
				  "2345678 (\"t\")\n1 +1% 2 m\n\n";
	const size_t n = (2u << 20) / (sizeof(one) - 1);
	struct strbuf sb = STRBUF_INIT;
	struct lkp_report r;
	struct timespec t0, t1;
	char err[512];
	double secs;

	(void)state;
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(&sb, one);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (lkpreport_parse(&r, sb.buf, sb.len, err, sizeof(err)))
		fail_msg("%s", err);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_int_equal(r.ntables, n);
	assert_string_equal(r.testcase, "y");
	/* linear: under a second with ASan here; the quadratic scan took 65 s */
	if (secs > 5.0)
		fail_msg("%zu tables took %.1f s of CPU", n, secs);
	lkp_report_release(&r);
	strbuf_release(&sb);
}

/* lkp's per-interval / per-second / overall perf-stat rows are our totals' names */
static void test_monitor_name(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(repro_monitor_name("perf-stat.i.context-switches", buf, sizeof(buf)),
			    "perf-stat.context-switches");
	assert_string_equal(repro_monitor_name("perf-stat.ps.page-faults", buf, sizeof(buf)),
			    "perf-stat.page-faults");
	assert_string_equal(repro_monitor_name("perf-stat.overall.ipc", buf, sizeof(buf)),
			    "perf-stat.ipc");
	assert_string_equal(repro_monitor_name("perf-stat.i.dTLB-load-miss-rate%", buf,
					       sizeof(buf)), "perf-stat.dTLB-load-miss-rate%");
	/* an unqualified event, and rows of other sources, keep their name */
	assert_string_equal(repro_monitor_name("perf-stat.cycles", buf, sizeof(buf)),
			    "perf-stat.cycles");
	assert_string_equal(repro_monitor_name("proc-vmstat.pgfault", buf, sizeof(buf)),
			    "proc-vmstat.pgfault");
	assert_string_equal(repro_monitor_name("aim9.time.system_time", buf, sizeof(buf)),
			    "aim9.time.system_time");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_aim9_report_and_variants),
		cmocka_unit_test(test_aim9_in_memory_variants),
		cmocka_unit_test(test_base64_crlf),
		cmocka_unit_test(test_multi_commit),
		cmocka_unit_test(test_wis_report),
		cmocka_unit_test(test_improvement_unsigned),
		cmocka_unit_test(test_missing_sections),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_plan_seed),
		cmocka_unit_test(test_plan_wis),
		cmocka_unit_test(test_plan_ebizzy_pft),
		cmocka_unit_test(test_plan_value_is_record),
		cmocka_unit_test(test_plan_vms),
		cmocka_unit_test(test_plan_stress_ng),
		cmocka_unit_test(test_plan_unsupported),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_release_sha),
		cmocka_unit_test(test_many_tables_linear),
		cmocka_unit_test(test_monitor_name),
	};
	const char *build = getenv("MMBENCH_BUILD");

	/* the mappings ask the plugins which tests and metrics they implement */
	if (build && !getenv("MMBENCH_PLUGIN_PATH")) {
		char *dir = xasprintf("%s/workloads", build);

		setenv("MMBENCH_PLUGIN_PATH", dir, 1);
		free(dir);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
