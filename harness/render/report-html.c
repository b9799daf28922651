/*
 * report.html: one self-contained page, the plots inlined as data: URIs,
 * and the comparison as tables with coloured verdict cells
 * (report_html_tables()).
 */
#include "fmtnum.h"
#include "report-emit.h"
#include "report.h"
#include "monlist.h"
#include "columns.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void report_html_escape(struct strbuf *sb, const char *s)
{
	static const char *const entity[UCHAR_MAX + 1] = {
		['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;",
	};

	for (; s && *s; s++) {
		const char *e = entity[(unsigned char)*s];

		if (e)
			strbuf_addstr(sb, e);
		else
			strbuf_addch(sb, *s);
	}
}

#define html_escape report_html_escape

static void base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		strbuf_addch(sb, t[v >> 18 & 63]);
		strbuf_addch(sb, t[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? t[v >> 6 & 63] : '=');
		strbuf_addch(sb, i + 2 < n ? t[v & 63] : '=');
	}
}

/* The verdict's cell: its class (colour) and its word; the baseline's has none. */
static const struct {
	const char *cls, *word;
} verdict_cell[] = {
	[VERDICT_BASELINE] = { "na", "" },
	[VERDICT_MISSING] = { "na", "no samples" },
	[VERDICT_UNTESTED] = { "na", "too few samples" },
	[VERDICT_NONE] = { "none", "no change" },
	[VERDICT_BETTER] = { "better", "improvement" },
	[VERDICT_WORSE] = { "worse", "regression" },
	[VERDICT_INCONCLUSIVE] = { "na", "inconclusive" },
};

static const char *verdict_class(enum compare_verdict v)
{
	return (size_t)v < ARRAY_SIZE(verdict_cell) ? verdict_cell[v].cls : "na";
}

static const char *verdict_word(enum compare_verdict v)
{
	return (size_t)v < ARRAY_SIZE(verdict_cell) ? verdict_cell[v].word : "";
}

/* Label i's value of the row's statistic (stat_value), its n and disturbed count. */
static void html_value_cell(struct strbuf *html, const struct compare *c, size_t r, size_t i)
{
	const struct compare_row *row = &c->rows[r];
	double m = compare_cell_num("stat_value", c, r, i);

	if (!row->sum[i].n) {
		strbuf_addstr(html, "<td>-</td>");
		return;
	}
	if (fabs(m) >= 1e5)
		strbuf_addf(html, "<td class=\"num\">%s <small>n=%zu", FMT_F(m, 0), row->sum[i].n);
	else
		strbuf_addf(html, "<td class=\"num\">%.6g <small>n=%zu", m, row->sum[i].n);
	if (row->side[i].ndisturbed)
		strbuf_addf(html, " (%zu disturbed)", row->side[i].ndisturbed);
	strbuf_addstr(html, "</small></td>");
}

/* Label i's change (rel_pct, the CI) and its coloured verdict with the BH q (p_bh). */
static void html_change_cells(struct strbuf *html, const struct compare *c, size_t r, size_t i,
			      bool monitor)
{
	const struct compare_row *row = &c->rows[r];
	enum compare_verdict v = row->verdict[i];
	double rel = compare_cell_num("rel_pct", c, r, i), q = compare_cell_num("p_bh", c, r, i);

	if (isfinite(rel)) {
		char ci[64];

		compare_ci_cell(ci, sizeof(ci), c, r, i, 2);
		strbuf_addf(html, "<td class=\"num\">%s%% <small>%s</small></td>", FMT_FP(rel, 2),
			    ci);
	} else if (row->sum[i].n && row->sum[0].n && row->sum[0].amean == 0) {
		strbuf_addstr(html, "<td title=\"the baseline is 0, so there is no relative"
			      " change\">n/a</td>");
	} else {
		strbuf_addstr(html, "<td></td>");
	}
	if (row->why[i]) {
		strbuf_addstr(html, "<td class=\"na\" title=\"");
		html_escape(html, row->why[i]);
		strbuf_addf(html, "\">%s", verdict_word(v));
	} else if (monitor && (v == VERDICT_BETTER || v == VERDICT_WORSE)) {
		strbuf_addstr(html, "<td class=\"changed\">changed");
	} else {
		strbuf_addf(html, "<td class=\"%s\">%s", verdict_class(v), verdict_word(v));
	}
	if (isfinite(q))
		strbuf_addf(html, " <small>q=%s</small>", FMT_P_PROSE(q));
	strbuf_addstr(html, "</td>");
}

/*
 * One row: each kernel's value of the statistic that was tested (Hmean
 * for a higher-is-better KPI: an Amean beside an Hmean change read
 * +2969% next to means implying +4985%), the change and the verdict.
 * A monitor row is neutral: "changed", no good or bad colour, no
 * direction (docs/monitors.md).
 */
