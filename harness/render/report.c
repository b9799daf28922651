/*
 * The review bundle's paragraphs, each written once through the emitter
 * (report-emit.h): report.txt (email-ready, <= 80 columns), report.md
 * (markdown, plots embedded), report.html (one self-contained page, plots
 * inlined as data: URIs).  The tables come from the renderers; the plots
 * from plot/.  Plots are drawn first: if gnuplot fails, no report file is
 * written.
 */
#include "fmtnum.h"
#include "report.h"
#include "report-emit.h"
#include "monlist.h"
#include "plotdb.h"
#include "profcmp.h"
#include "util.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIDTH REPORT_WIDTH

/* "2024-02-01 12:00 UTC", or "unknown time" */
static void format_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t > 0 && gmtime_r(&s, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
	else
		snprintf(buf, len, "unknown time");
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* ---- the pieces of the report ---- */

static size_t count_patches(const char *json)
{
	size_t n = 0;

	for (const char *p = json; p && (p = strstr(p, "\"subject\"")); p++)
		n++;
	return n;
}

static char *kernel_commit(const struct query_kernel *k)
{
	size_t np = count_patches(k->patches);

	if (k->base_commit && *k->base_commit)
		return np ? xasprintf("%.12s + %zu patch%s", k->base_commit, np, np == 1 ? "" : "es")
			  : xasprintf("%.12s", k->base_commit);
	return np ? xasprintf("unknown base + %zu patch%s", np, np == 1 ? "" : "es") : xstrdup("unknown");
}

static char *runs_summary(const struct query_kernel *k)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t r = 0; r < k->nruns; r++)
		strbuf_addf(&sb, "%srun %lld %s%s", r ? ", " : "", (long long)k->runs[r].id,
			    k->runs[r].status,
			    !k->runs[r].pooled && k->runs[r].usable ? " (older: --last)" : "");
	if (!k->nruns)
		strbuf_addstr(&sb, "none");
	return strbuf_detach(&sb);
}

/* One setting across the runs: key and per-run value. */
struct env_key {
	char *key;
	char **val;		/* [nruns], NULL = not recorded */
};

struct env_table {
	size_t nruns;
	const struct query_run **runs;
	size_t *label_of;	/* [nruns] */
	struct env_key *keys;
	size_t nkeys;
};

static struct env_key *env_key_get(struct env_table *t, const char *key)
{
	for (size_t i = 0; i < t->nkeys; i++)
		if (!strcmp(t->keys[i].key, key))
			return &t->keys[i];
	t->keys = xrealloc(t->keys, (t->nkeys + 1) * sizeof(*t->keys));
	t->keys[t->nkeys].key = xstrdup(key);
	t->keys[t->nkeys].val = xcalloc(t->nruns ? t->nruns : 1, sizeof(char *));
	return &t->keys[t->nkeys++];
}

static void env_set(struct env_table *t, const char *key, size_t run, const char *value)
{
	struct env_key *k = env_key_get(t, key);

	free(k->val[run]);
	k->val[run] = xstrdup(value ? value : "");
}

/* The pooled runs' recorded settings, as the comparison read them (compare_run). */
static int env_collect(struct report *rp, struct env_table *t)
{
	const struct compare *c = &rp->cmp;

	memset(t, 0, sizeof(*t));
	t->nruns = c->nruns;
	t->runs = xcalloc(t->nruns ? t->nruns : 1, sizeof(const struct query_run *));
	t->label_of = xcalloc(t->nruns ? t->nruns : 1, sizeof(*t->label_of));
	for (size_t i = 0; i < c->nruns; i++) {
		t->label_of[i] = c->runs[i].label;
		t->runs[i] = c->runs[i].run;
	}
	/* what the kernel was booted with matters as much as the knobs */
	for (size_t i = 0; i < t->nruns; i++)
		if (t->runs[i]->cmdline && *t->runs[i]->cmdline)
			env_set(t, "kernel cmdline", i, t->runs[i]->cmdline);
	for (size_t i = 0; i < t->nruns; i++) {
		const struct query_env *e = c->runs[i].env;

		for (size_t j = 0; j < c->runs[i].nenv; j++) {
			char *v = e[j].original && *e[j].original && strcmp(e[j].original, e[j].value)
					  ? xasprintf("%s (was %s)", e[j].value, e[j].original)
					  : xstrdup(e[j].value ? e[j].value : "");
			env_set(t, e[j].key, i, v);
			free(v);
		}
	}
	return 0;
}

