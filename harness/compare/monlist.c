/*
 * Which monitor rows a comparison lists (monlist.h, docs/monitors.md).
 */
#include "fmtnum.h"
#include "monlist.h"
#include "parse-options.h"
#include "util.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

int monitors_mode_parse(const char *s, enum monitors_mode *m)
{
	static const char *const names[] = {
		[MONITORS_CHANGED] = "changed", [MONITORS_ALL] = "all", [MONITORS_NONE] = "none",
	};

	return NAME_PARSE(names, 0, s, m);
}

int monitors_opt(const struct option *opt, const char *arg)
{
	if (monitors_mode_parse(arg, opt->value))
		return error("--monitors '%s': expected changed, all or none", arg);
	return 0;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* lkp's "mean" for the decision: the middle element sorted[n / 2]. */
static double median_elem(const struct query_series *s, double *max_abs)
{
	double *v = xmalloc((s->n + 1) * sizeof(*v)), m;

	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), dbl_cmp);
	m = v[s->n / 2];
	for (size_t k = 0; k < s->n; k++)
		if (fabs(v[k]) > *max_abs)
			*max_abs = fabs(v[k]);
	free(v);
	return m;
}

/* lkp's perf metrics skip the 5% ratio floor: perf-stat., proc-vmstat., *.time.* */
static bool perf_metric(const char *name)
{
	return starts_with(name, "perf-stat.") || starts_with(name, "proc-vmstat.") ||
	       starts_with(name, "time.") || strstr(name, ".time.");
}

/*
 * lkp's per-stat minimums, its perf-metrics-threshold.yaml as data: a name
 * matching a pattern (anchored, POSIX extended) is kept only when its
 * largest value reaches min and, for a whole-number min, its change
 * reaches min / 2 (integer division); the first pattern that matches
 * decides, before the vmstat/meminfo floor.
 */
static const struct lkp_threshold {
	const char *pattern;
	double min;
	bool integer;
} thresholds[] = {
	{ ".*.time.elapsed_time.*", 10, true },
	{ ".*.time.file_system_inputs", 10000, true },
	{ ".*.time.file_system_outputs", 10000, true },
	{ ".*.time.involuntary_context_switches", 1000, true },
	{ ".*.time.major_page_faults", 1000, true },
	{ ".*.time.minor_page_faults", 1000, true },
	{ ".*.time.socket_messages_received", 10000, true },
	{ ".*.time.socket_messages_sent", 10000, true },
	{ ".*.time.swaps", 1000, true },
	{ ".*.time.system_time", 10, true },
	{ ".*.time.user_time", 10, true },
	{ ".*.time.voluntary_context_switches", 1000, true },
	{ ".*vmstat.*nr_.*", 100, true },
	{ "dd.kill_time", 10, true },
	{ "dd.startup_time", 10, true },
	{ "interrupts.*", 100, true },
	{ "iostat.*.avgrq-sz", 200, true },
	{ "iostat.*.await", 50, true },
	{ "iostat.*.util", 10, true },
	{ "iostat.*.[rw]/s", 50, true },
	{ "iostat.*.[rw]kB/s", 100, true },
	{ "iostat.*.[rw]_await", 50, true },
	{ "perf-c2c.HITM.total", 3000, true },
	{ "perf-profile.*", 1, true },
	{ "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 2.00, false },
	{ "proc-vmstat.allocstall", 100, true },
	{ "proc-vmstat.compact_fail", 100, true },
	{ "proc-vmstat.compact_stall", 100, true },
	{ "proc-vmstat.htlb_buddy_alloc_fail", 100, true },
	{ "proc-vmstat.kswapd_high_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.kswapd_low_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", 100, true },
	{ "proc-vmstat.nr_vmscan_write", 100, true },
	{ "proc-vmstat.pgmigrate_fail", 100, true },
	{ "sysbench-fileio.latency_95th_ms", 10, true },
	{ "vmstat.cpu.id", 10, true },
	{ "vmstat.cpu.st", 10, true },
	{ "vmstat.cpu.sy", 50, true },
	{ "vmstat.cpu.us", 10, true },
	{ "vmstat.cpu.wa", 10, true },
	{ "vmstat.io.bi", 100, true },
	{ "vmstat.io.bo", 100, true },
	{ "vmstat.system.cs", 100, true },
	{ "vmstat.system.in", 100, true },
	{ "xfstests.*.seconds", 10, true },
};

/* 1 keep, 0 drop by the first threshold whose pattern matches; -1 none matches. */
int monitors_threshold(const char *name, double max, double delta)
{
	static regex_t re[ARRAY_SIZE(thresholds)];
	static bool compiled;

	if (!compiled) {
		for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++) {
			char *anchored = xasprintf("^(%s)$", thresholds[i].pattern);

			if (regcomp(&re[i], anchored, REG_EXTENDED | REG_NOSUB))
				abort();	/* our own table: a bad pattern is a bug */
			free(anchored);
		}
		compiled = true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++) {
		const struct lkp_threshold *t = &thresholds[i];

		if (regexec(&re[i], name, 0, NULL, 0))
			continue;
		if (max < t->min)
			return 0;
		if (t->integer && delta < floor(t->min / 2))	/* Ruby's Integer / 2 */
			return 0;
		return 1;
	}
	return -1;
}

