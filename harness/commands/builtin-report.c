/*
 * mmbench report [--db FILE] --out DIR [--format mmtests|lkp] BASE NEW...
 *
 * The review bundle: report.txt (email-ready, <= 80 columns), report.md
 * (markdown, plots embedded), report.html (one self-contained page, plots
 * inlined as data: URIs) and the plots with their .gp/.dat files.  The
 * tables come from the compare formatters; the plots from plot/.  Plots
 * are drawn first: if gnuplot fails, no report file is written.
 */
#include "builtin.h"
#include "compare.h"
#include "monitors.h"
#include "db.h"
#include "plot.h"
#include "plotdb.h"
#include "profcmp.h"
#include "progress.h"
#include "render.h"
#include "query.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIDTH 80

struct report {
	struct mmb_db db;
	const struct query_set *qs;	/* the comparison's: cmp.qs */
	struct compare cmp;
	const struct renderer *fmt;	/* mmtests or lkp */
	enum stats_test_kind test;
	enum stats_mean_kind mean;	/* --mean */
	const char *outdir;
	char *machine;
	size_t nmachines;
	struct plot_list plots;
	bool plots_on;
	bool all_monitors;		/* --monitors all: every monitor row listed */
	const struct query_filter *filter;	/* the selection's, for the profiles */
};

/* ---- text helpers ---- */

/* Word-wrap text to WIDTH with a first-line and a continuation prefix. */
static void add_wrapped(struct strbuf *sb, const char *first, const char *cont, const char *text)
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
			add_wrapped(out, "", "    ", line.buf);
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
static bool fit_width(struct strbuf *out, const char *text)
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

static void html_escape(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		default: strbuf_addch(sb, *s);
		}
	}
}

/* Markdown: escape the characters that would start markup inside text. */
static void md_escape(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]|<>#", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

static void base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		strbuf_addch(sb, t[v >> 18 & 63]);
		strbuf_addch(sb, t[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? t[v >> 6 & 63] : '=');
		strbuf_addch(sb, i + 2 < n ? t[v & 63] : '=');
	}
}

static void format_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t <= 0) {
		snprintf(buf, len, "unknown time");
		return;
	}
	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* ---- the pieces of the report ---- */

static bool pooled(const struct query_run *r)
{
	return r->pooled;	/* complete or interrupted, and within --last */
}

static bool pooled_status(const struct query_run *r)
{
	return db_run_usable(r->status);
}

static size_t count_patches(const char *json)
{
	size_t n = 0;

	for (const char *p = json; p && (p = strstr(p, "\"subject\"")); p++)
		n++;
	return n;
}

static char *kernel_commit(const struct query_kernel *k)
{
	size_t np = count_patches(k->patches);

	if (k->base_commit && *k->base_commit)
		return np ? xasprintf("%.12s + %zu patch%s", k->base_commit, np, np == 1 ? "" : "es")
			  : xasprintf("%.12s", k->base_commit);
	return np ? xasprintf("unknown base + %zu patch%s", np, np == 1 ? "" : "es") : xstrdup("unknown");
}

static char *runs_summary(const struct query_kernel *k)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (size_t r = 0; r < k->nruns; r++)
		strbuf_addf(&sb, "%srun %lld %s%s", r ? ", " : "", (long long)k->runs[r].id,
			    k->runs[r].status,
			    !k->runs[r].pooled && pooled_status(&k->runs[r]) ? " (older: --last)" : "");
	if (!k->nruns)
		strbuf_addstr(&sb, "none");
	return strbuf_detach(&sb);
}

/* One setting across the runs: key and per-run value. */
struct env_key {
	char *key;
	char **val;		/* [nruns], NULL = not recorded */
};

struct env_table {
	size_t nruns;
	const struct query_run **runs;
	size_t *label_of;	/* [nruns] */
	struct env_key *keys;
	size_t nkeys;
};

static struct env_key *env_key_get(struct env_table *t, const char *key)
{
	for (size_t i = 0; i < t->nkeys; i++)
		if (!strcmp(t->keys[i].key, key))
			return &t->keys[i];
	t->keys = xrealloc(t->keys, (t->nkeys + 1) * sizeof(*t->keys));
	t->keys[t->nkeys].key = xstrdup(key);
	t->keys[t->nkeys].val = xcalloc(t->nruns ? t->nruns : 1, sizeof(char *));
	return &t->keys[t->nkeys++];
}

static void env_set(struct env_table *t, const char *key, size_t run, const char *value)
{
	struct env_key *k = env_key_get(t, key);

	free(k->val[run]);
	k->val[run] = xstrdup(value ? value : "");
}

static int env_collect(struct report *rp, struct env_table *t)
{
	const struct query_set *qs = rp->qs;

	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++)
			if (pooled(&qs->kernels[k].runs[r]))
				t->nruns++;
	t->runs = xcalloc(t->nruns ? t->nruns : 1, sizeof(*t->runs));
	t->label_of = xcalloc(t->nruns ? t->nruns : 1, sizeof(*t->label_of));
	t->nruns = 0;
	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++)
			if (pooled(&qs->kernels[k].runs[r])) {
				t->label_of[t->nruns] = k;
				t->runs[t->nruns++] = &qs->kernels[k].runs[r];
			}
	/* what the kernel was booted with matters as much as the knobs */
	for (size_t i = 0; i < t->nruns; i++)
		if (t->runs[i]->cmdline && *t->runs[i]->cmdline)
			env_set(t, "kernel cmdline", i, t->runs[i]->cmdline);
	for (size_t i = 0; i < t->nruns; i++) {
		struct query_env *e;
		size_t n;

		if (query_run_env(&rp->db, t->runs[i]->id, &e, &n) < 0)
			return -1;
		for (size_t j = 0; j < n; j++) {
			char *v = e[j].original && *e[j].original && strcmp(e[j].original, e[j].value)
					  ? xasprintf("%s (was %s)", e[j].value, e[j].original)
					  : xstrdup(e[j].value ? e[j].value : "");
			env_set(t, e[j].key, i, v);
			free(v);
		}
		query_env_free(e, n);
	}
	return 0;
}

