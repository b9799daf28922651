/*
 * run --profile's pieces: the perf script parser on a fixture written for
 * it (tests/fixtures/profile/perf-script.txt), its errors, the probe
 * without perf, the profiles tables (written, read back, removed with
 * their run), and compare --profile's lkp rows against a golden file
 * (tests/fixtures/profile/compare.golden) from fixed DB rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "merge-file.h"
#include "perfrec.h"
#include "profcmp.h"
#include "profile.h"
#include "util.h"

static char *fixture(const char *name)
{
	const char *src = getenv("MMBENCH_SRC");

	return xasprintf("%s/tests/fixtures/profile/%s", src ? src : ".", name);
}

static double entry_pct(const struct profile_entry *e, size_t n, enum profile_kind k,
			const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].kind == k && !strcmp(e[i].name, name))
			return e[i].pct;
	return -1;
}

static void test_parse_fixture(void **state)
{
	char *path = fixture("perf-script.txt"), err[256] = "";
	FILE *f = fopen(path, "r");
	struct profile_agg a;
	struct profile_entry *e;
	double sum[PROFILE_NKINDS] = { 0, 0 };
	size_t n;

	(void)state;
	assert_non_null(f);
	profile_agg_init(&a);
	assert_int_equal(profile_agg_parse(&a, f, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(a.samples, 6);
	assert_true(a.total == 1500000);
	n = profile_agg_entries(&a, 0, &e);
	/* self: the leaf of each sample, weighted by its period */
	assert_true(fabs(entry_pct(e, n, PROFILE_SELF, "clear_page_erms") - 100.0 / 3) < 1e-9);
	assert_true(fabs(entry_pct(e, n, PROFILE_SELF, "pft_touch") - 100.0 / 3) < 1e-9);
	assert_true(fabs(entry_pct(e, n, PROFILE_SELF, "_raw_spin_lock") - 100.0 / 6) < 1e-9);
	/* an unresolved leaf and a sample without frames are both [unknown] */
	assert_true(fabs(entry_pct(e, n, PROFILE_SELF, "[unknown]") - 100.0 / 6) < 1e-9);
	/* chains: the 5 innermost known frames, caller first; [unknown] callers skipped */
	assert_true(fabs(entry_pct(e, n, PROFILE_CALLTRACE,
				   "__handle_mm_fault.do_anonymous_page.__alloc_pages."
				   "get_page_from_freelist.clear_page_erms") - 100.0 / 3) < 1e-9);
	assert_true(fabs(entry_pct(e, n, PROFILE_CALLTRACE, "start_thread.pft_touch") -
			 100.0 / 3) < 1e-9);
	assert_true(fabs(entry_pct(e, n, PROFILE_CALLTRACE,
				   "free_pcppages_bulk.isra.0._raw_spin_lock") - 100.0 / 6) < 1e-9);
	/* a demangled name's blanks become '_' (lkp names have none) */
	assert_true(fabs(entry_pct(e, n, PROFILE_CALLTRACE, "worker(int,_char_const*).[unknown]") -
			 100.0 / 12) < 1e-9);
	assert_true(fabs(entry_pct(e, n, PROFILE_CALLTRACE, "[unknown]") - 100.0 / 12) < 1e-9);
	/* every sample lands in exactly one entry of each kind */
	for (size_t i = 0; i < n; i++)
		sum[e[i].kind] += e[i].pct;
	assert_true(fabs(sum[PROFILE_SELF] - 100) < 1e-9);
	assert_true(fabs(sum[PROFILE_CALLTRACE] - 100) < 1e-9);
	/* sorted: self first, largest share first, ties by name */
	assert_int_equal(e[0].kind, PROFILE_SELF);
	assert_string_equal(e[0].name, "clear_page_erms");
	assert_string_equal(e[1].name, "pft_touch");
	profile_entries_free(e, n);
	/* the floor drops the small ones */
	n = profile_agg_entries(&a, 20, &e);
	assert_int_equal(n, 4);
	profile_entries_free(e, n);
	profile_agg_release(&a);
	free(path);
}

static void parse_error(const char *text, const char *want)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct profile_agg a;
	char err[256] = "";

	assert_non_null(f);
	profile_agg_init(&a);
	assert_int_equal(profile_agg_parse(&a, f, err, sizeof(err)), -1);
	fclose(f);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not say \"%s\"", err, want);
	profile_agg_release(&a);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_error("\tffff clear_page_erms ([kernel.kallsyms])\n",
		    "line 1: a call-chain frame before any sample");
	parse_error("    100 \n\tffff a (b)\n\nsh 1234 cpu-clock:\n", "line 4: expected a sample's period");
	parse_error("    100 \n\tnot-an-address x (y)\n", "line 2: a call-chain frame without an address");
}

