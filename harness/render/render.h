/*
 * Everything a person reads of a comparison: the renderer table (one entry
 * per output format, one file each, harness/render/render-<name>.c) and
 * the pieces report and plot reuse.
 */
#ifndef MMB_RENDER_H
#define MMB_RENDER_H

#include "compare.h"

#include <stdio.h>

struct bymachine;

#define RENDER_NOTES	(1u << 0)	/* a table for people: monitor notes follow it */
#define RENDER_MM_SUMS	(1u << 1)	/* reads compare_side.mm (compare_select.mm_sums) */
#define RENDER_MON_VERBOSE (1u << 2)	/* monitor rows in the table with --verbose only */

struct renderer {
	const char *name;		/* --format NAME */
	void (*render)(struct strbuf *out, const struct compare *c);
	unsigned int flags;		/* RENDER_* */
	/* `compare --by machine` in this format */
	void (*by_machine)(struct strbuf *out, const struct bymachine *bm,
			   const struct renderer *r);
};

/*
 * One output format, at file scope in its own harness/render/render-<name>.c:
 *
 *     DEFINE_RENDERER(name, rank, render, flags, by_machine);
 *
 * at the start of a line: make collects these lines into renderers[]
 * (tools/renderer-list.sh), ordered by rank, so no other file lists a
 * format.  The help synopses' @FORMATS@ comes from the same lines.
 */
#define DEFINE_RENDERER(name_, rank_, render_, flags_, by_machine_) \
	const struct renderer renderer_##name_ = { #name_, render_, flags_, by_machine_ }

extern const struct renderer *const renderers[];
extern const size_t nrenderers;

/* The renderer called name, or NULL. */
const struct renderer *renderer_find(const char *name);
/* "text, mmtests, ...": the names, for errors and help. */
void renderer_names(struct strbuf *out);
/* renderer_find(), or NULL after one error naming the formats ("WHO: unknown --format"). */
const struct renderer *renderer_find_or_error(const char *who, const char *name);

/* `mmbench compare`: open the value, render it with r, print it. */
int render_show(struct mmb_db *db, const struct compare_select *s, const struct renderer *r,
		FILE *out);
/* `compare --by machine`: as render_show(), one comparison per machine. */
int render_show_by_machine(struct mmb_db *db, const struct compare_select *s,
			   const struct renderer *r, FILE *out);

/* The formats (the table's functions). */
void render_text(struct strbuf *out, const struct compare *c);
void render_mmtests(struct strbuf *out, const struct compare *c);
void render_lkp(struct strbuf *out, const struct compare *c);
void render_markdown(struct strbuf *out, const struct compare *c);
void render_csv(struct strbuf *out, const struct compare *c);
void render_json(struct strbuf *out, const struct compare *c);

/* Pieces reused by report/plot and tested on their own. */
void render_mmtests_header(const char *name, char *line1, char *line2, size_t len);
/* mmtests' percentage rules (§1.6) */
double render_pdiff(double new_, double base);
double render_pndiff(double new_, double base);

#endif
