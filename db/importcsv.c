/*
 * `mmbench import` CSV (RFC 4180), read from a buffer or, for a regular
 * file, as it is parsed: a 64 KiB window holds the records not parsed yet,
 * so memory stays bounded for any file size (issue 31).  Both take the
 * same path, with the same messages and line numbers.
 */
#include "importfmt.h"
#include "importrow.h"
#include "fmtnum.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Parse one record into fields (unquoting in place).  Returns the number of
 * fields, 0 at end of input, -1 on a malformed quote (msg set).
 */
int csv_record(struct csv *c, struct field **f, size_t *alloc, const char **msg)
{
	size_t nf = 0;

	if (c->p >= c->end)
		return 0;
	while (1) {
		char *start = c->p, *out;

		ALLOC_GROW(*f, nf + 1, *alloc);
		if (c->p < c->end && *c->p == '"') {
			int qline = c->line;

			out = start;
			c->p++;
			while (1) {
				if (c->p >= c->end) {
					*msg = "unterminated quoted field";
					c->err_line = qline;
					return -1;
				}
				if (*c->p == '"') {
					if (c->p + 1 < c->end && c->p[1] == '"') {
						*out++ = '"';
						c->p += 2;
						continue;
					}
					c->p++;
					break;
				}
				if (*c->p == '\n')
					c->line++;
				*out++ = *c->p++;
			}
			(*f)[nf].s = start;
			(*f)[nf].n = (size_t)(out - start);
			/* our exports guard formula-like text with a ' (strbuf_add_csv()) */
			if ((*f)[nf].n && *start == '\'' && csv_formula(start, (*f)[nf].n)) {
				(*f)[nf].s++;
				(*f)[nf].n--;
			}
			if (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r') {
				*msg = "text after a closing quote (a quote inside a field must be doubled)";
				c->err_line = c->line;
				return -1;
			}
		} else {
			char *q = c->p;

			while (q < c->end && *q != ',' && *q != '\n') {
				if (*q == '"') {
					*msg = "quote inside an unquoted field";
					c->err_line = c->line;
					return -1;
				}
				q++;
			}
			(*f)[nf].s = start;
			(*f)[nf].n = (size_t)(q - start);
			if (q > start && q[-1] == '\r' && (q == c->end || *q == '\n'))
				(*f)[nf].n--;
			c->p = q;
		}
		nf++;
		if (c->p < c->end && *c->p == '\r')
			c->p++;
		if (c->p >= c->end)
			return (int)nf;
		if (*c->p == '\n') {
			c->p++;
			c->line++;
			return (int)nf;
		}
		c->p++;		/* ',' */
	}
}

/*
 * label, run and seq are what `mmbench export` adds; run_id is run's name
 * in the samples view, whose own ids (id, iteration_id, series_id) mean
 * nothing in another DB and are skipped, so SELECT * FROM samples imports.
 */
enum { C_WORKLOAD, C_METRIC, C_VARIANT, C_ITERATION, C_VALUE, C_UNIT, C_BETTER,
       C_LABEL, C_RUN, C_SEQ, C_RUN_ID, C_ID, C_ITERATION_ID, C_SERIES_ID, C_NR };
static const char *const csv_cols[C_NR] = {
	"workload", "metric", "variant", "iteration", "value", "unit", "better",
	"label", "run", "seq", "run_id", "id", "iteration_id", "series_id",
};

