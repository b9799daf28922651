/*
 * compare: mmtests/0-day cell rules, table layouts on in-memory data, and
 * db/query.c pooling (complete + interrupted runs only, row order, filters,
 * unknown labels) on a temporary database.
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

#include "compare.h"
#include "columns.h"
#include "render.h"
#include "seeded.h"
#include "plotdb.h"
#include "db.h"
#include "query.h"
#include "block.h"
#include "blockwrite.h"
#include "util.h"

static const double aim9_base[] = { 1351624.95, 1316322.79, 1330363.33,
				    1289563.33, 1314100.00, 1335475.48 };
static const double aim9_new[] = { 1268030.00, 1277110.76, 1226452.45,
				   1275850.00, 1249628.35, 1242148.60 };

static void test_pdiff(void **state)
{
	char buf[32];

	(void)state;
	/* §1.6: a lower-is-better drop 200657.81 -> 194588.58 prints 3.02% */
	snprintf(buf, sizeof(buf), "%7.2f", render_pndiff(194588.58, 200657.81));
	assert_string_equal(buf, "   3.02");
	assert_true(render_pdiff(5, 5) == 0);
	assert_true(render_pdiff(0, 5) == 0);
	assert_true(render_pdiff(5, 0) == 100);
	assert_true(fabs(render_pdiff(110, 100) - 10) < 1e-12);
	assert_true(render_pndiff(5, 5) == 0);
	assert_true(render_pndiff(0, 5) == 100);
	assert_true(render_pndiff(5, 0) == -99);
	assert_true(fabs(render_pndiff(90, 100) - 10) < 1e-12);
}

