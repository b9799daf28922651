/*
 * 0-day / LKP report parser.  See lkpreport.h for what is accepted.
 *
 * Two passes: normalise the bytes (lkptext.c) (CRLF, quoting, the many spellings of
 * "±") into a token list that remembers line numbers, then recognise the
 * parts of the report on the tokens.  Working on tokens rather than lines
 * is what makes re-wrapped and collapsed archives parse like the original.
 */
#include "lkpreport.h"
#include "lkptext.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct perr {
	char *buf;
	size_t len;
	bool set;
};

static int fail(struct perr *e, const char *fmt, ...) MMB_PRINTF_FMT(2, 3);
static int fail(struct perr *e, const char *fmt, ...)
{
	va_list ap;

	if (e->set)
		return -1;
	e->set = true;
	if (e->buf && e->len) {
		struct strbuf sb = STRBUF_INIT;
		char *esc;

		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		/* it quotes the mail's tokens: shown escaped, as the report's strings */
		esc = text_escape(sb.buf, false);
		snprintf(e->buf, e->len, "%s", esc);
		free(esc);
		strbuf_release(&sb);
	}
	return -1;
}

/* -------------------------------------------------------- token classes */

static const char *tk(const struct toks *t, size_t i)
{
	return i < t->n ? t->base + t->v[i].off : "";
}

static bool is_pm(const char *s)
{
	return !strcmp(s, PM_MARK);
}

/* [+-]?digits[.digits][e[+-]digits], or [+-]?.digits; *end after it */
static bool scan_number(const char *s, const char **end)
{
	const char *p = s;
	bool digits = false;

	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits = true;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits = true;
		}
	}
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		const char *x = p + 1;

		if (*x == '+' || *x == '-')
			x++;
		if (isdigit((unsigned char)*x)) {
			while (isdigit((unsigned char)*x))
				x++;
			p = x;
		}
	}
	*end = p;
	return true;
}

static bool is_number(const char *s, double *v)
{
	const char *end;

	if (!scan_number(s, &end) || *end)
		return false;
	if (v)
		*v = strtod(s, NULL);
	return true;
}

/* "-5.0%" (pct) or "+0.4" (absolute); a sign is always printed. */
static bool is_change(const char *s, double *v, bool *pct)
{
	const char *end;

	if (s[0] != '+' && s[0] != '-')
		return false;
	if (!scan_number(s, &end))
		return false;
	if (!strcmp(end, "%"))
		*pct = true;
	else if (!*end)
		*pct = false;
	else
		return false;
	*v = strtod(s, NULL);
	return true;
}

/* "94.7%": the unsigned change of an improvement mail ("noticed a 94.7% improvement") */
static bool is_unsigned_pct(const char *s, double *v)
{
	const char *end;

	if (!isdigit((unsigned char)s[0]) || !scan_number(s, &end) || strcmp(end, "%"))
		return false;
	*v = strtod(s, NULL);
	return true;
}

/* "82%" after a ± */
static bool is_stddev_pct(const char *s, int *v)
{
	const char *end;

	if (!isdigit((unsigned char)s[0]) || !scan_number(s, &end) || strcmp(end, "%"))
		return false;
	*v = (int)strtol(s, NULL, 10);
	return true;
}

static bool is_hex(const char *s, size_t minlen)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
			return false;
	return n >= minlen && n <= 40;
}

static bool is_dashes(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s != '-')
			return false;
	return true;
}

static bool is_equals(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (s[n] != '=')
			return false;
	return n >= 10;
}

/* "compiler/cpufreq_governor/.../testtime:" */
static bool is_axes_keys(const char *s)
{
	size_t n = strlen(s);
	int slashes = 0;

	if (n < 4 || s[n - 1] != ':' || !islower((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i + 1 < n; i++) {
		char c = s[i];

		if (c == '/') {
			slashes++;
			if (s[i + 1] == '/' || s[i + 1] == ':')
				return false;
		} else if (!islower((unsigned char)c) && !isdigit((unsigned char)c) && c != '_') {
			return false;
		}
	}
	return slashes >= 1;
}

/* "key:" of a parameters block */
static bool is_key(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || s[n - 1] != ':' || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}

static bool tok_eq(const struct toks *t, size_t i, const char *s)
{
	return i < t->n && !strcmp(tk(t, i), s);
}

static bool tok_ieq(const struct toks *t, size_t i, const char *s)
{
	return i < t->n && !strcasecmp(tk(t, i), s);
}

/* Join tokens [a, b) with single spaces. */
static char *join(const struct toks *t, size_t a, size_t b)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = a; i < b && i < t->n; i++) {
		if (i > a)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, is_pm(tk(t, i)) ? "±" : tk(t, i));
	}
	if (!sb.buf)
		return xstrdup("");
	return strbuf_detach(&sb);
}