static int parse_long(const char *s, size_t n, long *out)
{
	char buf[32], *end;
	long v = 0;
	size_t i;

	/* digits only (the usual case): what strtol() gives, without the copy */
	for (i = 0; n <= 18 && i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (n && i == n) {
		*out = v;
		return 0;
	}

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtol(buf, &end, 10);
	return (*end || errno) ? -1 : 0;
}

static int parse_value(const char *s, size_t n, struct sample_row *r, const char **why)
{

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	/* finite or refused ("5\0junk" is not 5, 0x1p3 no decimal, 1e-400 not 0); a subnormal is kept */
	return num_parse(s, n, &r->value, why);
}

static bool blank_record(const struct field *f, int nf)
{
	return nf == 1 && f[0].n == 0;
}

/* A file cut mid-line would import a shortened last value: every line ends. */
static int csv_ends(const struct importer *im, const char *buf, size_t len)
{
	int last = 1;

	if (!len || buf[len - 1] == '\n')
		return 0;
	for (size_t i = 0; i + 1 < len; i++)
		last += buf[i] == '\n';
	return import_bad(im, last, "the file does not end with a newline: cut short? (a CSV "
			  "file's every line ends with one; add it if the file is whole)");
}

/* Where the records come from: the whole file in memory, or read from fd as parsed. */
struct csv_src {
	struct csv c;		/* c.end: the end of what csv_record() may read */
	int fd;			/* -1: buf holds the whole file */
	char *buf, *data_end;	/* the window, what of it is read */
	size_t alloc;
	bool eof;
	const struct importer *im;
};

#define CSV_CHUNK ((size_t)1 << 16)	/* in L2 while it is parsed */
/* a record longer than this in a streamed file is refused: memory stays bounded */
#define CSV_RECORD_MAX ((size_t)16 << 20)

static ssize_t read_some(int fd, char *p, size_t n)
{
	ssize_t got;

	do
		got = read(fd, p, n);
	while (got < 0 && errno == EINTR);
	return got;
}

/*
 * The '\n' ending the record at p, quotes considered; NULL when it is not
 * in [p, end).  *plain: the record has no quote (the usual line).
 */
static char *record_end(char *p, char *end, bool *plain)
{
	char *nl = memchr(p, '\n', (size_t)(end - p));
	bool quoted = false;

	*plain = nl && !memchr(p, '"', (size_t)(nl - p));
	if (*plain)
		return nl;
	for (; p < end; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '\n' && !quoted)
			return p;
	}
	return NULL;
}

/* The unparsed rest to the front of the window, then more of the file after it: 0 or -1. */
static int src_fill(struct csv_src *src)
{
	size_t keep = (size_t)(src->data_end - src->c.p);
	ssize_t got;

	memmove(src->buf, src->c.p, keep);
	if (src->alloc - keep < CSV_CHUNK) {
		src->alloc = keep + CSV_CHUNK;
		src->buf = xrealloc(src->buf, src->alloc);
	}
	src->c.p = src->buf;
	src->data_end = src->buf + keep;
	got = read_some(src->fd, src->data_end, src->alloc - keep);
	if (got < 0)
		return error("%s: cannot read an import file: %s", src->im->file, strerror(errno));
	src->eof = got == 0;
	src->data_end += got;
	return 0;
}

/*
 * csv_record() of a line without quotes, ending at nl: the fields between
 * its commas, the last without a '\r' before nl; no byte checked twice.
 */
static int plain_record(struct csv *c, char *nl, struct field **f, size_t *falloc)
{
	char *p = c->p;
	size_t nf = 0;

	for (;;) {
		char *q = p;

		while (q < nl && *q != ',')
			q++;
		ALLOC_GROW(*f, nf + 1, *falloc);
		(*f)[nf].s = p;
		(*f)[nf].n = (size_t)(q - p);
		nf++;
		if (q == nl)
			break;
		p = q + 1;
	}
	if ((*f)[nf - 1].n && nl[-1] == '\r')
		(*f)[nf - 1].n--;
	c->p = nl + 1;
	c->line++;
	return (int)nf;
}

/* csv_record() of the next whole record: its fields, 0 at the end, -1 (msg), -2 (said). */
static int src_record(struct csv_src *src, struct field **f, size_t *falloc, const char **msg)
{
	bool plain;
	char *e;
	int nf;

	if (src->fd < 0)
		return csv_record(&src->c, f, falloc, msg);
	while (!(e = record_end(src->c.p, src->data_end, &plain)) && !src->eof) {
		if ((size_t)(src->data_end - src->c.p) > CSV_RECORD_MAX) {
			/* a stray quote reads on to the next one: the parse names it */
			src->c.end = src->data_end;
			nf = csv_record(&src->c, f, falloc, msg);
			if (nf >= 0 || !strcmp(*msg, "unterminated quoted field")) {
				*msg = "a record longer than 16 MiB (the limit for one CSV record)";
				src->c.err_line = src->c.line;
			}
			return -1;
		}
		if (src_fill(src))
			return -2;
	}
	src->c.end = e ? e + 1 : src->data_end;
	if (e && plain)
		return plain_record(&src->c, e, f, falloc);
	return csv_record(&src->c, f, falloc, msg);
}