static void env_release(struct env_table *t)
{
	for (size_t i = 0; i < t->nkeys; i++) {
		for (size_t r = 0; r < t->nruns; r++)
			free(t->keys[i].val[r]);
		free(t->keys[i].val);
		free(t->keys[i].key);
	}
	free(t->keys);
	free(t->runs);
	free(t->label_of);
}

static bool env_differs(const struct env_table *t, const struct env_key *k)
{
	for (size_t r = 1; r < t->nruns; r++) {
		const char *a = k->val[0] ? k->val[0] : "", *b = k->val[r] ? k->val[r] : "";
		if ((k->val[0] == NULL) != (k->val[r] == NULL) || strcmp(a, b))
			return true;
	}
	return false;
}

static const char *env_value(const struct env_key *k, size_t r)
{
	return k->val[r] ? k->val[r] : "(not recorded)";
}

/* Runs of one label that share a value are listed together: "runs 1, 3". */
static char *env_who(const struct report *rp, const struct env_table *t, const struct env_key *k,
		     size_t r, bool *done)
{
	struct strbuf ids = STRBUF_INIT;
	size_t n = 0;
	char *who;

	strbuf_addstr(&ids, "");
	for (size_t s = r; s < t->nruns; s++) {
		if (done[s] || t->label_of[s] != t->label_of[r] || strcmp(env_value(k, s), env_value(k, r)))
			continue;
		done[s] = true;
		strbuf_addf(&ids, "%s%lld", n++ ? ", " : "", (long long)t->runs[s]->id);
	}
	who = xasprintf("%s (run%s %s)", rp->qs->kernels[t->label_of[r]].label, n > 1 ? "s" : "", ids.buf);
	strbuf_release(&ids);
	return who;
}

static const char *test_title(enum stats_test_kind k)
{
	static const char *const title[] = {
		[STATS_WELCH] = "Welch's t-test",
		[STATS_MWU] = "Mann-Whitney U test",
		[STATS_MMTESTS] = "mmtests' 1.96-sigma band rule",
		[STATS_LKP] = "0-day's separation rule",
	};

	return (size_t)k < ARRAY_SIZE(title) && title[k] ? title[k] : "?";
}

static char *row_name(const struct compare_what *q)
{
	if (q->variant && *q->variant)
		return xasprintf("%s %s [%s]", q->workload, q->metric, q->variant);
	return xasprintf("%s %s", q->workload, q->metric);
}

/* "95% CI [-11.27%, -7.52%], p = 2.2e-07, BH q = 7.1e-07" */
static char *change_text(const struct compare *c, size_t r, size_t i)
{
	const struct stats_test *t = &c->rows[r].test[i];
	struct strbuf sb = STRBUF_INIT;
	char ci[64];

	/* always a first part, what follows starts with ", "; the CI as the tables print it */
	compare_ci_cell(ci, sizeof(ci), c, r, i, 2);
	if (compare_ci_unbounded(c, r, i))
		strbuf_addf(&sb, "95%% CI %s (too few %s to bound it: n = %zu v %zu)", ci,
			    c->rows[r].level[i].unit == STATS_UNIT_RUN ? "runs" : "values",
			    c->rows[r].level[i].nb, c->rows[r].level[i].nn);
	else if (*ci)
		strbuf_addf(&sb, "95%% CI %s", ci);
	else
		strbuf_addstr(&sb, "no 95% CI (not defined for this test)");
	if (isfinite(t->p))
		strbuf_addf(&sb, ", p = %s", FMT_P_PROSE(t->p));
	if (isfinite(t->q))
		strbuf_addf(&sb, ", BH q = %s", FMT_P_PROSE(t->q));
	return strbuf_detach(&sb);
}

/* Tables of one layout; too wide ones are split per NEW kernel, then squeezed. */
static void tables_text(struct report *rp, struct strbuf *out, const struct renderer *fmt)
{
	const struct query_set *qs = rp->qs;
	struct strbuf raw = STRBUF_INIT, fitted = STRBUF_INIT;
	size_t nr = rp->cmp.nr;

	/*
	 * The workload's own metrics only: monitor rows (long names, after the
	 * KPIs) have their own section, and made every table wrap at 80 columns.
	 */
	rp->cmp.nr = monitors_kpi_rows(&rp->cmp);
	fmt->render(&raw, &rp->cmp);
	if (!report_fit_width(&fitted, raw.buf) || qs->nlabels <= 2) {
		strbuf_addstr(out, fitted.buf);
		goto out;
	}
	/* one BASE-vs-NEW table per NEW kernel: views of the one comparison */
	for (size_t i = 1; i < qs->nlabels; i++) {
		struct compare c;

		compare_pair(&rp->cmp, i, &c);
		strbuf_reset(&raw);
		strbuf_reset(&fitted);
		fmt->render(&raw, &c);
		report_fit_width(&fitted, raw.buf);
		strbuf_addf(out, "%s-- %s vs %s --\n\n", i > 1 ? "\n" : "", qs->kernels[0].label,
			    qs->kernels[i].label);
		strbuf_addstr(out, fitted.buf);
		compare_release(&c);
	}
out:
	rp->cmp.nr = nr;
	strbuf_release(&raw);
	strbuf_release(&fitted);
}