/* Line starts at token i (after re-wrapping too): new line, paragraph. */
static bool bol(const struct toks *t, size_t i)
{
	return i == 0 || (i < t->n && t->v[i - 1].line != t->v[i].line);
}

static bool new_para(const struct toks *t, size_t i)
{
	return i > 0 && i < t->n && t->v[i].line > t->v[i - 1].line + 1;
}

/*
 * "48 threads 2 sockets ... with 64G memory": 0-day's machine text ends with
 * "memory"; a re-wrapped one spans lines, so look for that word up to the
 * next "key:" line or paragraph, else end at the first line end.
 */
static char *machine_text(const struct toks *t, size_t a, size_t end)
{
	size_t b = a, eol = (size_t)-1;

	for (; b < end && b - a < 60; b++) {
		if (b > a && (new_para(t, b) || (bol(t, b) && is_key(tk(t, b)))))
			break;
		if (!strcmp(tk(t, b), "memory"))
			return join(t, a, b + 1);
		if (t->v[b].eol && eol == (size_t)-1)
			eol = b;
	}
	return join(t, a, eol == (size_t)-1 ? b : eol + 1);
}

int lkp_metric_better(const char *m)
{
	static const char *const higher[] = {
		".ops_per_sec", ".throughput", "_ops", ".faults_per_sec_per_cpu", ".workload",
		".median", "_per_sec", ".ops",
	};

	for (size_t i = 0; i < ARRAY_SIZE(higher); i++)
		if (ends_with(m, higher[i]))
			return 1;
	if (strstr(m, ".time.") || strstr(m, "latency") || strstr(m, ".nanosecs_per_") ||
	    ends_with(m, ".free_time"))
		return -1;
	return 0;
}

/* --------------------------------------------------------------- tables */

/* "48 threads ..." -> 48 */
static int threads_in(const char *s)
{
	const char *p = strstr(s, " threads");

	if (!p)
		return 0;
	while (p > s && isdigit((unsigned char)p[-1]))
		p--;
	return atoi(p);
}

/*
 * Caption of a table: the last "for model: ..." or "for test machine: ..."
 * between lo and hi (the axes line).  The model text ends at the end of its
 * line, at "nr_node:"/"memory:" fields, or at the table.
 */
static void parse_caption(const struct toks *t, size_t lo, size_t hi, struct lkp_table *tb)
{
	size_t at = (size_t)-1, start, end, i;
	bool machine = false;
	struct strbuf sb = STRBUF_INIT;

	for (i = lo; i < hi; i++) {
		if (tok_ieq(t, i, "for") && tok_eq(t, i + 1, "model:")) {
			at = i;
			machine = false;
		} else if (tok_ieq(t, i, "for") && tok_eq(t, i + 1, "test") &&
			   tok_eq(t, i + 2, "machine:")) {
			at = i;
			machine = true;
		}
	}
	if (at == (size_t)-1)
		return;
	start = at + (machine ? 3 : 2);
	/* stop before the '=====' decoration and the axes line */
	end = hi;
	while (end > start && is_equals(tk(t, end - 1)))
		end--;
	if (machine) {
		strbuf_addstr(&sb, "test machine: ");
		{
			char *m = machine_text(t, start, end);

			strbuf_addstr(&sb, m);
			tb->nr_cpu = threads_in(m);
			free(m);
		}
		tb->model = strbuf_detach(&sb);
		return;
	}
	/* model: NAME [nr_node: N] [nr_cpu: N] [memory: S] [brand: TEXT] */
	/*
	 * The name runs to its line end, or on over a re-wrap (the next line
	 * is neither a "key:" field nor a new paragraph), at most 8 words.
	 */
	for (i = start; i < end && i < start + 8; i++) {
		if (is_key(tk(t, i)))
			break;
		if (t->v[i].eol && (i + 1 >= end || is_key(tk(t, i + 1)) || new_para(t, i + 1) ||
				    is_equals(tk(t, i + 1)))) {
			i++;
			break;
		}
	}
	{
		char *name = join(t, start, i);

		strbuf_addf(&sb, "model: %s", name);
		free(name);
	}
	while (i < end && is_key(tk(t, i))) {
		const char *k = tk(t, i);
		size_t vs = i + 1, ve = vs;

		if (!strcmp(k, "brand:")) {
			while (ve < end && !t->v[ve].eol)
				ve++;
			if (ve < end)
				ve++;
		} else if (ve < end) {
			ve++;
		}
		if (!strcmp(k, "nr_cpu:") && vs < ve)
			tb->nr_cpu = atoi(tk(t, vs));
		{
			char *v = join(t, vs, ve);

			strbuf_addf(&sb, " %s %s", k, v);
			free(v);
		}
		i = ve;
	}
	tb->model = strbuf_detach(&sb);
}