/* The header's columns into col[]; their number, or < 0 (MMB_EUSAGE said, -1). */
static int csv_header(struct importer *im, struct csv_src *src, struct field **f,
		      size_t *falloc, int *col)
{
	const char *msg = NULL;
	int line = src->c.line, nf = src_record(src, f, falloc, &msg);

	if (nf == -2)
		return -1;
	if (nf < 0)
		return import_bad(im, src->c.err_line, "%s", msg);
	if (nf == 0)
		return import_bad(im, 1, "empty file: expected a header workload,metric,variant,"
				  "iteration,value");
	for (int i = 0; i < C_NR; i++)
		col[i] = -1;
	for (int i = 0; i < nf; i++) {
		int k;

		for (k = 0; k < C_NR; k++)
			if ((*f)[i].n == strlen(csv_cols[k]) && !memcmp((*f)[i].s, csv_cols[k], (*f)[i].n))
				break;
		if (k == C_NR)
			return import_bad(im, line, "unknown column '%.*s' (columns: workload, metric,"
					  " variant, iteration, value, and optionally unit, better,"
					  " label, run, seq)", (int)(*f)[i].n, (*f)[i].s);
		if (col[k] >= 0)
			return import_bad(im, line, "column '%s' appears twice", csv_cols[k]);
		col[k] = i;
	}
	if (col[C_RUN] >= 0 && col[C_RUN_ID] >= 0)
		return import_bad(im, line, "columns 'run' and 'run_id' are the same thing: give one");
	if (col[C_RUN] < 0)
		col[C_RUN] = col[C_RUN_ID];
	for (int k = 0; k < C_UNIT; k++)
		if (col[k] < 0)
			return import_bad(im, line, "header lacks the '%s' column (required: workload,"
					  " metric, variant, iteration, value)", csv_cols[k]);
	return nf;
}

/* better: 1 and -1 as the samples view has them, or the words. */
static int csv_better(struct importer *im, int line, const struct field *b, int *better)
{
	if ((b->n == 6 && !memcmp(b->s, "higher", 6)) ||
	    (b->n == 1 && b->s[0] == '1') || (b->n == 2 && !memcmp(b->s, "+1", 2)))
		*better = 1;
	else if ((b->n == 5 && !memcmp(b->s, "lower", 5)) || (b->n == 2 && !memcmp(b->s, "-1", 2)))
		*better = -1;
	else if (b->n)
		return import_bad(im, line, "better is '%.*s'; expected higher or lower (or 1, -1)",
				  (int)b->n, b->s);
	return 0;
}

/* The run a row names (columns label, run), made on its first row. */
static int csv_run(struct importer *im, int line, const struct field *f, const int *col)
{
	const struct field *lf = col[C_LABEL] >= 0 ? &f[col[C_LABEL]] : NULL;
	const struct field *rf = col[C_RUN] >= 0 ? &f[col[C_RUN]] : NULL;

	if (lf && !lf->n)
		return import_bad(im, line, "empty label");
	if (lf && memchr(lf->s, '\0', lf->n))
		return import_bad(im, line, "NUL byte in a field");
	return importer_use_run(im, lf ? lf->s : NULL, lf ? lf->n : 0,
				rf ? rf->s : "", rf ? rf->n : 0);
}