static void env_release(struct env_table *t)
{
	for (size_t i = 0; i < t->nkeys; i++) {
		for (size_t r = 0; r < t->nruns; r++)
			free(t->keys[i].val[r]);
		free(t->keys[i].val);
		free(t->keys[i].key);
	}
	free(t->keys);
	free(t->runs);
	free(t->label_of);
}

static bool env_differs(const struct env_table *t, const struct env_key *k)
{
	for (size_t r = 1; r < t->nruns; r++) {
		const char *a = k->val[0] ? k->val[0] : "", *b = k->val[r] ? k->val[r] : "";
		if ((k->val[0] == NULL) != (k->val[r] == NULL) || strcmp(a, b))
			return true;
	}
	return false;
}

static const char *env_value(const struct env_key *k, size_t r)
{
	return k->val[r] ? k->val[r] : "(not recorded)";
}

/* Runs of one label that share a value are listed together: "runs 1, 3". */
static char *env_who(const struct report *rp, const struct env_table *t, const struct env_key *k,
		     size_t r, bool *done)
{
	struct strbuf ids = STRBUF_INIT;
	size_t n = 0;
	char *who;

	strbuf_addstr(&ids, "");
	for (size_t s = r; s < t->nruns; s++) {
		if (done[s] || t->label_of[s] != t->label_of[r] || strcmp(env_value(k, s), env_value(k, r)))
			continue;
		done[s] = true;
		strbuf_addf(&ids, "%s%lld", n++ ? ", " : "", (long long)t->runs[s]->id);
	}
	who = xasprintf("%s (run%s %s)", rp->qs->kernels[t->label_of[r]].label, n > 1 ? "s" : "", ids.buf);
	strbuf_release(&ids);
	return who;
}

static const char *test_title(enum stats_test_kind k)
{
	switch (k) {
	case STATS_WELCH: return "Welch's t-test";
	case STATS_MWU: return "Mann-Whitney U test";
	case STATS_MMTESTS: return "mmtests' 1.96-sigma band rule";
	case STATS_LKP: return "0-day's separation rule";
	}
	return "?";
}

static char *row_name(const struct query_row *q)
{
	if (q->variant && *q->variant)
		return xasprintf("%s %s [%s]", q->workload, q->metric, q->variant);
	return xasprintf("%s %s", q->workload, q->metric);
}

/* "95% CI [-11.27%, -7.52%], p = 2.2e-07, BH q = 7.1e-07" */
static char *change_text(const struct stats_test *t)
{
	struct strbuf sb = STRBUF_INIT;

	/* always a first part, what follows starts with ", "; a half-open CI as the table prints it */
	if (!isnan(t->rel_lo) && !isnan(t->rel_hi))
		strbuf_addf(&sb, "95%% CI [%+.2f%%, %+.2f%%]", t->rel_lo, t->rel_hi);
	else
		strbuf_addstr(&sb, "no 95% CI (not defined for this test)");
	if (isfinite(t->p))
		strbuf_addf(&sb, ", p = %.2g", t->p);
	if (isfinite(t->q))
		strbuf_addf(&sb, ", BH q = %.2g", t->q);
	return strbuf_detach(&sb);
}

/* Tables of one layout; too wide ones are split per NEW kernel, then squeezed. */
static void tables_text(struct report *rp, struct strbuf *out, const struct renderer *fmt)
{
	const struct query_set *qs = rp->qs;
	struct strbuf raw = STRBUF_INIT, fitted = STRBUF_INIT;
	size_t nr = rp->cmp.nr;

	/*
	 * The workload's own metrics only: monitor rows (long names, after the
	 * KPIs) have their own section, and made every table wrap at 80 columns.
	 */
	rp->cmp.nr = monitors_kpi_rows(&rp->cmp);
	fmt->render(&raw, &rp->cmp);
	if (!fit_width(&fitted, raw.buf) || qs->nlabels <= 2) {
		strbuf_addstr(out, fitted.buf);
		goto out;
	}
	/* one BASE-vs-NEW table per NEW kernel: views of the one comparison */
	for (size_t i = 1; i < qs->nlabels; i++) {
		struct compare c;

		compare_pair(&rp->cmp, i, &c);
		strbuf_reset(&raw);
		strbuf_reset(&fitted);
		fmt->render(&raw, &c);
		fit_width(&fitted, raw.buf);
		strbuf_addf(out, "%s-- %s vs %s --\n\n", i > 1 ? "\n" : "", qs->kernels[0].label,
			    qs->kernels[i].label);
		strbuf_addstr(out, fitted.buf);
		compare_release(&c);
	}
out:
	rp->cmp.nr = nr;
	strbuf_release(&raw);
	strbuf_release(&fitted);
}