/* One "fail:runs" row: "1:6  -17%  :6  dmesg.X"; returns tokens used, 0 if none. */
static size_t fail_row(const struct toks *t, size_t p, size_t ncols)
{
	size_t i = p;

	for (size_t c = 0; c < ncols; c++) {
		const char *s = tk(t, i);
		const char *colon = strchr(s, ':');
		double v;
		bool pct;

		if (c > 0) {
			if (!is_change(s, &v, &pct) && !is_number(s, &v))
				return 0;
			s = tk(t, ++i);
			colon = strchr(s, ':');
		}
		if (!colon || !isdigit((unsigned char)colon[1]))
			return 0;
		for (const char *x = s; x < colon; x++)
			if (!isdigit((unsigned char)*x))
				return 0;
		i++;
	}
	if (i >= t->n || is_number(tk(t, i), NULL))
		return 0;
	return i + 1 - p;
}

/* One perf row; returns tokens used, 0 if the tokens at p are not a row. */
static size_t perf_row(const struct toks *t, size_t p, size_t ncols, struct lkp_row *row)
{
	size_t i = p;
	int pct_cols = 0, abs_cols = 0;

	memset(row, 0, sizeof(*row));
	for (size_t c = 0; c < ncols; c++) {
		row->stddev[c] = -1;
		if (c > 0) {
			bool pct;

			if (!is_change(tk(t, i), &row->change[c], &pct))
				return 0;
			if (pct)
				pct_cols++;
			else
				abs_cols++;
			i++;
		}
		if (!is_number(tk(t, i), &row->mean[c]))
			return 0;
		i++;
		if (is_pm(tk(t, i))) {
			if (!is_stddev_pct(tk(t, i + 1), &row->stddev[c]))
				return 0;
			i += 2;
		}
	}
	if (i >= t->n || is_pm(tk(t, i)) || is_number(tk(t, i), NULL))
		return 0;
	/* all change cells of a row are of one kind */
	if (pct_cols && abs_cols)
		return 0;
	row->absolute = abs_cols > 0;
	row->metric = xstrdup(tk(t, i));
	row->line = t->v[p].line;
	return i + 1 - p;
}

static bool is_header_tok(const char *s)
{
	return !strcmp(s, "%stddev") || !strcmp(s, "%change") || !strcmp(s, "\\") ||
	       !strcmp(s, "|") || !strcmp(s, "fail:runs") || !strcmp(s, "%reproduction");
}