/* One record of nf fields at line: a sample.  0, MMB_EUSAGE (said), -1. */
static int csv_row(struct importer *im, int line, const struct field *f, const int *col)
{
	const struct field *it = &f[col[C_ITERATION]], *val = &f[col[C_VALUE]];
	struct sample_row r = { 0 };
	const char *why;
	int ret;

	r.line = line;
	r.workload = f[col[C_WORKLOAD]].s;
	r.wl = f[col[C_WORKLOAD]].n;
	r.metric = f[col[C_METRIC]].s;
	r.ml = f[col[C_METRIC]].n;
	r.variant = f[col[C_VARIANT]].s;
	r.vl = f[col[C_VARIANT]].n;
	if (col[C_UNIT] >= 0) {
		r.unit = f[col[C_UNIT]].s;
		r.ul = f[col[C_UNIT]].n;
	}
	if (col[C_BETTER] >= 0 && (ret = csv_better(im, line, &f[col[C_BETTER]], &r.better)))
		return ret;
	if (parse_long(it->s, it->n, &r.iteration) || r.iteration < 0 || r.iteration > INT_MAX)
		return import_bad(im, line, "iteration '%.*s' is not a non-negative integer",
				  (int)it->n, it->s);
	if (parse_value(val->s, val->n, &r, &why))
		return import_bad(im, line, "value '%.*s' is not a finite number: %s", (int)val->n,
				  val->s, why);
	if (col[C_SEQ] >= 0) {
		const struct field *sq = &f[col[C_SEQ]];
		long seq;

		if (parse_long(sq->s, sq->n, &seq) || seq < 0 || seq > INT_MAX)
			return import_bad(im, line, "seq '%.*s' is not a non-negative integer",
					  (int)sq->n, sq->s);
		r.seq = (int)seq;
		r.has_seq = true;
	}
	if ((col[C_LABEL] >= 0 || col[C_RUN] >= 0) && (ret = csv_run(im, line, f, col)))
		return ret;
	return importer_add(im, &r);
}

/* Header, then every record of src: 0, MMB_EUSAGE (said), -1. */
static int csv_import(struct importer *im, struct csv_src *src)
{
	struct field *f = NULL;
	size_t falloc = 0;
	int col[C_NR], nf, ncols, ret = 0, line;
	const char *msg = NULL;

	ncols = csv_header(im, src, &f, &falloc, col);
	if (ncols < 0) {
		free(f);
		return ncols;
	}
	while (1) {
		line = src->c.line;
		nf = src_record(src, &f, &falloc, &msg);
		if (nf == 0)
			break;
		if (nf < 0) {
			ret = nf == -2 ? -1 : import_bad(im, src->c.err_line, "%s", msg);
			break;
		}
		if (blank_record(f, nf) && ncols > 1)
			continue;
		if (nf != ncols) {
			ret = import_bad(im, line, "%d fields, the header has %d", nf, ncols);
			break;
		}
		ret = csv_row(im, line, f, col);
		if (ret)
			break;
	}
	if (!ret && !im->nsamples)
		ret = import_bad(im, line, "no samples after the header");
	free(f);
	return ret;
}

int import_csv(struct importer *im, char *buf, size_t len)
{
	struct csv_src src = { .c = { buf, buf + len, 1, 0 }, .fd = -1, .im = im };
	int ret;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		src.c.p += 3;
	if ((ret = csv_ends(im, buf, len)))
		return ret;
	return csv_import(im, &src);
}

/* csv_ends() of a file: its last byte, and its lines counted only when that is not '\n'. */
static int csv_ends_fd(struct importer *im, int fd)
{
	char buf[65536];
	struct stat st;
	int last = 1;
	ssize_t got;
	off_t off = 0;

	if (fstat(fd, &st) < 0)
		return error("%s: cannot read an import file: %s", im->file, strerror(errno));
	if (st.st_size == 0 || (pread(fd, buf, 1, st.st_size - 1) == 1 && buf[0] == '\n'))
		return 0;
	while ((got = pread(fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t i = 0; i < got; i++)
			last += buf[i] == '\n';
		off += got;
	}
	return import_bad(im, last, "the file does not end with a newline: cut short? (a CSV "
			  "file's every line ends with one; add it if the file is whole)");
}

int import_csv_fd(struct importer *im, int fd)
{
	struct csv_src src = { .c = { NULL, NULL, 1, 0 }, .fd = fd, .im = im };
	int ret;

	if ((ret = csv_ends_fd(im, fd)))
		return ret;
	src.buf = xmalloc(CSV_CHUNK);
	src.alloc = CSV_CHUNK;
	src.c.p = src.data_end = src.buf;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		ret = error("%s: cannot read an import file: %s", im->file, strerror(errno));
		goto out;
	}
	if (src_fill(&src)) {
		ret = -1;
		goto out;
	}
	if (src.data_end - src.c.p >= 3 && !memcmp(src.c.p, "\xef\xbb\xbf", 3))
		src.c.p += 3;
	ret = csv_import(im, &src);
out:
	free(src.buf);
	return ret;
}