static void report_kernels(struct report *rp, struct report_emitter *e)
{
	static const char *const head[] = { "kernel", "release", "commit", "config (sha256)",
					     "compiler", "runs" };
	const struct query_set *qs = rp->qs;

	report_emit_heading(e, "Kernels");
	report_emit_table_begin(e, REPORT_RECORDS, head, ARRAY_SIZE(head));
	for (size_t k = 0; k < qs->nlabels; k++) {
		const struct query_kernel *kk = &qs->kernels[k];
		char *commit = kernel_commit(kk), *runs = runs_summary(kk);
		char cfg[16];
		const char *cells[ARRAY_SIZE(head)];

		snprintf(cfg, sizeof(cfg), "%.12s", or_unknown(kk->config_hash));
		cells[0] = kk->label;
		cells[1] = or_unknown(kk->release);
		cells[2] = commit;
		cells[3] = cfg;
		cells[4] = or_unknown(kk->compiler);
		cells[5] = runs;
		report_emit_row(e, cells, ARRAY_SIZE(head), k ? NULL : " (baseline)");
		free(commit);
		free(runs);
	}
	report_emit_table_end(e);
}

/* A setting that differs: "label (runs 1, 3): value" per group of runs. */
static void env_differing(struct report *rp, struct report_emitter *e, const struct env_table *t,
			  const struct env_key *k)
{
	bool *done = xcalloc(t->nruns, sizeof(*done));
	char **lines = xcalloc(t->nruns, sizeof(*lines));
	size_t n = 0;

	for (size_t r = 0; r < t->nruns; r++) {
		char *who;

		if (done[r])
			continue;
		who = env_who(rp, t, k, r, done);
		lines[n++] = xasprintf("%s: %s", who, env_value(k, r));
		free(who);
	}
	report_emit_setting(e, k->key, (const char *const *)lines, n, true);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(done);
}

static int report_env(struct report *rp, struct report_emitter *e)
{
	static const char *const head[] = { "", "setting", "value" };
	struct env_table t;
	size_t ndiff = 0;
	char *line;

	if (env_collect(rp, &t) < 0)
		return -1;
	report_emit_heading(e, "Environment");
	if (!t.nkeys) {
		report_emit_para(e, "No environment was recorded for these runs (imported results carry "
				 "none); check THP, governor and the kernel command line by hand.", 0);
		env_release(&t);
		return 0;
	}
	for (size_t i = 0; i < t.nkeys; i++)
		ndiff += env_differs(&t, &t.keys[i]);
	line = xasprintf("%zu setting%s recorded over %zu pooled run%s; %s", t.nkeys,
			 t.nkeys == 1 ? "" : "s", t.nruns, t.nruns == 1 ? "" : "s",
			 ndiff ? "lines marked \"!\" DIFFER between runs:" : "identical in every run.");
	report_emit_para(e, line, 0);
	free(line);
	report_emit_table_begin(e, REPORT_SETTINGS, head, ARRAY_SIZE(head));
	for (size_t i = 0; i < t.nkeys; i++) {
		const struct env_key *k = &t.keys[i];
		const char *v = env_value(k, 0);

		if (env_differs(&t, k))
			env_differing(rp, e, &t, k);
		else
			report_emit_setting(e, k->key, &v, 1, false);
	}
	report_emit_table_end(e);
	env_release(&t);
	return 0;
}