/* The axes line at token a and its values line; *pp past them.  0 or -1. */
static int table_axes(const struct toks *t, size_t a, struct lkp_table *tb, size_t *pp,
		      int idx, struct perr *e)
{
	size_t p = a + 1, nkeys = 1, nvals = 1;
	const char *keys = tk(t, a), *vals, *k, *v;
	int line = tb->line;

	tb->axes_keys = xstrndup(keys, strlen(keys) - 1);
	if (p >= t->n || is_equals(tk(t, p)) || tok_eq(t, p, "commit:"))
		return fail(e, "table %d (line %d): the axes line '%s' has no values line",
			    idx, line, keys);
	vals = tk(t, p++);
	tb->axes_values = xstrdup(vals);
	for (const char *c = tb->axes_keys; *c; c++)
		nkeys += *c == '/';
	for (const char *c = vals; *c; c++)
		nvals += *c == '/';
	if (nkeys != nvals)
		return fail(e, "table %d (line %d): the axes line has %zu keys but its values line '%s' has %zu values",
			    idx, line, nkeys, vals, nvals);
	tb->axes = xcalloc(nkeys, sizeof(*tb->axes));
	k = tb->axes_keys;
	v = vals;
	for (size_t i = 0; i < nkeys; i++) {
		const char *ke = strchr(k, '/'), *ve = strchr(v, '/');

		if (!ke)
			ke = k + strlen(k);
		if (!ve)
			ve = v + strlen(v);
		tb->axes[i].key = xstrndup(k, (size_t)(ke - k));
		tb->axes[i].value = xstrndup(v, (size_t)(ve - v));
		k = *ke ? ke + 1 : ke;
		v = *ve ? ve + 1 : ve;
	}
	tb->naxes = nkeys;
	*pp = p;
	return 0;
}

/*
 * The "commit:" list at *pp, then the optional sha header (one longer sha
 * per commit) and the dashes; *pp past them.  0 or -1.
 */
static int table_commits(const struct toks *t, struct lkp_table *tb, size_t *pp, int idx,
			 struct perr *e)
{
	size_t p = *pp;
	int line = tb->line;

	if (!tok_eq(t, p, "commit:"))
		return fail(e, "table %d (line %d): missing the 'commit:' list after the axes line",
			    idx, line);
	p++;
	while (is_hex(tk(t, p), 7) && starts_with(tk(t, p + 1), "(\"")) {
		struct lkp_commit *c;
		size_t s = p + 1, q = s;
		char *subj;

		while (q < t->n && !ends_with(tk(t, q), "\")"))
			q++;
		if (q >= t->n)
			return fail(e, "table %d (line %d): unterminated commit subject", idx,
				    t->v[s].line);
		if (tb->ncommits == LKP_MAX_COLS)
			return fail(e, "table %d (line %d): more than %d commits", idx,
				    t->v[p].line, LKP_MAX_COLS);
		subj = join(t, s, q + 1);
		tb->commits = xrealloc(tb->commits, (tb->ncommits + 1) * sizeof(*tb->commits));
		c = &tb->commits[tb->ncommits++];
		c->sha = xstrdup(tk(t, p));
		c->long_sha = xstrdup(c->sha);
		/* strip ("...") */
		c->subject = xstrndup(subj + 2, strlen(subj) - 4);
		free(subj);
		p = q + 1;
	}
	if (tb->ncommits == 0)
		return fail(e, "table %d (line %d): the 'commit:' list is empty (expected lines like 'fc21959f74 (\"subject\")')",
			    idx, line);
	if (tb->ncommits < 2)
		return fail(e, "table %d (line %d): the 'commit:' list names only one commit; a comparison needs two",
			    idx, line);
	/* sha header: one longer sha per commit (optional) */
	for (size_t c = 0; c < tb->ncommits; c++) {
		const char *s = tk(t, p);
		struct lkp_commit *cm = &tb->commits[c];

		if (!is_hex(s, 7))
			break;
		if (starts_with(s, cm->sha) && strlen(s) > strlen(cm->long_sha)) {
			free(cm->long_sha);
			cm->long_sha = xstrdup(s);
		}
		p++;
	}
	while (is_dashes(tk(t, p)))
		p++;
	*pp = p;
	return 0;
}

