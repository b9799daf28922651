/*
 * One CSV row per comparison (docs/report-formats.md): every column of the
 * comparison table (columns.h), in its order; the header is their names.
 */
#include "render.h"
#include "render-internal.h"
#include "columns.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A cell as CSV prints it: an empty field when there is no value. */
static void csv_cell(struct strbuf *out, const struct compare_cell *cell)
{
	switch (cell->kind) {
	case CELL_EMPTY:
		break;
	case CELL_TEXT:
		strbuf_add_csv(out, cell->text);
		break;
	case CELL_NUM:
		if (isfinite(cell->num))
			strbuf_addf(out, "%.17g", cell->num);
		break;
	case CELL_COUNT:
		strbuf_addf(out, "%zu", cell->count);
		break;
	case CELL_FLAG:
		strbuf_addf(out, "%d", cell->flag);
		break;
	}
}

void render_csv(struct strbuf *out, const struct compare *c)
{
	for (size_t k = 0; k < ncompare_columns; k++)
		strbuf_addf(out, "%s%s", k ? "," : "", compare_columns[k].name);
	strbuf_addch(out, '\n');
	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 0; i < render_nlabels(c); i++) {
			for (size_t k = 0; k < ncompare_columns; k++) {
				struct compare_cell cell;

				if (k)
					strbuf_addch(out, ',');
				compare_cell_get(&compare_columns[k], c, r, i, &cell);
				csv_cell(out, &cell);
				compare_cell_release(&cell);
			}
			strbuf_addch(out, '\n');
		}
}

DEFINE_RENDERER(csv, 50, render_csv, 0, render_by_machine_csv);
