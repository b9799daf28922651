/*
 * `compare --by machine`: one comparison per machine (the machines are
 * the compare layer's, harness/compare/bymachine.h), then the change of
 * each row per machine, in every format of the renderer table.
 */
#include "fmtnum.h"
#include "render.h"
#include "render-internal.h"
#include "bymachine.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void mem_text(char *buf, size_t len, uint64_t bytes)
{
	if (!bytes)
		snprintf(buf, len, "unknown");
	else if (bytes >= (1ULL << 30))
		snprintf(buf, len, "%.0fG", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, len, "%.0fM", (double)bytes / (1ULL << 20));
}

/* "for machine 2 (box-two): 8 CPUs, <model>, 16G memory", like 0-day's per-machine tables. */
static void heading(struct strbuf *out, const struct mpart *p)
{
	const struct mpart_machine *m = p->m;
	char mem[32];

	if (!m) {
		strbuf_addstr(out, "for machine: not recorded (imported runs)\n");
		return;
	}
	mem_text(mem, sizeof(mem), m->mem_bytes);
	strbuf_addf(out, "for machine %lld (%s): %d CPUs, %s, %s memory", (long long)m->id,
		    *m->hostname ? m->hostname : "no hostname", m->ncpus,
		    *m->cpu_model ? m->cpu_model : "CPU model unknown", mem);
	if (m->nrows > 1) {
		strbuf_addstr(out, " (machine rows");
		for (size_t i = 0; i < m->nrows; i++)
			strbuf_addf(out, "%s %lld", i ? "," : "", (long long)m->rows[i]);
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, '\n');
}

/* Change of label i on row r of c: "+1.23% R"; "-" when there is none. */
static void change_cell(char *buf, size_t len, const struct compare *c, long r, size_t i)
{
	const struct compare_row *row;
	double mb;
	const char *mark;

	if (r < 0 || !c->rows[r].sum[0].n || !c->rows[r].sum[i].n) {
		snprintf(buf, len, "-");
		return;
	}
	row = &c->rows[r];
	switch (row->verdict[i]) {
	case VERDICT_WORSE: mark = "R"; break;
	case VERDICT_BETTER: mark = "I"; break;
	case VERDICT_NONE: mark = "="; break;
	case VERDICT_INCONCLUSIVE: mark = "?"; break;
	default: mark = "~"; break;
	}
	mb = stats_mean_of(&row->sum[0], row->mean);
	if (mb == 0)
		snprintf(buf, len, "n/a %s", mark);
	else
		snprintf(buf, len, "%s%% %s",
			 FMT_FP(stats_rel_pct(mb, stats_mean_of(&row->sum[i], row->mean)), 2), mark);
}

/* The rows of every machine's comparison, each once, in first-appearance order. */
static const struct compare_what **union_rows(const struct bymachine *bm, size_t *n)
{
	const struct compare_what **rows = NULL;
	size_t alloc = 0;

	*n = 0;
	for (size_t k = 0; k < bm->np; k++) {
		const struct compare *c = &bm->p[k].c;

		for (size_t r = 0; bm->p[k].compared && r < c->nr; r++) {
			const struct compare_what *q = &c->rows[r].what;
			size_t j;

			if (q->monitor)	/* the KPIs; monitor rows are in each machine's table */
				continue;
			for (j = 0; j < *n; j++)
				if (!strcmp(rows[j]->workload, q->workload) &&
				    !strcmp(rows[j]->variant, q->variant) &&
				    !strcmp(rows[j]->metric, q->metric))
					break;
			if (j < *n)
				continue;
			ALLOC_GROW(rows, *n + 1, alloc);
			rows[(*n)++] = q;
		}
	}
	return rows;
}

static char *row_name(const struct compare_what *q, const struct compare_select *s, size_t i)
{
	return xasprintf("%s%s%s%s %s%s%s%s", q->workload, *q->variant ? " (" : "", q->variant,
			 *q->variant ? ")" : "", q->metric, s->nlabels > 2 ? " [" : "",
			 s->nlabels > 2 ? s->labels[i] : "", s->nlabels > 2 ? "]" : "");
}