static void test_probe_without_perf(void **state)
{
	struct perfrec_probe p;

	(void)state;
	setenv("MMBENCH_PERF", "/nonexistent/perf", 1);
	perfrec_probe(&p);
	unsetenv("MMBENCH_PERF");
	assert_false(p.usable);
	if (!strstr(p.why, "perf is not installed") || !strstr(p.why, "linux-perf"))
		fail_msg("why: %s", p.why);
}

/* ---- the tables and compare --profile ---- */

struct fixed_entry {
	enum profile_kind kind;
	const char *name;
	double pct;
};

#define LONG_CHAIN "entry_SYSCALL_64_after_hwframe.do_syscall_64.__x64_sys_munmap." \
	"__vm_munmap.do_vmi_align_munmap"

static const struct fixed_entry base1[] = {
	{ PROFILE_SELF, "clear_page_erms", 40 }, { PROFILE_SELF, "pft_touch", 30 },
	{ PROFILE_SELF, "_raw_spin_lock", 10 }, { PROFILE_SELF, "native_irq_enable", 0.5 },
	{ PROFILE_CALLTRACE, "do_anonymous_page.clear_page_erms", 38 },
	{ PROFILE_CALLTRACE, "pft_touch", 30 },
	{ PROFILE_CALLTRACE, "free_pcppages_bulk._raw_spin_lock", 10 },
	{ PROFILE_CALLTRACE, LONG_CHAIN, 3 },
};
static const struct fixed_entry base2[] = {
	{ PROFILE_SELF, "clear_page_erms", 44 }, { PROFILE_SELF, "pft_touch", 28 },
	{ PROFILE_SELF, "_raw_spin_lock", 12 },
	{ PROFILE_CALLTRACE, "do_anonymous_page.clear_page_erms", 42 },
	{ PROFILE_CALLTRACE, "pft_touch", 28 },
	{ PROFILE_CALLTRACE, "free_pcppages_bulk._raw_spin_lock", 12 },
	{ PROFILE_CALLTRACE, LONG_CHAIN, 3 },
};
static const struct fixed_entry new1[] = {
	{ PROFILE_SELF, "clear_page_erms", 50 }, { PROFILE_SELF, "pft_touch", 25 },
	{ PROFILE_SELF, "_raw_spin_lock", 2 }, { PROFILE_SELF, "lru_add", 6 },
	{ PROFILE_CALLTRACE, "do_anonymous_page.clear_page_erms", 48 },
	{ PROFILE_CALLTRACE, "pft_touch", 25 },
	{ PROFILE_CALLTRACE, "folio_add_lru.lru_add", 6 },
	{ PROFILE_CALLTRACE, "free_pcppages_bulk._raw_spin_lock", 2 },
	{ PROFILE_CALLTRACE, LONG_CHAIN, 4.5 },
};
static const struct fixed_entry new2[] = {
	{ PROFILE_SELF, "clear_page_erms", 52 }, { PROFILE_SELF, "pft_touch", 26 },
	{ PROFILE_SELF, "_raw_spin_lock", 2 }, { PROFILE_SELF, "lru_add", 4 },
	{ PROFILE_CALLTRACE, "do_anonymous_page.clear_page_erms", 50 },
	{ PROFILE_CALLTRACE, "pft_touch", 26 },
	{ PROFILE_CALLTRACE, "folio_add_lru.lru_add", 4 },
	{ PROFILE_CALLTRACE, "free_pcppages_bulk._raw_spin_lock", 2 },
	{ PROFILE_CALLTRACE, LONG_CHAIN, 4.5 },
};

static int64_t add_profiled_run(struct mmb_db *db, const char *label, const char *variant,
				const struct fixed_entry *fe, size_t n)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { 0 };
	struct profile_info p = { .workload = "pft", .variant = variant, .event = "cpu-clock",
				  .note = "no hardware PMU", .samples = 1000 };
	struct profile_entry *e = xcalloc(n, sizeof(*e));
	int64_t run;

	r.kernel_id = db_kernel_upsert(db, &k);
	r.accel = "host";
	run = db_run_begin(db, &r);
	assert_true(run > 0);
	for (size_t i = 0; i < n; i++)
		e[i] = (struct profile_entry){ fe[i].kind, (char *)fe[i].name, fe[i].pct };
	assert_int_equal(db_profile_add(db, run, &p, e, n), 0);
	free(e);
	assert_int_equal(db_run_finish(db, run, "complete"), 0);
	return run;
}

static char dbdir[] = "/tmp/mmb-test-profile-XXXXXX";