static void test_mmtests_header(void **state)
{
	char a[64], b[64];

	(void)state;
	render_mmtests_header("6.1-vanilla", a, b, sizeof(a));
	assert_string_equal(a, "6.1");
	assert_string_equal(b, "vanilla");
	render_mmtests_header("6.2.0-rc4-mm-unstable-20230210", a, b, sizeof(a));
	assert_string_equal(a, "6.2.0-rc4");
	assert_string_equal(b, "mm-unstable-20230210");
	render_mmtests_header("base", a, b, sizeof(a));	/* mmtests' quirk */
	assert_string_equal(a, "bas");
	assert_string_equal(b, "base");
	/* what mmtests prints for each shape (its index/substr rule) */
	{
		static const char *const cases[][3] = {
			{ "v6.9-rc3", "v6.9-rc3", "" },
			{ "v6.9-rc4", "v6.9-rc4", "" },
			{ "6.8.0-rc4-mm-unstable", "6.8.0-rc4", "mm-unstable" },
			{ "v6.9-rc3-fix", "v6.9-rc3", "fix" },
			{ "mm-unstable", "mm", "unstable" },
			{ "v6.9-rc10", "v6.9-rc1", "" },		/* "will fail for -rc10" */
			{ "foobar-x-rc1", "foobar-x-r", "1" },	/* rc found inside the window */
			{ "a-b-rc1", "a", "b-rc1" },		/* window too short to see it */
			{ "a-rc1-b", "a-rc1", "b" },
			{ "-rc1", "", "rc1" },
			{ "x", "", "x" },
			{ "", "", "" },
			{ "fc21959f74", "fc21959f7", "fc21959f74" },
			{ "linux-6.10.0-0.rc7.20240712git43db1e03c086.62.fc41.x86_64",
			  "linux", "6.10.0-0.rc7.20240712git43db1e03c086.62.fc41.x86_64" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			render_mmtests_header(cases[i][0], a, b, sizeof(a));
			if (strcmp(a, cases[i][1]) || strcmp(b, cases[i][2]))
				fail_msg("'%s': '%s' / '%s', want '%s' / '%s'", cases[i][0], a, b,
					 cases[i][1], cases[i][2]);
		}
	}
}

static void test_lkp_cells(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	compare_lkp_value(&sb, 1322908.31);
	compare_lkp_value(&sb, 201.54);
	compare_lkp_value(&sb, 8.33e+08);
	compare_lkp_value(&sb, 0.04);
	compare_lkp_value(&sb, 1256536.69);
	assert_string_equal(sb.buf, "   1322908    201.54  8.33e+08      0.04   1256536");
	strbuf_release(&sb);
}

/* An in-memory set: rows x labels with the given samples. */
static void set_init(struct query_set *qs, const char *const *labels, size_t nl)
{
	memset(qs, 0, sizeof(*qs));
	qs->nlabels = nl;
	qs->kernels = xcalloc(nl, sizeof(*qs->kernels));
	for (size_t i = 0; i < nl; i++) {
		struct query_kernel *k = &qs->kernels[i];

		k->label = xstrdup(labels[i]);
		k->release = xstrdup("");
		k->version = xstrdup("");
		k->cmdline = xstrdup("");
		k->config_hash = xstrdup("");
		k->base_commit = xstrdup("");
		k->patches = xstrdup("");
		k->compiler = xstrdup("");
	}
}

static void set_add(struct query_set *qs, const char *w, const char *v, const char *m,
		    int better, const double *const *vals, const size_t *n)
{
	struct query_row *r;

	qs->rows = xrealloc(qs->rows, (qs->nr + 1) * sizeof(*qs->rows));
	r = &qs->rows[qs->nr++];
	memset(r, 0, sizeof(*r));
	r->workload = xstrdup(w);
	r->variant = xstrdup(v);
	r->metric = xstrdup(m);
	r->unit = xstrdup("");
	r->better = better;
	r->series = xcalloc(qs->nlabels, sizeof(*r->series));
	for (size_t i = 0; i < qs->nlabels; i++) {
		struct query_series *s = &r->series[i];

		s->n = s->alloc = n[i];
		s->v = xmalloc((n[i] + 1) * sizeof(double));
		s->run_id = xcalloc(n[i] + 1, sizeof(int64_t));
		s->iteration = xcalloc(n[i] + 1, sizeof(int));
		memcpy(s->v, vals[i], n[i] * sizeof(double));
	}
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static void test_aim9_tables(void **state)
{
	static const char *const labels[] = { "fc21959f74", "cacded5e42" };
	const double *vals[] = { aim9_base, aim9_new };
	size_t n[] = { 6, 6 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "aim9", "test=brk_test", "brk_test.ops_per_sec", 1, vals, n);

	compare_build(&c, &qs, STATS_WELCH);
	assert_int_equal(c.rows[0].verdict[1], VERDICT_WORSE);
	assert_int_equal(c.nworse, 1);
	render_lkp(&sb, &c);
	if (!has_line(sb.buf, "   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec"))
		fail_msg("lkp:\n%s", sb.buf);
	assert_true(has_line(sb.buf, "fc21959f74                  cacded5e42 ") ||
		    has_line(sb.buf, "      fc21959f74                  cacded5e42 "));
	assert_true(has_line(sb.buf, "---------------- --------------------------- "));
	assert_true(has_line(sb.buf, "         %stddev     %change         %stddev"));
	assert_true(has_line(sb.buf, "             \\          |                \\  "));
	assert_true(has_line(sb.buf, "test/testcase:"));
	assert_true(has_line(sb.buf, "  brk_test/aim9"));
	strbuf_reset(&sb);

	render_mmtests(&sb, &c);
	if (!has_line(sb.buf, "Hmean     brk_test.ops_per_sec        1322620.98 (   0.00%)"
			      "        1256258.29 *  -5.02%*"))
		fail_msg("mmtests:\n%s", sb.buf);
	assert_true(has_line(sb.buf, "Min       brk_test.ops_per_sec        1289563.33 (   0.00%)"
				     "        1226452.45 (  -4.89%)"));
	strbuf_reset(&sb);
	compare_release(&c);

	/* the band rule: |d| = 66362 < 1.96 (19536 + 18749): no star */
	compare_build(&c, &qs, STATS_MMTESTS);
	assert_int_equal(c.rows[0].verdict[1], VERDICT_NONE);
	render_mmtests(&sb, &c);
	assert_true(has_line(sb.buf, "Hmean     brk_test.ops_per_sec        1322620.98 (   0.00%)"
				     "        1256258.29 (  -5.02%)"));
	strbuf_reset(&sb);
	compare_release(&c);

	/* 0-day's rule lists it (separated, median ratio 1.049 > 1.01) */
	compare_build(&c, &qs, STATS_LKP);
	assert_int_equal(c.rows[0].verdict[1], VERDICT_WORSE);
	render_markdown(&sb, &c);
	assert_true(has_line(sb.buf, "| kernel     |   mean_rel |   std_rel |           p / 95% CI |"));
	assert_true(has_line(sb.buf, "|:-----------|-----------:|----------:|---------------------:|"));
	assert_true(has_line(sb.buf, "| fc21959f74 |       0.0% |      1.6% |                      |"));
	assert_true(has_line(sb.buf, "| cacded5e42 |      -5.0% |      1.6% | n/a [-7.0%, -3.0%] * |"));
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* Ryan Roberts' table shape: widths from the longest label. */
static void test_markdown_widths(void **state)
{
	static const char *const labels[] = { "mm-unstable", "hugetlb-rmap-cleanups",
					      "fork-batching" };
	double a[] = { 10, 10.1, 9.9 }, b[] = { 10.1, 10.2, 10.0 }, d[] = { 6.3, 6.2, 6.25 };
	const double *vals[] = { a, b, d };
	size_t n[] = { 3, 3, 3 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set_init(&qs, labels, 3);
	set_add(&qs, "pte-mapped-folio", "test=fork,folio_kb=2048", "seconds", -1, vals, n);
	compare_build(&c, &qs, STATS_WELCH);
	render_markdown(&sb, &c);
	assert_true(has_line(sb.buf, "pte-mapped-folio, test=fork,folio_kb=2048, seconds (lower is better; Amean):"));
	assert_true(starts_with(strstr(sb.buf, "| kernel"), "| kernel                |   mean_rel |   std_rel |"));
	assert_true(strstr(sb.buf, "|:----------------------|-----------:|----------:|") != NULL);
	assert_true(strstr(sb.buf, "| mm-unstable           |       0.0% |      1.0% |") != NULL);
	assert_true(strstr(sb.buf, "| fork-batching         |     -37.5% |      0.8% |") != NULL);
	assert_int_equal(c.rows[0].verdict[2], VERDICT_BETTER);	/* lower is better */
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* BH across rows and labels: q >= p, and the counts add up. */
static void test_bh_across_rows(void **state)
{
	static const char *const labels[] = { "a", "b", "c" };
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 1.5, 2.5, 3.5, 4.5, 5.5 }, z[] = { 11, 12, 13, 14, 15 };
	const double *v1[] = { x, y, z }, *v2[] = { x, x, y };
	size_t n[] = { 5, 5, 5 };
	struct query_set qs;
	struct compare c;

	(void)state;
	set_init(&qs, labels, 3);
	set_add(&qs, "w", "", "m1", 1, v1, n);
	set_add(&qs, "w", "", "m2", -1, v2, n);
	/* Amean: 1..5 spreads too much on the 1/x scale of an Hmean test */
	compare_build_mean(&c, &qs, STATS_WELCH, STATS_AMEAN);
	assert_int_equal(c.ntests, 4);
	for (size_t r = 0; r < 2; r++)
		for (size_t i = 1; i < 3; i++)
			assert_true(c.rows[r].test[i].q >= c.rows[r].test[i].p - 1e-15);
	assert_int_equal(c.nbetter + c.nworse + c.nnone + c.nuntested, 4);
	assert_int_equal(c.rows[0].verdict[2], VERDICT_BETTER);	/* higher, +10 */
	compare_release(&c);
	query_set_release(&qs);
}

static size_t count_str(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The readable table shows the run summary's statistic: Hmean for a rate. */
static void test_text_hmean(void **state)
{
	static const char *const labels[] = { "base", "new" };
	const double *vals[] = { aim9_base, aim9_new };
	size_t n[] = { 6, 6 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;
	struct stats_summary s0, s1;
	char want[160];

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "aim9", "", "brk_test.ops_per_sec", 1, vals, n);
	compare_build(&c, &qs, STATS_WELCH);
	assert_int_equal(c.rows[0].mean, STATS_HMEAN);
	stats_summarise(aim9_base, 6, 1, &s0);
	stats_summarise(aim9_new, 6, 1, &s1);
	c.verbose = true;	/* the block layout: a line per kernel */
	render_text(&sb, &c);
	c.verbose = false;
	assert_true(strstr(sb.buf, "  kernel    n          Hmean   change") != NULL);
	snprintf(want, sizeof(want), "  base      6     %.2f ", s0.hmean);
	if (!strstr(sb.buf, want))
		fail_msg("want '%s' (the summary's Hmean):\n%s", want, sb.buf);
	snprintf(want, sizeof(want), "  new       6     %.2f   %+.2f%%", s1.hmean,
		 100 * (s1.hmean / s0.hmean - 1));
	assert_true(strstr(sb.buf, want) != NULL);
	strbuf_reset(&sb);
	render_csv(&sb, &c);
	/* then the unit (1 run a side: iterations, 6 v 6), runs, components, settings */
	assert_true(strstr(sb.buf, ",regression,hmean,0,iteration,6,6,1,,1.62") != NULL);
	strbuf_reset(&sb);
	render_lkp(&sb, &c);
	assert_true(strstr(sb.buf, "values: arithmetic means") != NULL);
	strbuf_reset(&sb);
	compare_release(&c);

	/* --mean amean: the arithmetic mean, as asked */
	compare_build_mean(&c, &qs, STATS_WELCH, STATS_AMEAN);
	c.verbose = true;
	render_text(&sb, &c);
	snprintf(want, sizeof(want), "  base      6     %.2f ", s0.amean);
	assert_true(strstr(sb.buf, want) != NULL);
	assert_true(strstr(sb.buf, "          Amean   change") != NULL);
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* The shape: both -rcN labels on line 1, line 2 blank. */
static void test_mmtests_rc_header(void **state)
{
	static const char *const labels[] = { "v6.9-rc3", "v6.9-rc4" };
	double a[] = { 10, 11, 12 }, b[] = { 10.5, 11.5, 12.5 };
	const double *v[] = { a, b };
	size_t n[] = { 3, 3 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;
	char want[256];
	const char *nl;

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "ebizzy", "", "throughput", 1, v, n);
	compare_build(&c, &qs, STATS_WELCH);
	render_mmtests(&sb, &c);
	/* prefix L + 1 + M = 9 + 1 + 10, then each name right-aligned in 29 */
	snprintf(want, sizeof(want), "%20s%29s%29s\n%20s%29s%29s\n", "", "v6.9-rc3", "v6.9-rc4",
		 "", "", "");
	nl = strchr(sb.buf, '\n');
	if (!nl || strncmp(sb.buf, want, strlen(want)))
		fail_msg("header:\n%s", sb.buf);
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* mmtests prints each benchmark's DecimalPlaces, not more digits for a small mean. */
static void test_mmtests_places(void **state)
{
	static const char *const labels[] = { "v6.9-vanilla", "v6.9-patched" };
	double a[] = { 62.21, 62.24, 62.225 }, b[] = { 61.90, 62.01, 61.95 };
	double h0[] = { 0.3712, 0.3751 }, h1[] = { 0.3601, 0.3633 };
	const double *kv[] = { a, b }, *hv[] = { h0, h1 };
	size_t n[] = { 3, 3 }, n2[] = { 2, 2 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;
	char want[128];

	(void)state;
	assert_int_equal(compare_mmtests_places("kernbench", "elsp"), 2);
	assert_int_equal(compare_mmtests_places("ebizzy", "time.sys"), 2);
	assert_int_equal(compare_mmtests_places("pft", "faults/cpu"), 4);
	assert_int_equal(compare_mmtests_places("hackbench", "process-pipes"), 4);
	/* mmtests finds the shellpack by dropping "-part"s (issue 28 item 12) */
	assert_int_equal(compare_mmtests_places("hackbench-process-pipes", "time"), 4);
	assert_int_equal(compare_mmtests_places("hackbench-thread-sockets", "time"), 4);
	assert_int_equal(compare_mmtests_places("dbench4-async", "latency"), 2);	/* no "dbench4" */
	assert_int_equal(compare_mmtests_places("dbench-async", "latency"), 4);
	assert_int_equal(compare_mmtests_places("libmicro-file", "x"), 5);
	assert_int_equal(compare_mmtests_places("fio-randread", "x"), 6);
	assert_int_equal(compare_mmtests_places("hackbenchx", "x"), 2);
	assert_int_equal(compare_mmtests_places("pft-x+y", "faults/cpu"), 2);	/* '+' ends the lookup */
	/* a workload mmtests does not have: its plugin's metric table says (ABI 1.2 places) */
	assert_int_equal(compare_mmtests_places("pte-mapped-folio", "seconds"), 6);
	assert_int_equal(compare_mmtests_places("pft", "faults/sec"), 4);
	set_init(&qs, labels, 2);
	set_add(&qs, "kernbench", "", "elsp", -1, kv, n);
	set_add(&qs, "hackbench", "groups=4", "process-pipes", -1, hv, n2);
	compare_build(&c, &qs, STATS_WELCH);
	render_mmtests(&sb, &c);
	/* a mean under 100 keeps two places, as mmtests prints it (not 62.2250) */
	snprintf(want, sizeof(want), "Amean     elsp%18.2f (   0.00%%)", c.rows[0].sum[0].amean);
	if (!strstr(sb.buf, want))
		fail_msg("kernbench, want '%s':\n%s", want, sb.buf);
	assert_true(strstr(sb.buf, "Min       elsp             62.21 (   0.00%)") != NULL);
	if (!strstr(sb.buf, "Amean     process-pipes-4            0.3731 (   0.00%)"))
		fail_msg("hackbench:\n%s", sb.buf);
	assert_null(strstr(sb.buf, "62.225"));
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* ebizzy's time.sys can be 0 in every baseline run: no inf/nan, one n/a note. */
static void test_zero_baseline(void **state)
{
	static const char *const labels[] = { "base", "new" };
	double z[] = { 0, 0, 0, 0 }, y[] = { 0.004, 0, 0.008, 0.004 };
	double t0[] = { 12001.5, 12110.2, 11987.9, 12050.0 }, t1[] = { 11890.1, 11950.7, 11901.3, 11930.4 };
	const double *sys[] = { z, y }, *user[] = { z, z }, *tp[] = { t0, t1 };
	size_t n[] = { 4, 4 };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "ebizzy", "threads=2", "throughput", 1, tp, n);
	set_add(&qs, "ebizzy", "threads=2", "time.sys", -1, sys, n);
	set_add(&qs, "ebizzy", "threads=2", "time.user", -1, user, n);
	compare_build(&c, &qs, STATS_WELCH);
	assert_true(isnan(c.rows[1].test[1].rel) && isnan(c.rows[1].test[1].rel_lo));
	for (size_t f = 0; f < nrenderers; f++) {
		const char *name = renderers[f]->name;

		strbuf_reset(&sb);
		c.verbose = true;	/* text: the block layout, a line per kernel */
		renderers[f]->render(&sb, &c);
		c.verbose = false;
		if (strstr(sb.buf, "inf") || strstr(sb.buf, "nan") || strstr(sb.buf, "e+99"))
			fail_msg("format %s:\n%s", name, sb.buf);
		if (!(renderers[f]->flags & RENDER_NOTES))
			continue;
		/* said once, whatever the number of n/a cells; lkp, as 0-day, lists only
		   changed stats: its n/a rows did not change, so they are left out */
		if (!strcmp(name, "lkp")) {
			assert_int_equal(count_str(sb.buf, "n/a"), 0);
			assert_non_null(strstr(sb.buf, "2 unchanged stats left out"));
			continue;
		}
		if (count_str(sb.buf, "n/a: the baseline is 0") != 1)
			fail_msg("format %s, no single note:\n%s", name, sb.buf);
		if (!strcmp(name, "text")) {
			assert_true(has_line(sb.buf, "  new       4     0.00400000      n/a                  n/a"
						     "   0.0917   0.1376  no significant change"));
			assert_true(has_line(sb.buf, "  new       4              0      n/a                  n/a"
						     "   1.0000   1.0000  no significant change"));
			assert_true(strstr(sb.buf, "  new       4       11918.08   -0.99%") != NULL);
		} else if (!strcmp(name, "mmtests")) {
			assert_true(strstr(sb.buf, "Amean     time.sys-2                0.00 (   0.00%)"
						   "              0.00 (     n/a)") != NULL);
			/* equal values keep mmtests' 0.00% */
			assert_true(strstr(sb.buf, "Amean     time.user-2               0.00 (   0.00%)"
						   "              0.00 (   0.00%)") != NULL);
		} else if (!strcmp(name, "markdown")) {
			assert_true(has_line(sb.buf, "| new      |        n/a |     81.6% | 0.1376 [n/a] |"));
		}
	}
	strbuf_reset(&sb);
	render_csv(&sb, &c);
	/* rel_pct, rel_lo_pct, rel_hi_pct empty; p etc. present */
	assert_true(strstr(sb.buf, ",0.0040000000000000001,-0.0011969130545004415,"
				   "0.0091969130545004416,,,,0,no significant change,amean,0,"
				   "iteration,4,4,1,,") != NULL);
	strbuf_reset(&sb);
	render_json(&sb, &c);
	assert_true(strstr(sb.buf, "\"rel_pct\":null,\"rel_ci95_pct\":[null,null]") != NULL);
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/* ---- db/query.c on a real database ---- */

static void remove_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };

	for (size_t i = 0; i < ARRAY_SIZE(suffix); i++) {
		char *f = xasprintf("%s%s", path, suffix[i]);

		unlink(f);
		free(f);
	}
}

static char dbdir[] = "/tmp/mmb-test-compare-XXXXXX";

static int64_t add_run(struct mmb_db *db, const char *label, const char *status,
		       const char *metric, const double *v, int n, int better)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { 0 };
	int64_t run;

	r.kernel_id = db_kernel_upsert(db, &k);
	r.accel = "host";
	run = db_run_begin(db, &r);
	assert_true(run > 0);
	for (int i = 0; i < n; i++) {
		struct iteration_info it = { .run_id = run, .workload = "wl", .variant = "clients=4",
					     .params = "", .iteration = i + 1, .status = "ok" };
		struct sample_info s[2] = {
			{ .metric = metric, .unit = "ops/s", .better = better, .value = v[i] },
			{ .metric = "other", .unit = "s", .better = -1, .value = v[i] / 10 },
		};

		assert_true(db_iteration_add(db, &it, s, 2, NULL, NULL, 0, NULL) > 0);
	}
	/* a warm-up iteration never lands in samples */
	struct iteration_info warm = { .run_id = run, .workload = "wl", .variant = "clients=4",
				       .params = "", .iteration = -1, .warmup = true, .status = "ok" };
	struct sample_info ws = { .metric = metric, .unit = "ops/s", .better = better, .value = 1e9 };
	assert_true(db_iteration_add(db, &warm, &ws, 1, NULL, NULL, 0, NULL) > 0);
	if (strcmp(status, "running"))
		assert_int_equal(db_run_finish(db, run, status), 0);
	return run;
}

static void test_query(void **state)
{
	struct mmb_db db;
	char *path;
	double a1[] = { 10, 11, 12 }, a2[] = { 13, 14 }, bad[] = { 99, 99 }, b1[] = { 20, 21, 22 };
	const char *labels[] = { "base", "new" }, *twice[] = { "base", "base" };
	struct query_set qs;
	struct query_filter f = { .metric = "thru" };
	char **all;
	size_t nall;

	(void)state;
	assert_non_null(mkdtemp(dbdir));
	path = xasprintf("%s/q.db", dbdir);
	assert_int_equal(db_open(&db, path), 0);
	add_run(&db, "base", "complete", "thru", a1, 3, 1);
	add_run(&db, "base", "interrupted", "thru", a2, 2, 1);
	add_run(&db, "base", "failed", "thru", bad, 2, 1);
	add_run(&db, "new", "complete", "thru", b1, 3, 1);
	add_run(&db, "new", "running", "thru", bad, 2, 1);

	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(qs.nr, 2);
	assert_string_equal(qs.rows[0].metric, "thru");	/* recording order */
	assert_string_equal(qs.rows[1].metric, "other");
	assert_string_equal(qs.rows[0].variant, "clients=4");
	assert_int_equal(qs.rows[0].better, 1);
	assert_int_equal(qs.rows[1].better, -1);
	assert_int_equal(qs.rows[0].series[0].n, 5);	/* complete + interrupted */
	assert_int_equal(qs.rows[0].series[1].n, 3);	/* running excluded */
	for (size_t i = 0; i < 5; i++)
		assert_true(qs.rows[0].series[0].v[i] != 99 && qs.rows[0].series[0].v[i] != 1e9);
	assert_true(qs.rows[0].series[0].v[3] == 13);
	assert_int_equal(qs.rows[0].series[0].iteration[3], 1);
	assert_int_equal(qs.kernels[0].nruns, 3);
	assert_int_equal(qs.kernels[0].nruns_pooled, 2);
	assert_string_equal(qs.kernels[0].runs[2].status, "failed");
	assert_int_equal(qs.nsamples, 16);
	query_set_release(&qs);

	assert_int_equal(query_load(&db, labels, 2, &f, &qs), 0);
	assert_int_equal(qs.nr, 1);
	query_set_release(&qs);
	f.metric = "nosuch";
	assert_int_equal(query_load(&db, labels, 2, &f, &qs), 0);
	assert_int_equal(qs.nr, 0);
	query_set_release(&qs);

	/* the same label twice: both columns get the pooled samples */
	assert_int_equal(query_load(&db, twice, 2, NULL, &qs), 0);
	assert_int_equal(qs.rows[0].series[1].n, 5);
	query_set_release(&qs);

	labels[1] = "nope";
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), QUERY_EUNKNOWN);
	assert_int_equal(query_labels(&db, &all, &nall), 0);
	assert_int_equal(nall, 2);
	assert_string_equal(all[0], "base");
	query_free_strv(all, nall);

	db_close(&db);
	remove_db(path);
	free(path);
	rmdir(dbdir);
}

/* Two series' values are the same, in the same order, with the same origins. */
static void assert_same_series(const struct query_series *a, const struct query_series *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->ndisturbed, b->ndisturbed);
	assert_int_equal(a->nmeasured, b->nmeasured);
	for (size_t k = 0; k < a->n; k++) {
		assert_true(a->v[k] == b->v[k]);
		assert_int_equal(a->run_id[k], b->run_id[k]);
		assert_int_equal(a->iteration[k], b->iteration[k]);
	}
}

/* An imported run of label: a binary block of n values of (wl, clients=4, metric). */
static void add_block_run(struct mmb_db *db, const char *label, const char *metric, size_t n,
			  double start)
{
	struct kernel_info k = { .label = label };
	struct run_info r = { .accel = "import" };
	int *it = xcalloc(n, sizeof(*it)), *seq = xcalloc(n, sizeof(*seq));
	double *v = xcalloc(n, sizeof(*v));
	const char *why;
	struct db_blocks *b;
	unsigned char *data;
	size_t len;
	int64_t run, sid;

	for (size_t i = 0; i < n; i++) {
		it[i] = (int)i + 1;
		v[i] = start + (double)(i % 7);
	}
	r.kernel_id = db_kernel_upsert(db, &k);
	run = db_run_begin(db, &r);
	sid = db_series_id(db, "wl", "clients=4", metric, "ops/s", 1);
	assert_true(run > 0 && sid > 0);
	data = db_block_encode(it, seq, v, n, &len, &why);
	assert_non_null(data);
	b = db_blocks_begin(db, run);
	assert_non_null(b);
	assert_int_equal(db_blocks_add(b, sid, n, data, len), 0);
	db_blocks_end(b);
	assert_int_equal(db_run_finish(db, run, "complete"), 0);
	free(data);
	free(it);
	free(seq);
	free(v);
}

/* The table of labels compare_open() gives, with every sample or a row at a time. */
static char *open_text_threads(struct mmb_db *db, const char *const *labels, bool samples,
			       size_t thread_samples)
{
	struct compare_select s;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	compare_select_init(&s, labels, 2);
	s.samples = samples;
	s.thread_samples = thread_samples;
	s.mm_sums = true;
	assert_int_equal(compare_open(db, &s, &c), 0);
	render_text(&sb, &c);
	render_mmtests(&sb, &c);
	compare_release(&c);
	return strbuf_detach(&sb);
}

static char *open_text(struct mmb_db *db, const char *const *labels, bool samples)
{
	return open_text_threads(db, labels, samples, 0);
}

/*
 * query_open() + query_row_fill() give each row what query_load() gives,
 * runner rows and import blocks alike; query_row_drop() frees the values
 * and keeps the counts; compare's output is the same either way.
 */
static void test_query_stream(void **state)
{
	char dir[] = "/tmp/mmb-test-stream-XXXXXX", *path, *whole, *streamed;
	double a1[] = { 10, 11, 12, 13 }, a2[] = { 13, 14, 15 }, b1[] = { 20, 21, 22, 19 };
	const char *labels[] = { "base", "new" };
	struct query_set all, qs;
	struct mmb_db db;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/s.db", dir);
	assert_int_equal(db_open(&db, path), 0);
	add_run(&db, "base", "complete", "thru", a1, 4, 1);
	add_block_run(&db, "new", "blocked", 300, 50);
	add_run(&db, "base", "complete", "thru", a2, 3, 1);
	add_run(&db, "new", "complete", "thru", b1, 4, 1);
	add_block_run(&db, "base", "blocked", 200, 40);
	add_block_run(&db, "new", "blocked", 100, 60);

	assert_int_equal(query_load(&db, labels, 2, NULL, &all), 0);
	assert_int_equal(query_open(&db, labels, 2, NULL, &qs), 0);
	assert_int_equal(qs.nr, all.nr);
	assert_int_equal(qs.nr, 3);
	for (size_t r = 0; r < qs.nr; r++) {
		assert_string_equal(qs.rows[r].metric, all.rows[r].metric);
		assert_int_equal(qs.rows[r].series[0].n, 0);	/* nothing read yet */
		assert_int_equal(query_row_fill(&db, &qs, r), 0);
		for (size_t i = 0; i < 2; i++)
			assert_same_series(&qs.rows[r].series[i], &all.rows[r].series[i]);
		query_row_drop(&qs, r);
		assert_null(qs.rows[r].series[1].v);
		assert_int_equal(qs.rows[r].series[1].n, all.rows[r].series[1].n);
	}
	/* read again: the same values, counted once */
	assert_int_equal(query_row_fill(&db, &qs, 2), 0);
	assert_same_series(&qs.rows[2].series[0], &all.rows[2].series[0]);
	assert_int_equal(qs.nsamples, all.nsamples);
	query_set_release(&qs);
	query_set_release(&all);

	whole = open_text(&db, labels, true);
	streamed = open_text(&db, labels, false);
	assert_string_equal(streamed, whole);
	free(whole);
	free(streamed);
	db_close(&db);
	remove_db(path);
	free(path);
	rmdir(dir);
}

/*
 * Rows computed on a second thread (compare_select.thread_samples) give
 * the output one thread gives, streamed or with every sample, whichever
 * thread took which row.
 */
static void test_compare_threads(void **state)
{
	char dir[] = "/tmp/mmb-test-threads-XXXXXX", *path;
	const char *labels[] = { "base", "new" };
	struct mmb_db db;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/t.db", dir);
	assert_int_equal(db_open(&db, path), 0);
	/* 40 rows of a few hundred values, some moved between the labels */
	for (int m = 0; m < 40; m++) {
		char metric[16];

		snprintf(metric, sizeof(metric), "m%02d", m);
		add_block_run(&db, "base", metric, 200 + 37 * (size_t)m, 100);
		add_block_run(&db, "new", metric, 150 + 41 * (size_t)m, 100 + (m % 3) * 0.5);
	}
	for (int pass = 0; pass < 2; pass++) {
		bool samples = pass;
		char *one = open_text_threads(&db, labels, samples, SIZE_MAX);

		for (int k = 0; k < 3; k++) {
			char *two = open_text_threads(&db, labels, samples, 1);

			assert_string_equal(two, one);
			free(two);
		}
		free(one);
	}
	db_close(&db);
	remove_db(path);
	free(path);
	rmdir(dir);
}

/* The 0-day header from recorded metadata: axes, commit lines, sha header. */
static void test_lkp_meta(void **state)
{
	struct mmb_db db;
	char dir[] = "/tmp/mmb-test-lkpmeta-XXXXXX", *path;
	const char *labels[] = { "base", "new" };
	struct kernel_info kb = { .label = "base", .compiler = "gcc-12",
				  .base_commit = "fc21959f74bc1138b1f2e7bb3a2f0d4b9d4b2e8f" };
	struct kernel_info kn = { .label = "new", .compiler = "gcc-12",
				  .base_commit = "fc21959f74bc1138b1f2e7bb3a2f0d4b9d4b2e8f",
				  .patches = "[{\"subject\":\"mm: avoid using vma_merge() for new VMAs\","
					     "\"hash\":\"cacded5e42b9609b07b22d80c10aaaabbbbcccc\"}]" };
	struct machine_info m = { .hostname = "lkp-ivb-2ep2-3", .cpu_model = "E5-2697 v2",
				  .ncpus = 48, .mem_bytes = 64ULL << 30 };
	const struct kernel_info *ks[] = { &kb, &kn };
	const double *vals[] = { aim9_base, aim9_new };
	struct query_set qs;
	struct compare c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/m.db", dir);
	assert_int_equal(db_open(&db, path), 0);
	for (int k = 0; k < 2; k++) {
		struct run_info r = { .accel = "host" };
		int64_t run;

		r.kernel_id = db_kernel_upsert(&db, ks[k]);
		r.machine_id = db_machine_upsert(&db, &m);
		run = db_run_begin(&db, &r);
		assert_true(run > 0);
		assert_int_equal(db_run_env(&db, run, "cpufreq.cpu0.governor", "performance",
					    "schedutil"), 0);
		assert_int_equal(db_run_env(&db, run, "thp.enabled", k ? "never" : "always", ""), 0);
		for (int i = 0; i < 6; i++) {
			struct iteration_info it = { .run_id = run, .workload = "aim9",
						     .variant = "test=brk_test", .params = "",
						     .iteration = i + 1, .status = "ok" };
			struct sample_info smp = { .metric = "brk_test.ops_per_sec", .unit = "ops/s",
						   .better = 1, .value = vals[k][i] };

			assert_true(db_iteration_add(&db, &it, &smp, 1, NULL, NULL, 0, NULL) > 0);
		}
		assert_int_equal(db_run_finish(&db, run, "complete"), 0);
	}
	assert_int_equal(query_load(&db, labels, 2, NULL, &qs), 0);
	compare_build(&c, &qs, STATS_WELCH);
	assert_int_equal(compare_load_meta(&c, &db), 0);
	render_lkp(&sb, &c);
	if (!starts_with(sb.buf,
		"=========================================================================================\n"
		"compiler/cpufreq_governor/tbox_group/test/testcase:\n"
		"  gcc-12/performance/lkp-ivb-2ep2/brk_test/aim9\n"
		"\n"
		"commit: \n"
		"  fc21959f74 (\"base\")\n"
		"  cacded5e42 (\"mm: avoid using vma_merge() for new VMAs\")\n"
		"\n"
		"fc21959f74bc1138 cacded5e42b9609b07b22d80c10 \n"
		"---------------- --------------------------- \n"
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n"
		"   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec\n"))
		fail_msg("lkp header:\n%s", sb.buf);
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);

	/* compare_open() reads each pooled run's env once: the settings and the header use it */
	{
		struct compare_select s;

		compare_select_init(&s, labels, 2);
		s.meta = true;
		assert_int_equal(compare_open(&db, &s, &c), 0);
		assert_int_equal(c.nruns, 2);
		for (size_t k = 0; k < 2; k++) {
			assert_int_equal(c.runs[k].label, k);
			assert_ptr_equal(c.runs[k].run, &c.qs->kernels[k].runs[0]);
			assert_ptr_equal(compare_run_of(&c, c.runs[k].run), &c.runs[k]);
			assert_int_equal(c.runs[k].nenv, 2);
			assert_string_equal(c.meta.governor[k], "performance");
		}
		assert_int_equal(c.nsettings, 1);
		assert_string_equal(c.setting[0].key, "thp.enabled");
		assert_string_equal(c.setting[0].values[0], "always");
		assert_string_equal(c.setting[0].values[1], "never");
		compare_release(&c);
	}
	db_close(&db);
	remove_db(path);
	free(path);
	rmdir(dir);
}

/*
 * The value is one table of named columns: CSV's header is their names,
 * a cell comes from the value alone (what the row measures and the labels
 * are copied into it), and a test's cells are empty for the baseline.
 */
static void test_columns(void **state)
{
	static const char *const labels[] = { "fc21959f74", "cacded5e42" };
	const double *vals[] = { aim9_base, aim9_new };
	size_t n[] = { 6, 6 };
	struct query_set qs;
	struct compare c;
	struct compare_cell cell;
	struct strbuf sb = STRBUF_INIT, head = STRBUF_INIT;

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "aim9", "test=brk_test", "brk_test.ops_per_sec", 1, vals, n);
	compare_build(&c, &qs, STATS_WELCH);
	assert_int_equal(c.nlabels, 2);
	assert_string_equal(c.label[1], "cacded5e42");
	assert_string_equal(c.rows[0].what.workload, "aim9");
	assert_string_equal(c.rows[0].what.variant, "test=brk_test");
	assert_int_equal(c.rows[0].what.better, 1);
	assert_false(c.rows[0].what.monitor);

	render_csv(&sb, &c);
	for (size_t k = 0; k < ncompare_columns; k++)
		strbuf_addf(&head, "%s%s", k ? "," : "", compare_columns[k].name);
	strbuf_addch(&head, '\n');
	assert_true(starts_with(sb.buf, head.buf));
	assert_string_equal(compare_column_find("between_run_cov")->key, "between_run_cov_pct");

	compare_cell_get(compare_column_find("metric"), &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_TEXT);
	assert_string_equal(cell.text, "brk_test.ops_per_sec");
	compare_cell_get(compare_column_find("kernel"), &c, 0, 1, &cell);
	assert_string_equal(cell.text, "cacded5e42");
	compare_cell_get(compare_column_find("n"), &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_COUNT);
	assert_int_equal(cell.count, 6);
	compare_cell_get(compare_column_find("p"), &c, 0, 0, &cell);
	assert_int_equal(cell.kind, CELL_EMPTY);
	compare_cell_get(compare_column_find("p"), &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_NUM);
	assert_true(cell.num < COMPARE_ALPHA);
	compare_cell_get(compare_column_find("verdict"), &c, 0, 1, &cell);
	assert_string_equal(cell.text, "regression");
	compare_cell_release(&cell);
	compare_cell_get(compare_column_find("significant"), &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_FLAG);
	assert_true(cell.flag);
	strbuf_release(&sb);
	strbuf_release(&head);
	compare_release(&c);
	query_set_release(&qs);
}

/*
 * The cells only the layouts for people show are columns of the table
 * too (compare_view_columns[]), computed once (issue 44): the change of
 * the row's statistic (n/a on a zero baseline), std_rel, 0-day's %change
 * (a difference for perf-profile stats) and %stddev (none for a mean
 * <= 0), mmtests' places; CSV still prints only the data columns.
 */
static void test_view_columns(void **state)
{
	static const char *const labels[] = { "base", "new" };
	static const double b[] = { 10, 12, 11, 13 }, x[] = { 20, 22, 21, 23 };
	static const double z[] = { 0, 0, 0, 0 }, neg[] = { -5, -6, -5, -6 };
	const double *v1[] = { b, x }, *v2[] = { z, x }, *v3[] = { neg, x };
	size_t n[] = { 4, 4 };
	struct query_set qs;
	struct compare c;
	struct compare_cell cell;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set_init(&qs, labels, 2);
	set_add(&qs, "pft", "clients=1", "faults/cpu", 1, v1, n);
	set_add(&qs, "w", "", "zero", 1, v2, n);
	set_add(&qs, "perf-profile", "", "cycles", -1, v3, n);
	compare_build(&c, &qs, STATS_WELCH);
	compare_cell_named("change_pct", &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_NUM);
	assert_true(cell.num == stats_rel_pct(stats_mean_of(&c.rows[0].sum[0], c.rows[0].mean),
					      stats_mean_of(&c.rows[0].sum[1], c.rows[0].mean)));
	compare_cell_named("change_pct", &c, 1, 1, &cell);
	assert_int_equal(cell.kind, CELL_TEXT);
	assert_string_equal(cell.text, "n/a");
	compare_cell_named("std_rel_pct", &c, 0, 0, &cell);
	assert_int_equal(cell.kind, CELL_NUM);
	compare_cell_named("lkp_change_pct", &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_NUM);
	compare_cell_named("lkp_change_abs", &c, 0, 1, &cell);
	assert_int_equal(cell.kind, CELL_EMPTY);
	compare_cell_named("lkp_change_abs", &c, 2, 1, &cell);
	assert_int_equal(cell.kind, CELL_NUM);
	assert_true(fabs(cell.num - (21.5 + 5.5)) < 1e-9);
	compare_cell_named("lkp_change_pct", &c, 2, 1, &cell);
	assert_int_equal(cell.kind, CELL_EMPTY);
	compare_cell_named("lkp_stddev_pct", &c, 2, 0, &cell);
	assert_int_equal(cell.kind, CELL_EMPTY);
	compare_cell_named("places", &c, 0, 0, &cell);
	assert_int_equal(cell.kind, CELL_COUNT);
	assert_int_equal(cell.count, 4);
	compare_cell_named("shown_verdict", &c, 0, 0, &cell);
	assert_string_equal(cell.text, "baseline");
	render_csv(&sb, &c);
	for (size_t k = 0; k < ncompare_view_columns; k++)
		assert_null(strstr(sb.buf, compare_view_columns[k].name));
	strbuf_release(&sb);
	compare_release(&c);
	query_set_release(&qs);
}

/*
 * One value, every consumer: the plot groups and the report's per-kernel
 * views carry compare's verdicts, tests and reasons for a seeded set (an
 * inconclusive cell stays without a verdict in the plot: it ran its own
 * test before), and the plot's interval is the value's Welch change.
 */
static void test_value_consumers(void **state)
{
	static const char *const labels[] = { "base", "new", "busy" };
	double v[3][3][8];
	const double *vals[3];
	size_t n[3] = { 8, 8, 8 };
	struct query_set qs;
	struct compare c;
	struct plot_group *gs;
	size_t ng;

	(void)state;
	seeded_state = 0x1234567ull;
	set_init(&qs, labels, 3);
	for (int r = 0; r < 3; r++) {
		char variant[32];

		for (int i = 0; i < 3; i++) {
			for (int j = 0; j < 8; j++)
				v[r][i][j] = 100 + (i == 1 ? 5.0 * r : i == 2 ? 8 : 0) + seeded_gauss();
			vals[i] = v[r][i];
		}
		snprintf(variant, sizeof(variant), "clients=%d", r + 1);
		set_add(&qs, "w", variant, "m", 1, vals, n);
		/* "busy" had most of its iterations left out as disturbed */
		qs.rows[r].series[2].ndisturbed = 20;
	}
	for (int t = 0; t < 2; t++) {
		compare_build(&c, &qs, t ? STATS_MWU : STATS_WELCH);
		assert_true(c.ninconclusive > 0);
		assert_int_equal(plot_groups_build(&c, &gs, &ng), 0);
		assert_int_equal(ng, 1);
		assert_int_equal(gs[0].nvariants, 3);
		for (size_t r = 0; r < c.nr; r++)
			for (size_t i = 1; i < 3; i++) {
				const struct plot_cell *cell = plot_group_cell(&gs[0], r, i);
				enum compare_verdict vd = c.rows[r].verdict[i];
				struct stats_test w;
				struct stats_level_info wl;
				const struct query_series *sb = &qs.rows[r].series[0], *si = &qs.rows[r].series[i];
				const struct stats_side b = { sb->v, sb->run_id, sb->n };
				const struct stats_side x = { si->v, si->run_id, si->n };

				assert_int_equal(cell->cls, vd == VERDICT_BETTER ? PLOT_CLS_BETTER :
							     vd == VERDICT_WORSE ? PLOT_CLS_WORSE :
							     vd == VERDICT_NONE ? PLOT_CLS_NONE :
							     vd == VERDICT_INCONCLUSIVE ? PLOT_CLS_INCONCLUSIVE :
							     PLOT_CLS_UNTESTED);
				assert_ptr_equal(cell->interval, &c.rows[r].interval[i]);
				assert_true(cell->interval_ok);
				assert_int_equal(stats_test_levels(STATS_WELCH, c.rows[r].mean, &b, &x, 1,
								   STATS_UNIT_AUTO, &w, &wl), 0);
				assert_true(w.rel == cell->interval->rel && w.rel_lo == cell->interval->rel_lo);
			}
		plot_groups_free(gs, ng);
		for (size_t i = 1; i < 3; i++) {
			struct compare pv;
			size_t ntests = 0;

			compare_pair(&c, i, &pv);
			assert_int_equal(pv.qs->nlabels, 2);
			assert_string_equal(pv.qs->kernels[1].label, labels[i]);
			for (size_t r = 0; r < c.nr; r++) {
				assert_int_equal(pv.rows[r].verdict[1], c.rows[r].verdict[i]);
				assert_true(pv.rows[r].test[1].q == c.rows[r].test[i].q ||
					    (isnan(pv.rows[r].test[1].q) && isnan(c.rows[r].test[i].q)));
				assert_true(pv.rows[r].sum[1].amean == c.rows[r].sum[i].amean);
				assert_true((pv.rows[r].why[1] == NULL) == (c.rows[r].why[i] == NULL));
				if (c.rows[r].why[i])
					assert_string_equal(pv.rows[r].why[1], c.rows[r].why[i]);
				ntests += !isnan(c.rows[r].test[i].p);
			}
			assert_int_equal(pv.ntests, ntests);
			assert_int_equal(pv.ndisturbed[1], c.ndisturbed[i]);
			compare_release(&pv);
		}
		compare_release(&c);
	}
	query_set_release(&qs);
}

/*
 * Plots take their samples from the value (issue 44): a comparison opened
 * as plots open it (plot_select()) is one pass over the DB, so its plot
 * groups are built after the DB is closed; a value that dropped its
 * samples (a streamed compare) refuses to be plotted instead of reading
 * the DB again.
 */
static void test_plot_from_value(void **state)
{
	char dir[] = "/tmp/mmb-test-plotval-XXXXXX", *path;
	const char *labels[] = { "base", "new" };
	struct compare_select s;
	struct compare c;
	struct plot_group *gs;
	struct mmb_db db;
	size_t ng;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/t.db", dir);
	assert_int_equal(db_open(&db, path), 0);
	add_block_run(&db, "base", "m", 30, 100);
	add_block_run(&db, "new", "m", 20, 104);
	compare_select_init(&s, labels, 2);
	s.need = COMPARE_NEED_ROWS;
	plot_select(&s);
	assert_int_equal(compare_open(&db, &s, &c), 0);
	db_close(&db);		/* the value reads no database after compare_open() */
	assert_int_equal(plot_groups_build(&c, &gs, &ng), 0);
	assert_int_equal(ng, 1);
	assert_int_equal(plot_group_cell(&gs[0], 0, 0)->n, 30);
	assert_int_equal(plot_group_cell(&gs[0], 0, 1)->n, 20);
	assert_true(plot_group_cell(&gs[0], 0, 1)->v[19] > 100);
	plot_groups_free(gs, ng);
	compare_release(&c);

	assert_int_equal(db_open(&db, path), 0);
	compare_select_init(&s, labels, 2);
	assert_int_equal(compare_open(&db, &s, &c), 0);
	assert_true(c.dropped);
	assert_int_equal(plot_groups_build(&c, &gs, &ng), -1);
	compare_release(&c);
	db_close(&db);
	remove_db(path);
	free(path);
	rmdir(dir);
}

int main(void)
{
	const char *build = getenv("MMBENCH_BUILD");
	/* the plugins the mmtests layout asks for their metrics' places (read once a process) */
	char *plugins = xasprintf("%s/workloads", build ? build : "build");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pdiff),
		cmocka_unit_test(test_mmtests_header),
		cmocka_unit_test(test_lkp_cells),
		cmocka_unit_test(test_aim9_tables),
		cmocka_unit_test(test_markdown_widths),
		cmocka_unit_test(test_bh_across_rows),
		cmocka_unit_test(test_zero_baseline),
		cmocka_unit_test(test_mmtests_places),
		cmocka_unit_test(test_mmtests_rc_header),
		cmocka_unit_test(test_text_hmean),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_query_stream),
		cmocka_unit_test(test_compare_threads),
		cmocka_unit_test(test_lkp_meta),
		cmocka_unit_test(test_value_consumers),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_plot_from_value),
		cmocka_unit_test(test_view_columns),
	};
	int ret;

	setenv("MMBENCH_PLUGIN_PATH", plugins, 1);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(plugins);
	return ret;
}
