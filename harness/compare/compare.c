/*
 * Comparison tables.  Layout rules follow docs/report-formats.md:
 * §1 mmtests compare-kernels, §2 0-day ncompare, §3 mailing-list mean_rel.
 */
#include "compare.h"
#include "bymachine.h"
#include "json.h"
#include "monitors.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- building ---- */

static bool untestable(enum stats_test_kind k, size_t nb, size_t nn)
{
	switch (k) {
	case STATS_WELCH:
	case STATS_MMTESTS:
		return nb < 2 || nn < 2;
	case STATS_MWU:
		return false;
	case STATS_LKP:
		return nb < 3 && nn < 3;
	}
	return true;
}

/*
 * The statistic of a row: the one asked for when every label's samples
 * allow it, else Amean; AUTO is the run summary's rule (Hmean for a
 * higher-is-better metric with positive samples).
 */
static enum stats_mean_kind row_mean(enum stats_mean_kind want, const struct query_row *qr,
				     size_t nl)
{
	if (want == STATS_MEAN_AUTO)
		want = qr->better > 0 ? STATS_HMEAN : STATS_AMEAN;
	for (size_t i = 0; i < nl; i++)
		if (!stats_mean_defined(want, qr->series[i].v, qr->series[i].n))
			return STATS_AMEAN;
	return want;
}

void compare_build(struct compare *c, const struct query_set *qs, enum stats_test_kind test)
{
	compare_build_unit(c, qs, test, STATS_MEAN_AUTO, STATS_UNIT_AUTO);
}

void compare_build_mean(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean)
{
	compare_build_unit(c, qs, test, mean, STATS_UNIT_AUTO);
}

/* The test of label i against the baseline in row r, at the level asked for. */
static void test_cell(struct compare *c, size_t r, size_t i)
{
	struct compare_row *row = &c->rows[r];
	const struct query_row *qr = row->q;
	const struct query_series *b = &qr->series[0], *s = &qr->series[i];
	const struct stats_side sb = { b->v, b->run_id, b->n }, sn = { s->v, s->run_id, s->n };
	struct stats_test *t = &row->test[i];
	struct stats_level_info *lv = &row->level[i];

	if (!b->n || !s->n) {
		stats_test_run(c->test, b->v, b->n, s->v, s->n, qr->better, t);
		row->verdict[i] = VERDICT_MISSING;
		return;
	}
	/* the test is of the statistic the row shows, at the run level when there are runs */
	stats_test_levels(c->test, row->mean, &sb, &sn, qr->better, c->unit, t, lv);
	if (c->test == STATS_WELCH) {
		row->interval[i] = *t;
		row->interval_ok[i] = !isnan(t->p);
	} else {
		/* the plots' change: the level-aware Welch of the shown statistic */
		struct stats_level_info wl;

		row->interval_ok[i] = !stats_test_levels(STATS_WELCH, row->mean, &sb, &sn,
							  qr->better, c->unit, &row->interval[i], &wl);
	}
	if (c->test == STATS_WELCH ? isnan(t->p) : untestable(c->test, b->n, s->n)) {
		row->verdict[i] = VERDICT_UNTESTED;
		return;
	}
	row->verdict[i] = VERDICT_NONE;
}

/*
 * Benjamini-Hochberg over one family: the KPI rows (monitor == false) or
 * the monitor rows, never both (a noisy monitor row must not move a KPI's
 * verdict).  Returns the family's size.
 */
static size_t adjust_family(struct compare *c, bool monitor)
{
	size_t nl = c->qs->nlabels, np = 0;
	double *p = xmalloc((c->nr * nl + 1) * sizeof(*p)), *q;
	size_t *where = xmalloc((c->nr * nl + 1) * sizeof(*where));

	for (size_t r = 0; r < c->nr; r++) {
		if (c->rows[r].q->monitor != monitor)
			continue;
		for (size_t i = 1; i < nl; i++)
			if (c->rows[r].verdict[i] == VERDICT_NONE && !isnan(c->rows[r].test[i].p)) {
				p[np] = c->rows[r].test[i].p;
				where[np++] = r * nl + i;
			}
	}
	q = xmalloc((np + 1) * sizeof(*q));
	stats_bh(p, np, q);
	for (size_t k = 0; k < np; k++)
		c->rows[where[k] / nl].test[where[k] % nl].q = q[k];
	free(p);
	free(q);
	free(where);
	return np;
}

void compare_build_unit(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean, enum stats_unit unit)
{
	size_t nl = qs->nlabels;

	memset(c, 0, sizeof(*c));
	c->qs = qs;
	c->test = test;
	c->mean = mean;
	c->unit = unit;
	c->nr = qs->nr;
	c->rows = xcalloc(qs->nr ? qs->nr : 1, sizeof(*c->rows));
	for (size_t r = 0; r < qs->nr; r++) {
		struct compare_row *row = &c->rows[r];
		const struct query_row *qr = &qs->rows[r];

		row->q = qr;
		row->mean = row_mean(mean, qr, nl);
		row->sum = xcalloc(nl, sizeof(*row->sum));
		row->test = xcalloc(nl, sizeof(*row->test));
		row->verdict = xcalloc(nl, sizeof(*row->verdict));
		row->interval = xcalloc(nl, sizeof(*row->interval));
		row->interval_ok = xcalloc(nl, sizeof(*row->interval_ok));
		row->level = xcalloc(nl, sizeof(*row->level));
		row->comp = xcalloc(nl, sizeof(*row->comp));
		for (size_t i = 0; i < nl; i++) {
			const struct query_series *s = &qr->series[i];

			stats_summarise(s->v, s->n, qr->better, &row->sum[i]);
			stats_components(s->v, s->run_id, s->n, &row->comp[i]);
		}
		row->verdict[0] = qr->series[0].n ? VERDICT_BASELINE : VERDICT_MISSING;
		for (size_t i = 1; i < nl; i++)
			test_cell(c, r, i);
	}
	/* FDR control: the KPIs as one family, the monitor rows as another */
	c->ntests = adjust_family(c, false);
	c->nmonitor_tests = adjust_family(c, true);

	for (size_t r = 0; r < c->nr; r++) {
		struct compare_row *row = &c->rows[r];

		for (size_t i = 1; i < nl; i++) {
			struct stats_test *t = &row->test[i];
			bool sig;

			if (row->verdict[i] != VERDICT_NONE)
				goto count;
			if (test == STATS_WELCH || test == STATS_MWU)
				sig = !isnan(t->q) && t->q < COMPARE_ALPHA;
			else
				sig = t->significant;
			if (sig && t->diff * row->q->better > 0)
				row->verdict[i] = VERDICT_BETTER;
			else if (sig && t->diff * row->q->better < 0)
				row->verdict[i] = VERDICT_WORSE;
count:
			compare_tally(c, row->verdict[i], true);
		}
	}
	compare_guard(c);
}

static void strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int first_pooled_run(const struct query_kernel *k)
{
	/* pooled: within --last and --by machine's machine; a set not from query_load: usable */
	for (size_t j = 0; j < k->nruns; j++)
		if (k->runs[j].pooled)
			return (int)j;
	for (size_t j = 0; j < k->nruns; j++)
		if (db_run_usable(k->runs[j].status))
			return (int)j;
	return -1;
}

int compare_load_meta(struct compare *c, struct mmb_db *db)
{
	size_t nl = c->qs->nlabels;
	struct compare_meta *m = &c->meta;

	m->compiler = xcalloc(nl, sizeof(char *));
	m->governor = xcalloc(nl, sizeof(char *));
	m->tbox_group = xcalloc(nl, sizeof(char *));
	m->commit = xcalloc(nl, sizeof(char *));
	m->subject = xcalloc(nl, sizeof(char *));
	for (size_t i = 0; i < nl; i++) {
		const struct query_kernel *k = &c->qs->kernels[i];
		int j = first_pooled_run(k);

		if (*k->compiler)
			m->compiler[i] = xstrdup(k->compiler);
		if (*k->patches) {
			struct json *pj;
			char err[128];

			if (!json_parse(k->patches, strlen(k->patches), &pj, err, sizeof(err))) {
				if (pj->type == JSON_ARRAY && pj->n) {
					const struct json *last = &pj->items[pj->n - 1];
					const struct json *h = json_get(last, "hash");
					const struct json *s = json_get(last, "subject");

					if (h && h->type == JSON_STRING && *h->str)
						m->commit[i] = xstrdup(h->str);
					if (m->commit[i] && s && s->type == JSON_STRING)
						m->subject[i] = xstrdup(s->str);
				}
				json_free(pj);
			}
		}
		if (!m->commit[i] && *k->base_commit)
			m->commit[i] = xstrdup(k->base_commit);
		if (j < 0)
			continue;
		if (k->runs[j].machine_id > 0) {
			struct query_machine qm;

			if (!query_machine(db, k->runs[j].machine_id, &qm)) {
				char *h = xstrdup(qm.hostname);
				char *dash = strrchr(h, '-');

				/* lkp's tbox_group: lkp-ivb-2ep2-3 -> lkp-ivb-2ep2 */
				if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
					*dash = '\0';
				m->tbox_group[i] = h;
				query_machine_release(&qm);
			}
		}
		{
			struct query_env *env;
			size_t ne;

			if (!query_run_env(db, k->runs[j].id, &env, &ne)) {
				for (size_t e = 0; e < ne && !m->governor[i]; e++)
					if (!strcmp(env[e].key, "cpufreq.cpu0.governor") ||
					    !strcmp(env[e].key, "cpufreq.governor.requested"))
						m->governor[i] = xstrdup(env[e].value);
				query_env_free(env, ne);
			}
		}
	}
	return 0;
}

