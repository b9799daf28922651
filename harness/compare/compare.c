/*
 * The comparison value: per row and label the summary, the test and the
 * verdict, from a query set; the selection API (compare_open()).  Every
 * rendering of it is in harness/render/.
 */
#include "compare.h"
#include "bymachine.h"
#include "json.h"
#include "monlist.h"
#include "pipeline.h"
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

static int cmp_up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

/*
 * The row's summary as mmtests computes it: the samples sorted best-first
 * before they are summed (Summarise.pm), so the last digit of a mean
 * agrees with compare-mmtests.pl's; recorded order differed in 3 cells of
 * the peer cases.  v: room for s->n values.
 */
static void mm_summary(const struct query_series *s, int better, struct stats_summary *out,
		       double *v, struct stats_scratch *room)
{
	bool zero = false;

	if (s->n)	/* a label without samples has no array (memcpy of NULL is undefined) */
		memcpy(v, s->v, s->n * sizeof(*v));
	for (size_t k = 0; k < s->n; k++)
		zero |= v[k] == 0;
	/*
	 * Best first: ascending (the radix sort, qsort()'s order), reversed
	 * when higher is better: equal values are equal bits, so the order
	 * among them does not show, but for -0 and 0: those as qsort() has them.
	 */
	if (better > 0 && zero) {
		qsort(v, s->n, sizeof(*v), cmp_down);
	} else {
		stats_sort(v, s->n);
		for (size_t a = 0, b = s->n; better > 0 && a + 1 < b; a++, b--) {
			double t = v[a];

			v[a] = v[b - 1];
			v[b - 1] = t;
		}
	}
	stats_summarise_in(v, s->n, better, out, room);
}

/* The value's labels, so that a layout needs nothing of qs. */
static void set_labels(struct compare *c, const struct query_set *qs)
{
	c->qs = qs;
	c->nlabels = qs->nlabels;
	c->label = xcalloc(qs->nlabels ? qs->nlabels : 1, sizeof(*c->label));
	for (size_t i = 0; i < qs->nlabels; i++)
		c->label[i] = qs->kernels[i].label;
}

/* The settings of a build; rows come after (build_rows()). */
static void build_begin(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean, enum stats_unit unit)
{
	memset(c, 0, sizeof(*c));
	/*
	 * A rank test's location is the median: its change (the Hodges-Lehmann
	 * shift) over the baseline's Hmean read +1071% where the means moved
	 * +59% and the medians +103%.
	 */
	if (test == STATS_MWU && mean == STATS_MEAN_AUTO)
		mean = STATS_MEDIAN;
	set_labels(c, qs);
	c->test = test;
	c->mean = mean;
	c->unit = unit;
}

/* What build_rows() hands its steps (pipeline.h). */
struct row_build {
	struct compare *c;
	struct mmb_db *db;	/* NULL: the rows' samples are in memory */
	size_t from;		/* item k of the pipeline is row from + k */
	double *mm_buf[2];	/* [who]: mm_summary()'s room, one per thread */
	size_t mm_alloc[2];
	struct stats_scratch room[2];	/* [who]: the summaries' */
};

/* Row r's samples, read on the thread that owns db. */
static int row_read(void *arg, size_t k)
{
	struct row_build *b = arg;

	return b->db ? query_row_fill(b->db, (struct query_set *)b->c->qs, b->from + k) : 0;
}

/*
 * Row r from its samples: summaries, tests (before BH) and what the guard
 * needs.  On either thread: it writes c->rows[r] and b's room of who alone,
 * and reads its row's samples and c's settings, which nothing writes then.
 */