static void cmp_row(struct strbuf *html, const struct compare *c, size_t r)
{
	const struct compare_row *row = &c->rows[r];
	const struct compare_what *q = &row->what;
	bool monitor = r >= monitors_kpi_rows(c);

	strbuf_addstr(html, "<tr><td>");
	html_escape(html, q->variant);
	strbuf_addstr(html, "</td><td>");
	html_escape(html, q->metric);
	strbuf_addstr(html, " <small>(");
	if (q->unit && *q->unit) {
		html_escape(html, q->unit);
		strbuf_addstr(html, ", ");
	}
	if (monitor)
		strbuf_addf(html, "monitor, %s)</small></td>", stats_mean_title(row->mean));
	else
		strbuf_addf(html, "%s, %s)</small></td>", q->better > 0 ? "higher is better" :
			    "lower is better", stats_mean_title(row->mean));
	for (size_t i = 0; i < c->nlabels; i++) {
		html_value_cell(html, c, r, i);
		if (i)
			html_change_cells(html, c, r, i, monitor);
	}
	strbuf_addstr(html, "</tr>\n");
}

/* The comparison as HTML tables, one per workload, verdict cells coloured. */
void report_html_tables(struct strbuf *html, const struct compare *c)
{
	const char *workload = NULL;

	/* the KPIs: monitor rows are in the Monitors list, never in the tables */
	for (size_t r = 0; r < monitors_kpi_rows(c); r++) {
		const struct compare_what *q = &c->rows[r].what;

		if (!workload || strcmp(workload, q->workload)) {
			if (workload)
				strbuf_addstr(html, "</table></div>\n");
			workload = q->workload;
			strbuf_addstr(html, "<h3>");
			html_escape(html, workload);
			/* a wide table scrolls in its box: the page never scrolls sideways */
			strbuf_addstr(html, "</h3>\n<div class=\"wide\"><table class=\"cmp\"><tr>"
				      "<th>variant</th><th>metric</th>");
			for (size_t i = 0; i < c->nlabels; i++) {
				strbuf_addf(html, "<th%s>", i ? " colspan=\"3\"" : "");
				html_escape(html, c->label[i]);
				strbuf_addstr(html, "</th>");
			}
			strbuf_addstr(html, "</tr>\n");
		}
		cmp_row(html, c, r);
	}
	if (workload)
		strbuf_addstr(html, "</table></div>\n");
}

static const char html_style[] =
	"body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
	"text-align:left;vertical-align:top}td.num{text-align:right;white-space:nowrap}"
	"td.better{background:#a0ffa0}td.worse{background:#ffa0a0}td.na{color:#888}"
	"td.changed{background:#e0e0ff}"
	"tr.diff td{background:#fff3b0}li.worse b{color:#b00}li.better b{color:#070}"
	"pre{background:#f6f6f6;padding:.5em;font-size:12px;white-space:pre-wrap;"
	"overflow-wrap:anywhere}div.wide{max-width:100%;overflow-x:auto}"
	"figure{display:inline-block;margin:.5em}img{max-width:100%;height:auto;border:1px solid #ddd}"
	"figcaption{font-size:.9em;color:#444}small{color:#666}";

/* Close the paragraph an alert could still have joined. */
static void close_p(struct report_out *o)
{
	if (o->open_p)
		strbuf_addstr(&o->sb, "</p>\n");
	o->open_p = false;
}

