/* compare --profile and the report's profiles (profcmp.h, docs/profiles.md). */
#include "profcmp.h"
#include "compare.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The runs compare pools for kernel k: usable ones, the newest last of them. */
static size_t pooled_runs(const struct query_kernel *k, int last, int64_t *out)
{
	size_t n = 0;

	for (size_t r = k->nruns; r-- > 0;)
		if (db_run_usable(k->runs[r].status) && (last <= 0 || n < (size_t)last))
			out[n++] = k->runs[r].id;
	return n;
}

struct tuple {
	enum profile_kind kind;
	const char *name;
	int side;
	double pct;
};

static int tuple_cmp(const void *x, const void *y)
{
	const struct tuple *a = x, *b = y;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* calltrace first (lkp's key order), then by |change|, the larger share, name */
static int row_cmp(const void *x, const void *y)
{
	const struct profcmp_row *a = x, *b = y;
	double ca = fabs(a->change), cb = fabs(b->change);
	double ma = fmax(a->mean[0], a->mean[1]), mb = fmax(b->mean[0], b->mean[1]);

	if (a->kind != b->kind)
		return a->kind == PROFILE_CALLTRACE ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* "a" or "a,b": the events of one side's profiles, in order, once each. */
static char *side_events(struct db_profile *const *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(p[j]->event, p[i]->event);
		if (!seen)
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", p[i]->event);
	}
	return sb.len ? strbuf_detach(&sb) : xstrdup("");
}

/* One group's rows from the profiles of each side (p[s][0..np[s])). */
static void group_build(struct profcmp_group *g, struct db_profile **p[2], const size_t np[2])
{
	struct tuple *t = NULL;
	size_t nt = 0, alloc = 0, ralloc = 0;

	for (int s = 0; s < 2; s++) {
		g->nprof[s] = np[s];
		g->event[s] = side_events(p[s], np[s]);
		for (size_t j = 0; j < np[s]; j++) {
			g->samples[s] += p[s][j]->samples;
			g->no_pmu |= p[s][j]->note && strstr(p[s][j]->note, "no hardware PMU");
			g->builtin[s] |= p[s][j]->note && strstr(p[s][j]->note, "built-in sampler");
			for (size_t e = 0; e < p[s][j]->n; e++) {
				ALLOC_GROW(t, nt + 1, alloc);
				t[nt++] = (struct tuple){ p[s][j]->e[e].kind, p[s][j]->e[e].name, s,
							  p[s][j]->e[e].pct };
			}
		}
	}
	if (nt)
		qsort(t, nt, sizeof(*t), tuple_cmp);
	for (size_t i = 0; i < nt;) {
		double sum[2] = { 0, 0 }, sq[2] = { 0, 0 };
		struct profcmp_row row = { .kind = t[i].kind };
		size_t j = i;

		for (; j < nt && !tuple_cmp(&t[i], &t[j]); j++) {
			sum[t[j].side] += t[j].pct;
			sq[t[j].side] += t[j].pct * t[j].pct;
		}
		for (int s = 0; s < 2; s++) {
			row.mean[s] = sum[s] / (double)np[s];
			row.sd[s] = sqrt(fmax(0, sq[s] / (double)np[s] - row.mean[s] * row.mean[s]));
		}
		row.change = row.mean[1] - row.mean[0];
		if (fmax(row.mean[0], row.mean[1]) >= PROFCMP_MIN) {
			row.name = xstrdup(t[i].name);
			ALLOC_GROW(g->rows, g->nr + 1, ralloc);
			g->rows[g->nr++] = row;
		}
		i = j;
	}
	if (g->nr)
		qsort(g->rows, g->nr, sizeof(*g->rows), row_cmp);
	free(t);
}

/* Groups of base profiles b against new profiles x (label names l0, l1), in b's order. */
static void pair_groups(struct profcmp *pc, struct db_profile *b, size_t nb, struct db_profile *x,
			size_t nx, const char *l0, const char *l1, size_t *alloc)
{
	struct db_profile **p[2];

	p[0] = xcalloc(nb + 1, sizeof(*p[0]));
	p[1] = xcalloc(nx + 1, sizeof(*p[1]));
	for (size_t i = 0; i < nb; i++) {
		size_t np[2] = { 0, 0 };
		bool first = true;
		struct profcmp_group *g;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(b[j].workload, b[i].workload) && !strcmp(b[j].variant, b[i].variant))
				first = false;
		if (!first)
			continue;
		for (size_t j = i; j < nb; j++)
			if (!strcmp(b[j].workload, b[i].workload) && !strcmp(b[j].variant, b[i].variant))
				p[0][np[0]++] = &b[j];
		for (size_t j = 0; j < nx; j++)
			if (!strcmp(x[j].workload, b[i].workload) && !strcmp(x[j].variant, b[i].variant))
				p[1][np[1]++] = &x[j];
		if (!np[1])
			continue;
		ALLOC_GROW(pc->g, pc->ng + 1, *alloc);
		g = &pc->g[pc->ng++];
		memset(g, 0, sizeof(*g));
		g->workload = xstrdup(b[i].workload);
		g->variant = xstrdup(b[i].variant);
		g->label[0] = l0;
		g->label[1] = l1;
		group_build(g, p, np);
	}
	free(p[0]);
	free(p[1]);
}

int profcmp_load(struct mmb_db *db, const char *const *labels, size_t n,
		 const struct query_filter *f, struct profcmp *pc)
{
	struct query_kernel *ks;
	struct db_profile **prof = xcalloc(n + 1, sizeof(*prof));
	size_t *nprof = xcalloc(n + 1, sizeof(*nprof)), alloc = 0;
	int ret;

	memset(pc, 0, sizeof(*pc));
	ret = query_kernels(db, labels, n, &ks);
	if (ret) {
		free(prof);
		free(nprof);
		return ret;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		int64_t *runs = xcalloc(ks[i].nruns + 1, sizeof(*runs));
		size_t nr = pooled_runs(&ks[i], f ? f->last_runs : 0, runs);

		ret = db_profiles_load(db, runs, nr, f ? f->workload : NULL, f ? f->variant : NULL,
				       &prof[i], &nprof[i]);
		free(runs);
	}
	for (size_t i = 1; i < n && !ret; i++)
		pair_groups(pc, prof[0], nprof[0], prof[i], nprof[i], labels[0], labels[i], &alloc);
	for (size_t i = 0; i < n; i++) {
		db_profiles_free(prof[i], nprof[i]);
		query_kernel_release(&ks[i]);
	}
	free(ks);
	free(prof);
	free(nprof);
	if (ret)
		profcmp_release(pc);
	return ret;
}

void profcmp_release(struct profcmp *pc)
{
	for (size_t i = 0; i < pc->ng; i++) {
		struct profcmp_group *g = &pc->g[i];

		for (size_t r = 0; r < g->nr; r++)
			free(g->rows[r].name);
		free(g->rows);
		free(g->workload);
		free(g->variant);
		free(g->event[0]);
		free(g->event[1]);
	}
	free(pc->g);
	memset(pc, 0, sizeof(*pc));
}

/* ---- output ---- */

static const char nothing_note[] =
	"perf-profile: no workload variant has profiles of both kernels"
	" (`mmbench run --profile` records them)\n";

/* "cpu-clock (no hardware PMU)", or both sides' events when they differ */
static void events_text(struct strbuf *out, const struct profcmp_group *g)
{
	if (strcmp(g->event[0], g->event[1]))
		strbuf_addf(out, "%s vs %s", g->event[0], g->event[1]);
	else
		strbuf_addstr(out, g->event[0]);
	if (g->no_pmu)
		strbuf_addstr(out, " (no hardware PMU)");
	if (g->builtin[0] && g->builtin[1])
		strbuf_addstr(out, " (built-in sampler, every CPU)");
}

static void group_title(struct strbuf *out, const struct profcmp_group *g)
{
	strbuf_addf(out, "%s%s%s: %s (%zu profiled run%s, %lld samples) vs %s (%zu, %lld samples), "
		    "sampled ", g->workload, *g->variant ? " " : "", g->variant, g->label[0],
		    g->nprof[0], g->nprof[0] == 1 ? "" : "s", (long long)g->samples[0], g->label[1],
		    g->nprof[1], (long long)g->samples[1]);
	events_text(out, g);
	strbuf_addch(out, '\n');
	if (strcmp(g->event[0], g->event[1]))
		strbuf_addstr(out, "! the sides sampled different events: their shares are not"
			      " comparable\n");
	else if (g->builtin[0] != g->builtin[1])
		strbuf_addstr(out, "! one side was sampled on every CPU (the built-in sampler), the"
			      " other per process (perf): their shares are not comparable\n");
}

/* 0-day's %stddev cell: population stddev of the runs, shown above 2% */
static void lkp_sd(struct strbuf *out, double mean, double sd, size_t n)
{
	double pct = mean != 0 ? 100 * sd / fabs(mean) : 0;

	if (n > 1 && pct > 2)
		strbuf_addf(out, " \xc2\xb1%3d%%", (int)pct);
	else
		strbuf_addstr(out, "      ");
}

/* The indexes of the top rows of kind k, in row order. */
static size_t top_rows(const struct profcmp_group *g, enum profile_kind k, size_t top,
		       size_t *idx)
{
	size_t n = 0;

	for (size_t r = 0; r < g->nr && n < top; r++)
		if (g->rows[r].kind == k)
			idx[n++] = r;
	return n;
}

void profcmp_lkp(struct strbuf *out, const struct profcmp *pc, size_t top)
{
	static const enum profile_kind order[] = { PROFILE_CALLTRACE, PROFILE_SELF };

	if (!pc->ng) {
		strbuf_addstr(out, nothing_note);
		return;
	}
	for (size_t i = 0; i < pc->ng; i++) {
		const struct profcmp_group *g = &pc->g[i];
		size_t *idx = xcalloc(g->nr + 1, sizeof(*idx)), shown = 0;

		strbuf_addstr(out, i ? "\nperf-profile of " : "perf-profile of ");
		group_title(out, g);
		strbuf_addf(out, "\n%16.16s %27.27s \n", g->label[0], g->label[1]);
		strbuf_addstr(out, "---------------- --------------------------- \n");
		strbuf_addstr(out, "         %stddev     %change         %stddev\n");
		strbuf_addstr(out, "             \\          |                \\  \n");
		for (size_t o = 0; o < 2; o++) {
			size_t n = top_rows(g, order[o], top, idx);

			for (size_t k = 0; k < n; k++) {
				const struct profcmp_row *r = &g->rows[idx[k]];

				compare_lkp_value(out, r->mean[0]);
				lkp_sd(out, r->mean[0], r->sd[0], g->nprof[0]);
				strbuf_addf(out, "%+10.1f  ", r->change);
				compare_lkp_value(out, r->mean[1]);
				lkp_sd(out, r->mean[1], r->sd[1], g->nprof[1]);
				strbuf_addf(out, "  perf-profile.%s.cycles-pp.%s\n",
					    profile_kind_name(r->kind), r->name);
			}
			shown += n;
		}
		if (!shown)
			strbuf_addf(out, "  (no symbol or call chain reaches %.0f%% on either side)\n",
				    PROFCMP_MIN);
		free(idx);
	}
	strbuf_addf(out, "\nperf-profile values: mean %% of the sampled period over the profiled"
		    " runs; change: percentage points; top %zu per kind by |change|, rows under"
		    " %.0f%% on both sides left out\n", top, PROFCMP_MIN);
}

/* name broken at its dots into lines of at most w columns, after indent columns */
static void wrapped_name(struct strbuf *out, const char *name, int indent, int w)
{
	int col = 0;

	while (*name) {
		size_t len = strcspn(name + 1, ".") + 1;	/* up to the next dot */

		if (col && col + (int)len > w) {
			strbuf_addf(out, "\n%*s", indent, "");
			col = 0;
		}
		while ((int)len > w - col && w > col) {
			/* one part wider than the column: cut it */
			strbuf_add(out, name, (size_t)(w - col));
			name += w - col;
			len -= (size_t)(w - col);
			strbuf_addf(out, "\n%*s", indent, "");
			col = 0;
		}
		strbuf_add(out, name, len);
		col += (int)len;
		name += len;
	}
	strbuf_addch(out, '\n');
}

/* text word-wrapped to width, continuation lines indented by two */
static void wrapped_words(struct strbuf *out, const char *text, int width)
{
	int col = 0;

	while (*text) {
		size_t len = strcspn(text, " \n");

		if (col && col + 1 + (int)len > width) {
			strbuf_addstr(out, "\n  ");
			col = 2;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, text, len);
		col += (int)len;
		text += len;
		if (*text == '\n') {
			strbuf_addch(out, '\n');
			col = 0;
		}
		while (*text == ' ' || *text == '\n')
			text++;
	}
	if (col)
		strbuf_addch(out, '\n');
}

void profcmp_report_text(struct strbuf *out, const struct profcmp *pc, size_t top, int width)
{
	static const enum profile_kind order[] = { PROFILE_CALLTRACE, PROFILE_SELF };
	const int indent = 26;

	for (size_t i = 0; i < pc->ng; i++) {
		const struct profcmp_group *g = &pc->g[i];
		size_t *idx = xcalloc(g->nr + 1, sizeof(*idx));

		struct strbuf title = STRBUF_INIT;

		if (i)
			strbuf_addch(out, '\n');
		group_title(&title, g);
		wrapped_words(out, title.buf, width);
		strbuf_release(&title);
		strbuf_addstr(out, "  change    base     new  perf-profile row\n");
		for (size_t o = 0; o < 2; o++) {
			size_t n = top_rows(g, order[o], top, idx);

			for (size_t k = 0; k < n; k++) {
				const struct profcmp_row *r = &g->rows[idx[k]];
				char *name = xasprintf("%s.%s", profile_kind_name(r->kind), r->name);

				strbuf_addf(out, "  %+6.1f  %6.2f  %6.2f  ", r->change, r->mean[0],
					    r->mean[1]);
				wrapped_name(out, name, indent, width - indent);
				free(name);
			}
		}
		free(idx);
	}
}

/* a name in a markdown code span: no backticks or line breaks inside */
static void md_code(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '`');
	for (; *s; s++)
		strbuf_addch(out, *s == '`' || *s == '\n' || *s == '|' ? '_' : *s);
	strbuf_addch(out, '`');
}

