/*
 * The report's emitter: each paragraph of the review bundle is written
 * once, through these calls, and three back ends turn it into report.txt
 * (report-txt.c: 80 columns, wrapped), report.md (report-md.c) and
 * report.html (report-html.c).  A back end is a table of ops over its own
 * output; the emitter hands every call to the back ends in its mask
 * (report_emit_only()), which is how a piece only one format has (the
 * text tables' legend, the HTML tables) is said.
 *
 * Spacing is the back end's: a paragraph or a list leaves a blank line
 * pending, which the next block of the same section writes (txt and md).
 */
#ifndef MMB_REPORT_EMIT_H
#define MMB_REPORT_EMIT_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>

#define REPORT_WIDTH 80		/* report.txt's columns */

enum report_fmt { REPORT_TXT, REPORT_MD, REPORT_HTML, REPORT_NFMT };
#define REPORT_ALL	((1u << REPORT_NFMT) - 1)
#define REPORT_ONLY(f)	(1u << (f))

/* One back end's output. */
struct report_out {
	struct strbuf sb;
	bool gap;		/* a blank line is due before the next block */
	bool open_p;		/* html: a <p> is open (an alert may still join it) */
	const char *const *head;	/* the table's column heads, while it is open */
};

/* para flags */
#define REPORT_DATA	(1u << 0)	/* text from the database: escaped in markdown too */

/* A list item: "word: text, detail" with word in bold. */
struct report_item {
	const char *cls;	/* html class of the <li>, or NULL */
	const char *word;	/* bold lead word, or NULL */
	const char *text;
	const char *detail;	/* second line in txt, ", detail" elsewhere; or NULL */
	bool plain;		/* no bullet in txt and md ("No significant change.") */
};

enum report_table_style {
	REPORT_RECORDS,		/* txt: one block per row, "  head  cell" lines */
	REPORT_SETTINGS,	/* a mark column, a key and a value (report_emit_setting()) */
};

/*
 * A back end's ops, written out as designated initialisers with the full
 * function names (grep finds them); an op a back end leaves out is NULL:
 * nothing said.
 */
struct report_ops {
	void (*begin)(struct report_out *o, const char *title, const char *stamp);
	void (*end)(struct report_out *o);
	void (*heading)(struct report_out *o, const char *title);
	void (*lead)(struct report_out *o, const char *text);
	void (*para)(struct report_out *o, const char *text, unsigned flags);
	void (*alert)(struct report_out *o, const char *text);
	void (*code)(struct report_out *o, const char *text, const char *more);
	void (*raw)(struct report_out *o, const char *text);
	void (*list_begin)(struct report_out *o, const char *cls);
	void (*item)(struct report_out *o, const struct report_item *it);
	void (*list_end)(struct report_out *o);
	void (*table_begin)(struct report_out *o, enum report_table_style style,
			    const char *const *head, size_t ncols);
	void (*row)(struct report_out *o, const char *const *cells, size_t ncols, const char *mark);
	void (*setting)(struct report_out *o, const char *key, const char *const *vals, size_t n,
			bool differs);
	void (*table_end)(struct report_out *o);
	/* a picture of the bundle: file in dir, with its title; -1 (said) if unreadable */
	int (*image)(struct report_out *o, const char *dir, const char *file, const char *title);
};

extern const struct report_ops report_txt_ops, report_md_ops, report_html_ops;

/*
 * What the markup back ends (md, html) share: a list item's "word: text,
 * detail", a row's cells and a setting's key and values, each between the
 * back end's own marks and escaped with its escaper.
 */
typedef void report_escape_fn(struct strbuf *sb, const char *s);
void report_item_body(struct strbuf *sb, const struct report_item *it, const char *bold,
		      report_escape_fn *esc);
void report_cells(struct strbuf *sb, const char *const *cells, size_t ncols, const char *mark,
		  const char *open, const char *close, report_escape_fn *esc);
void report_setting_body(struct strbuf *sb, const char *key, const char *const *vals, size_t n,
			 bool differs, const char *mid, report_escape_fn *esc);

struct report_emitter {
	struct report_out out[REPORT_NFMT];
	unsigned mask;		/* REPORT_ONLY() bits: the back ends that hear the next calls */
};

void report_emit_init(struct report_emitter *e);
void report_emit_release(struct report_emitter *e);
/* Restrict the calls that follow to the formats in mask (REPORT_ALL: every one). */
void report_emit_only(struct report_emitter *e, unsigned mask);
/* The bundle's files: report.txt, report.md, report.html in dir, each whole or not at all. */
int report_emit_write(struct report_emitter *e, const char *dir);

void report_emit_begin(struct report_emitter *e, const char *title, const char *stamp);
void report_emit_end(struct report_emitter *e);
/* A section. */
void report_emit_heading(struct report_emitter *e, const char *title);
/* A line that introduces what follows in the section ("Monitors that changed ..."). */
void report_emit_lead(struct report_emitter *e, const char *text);
void report_emit_para(struct report_emitter *e, const char *text, unsigned flags);
/* A warning on the paragraph just written. */
void report_emit_alert(struct report_emitter *e, const char *text);
/* Preformatted text; txt shows only the first line of more, wrapped. */
void report_emit_code(struct report_emitter *e, const char *text, const char *more);
/* Text already in the back end's format (a renderer's tables). */
void report_emit_raw(struct report_emitter *e, const char *text);
void report_emit_list_begin(struct report_emitter *e, const char *cls);
void report_emit_item(struct report_emitter *e, const struct report_item *it);
void report_emit_list_end(struct report_emitter *e);
void report_emit_table_begin(struct report_emitter *e, enum report_table_style style,
			     const char *const *head, size_t ncols);
/* A row of a REPORT_RECORDS table; mark follows the first cell (" (baseline)"). */
void report_emit_row(struct report_emitter *e, const char *const *cells, size_t ncols,
		     const char *mark);
/* A row of a REPORT_SETTINGS table: key and one value, or the values that differ. */
void report_emit_setting(struct report_emitter *e, const char *key, const char *const *vals,
			 size_t n, bool differs);
void report_emit_table_end(struct report_emitter *e);
int report_emit_image(struct report_emitter *e, const char *dir, const char *file,
		      const char *title);

/* report-txt.c: word-wrap text to REPORT_WIDTH with a first-line and a continuation prefix */
void report_wrap(struct strbuf *sb, const char *first, const char *cont, const char *text);
/* Squeeze table blocks into REPORT_WIDTH columns; true if lines had to be wrapped. */
bool report_fit_width(struct strbuf *out, const char *text);
/* report-html.c */
void report_html_escape(struct strbuf *sb, const char *s);

#endif
