/* What the renderers share and nobody else needs. */
#ifndef MMB_RENDER_INTERNAL_H
#define MMB_RENDER_INTERNAL_H

#include "render.h"
#include "columns.h"
#include "bymachine.h"

#include <stdbool.h>

#define ZERO_BASE_NOTE "n/a: the baseline is 0, so there is no relative change\n"

const char *render_label_of(const struct compare *c, size_t i);
size_t render_nlabels(const struct compare *c);
void render_describe_test(struct strbuf *out, const struct compare *c, const char *prefix);
void render_describe_mean(struct strbuf *out, const struct compare *c, const char *prefix);

/* Rows grouped by a key, groups in first-appearance order. */
typedef bool (*render_same_fn)(const struct compare_what *a, const struct compare_what *b);
size_t render_next_group(const struct compare *c, bool *done, render_same_fn same, size_t *rows);
bool render_same_workload(const struct compare_what *a, const struct compare_what *b);
bool render_same_variant(const struct compare_what *a, const struct compare_what *b);


void render_by_machine_text(struct strbuf *out, const struct bymachine *bm,
			    const struct renderer *r);
void render_by_machine_markdown(struct strbuf *out, const struct bymachine *bm,
				const struct renderer *r);
void render_by_machine_csv(struct strbuf *out, const struct bymachine *bm,
			   const struct renderer *r);
void render_by_machine_json(struct strbuf *out, const struct bymachine *bm,
			    const struct renderer *r);

#endif