static void open_fixed_db(struct mmb_db *db, char **path, int64_t *runs)
{
	assert_non_null(mkdtemp(dbdir));
	*path = xasprintf("%s/t.db", dbdir);
	assert_int_equal(db_open(db, *path), 0);
	runs[0] = add_profiled_run(db, "base", "clients=1", base1, ARRAY_SIZE(base1));
	runs[1] = add_profiled_run(db, "base", "clients=1", base2, ARRAY_SIZE(base2));
	runs[2] = add_profiled_run(db, "new", "clients=1", new1, ARRAY_SIZE(new1));
	runs[3] = add_profiled_run(db, "new", "clients=1", new2, ARRAY_SIZE(new2));
	/* a variant only the base profiled: no group */
	runs[4] = add_profiled_run(db, "base", "clients=2", base1, ARRAY_SIZE(base1));
}

static void close_fixed_db(struct mmb_db *db, char *path)
{
	char *cmd;

	db_close(db);
	cmd = xasprintf("rm -rf '%s'", dbdir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(path);
	strcpy(dbdir, "/tmp/mmb-test-profile-XXXXXX");
}

static void test_tables_round_trip(void **state)
{
	struct mmb_db db;
	struct db_profile *p;
	size_t n;
	char *path;
	int64_t runs[5];

	(void)state;
	open_fixed_db(&db, &path, runs);
	assert_int_equal(db_profiles_load(&db, runs, 2, "pft", NULL, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].event, "cpu-clock");
	assert_string_equal(p[0].note, "no hardware PMU");
	assert_int_equal(p[0].samples, 1000);
	assert_int_equal(p[0].n, ARRAY_SIZE(base1));
	/* calltrace and self, each largest first */
	assert_int_equal(p[0].e[0].kind, PROFILE_SELF);
	assert_string_equal(p[0].e[0].name, "clear_page_erms");
	db_profiles_free(p, n);
	/* rm takes a run's profile with it */
	assert_int_equal(db_runs_remove(&db, &runs[4], 1, NULL), 0);
	assert_int_equal(db_profiles_load(&db, &runs[4], 1, NULL, NULL, &p, &n), 0);
	assert_int_equal(n, 0);
	db_profiles_free(p, n);
	close_fixed_db(&db, path);
}

static void test_compare_golden(void **state)
{
	static const char *const labels[] = { "base", "new" };
	struct mmb_db db;
	struct profcmp pc;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT, txt = STRBUF_INIT;
	char *path, *golden = fixture("compare.golden");
	int64_t runs[5];

	(void)state;
	open_fixed_db(&db, &path, runs);
	assert_int_equal(profcmp_load(&db, labels, 2, NULL, &pc), 0);
	assert_int_equal(pc.ng, 1);
	profcmp_lkp(&out, &pc, PROFCMP_TOP);
	if (getenv("MMBENCH_WRITE_GOLDEN"))
		assert_int_equal(write_file_atomic(golden, out.buf, out.len), 0);
	assert_int_equal(strbuf_read_file(&want, golden), 0);
	if (strcmp(out.buf, want.buf))
		fail_msg("compare --profile differs from %s:\n%s", golden, out.buf);
	/* shares are of one period: at most 100% per kind and side */
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < PROFILE_NKINDS; k++) {
			double sum = 0;

			for (size_t r = 0; r < pc.g[0].nr; r++)
				if (pc.g[0].rows[r].kind == (enum profile_kind)k)
					sum += pc.g[0].rows[r].mean[s];
			assert_true(sum <= 100 + 1e-9);
		}
	/* the report's text keeps to 80 columns, long chains broken at their dots */
	profcmp_report_text(&txt, &pc, PROFCMP_REPORT_TOP, 80);
	for (const char *l = txt.buf; *l;) {
		size_t len = strcspn(l, "\n");

		if (len > 80)
			fail_msg("report line of %zu columns: %.*s", len, (int)len, l);
		l += len + (l[len] == '\n');
	}
	assert_non_null(strstr(txt.buf, "calltrace.entry_SYSCALL_64_after_hwframe.do_syscall_64\n"));
	profcmp_release(&pc);
	/* --last 2: the base's newest two are the clients=2 run and its second clients=1 one */
	{
		struct query_filter f = { .last_runs = 2 };

		assert_int_equal(profcmp_load(&db, labels, 2, &f, &pc), 0);
		assert_int_equal(pc.ng, 1);
		assert_int_equal(pc.g[0].nprof[0], 1);
		assert_int_equal(pc.g[0].nprof[1], 2);
		/* base2 alone: 12 -> 2 is now the biggest change */
		assert_string_equal(pc.g[0].rows[0].name, "free_pcppages_bulk._raw_spin_lock");
		assert_true(pc.g[0].rows[0].mean[0] == 12);
		profcmp_release(&pc);
	}
	strbuf_release(&out);
	strbuf_release(&want);
	strbuf_release(&txt);
	free(golden);
	close_fixed_db(&db, path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fixture),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_probe_without_perf),
		cmocka_unit_test(test_tables_round_trip),
		cmocka_unit_test(test_compare_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