static void section(struct strbuf *txt, struct strbuf *md, struct strbuf *html, const char *title)
{
	strbuf_addf(txt, "\n%s\n", title);
	for (size_t i = strlen(title); i; i--)
		strbuf_addch(txt, '-');
	strbuf_addch(txt, '\n');
	strbuf_addf(md, "\n## %s\n\n", title);
	strbuf_addstr(html, "<h2>");
	html_escape(html, title);
	strbuf_addstr(html, "</h2>\n");
}

static void report_kernels(struct report *rp, struct strbuf *txt, struct strbuf *md,
			   struct strbuf *html)
{
	const struct query_set *qs = rp->qs;

	section(txt, md, html, "Kernels");
	strbuf_addstr(md, "| kernel | release | commit | config (sha256) | compiler | runs |\n"
		      "|:--|:--|:--|:--|:--|:--|\n");
	strbuf_addstr(html, "<table><tr><th>kernel</th><th>release</th><th>commit</th>"
		      "<th>config (sha256)</th><th>compiler</th><th>runs</th></tr>\n");
	for (size_t k = 0; k < qs->nlabels; k++) {
		const struct query_kernel *kk = &qs->kernels[k];
		char *commit = kernel_commit(kk), *runs = runs_summary(kk);
		char cfg[16];
		char *line;
		const char *cells[6];

		snprintf(cfg, sizeof(cfg), "%.12s", or_unknown(kk->config_hash));
		strbuf_addf(txt, "%s%s\n", kk->label, k ? "" : " (baseline)");
		line = xasprintf("%s", or_unknown(kk->release));
		add_wrapped(txt, "  release   ", "            ", line);
		free(line);
		add_wrapped(txt, "  commit    ", "            ", commit);
		add_wrapped(txt, "  config    ", "            ", cfg);
		add_wrapped(txt, "  compiler  ", "            ", or_unknown(kk->compiler));
		add_wrapped(txt, "  runs      ", "            ", runs);
		cells[0] = kk->label;
		cells[1] = or_unknown(kk->release);
		cells[2] = commit;
		cells[3] = cfg;
		cells[4] = or_unknown(kk->compiler);
		cells[5] = runs;
		strbuf_addstr(md, "|");
		strbuf_addstr(html, "<tr>");
		for (int c = 0; c < 6; c++) {
			strbuf_addch(md, ' ');
			md_escape(md, cells[c]);
			if (!c && !k)
				strbuf_addstr(md, " (baseline)");
			strbuf_addstr(md, " |");
			strbuf_addstr(html, "<td>");
			html_escape(html, cells[c]);
			if (!c && !k)
				strbuf_addstr(html, " (baseline)");
			strbuf_addstr(html, "</td>");
		}
		strbuf_addstr(md, "\n");
		strbuf_addstr(html, "</tr>\n");
		free(commit);
		free(runs);
	}
	strbuf_addstr(html, "</table>\n");
}

static int report_env(struct report *rp, struct strbuf *txt, struct strbuf *md, struct strbuf *html)
{
	struct env_table t;
	size_t ndiff = 0;

	if (env_collect(rp, &t) < 0)
		return -1;
	section(txt, md, html, "Environment");
	if (!t.nkeys) {
		const char *none = "No environment was recorded for these runs (imported results carry "
				   "none); check THP, governor and the kernel command line by hand.";
		add_wrapped(txt, "", "", none);
		strbuf_addf(md, "%s\n", none);
		strbuf_addstr(html, "<p>");
		html_escape(html, none);
		strbuf_addstr(html, "</p>\n");
		env_release(&t);
		return 0;
	}
	for (size_t i = 0; i < t.nkeys; i++)
		ndiff += env_differs(&t, &t.keys[i]);
	{
		char *head = xasprintf("%zu setting%s recorded over %zu pooled run%s; %s", t.nkeys,
				       t.nkeys == 1 ? "" : "s", t.nruns, t.nruns == 1 ? "" : "s",
				       ndiff ? "lines marked \"!\" DIFFER between runs:"
					     : "identical in every run.");
		add_wrapped(txt, "", "", head);
		strbuf_addf(md, "%s\n\n| | setting | value |\n|:-:|:--|:--|\n", head);
		strbuf_addstr(html, "<p>");
		html_escape(html, head);
		strbuf_addstr(html, "</p>\n<table><tr><th></th><th>setting</th><th>value</th></tr>\n");
		free(head);
	}
	for (size_t i = 0; i < t.nkeys; i++) {
		struct env_key *k = &t.keys[i];

		if (!env_differs(&t, k)) {
			char *first = xasprintf("  %-22s ", k->key);
			if (strlen(first) > 25) {
				free(first);
				first = xasprintf("  %s ", k->key);
			}
			add_wrapped(txt, first, "                         ", env_value(k, 0));
			free(first);
			strbuf_addstr(md, "| | ");
			md_escape(md, k->key);
			strbuf_addstr(md, " | ");
			md_escape(md, env_value(k, 0));
			strbuf_addstr(md, " |\n");
			strbuf_addstr(html, "<tr><td></td><td>");
			html_escape(html, k->key);
			strbuf_addstr(html, "</td><td>");
			html_escape(html, env_value(k, 0));
			strbuf_addstr(html, "</td></tr>\n");
		} else {
			bool *done = xcalloc(t.nruns, sizeof(*done));

			strbuf_addf(txt, "! %s\n", k->key);
			strbuf_addstr(md, "| **!** | ");
			md_escape(md, k->key);
			strbuf_addstr(md, " | ");
			strbuf_addstr(html, "<tr class=\"diff\"><td>!</td><td>");
			html_escape(html, k->key);
			strbuf_addstr(html, "</td><td>");
			for (size_t r = 0; r < t.nruns; r++) {
				char *who, *line;

				if (done[r])
					continue;
				who = env_who(rp, &t, k, r, done);
				line = xasprintf("%s: %s", who, env_value(k, r));
				add_wrapped(txt, "!   ", "!       ", line);
				md_escape(md, line);
				strbuf_addstr(md, "<br>");
				html_escape(html, line);
				strbuf_addstr(html, "<br>");
				free(line);
				free(who);
			}
			strbuf_addstr(md, " |\n");
			strbuf_addstr(html, "</td></tr>\n");
			free(done);
		}
	}
	strbuf_addstr(html, "</table>\n");
	env_release(&t);
	return 0;
}