static void html_begin(struct report_out *o, const char *title, const char *stamp)
{
	strbuf_addstr(&o->sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_escape(&o->sb, title);
	strbuf_addf(&o->sb, "</title><style>%s</style></head><body>\n<h1>", html_style);
	html_escape(&o->sb, title);
	strbuf_addf(&o->sb, "</h1>\n<p><small>%s</small></p>\n", stamp);
}

static void html_end(struct report_out *o)
{
	close_p(o);
	/* says in the page (and on the console) whether every plot decoded */
	strbuf_addstr(&o->sb, "<script>window.addEventListener('load',function(){"
		      "var bad=[],im=document.images;for(var i=0;i<im.length;i++)"
		      "if(!im[i].complete||!im[i].naturalWidth)bad.push(im[i].dataset.file);"
		      "document.body.setAttribute('data-plots-loaded',im.length-bad.length);"
		      "if(bad.length)console.error('plots not decoded: '+bad.join(' '));});</script>\n");
	strbuf_addstr(&o->sb, "</body></html>\n");
}

/* open, text and more escaped, close */
static void element(struct report_out *o, const char *open, const char *text, const char *more,
		    const char *close)
{
	strbuf_addstr(&o->sb, open);
	html_escape(&o->sb, text);
	html_escape(&o->sb, more);
	strbuf_addstr(&o->sb, close);
}

static void html_heading(struct report_out *o, const char *title)
{
	close_p(o);
	element(o, "<h2>", title, NULL, "</h2>\n");
}

static void html_lead(struct report_out *o, const char *text)
{
	close_p(o);
	element(o, "<p>", text, NULL, "</p>\n");
}

static void html_para(struct report_out *o, const char *text, unsigned flags)
{
	(void)flags;
	close_p(o);
	element(o, "<p>", text, NULL, "");
	o->open_p = true;
}

static void html_alert(struct report_out *o, const char *text)
{
	element(o, " <b>(", text, NULL, ")</b>");
}

static void html_code(struct report_out *o, const char *text, const char *more)
{
	close_p(o);
	element(o, "<pre>", text, more, "</pre>\n");
}

static void html_raw(struct report_out *o, const char *text)
{
	close_p(o);
	strbuf_addstr(&o->sb, text);
}

static void html_list_begin(struct report_out *o, const char *cls)
{
	close_p(o);
	if (cls)
		strbuf_addf(&o->sb, "<ul class=\"%s\">\n", cls);
	else
		strbuf_addstr(&o->sb, "<ul>\n");
}

static void html_item(struct report_out *o, const struct report_item *it)
{
	if (it->cls)
		strbuf_addf(&o->sb, "<li class=\"%s\">", it->cls);
	else
		strbuf_addstr(&o->sb, "<li>");
	report_item_body(&o->sb, it, "<b>%s</b>: ", html_escape);
	strbuf_addstr(&o->sb, "</li>\n");
}

static void html_list_end(struct report_out *o)
{
	close_p(o);
	strbuf_addstr(&o->sb, "</ul>\n");
}

static void html_table_begin(struct report_out *o, enum report_table_style style,
			     const char *const *head, size_t ncols)
{
	(void)style;
	close_p(o);
	strbuf_addstr(&o->sb, "<table><tr>");
	for (size_t c = 0; c < ncols; c++) {
		strbuf_addstr(&o->sb, "<th>");
		html_escape(&o->sb, head[c]);
		strbuf_addstr(&o->sb, "</th>");
	}
	strbuf_addstr(&o->sb, "</tr>\n");
}

static void html_row(struct report_out *o, const char *const *cells, size_t ncols,
		     const char *mark)
{
	strbuf_addstr(&o->sb, "<tr>");
	report_cells(&o->sb, cells, ncols, mark, "<td>", "</td>", html_escape);
	strbuf_addstr(&o->sb, "</tr>\n");
}

static void html_setting(struct report_out *o, const char *key, const char *const *vals,
			 size_t n, bool differs)
{
	strbuf_addstr(&o->sb, differs ? "<tr class=\"diff\"><td>!</td><td>" : "<tr><td></td><td>");
	report_setting_body(&o->sb, key, vals, n, differs, "</td><td>", html_escape);
	strbuf_addstr(&o->sb, "</td></tr>\n");
}

static int html_image(struct report_out *o, const char *dir, const char *file, const char *title)
{
	char *path = xasprintf("%s/%s", dir, file);
	struct strbuf img = STRBUF_INIT;

	close_p(o);
	if (strbuf_read_file(&img, path) < 0) {
		error("cannot read %s: %s", path, strerror(errno));
		free(path);
		strbuf_release(&img);
		return -1;
	}
	strbuf_addstr(&o->sb, "<figure><img alt=\"");
	html_escape(&o->sb, title);
	strbuf_addstr(&o->sb, "\" data-file=\"");
	html_escape(&o->sb, file);
	strbuf_addstr(&o->sb, "\" src=\"data:image/png;base64,");
	base64(&o->sb, (const unsigned char *)img.buf, img.len);
	strbuf_addstr(&o->sb, "\"><figcaption>");
	html_escape(&o->sb, title);
	strbuf_addstr(&o->sb, " <small>(");
	html_escape(&o->sb, file);
	strbuf_addstr(&o->sb, ")</small></figcaption></figure>\n");
	strbuf_release(&img);
	free(path);
	return 0;
}

static void html_table_end(struct report_out *o)
{
	strbuf_addstr(&o->sb, "</table>\n");
}

const struct report_ops report_html_ops = {
	.begin = html_begin,
	.end = html_end,
	.heading = html_heading,
	.lead = html_lead,
	.para = html_para,
	.alert = html_alert,
	.code = html_code,
	.raw = html_raw,
	.list_begin = html_list_begin,
	.item = html_item,
	.list_end = html_list_end,
	.table_begin = html_table_begin,
	.row = html_row,
	.setting = html_setting,
	.table_end = html_table_end,
	.image = html_image,
};
