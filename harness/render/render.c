/*
 * The renderers: every output format of a comparison is one entry of
 * renderers[] (name, function, flags), one file each (render-<name>.c),
 * collected from their DEFINE_RENDERER lines by make (render.h).
 * Format lists in errors and help come from the table; render_show() is
 * `mmbench compare` (render and print).
 */
#include "render.h"
#include "render-internal.h"
#include "bymachine.h"
#include "monlist.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A row's verdict as a reader sees it: a monitor row that changed is
 * "changed", with no direction (it is never in the verdict, and lower is
 * not "better" for a vmstat counter).  CSV and JSON keep the test's verdict
 * beside their monitor column for scripts.
 */
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

/* Every output format, by rank; the first is the default.  A new format is
 * its own file (docs/ARCHITECTURE.md, the recipes). */
/* renderer-list.h: RENDERER_ENTRY(name) per DEFINE_RENDERER line, made by make */
#define RENDERER_ENTRY(name) extern const struct renderer renderer_##name;
#include "renderer-list.h"
#undef RENDERER_ENTRY
#define RENDERER_ENTRY(name) &renderer_##name,
const struct renderer *const renderers[] = {
#include "renderer-list.h"
};
#undef RENDERER_ENTRY
const size_t nrenderers = ARRAY_SIZE(renderers);

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; name && i < nrenderers; i++)
		if (!strcmp(renderers[i]->name, name))
			return renderers[i];
	return NULL;
}

void renderer_names(struct strbuf *out)
{
	for (size_t i = 0; i < nrenderers; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", renderers[i]->name);
}

const struct renderer *renderer_find_or_error(const char *who, const char *name)
{
	const struct renderer *r = renderer_find(name);
	struct strbuf names = STRBUF_INIT;

	if (r)
		return r;
	renderer_names(&names);
	error("%s: unknown format '%s' (formats: %s)", who, name, names.buf);
	strbuf_release(&names);
	return NULL;
}

int render_show(struct mmb_db *db, const struct compare_select *s, const struct renderer *r,
		FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct compare c;
	struct compare_select sel = *s;
	int rc;

	sel.mm_sums = r->flags & RENDER_MM_SUMS;
	rc = compare_open(db, &sel, &c);

	if (rc)
		return mmb_exit_code(rc);
	r->render(&sb, &c);
	if (r->flags & RENDER_NOTES)
		monitors_note(&sb, &c, (enum monitors_mode)s->monitors,
			      (r->flags & RENDER_MON_VERBOSE) && !c.verbose);
	fwrite(sb.buf, 1, sb.len, out);
	rc = fflush(out) ? EXIT_RUNTIME : EXIT_OK;
	strbuf_reset(&sb);
	if (compare_all_disturbed(&c, &sb)) {
		error("%s", sb.buf);
		rc = EXIT_RUNTIME;
	}
	strbuf_release(&sb);
	compare_release(&c);
	return rc;
}