/* q's row in p's comparison: searched in c.rows, whose order is not the query's (monitor rows) */
static long part_row(const struct mpart *p, const struct compare_what *q)
{
	for (size_t r = 0; p->compared && r < p->c.nr; r++) {
		const struct compare_what *o = &p->c.rows[r].what;

		if (!strcmp(o->workload, q->workload) && !strcmp(o->variant, q->variant) &&
		    !strcmp(o->metric, q->metric))
			return (long)r;
	}
	return -1;
}

/* The last table: rows are metrics, columns machines, cells the change and its mark. */
static void change_table(struct strbuf *out, const struct bymachine *bm, bool markdown)
{
	const struct compare_select *s = bm->s;
	size_t nq, nw = 6, *cw = xcalloc(bm->np + 1, sizeof(*cw));
	const struct compare_what **rows = union_rows(bm, &nq);
	char cell[64];

	for (size_t i = 1; i < s->nlabels; i++)
		for (size_t q = 0; q < nq; q++) {
			char *name = row_name(rows[q], s, i);

			nw = strlen(name) > nw ? strlen(name) : nw;
			free(name);
			for (size_t k = 0; k < bm->np; k++) {
				change_cell(cell, sizeof(cell), &bm->p[k].c, part_row(&bm->p[k], rows[q]), i);
				cw[k] = strlen(cell) > cw[k] ? strlen(cell) : cw[k];
			}
		}
	for (size_t k = 0; k < bm->np; k++)
		cw[k] = strlen(bm->p[k].column) > cw[k] ? strlen(bm->p[k].column) : cw[k];
	strbuf_addf(out, "change per machine: %s", s->labels[1]);
	for (size_t i = 2; i < s->nlabels; i++)
		strbuf_addf(out, ", %s", s->labels[i]);
	strbuf_addf(out, " vs %s, the change of each row's statistic\n%s", s->labels[0],
		    markdown ? "\n" : "");
	strbuf_addf(out, markdown ? "| %-*s |" : "%-*s", (int)nw, "metric");
	for (size_t k = 0; k < bm->np; k++)
		strbuf_addf(out, markdown ? " %*s |" : "  %*s", (int)cw[k], bm->p[k].column);
	strbuf_addch(out, '\n');
	if (markdown) {
		strbuf_addstr(out, "|:");
		for (size_t d = 0; d < nw + 1; d++)
			strbuf_addch(out, '-');
		for (size_t k = 0; k < bm->np; k++) {
			strbuf_addch(out, '|');
			for (size_t d = 0; d < cw[k] + 1; d++)
				strbuf_addch(out, '-');
			strbuf_addch(out, ':');
		}
		strbuf_addstr(out, "|\n");
	}
	for (size_t i = 1; i < s->nlabels; i++)
		for (size_t q = 0; q < nq; q++) {
			char *name = row_name(rows[q], s, i);

			strbuf_addf(out, markdown ? "| %-*s |" : "%-*s", (int)nw, name);
			free(name);
			for (size_t k = 0; k < bm->np; k++) {
				change_cell(cell, sizeof(cell), &bm->p[k].c, part_row(&bm->p[k], rows[q]), i);
				strbuf_addf(out, markdown ? " %*s |" : "  %*s", (int)cw[k], cell);
			}
			strbuf_addch(out, '\n');
		}
	strbuf_addf(out, "%sR regression, I improvement, = no significant change, ? inconclusive,"
		    " ~ too few samples;\n  - not measured there; each machine's verdicts are"
		    " its own table's (BH within it)\n", markdown ? "\n" : "");
	free(rows);
	free(cw);
}

