/* The parsed 0-day / LKP report: lookups, release and the dry-run description. */
#include "fmtnum.h"
#include "lkpreport.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- the model */

void lkp_report_init(struct lkp_report *r)
{
	memset(r, 0, sizeof(*r));
}

/* Every string a table holds, through fn: the one list release and escape share. */
static void table_strings(struct lkp_table *t, void (*fn)(char **))
{
	fn(&t->model);
	fn(&t->axes_keys);
	fn(&t->axes_values);
	for (size_t i = 0; i < t->naxes; i++) {
		fn(&t->axes[i].key);
		fn(&t->axes[i].value);
	}
	for (size_t i = 0; i < t->ncommits; i++) {
		fn(&t->commits[i].sha);
		fn(&t->commits[i].long_sha);
		fn(&t->commits[i].subject);
	}
	for (size_t i = 0; i < t->nrows; i++)
		fn(&t->rows[i].metric);
}

/* The same for the report's own strings (its tables aside). */
static void report_strings(struct lkp_report *r, void (*fn)(char **))
{
	fn(&r->testcase);
	fn(&r->test_machine);
	for (size_t i = 0; i < r->nparams; i++) {
		fn(&r->params[i].key);
		fn(&r->params[i].value);
	}
	fn(&r->headline_metric);
	fn(&r->commit_sha);
	fn(&r->commit_subject);
	fn(&r->materials_url);
}

static void str_free(char **s)
{
	free(*s);
	*s = NULL;
}

/* A mail is anyone's text: its controls (ESC, C1, ...) written as text (text_escape()). */
static void str_escape(char **s)
{
	if (*s && text_ctl(*s, false)) {
		char *e = text_escape(*s, false);

		free(*s);
		*s = e;
	}
}

void lkp_table_release(struct lkp_table *t)
{
	table_strings(t, str_free);
	free(t->axes);
	free(t->commits);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void lkp_report_release(struct lkp_report *r)
{
	report_strings(r, str_free);
	free(r->params);
	for (size_t i = 0; i < r->ntables; i++)
		lkp_table_release(&r->tables[i]);
	free(r->tables);
	memset(r, 0, sizeof(*r));
}

void lkp_report_escape(struct lkp_report *r)
{
	report_strings(r, str_escape);
	for (size_t i = 0; i < r->ntables; i++)
		table_strings(&r->tables[i], str_escape);
}

const char *lkp_report_param(const struct lkp_report *r, const char *key)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].key, key))
			return r->params[i].value;
	return NULL;
}

const char *lkp_table_axis(const struct lkp_table *t, const char *key)
{
	for (size_t i = 0; i < t->naxes; i++)
		if (!strcmp(t->axes[i].key, key))
			return t->axes[i].value;
	return NULL;
}

/* "N" after key in s (a caption or the machine line), 0 when absent. */
static int number_after(const char *s, const char *key)
{
	const char *m = s ? strstr(s, key) : NULL;

	return m ? atoi(m + strlen(key)) : 0;
}

/* "N sockets" / "N-socket" in s, 0 when absent. */
static int sockets_in(const char *s)
{
	for (const char *m = s; m && (m = strstr(m, "socket")); m++) {
		const char *d = m;

		while (d > s && (d[-1] == ' ' || d[-1] == '-'))
			d--;
		while (d > s && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d[0] >= '1' && d[0] <= '9')
			return atoi(d);
	}
	return 0;
}

int lkp_report_nodes(const struct lkp_report *r, const struct lkp_table *t)
{
	int n = number_after(t ? t->model : NULL, "nr_node: ");

	if (n <= 0)
		n = number_after(r->test_machine, "nr_node: ");
	if (n <= 0)
		n = sockets_in(r->test_machine);
	if (n <= 0 && t)
		n = sockets_in(t->model);
	return n > 0 && n <= 4096 ? n : 0;
}

const struct lkp_row *lkp_table_row(const struct lkp_table *t, const char *metric)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].metric, metric))
			return &t->rows[i];
	return NULL;
}