void profcmp_report_md(struct strbuf *out, const struct profcmp *pc, size_t top)
{
	static const enum profile_kind order[] = { PROFILE_CALLTRACE, PROFILE_SELF };

	for (size_t i = 0; i < pc->ng; i++) {
		const struct profcmp_group *g = &pc->g[i];
		size_t *idx = xcalloc(g->nr + 1, sizeof(*idx));
		struct strbuf title = STRBUF_INIT;

		group_title(&title, g);
		strbuf_addstr(out, i ? "\n" : "");
		md_code(out, strtrim(title.buf));
		strbuf_addstr(out, "\n\n| change | base % | new % | row |\n|---:|---:|---:|---|\n");
		for (size_t o = 0; o < 2; o++) {
			size_t n = top_rows(g, order[o], top, idx);

			for (size_t k = 0; k < n; k++) {
				const struct profcmp_row *r = &g->rows[idx[k]];
				char *name = xasprintf("perf-profile.%s.cycles-pp.%s",
						       profile_kind_name(r->kind), r->name);

				strbuf_addf(out, "| %+.1f | %.2f | %.2f | ", r->change, r->mean[0],
					    r->mean[1]);
				md_code(out, name);
				strbuf_addstr(out, " |\n");
				free(name);
			}
		}
		strbuf_release(&title);
		free(idx);
	}
}

int profcmp_show(struct mmb_db *db, const char *const *labels, size_t n,
		 const struct query_filter *f, FILE *out)
{
	struct profcmp pc;
	struct strbuf sb = STRBUF_INIT;
	int rc = profcmp_load(db, labels, n, f, &pc);

	if (rc)
		return mmb_exit_code(rc);
	profcmp_lkp(&sb, &pc, PROFCMP_TOP);
	fputs(sb.buf ? sb.buf : "", out);
	fflush(out);
	strbuf_release(&sb);
	profcmp_release(&pc);
	return EXIT_OK;
}
