/*
 * report.md: markdown, the plots embedded as images.  Text from the
 * database is escaped; a pending blank line separates a paragraph or a
 * list from the block after it.
 */
#include "report-emit.h"
#include "util.h"

#include <string.h>

/* Escape the characters that would start markup inside text. */
static void md_escape(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]|<>#", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

static void flush(struct report_out *o)
{
	if (o->gap)
		strbuf_addch(&o->sb, '\n');
	o->gap = false;
}

static void md_begin(struct report_out *o, const char *title, const char *stamp)
{
	strbuf_addstr(&o->sb, "# ");
	md_escape(&o->sb, title);
	strbuf_addf(&o->sb, "\n\n%s\n", stamp);
}


static void md_heading(struct report_out *o, const char *title)
{
	o->gap = false;
	strbuf_addf(&o->sb, "\n## %s\n\n", title);
}

static void md_lead(struct report_out *o, const char *text)
{
	o->gap = false;
	strbuf_addf(&o->sb, "\n%s\n\n", text);
}

static void md_para(struct report_out *o, const char *text, unsigned flags)
{
	flush(o);
	if (flags & REPORT_DATA)
		md_escape(&o->sb, text);
	else
		strbuf_addstr(&o->sb, text);
	strbuf_addch(&o->sb, '\n');
	o->gap = true;
}


/* The longest run of backquotes in s, at least n. */
static size_t backquotes(const char *s, size_t n)
{
	for (size_t run = 0; s && *s; s++)
		if ((run = *s == '`' ? run + 1 : 0) > n)
			n = run;
	return n;
}

static void md_fence(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, '`');
	strbuf_addch(sb, '\n');
}

static void md_code(struct report_out *o, const char *text, const char *more)
{
	/* a fence longer than any run of backquotes in the text: nothing in it closes the block */
	size_t fence = backquotes(more, backquotes(text, 2)) + 1;

	flush(o);
	md_fence(&o->sb, fence);
	strbuf_addf(&o->sb, "%s%s", text, more ? more : "");
	md_fence(&o->sb, fence);
	strbuf_addch(&o->sb, '\n');
}

static void md_raw(struct report_out *o, const char *text)
{
	flush(o);
	strbuf_addstr(&o->sb, text);
}

static void md_list_begin(struct report_out *o, const char *cls)
{
	(void)cls;
	flush(o);
}

static void md_item(struct report_out *o, const struct report_item *it)
{
	if (!it->plain)
		strbuf_addstr(&o->sb, "- ");
	report_item_body(&o->sb, it, "**%s**: ", md_escape);
	strbuf_addch(&o->sb, '\n');
}

static void md_table_begin(struct report_out *o, enum report_table_style style,
			   const char *const *head, size_t ncols)
{
	flush(o);
	strbuf_addch(&o->sb, '|');
	for (size_t c = 0; c < ncols; c++)
		strbuf_addf(&o->sb, "%s%s |", *head[c] ? " " : "", head[c]);
	strbuf_addstr(&o->sb, "\n|");
	for (size_t c = 0; c < ncols; c++)
		strbuf_addstr(&o->sb, !c && style == REPORT_SETTINGS ? ":-:|" : ":--|");
	strbuf_addch(&o->sb, '\n');
}

static void md_row(struct report_out *o, const char *const *cells, size_t ncols, const char *mark)
{
	strbuf_addstr(&o->sb, "|");
	report_cells(&o->sb, cells, ncols, mark, " ", " |", md_escape);
	strbuf_addstr(&o->sb, "\n");
}

static void md_setting(struct report_out *o, const char *key, const char *const *vals, size_t n,
		       bool differs)
{
	strbuf_addstr(&o->sb, differs ? "| **!** | " : "| | ");
	report_setting_body(&o->sb, key, vals, n, differs, " | ", md_escape);
	strbuf_addstr(&o->sb, " |\n");
}


static int md_image(struct report_out *o, const char *dir, const char *file, const char *title)
{
	(void)dir;
	strbuf_addstr(&o->sb, "\n![");
	md_escape(&o->sb, title);
	strbuf_addf(&o->sb, "](%s)\n", file);
	return 0;
}

static void md_list_end(struct report_out *o)
{
	o->gap = true;
}

/* NULL ops (end, alert, table_end): nothing said */
const struct report_ops report_md_ops = {
	.begin = md_begin,
	.heading = md_heading,
	.lead = md_lead,
	.para = md_para,
	.code = md_code,
	.raw = md_raw,
	.list_begin = md_list_begin,
	.item = md_item,
	.list_end = md_list_end,
	.table_begin = md_table_begin,
	.row = md_row,
	.setting = md_setting,
	.image = md_image,
};
