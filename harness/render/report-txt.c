/*
 * report.txt: email-ready text within REPORT_WIDTH columns.  Paragraphs
 * and list items are word-wrapped; tables from the renderers are squeezed
 * to fit (report_fit_width()); a pending blank line separates a paragraph
 * from the block after it.
 */
#include "report-emit.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH REPORT_WIDTH

/* Word-wrap text to WIDTH with a first-line and a continuation prefix. */
void report_wrap(struct strbuf *sb, const char *first, const char *cont, const char *text)
{
	const char *prefix = first, *p = text;
	size_t plen;

	while (*p) {
		size_t room, take, len = strlen(p);

		plen = strlen(prefix);
		room = plen < WIDTH - 20 ? WIDTH - plen : 20;
		if (len <= room) {
			strbuf_addf(sb, "%s%s\n", prefix, p);
			return;
		}
		take = room;
		while (take > 0 && p[take] != ' ')
			take--;
		if (take == 0)
			take = room;	/* one long word: cut it */
		strbuf_addf(sb, "%s%.*s\n", prefix, (int)take, p);
		p += take;
		while (*p == ' ')
			p++;
		prefix = cont;
	}
}

/*
 * Make a table block fit in WIDTH columns without breaking its alignment:
 * remove character columns that are blank in every line of the block,
 * taking from the widest gaps first and keeping at least one blank between
 * fields.  Lines made only of '=' (0-day's rule) are cut to WIDTH.
 */