void compare_row_release(struct compare_row *row, size_t nl)
{
	free(row->sum);
	free(row->test);
	free(row->verdict);
	free(row->tested);
	free(row->interval);
	free(row->interval_ok);
	free(row->level);
	free(row->comp);
	for (size_t i = 0; row->why && i < nl; i++)
		free(row->why[i]);
	free(row->why);
}

void compare_release(struct compare *c)
{
	size_t nl = c->qs ? c->qs->nlabels : 0;

	strv_free(c->meta.compiler, nl);
	strv_free(c->meta.governor, nl);
	strv_free(c->meta.tbox_group, nl);
	strv_free(c->meta.kconfig, nl);
	strv_free(c->meta.commit, nl);
	strv_free(c->meta.subject, nl);
	for (size_t r = 0; r < c->nr; r++)
		compare_row_release(&c->rows[r], nl);
	compare_settings_release(c, nl);
	free(c->ndisturbed);
	free(c->drift);
	for (size_t i = 0; c->drift_label && i < nl; i++)
		free(c->drift_label[i]);
	free(c->drift_label);
	free(c->rows);
	if (c->view) {
		for (size_t r = 0; r < c->view->nr; r++)
			free(c->view->rows[r].series);
		free(c->view->rows);
		free(c->view->kernels);
		free(c->view);
	}
	if (c->own) {
		query_set_release(c->own);
		free(c->own);
	}
	memset(c, 0, sizeof(*c));
}

static char **pair_strv(char *const *v, size_t i)
{
	char **p;

	if (!v)
		return NULL;
	p = xcalloc(2, sizeof(*p));
	p[0] = v[0] ? xstrdup(v[0]) : NULL;
	p[1] = v[i] ? xstrdup(v[i]) : NULL;
	return p;
}

void compare_pair(const struct compare *c, size_t i, struct compare *view)
{
	const struct query_set *qs = c->qs;
	struct query_set *v = xcalloc(1, sizeof(*v));
	const size_t pick[2] = { 0, i };

	memset(view, 0, sizeof(*view));
	*v = *qs;
	v->nlabels = 2;
	v->kernels = xcalloc(2, sizeof(*v->kernels));
	v->kernels[0] = qs->kernels[0];
	v->kernels[1] = qs->kernels[i];
	v->nr = c->nr;
	v->rows = xcalloc(c->nr ? c->nr : 1, sizeof(*v->rows));
	view->qs = view->view = v;
	view->test = c->test;
	view->mean = c->mean;
	view->unit = c->unit;
	view->kept_disturbed = c->kept_disturbed;
	view->nr = c->nr;
	view->rows = xcalloc(c->nr ? c->nr : 1, sizeof(*view->rows));
	view->ndisturbed = xcalloc(2, sizeof(*view->ndisturbed));
	view->drift_label = xcalloc(2, sizeof(*view->drift_label));
	for (size_t k = 0; k < 2; k++) {
		view->ndisturbed[k] = c->ndisturbed[pick[k]];
		if (c->drift_label && c->drift_label[pick[k]])
			view->drift_label[k] = xstrdup(c->drift_label[pick[k]]);
	}
	compare_join_drift(view);
	compare_settings_pair(c, i, view);
	view->meta.compiler = pair_strv(c->meta.compiler, i);
	view->meta.governor = pair_strv(c->meta.governor, i);
	view->meta.tbox_group = pair_strv(c->meta.tbox_group, i);
	view->meta.kconfig = pair_strv(c->meta.kconfig, i);
	view->meta.commit = pair_strv(c->meta.commit, i);
	view->meta.subject = pair_strv(c->meta.subject, i);
	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *from = &c->rows[r];
		struct compare_row *to = &view->rows[r];

		/* from->q, not qs->rows[r]: monitors_settle() reorders and drops rows */
		v->rows[r] = *from->q;
		v->rows[r].series = xcalloc(2, sizeof(*v->rows[r].series));
		to->q = &v->rows[r];
		to->mean = from->mean;
		to->sum = xcalloc(2, sizeof(*to->sum));
		to->test = xcalloc(2, sizeof(*to->test));
		to->verdict = xcalloc(2, sizeof(*to->verdict));
		to->tested = xcalloc(2, sizeof(*to->tested));
		to->interval = xcalloc(2, sizeof(*to->interval));
		to->interval_ok = xcalloc(2, sizeof(*to->interval_ok));
		to->level = xcalloc(2, sizeof(*to->level));
		to->comp = xcalloc(2, sizeof(*to->comp));
		to->why = xcalloc(2, sizeof(*to->why));
		for (size_t k = 0; k < 2; k++) {
			v->rows[r].series[k] = from->q->series[pick[k]];
			to->sum[k] = from->sum[pick[k]];
			to->test[k] = from->test[pick[k]];
			to->verdict[k] = from->verdict[pick[k]];
			to->tested[k] = from->tested[pick[k]];
			to->interval[k] = from->interval[pick[k]];
			to->interval_ok[k] = from->interval_ok[pick[k]];
			to->level[k] = from->level[pick[k]];
			to->comp[k] = from->comp[pick[k]];
		}
		if (from->why[i])
			to->why[1] = xstrdup(from->why[i]);
		/* the tests compare_build() counted for BH (verdict NONE before BH) */
		if (to->tested[1] != VERDICT_MISSING && to->tested[1] != VERDICT_UNTESTED &&
		    !isnan(to->test[1].p))
			(*(from->q->monitor ? &view->nmonitor_tests : &view->ntests))++;
		if (from->q->monitor)
			continue;	/* the headline is the KPIs' alone (monitors.h) */
		compare_tally(view, to->verdict[1], true);
	}
}

void compare_tally(struct compare *c, enum compare_verdict v, bool add)
{
	size_t *n;

	switch (v) {
	case VERDICT_BETTER: n = &c->nbetter; break;
	case VERDICT_WORSE: n = &c->nworse; break;
	case VERDICT_NONE: n = &c->nnone; break;
	case VERDICT_UNTESTED: n = &c->nuntested; break;
	case VERDICT_INCONCLUSIVE: n = &c->ninconclusive; break;
	default: return;
	}
	if (add)
		(*n)++;
	else
		(*n)--;
}

bool compare_significant(const struct compare *c, size_t r, size_t i)
{
	enum compare_verdict v = c->rows[r].verdict[i];

	return v == VERDICT_BETTER || v == VERDICT_WORSE;
}

static const char *verdict_name(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BASELINE: return "baseline";
	case VERDICT_MISSING: return "no samples";
	case VERDICT_UNTESTED: return "too few samples";
	case VERDICT_NONE: return "no significant change";
	case VERDICT_BETTER: return "improvement";
	case VERDICT_WORSE: return "regression";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	}
	return "?";
}

static const char *label_of(const struct compare *c, size_t i)
{
	return c->qs->kernels[i].label;
}

static size_t nlabels(const struct compare *c)
{
	return c->qs->nlabels;
}

/* A change relative to a zero baseline is undefined: printed as n/a. */
#define ZERO_BASE_NOTE "n/a: the baseline is 0, so there is no relative change\n"

static bool zero_base(const struct compare_row *row)
{
	return row->sum[0].n && stats_mean_of(&row->sum[0], row->mean) == 0;
}