/* The rows from *pp: perf rows kept, fail:runs rows counted; *pp past them. */
static void table_rows(const struct toks *t, struct lkp_table *tb, size_t *pp)
{
	size_t p = *pp, rows_alloc = 0;

	for (;;) {
		struct lkp_row row;
		size_t used;

		if (tok_eq(t, p, "fail:runs")) {
			while (p < t->n && is_header_tok(tk(t, p)))
				p++;
			while ((used = fail_row(t, p, tb->ncommits))) {
				tb->nfail_rows++;
				p += used;
			}
			continue;
		}
		if (tok_eq(t, p, "%stddev")) {
			while (p < t->n && is_header_tok(tk(t, p)))
				p++;
		}
		used = perf_row(t, p, tb->ncommits, &row);
		if (!used)
			break;
		do {
			ALLOC_GROW(tb->rows, tb->nrows + 1, rows_alloc);
			tb->rows[tb->nrows++] = row;
			p += used;
		} while ((used = perf_row(t, p, tb->ncommits, &row)));
	}
	*pp = p;
}

/*
 * Parse one table whose axes keys are at token a.  *endp is set past the
 * last row.  Returns 0 or -1 (error set).
 */
static int parse_table(const struct toks *t, size_t a, struct lkp_table *tb,
		       size_t *endp, int idx, struct perr *e)
{
	size_t p = a + 1;
	int line = t->v[a].line;

	tb->line = line;
	if (table_axes(t, a, tb, &p, idx, e) || table_commits(t, tb, &p, idx, e))
		return -1;
	table_rows(t, tb, &p);
	if (tb->nrows == 0) {
		if (p < t->n)
			return fail(e, "table %d (line %d): no rows after the header (at line %d: '%.40s' is not a row of %zu columns)",
				    idx, line, t->v[p].line, is_pm(tk(t, p)) ? "±" : tk(t, p),
				    tb->ncommits);
		return fail(e, "table %d (line %d): no rows after the header (the text ends)",
			    idx, line);
	}
	*endp = p;
	return 0;
}

/* ------------------------------------------------------------ top parts */

static void parse_headline(const struct toks *t, struct lkp_report *r)
{
	for (size_t i = 0; i + 5 < t->n; i++) {
		double v;
		bool pct, unsigned_pct = false;

		/*
		 * "noticed a -5.0% regression of aim9.brk_test.ops_per_sec on:";
		 * improvements come unsigned: "noticed a 94.7% improvement of ..."
		 */
		if (tok_eq(t, i, "noticed") && tok_eq(t, i + 1, "a") &&
		    (is_change(tk(t, i + 2), &v, &pct) ||
		     (unsigned_pct = is_unsigned_pct(tk(t, i + 2), &v))) &&
		    (tok_eq(t, i + 3, "regression") || tok_eq(t, i + 3, "improvement")) &&
		    tok_eq(t, i + 4, "of")) {
			const char *m = tk(t, i + 5);

			r->direction = tok_eq(t, i + 3, "regression") ? -1 : 1;
			/* its sign: the direction, turned for a metric where lower is better */
			if (unsigned_pct)
				v *= r->direction * (lkp_metric_better(m) < 0 ? -1 : 1);
			r->headline_change = v;
			r->headline_absolute = !ends_with(tk(t, i + 2), "%");
			r->headline_metric = xstrdup(m);
			return;
		}
	}
	/* subject form: "aim9.brk_test.ops_per_sec -5.0% regression" */
	for (size_t i = 0; i + 2 < t->n; i++) {
		double v;
		bool pct;

		if (strchr(tk(t, i), '.') && !is_number(tk(t, i), NULL) &&
		    is_change(tk(t, i + 1), &v, &pct) && pct &&
		    (tok_eq(t, i + 2, "regression") || tok_eq(t, i + 2, "improvement"))) {
			r->headline_change = v;
			r->direction = tok_eq(t, i + 2, "regression") ? -1 : 1;
			r->headline_metric = xstrdup(tk(t, i));
			return;
		}
	}
}

/*
 * Is token i inside a table?  The ranges are sorted and disjoint and the
 * callers only move forward, so *k remembers where the last answer was:
 * a scan from the first table for every token made a mail of many small
 * tables quadratic (a 256K one took seconds).
 */
static bool in_tables(const size_t (*ranges)[2], size_t n, size_t *k, size_t i)
{
	while (*k < n && ranges[*k][1] <= i)
		(*k)++;
	return *k < n && i >= ranges[*k][0];
}

