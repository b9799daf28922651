/* Plot groups and captions from the results database (for plot and report). */
#ifndef MMB_PLOTDB_H
#define MMB_PLOTDB_H

#include "compare.h"
#include "plot.h"
#include "query.h"

/* One group per (workload, metric) of the comparison, verdicts filled in. */
int plot_groups_build(const struct compare *c, struct plot_group **out, size_t *n);
void plot_groups_free(struct plot_group *gs, size_t n);

/* "host, CPU model, 2 CPUs, 24 GiB" for one machine. */
void plot_machine_describe(const struct query_machine *m, struct strbuf *sb);
/* The machine(s) of the pooled runs, joined with " / " when several. */
char *plot_machine_caption(struct mmb_db *db, const struct query_set *qs, size_t *nmachines);

#endif