static void row_compute(void *arg, size_t k, unsigned who)
{
	struct row_build *b = arg;
	struct compare *c = b->c;
	size_t nl = c->qs->nlabels, r = b->from + k;
	struct compare_row *row = &c->rows[r];
	const struct query_row *qr = &c->qs->rows[r];

	row->q = qr;
	row->what = (struct compare_what){ qr->workload, qr->variant, qr->metric, qr->unit,
					   qr->better, qr->monitor };
	row->mean = row_mean(c->mean, qr, nl);
	row->sum = xcalloc(nl, sizeof(*row->sum));
	row->test = xcalloc(nl, sizeof(*row->test));
	row->verdict = xcalloc(nl, sizeof(*row->verdict));
	row->interval = xcalloc(nl, sizeof(*row->interval));
	row->interval_ok = xcalloc(nl, sizeof(*row->interval_ok));
	row->level = xcalloc(nl, sizeof(*row->level));
	row->comp = xcalloc(nl, sizeof(*row->comp));
	row->side = xcalloc(nl, sizeof(*row->side));
	/* one buffer for every row: a fresh one each row made the heap shrink and grow */
	for (size_t i = 0; c->mm_sums && i < nl; i++)
		if (qr->series[i].n >= b->mm_alloc[who]) {
			b->mm_alloc[who] = qr->series[i].n + 1;
			b->mm_buf[who] = xrealloc(b->mm_buf[who], b->mm_alloc[who] * sizeof(double));
		}
	for (size_t i = 0; i < nl; i++) {
		const struct query_series *s = &qr->series[i];

		stats_summarise_in(s->v, s->n, qr->better, &row->sum[i], &b->room[who]);
		stats_components(s->v, s->run_id, s->n, &row->comp[i]);
		compare_side_measure(s, &row->side[i]);
		if (c->mm_sums)
			mm_summary(s, qr->better, &row->side[i].mm, b->mm_buf[who], &b->room[who]);
	}
	row->verdict[0] = qr->series[0].n ? VERDICT_BASELINE : VERDICT_MISSING;
	for (size_t i = 1; i < nl; i++)
		test_cell(c, r, i);
}

/* Row r's samples freed again, on the thread that read them. */
static void row_done(void *arg, size_t k)
{
	struct row_build *b = arg;

	if (b->db)
		query_row_drop((struct query_set *)b->c->qs, b->from + k);
}

/*
 * Rows [c->nr, qs->nr) from their samples (row_compute()).  The rows
 * before keep what they have; all point into qs->rows again
 * (monitors_add() may have moved them).  With db, each row's samples are
 * read before and freed after (query_open()), on this thread: from
 * thread_samples samples on (0: COMPARE_THREAD_SAMPLES; SIZE_MAX: never)
 * a second thread computes rows while this one reads the next, and
 * computes too when that one has enough in hand.  The rows are the same
 * either way: each is computed by the same code from the same samples.
 */
static int build_rows(struct compare *c, struct mmb_db *db, size_t thread_samples)
{
	static const struct pipeline_ops ops = { row_read, row_compute, row_done };
	const struct query_set *qs = c->qs;
	struct row_build b = { .c = c, .db = db, .from = c->nr };
	size_t from = c->nr, samples = 0, done;

	c->rows = xrealloc(c->rows, (qs->nr ? qs->nr : 1) * sizeof(*c->rows));
	memset(c->rows + from, 0, (qs->nr - from) * sizeof(*c->rows));
	for (size_t r = 0; r < from; r++)
		c->rows[r].q = &qs->rows[r];
	if (!thread_samples)
		thread_samples = COMPARE_THREAD_SAMPLES;
	for (size_t r = from; r < qs->nr && samples < thread_samples; r++)
		samples += query_row_samples(qs, r);
	done = pipeline_run(qs->nr - from, &ops, &b, samples >= thread_samples);
	c->nr = from + done;
	for (int who = 0; who < 2; who++) {
		free(b.mm_buf[who]);
		stats_scratch_release(&b.room[who]);
	}
	return from + done < qs->nr ? -1 : 0;
}