static void parse_top(const struct toks *t, struct lkp_report *r,
		      const size_t (*ranges)[2], size_t nranges)
{
	size_t at = 0, params_alloc = 0;

	for (size_t i = 0; i < t->n; i++) {
		const char *s = tk(t, i);

		if (in_tables(ranges, nranges, &at, i))
			continue;
		if (!r->testcase && !strcmp(s, "testcase:") && i + 1 < t->n &&
		    !(i > 0 && !strcmp(tk(t, i - 1), "|")) &&
		    strcmp(tk(t, i + 1), "change") && !is_key(tk(t, i + 1))) {
			r->testcase = xstrdup(tk(t, i + 1));
		} else if (!r->test_machine && !strcmp(s, "test") && tok_eq(t, i + 1, "machine:") &&
			   !(i > 0 && tok_ieq(t, i - 1, "for"))) {
			r->test_machine = machine_text(t, i + 2, t->n);
			r->nr_cpu = threads_in(r->test_machine);
		} else if (!r->nparams && !strcmp(s, "parameters:")) {
			size_t p = i + 1, pat = at;

			while (is_key(tk(t, p)) && p + 1 < t->n && !is_key(tk(t, p + 1)) &&
			       !in_tables(ranges, nranges, &pat, p)) {
				const char *k = tk(t, p);

				ALLOC_GROW(r->params, r->nparams + 1, params_alloc);
				r->params[r->nparams].key = xstrndup(k, strlen(k) - 1);
				r->params[r->nparams].value = xstrdup(tk(t, p + 1));
				r->nparams++;
				p += 2;
			}
		} else if (!r->materials_url && !strcasecmp(s, "materials")) {
			for (size_t j = i + 1; j < t->n && j < i + 12; j++) {
				if (starts_with(tk(t, j), "http://") || starts_with(tk(t, j), "https://")) {
					r->materials_url = xstrdup(tk(t, j));
					break;
				}
			}
		} else if (!r->commit_sha && !strcmp(s, "commit:") && is_hex(tk(t, i + 1), 7)) {
			r->commit_sha = xstrdup(tk(t, i + 1));
			if (starts_with(tk(t, i + 2), "(\"")) {
				size_t q = i + 2;

				while (q < t->n && !ends_with(tk(t, q), "\")") && q < i + 40)
					q++;
				if (q < t->n && ends_with(tk(t, q), "\")")) {
					char *subj = join(t, i + 2, q + 1);

					r->commit_subject = xstrndup(subj + 2, strlen(subj) - 4);
					free(subj);
				}
			}
		}
	}
}

/* Program params from the axes when the mail has no parameters: block. */
static void params_from_axes(struct lkp_report *r, const struct lkp_table *tb)
{
	static const char *const not_params[] = {
		"compiler", "kconfig", "rootfs", "tbox_group", "testcase", "commit", "ucode",
	};
	size_t params_alloc = 0;	/* only called when there are none yet */

	for (size_t i = 0; i < tb->naxes; i++) {
		bool skip = false;

		for (size_t k = 0; k < ARRAY_SIZE(not_params); k++)
			skip |= !strcmp(tb->axes[i].key, not_params[k]);
		if (skip)
			continue;
		ALLOC_GROW(r->params, r->nparams + 1, params_alloc);
		r->params[r->nparams].key = xstrdup(tb->axes[i].key);
		r->params[r->nparams].value = xstrdup(tb->axes[i].value);
		r->nparams++;
	}
	r->params_from_axes = true;
}

/* Carry the long sha of the top "commit:" line onto the matching column. */
static void lengthen_shas(struct lkp_report *r)
{
	if (!r->commit_sha)
		return;
	for (size_t i = 0; i < r->ntables; i++)
		for (size_t c = 0; c < r->tables[i].ncommits; c++) {
			struct lkp_commit *cm = &r->tables[i].commits[c];

			if (starts_with(r->commit_sha, cm->sha) &&
			    strlen(r->commit_sha) > strlen(cm->long_sha)) {
				free(cm->long_sha);
				cm->long_sha = xstrdup(r->commit_sha);
			}
		}
}

