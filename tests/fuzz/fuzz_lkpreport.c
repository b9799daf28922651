/*
 * libFuzzer target: the 0-day / LKP report mail parser (lkpreport.h).
 * The parser takes any bytes (no NUL terminator); a parsed report is also
 * described and its lookups exercised.
 */
#include "lkpreport.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lkp_report r;
	char err[256];
	/* an exact-size copy so ASan sees any read past the end */
	char *buf = malloc(size ? size : 1);

	memcpy(buf, data, size);
	lkp_report_init(&r);
	err[0] = '\0';
	if (!lkpreport_parse(&r, buf, size, err, sizeof(err))) {
		struct strbuf sb = STRBUF_INIT;
		const struct lkp_table *t = lkp_report_main_table(&r);

		lkp_report_describe(&r, &sb);
		strbuf_release(&sb);
		lkp_report_param(&r, "test");
		if (r.headline_metric)
			lkp_metric_better(r.headline_metric);
		if (t) {
			lkp_table_axis(t, "testcase");
			if (t->nrows)
				lkp_table_row(t, t->rows[0].metric);
			if (t->ncommits > LKP_MAX_COLS)
				abort();
		}
	} else if (!err[0] || strchr(err, '\n')) {
		abort();	/* ONE line naming what is wrong */
	}
	lkp_report_release(&r);
	free(buf);
	return 0;
}