/* The monitor rows that changed: why the KPI moved, never a verdict of their own. */
static void report_monitors(struct report *rp, struct strbuf *txt, struct strbuf *md,
			    struct strbuf *html)
{
	struct strbuf lines = STRBUF_INIT;
	const char *p, *nl;

	const char *what = rp->all_monitors ? "Monitors" : "Monitors that changed";

	monitors_lines(&lines, &rp->cmp, rp->all_monitors);
	if (!lines.len)
		return;
	strbuf_addf(txt, "\n%s (not in the verdict; docs/monitors.md):\n", what);
	strbuf_addf(md, "\n%s (not in the verdict; docs/monitors.md):\n\n", what);
	strbuf_addf(html, "<p>%s (not in the verdict):</p>\n<ul>\n", what);
	for (p = lines.buf; *p; p = nl + 1) {
		char *line;

		nl = strchr(p, '\n');
		line = xstrndup(p, (size_t)(nl - p));
		add_wrapped(txt, "- ", "    ", line);
		strbuf_addstr(md, "- ");
		md_escape(md, line);
		strbuf_addch(md, '\n');
		strbuf_addstr(html, "<li>");
		html_escape(html, line);
		strbuf_addstr(html, "</li>\n");
		free(line);
	}
	strbuf_addstr(html, "</ul>\n");
	strbuf_release(&lines);
}

/* The unit tested, the settings that differ and, with runs to tell, the variance components. */
static void report_levels(const struct compare *c, struct strbuf *txt, struct strbuf *md,
			  struct strbuf *html)
{
	struct strbuf u = STRBUF_INIT;
	bool runs = false;

	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 0; i < c->qs->nlabels; i++)
			runs |= c->rows[r].comp[i].nruns >= 2;
	compare_unit_line(&u, c, "unit: ");
	if (runs)
		compare_components_lines(&u, c);
	strbuf_addstr(txt, u.buf);
	if (c->settings) {
		char *line = xstrndup(c->settings, strcspn(c->settings, "\n"));

		add_wrapped(txt, "", "    ", line);	/* report.txt keeps to 80 columns */
		free(line);
		strbuf_addstr(&u, c->settings);
	}
	strbuf_addch(txt, '\n');
	strbuf_addf(md, "```\n%s```\n\n", u.buf);
	strbuf_addstr(html, "<pre>");
	html_escape(html, u.buf);
	strbuf_addstr(html, "</pre>\n");
	strbuf_release(&u);
}

static void report_verdicts(struct report *rp, struct strbuf *txt, struct strbuf *md,
			    struct strbuf *html)
{
	const struct compare *c = &rp->cmp;
	size_t nsig = 0;
	char *how;

