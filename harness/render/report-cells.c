/*
 * The text the back ends build alike (an item, a table row's cells, a
 * setting), each escaped by the back end's own function: below
 * report-emit.c, which lists the back ends.
 */
#include "report-emit.h"
#include "util.h"

void report_item_body(struct strbuf *sb, const struct report_item *it, const char *bold,
		      report_escape_fn *esc)
{
	if (it->word)
		strbuf_addf(sb, bold, it->word);
	esc(sb, it->text);
	if (it->detail) {
		strbuf_addstr(sb, ", ");
		esc(sb, it->detail);
	}
}

void report_cells(struct strbuf *sb, const char *const *cells, size_t ncols, const char *mark,
		  const char *open, const char *close, report_escape_fn *esc)
{
	for (size_t c = 0; c < ncols; c++) {
		strbuf_addstr(sb, open);
		esc(sb, cells[c]);
		if (!c && mark)
			strbuf_addstr(sb, mark);
		strbuf_addstr(sb, close);
	}
}

void report_setting_body(struct strbuf *sb, const char *key, const char *const *vals, size_t n,
			 bool differs, const char *mid, report_escape_fn *esc)
{
	esc(sb, key);
	strbuf_addstr(sb, mid);
	for (size_t i = 0; i < n; i++) {
		esc(sb, vals[i]);
		if (differs)
			strbuf_addstr(sb, "<br>");
	}
}