/* The test as printed in the explanation lines (<= 80 columns). */
static void describe_test(struct strbuf *out, const struct compare *c, const char *prefix)
{
	switch (c->test) {
	case STATS_WELCH:
	case STATS_MWU:
		strbuf_addf(out, "%s%s test, two-sided; significant when the p-value adjusted\n"
			    "  with Benjamini-Hochberg across the %zu KPI comparison%s here is < %.2f"
			    " (FDR 5%%)\n", prefix,
			    c->test == STATS_WELCH ? "Welch's t" : "Mann-Whitney U", c->ntests,
			    c->ntests == 1 ? "" : "s", COMPARE_ALPHA);
		if (c->nmonitor_tests)
			strbuf_addf(out, "  (the %zu monitor-row test%s: a family of their own)\n",
				    c->nmonitor_tests, c->nmonitor_tests == 1 ? "" : "s");
		break;
	case STATS_MMTESTS:
		strbuf_addf(out, "%smmtests rule: significant when the +-1.96 sigma bands of the\n"
			    "  samples do not overlap (no p-value, no FDR adjustment)\n", prefix);
		break;
	case STATS_LKP:
		strbuf_addf(out, "%s0-day rule: significant when the samples separate around the\n"
			    "  medians and the median ratio is > 1.01 (>= 3 runs; no p-value)\n",
			    prefix);
		break;
	}
}

/* Which statistic the rows show, and how it is tested (<= 80 columns). */
static void describe_mean(struct strbuf *out, const struct compare *c, const char *prefix)
{
	bool welch = c->test == STATS_WELCH;

	switch (c->mean) {
	case STATS_MEAN_AUTO:
		strbuf_addf(out, "%sHmean (harmonic mean) for a higher-is-better metric, else Amean,"
			    "\n  as in the run summary%s\n", prefix,
			    welch ? "; an Hmean is tested on 1/x and mapped back" : "");
		break;
	case STATS_AMEAN:
		strbuf_addf(out, "%sAmean (arithmetic mean)\n", prefix);
		break;
	case STATS_HMEAN:
		strbuf_addf(out, "%sHmean (harmonic mean; Amean where a sample is <= 0)%s\n", prefix,
			    welch ? ",\n  tested on 1/x and mapped back" : "");
		break;
	case STATS_GMEAN:
		strbuf_addf(out, "%sGmean (geometric mean; Amean where a sample is <= 0)%s\n", prefix,
			    welch ? ",\n  tested on log x and mapped back" : "");
		break;
	case STATS_MEDIAN:
		strbuf_addf(out, "%sMedian%s\n", prefix,
			    welch ? ", tested with Mann-Whitney U (Welch has no median)" : "");
		break;
	}
}

int compare_opt_test(const struct option *opt, const char *arg)
{
	if (stats_test_parse(arg, opt->value) < 0)
		return error("--test '%s': expected welch, mwu, mmtests or lkp", arg);
	return 0;
}

int compare_opt_mean(const struct option *opt, const char *arg)
{
	if (stats_mean_parse(arg, opt->value) < 0)
		return error("--mean '%s': expected amean, hmean, gmean or median", arg);
	return 0;
}

int compare_opt_unit(const struct option *opt, const char *arg)
{
	if (stats_unit_parse(arg, opt->value) < 0)
		return error("--unit '%s': expected auto, run or iteration", arg);
	return 0;
}

int compare_opt_last(const struct option *opt, const char *arg)
{
	if (query_filter_set_last(opt->value, arg))
		return error("--last '%s': expected a number of runs >= 1", arg);
	return 0;
}

/* ---- mmtests (§1) ---- */

double compare_pdiff(double new_, double base)
{
	if (new_ == base || new_ == 0)
		return 0;
	if (base == 0)
		return 100;
	return new_ * 100 / base - 100;
}

double compare_pndiff(double new_, double base)
{
	if (new_ == base)
		return 0;
	if (new_ == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - new_ * 100 / base;
}

/*
 * mmtests' header split, quirks included.  It takes the first '-'; when
 * the window of idx + 3 characters starting there holds "-rc<digit>"
 * anywhere, the split moves 4 on (so "-rc10" loses its 0, and
 * "a-b-rc1" splits inside the rc).  Line 1 is the name up to the split,
 * line 2 what follows the character there (empty when the name ends
 * first: "v6.9-rc3" is all on line 1).  Without a '-', line 1 drops the
 * last character and line 2 is the whole name ("base" -> "bas" / "base").
 */
void compare_mmtests_header(const char *name, char *line1, char *line2, size_t len)
{
	const char *d = strchr(name, '-');
	size_t n = strlen(name);

	if (!d) {
		snprintf(line1, len, "%.*s", (int)(n ? n - 1 : 0), name);
		snprintf(line2, len, "%s", name);
		return;
	}
	{
		size_t idx = (size_t)(d - name), end = idx + (idx + 3 < n - idx ? idx + 3 : n - idx);

		for (size_t i = idx; i + 4 <= end; i++)
			if (!strncmp(name + i, "-rc", 3) && name[i + 3] >= '0' && name[i + 3] <= '9') {
				idx += 4;
				break;
			}
		snprintf(line1, len, "%.*s", (int)(idx < n ? idx : n), name);
		snprintf(line2, len, "%s", idx + 1 < n ? name + idx + 1 : "");
	}
}

enum mm_stat { MM_MIN, MM_MEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX, MM_BEST, MM_NR };
static const char *const mm_labels[2][MM_NR] = {
	{ "Min", "Amean", "Stddev", "CoeffVar", "Max", "BAmean.95" },
	{ "Min", "Hmean", "HStddev", "HCoeffVar", "Max", "BHmean.95" },
};

static double mm_value(const struct stats_summary *s, enum mm_stat k, int better)
{
	switch (k) {
	case MM_MIN: return s->min;
	case MM_MEAN: return better > 0 ? s->hmean : s->amean;
	case MM_STDDEV: return better > 0 ? s->hstddev : s->stddev;
	case MM_COEFFVAR: return better > 0 ? s->hcoeffvar : s->coeffvar;
	case MM_MAX: return s->max;
	case MM_BEST: return s->best95;
	default: return NAN;
	}
}

/* The op name: metric, then the variant's values ("faults/cpu-4"). */
static char *op_name(const struct query_row *q)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v = q->variant;

	strbuf_addstr(&sb, q->metric);
	while (*v) {
		const char *comma = strchr(v, ','), *eq = strchr(v, '=');
		size_t end = comma ? (size_t)(comma - v) : strlen(v);
		const char *val = (eq && (size_t)(eq - v) < end) ? eq + 1 : v;
		size_t vl = end - (size_t)(val - v);
		char *piece = xstrndup(val, vl);
		/* aim9's metric already names the test: brk_test.ops_per_sec */
		bool in_metric = false;
		const char *m = q->metric;
		size_t pl = strlen(piece);

		while (m && *m) {
			if (!strncmp(m, piece, pl) && (m[pl] == '.' || m[pl] == '\0')) {
				in_metric = true;
				break;
			}
			m = strchr(m, '.');
			if (m)
				m++;
		}
		if (!in_metric)
			strbuf_addf(&sb, "-%s", piece);
		free(piece);
		v += end;
		if (*v == ',')
			v++;
	}
	return strbuf_detach(&sb);
}

/*
 * mmtests' DecimalPlaces: 2 unless the benchmark's module says otherwise,
 * whatever the size of the mean.  Workloads mmtests does not have choose
 * their own (pte-mapped-folio times a few ms in seconds).
 */
static const struct {
	const char *workload, *metric;	/* metric NULL: every metric */
	int places;
} mm_places[] = {
	{ "pft", NULL, 4 },
	{ "hackbench", NULL, 4 },
	{ "pte-mapped-folio", "seconds", 6 },
};

int compare_mmtests_places(const char *workload, const char *metric)
{
	for (size_t i = 0; i < ARRAY_SIZE(mm_places); i++)
		if (!strcmp(workload, mm_places[i].workload) &&
		    (!mm_places[i].metric || !strcmp(metric, mm_places[i].metric)))
			return mm_places[i].places;
	return 2;
}

#define MM_L 9
#define MM_W 18

static void mm_cell(struct strbuf *out, double v, double pct, int prec, bool star, bool na)
{
	if (isnan(v) || v == -1) {
		v = 0;
		pct = 0;
		na = false;
	}
	if (isnan(pct))
		pct = 0;
	strbuf_addf(out, "%*.*f", MM_W, prec, v);
	if (na)
		strbuf_addf(out, star ? " *%8s*" : " (%8s)", "n/a");
	else if (star)
		strbuf_addf(out, " *%7.2f%%*", pct);
	else
		strbuf_addf(out, " (%7.2f%%)", pct);
}