	section(txt, md, html, "Significant changes");
	how = xasprintf("%s, two-sided; p-values adjusted with Benjamini-Hochberg over the %zu "
			"comparisons; significant when the adjusted p < %.2g.  Change = new mean "
			"vs baseline mean with its 95%% confidence interval.", test_title(c->test),
			c->ntests, COMPARE_ALPHA);
	add_wrapped(txt, "", "", how);
	strbuf_addch(txt, '\n');
	strbuf_addf(md, "%s\n\n", how);
	strbuf_addstr(html, "<p>");
	html_escape(html, how);
	strbuf_addstr(html, "</p>\n");
	free(how);
	report_levels(c, txt, md, html);
	strbuf_addstr(html, "<ul class=\"verdicts\">\n");
	for (int pass = 0; pass < 3; pass++) {
		enum compare_verdict want = pass == 2 ? VERDICT_INCONCLUSIVE :
					    pass ? VERDICT_BETTER : VERDICT_WORSE;

		for (size_t r = 0; r < monitors_kpi_rows(c); r++)
			for (size_t i = 1; i < rp->qs->nlabels; i++) {
				char *name, *chg, *line, *rel;
				const char *word = pass == 2 ? "inconclusive" :
						   pass ? "improvement" : "regression";

				if (c->rows[r].verdict[i] != want)
					continue;
				nsig += pass < 2;
				name = row_name(c->rows[r].q);
				/* inconclusive: the reason, with its numbers, instead of a change */
				chg = pass == 2 ? xstrdup(c->rows[r].why[i]) :
				      change_text(&c->rows[r].test[i]);
				rel = pass == 2 ? xstrdup("(no verdict)") :
				      isfinite(c->rows[r].test[i].rel) ?
				      xasprintf("%+.2f%%", c->rows[r].test[i].rel) :
				      xstrdup("n/a (the baseline is 0)");
				line = xasprintf("%s: %s, %s %s", word, name, rp->qs->kernels[i].label, rel);
				add_wrapped(txt, "- ", "    ", line);
				add_wrapped(txt, "    ", "    ", chg);
				strbuf_addstr(md, "- **");
				strbuf_addstr(md, word);
				strbuf_addstr(md, "**: ");
				md_escape(md, name);
				strbuf_addstr(md, ", ");
				md_escape(md, rp->qs->kernels[i].label);
				strbuf_addf(md, " %s, ", rel);
				md_escape(md, chg);
				strbuf_addstr(md, "\n");
				strbuf_addf(html, "<li class=\"%s\"><b>%s</b>: ",
					    pass == 2 ? "na" : pass ? "better" : "worse", word);
				html_escape(html, name);
				strbuf_addstr(html, ", ");
				html_escape(html, rp->qs->kernels[i].label);
				strbuf_addf(html, " %s, ", rel);
				html_escape(html, chg);
				strbuf_addstr(html, "</li>\n");
				free(name);
				free(chg);
				free(line);
				free(rel);
			}
	}
	{
		size_t nmissing = 0;
		char *sum, *missing;

		for (size_t r = 0; r < monitors_kpi_rows(c); r++)
			for (size_t i = 1; i < rp->qs->nlabels; i++)
				nmissing += c->rows[r].verdict[i] == VERDICT_MISSING;
		missing = nmissing ? xasprintf(", %zu without samples on one side", nmissing) : xstrdup("");
		sum = xasprintf("%zu regression%s, %zu improvement%s, %zu without a significant "
				"change, %zu not testable (too few samples)%s%s%.0zu%s.",
				c->nworse, c->nworse == 1 ? "" : "s", c->nbetter,
				c->nbetter == 1 ? "" : "s", c->nnone, c->nuntested, missing,
				c->ninconclusive ? ", " : "", c->ninconclusive,
				c->ninconclusive ? " inconclusive (the machine's state cannot back a"
						   " verdict)" : "");
		free(missing);
		if (!nsig) {
			strbuf_addstr(txt, "No significant change.\n");
			strbuf_addstr(md, "No significant change.\n");
			strbuf_addstr(html, "<li>No significant change.</li>\n");
		}
		strbuf_addch(txt, '\n');
		add_wrapped(txt, "", "", sum);
		strbuf_addf(md, "\n%s\n", sum);
		strbuf_addstr(html, "</ul>\n<p>");
		html_escape(html, sum);
		strbuf_addstr(html, "</p>\n");
		free(sum);
	}
	report_monitors(rp, txt, md, html);
}

static void report_runs(struct report *rp, struct strbuf *txt, struct strbuf *md, struct strbuf *html)
{
	const struct query_set *qs = rp->qs;
	size_t n = 0;

	section(txt, md, html, "Failed and interrupted runs");
	strbuf_addstr(html, "<ul>\n");
	for (size_t k = 0; k < qs->nlabels; k++)
		for (size_t r = 0; r < qs->kernels[k].nruns; r++) {
			const struct query_run *run = &qs->kernels[k].runs[r];
			char when[64], *line;

			if (!strcmp(run->status, "complete"))
				continue;
			n++;
			format_time(run->started, when, sizeof(when));
			line = xasprintf("run %lld of %s: %s (%s), experiment %s, started %s; %s",
					 (long long)run->id, qs->kernels[k].label, run->status,
					 or_unknown(run->accel), or_unknown(run->experiment), when,
					 !strcmp(run->status, "interrupted")
						 ? "its finished iterations are pooled"
						 : "not pooled");
			add_wrapped(txt, "- ", "    ", line);
			strbuf_addstr(md, "- ");
			md_escape(md, line);
			strbuf_addstr(md, "\n");
			strbuf_addstr(html, "<li>");
			html_escape(html, line);
			strbuf_addstr(html, "</li>\n");
			free(line);
		}
	if (!n) {
		strbuf_addstr(txt, "None: every run of these kernels completed.\n");
		strbuf_addstr(md, "None: every run of these kernels completed.\n");
		strbuf_addstr(html, "<li>None: every run of these kernels completed.</li>\n");
	}
	strbuf_addstr(html, "</ul>\n");
}

/* The top profile changes (run --profile); no section without profiles.  0 or -1. */
static int report_profiles(struct report *rp, struct strbuf *txt, struct strbuf *md,
			   struct strbuf *html)
{
	const char **labels = xcalloc(rp->qs->nlabels + 1, sizeof(*labels));
	struct strbuf t = STRBUF_INIT;
	struct profcmp pc;
	int rc;

	for (size_t i = 0; i < rp->qs->nlabels; i++)
		labels[i] = rp->qs->kernels[i].label;
	rc = profcmp_load(&rp->db, labels, rp->qs->nlabels, rp->filter, &pc);
	free(labels);
	if (rc || !pc.ng)
		return rc ? -1 : 0;
	section(txt, md, html, "Profiles");
	add_wrapped(txt, "", "", "perf profiles of `run --profile`: the top changes per workload"
		    " variant, in percentage points of the sampled period (docs/profiles.md).");
	strbuf_addch(txt, '\n');
	profcmp_report_text(&t, &pc, PROFCMP_REPORT_TOP, WIDTH);
	strbuf_addstr(txt, t.buf);
	profcmp_report_md(md, &pc, PROFCMP_REPORT_TOP);
	strbuf_addstr(html, "<pre>");
	html_escape(html, t.buf);
	strbuf_addstr(html, "</pre>\n");
	strbuf_release(&t);
	profcmp_release(&pc);
	return 0;
}