bool monitors_candidate(const char *name, const struct query_series *b,
			const struct query_series *a)
{
	double max = 0, mb, ma, hi, lo, ratio, delta;
	int t;

	if (!b->n || !a->n || (b->n < MON_MIN_RUNS && a->n < MON_MIN_RUNS))
		return false;
	mb = median_elem(b, &max);
	ma = median_elem(a, &max);
	hi = fmax(fabs(mb), fabs(ma));
	lo = fmin(fabs(mb), fabs(ma));
	delta = fabs(ma - mb);
	if (hi == 0)
		return false;
	/* opposite signs (a meminfo delta that grew on one side, shrank on the other) */
	ratio = lo == 0 || (mb < 0) != (ma < 0) ? MON_RATIO_CAP : fmin(hi / lo, MON_RATIO_CAP);
	if (ratio <= MON_RATIO_MIN)
		return false;
	if (ratio <= MON_RATIO_OTHER && !perf_metric(name))
		return false;
	if ((t = monitors_threshold(name, max, delta)) >= 0)
		return t;
	/* lkp's floor for the rest of vmstat and anything meminfo */
	if ((starts_with(name, "proc-vmstat.") || strstr(name, "meminfo")) && !(max > MON_VMSTAT_MAX))
		return false;
	return true;
}

static bool keep_candidate(const struct query_set *qs, const struct query_row *row, void *arg)
{
	for (size_t i = 1; i < qs->nlabels; i++)
		if (monitors_candidate(row->metric, &row->series[0], &row->series[i]))
			return true;
	return false;
}

int monitors_add(struct mmb_db *db, struct query_set *qs, enum monitors_mode m)
{
	if (m == MONITORS_NONE || qs->nlabels < 2)
		return 0;
	/* interference rows are the guard's evidence, not a result: never listed */
	return monrows_load(db, qs, false, m == MONITORS_CHANGED ? keep_candidate : NULL, NULL);
}

/*
 * Did the row change for some label?  The verdict after the guard: a
 * change the machine's state cannot back (inconclusive) did not change
 * for the listing (--monitors all lists it).
 */
static bool changed(const struct compare_row *row, size_t nl)
{
	for (size_t i = 1; i < nl; i++) {
		enum compare_verdict v = row->verdict[i];

		if (v == VERDICT_BETTER || v == VERDICT_WORSE)
			return true;
	}
	return false;
}

/* lkp's group of a stat, the text before its first '.': "proc-vmstat", "pft" */
static size_t group_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

struct mon_order {
	struct compare_row row;
	size_t wv;		/* first KPI row of its workload and variant */
	size_t group_n;		/* rows listed in its group (same wv) */
};

/* lkp's order: groups with the fewest rows first (the testcase's own: none), then by name */
static int order_cmp(const void *a, const void *b)
{
	const struct mon_order *x = a, *y = b;

	if (x->wv != y->wv)
		return x->wv < y->wv ? -1 : 1;
	if (x->group_n != y->group_n)
		return x->group_n < y->group_n ? -1 : 1;
	return strcmp(x->row.q->metric, y->row.q->metric);
}

static bool same_wv(const struct query_row *a, const struct query_row *b)
{
	return !strcmp(a->workload, b->workload) && !strcmp(a->variant, b->variant);
}