static bool squeeze_block(struct strbuf *out, char **lines, size_t n)
{
	bool wrapped = false;
	size_t maxlen = 0, *len = xcalloc(n ? n : 1, sizeof(*len));
	bool *blank, *drop;

	for (size_t i = 0; i < n; i++) {
		len[i] = strlen(lines[i]);
		if (len[i] && strspn(lines[i], "=") == len[i] && len[i] > WIDTH) {
			lines[i][WIDTH] = '\0';
			len[i] = WIDTH;
		}
		if (len[i] > maxlen)
			maxlen = len[i];
	}
	blank = xcalloc(maxlen + 1, sizeof(*blank));
	drop = xcalloc(maxlen + 1, sizeof(*drop));
	/* a '=' rule line holds no columns: it is cut to WIDTH below */
	for (size_t c = 0; c < maxlen; c++) {
		blank[c] = true;
		for (size_t i = 0; i < n && blank[c]; i++)
			if (c < len[i] && lines[i][c] != ' ' && strspn(lines[i], "=") != len[i])
				blank[c] = false;
	}
	{
		size_t width = maxlen;

		while (width > WIDTH) {
			size_t best = 0, bestlen = 0;

			/* widest run of blank, not yet dropped columns (not at column 0) */
			for (size_t c = 1; c < maxlen;) {
				size_t e = c, kept = 0;

				if (!blank[c]) {
					c++;
					continue;
				}
				while (e < maxlen && blank[e]) {
					if (!drop[e])
						kept++;
					e++;
				}
				if (e < maxlen && kept > bestlen) {
					bestlen = kept;
					best = c;
				}
				c = e;
			}
			if (bestlen <= 1)
				break;
			for (size_t c = best; c < maxlen; c++)
				if (!drop[c]) {
					drop[c] = true;
					break;
				}
			width--;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct strbuf line = STRBUF_INIT;
		bool rule = len[i] && strspn(lines[i], "=") == len[i];

		strbuf_addstr(&line, "");
		for (size_t c = 0; c < len[i]; c++)
			if (rule || !drop[c])
				strbuf_addch(&line, lines[i][c]);
		if (rule && line.len > WIDTH)
			line.buf[WIDTH] = '\0', line.len = WIDTH;
		/* still too wide: wrap, so no line passes the limit */
		if (line.len > WIDTH) {
			report_wrap(out, "", "    ", line.buf);
			wrapped = true;
		} else
			strbuf_addf(out, "%s\n", line.buf);
		strbuf_release(&line);
	}
	free(blank);
	free(drop);
	free(len);
	return wrapped;
}

/* Squeeze every blank-line separated block of text; true if lines had to be wrapped. */
bool report_fit_width(struct strbuf *out, const char *text)
{
	bool wrapped = false;
	char *copy = xstrdup(text), *p = copy;
	char **lines = NULL;
	size_t n = 0, alloc = 0;

	for (;;) {
		char *nl = strchr(p, '\n');
		bool end = !nl;

		if (nl)
			*nl = '\0';
		if (!*p || end) {
			if (*p) {
				ALLOC_GROW(lines, n + 1, alloc);
				lines[n++] = p;
			}
			wrapped |= squeeze_block(out, lines, n);
			n = 0;
			if (end)
				break;
			strbuf_addch(out, '\n');
		} else {
			ALLOC_GROW(lines, n + 1, alloc);
			lines[n++] = p;
		}
		p = nl + 1;
	}
	free(lines);
	free(copy);
	return wrapped;
}

static void flush(struct report_out *o)
{
	if (o->gap)
		strbuf_addch(&o->sb, '\n');
	o->gap = false;
}

static void txt_begin(struct report_out *o, const char *title, const char *stamp)
{
	report_wrap(&o->sb, "", "", title);
	for (size_t i = strlen(title) < WIDTH ? strlen(title) : WIDTH; i; i--)
		strbuf_addch(&o->sb, '=');
	strbuf_addf(&o->sb, "\n%s\n", stamp);
}

static void txt_heading(struct report_out *o, const char *title)
{
	o->gap = false;
	strbuf_addf(&o->sb, "\n%s\n", title);
	for (size_t i = strlen(title); i; i--)
		strbuf_addch(&o->sb, '-');
	strbuf_addch(&o->sb, '\n');
}

static void txt_lead(struct report_out *o, const char *text)
{
	o->gap = false;
	strbuf_addf(&o->sb, "\n%s\n", text);
}

static void txt_para(struct report_out *o, const char *text, unsigned flags)
{
	(void)flags;
	flush(o);
	report_wrap(&o->sb, "", "", text);
	o->gap = true;
}

static void txt_alert(struct report_out *o, const char *text)
{
	report_wrap(&o->sb, "! ", "! ", text);
}

static void txt_code(struct report_out *o, const char *text, const char *more)
{
	flush(o);
	strbuf_addstr(&o->sb, text);
	if (more) {
		char *line = xstrndup(more, strcspn(more, "\n"));

		report_wrap(&o->sb, "", "    ", line);	/* report.txt keeps to 80 columns */
		free(line);
	}
	strbuf_addch(&o->sb, '\n');
}

static void txt_raw(struct report_out *o, const char *text)
{
	flush(o);
	strbuf_addstr(&o->sb, text);
}

static void txt_item(struct report_out *o, const struct report_item *it)
{
	if (it->plain) {
		report_wrap(&o->sb, "", "", it->text);
	} else if (it->word) {
		char *line = xasprintf("%s: %s", it->word, it->text);

		report_wrap(&o->sb, "- ", "    ", line);
		free(line);
	} else {
		report_wrap(&o->sb, "- ", "    ", it->text);
	}
	if (it->detail)
		report_wrap(&o->sb, "    ", "    ", it->detail);
}

static void txt_list_end(struct report_out *o)
{
	o->gap = true;
}

static void txt_table_begin(struct report_out *o, enum report_table_style style,
			    const char *const *head, size_t ncols)
{
	(void)style;
	(void)ncols;
	o->head = head;
	o->gap = false;
}

/* One block a row: the first cell and its mark, then "  head  cell" (head's first word). */
static void txt_row(struct report_out *o, const char *const *cells, size_t ncols,
		    const char *mark)
{
	strbuf_addf(&o->sb, "%s%s\n", cells[0], mark ? mark : "");
	for (size_t c = 1; c < ncols; c++) {
		const char *h = o->head ? o->head[c] : "";
		char *first = xasprintf("  %-10.*s", (int)strcspn(h, " "), h);

		report_wrap(&o->sb, first, "            ", cells[c]);
		free(first);
	}
}

static int txt_image(struct report_out *o, const char *dir, const char *file, const char *title)
{
	char *line = xasprintf("%s: %s", file, title);

	(void)dir;
	report_wrap(&o->sb, "- ", "    ", line);
	free(line);
	return 0;
}

static void txt_setting(struct report_out *o, const char *key, const char *const *vals,
			size_t n, bool differs)
{
	if (!differs) {
		char *first = xasprintf("  %-22s ", key);

		if (strlen(first) > 25) {
			free(first);
			first = xasprintf("  %s ", key);
		}
		report_wrap(&o->sb, first, "                         ", n ? vals[0] : "");
		free(first);
		return;
	}
	strbuf_addf(&o->sb, "! %s\n", key);
	for (size_t i = 0; i < n; i++)
		report_wrap(&o->sb, "!   ", "!       ", vals[i]);
}

/* NULL ops (end, list_begin, table_end): nothing said */
const struct report_ops report_txt_ops = {
	.begin = txt_begin,
	.heading = txt_heading,
	.lead = txt_lead,
	.para = txt_para,
	.alert = txt_alert,
	.code = txt_code,
	.raw = txt_raw,
	.item = txt_item,
	.list_end = txt_list_end,
	.table_begin = txt_table_begin,
	.row = txt_row,
	.setting = txt_setting,
	.image = txt_image,
};