static const char *verdict_class(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BETTER: return "better";
	case VERDICT_WORSE: return "worse";
	case VERDICT_NONE: return "none";
	default: return "na";
	}
}

static const char *verdict_word(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BETTER: return "improvement";
	case VERDICT_WORSE: return "regression";
	case VERDICT_NONE: return "no change";
	case VERDICT_UNTESTED: return "too few samples";
	case VERDICT_MISSING: return "no samples";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	default: return "";
	}
}

/*
 * One row: each kernel's value of the statistic that was tested (Hmean
 * for a higher-is-better KPI: an Amean beside an Hmean change read
 * +2969% next to means implying +4985%), the change and the verdict.
 * A monitor row is neutral: "changed", no good or bad colour, no
 * direction (docs/monitors.md).
 */
static void html_row(struct strbuf *html, const struct compare *c, size_t r)
{
	const struct compare_row *row = &c->rows[r];
	const struct query_row *q = row->q;
	bool monitor = r >= monitors_kpi_rows(c);

	strbuf_addstr(html, "<tr><td>");
	html_escape(html, q->variant);
	strbuf_addstr(html, "</td><td>");
	html_escape(html, q->metric);
	strbuf_addstr(html, " <small>(");
	if (q->unit && *q->unit) {
		html_escape(html, q->unit);
		strbuf_addstr(html, ", ");
	}
	if (monitor)
		strbuf_addf(html, "monitor, %s)</small></td>", stats_mean_title(row->mean));
	else
		strbuf_addf(html, "%s, %s)</small></td>", q->better > 0 ? "higher is better" :
			    "lower is better", stats_mean_title(row->mean));
	for (size_t i = 0; i < c->qs->nlabels; i++) {
		const struct stats_summary *s = &row->sum[i];
		const struct stats_test *t = &row->test[i];
		enum compare_verdict v = row->verdict[i];
		double m = s->n ? stats_mean_of(s, row->mean) : NAN;

		if (s->n) {
			strbuf_addf(html, fabs(m) >= 1e5 ? "<td class=\"num\">%.0f <small>n=%zu" :
				    "<td class=\"num\">%.6g <small>n=%zu", m, s->n);
			if (q->series[i].ndisturbed)
				strbuf_addf(html, " (%zu disturbed)", q->series[i].ndisturbed);
			strbuf_addstr(html, "</small></td>");
		} else {
			strbuf_addstr(html, "<td>-</td>");
		}
		if (!i)
			continue;
		if (isfinite(t->rel))
			strbuf_addf(html, "<td class=\"num\">%+.2f%% <small>[%+.2f%%, %+.2f%%]</small></td>",
				    t->rel, t->rel_lo, t->rel_hi);
		else if (s->n && row->sum[0].n && row->sum[0].amean == 0)
			strbuf_addstr(html, "<td title=\"the baseline is 0, so there is no relative"
				      " change\">n/a</td>");
		else
			strbuf_addstr(html, "<td></td>");
		if (row->why[i]) {
			strbuf_addstr(html, "<td class=\"na\" title=\"");
			html_escape(html, row->why[i]);
			strbuf_addf(html, "\">%s", verdict_word(v));
		} else if (monitor && (v == VERDICT_BETTER || v == VERDICT_WORSE)) {
			strbuf_addstr(html, "<td class=\"changed\">changed");
		} else {
			strbuf_addf(html, "<td class=\"%s\">%s", verdict_class(v), verdict_word(v));
		}
		if (isfinite(t->q))
			strbuf_addf(html, " <small>q=%.2g</small>", t->q);
		strbuf_addstr(html, "</td>");
	}
	strbuf_addstr(html, "</tr>\n");
}

/* The comparison as HTML tables, one per workload, verdict cells coloured. */
static void html_tables(struct report *rp, struct strbuf *html)
{
	const struct compare *c = &rp->cmp;
	const struct query_set *qs = rp->qs;
	const char *workload = NULL;

	for (size_t r = 0; r < c->nr; r++) {
		const struct query_row *q = c->rows[r].q;

		if (!workload || strcmp(workload, q->workload)) {
			if (workload)
				strbuf_addstr(html, "</table>\n");
			workload = q->workload;
			strbuf_addstr(html, "<h3>");
			html_escape(html, workload);
			strbuf_addstr(html, "</h3>\n<table class=\"cmp\"><tr><th>variant</th><th>metric</th>");
			for (size_t i = 0; i < qs->nlabels; i++) {
				strbuf_addf(html, "<th%s>", i ? " colspan=\"3\"" : "");
				html_escape(html, qs->kernels[i].label);
				strbuf_addstr(html, "</th>");
			}
			strbuf_addstr(html, "</tr>\n");
		}
		html_row(html, c, r);
	}
	if (workload)
		strbuf_addstr(html, "</table>\n");
}

static int html_plots(struct report *rp, struct strbuf *html)
{
	for (size_t i = 0; i < rp->plots.nr; i++) {
		const struct plot_file *pf = &rp->plots.items[i];
		char *path = xasprintf("%s/%s", rp->outdir, pf->name);
		struct strbuf img = STRBUF_INIT;

		if (strbuf_read_file(&img, path) < 0) {
			error("cannot read %s: %s", path, strerror(errno));
			free(path);
			strbuf_release(&img);
			return -1;
		}
		strbuf_addstr(html, "<figure><img alt=\"");
		html_escape(html, pf->title);
		strbuf_addstr(html, "\" data-file=\"");
		html_escape(html, pf->name);
		strbuf_addstr(html, "\" src=\"data:image/png;base64,");
		base64(html, (const unsigned char *)img.buf, img.len);
		strbuf_addstr(html, "\"><figcaption>");
		html_escape(html, pf->title);
		strbuf_addstr(html, " <small>(");
		html_escape(html, pf->name);
		strbuf_addstr(html, ")</small></figcaption></figure>\n");
		strbuf_release(&img);
		free(path);
	}
	return 0;
}