static bool mmtests_table(struct strbuf *out, const struct compare *c, const size_t *rows,
			  size_t nrows)
{
	bool any_na = false;
	char **ops = xcalloc(nrows, sizeof(*ops));
	size_t M = 0;

	for (size_t k = 0; k < nrows; k++) {
		ops[k] = op_name(c->rows[rows[k]].q);
		if (strlen(ops[k]) > M)
			M = strlen(ops[k]);
	}
	for (int line = 0; line < 2; line++) {
		strbuf_addf(out, "%*s", (int)(MM_L + 1 + M), "");
		for (size_t i = 0; i < nlabels(c); i++) {
			char l1[256], l2[256];

			compare_mmtests_header(label_of(c, i), l1, l2, sizeof(l1));
			strbuf_addf(out, "%*s", MM_W + 11, line ? l2 : l1);
		}
		strbuf_addch(out, '\n');
	}
	for (int k = 0; k < MM_NR; k++) {
		for (size_t j = 0; j < nrows; j++) {
			const struct compare_row *row = &c->rows[rows[j]];
			int better = row->q->better;
			double base = mm_value(&row->sum[0], (enum mm_stat)k, better);
			bool spread = k == MM_STDDEV || k == MM_COEFFVAR;

			strbuf_addf(out, "%-*s %-*s", MM_L, mm_labels[better > 0][k], (int)M, ops[j]);
			for (size_t i = 0; i < nlabels(c); i++) {
				double v = mm_value(&row->sum[i], (enum mm_stat)k, better);
				double pct;
				bool star, na;

				if (i == 0)
					pct = 0;
				else if (spread || better < 0)
					pct = compare_pndiff(v, base);
				else
					pct = compare_pdiff(v, base);
				if (isnan(base) || base == -1)
					pct = 0;
				star = i > 0 && k == MM_MEAN && compare_significant(c, rows[j], i);
				/* not mmtests' 100 / -99 stand-ins for a zero baseline */
				na = i > 0 && base == 0 && v != base;
				any_na |= na && !isnan(v) && v != -1;
				mm_cell(out, v, pct, compare_mmtests_places(row->q->workload,
									    row->q->metric), star, na);
			}
			strbuf_addch(out, '\n');
		}
	}
	for (size_t k = 0; k < nrows; k++)
		free(ops[k]);
	free(ops);
	return any_na;
}

/* Rows grouped by a key, groups in first-appearance order. */
typedef bool (*same_group_fn)(const struct query_row *a, const struct query_row *b);

static size_t next_group(const struct compare *c, bool *done, same_group_fn same,
			 size_t *rows)
{
	size_t first = SIZE_MAX, n = 0;

	for (size_t r = 0; r < c->nr; r++) {
		if (done[r])
			continue;
		if (first == SIZE_MAX)
			first = r;
		if (same(c->rows[first].q, c->rows[r].q)) {
			rows[n++] = r;
			done[r] = true;
		}
	}
	return n;
}

static bool same_workload(const struct query_row *a, const struct query_row *b)
{
	return !strcmp(a->workload, b->workload);
}

static bool same_variant(const struct query_row *a, const struct query_row *b)
{
	return same_workload(a, b) && !strcmp(a->variant, b->variant);
}

void compare_mmtests(struct strbuf *out, const struct compare *c)
{
	bool *done = xcalloc(c->nr + 1, sizeof(*done));
	size_t *rows = xmalloc((c->nr + 1) * sizeof(*rows)), n;
	bool first = true;

	bool several = false, na = false;

	for (size_t r = 1; r < c->nr; r++)
		if (strcmp(c->rows[r].q->workload, c->rows[0].q->workload))
			several = true;
	/* one table per workload, named only when there are several */
	while ((n = next_group(c, done, same_workload, rows))) {
		if (!first)
			strbuf_addch(out, '\n');
		first = false;
		if (several)
			strbuf_addf(out, "%s\n", c->rows[rows[0]].q->workload);
		na |= mmtests_table(out, c, rows, n);
	}
	if (c->nr) {
		strbuf_addch(out, '\n');
		describe_test(out, c, "* = ");
		compare_guard_notes(out, c);
	}
	if (na)
		strbuf_addstr(out, ZERO_BASE_NOTE);
	free(done);
	free(rows);
}

/* ---- lkp / 0-day ncompare (§2) ---- */

void compare_lkp_value(struct strbuf *out, double mean)
{
	double a = fabs(mean);

	if (isnan(mean))
		strbuf_addf(out, "%10s", "");
	else if (a < 1000)
		strbuf_addf(out, "%10.2f", mean);
	else if (a > 1e8)
		strbuf_addf(out, "%10.4g", mean);
	else
		strbuf_addf(out, "%10lld", (long long)mean);	/* Ruby %d truncates */
}

static void lkp_stddev(struct strbuf *out, const struct stats_summary *s)
{
	double pct;

	if (s->n < 2 || s->amean == 0 || isnan(s->amean)) {
		strbuf_addstr(out, "      ");
		return;
	}
	pct = 100 * s->pstddev / fabs(s->amean);
	if (pct > 2)
		strbuf_addf(out, " \xc2\xb1%3d%%", (int)pct);
	else
		strbuf_addstr(out, "      ");
}

static bool lkp_absolute(const char *name)
{
	return starts_with(name, "perf-profile") || ends_with(name, "%");
}

struct axis {
	char *key, *value;
};

static int axis_cmp(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->key, ((const struct axis *)b)->key);
}

static void axis_add(struct axis **ax, size_t *n, size_t *alloc, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*ax)[i].key, k))
			return;
	ALLOC_GROW(*ax, *n + 1, *alloc);
	(*ax)[*n].key = xstrdup(k);
	(*ax)[*n].value = xstrdup(v);
	(*n)++;
}

/* A value shared by every label, or NULL. */
static const char *shared_meta(const struct compare *c, char *const *v)
{
	if (!v || !v[0] || !*v[0])
		return NULL;
	for (size_t i = 1; i < nlabels(c); i++)
		if (!v[i] || strcmp(v[i], v[0]))
			return NULL;
	return v[0];
}

/* What identifies a label in the sha header and commit lines. */
static void lkp_commit_id(const struct compare *c, size_t i, char **id, char **line)
{
	const struct query_kernel *k = &c->qs->kernels[i];
	const char *meta_sha = c->meta.commit ? c->meta.commit[i] : NULL;
	const char *subject = c->meta.subject ? c->meta.subject[i] : NULL;

	if (meta_sha && *meta_sha) {
		*id = xstrdup(meta_sha);
		*line = xasprintf("%.10s (\"%s\")", meta_sha,
				  subject && *subject ? subject : k->label);
	} else {
		*id = xstrdup(k->label);
		*line = xstrdup(k->label);
	}
}