/* The monitor rows that changed: why the KPI moved, never a verdict of their own. */
static void report_monitors(struct report *rp, struct report_emitter *e)
{
	struct strbuf lines = STRBUF_INIT;
	const char *what = rp->all_monitors ? "Monitors" : "Monitors that changed";
	char *lead;

	monitors_lines(&lines, &rp->cmp, rp->all_monitors);
	if (!lines.len)
		return;
	lead = xasprintf("%s (not in the verdict; docs/monitors.md):", what);
	report_emit_only(e, REPORT_ONLY(REPORT_TXT) | REPORT_ONLY(REPORT_MD));
	report_emit_lead(e, lead);
	free(lead);
	lead = xasprintf("%s (not in the verdict):", what);
	report_emit_only(e, REPORT_ONLY(REPORT_HTML));
	report_emit_lead(e, lead);
	free(lead);
	report_emit_only(e, REPORT_ALL);
	report_emit_list_begin(e, NULL);
	for (const char *p = lines.buf, *nl; *p; p = nl + 1) {
		char *line;

		nl = strchr(p, '\n');
		line = xstrndup(p, (size_t)(nl - p));
		report_emit_item(e, &(struct report_item){ .text = line });
		free(line);
	}
	report_emit_list_end(e);
	strbuf_release(&lines);
}

/* The unit tested, the settings that differ and, with runs to tell, the variance components. */
static void report_levels(const struct compare *c, struct report_emitter *e)
{
	struct strbuf u = STRBUF_INIT;
	bool runs = false;

	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 0; i < c->nlabels; i++)
			runs |= c->rows[r].comp[i].nruns >= 2;
	compare_unit_line(&u, c, "unit: ");
	compare_clock_line(&u, c, "clock: ");
	compare_arch_line(&u, c, "arch: ");
	if (runs)
		compare_components_lines(&u, c);
	report_emit_code(e, u.buf, c->settings);
	strbuf_release(&u);
}

/* Row r, label i as a list item (pass 0: regressions, 1: improvements, 2: inconclusive). */
static void verdict_item(struct report *rp, struct report_emitter *e, size_t r, size_t i, int pass)
{
	const struct compare_row *row = &rp->cmp.rows[r];
	char *name = row_name(&row->what), *chg, *rel, *text;

	/* inconclusive: the reason, with its numbers, instead of a change */
	chg = pass == 2 ? xstrdup(row->why[i]) : change_text(&rp->cmp, r, i);
	rel = pass == 2 ? xstrdup("(no verdict)") :
	      isfinite(row->test[i].rel) ? xasprintf("%s%%", FMT_FP(row->test[i].rel, 2)) :
	      xstrdup("n/a (the baseline is 0)");
	text = xasprintf("%s, %s %s", name, rp->qs->kernels[i].label, rel);
	report_emit_item(e, &(struct report_item){
		.cls = pass == 2 ? "na" : pass ? "better" : "worse",
		.word = pass == 2 ? "inconclusive" : pass ? "improvement" : "regression",
		.text = text,
		.detail = chg,
	});
	free(name);
	free(chg);
	free(rel);
	free(text);
}

/* "2 regressions, 1 improvement, ..." */
static char *verdict_sum(const struct report *rp)
{
	const struct compare *c = &rp->cmp;
	size_t nmissing = 0;
	char *sum, *missing;

	for (size_t r = 0; r < monitors_kpi_rows(c); r++)
		for (size_t i = 1; i < rp->qs->nlabels; i++)
			nmissing += c->rows[r].verdict[i] == VERDICT_MISSING;
	missing = nmissing ? xasprintf(", %zu without samples on one side", nmissing) : xstrdup("");
	sum = xasprintf("%zu regression%s, %zu improvement%s, %zu without a significant "
			"change, %zu not testable (too few samples)%s%s%.0zu%s.",
			c->nworse, c->nworse == 1 ? "" : "s", c->nbetter,
			c->nbetter == 1 ? "" : "s", c->nnone, c->nuntested, missing,
			c->ninconclusive ? ", " : "", c->ninconclusive,
			c->ninconclusive ? " inconclusive (the machine's state cannot back a"
					   " verdict)" : "");
	free(missing);
	return sum;
}