/* BH over every row's p-values, the verdicts, the headline and the guard. */
static void build_end(struct compare *c)
{
	size_t nl = c->qs->nlabels;

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
			if (c->test == STATS_WELCH || c->test == STATS_MWU)
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

void compare_build_unit(struct compare *c, const struct query_set *qs, enum stats_test_kind test,
			enum stats_mean_kind mean, enum stats_unit unit)
{
	build_begin(c, qs, test, mean, unit);
	c->mm_sums = true;
	build_rows(c, NULL, 0);
	build_end(c);
}

static void strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int compare_load_runs(struct compare *c, struct mmb_db *db)
{
	const struct query_set *qs = c->qs;
	size_t alloc = 0;
	int rc = 0;

	for (size_t i = 0; i < qs->nlabels; i++)
		for (size_t j = 0; j < qs->kernels[i].nruns; j++) {
			const struct query_run *run = &qs->kernels[i].runs[j];
			struct compare_run *cr;

			if (!run->pooled)
				continue;
			ALLOC_GROW(c->runs, c->nruns + 1, alloc);
			cr = &c->runs[c->nruns++];
			memset(cr, 0, sizeof(*cr));
			cr->label = i;
			cr->run = run;
			if (!rc && query_run_env(db, run->id, &cr->env, &cr->nenv)) {
				cr->env = NULL;
				cr->nenv = 0;
				rc = -1;
			}
		}
	return rc;
}

const struct compare_run *compare_run_of(const struct compare *c, const struct query_run *run)
{
	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k].run == run)
			return &c->runs[k];
	return NULL;
}

static void runs_release(struct compare *c)
{
	for (size_t k = 0; k < c->nruns; k++)
		query_env_free(c->runs[k].env, c->runs[k].nenv);
	free(c->runs);
}

/* The governor run recorded: from c->runs when pooled, else read from db. */
static char *run_governor(const struct compare *c, struct mmb_db *db, const struct query_run *run)
{
	const struct compare_run *cr = compare_run_of(c, run);
	struct query_env *env = cr ? cr->env : NULL;
	size_t ne = cr ? cr->nenv : 0;
	char *gov = NULL;

	if (!cr && query_run_env(db, run->id, &env, &ne))
		return NULL;
	for (size_t e = 0; e < ne && !gov; e++)
		if (!strcmp(env[e].key, "cpufreq.cpu0.governor") ||
		    !strcmp(env[e].key, "cpufreq.governor.requested"))
			gov = xstrdup(env[e].value);
	if (!cr)
		query_env_free(env, ne);
	return gov;
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
		m->governor[i] = run_governor(c, db, &k->runs[j]);
	}
	return 0;
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
	free(c->label);
	runs_release(c);
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
	view->view = v;
	set_labels(view, v);
	view->test = c->test;
	view->mean = c->mean;
	view->unit = c->unit;
	view->kept_disturbed = c->kept_disturbed;
	view->clock = c->clock;
	memcpy(view->arch, c->arch, sizeof(view->arch));
	view->mm_sums = c->mm_sums;
	view->dropped = c->dropped;
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
		to->what = from->what;
		to->mean = from->mean;
		to->sum = xcalloc(2, sizeof(*to->sum));
		to->test = xcalloc(2, sizeof(*to->test));
		to->verdict = xcalloc(2, sizeof(*to->verdict));
		to->tested = xcalloc(2, sizeof(*to->tested));
		to->interval = xcalloc(2, sizeof(*to->interval));
		to->interval_ok = xcalloc(2, sizeof(*to->interval_ok));
		to->level = xcalloc(2, sizeof(*to->level));
		to->comp = xcalloc(2, sizeof(*to->comp));
		to->side = xcalloc(2, sizeof(*to->side));
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
			to->side[k] = from->side[pick[k]];
		}
		if (from->why[i])
			to->why[1] = xstrdup(from->why[i]);
		/* the tests compare_build() counted for BH (verdict NONE before BH) */
		if (to->tested[1] != VERDICT_MISSING && to->tested[1] != VERDICT_UNTESTED &&
		    !isnan(to->test[1].p))
			(*(from->q->monitor ? &view->nmonitor_tests : &view->ntests))++;
		if (from->q->monitor)
			continue;	/* the headline is the KPIs' alone (monlist.h) */
		compare_tally(view, to->verdict[1], true);
	}
}

bool compare_significant(const struct compare *c, size_t r, size_t i)
{
	enum compare_verdict v = c->rows[r].verdict[i];

	return v == VERDICT_BETTER || v == VERDICT_WORSE;
}

