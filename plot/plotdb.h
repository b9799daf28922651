/* Plot groups and captions from the results database (for plot and report). */
#ifndef MMB_PLOTDB_H
#define MMB_PLOTDB_H

#include "compare.h"
#include "plot.h"
#include "query.h"

/*
 * What a comparison the plots draw needs (compare_select.samples): every
 * row's samples stay in the value, read in compare_open()'s one pass over
 * the DB, so plotting reads no database.
 */
void plot_select(struct compare_select *s);
/* One group per (workload, metric) of the comparison, verdicts filled in: 0, or -1 after
 * one error (c was opened without plot_select(): its samples are gone). */
int plot_groups_build(const struct compare *c, struct plot_group **out, size_t *n);
void plot_groups_free(struct plot_group *gs, size_t n);

/*
 * Every plot of the comparison value c, drawn into o->outdir by one
 * gnuplot batch (o->machine is the caption); the pictures written are
 * appended to list.  what ("plot", "report") names the progress line.
 * 0, or -1 after one error (list then holds nothing of this call).
 */
int plot_comparison(const struct compare *c, struct plot_opts *o, const char *what,
		    struct plot_list *list);
/*
 * `mmbench plot`: the selection's value, its plots in o->outdir, each
 * file's path on stdout and a summary line.  Returns the exit code.
 */
int plot_show(struct mmb_db *db, const struct compare_select *s, struct plot_opts *o);

/* "host, CPU model, 2 CPUs, 24 GiB" for one machine. */
void plot_machine_describe(const struct query_machine *m, struct strbuf *sb);
/* The machine(s) of the pooled runs, joined with " / " when several. */
char *plot_machine_caption(struct mmb_db *db, const struct query_set *qs, size_t *nmachines);

#endif