static void report_verdicts(struct report *rp, struct report_emitter *e)
{
	const struct compare *c = &rp->cmp;
	size_t nsig = 0;
	char *text;

	report_emit_heading(e, "Significant changes");
	text = xasprintf("%s, two-sided; p-values adjusted with Benjamini-Hochberg over the %zu "
			 "comparisons; significant when the adjusted p < %.2g.  Change = new mean "
			 "vs baseline mean with its 95%% confidence interval.", test_title(c->test),
			 c->ntests, COMPARE_ALPHA);
	report_emit_para(e, text, 0);
	free(text);
	report_levels(c, e);
	report_emit_list_begin(e, "verdicts");
	for (int pass = 0; pass < 3; pass++) {
		enum compare_verdict want = pass == 2 ? VERDICT_INCONCLUSIVE :
					    pass ? VERDICT_BETTER : VERDICT_WORSE;

		for (size_t r = 0; r < monitors_kpi_rows(c); r++)
			for (size_t i = 1; i < rp->qs->nlabels; i++) {
				if (c->rows[r].verdict[i] != want)
					continue;
				nsig += pass < 2;
				verdict_item(rp, e, r, i, pass);
			}
	}
	/* with inconclusive entries listed, "no significant change" would hide them */
	if (!nsig && !c->ninconclusive)
		report_emit_item(e, &(struct report_item){ .text = "No significant change.",
							   .plain = true });
	report_emit_list_end(e);
	text = verdict_sum(rp);
	report_emit_para(e, text, 0);
	free(text);
	report_monitors(rp, e);
}

/* The markdown tables; a table must not follow its caption line directly in every renderer. */
static void md_tables(const struct compare *c, struct strbuf *md)
{
	struct strbuf raw = STRBUF_INIT;
	const char *p, *prev_end = NULL;

	render_markdown(&raw, c);
	for (p = raw.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (*p == '|' && prev_end && prev_end[0] != '|' && prev_end[0] != '\n')
			strbuf_addch(md, '\n');
		strbuf_add(md, p, len);
		prev_end = p;
		p += len;
	}
	strbuf_release(&raw);
}

/* The comparison: the text tables (txt), markdown tables, coloured HTML tables. */
static void report_comparison(struct report *rp, struct report_emitter *e)
{
	bool lkp = !strcmp(rp->fmt->name, "lkp");
	const char *layout = lkp ? "0-day ncompare layout" : "mmtests compare-kernels layout";
	struct strbuf tables = STRBUF_INIT, sb = STRBUF_INIT;
	size_t nr;
	char *text;

	report_emit_heading(e, "Comparison");
	tables_text(rp, &tables, rp->fmt);
	report_emit_only(e, REPORT_ONLY(REPORT_TXT));
	text = xasprintf("%s; %s", layout,
			 lkp ? "%change is new vs base mean; rows listed as 0-day does."
			     : "percentages: positive is better; *...* marks the verdicts below.");
	report_emit_para(e, text, 0);
	free(text);
	report_emit_raw(e, tables.buf);
	report_emit_only(e, REPORT_ONLY(REPORT_MD));
	nr = rp->cmp.nr;
	rp->cmp.nr = monitors_kpi_rows(&rp->cmp);	/* monitor rows: their own list */
	md_tables(&rp->cmp, &sb);
	rp->cmp.nr = nr;
	report_emit_raw(e, sb.buf);
	report_emit_only(e, REPORT_ONLY(REPORT_HTML));
	strbuf_reset(&sb);
	report_html_tables(&sb, &rp->cmp);
	strbuf_addf(&sb, "<details><summary>Text tables (%s)</summary><pre>", layout);
	report_html_escape(&sb, tables.buf);
	strbuf_addstr(&sb, "</pre></details>\n");
	report_emit_raw(e, sb.buf);
	report_emit_only(e, REPORT_ALL);
	strbuf_release(&sb);
	strbuf_release(&tables);
}

static void report_runs(struct report *rp, struct report_emitter *e)
{
	const struct query_set *qs = rp->qs;
	size_t n = 0;

	report_emit_heading(e, "Failed and interrupted runs");
	report_emit_list_begin(e, NULL);
	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++) {
			const struct query_run *run = &qs->kernels[k].runs[r];
			char when[64], *line;

			if (!strcmp(run->status, "complete"))
				continue;
			n++;
			format_time(run->started, when, sizeof(when));
			line = xasprintf("run %lld of %s: %s (%s), experiment %s, started %s; %s",
					 (long long)run->id, qs->kernels[k].label, run->status,
					 or_unknown(run->accel), or_unknown(run->experiment), when,
					 !strcmp(run->status, "interrupted")
						 ? "its finished iterations are pooled"
						 : "not pooled");
			report_emit_item(e, &(struct report_item){ .text = line });
			free(line);
		}
	if (!n)
		report_emit_item(e, &(struct report_item){
			.text = "None: every run of these kernels completed.", .plain = true });
	report_emit_list_end(e);
}