/* The normalised text's tokens (count first: the array is allocated once, exactly); 0 or -1. */
static int tokens_of(struct strbuf *norm, struct toks *t, struct perr *e)
{
	if (norm->len >= UINT32_MAX)
		return fail(e, "report too large: %zu bytes after decoding", norm->len);
	if (norm->buf) {
		lkp_tokenise(norm->buf, t);
		t->alloc = t->n;
		t->v = t->n ? xcalloc(t->n, sizeof(*t->v)) : NULL;
		if (t->v)
			lkp_tokenise(norm->buf, t);
	}
	if (t->n == 0)
		return fail(e, "empty report: no text to parse");
	return 0;
}

int lkpreport_parse(struct lkp_report *r, const char *data, size_t len,
		    char *err, size_t errlen)
{
	struct perr e = { err, errlen, false };
	struct strbuf norm = STRBUF_INIT, text = STRBUF_INIT;
	struct toks t = { NULL, NULL, 0, 0 };
	size_t (*ranges)[2] = NULL, tables_alloc = 0, ranges_alloc = 0;
	long nul;
	int ret = -1;

	if (err && errlen)
		err[0] = '\0';
	lkp_report_init(r);
	/* decoded or copied: lkp_normalise() wants the text NUL-terminated */
	lkp_decode(data, len, &text);
	nul = lkp_normalise(text.buf ? text.buf : "", text.len, &norm);
	if (nul >= 0) {
		fail(&e, "not a text report: binary data (NUL byte at offset %ld)", nul);
		goto out;
	}
	strbuf_release(&text);
	if (tokens_of(&norm, &t, &e))
		goto out;

	parse_headline(&t, r);
	for (size_t i = 0; i < t.n; i++) {
		struct lkp_table tb;
		size_t end = i + 1, lo;

		if (!is_axes_keys(tk(&t, i)))
			continue;
		memset(&tb, 0, sizeof(tb));
		lo = r->ntables ? ranges[r->ntables - 1][1] : 0;
		parse_caption(&t, lo, i, &tb);
		if (parse_table(&t, i, &tb, &end, (int)r->ntables + 1, &e) < 0) {
			lkp_table_release(&tb);
			goto out;
		}
		ALLOC_GROW(r->tables, r->ntables + 1, tables_alloc);
		ALLOC_GROW(ranges, r->ntables + 1, ranges_alloc);
		ranges[r->ntables][0] = i;
		ranges[r->ntables][1] = end;
		r->tables[r->ntables++] = tb;
		i = end - 1;
	}
	if (!r->ntables) {
		if (!r->headline_metric)
			fail(&e, "not an LKP/0-day report: found neither a 'noticed a -N%% regression of <metric>' sentence nor a comparison table (an axes line such as 'compiler/cpufreq_governor/.../testcase:')");
		else
			fail(&e, "missing comparison table: the report names %s but has no axes line ('compiler/.../testcase:' + values), 'commit:' list and rows",
			     r->headline_metric);
		goto out;
	}
	parse_top(&t, r, (const size_t (*)[2])ranges, r->ntables);
	lengthen_shas(r);

	{
		const struct lkp_table *mt = lkp_report_main_table(r);
		const char *tc = lkp_table_axis(mt, "testcase");

		if (!r->testcase && tc)
			r->testcase = xstrdup(tc);
		if (!r->testcase) {
			fail(&e, "missing testcase: no 'testcase:' line and no testcase axis in the table header (line %d)",
			     mt->line);
			goto out;
		}
		if (!r->nparams)
			params_from_axes(r, mt);
		if (!r->test_machine && mt->model && starts_with(mt->model, "test machine: ")) {
			r->test_machine = xstrdup(mt->model + strlen("test machine: "));
			r->nr_cpu = mt->nr_cpu;
		}
		if (!r->headline_metric) {
			const struct lkp_row *row = &mt->rows[0];

			r->headline_metric = xstrdup(row->metric);
			r->headline_change = row->change[1];
			r->headline_absolute = row->absolute;
			r->headline_from_table = true;
			/* direction from 0-day's KPI list (higher is better) */
			r->direction = lkp_metric_better(row->metric) * (row->change[1] < 0 ? -1 : 1);
		}
	}
	lkp_report_escape(r);
	ret = 0;
out:
	if (ret < 0)
		lkp_report_release(r);
	free(ranges);
	lkp_toks_free(&t);
	strbuf_release(&norm);
	strbuf_release(&text);
	return ret;
}