void monitors_settle(struct compare *c, enum monitors_mode m)
{
	size_t nl = c->qs->nlabels, nk = 0, nm = 0;
	struct mon_order *mon = xcalloc(c->nr + 1, sizeof(*mon));

	/* KPI rows keep their places; the listed monitor rows are set aside */
	for (size_t r = 0; r < c->nr; r++) {
		struct compare_row *row = &c->rows[r];

		if (!row->q->monitor)
			c->rows[nk++] = *row;
		else if (m == MONITORS_ALL || changed(row, nl))
			mon[nm++].row = *row;
		else
			compare_row_release(row, nl);
	}
	for (size_t j = 0; j < nm; j++) {
		const struct query_row *q = mon[j].row.q;
		size_t gl = group_len(q->metric);

		for (mon[j].wv = 0; mon[j].wv < nk && !same_wv(c->rows[mon[j].wv].q, q); mon[j].wv++)
			;
		/* the testcase's own stats (pft.time.*) count as none: they come first */
		if (strlen(q->workload) == gl && !strncmp(q->workload, q->metric, gl))
			continue;
		for (size_t k = 0; k < nm; k++)
			mon[j].group_n += same_wv(mon[k].row.q, q) &&
					  group_len(mon[k].row.q->metric) == gl &&
					  !strncmp(mon[k].row.q->metric, q->metric, gl);
	}
	qsort(mon, nm, sizeof(*mon), order_cmp);
	for (size_t j = 0; j < nm; j++)
		c->rows[nk + j] = mon[j].row;
	c->nr = nk + nm;
	free(mon);

	/* the headline is the KPIs' alone */
	c->nbetter = c->nworse = c->nnone = c->nuntested = c->ninconclusive = 0;
	for (size_t i = 0; i < nl; i++)
		c->ndisturbed[i] = 0;
	for (size_t r = 0; r < nk; r++) {
		const struct compare_row *row = &c->rows[r];

		for (size_t i = 0; i < nl; i++)
			c->ndisturbed[i] += row->q->series[i].ndisturbed;
		for (size_t i = 1; i < nl; i++)
			compare_tally(c, row->verdict[i], true);
	}
}

size_t monitors_listed(const struct compare *c)
{
	size_t n = 0;

	for (size_t r = 0; r < c->nr; r++)
		n += c->rows[r].q->monitor;
	return n;
}

void monitors_note(struct strbuf *out, const struct compare *c, enum monitors_mode m, bool hidden)
{
	size_t n = monitors_listed(c);

	if (!n)
		return;
	if (hidden)	/* a short paste: the count, and where the rows are */
		strbuf_addf(out, "monitors: %s%zu row%s%s, never in the verdict (--verbose lists %s)\n",
			    m == MONITORS_ALL ? "all " : "", n, n == 1 ? "" : "s",
			    m == MONITORS_ALL ? "" : " changed", n == 1 ? "it" : "them");
	else if (m == MONITORS_ALL)
		strbuf_addf(out, "\nmonitors: all %zu rows (--monitors all); never in the verdict\n", n);
	else
		strbuf_addf(out, "\nmonitors: %zu row%s over lkp's floors that changed under the test;"
			    "\n  never in the verdict (docs/monitors.md, --monitors all|none)\n", n,
			    n == 1 ? "" : "s");
}

size_t monitors_kpi_rows(const struct compare *c)
{
	return c->nr - monitors_listed(c);
}

void monitors_lines(struct strbuf *out, const struct compare *c, bool all)
{
	for (size_t r = monitors_kpi_rows(c); r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct query_row *q = row->q;

		for (size_t i = 1; i < c->qs->nlabels; i++) {
			const struct stats_summary *b = &row->sum[0], *s = &row->sum[i];
			enum compare_verdict v = row->tested ? row->tested[i] : row->verdict[i];

			if (!all && v != VERDICT_BETTER && v != VERDICT_WORSE)
				continue;
			if (!s->n || !b->n)
				continue;	/* nothing to say: a side without the monitor */
			strbuf_addf(out, "%s%s%s%s %s: %s ", q->workload, *q->variant ? " (" : "",
				    q->variant, *q->variant ? ")" : "", q->metric,
				    c->qs->kernels[i].label);
			if (b->amean != 0)
				strbuf_addf(out, "%s%%", FMT_FP(stats_rel_pct(b->amean, s->amean), 1));
			else
				strbuf_addstr(out, "from 0");
			strbuf_addf(out, " (%.6g -> %.6g", b->amean, s->amean);
			if (!isnan(row->test[i].q))
				strbuf_addf(out, ", BH q = %s", FMT_P_PROSE(row->test[i].q));
			strbuf_addf(out, "%s%s)\n", row->why[i] ? "; inconclusive" : "",
				    v == VERDICT_BETTER || v == VERDICT_WORSE ? "" : "; no significant change");
		}
	}
}