/* The top profile changes (run --profile); no section without profiles.  0 or -1. */
static int report_profiles(struct report *rp, struct report_emitter *e)
{
	const struct profcmp *pc = &rp->prof;
	struct strbuf t = STRBUF_INIT, md = STRBUF_INIT;

	if (!pc->ng)
		return 0;
	report_emit_heading(e, "Profiles");
	profcmp_report_text(&t, pc, PROFCMP_REPORT_TOP, WIDTH);
	profcmp_report_md(&md, pc, PROFCMP_REPORT_TOP);
	report_emit_only(e, REPORT_ONLY(REPORT_TXT));
	report_emit_para(e, "perf profiles of `run --profile`: the top changes per workload"
			 " variant, in percentage points of the sampled period (docs/profiles.md).", 0);
	report_emit_raw(e, t.buf);
	report_emit_only(e, REPORT_ONLY(REPORT_MD));
	report_emit_raw(e, md.buf);
	report_emit_only(e, REPORT_ONLY(REPORT_HTML));
	report_emit_code(e, t.buf, NULL);
	report_emit_only(e, REPORT_ALL);
	strbuf_release(&t);
	strbuf_release(&md);
	return 0;
}

static int report_plots(struct report *rp, struct report_emitter *e)
{
	if (!rp->plots.nr)
		return 0;
	report_emit_heading(e, "Plots");
	report_emit_only(e, REPORT_ONLY(REPORT_TXT));
	report_emit_para(e, "Attached; each NAME.png has NAME.gp and NAME.dat beside it "
			 "(`gnuplot NAME.gp` draws it again).", 0);
	report_emit_only(e, REPORT_ALL);
	for (size_t i = 0; i < rp->plots.nr; i++)
		if (report_emit_image(e, rp->outdir, rp->plots.items[i].name,
				      rp->plots.items[i].title) < 0)
			return -1;
	return 0;
}

/* compare's verdict line, the same words from the same counts, first. */
static void report_headline(struct report *rp, struct report_emitter *e)
{
	struct strbuf v = STRBUF_INIT;

	compare_verdict_line(&v, &rp->cmp);
	if (v.len && v.buf[v.len - 1] == '\n')
		v.buf[--v.len] = '\0';
	report_emit_heading(e, "Verdict");
	report_emit_para(e, v.buf, 0);
	strbuf_release(&v);
}

/* The title, the version line and the verdict: what a reader wants first. */
static void report_head(struct report *rp, struct report_emitter *e, const char *title)
{
	char now[64], *stamp;

	format_time(now_wall(), now, sizeof(now));
	stamp = xasprintf("mmbench %s (%s), %s", mmb_version, mmb_git_sha, now);
	report_emit_begin(e, title, stamp);
	free(stamp);
	report_headline(rp, e);
}

/* The machine: context, after the results. */
static void report_machine(struct report *rp, struct report_emitter *e)
{
	report_emit_heading(e, "Machine");
	report_emit_para(e, rp->machine, REPORT_DATA);
	if (rp->nmachines > 1) {
		report_emit_only(e, REPORT_ONLY(REPORT_TXT));
		report_emit_alert(e, "the pooled runs come from different machines");
		report_emit_only(e, REPORT_ONLY(REPORT_HTML));
		report_emit_alert(e, "different machines!");
		report_emit_only(e, REPORT_ALL);
	}
}

int report_write_bundle(struct report *rp, const char *title)
{
	struct report_emitter e;
	int ret = -1;

	/* results first (the verdict, the KPI tables, the changes), then plots, then context */
	report_emit_init(&e);
	report_head(rp, &e, title);
	report_comparison(rp, &e);
	report_verdicts(rp, &e);
	if (report_plots(rp, &e) < 0)
		goto out;
	report_machine(rp, &e);
	report_kernels(rp, &e);
	if (report_env(rp, &e) < 0)
		goto out;
	report_runs(rp, &e);
	if (report_profiles(rp, &e) < 0)
		goto out;
	report_emit_end(&e);
	ret = report_emit_write(&e, rp->outdir);
out:
	report_emit_release(&e);
	return ret;
}

int report_draw_plots(struct report *rp)
{
	struct plot_opts o;
	size_t nr = rp->cmp.nr;
	int ret;

	if (gnuplot_check() < 0)
		return -1;
	plot_opts_init(&o);
	o.outdir = rp->outdir;
	o.machine = rp->machine;
	o.test = rp->test;
	/* no plots of monitor rows: they sit after the KPIs (monitors_settle()) */
	rp->cmp.nr = monitors_kpi_rows(&rp->cmp);
	ret = plot_comparison(&rp->cmp, &o, "report", &rp->plots);
	rp->cmp.nr = nr;
	return ret;
}