/* compare's CSV with the machine in front of every line, one header. */
void render_by_machine_csv(struct strbuf *out, const struct bymachine *bm,
			   const struct renderer *r)
{
	bool header = false;

	for (size_t k = 0; k < bm->np; k++) {
		const struct mpart *p = &bm->p[k];
		const struct mpart_machine *m = p->m;
		struct strbuf one = STRBUF_INIT, pre = STRBUF_INIT;
		const char *line;

		if (!p->compared)
			continue;
		r->render(&one, &p->c);	/* csv, or a data format that borrows this form */
		if (m) {
			strbuf_addf(&pre, "%lld,", (long long)m->id);
			strbuf_add_csv(&pre, m->hostname);
			strbuf_addch(&pre, ',');
			strbuf_add_csv(&pre, m->cpu_model);
			strbuf_addf(&pre, ",%d,%llu,", m->ncpus, (unsigned long long)m->mem_bytes);
		} else {
			strbuf_addstr(&pre, ",,,,,");
		}
		line = strchr(one.buf, '\n');
		if (!header)
			strbuf_addf(out, "machine,hostname,cpu_model,ncpus,mem_bytes,%.*s",
				    (int)(line - one.buf + 1), one.buf);
		header = true;
		/* a record per line (a name holding a newline would be split here) */
		for (const char *l = line + 1; *l;) {
			const char *end = strstr(l, "\n");

			end = end ? end + 1 : l + strlen(l);
			strbuf_addstr(out, pre.buf);
			strbuf_add(out, l, (size_t)(end - l));
			l = end;
		}
		strbuf_release(&one);
		strbuf_release(&pre);
	}
}

void render_by_machine_json(struct strbuf *out, const struct bymachine *bm,
			    const struct renderer *r)
{
	strbuf_addstr(out, "{\"by\":\"machine\",\"machines\":[");
	for (size_t k = 0; k < bm->np; k++) {
		const struct mpart *p = &bm->p[k];
		const struct mpart_machine *m = p->m;

		strbuf_addstr(out, k ? ",\n{" : "\n{");
		if (m) {
			strbuf_addf(out, "\"id\":%lld,\"rows\":[", (long long)m->id);
			for (size_t i = 0; i < m->nrows; i++)
				strbuf_addf(out, "%s%lld", i ? "," : "", (long long)m->rows[i]);
			strbuf_addstr(out, "],\"hostname\":");
			json_add_string(out, m->hostname);
			strbuf_addstr(out, ",\"cpu_model\":");
			json_add_string(out, m->cpu_model);
			strbuf_addf(out, ",\"ncpus\":%d,\"mem_bytes\":%llu,", m->ncpus,
				    (unsigned long long)m->mem_bytes);
		} else {
			strbuf_addstr(out, "\"id\":null,");
		}
		if (p->compared) {
			strbuf_addstr(out, "\"comparison\":");
			r->render(out, &p->c);
			if (out->len && out->buf[out->len - 1] == '\n')
				out->buf[--out->len] = '\0';
		} else {
			strbuf_addstr(out, "\"comparison\":null,\"not_compared\":");
			json_add_string(out, p->missing);
		}
		strbuf_addch(out, '}');
	}
	strbuf_addstr(out, "\n]}\n");
}

/* Each machine's comparison in r's layout, then the change table. */
static void by_machine_tables(struct strbuf *out, const struct bymachine *bm,
			      const struct renderer *r, bool markdown)
{
	for (size_t k = 0; k < bm->np; k++) {
		heading(out, &bm->p[k]);
		if (bm->p[k].compared)
			r->render(out, &bm->p[k].c);
		else
			strbuf_addf(out, "not compared: no complete or interrupted run of '%s' on this"
				    " machine\n", bm->p[k].missing);
		strbuf_addch(out, '\n');
	}
	change_table(out, bm, markdown);
}

void render_by_machine_text(struct strbuf *out, const struct bymachine *bm,
			    const struct renderer *r)
{
	by_machine_tables(out, bm, r, false);
}

void render_by_machine_markdown(struct strbuf *out, const struct bymachine *bm,
				const struct renderer *r)
{
	by_machine_tables(out, bm, r, true);
}

int render_show_by_machine(struct mmb_db *db, const struct compare_select *s,
			   const struct renderer *r, FILE *out)
{
	struct compare_select sel = *s;
	struct bymachine bm;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	sel.mm_sums = r->flags & RENDER_MM_SUMS;
	rc = bymachine_open(db, &sel, &bm);
	if (!rc) {
		r->by_machine(&sb, &bm, r);
		fwrite(sb.buf, 1, sb.len, out);
		rc = fflush(out) ? -1 : 0;
	}
	bymachine_release(&bm);
	strbuf_release(&sb);
	return mmb_exit_code(rc);
}
