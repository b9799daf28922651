/*
 * The report's emitter: every call goes to the back ends in the mask
 * (report-emit.h), in the order txt, md, html.
 */
#include "report-emit.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct report_ops *const backends[REPORT_NFMT] = {
	[REPORT_TXT] = &report_txt_ops,
	[REPORT_MD] = &report_md_ops,
	[REPORT_HTML] = &report_html_ops,
};

static const char *const file_names[REPORT_NFMT] = {
	[REPORT_TXT] = "report.txt",
	[REPORT_MD] = "report.md",
	[REPORT_HTML] = "report.html",
};

/* every back end in the mask that has the op (f names the loop variable, op a member) */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define EACH(e, f, op) \
	for (size_t f = 0; f < REPORT_NFMT; f++) \
		if (((e)->mask & REPORT_ONLY(f)) && backends[f]->op)
/* NOLINTEND(bugprone-macro-parentheses) */

void report_emit_init(struct report_emitter *e)
{
	memset(e, 0, sizeof(*e));
	for (size_t f = 0; f < REPORT_NFMT; f++)
		strbuf_init(&e->out[f].sb);
	e->mask = REPORT_ALL;
}

void report_emit_release(struct report_emitter *e)
{
	for (size_t f = 0; f < REPORT_NFMT; f++)
		strbuf_release(&e->out[f].sb);
}

void report_emit_only(struct report_emitter *e, unsigned mask)
{
	e->mask = mask & REPORT_ALL;
}

int report_emit_write(struct report_emitter *e, const char *dir)
{
	for (size_t f = 0; f < REPORT_NFMT; f++) {
		char *path = xasprintf("%s/%s", dir, file_names[f]);
		int ret = write_file_atomic(path, e->out[f].sb.buf, e->out[f].sb.len);

		if (ret < 0)
			error("cannot write %s: %s", path, strerror(errno));
		free(path);
		if (ret < 0)
			return -1;
	}
	return 0;
}

void report_emit_begin(struct report_emitter *e, const char *title, const char *stamp)
{
	EACH(e, f, begin) backends[f]->begin(&e->out[f], title, stamp);
}

void report_emit_end(struct report_emitter *e)
{
	EACH(e, f, end) backends[f]->end(&e->out[f]);
}

void report_emit_heading(struct report_emitter *e, const char *title)
{
	EACH(e, f, heading) backends[f]->heading(&e->out[f], title);
}

void report_emit_lead(struct report_emitter *e, const char *text)
{
	EACH(e, f, lead) backends[f]->lead(&e->out[f], text);
}

void report_emit_para(struct report_emitter *e, const char *text, unsigned flags)
{
	EACH(e, f, para) backends[f]->para(&e->out[f], text, flags);
}

void report_emit_alert(struct report_emitter *e, const char *text)
{
	EACH(e, f, alert) backends[f]->alert(&e->out[f], text);
}

void report_emit_code(struct report_emitter *e, const char *text, const char *more)
{
	EACH(e, f, code) backends[f]->code(&e->out[f], text, more);
}

void report_emit_raw(struct report_emitter *e, const char *text)
{
	EACH(e, f, raw) backends[f]->raw(&e->out[f], text);
}

void report_emit_list_begin(struct report_emitter *e, const char *cls)
{
	EACH(e, f, list_begin) backends[f]->list_begin(&e->out[f], cls);
}

void report_emit_item(struct report_emitter *e, const struct report_item *it)
{
	EACH(e, f, item) backends[f]->item(&e->out[f], it);
}

void report_emit_list_end(struct report_emitter *e)
{
	EACH(e, f, list_end) backends[f]->list_end(&e->out[f]);
}

void report_emit_table_begin(struct report_emitter *e, enum report_table_style style,
			     const char *const *head, size_t ncols)
{
	EACH(e, f, table_begin) backends[f]->table_begin(&e->out[f], style, head, ncols);
}

void report_emit_row(struct report_emitter *e, const char *const *cells, size_t ncols,
		     const char *mark)
{
	EACH(e, f, row) backends[f]->row(&e->out[f], cells, ncols, mark);
}

void report_emit_setting(struct report_emitter *e, const char *key, const char *const *vals,
			 size_t n, bool differs)
{
	EACH(e, f, setting) backends[f]->setting(&e->out[f], key, vals, n, differs);
}

void report_emit_table_end(struct report_emitter *e)
{
	EACH(e, f, table_end) backends[f]->table_end(&e->out[f]);
}

int report_emit_image(struct report_emitter *e, const char *dir, const char *file,
		      const char *title)
{
	EACH(e, f, image) if (backends[f]->image(&e->out[f], dir, file, title) < 0)
		return -1;
	return 0;
}
