/*
 * What every format shares (labels, the test and mean lines, row groups):
 * below render.c's renderers[], which lists the formats that call these.
 */
#include "render.h"
#include "render-internal.h"
#include "monlist.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *render_label_of(const struct compare *c, size_t i)
{
	return c->label[i];
}

size_t render_nlabels(const struct compare *c)
{
	return c->nlabels;
}

/* The test as printed in the explanation lines (<= 80 columns). */
void render_describe_test(struct strbuf *out, const struct compare *c, const char *prefix)
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
void render_describe_mean(struct strbuf *out, const struct compare *c, const char *prefix)
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
			    welch ? ", tested with Mann-Whitney U (Welch has no median)" :
			    c->test == STATS_MWU ? "; the CI is the Hodges-Lehmann shift's (a ratio\n"
			    "  for positive samples), relative to the baseline's median" : "");
		break;
	}
}

/* Rows grouped by a key, groups in first-appearance order. */
size_t render_next_group(const struct compare *c, bool *done, render_same_fn same,
			 size_t *rows)
{
	size_t first = SIZE_MAX, n = 0;

	for (size_t r = 0; r < c->nr; r++) {
		if (done[r])
			continue;
		if (first == SIZE_MAX)
			first = r;
		if (same(&c->rows[first].what, &c->rows[r].what)) {
			rows[n++] = r;
			done[r] = true;
		}
	}
	return n;
}

bool render_same_workload(const struct compare_what *a, const struct compare_what *b)
{
	return !strcmp(a->workload, b->workload);
}

bool render_same_variant(const struct compare_what *a, const struct compare_what *b)
{
	return render_same_workload(a, b) && !strcmp(a->variant, b->variant);
}