/* An option's callback result: parse's < 0 is the option's error, naming what it expects. */
static int opt_parsed(int parse, const char *opt, const char *arg, const char *expected)
{
	return parse < 0 ? error("%s '%s': expected %s", opt, arg, expected) : 0;
}

int compare_opt_test(const struct option *opt, const char *arg)
{
	return opt_parsed(stats_test_parse(arg, opt->value), "--test", arg,
			  "welch, mwu, mmtests or lkp");
}

int compare_opt_mean(const struct option *opt, const char *arg)
{
	return opt_parsed(stats_mean_parse(arg, opt->value), "--mean", arg,
			  "amean, hmean, gmean or median");
}

int compare_opt_unit(const struct option *opt, const char *arg)
{
	return opt_parsed(stats_unit_parse(arg, opt->value), "--unit", arg,
			  "auto, run or iteration");
}

int compare_opt_last(const struct option *opt, const char *arg)
{
	return opt_parsed(query_filter_set_last(opt->value, arg) ? -1 : 0, "--last", arg,
			  "a number of runs >= 1");
}

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
	/* one row's samples at a time unless a consumer reads them (issue 31) */
	bool stream = !s->samples;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = stream ? query_open(db, s->labels, s->nlabels, &s->filter, qs)
		    : query_load(db, s->labels, s->nlabels, &s->filter, qs);
	if (rc) {
		free(qs);
		return rc == QUERY_EUNKNOWN ? MMB_EUSAGE : -1;
	}
	build_begin(c, qs, s->test, s->mean, s->unit);
	c->own = qs;
	c->dropped = stream;
	c->mm_sums = s->mm_sums || !stream;
	/* the rows' counts (n, disturbed) the checks below read come with their samples */
	if (stream && build_rows(c, db, s->thread_samples)) {
		compare_release(c);
		return -1;
	}
	/* two machines' results are not pooled (--by machine compares them) */
	rc = s->filter.machines ? 0 : compare_check_machines(db, qs);
	if (!rc)
		rc = compare_check_clocks(qs, s->filter.mix_clocks, &c->clock);
	/* each pooled run's recorded env, once: the arch, the settings, the lkp header */
	if (!rc && compare_load_runs(c, db))
		warning("could not read the runs' recorded settings from %s", db_path(db));
	if (!rc)
		rc = compare_check_arches(c, s->filter.mix_arches, c->arch, sizeof(c->arch));
	if (!rc && (s->need == COMPARE_NEED_COMMON ? !compare_has_common(qs) : !qs->nr))
		rc = nothing_selected(db, s);
	if (!rc && s->need == COMPARE_NEED_COMMON)
		for (size_t i = 0; i < s->nlabels; i++)
			if (!qs->kernels[i].nruns_pooled)
				warning("kernel '%s' has no complete or interrupted run", s->labels[i]);
	if (!rc && monitors_add(db, qs, (enum monitors_mode)s->monitors))
		rc = -1;
	if (rc) {
		compare_release(c);
		return rc;
	}
	/* monitor rows (loaded whole: a value per iteration), or every row */
	build_rows(c, NULL, s->thread_samples);
	build_end(c);
	monitors_settle(c, (enum monitors_mode)s->monitors);
	c->verbose = s->verbose;
	if (s->meta)
		compare_load_meta(c, db);
	compare_load_settings(c);
	return 0;
}

int compare_change_of(const struct stats_test *interval, bool interval_ok,
		      enum stats_mean_kind interval_mean, enum stats_mean_kind mean,
		      const double *base, size_t nb, const double *new_, size_t nn, int better,
		      struct stats_test *out)
{
	if (nb < 2 || nn < 2)
		return -1;
	if (interval && interval_mean == mean) {
		/* the row's change of that statistic */
		if (!interval_ok)
			return -1;
		*out = *interval;
		return 0;
	}
	/* a statistic the row does not show (plots of merged rows): Welch's change of it */
	return stats_test_mean(STATS_WELCH, mean, base, nb, new_, nn, better, out) < 0 ? -1 : 0;
}