static bool lkp_block(struct strbuf *out, const struct compare *c, const size_t *rows,
		      size_t nrows)
{
	bool any_na = false;
	const struct query_row *q0 = c->rows[rows[0]].q;
	struct axis *ax = NULL;
	size_t nax = 0, axalloc = 0;
	const char *v = q0->variant;
	size_t nl = nlabels(c);

	/* header axes: testcase, the variant's params, shared metadata */
	axis_add(&ax, &nax, &axalloc, "testcase", q0->workload);
	while (*v) {
		const char *comma = strchr(v, ','), *eq = strchr(v, '=');
		size_t end = comma ? (size_t)(comma - v) : strlen(v);

		if (eq && (size_t)(eq - v) < end) {
			char *k = xstrndup(v, (size_t)(eq - v));
			char *val = xstrndup(eq + 1, end - (size_t)(eq - v) - 1);

			axis_add(&ax, &nax, &axalloc, k, val);
			free(k);
			free(val);
		}
		v += end;
		if (*v == ',')
			v++;
	}
	axis_add(&ax, &nax, &axalloc, "compiler", shared_meta(c, c->meta.compiler));
	axis_add(&ax, &nax, &axalloc, "cpufreq_governor", shared_meta(c, c->meta.governor));
	axis_add(&ax, &nax, &axalloc, "tbox_group", shared_meta(c, c->meta.tbox_group));
	axis_add(&ax, &nax, &axalloc, "kconfig", shared_meta(c, c->meta.kconfig));
	qsort(ax, nax, sizeof(*ax), axis_cmp);

	for (int i = 0; i < 89; i++)
		strbuf_addch(out, '=');
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nax; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", ax[i].key);
	strbuf_addstr(out, ":\n  ");
	for (size_t i = 0; i < nax; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", ax[i].value);
	strbuf_addstr(out, "\n\ncommit:\n");
	for (size_t i = 0; i < nl; i++) {
		char *id, *line;

		lkp_commit_id(c, i, &id, &line);
		strbuf_addf(out, "  %s\n", line);
		free(id);
		free(line);
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nl; i++) {
		char *id, *line;

		lkp_commit_id(c, i, &id, &line);
		if (i == 0)
			strbuf_addf(out, "%16.16s ", id);
		else
			strbuf_addf(out, "%27.27s ", id);
		free(id);
		free(line);
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < nl; i++)
		strbuf_addstr(out, i ? "--------------------------- " : "---------------- ");
	strbuf_addch(out, '\n');
	strbuf_addstr(out, "         %stddev");
	for (size_t i = 1; i < nl; i++)
		strbuf_addstr(out, "     %change         %stddev");
	strbuf_addch(out, '\n');
	strbuf_addstr(out, "             \\  ");
	for (size_t i = 1; i < nl; i++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');

	for (size_t k = 0; k < nrows; k++) {
		const struct compare_row *row = &c->rows[rows[k]];
		/* a monitor row's metric is already its lkp name */
		char *name = row->q->monitor ? xstrdup(row->q->metric)
					     : xasprintf("%s.%s", row->q->workload, row->q->metric);
		double base = row->sum[0].amean;

		compare_lkp_value(out, row->sum[0].n ? base : NAN);
		lkp_stddev(out, &row->sum[0]);
		for (size_t i = 1; i < nl; i++) {
			const struct stats_summary *s = &row->sum[i];

			if (!s->n || !row->sum[0].n) {
				strbuf_addf(out, "%12s", "");
			} else if (lkp_absolute(name)) {
				strbuf_addf(out, "%+10.1f  ", s->amean - base);
			} else if (base == 0) {
				/* 0-day divides by 1e-100 instead and prints +6.1e+99% */
				strbuf_addf(out, "%11s ", "n/a");
				any_na = true;
			} else {
				double pct = 100 * (s->amean - base) / base;

				if (fabs(pct) >= 100000)
					strbuf_addf(out, "%+10.2g%% ", pct);
				else
					strbuf_addf(out, "%+10.1f%% ", pct);
			}
			compare_lkp_value(out, s->n ? s->amean : NAN);
			lkp_stddev(out, s);
		}
		strbuf_addf(out, "  %s\n", name);
		free(name);
	}
	for (size_t i = 0; i < nax; i++) {
		free(ax[i].key);
		free(ax[i].value);
	}
	free(ax);
	return any_na;
}

void compare_lkp(struct strbuf *out, const struct compare *c)
{
	bool *done = xcalloc(c->nr + 1, sizeof(*done));
	size_t *rows = xmalloc((c->nr + 1) * sizeof(*rows)), n;
	bool first = true, na = false;

	while ((n = next_group(c, done, same_variant, rows))) {
		if (!first)
			strbuf_addch(out, '\n');
		first = false;
		na |= lkp_block(out, c, rows, n);
	}
	if (c->nr)
		strbuf_addstr(out, "\nvalues: arithmetic means (0-day's convention); %change of those\n");
	if (c->ninconclusive || c->nr) {
		struct strbuf notes = STRBUF_INIT;

		compare_guard_notes(&notes, c);
		if (notes.len)
			strbuf_addf(out, "\n%s", notes.buf);
		strbuf_release(&notes);
	}
	if (na)
		strbuf_addf(out, "\n%s", ZERO_BASE_NOTE);
	free(done);
	free(rows);
}

/* ---- markdown mean_rel tables (§3) ---- */

static void md_row(struct strbuf *out, char *const *cells, const size_t *w, const bool *right,
		   size_t ncol)
{
	for (size_t k = 0; k < ncol; k++)
		strbuf_addf(out, right[k] ? "| %*s " : "| %-*s ", (int)w[k], cells[k]);
	strbuf_addstr(out, "|\n");
}

static char *fmt_p(double p)
{
	if (isnan(p))
		return xstrdup("n/a");
	if (p < 0.0001)
		return xasprintf("%.1e", p);
	return xasprintf("%.4f", p);
}

void compare_markdown(struct strbuf *out, const struct compare *c)
{
	static const char *const head[] = { "kernel", "mean_rel", "std_rel", "p / 95% CI" };
	static const bool right[] = { false, true, true, true };
	size_t nl = nlabels(c);
	bool na = false;

	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		char ***cells = xcalloc(nl, sizeof(*cells));
		size_t w[4];

		if (r)
			strbuf_addch(out, '\n');
		/* names are text, never markup: "<img onerror=...>" is shown, not rendered */
		char *mw = md_text(row->q->workload), *mv = md_text(row->q->variant);
		char *mm = md_text(row->q->metric), *mu = md_text(row->q->unit);

		strbuf_addf(out, "%s%s%s, %s (%s%s%s is better; %s):\n", mw, *mv ? ", " : "", mv, mm,
			    mu, *mu ? ", " : "", row->q->better > 0 ? "higher" : "lower",
			    stats_mean_title(row->mean));
		free(mw);
		free(mv);
		free(mm);
		free(mu);
		for (size_t k = 0; k < 4; k++)
			w[k] = strlen(head[k]) + 2;
		for (size_t i = 0; i < nl; i++) {
			const struct stats_summary *s = &row->sum[i], *b = &row->sum[0];
			const struct stats_test *t = &row->test[i];

			cells[i] = xcalloc(4, sizeof(char *));
			cells[i][0] = md_text(label_of(c, i));
			if (!s->n || !b->n) {
				cells[i][1] = xstrdup("n/a");
				cells[i][2] = s->n > 1 && s->amean ?
					      xasprintf("%.1f%%", 100 * s->stddev / fabs(s->amean)) :
					      xstrdup("n/a");
				cells[i][3] = xstrdup(!i ? "" : !s->n ? "no samples"
								 : "no baseline samples");
			} else {
				if (zero_base(row)) {
					cells[i][1] = xstrdup("n/a");
					na = true;
				} else {
					double mb = stats_mean_of(b, row->mean);

					cells[i][1] = xasprintf("%.1f%%", 100 *
								(stats_mean_of(s, row->mean) - mb) /
								fabs(mb));
				}
				cells[i][2] = s->n > 1 && s->amean ?
					      xasprintf("%.1f%%", 100 * s->stddev / fabs(s->amean)) :
					      xstrdup("n/a");
				if (!i) {
					cells[i][3] = xstrdup("");
				} else if (row->verdict[i] == VERDICT_UNTESTED) {
					cells[i][3] = xstrdup("too few samples");
				} else {
					char *p = fmt_p(c->test == STATS_WELCH || c->test == STATS_MWU ?
							t->q : t->p);

					if (isnan(t->rel_lo))
						cells[i][3] = xasprintf("%s [n/a]%s", p,
									compare_significant(c, r, i) ?
									" *" : "");
					else
						cells[i][3] = xasprintf("%s [%+.1f%%, %+.1f%%]%s", p,
									t->rel_lo, t->rel_hi,
									compare_significant(c, r, i) ?
									" *" : "");
					free(p);
				}
			}
			/* -0.0% reads oddly: print the baseline as 0.0% */
			if (!strcmp(cells[i][1], "-0.0%")) {
				free(cells[i][1]);
				cells[i][1] = xstrdup("0.0%");
			}
			for (size_t k = 0; k < 4; k++)
				if (strlen(cells[i][k]) > w[k])
					w[k] = strlen(cells[i][k]);
		}
		md_row(out, (char *const *)head, w, right, 4);
		for (size_t k = 0; k < 4; k++) {
			strbuf_addch(out, '|');
			if (!right[k])
				strbuf_addch(out, ':');
			for (size_t d = 0; d < w[k] + 1; d++)
				strbuf_addch(out, '-');
			if (right[k])
				strbuf_addch(out, ':');
		}
		strbuf_addstr(out, "|\n");
		for (size_t i = 0; i < nl; i++) {
			md_row(out, cells[i], w, right, 4);
			for (size_t k = 0; k < 4; k++)
				free(cells[i][k]);
			free(cells[i]);
		}
		free(cells);
	}
	if (c->nr) {
		strbuf_addstr(out, "\nmean_rel: change of the statistic named in the title vs the baseline"
			      "\n  (+ = larger value);\n"
			      "std_rel: sample stddev / own mean; [..]: 95% CI of mean_rel;\n");
		if (c->test == STATS_WELCH || c->test == STATS_MWU)
			strbuf_addstr(out, "p: adjusted (Benjamini-Hochberg); * significant.\n");
		else
			strbuf_addstr(out, "p: n/a for this rule; * significant.\n");
		describe_test(out, c, "Test: ");
		compare_guard_notes(out, c);
	}
	if (na)
		strbuf_addstr(out, ZERO_BASE_NOTE);
}

/* ---- CSV / JSON ---- */

static void csv_num(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (!isnan(v) && !isinf(v))
		strbuf_addf(out, "%.17g", v);
}

/* The keys whose recorded values differ between the labels, ';'-joined. */
static void csv_settings(struct strbuf *out, const struct compare *c)
{
	struct strbuf keys = STRBUF_INIT;

	for (size_t k = 0; k < c->nsettings; k++)
		strbuf_addf(&keys, "%s%s", k ? ";" : "", c->setting[k].key);
	strbuf_add_csv(out, keys.len ? keys.buf : "");
	strbuf_release(&keys);
}

void compare_csv(struct strbuf *out, const struct compare *c)
{
	strbuf_addstr(out, "workload,variant,metric,unit,better,kernel,baseline,n,min,q1,median,"
		      "q3,max,amean,hmean,gmean,stddev,pstddev,hstddev,coeffvar,hcoeffvar,best95,"
		      "test,statistic,df,p,p_bh,diff,diff_lo,diff_hi,rel_pct,rel_lo_pct,rel_hi_pct,"
		      "significant,verdict,mean,monitor,unit,units_base,units,runs,between_run_cov,"
		      "within_run_cov,between_run_share,settings_differ\n");
	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];

		for (size_t i = 0; i < nlabels(c); i++) {
			const struct stats_summary *s = &row->sum[i];
			const struct stats_test *t = &row->test[i];

			strbuf_add_csv(out, row->q->workload);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->q->variant);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->q->metric);
			strbuf_addch(out, ',');
			strbuf_add_csv(out, row->q->unit);
			strbuf_addf(out, ",%s,", row->q->better > 0 ? "higher" : "lower");
			strbuf_add_csv(out, label_of(c, i));
			strbuf_addch(out, ',');
			strbuf_add_csv(out, label_of(c, 0));
			strbuf_addf(out, ",%zu", s->n);
			csv_num(out, s->min);
			csv_num(out, s->q1);
			csv_num(out, s->median);
			csv_num(out, s->q3);
			csv_num(out, s->max);
			csv_num(out, s->amean);
			csv_num(out, s->hmean);
			csv_num(out, s->gmean);
			csv_num(out, s->stddev);
			csv_num(out, s->pstddev);
			csv_num(out, s->hstddev);
			csv_num(out, s->coeffvar);
			csv_num(out, s->hcoeffvar);
			csv_num(out, s->best95);
			if (i == 0 || row->verdict[i] == VERDICT_MISSING) {
				strbuf_addstr(out, ",,,,,,,,,,,,,");
			} else {
				strbuf_addf(out, ",%s", stats_test_name(c->test));
				csv_num(out, t->statistic);
				csv_num(out, t->df);
				csv_num(out, t->p);
				csv_num(out, t->q);
				csv_num(out, t->diff);
				csv_num(out, t->diff_lo);
				csv_num(out, t->diff_hi);
				csv_num(out, t->rel);
				csv_num(out, t->rel_lo);
				csv_num(out, t->rel_hi);
				strbuf_addf(out, ",%d", compare_significant(c, r, i));
			}
			strbuf_addch(out, ',');
			if (row->why[i]) {
				char *v = xasprintf("inconclusive: %s", row->why[i]);

				strbuf_add_csv(out, v);
				free(v);
			} else {
				strbuf_add_csv(out, verdict_name(row->verdict[i]));
			}
			/* the statistic diff and rel_* are of; monitor: 1 for a why row (monitors.h) */
			strbuf_addf(out, ",%s,%d,%s,", stats_mean_name(row->mean), row->q->monitor,
				    compare_unit_name(c, r, i));
			if (*compare_unit_name(c, r, i))
				strbuf_addf(out, "%zu,%zu", row->level[i].nb, row->level[i].nn);
			else
				strbuf_addch(out, ',');
			strbuf_addf(out, ",%zu", row->comp[i].nruns);
			csv_num(out, row->comp[i].between_cov);
			csv_num(out, row->comp[i].within_cov);
			csv_num(out, row->comp[i].between_share);
			strbuf_addch(out, ',');
			csv_settings(out, c);
			strbuf_addch(out, '\n');
		}
	}
}