const struct lkp_table *lkp_report_main_table(const struct lkp_report *r)
{
	if (!r->ntables)
		return NULL;
	/* The follow-ups caption the original machine "for test machine: ..." */
	for (size_t i = 0; i < r->ntables; i++)
		if (r->tables[i].model && starts_with(r->tables[i].model, "test machine"))
			return &r->tables[i];
	for (size_t i = 0; i < r->ntables; i++)
		if (!r->tables[i].model)
			return &r->tables[i];
	return &r->tables[0];
}

/* ------------------------------------------------------------- describe */

void lkp_fmt_mean(struct strbuf *sb, double v)
{
	if (fabs(v) < 1000)
		strbuf_addf(sb, "%10.2f", v);
	else if (!(fabs(v) <= 1e8))
		strbuf_addf(sb, "%10.4g", v);
	else
		strbuf_addf(sb, "%10lld", (long long)llround(v));
}

void lkp_report_describe(const struct lkp_report *r, struct strbuf *out)
{
	strbuf_addf(out, "testcase:      %s\n", r->testcase);
	strbuf_addf(out, "test machine:  %s\n", r->test_machine ? r->test_machine : "(not in the report)");
	if (r->headline_from_table)
		strbuf_addf(out, "headline:      %s %s%s%s (first row of the table; no 'noticed a' sentence)\n",
			    r->headline_metric, FMT_FP(r->headline_change, 1), r->headline_absolute ? "" : "%",
			    r->direction < 0 ? " regression" : r->direction > 0 ? " improvement" : "");
	else
		strbuf_addf(out, "headline:      %s %s%s %s\n", r->headline_metric,
			    FMT_FP(r->headline_change, 1), r->headline_absolute ? "" : "%",
			    r->direction < 0 ? "regression" : "improvement");
	if (r->commit_sha)
		strbuf_addf(out, "commit:        %s (\"%s\")\n", r->commit_sha,
			    r->commit_subject ? r->commit_subject : "");
	strbuf_addf(out, "parameters:%s\n", r->params_from_axes ? "    (from the table axes)" : "");
	for (size_t i = 0; i < r->nparams; i++)
		strbuf_addf(out, "  %s: %s\n", r->params[i].key, r->params[i].value);
	strbuf_addf(out, "materials:     %s\n", r->materials_url ? r->materials_url : "(not in the report)");
	for (size_t i = 0; i < r->ntables; i++) {
		const struct lkp_table *tb = &r->tables[i];

		strbuf_addf(out, "table %zu (line %d)%s%s\n", i + 1, tb->line,
			    tb->model ? ", for " : "", tb->model ? tb->model : "");
		strbuf_addf(out, "  %s:\n    %s\n", tb->axes_keys, tb->axes_values);
		for (size_t c = 0; c < tb->ncommits; c++)
			strbuf_addf(out, "  %-16s (\"%s\")%s\n", tb->commits[c].long_sha,
				    tb->commits[c].subject, c == 0 ? "  [base]" : "");
		if (tb->nfail_rows)
			strbuf_addf(out, "  (%zu fail:runs row%s not used)\n", tb->nfail_rows,
				    tb->nfail_rows == 1 ? "" : "s");
		for (size_t k = 0; k < tb->nrows; k++) {
			const struct lkp_row *row = &tb->rows[k];

			strbuf_addstr(out, "  ");
			for (size_t c = 0; c < tb->ncommits; c++) {
				if (c > 0) {
					if (row->absolute)
						strbuf_addf(out, "%10s  ", FMT_FP(row->change[c], 1));
					else
						strbuf_addf(out, "%10s%% ", FMT_FP(row->change[c], 1));
				}
				lkp_fmt_mean(out, row->mean[c]);
				if (row->stddev[c] >= 0)
					strbuf_addf(out, " ±%3d%%", row->stddev[c]);
				else
					strbuf_addstr(out, "      ");
			}
			strbuf_addf(out, "  %s\n", row->metric);
		}
	}
}
