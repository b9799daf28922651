/* mmtests' compare-kernels layout (docs/report-formats.md §1). */
#include "fmtnum.h"
#include "render.h"
#include "render-internal.h"
#include "monlist.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double render_pdiff(double new_, double base)
{
	if (new_ == base || new_ == 0)
		return 0;
	if (base == 0)
		return 100;
	/* divided first only where new_ * 100 overflows: mmtests' digits otherwise */
	return isfinite(new_ * 100) ? new_ * 100 / base - 100 : new_ / base * 100 - 100;
}

double render_pndiff(double new_, double base)
{
	if (new_ == base)
		return 0;
	if (new_ == 0)
		return 100;
	if (base == 0)
		return -99;
	return isfinite(new_ * 100) ? 100 - new_ * 100 / base : 100 - new_ / base * 100;
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
void render_mmtests_header(const char *name, char *line1, char *line2, size_t len)
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
static char *op_name(const struct compare_what *q)
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

#define MM_L 9
#define MM_W 18

/*
 * One cell.  A side without data (no clean sample) reads "-", as in the
 * readable layout, and so does the change against a base without data:
 * not mmtests' 0.0000 (0.00%), which looks like a measured zero.
 */
static void mm_cell(struct strbuf *out, double v, double pct, int prec, bool star, bool na,
		    bool no_value, bool no_pct)
{
	if (no_value || no_pct) {
		if (no_value)
			strbuf_addf(out, "%*s", MM_W, "-");
		else
			strbuf_addf(out, "%*s", MM_W, FMT_F(v, prec));
		strbuf_addf(out, " (%8s)", "-");
		return;
	}
	if (isnan(v) || v == -1) {
		v = 0;
		pct = 0;
		na = false;
	}
	if (isnan(pct))
		pct = 0;
	strbuf_addf(out, "%*s", MM_W, FMT_F(v, prec));
	if (na)
		strbuf_addf(out, star ? " *%8s*" : " (%8s)", "n/a");
	else if (star)
		strbuf_addf(out, " *%7s%%*", FMT_F(pct, 2));
	else
		strbuf_addf(out, " (%7s%%)", FMT_F(pct, 2));
}

static bool mmtests_table(struct strbuf *out, const struct compare *c, const size_t *rows,
			  size_t nrows)
{
	bool any_na = false;
	char **ops = xcalloc(nrows, sizeof(*ops));
	size_t M = 0, nl = render_nlabels(c);
	struct stats_summary *sum = xcalloc(nrows * nl, sizeof(*sum));

	/* summed best-first as mmtests does (compare_side.mm): the values are gone by now */
	for (size_t j = 0; j < nrows; j++)
		for (size_t i = 0; i < nl; i++)
			sum[j * nl + i] = c->rows[rows[j]].side[i].mm;
	for (size_t k = 0; k < nrows; k++) {
		ops[k] = op_name(&c->rows[rows[k]].what);
		if (strlen(ops[k]) > M)
			M = strlen(ops[k]);
	}
	for (int line = 0; line < 2; line++) {
		strbuf_addf(out, "%*s", (int)(MM_L + 1 + M), "");
		for (size_t i = 0; i < render_nlabels(c); i++) {
			char l1[256], l2[256];

			render_mmtests_header(render_label_of(c, i), l1, l2, sizeof(l1));
			strbuf_addf(out, "%*s", MM_W + 11, line ? l2 : l1);
		}
		strbuf_addch(out, '\n');
	}
	for (int k = 0; k < MM_NR; k++) {
		for (size_t j = 0; j < nrows; j++) {
			const struct compare_row *row = &c->rows[rows[j]];
			int better = row->what.better;
			const struct stats_summary *rs = &sum[j * nl];
			double base = mm_value(&rs[0], (enum mm_stat)k, better);
			bool spread = k == MM_STDDEV || k == MM_COEFFVAR;
			struct compare_cell places;

			compare_cell_named("places", c, rows[j], 0, &places);

			strbuf_addf(out, "%-*s %-*s", MM_L, mm_labels[better > 0][k], (int)M, ops[j]);
			for (size_t i = 0; i < render_nlabels(c); i++) {
				double v = mm_value(&rs[i], (enum mm_stat)k, better);
				double pct;
				bool star, na;

				if (i == 0)
					pct = 0;
				else if (spread || better < 0)
					pct = render_pndiff(v, base);
				else
					pct = render_pdiff(v, base);
				if (isnan(base) || base == -1)
					pct = 0;
				star = i > 0 && k == MM_MEAN &&
				       compare_cell_flag("significant", c, rows[j], i);
				/* not mmtests' 100 / -99 stand-ins for a zero baseline */
				na = i > 0 && base == 0 && v != base;
				any_na |= na && !isnan(v) && v != -1;
				mm_cell(out, v, pct, (int)places.count, star, na, rs[i].n == 0,
					i > 0 && rs[0].n == 0);
			}
			strbuf_addch(out, '\n');
		}
	}
	for (size_t k = 0; k < nrows; k++)
		free(ops[k]);
	free(ops);
	free(sum);
	return any_na;
}

void render_mmtests(struct strbuf *out, const struct compare *c)
{
	bool *done = xcalloc(c->nr + 1, sizeof(*done));
	size_t *rows = xmalloc((c->nr + 1) * sizeof(*rows)), n;
	bool first = true;

	bool several = false, na = false;

	for (size_t r = 1; r < c->nr; r++)
		if (strcmp(c->rows[r].what.workload, c->rows[0].what.workload))
			several = true;
	/* one table per workload, named only when there are several */
	while ((n = render_next_group(c, done, render_same_workload, rows))) {
		if (!first)
			strbuf_addch(out, '\n');
		first = false;
		if (several)
			strbuf_addf(out, "%s\n", c->rows[rows[0]].what.workload);
		na |= mmtests_table(out, c, rows, n);
	}
	if (c->nr) {
		strbuf_addch(out, '\n');
		render_describe_test(out, c, "* = ");
		compare_guard_notes(out, c);
	}
	if (na)
		strbuf_addstr(out, ZERO_BASE_NOTE);
	free(done);
	free(rows);
}

DEFINE_RENDERER(mmtests, 20, render_mmtests, RENDER_NOTES | RENDER_MM_SUMS, render_by_machine_text);