static void jkey(struct strbuf *out, const char *k)
{
	json_add_string(out, k);
	strbuf_addch(out, ':');
}

static void jnum(struct strbuf *out, const char *k, double v, bool comma)
{
	jkey(out, k);
	json_add_number(out, v);
	if (comma)
		strbuf_addch(out, ',');
}

/* "k":[lo,hi], (a confidence interval, then the next key) */
static void jinterval(struct strbuf *out, const char *k, double lo, double hi)
{
	jkey(out, k);
	strbuf_addch(out, '[');
	json_add_number(out, lo);
	strbuf_addch(out, ',');
	json_add_number(out, hi);
	strbuf_addstr(out, "],");
}

/* "unit":"...", "same_kernel":b, "settings_differ":[{"key":K,"values":[...]}], */
static void json_settings(struct strbuf *out, const struct compare *c)
{
	struct strbuf unit = STRBUF_INIT;

	compare_unit_line(&unit, c, "");
	/* one line: the text's wrap "\n  " becomes a space */
	for (size_t i = 0, j = 0; i <= unit.len; i++) {
		if (unit.buf[i] == '\n') {
			while (unit.buf[i + 1] == ' ')
				i++;
			if (unit.buf[i + 1])
				unit.buf[j++] = ' ';
			continue;
		}
		unit.buf[j++] = unit.buf[i];
		if (!unit.buf[i])
			unit.len = j - 1;
	}
	jkey(out, "unit");
	json_add_string(out, unit.buf);
	strbuf_release(&unit);
	/* true: one kernel build under different settings (an export loses the build) */
	strbuf_addf(out, ",\"compares_settings\":%s,\"settings_differ\":[",
		    c->same_kernel && c->nsettings ? "true" : "false");
	for (size_t k = 0; k < c->nsettings; k++) {
		strbuf_addstr(out, k ? ",{" : "{");
		jkey(out, "key");
		json_add_string(out, c->setting[k].key);
		strbuf_addstr(out, ",\"values\":[");
		for (size_t i = 0; i < c->qs->nlabels; i++) {
			if (i)
				strbuf_addch(out, ',');
			json_add_string(out, c->setting[k].values[i] ? c->setting[k].values[i] : "");
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "],");
}

void compare_json(struct strbuf *out, const struct compare *c)
{
	strbuf_addstr(out, "{");
	jkey(out, "baseline");
	json_add_string(out, label_of(c, 0));
	strbuf_addstr(out, ",\"kernels\":[");
	for (size_t i = 0; i < nlabels(c); i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_string(out, label_of(c, i));
	}
	strbuf_addstr(out, "],");
	jkey(out, "test");
	json_add_string(out, stats_test_name(c->test));
	strbuf_addch(out, ',');
	jkey(out, "multiple_comparisons");
	json_add_string(out, c->test == STATS_WELCH || c->test == STATS_MWU ?
			"benjamini-hochberg" : "none");
	strbuf_addf(out, ",\"comparisons_adjusted\":%zu,\"monitor_comparisons_adjusted\":%zu,"
		    "\"alpha\":%.2f,", c->ntests, c->nmonitor_tests, COMPARE_ALPHA);
	json_settings(out, c);
	strbuf_addf(out, "\"counts\":{\"improvement\":%zu,\"regression\":%zu,"
		    "\"no_significant_change\":%zu,\"too_few_samples\":%zu},",
		    c->nbetter, c->nworse, c->nnone, c->nuntested);
	strbuf_addstr(out, "\"rows\":[");
	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];

		strbuf_addstr(out, r ? ",\n{" : "\n{");
		jkey(out, "workload");
		json_add_string(out, row->q->workload);
		strbuf_addch(out, ',');
		jkey(out, "variant");
		json_add_string(out, row->q->variant);
		strbuf_addch(out, ',');
		jkey(out, "metric");
		json_add_string(out, row->q->metric);
		strbuf_addch(out, ',');
		jkey(out, "unit");
		json_add_string(out, row->q->unit);
		/* always there, so a script can filter either way (monitors.h) */
		strbuf_addf(out, ",\"monitor\":%s", row->q->monitor ? "true" : "false");
		strbuf_addf(out, ",\"better\":\"%s\",\"mean\":\"%s\",\"kernels\":[",
			    row->q->better > 0 ? "higher" : "lower", stats_mean_name(row->mean));
		for (size_t i = 0; i < nlabels(c); i++) {
			const struct stats_summary *s = &row->sum[i];
			const struct stats_test *t = &row->test[i];

			strbuf_addstr(out, i ? ",{" : "{");
			jkey(out, "kernel");
			json_add_string(out, label_of(c, i));
			strbuf_addf(out, ",\"n\":%zu,", s->n);
			jnum(out, "min", s->min, true);
			jnum(out, "q1", s->q1, true);
			jnum(out, "median", s->median, true);
			jnum(out, "q3", s->q3, true);
			jnum(out, "max", s->max, true);
			jnum(out, "amean", s->amean, true);
			jnum(out, "hmean", s->hmean, true);
			jnum(out, "gmean", s->gmean, true);
			jnum(out, "stddev", s->stddev, true);
			jnum(out, "pstddev", s->pstddev, true);
			jnum(out, "hstddev", s->hstddev, true);
			jnum(out, "coeffvar", s->coeffvar, true);
			jnum(out, "hcoeffvar", s->hcoeffvar, true);
			jnum(out, "best95", s->best95, true);
			jkey(out, "verdict");
			json_add_string(out, verdict_name(row->verdict[i]));
			if (row->why[i]) {
				strbuf_addch(out, ',');
				jkey(out, "why");
				json_add_string(out, row->why[i]);
			}
			if (row->q->series[i].ndisturbed)
				strbuf_addf(out, ",\"disturbed\":%zu", row->q->series[i].ndisturbed);
			strbuf_addf(out, ",\"runs\":%zu,", row->comp[i].nruns);
			jnum(out, "between_run_cov_pct", row->comp[i].between_cov, true);
			jnum(out, "within_run_cov_pct", row->comp[i].within_cov, true);
			jnum(out, "between_run_share", row->comp[i].between_share, false);
			if (i > 0 && row->verdict[i] != VERDICT_MISSING) {
				strbuf_addstr(out, ",\"test\":{");
				jkey(out, "unit");
				json_add_string(out, compare_unit_name(c, r, i));
				strbuf_addf(out, ",\"units\":[%zu,%zu],", row->level[i].nb,
					    row->level[i].nn);
				jnum(out, "statistic", t->statistic, true);
				jnum(out, "df", t->df, true);
				jnum(out, "p", t->p, true);
				jnum(out, "p_bh", t->q, true);
				jnum(out, "diff", t->diff, true);
				jinterval(out, "diff_ci95", t->diff_lo, t->diff_hi);
				jnum(out, "rel_pct", t->rel, true);
				jinterval(out, "rel_ci95_pct", t->rel_lo, t->rel_hi);
				strbuf_addf(out, "\"significant\":%s}",
					    compare_significant(c, r, i) ? "true" : "false");
			}
			strbuf_addch(out, '}');
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "\n]}\n");
}