static const char html_style[] =
	"body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
	"text-align:left;vertical-align:top}td.num{text-align:right;white-space:nowrap}"
	"td.better{background:#a0ffa0}td.worse{background:#ffa0a0}td.na{color:#888}"
	"td.changed{background:#e0e0ff}"
	"tr.diff td{background:#fff3b0}li.worse b{color:#b00}li.better b{color:#070}"
	"pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}"
	"figure{display:inline-block;margin:.5em}img{max-width:100%;height:auto;border:1px solid #ddd}"
	"figcaption{font-size:.9em;color:#444}small{color:#666}";

/* One file of the bundle, written whole or not at all. */
static int write_report_file(const char *outdir, const char *name, const struct strbuf *sb)
{
	char *path = xasprintf("%s/%s", outdir, name);
	int ret = write_file_atomic(path, sb->buf, sb->len);

	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return ret;
}

static int write_bundle(struct report *rp, const char *title)
{
	struct strbuf txt = STRBUF_INIT, md = STRBUF_INIT, html = STRBUF_INIT, tables = STRBUF_INIT;
	char now[64];
	const char *layout = !strcmp(rp->fmt->name, "lkp") ? "0-day ncompare layout" : "mmtests compare-kernels layout";
	int ret = -1;

	format_time(now_wall(), now, sizeof(now));
	/* header */
	add_wrapped(&txt, "", "", title);
	for (size_t i = strlen(title) < WIDTH ? strlen(title) : WIDTH; i; i--)
		strbuf_addch(&txt, '=');
	strbuf_addf(&txt, "\nmmbench %s (%s), %s\n", mmb_version, mmb_git_sha, now);
	strbuf_addstr(&md, "# ");
	md_escape(&md, title);
	strbuf_addf(&md, "\n\nmmbench %s (%s), %s\n", mmb_version, mmb_git_sha, now);
	strbuf_addstr(&html, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_escape(&html, title);
	strbuf_addf(&html, "</title><style>%s</style></head><body>\n<h1>", html_style);
	html_escape(&html, title);
	strbuf_addf(&html, "</h1>\n<p><small>mmbench %s (%s), %s</small></p>\n", mmb_version,
		    mmb_git_sha, now);

	section(&txt, &md, &html, "Machine");
	add_wrapped(&txt, "", "", rp->machine);
	if (rp->nmachines > 1)
		add_wrapped(&txt, "! ", "! ", "the pooled runs come from different machines");
	md_escape(&md, rp->machine);
	strbuf_addstr(&md, "\n");
	strbuf_addstr(&html, "<p>");
	html_escape(&html, rp->machine);
	strbuf_addstr(&html, rp->nmachines > 1 ? " <b>(different machines!)</b></p>\n" : "</p>\n");

	report_kernels(rp, &txt, &md, &html);
	if (report_env(rp, &txt, &md, &html) < 0)
		goto out;
	report_verdicts(rp, &txt, &md, &html);

	section(&txt, &md, &html, "Comparison");
	{
		char *legend = xasprintf("%s; %s", layout,
					 !strcmp(rp->fmt->name, "lkp")
						 ? "%change is new vs base mean; rows listed as 0-day does."
						 : "percentages: positive is better; *...* marks the verdicts "
						   "above.");
		add_wrapped(&txt, "", "", legend);
		strbuf_addch(&txt, '\n');
		free(legend);
	}
	tables_text(rp, &tables, rp->fmt);
	strbuf_addstr(&txt, tables.buf);
	{
		/* a table must not follow its caption line directly in every renderer */
		struct strbuf raw = STRBUF_INIT;
		const char *p, *prev_end = NULL;

		compare_markdown(&raw, &rp->cmp);
		for (p = raw.buf; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

			if (*p == '|' && prev_end && prev_end[0] != '|' && prev_end[0] != '\n')
				strbuf_addch(&md, '\n');
			strbuf_add(&md, p, len);
			prev_end = p;
			p += len;
		}
		strbuf_release(&raw);
	}
	html_tables(rp, &html);
	strbuf_addf(&html, "<details><summary>Text tables (%s)</summary><pre>", layout);
	html_escape(&html, tables.buf);
	strbuf_addstr(&html, "</pre></details>\n");

	report_runs(rp, &txt, &md, &html);
	if (report_profiles(rp, &txt, &md, &html) < 0)
		goto out;

	if (rp->plots.nr) {
		section(&txt, &md, &html, "Plots");
		add_wrapped(&txt, "", "", "Attached; each NAME.png has NAME.gp and NAME.dat beside it "
			    "(`gnuplot NAME.gp` draws it again).");
		for (size_t i = 0; i < rp->plots.nr; i++) {
			char *line = xasprintf("%s: %s", rp->plots.items[i].name, rp->plots.items[i].title);

			add_wrapped(&txt, "- ", "    ", line);
			free(line);
			strbuf_addstr(&md, "\n![");
			md_escape(&md, rp->plots.items[i].title);
			strbuf_addf(&md, "](%s)\n", rp->plots.items[i].name);
		}
		if (html_plots(rp, &html) < 0)
			goto out;
	}
	/* says in the page (and on the console) whether every plot decoded */
	strbuf_addstr(&html, "<script>window.addEventListener('load',function(){"
		      "var bad=[],im=document.images;for(var i=0;i<im.length;i++)"
		      "if(!im[i].complete||!im[i].naturalWidth)bad.push(im[i].dataset.file);"
		      "document.body.setAttribute('data-plots-loaded',im.length-bad.length);"
		      "if(bad.length)console.error('plots not decoded: '+bad.join(' '));});</script>\n");
	strbuf_addstr(&html, "</body></html>\n");

	if (write_report_file(rp->outdir, "report.txt", &txt) < 0 ||
	    write_report_file(rp->outdir, "report.md", &md) < 0 ||
	    write_report_file(rp->outdir, "report.html", &html) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&txt);
	strbuf_release(&md);
	strbuf_release(&html);
	strbuf_release(&tables);
	return ret;
}

static int draw_plots(struct report *rp)
{
	struct plot_opts o;
	size_t nr = rp->cmp.nr;
	int ret;

	if (gnuplot_check() < 0)
		return -1;
	plot_opts_init(&o);
	o.outdir = rp->outdir;
	o.machine = rp->machine;
	o.test = rp->test;
	/* no plots of monitor rows: they sit after the KPIs (monitors_settle()) */
	rp->cmp.nr = monitors_kpi_rows(&rp->cmp);
	ret = plot_comparison(&rp->cmp, &o, "report", &rp->plots);
	rp->cmp.nr = nr;
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report rp;
	struct compare_select sel;
	struct query_filter filter = { 0 };
	const char *dbpath = NULL, *format = NULL;
	struct strbuf title = STRBUF_INIT;
	bool no_plots = false;
	enum monitors_mode monitors = MONITORS_CHANGED;
	enum stats_unit unit = STATS_UNIT_AUTO;
	int n, rc, ret = EXIT_OK;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "out", &rp.outdir, "DIR", "output directory (required)"),
		OPT_STRING(0, "format", &format, "F", "table layout: mmtests or lkp"),
		OPT_BOOL(0, "no-plots", &no_plots, "no plots"),
		COMPARE_SELECT_OPTIONS(&filter, &rp.test, &rp.mean, &unit),
		OPT_MONITORS(&monitors),
		OPT_END(),
	};

	memset(&rp, 0, sizeof(rp));
	rp.fmt = renderer_find("mmtests");
	rp.test = STATS_WELCH;
	plot_list_init(&rp.plots);
	n = parse_options(argc, argv, opts, "report", "BASE NEW...", 0);
	if (n < 0)
		return EXIT_USAGE;
	rp.plots_on = !no_plots;
	if (format && !strcmp(format, "lkp")) {
		rp.fmt = renderer_find("lkp");
	} else if (format && strcmp(format, "mmtests")) {
		error("--format '%s': expected mmtests or lkp", format);
		return EXIT_USAGE;
	}
	if (!rp.outdir) {
		error("report needs --out DIR (the bundle is several files)");
		return EXIT_USAGE;
	}
	if (n < 2) {
		error("report needs a baseline and at least one kernel label to compare: BASE NEW...");
		return EXIT_USAGE;
	}
	if ((rc = command_open_db(&rp.db, dbpath)))
		return rc;
	compare_select_init(&sel, (const char *const *)argv, (size_t)n);
	sel.filter = filter;
	sel.test = rp.test;
	sel.mean = rp.mean;
	sel.unit = unit;
	sel.monitors = monitors;
	rp.all_monitors = monitors == MONITORS_ALL;
	rc = compare_open(&rp.db, &sel, &rp.cmp);
	if (rc) {
		db_close(&rp.db);
		return mmb_exit_code(rc);
	}
	rp.qs = rp.cmp.qs;
	rp.filter = &filter;
	if (compare_all_disturbed(&rp.cmp, &title)) {
		/* a report of zeros would say "no significant change" */
		error("no report: %s", title.buf);
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	if (mkdir_p(rp.outdir, 0755) < 0) {
		error("--out %s: cannot create directory: %s", rp.outdir, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	rp.machine = plot_machine_caption(&rp.db, rp.qs, &rp.nmachines);
	if (rp.plots_on && draw_plots(&rp) < 0) {
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	strbuf_addf(&title, "mmbench report: %s vs", rp.qs->kernels[0].label);
	for (size_t i = 1; i < rp.qs->nlabels; i++)
		strbuf_addf(&title, "%s %s", i > 1 ? "," : "", rp.qs->kernels[i].label);
	if (write_bundle(&rp, title.buf) < 0) {
		ret = EXIT_RUNTIME;
		goto out_cmp;
	}
	printf("%s/report.txt\n%s/report.md\n%s/report.html\n", rp.outdir, rp.outdir, rp.outdir);
	for (size_t i = 0; i < rp.plots.nr; i++)
		printf("%s/%s\n", rp.outdir, rp.plots.items[i].name);
	fflush(stdout);	/* the list first, then the summary on stderr */
	info("wrote the review bundle (%zu plots) to %s; paste report.txt into the mail", rp.plots.nr,
	     rp.outdir);
out_cmp:
	compare_release(&rp.cmp);
	strbuf_release(&title);
	plot_list_release(&rp.plots);
	free(rp.machine);
	db_close(&rp.db);
	return ret;
}