/* ---- the default readable table ---- */

/* About 6 significant digits, plain notation for everyday magnitudes. */
static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int mag, dec;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	mag = (int)floor(log10(a));
	if (mag >= 12 || mag < -4) {
		snprintf(buf, len, "%.5e", v);
		return;
	}
	dec = 5 - mag;
	if (dec < 2)
		dec = 2;
	snprintf(buf, len, "%.*f", dec, v);
}

void compare_text(struct strbuf *out, const struct compare *c)
{
	size_t nl = nlabels(c), lw = 6;
	bool na = false;

	for (size_t i = 0; i < nl; i++)
		if (strlen(label_of(c, i)) > lw)
			lw = strlen(label_of(c, i));
	/* names from a database written before the door refused control bytes: escaped */
	strbuf_addf(out, "baseline: %s; compared: ", ctl_show(label_of(c, 0)));
	for (size_t i = 1; i < nl; i++)
		strbuf_addf(out, "%s%s", i > 1 ? ", " : "", ctl_show(label_of(c, i)));
	strbuf_addch(out, '\n');
	describe_test(out, c, "test: ");
	strbuf_addstr(out, "change, 95% CI: relative to the baseline's value of the row's statistic;"
		      "\n  verdicts follow each metric's direction (higher or lower is better)\n");
	describe_mean(out, c, "statistic: ");

	for (size_t r = 0; r < c->nr; r++) {
		const struct compare_row *row = &c->rows[r];
		const struct query_row *q = row->q;
		bool rank = c->test == STATS_WELCH || c->test == STATS_MWU;

		strbuf_addf(out, "\n%s%s%s%s %s [%s%s%s is better]\n", ctl_show(q->workload),
			    *q->variant ? " (" : "", ctl_show(q->variant), *q->variant ? ")" : "",
			    ctl_show(q->metric), ctl_show(q->unit), *q->unit ? ", " : "",
			    q->better > 0 ? "higher" : "lower");
		/* "10 (8 disturbed)" widens the n column for the whole table */
		int nw = 4;
		for (size_t i = 0; i < nl; i++) {
			char ncell[48];

			compare_n_cell(ncell, sizeof(ncell), c, r, i);
			if ((int)strlen(ncell) > nw)
				nw = (int)strlen(ncell);
		}
		strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s\n", (int)lw, "kernel", nw, "n",
			    stats_mean_title(row->mean), "change", "95% CI of change", "p",
			    rank ? "p(BH)" : "ratio", "verdict");
		for (size_t i = 0; i < nl; i++) {
			const struct stats_summary *s = &row->sum[i];
			const struct stats_test *t = &row->test[i];
			char mean[64], chg[32], ci[64], p[32], q2[32];

			char ncell[48];

			compare_n_cell(ncell, sizeof(ncell), c, r, i);
			fmt_num(mean, sizeof(mean), s->n ? stats_mean_of(s, row->mean) : NAN);
			if (i == 0 || row->verdict[i] == VERDICT_MISSING || !s->n || !row->sum[0].n) {
				const char *v = verdict_name(row->verdict[i]);

				if (i && s->n && !row->sum[0].n && !row->why[i])
					v = "no baseline samples";
				strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s%s%s\n", (int)lw,
					    ctl_show(label_of(c, i)), nw, ncell, mean, "", "", "", "", v,
					    row->why[i] ? ": " : "", row->why[i] ? row->why[i] : "");
				continue;
			}
			if (zero_base(row)) {
				snprintf(chg, sizeof(chg), "n/a");
				na = true;
			} else {
				double mb = stats_mean_of(&row->sum[0], row->mean);

				snprintf(chg, sizeof(chg), "%+.2f%%", 100 * (stats_mean_of(s, row->mean) - mb)
					 / fabs(mb));
			}
			if (zero_base(row))
				snprintf(ci, sizeof(ci), "n/a");
			else if (isnan(t->rel_lo))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", t->rel_lo, t->rel_hi);
			if (isnan(t->p))
				snprintf(p, sizeof(p), "-");
			else if (t->p < 0.0001)
				snprintf(p, sizeof(p), "%.1e", t->p);
			else
				snprintf(p, sizeof(p), "%.4f", t->p);
			if (rank) {
				if (isnan(t->q))
					snprintf(q2, sizeof(q2), "-");
				else if (t->q < 0.0001)
					snprintf(q2, sizeof(q2), "%.1e", t->q);
				else
					snprintf(q2, sizeof(q2), "%.4f", t->q);
			} else {
				snprintf(q2, sizeof(q2), "%.3f", t->statistic);
			}
			strbuf_addf(out, "  %-*s %*s %14s %8s %20s %8s %8s  %s%s%s\n", (int)lw,
				    ctl_show(label_of(c, i)), nw, ncell, mean, chg, ci, p, q2,
				    verdict_name(row->verdict[i]), row->why[i] ? ": " : "",
				    row->why[i] ? row->why[i] : "");
		}
	}
	strbuf_addch(out, '\n');
	if (na)
		strbuf_addf(out, "%s\n", ZERO_BASE_NOTE);
	compare_guard_notes(out, c);
	if (!c->nbetter && !c->nworse && c->ninconclusive && !c->nnone)
		strbuf_addf(out, "verdict: inconclusive (%zu comparison%s: the machine's state cannot"
			    " back a verdict", c->ninconclusive, c->ninconclusive == 1 ? "" : "s");
	else if (!c->nbetter && !c->nworse)
		strbuf_addf(out, "verdict: no significant change (%zu comparison%s tested",
			    c->nnone, c->nnone == 1 ? "" : "s");
	else
		strbuf_addf(out, "verdict: %zu regression%s, %zu improvement%s, %zu with no"
			    " significant change", c->nworse, c->nworse == 1 ? "" : "s",
			    c->nbetter, c->nbetter == 1 ? "" : "s", c->nnone);
	if (c->nuntested)
		strbuf_addf(out, "; %zu with too few samples to test", c->nuntested);
	if (!c->nbetter && !c->nworse)
		strbuf_addch(out, ')');
	if (c->ninconclusive && (c->nbetter || c->nworse || c->nnone))
		strbuf_addf(out, "; %zu inconclusive (the machine's state cannot back a verdict)",
			    c->ninconclusive);
	strbuf_addch(out, '\n');
}

/* Were values recorded for a series (counting those left out as disturbed)? */
static bool recorded(const struct query_series *s)
{
	return s->n || s->ndisturbed;
}

bool compare_has_common(const struct query_set *qs)
{
	/* a row whose values were all left out as disturbed is in common: inconclusive */
	for (size_t r = 0; r < qs->nr; r++)
		for (size_t i = 1; recorded(&qs->rows[r].series[0]) && i < qs->nlabels; i++)
			if (recorded(&qs->rows[r].series[i]))
				return true;
	return false;
}

static bool row_selected(const struct query_row *q, const struct query_filter *f, bool metric)
{
	return (!f->workload || !strcmp(q->workload, f->workload)) &&
	       (!metric || !f->metric || !strcmp(q->metric, f->metric));
}

/* "t: pft, ebizzy; e: aim9": per label, the workloads (or metrics) it has. */
static void list_per_label(struct strbuf *sb, const struct query_set *all,
			   const struct query_filter *f, bool metrics)
{
	const char **seen = xcalloc(all->nr + 1, sizeof(*seen));

	for (size_t i = 0; i < all->nlabels; i++) {
		size_t ns = 0;

		strbuf_addf(sb, "%s%s: ", i ? "; " : "", all->kernels[i].label);
		for (size_t r = 0; r < all->nr; r++) {
			const struct query_row *q = &all->rows[r];
			const char *name = metrics ? q->metric : q->workload;
			size_t k;

			if (!recorded(&q->series[i]) || (metrics && !row_selected(q, f, false)))
				continue;
			for (k = 0; k < ns && strcmp(seen[k], name); k++)
				;
			if (k < ns)
				continue;
			seen[ns++] = name;
			strbuf_addf(sb, "%s%s", ns > 1 ? ", " : "", name);
		}
		if (!ns)
			strbuf_addstr(sb, "no samples");
	}
	free(seen);
}

int compare_explain_nothing(const struct query_set *all, const struct query_filter *f)
{
	struct strbuf sb = STRBUF_INIT;
	bool has_w = !f->workload, has_m = !f->metric;

	for (size_t r = 0; r < all->nr; r++) {
		has_w |= row_selected(&all->rows[r], f, false);
		has_m |= row_selected(&all->rows[r], f, true);
	}
	if (!has_w) {
		strbuf_addf(&sb, "no workload '%s' in these kernels' runs; workloads: ", f->workload);
		list_per_label(&sb, all, f, false);
	} else if (!has_m) {
		strbuf_addf(&sb, "no metric '%s'%s%s%s in these kernels' runs; metrics: ", f->metric,
			    f->workload ? " of workload '" : "", f->workload ? f->workload : "",
			    f->workload ? "'" : "");
		list_per_label(&sb, all, f, true);
	} else {
		strbuf_addf(&sb, "nothing to compare: %s and the other kernels have no workload, variant"
			    " and metric in common (only complete and interrupted runs count); "
			    "workloads: ", all->kernels[0].label);
		list_per_label(&sb, all, f, false);
	}
	error("%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* ---- the API: selection -> value ---- */

void compare_select_init(struct compare_select *s, const char *const *labels, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->labels = labels;
	s->nlabels = n;
	s->test = STATS_WELCH;
	s->mean = STATS_MEAN_AUTO;
	s->monitors = MONITORS_NONE;	/* plots never show monitor rows */
}

/* Nothing selected: one error naming what there is; MMB_EUSAGE. */
static int nothing_selected(struct mmb_db *db, const struct compare_select *s)
{
	const struct query_filter *f = &s->filter;
	struct query_filter wide = *f;
	struct query_set all;

	if (s->need == COMPARE_NEED_ROWS) {
		error("no samples of %s%s%s%s%s for these kernels in %s",
		      f->workload ? "workload '" : "any workload", f->workload ? f->workload : "",
		      f->workload ? "'" : "", f->metric ? " metric " : "", f->metric ? f->metric : "",
		      db_path(db));
		return MMB_EUSAGE;
	}
	wide.workload = wide.metric = NULL;
	if (!query_load(db, s->labels, s->nlabels, &wide, &all)) {
		compare_explain_nothing(&all, f);
		query_set_release(&all);
	}
	return MMB_EUSAGE;
}

int compare_open(struct mmb_db *db, const struct compare_select *s, struct compare *c)
{
	struct query_set *qs = xcalloc(1, sizeof(*qs));
	int rc;

	memset(c, 0, sizeof(*c));
	rc = query_load(db, s->labels, s->nlabels, &s->filter, qs);
	if (rc) {
		free(qs);
		return rc == QUERY_EUNKNOWN ? MMB_EUSAGE : -1;
	}
	/* two machines' results are not pooled (--by machine compares them) */
	rc = s->filter.machines ? 0 : compare_check_machines(db, qs);
	if (rc) {
		query_set_release(qs);
		free(qs);
		return rc;
	}
	if (s->need == COMPARE_NEED_COMMON ? !compare_has_common(qs) : !qs->nr) {
		rc = nothing_selected(db, s);
		query_set_release(qs);
		free(qs);
		return rc;
	}
	if (s->need == COMPARE_NEED_COMMON)
		for (size_t i = 0; i < s->nlabels; i++)
			if (!qs->kernels[i].nruns_pooled)
				warning("kernel '%s' has no complete or interrupted run", s->labels[i]);
	if (monitors_add(db, qs, (enum monitors_mode)s->monitors)) {
		query_set_release(qs);
		free(qs);
		return -1;
	}
	compare_build_unit(c, qs, s->test, s->mean, s->unit);
	monitors_settle(c, (enum monitors_mode)s->monitors);
	c->own = qs;
	c->verbose = s->verbose;
	if (s->meta)
		compare_load_meta(c, db);
	if (compare_load_settings(c, db))
		warning("could not read the runs' recorded settings from %s", db_path(db));
	return 0;
}

int compare_show(struct mmb_db *db, const struct compare_select *s, enum compare_format f,
		 FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct compare c;
	int rc = compare_open(db, s, &c);

	if (rc)
		return mmb_exit_code(rc);
	compare_print(&sb, &c, f);
	if (f != CMP_CSV && f != CMP_JSON)
		monitors_note(&sb, &c, (enum monitors_mode)s->monitors);
	fwrite(sb.buf, 1, sb.len, out);
	rc = fflush(out) ? EXIT_RUNTIME : EXIT_OK;
	strbuf_release(&sb);
	compare_release(&c);
	return rc;
}

int compare_format_parse(const char *name, enum compare_format *f)
{
	static const char *const names[] = {
		[CMP_TEXT] = "text", [CMP_MMTESTS] = "mmtests", [CMP_LKP] = "lkp",
		[CMP_MARKDOWN] = "markdown", [CMP_CSV] = "csv", [CMP_JSON] = "json",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i])) {
			*f = (enum compare_format)i;
			return 0;
		}
	return -1;
}

void compare_print(struct strbuf *out, const struct compare *c, enum compare_format f)
{
	switch (f) {
	case CMP_TEXT: compare_text(out, c); break;
	case CMP_MMTESTS: compare_mmtests(out, c); break;
	case CMP_LKP: compare_lkp(out, c); break;
	case CMP_MARKDOWN: compare_markdown(out, c); break;
	case CMP_CSV: compare_csv(out, c); break;
	case CMP_JSON: compare_json(out, c); break;
	}
}
