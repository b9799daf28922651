/*
 * The text of a 0-day / LKP report mail for its parser (lkpreport.c):
 * the mail decoded (quoted-printable, base64), normalised (line ends, the
 * spellings of "±") and split into tokens.
 */
#include "lkptext.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Copy s (len bytes, NUL-terminated at s[len]) into out with CRLF/CR -> LF,
 * every "±" spelling -> PM_MARK, NBSP -> space.  Returns the offset of a
 * NUL byte (binary data), or -1.
 */
long lkp_normalise(const char *s, size_t len, struct strbuf *out)
{
	const unsigned char *d = (const unsigned char *)s;
	const char *nul = memchr(s, '\0', len);
	size_t i = 0;

	if (nul)
		return (long)(nul - s);
	while (i < len) {
		/*
		 * Plain bytes go in as one run, up to the next byte that may be
		 * rewritten: a loop per byte was a third of the parse time
		 * (fuzz_lkpreport profile).  No NUL before s[len], so strcspn()
		 * stops there at the latest.
		 */
		size_t run = strcspn(s + i, "\r\xA0\xB1\xC2\xC3\xC4");
		unsigned char c;

		if (run)
			strbuf_add(out, s + i, run);
		i += run;
		if (i >= len)
			break;
		c = d[i];
		if (c == '\r') {
			if (!(i + 1 < len && d[i + 1] == '\n'))
				strbuf_addch(out, '\n');
		} else if (c == 0xC3 && i + 3 < len && d[i + 1] == 0x82 &&
			   d[i + 2] == 0xC2 && d[i + 3] == 0xB1) {
			strbuf_addstr(out, " " PM_MARK " ");	/* "Â±": UTF-8 read as Latin-1 twice */
			i += 3;
		} else if (c == 0xC2 && i + 1 < len && d[i + 1] == 0xB1) {
			strbuf_addstr(out, " " PM_MARK " ");	/* UTF-8 */
			i += 1;
		} else if (c == 0xC4 && i + 1 < len && d[i + 1] == 0x85) {
			strbuf_addstr(out, " " PM_MARK " ");	/* "ą": 0xB1 read as Latin-2 */
			i += 1;
		} else if (c == 0xC2 && i + 1 < len && d[i + 1] == 0xA0) {
			strbuf_addch(out, ' ');			/* NBSP */
			i += 1;
		} else if (c == 0xB1) {
			strbuf_addstr(out, " " PM_MARK " ");	/* Latin-1, as 0-day sends it */
		} else if (c == 0xA0) {
			strbuf_addch(out, ' ');
		} else {
			strbuf_addch(out, (char)c);
		}
		i++;
	}
	return -1;
}

/*
 * A raw mail saved with its headers may carry the body quoted-printable
 * ("=B1" for the stddev sign, "=" + newline where long table lines were
 * split): decode it when the mail says so.
 */
/* Where "Content-Transfer-Encoding: <enc>" ends, at or after `from`; NULL if nowhere. */
static const char *find_cte(const char *d, size_t len, const char *from, const char *enc)
{
	static const char name[] = "content-transfer-encoding:";
	const size_t colon = sizeof(name) - 2, elen = strlen(enc);
	const char *c = from, *end = d + len;

	/*
	 * Compare only where a ':' is: strncasecmp() at every offset was a
	 * quarter of the parse time (fuzz_lkpreport profile).
	 */
	while (c < end && (c = memchr(c, ':', (size_t)(end - c)))) {
		size_t i = (size_t)(c - d);
		const char *v = c + 1;

		c++;
		if (i < colon || strncasecmp(d + i - colon, name, colon + 1))
			continue;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if ((size_t)(end - v) >= elen && !strncasecmp(v, enc, elen))
			return v + elen;
	}
	return NULL;
}

static bool has_qp_header(const char *d, size_t len)
{
	return find_cte(d, len, d, "quoted-printable") != NULL;
}

/* c's place among digits (its value there), or -1: the one lookup of the decoders below. */
static int digit_value(const char *digits, int c)
{
	const char *p = c ? strchr(digits, c) : NULL;

	return p ? (int)(p - digits) : -1;
}

static int b64val(int c)
{
	return digit_value("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", c);
}

/*
 * A mail whose text part is base64 (many mailers send UTF-8 that way):
 * every base64 part is decoded in place, from the blank line ending its
 * headers to the first line that is not base64 (a MIME boundary); the
 * rest of the mail is copied as it is.
 */
static bool b64_decode_parts(const char *d, size_t len, struct strbuf *out)
{
	const char *end = d + len, *p = d, *h;
	bool any = false;

	while ((h = find_cte(d, len, p, "base64"))) {
		const char *body = h, *q;
		unsigned int acc = 0;
		int bits = 0;

		/* the part's headers end at the first empty line */
		while (body < end) {
			const char *nl = memchr(body, '\n', (size_t)(end - body));

			if (!nl)
				break;
			body = nl + 1;
			if (body < end && (*body == '\n' || (*body == '\r' && body + 1 < end &&
							      body[1] == '\n'))) {
				body += *body == '\r' ? 2 : 1;
				break;
			}
		}
		if (body >= end)
			break;
		strbuf_add(out, p, (size_t)(body - p));
		for (q = body; q < end;) {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			const char *le = nl ? nl : end, *c;
			bool line_ok = le > q && *q != '\r';	/* a blank line (LF or CRLF) ends it */

			for (c = q; c < le && line_ok; c++)
				line_ok = b64val((unsigned char)*c) >= 0 || *c == '=' || *c == '\r';
			if (!line_ok)
				break;		/* boundary, blank line or text: the part ends */
			for (c = q; c < le; c++) {
				int v = b64val((unsigned char)*c);

				if (v < 0)
					continue;
				acc = (acc << 6) | (unsigned int)v;
				bits += 6;
				if (bits >= 8) {
					bits -= 8;
					strbuf_addch(out, (char)((acc >> bits) & 0xff));
				}
			}
			q = nl ? nl + 1 : end;
		}
		strbuf_addch(out, '\n');
		any = true;
		p = q;
	}
	if (any)
		strbuf_add(out, p, (size_t)(end - p));
	return any;
}

static int hexval(int c)
{
	int v = digit_value("0123456789ABCDEFabcdef", c);

	return v < 16 ? v : v - 6;	/* a to f: after A to F */
}

static void qp_decode(const char *d, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		if (d[i] != '=') {
			/* up to the next '=' in one go, not byte by byte */
			const char *eq = memchr(d + i, '=', len - i);
			size_t n = eq ? (size_t)(eq - (d + i)) : len - i;

			strbuf_add(out, d + i, n);
			i += n - 1;
			continue;
		}
		/* soft line break: "=" (spaces) newline */
		{
			size_t j = i + 1;

			while (j < len && (d[j] == ' ' || d[j] == '\t'))
				j++;
			if (j < len && (d[j] == '\n' || d[j] == '\r')) {
				if (d[j] == '\r' && j + 1 < len && d[j + 1] == '\n')
					j++;
				i = j;
				continue;
			}
		}
		if (i + 2 < len && hexval(d[i + 1]) >= 0 && hexval(d[i + 2]) >= 0) {
			strbuf_addch(out, (char)(hexval(d[i + 1]) * 16 + hexval(d[i + 2])));
			i += 2;
			continue;
		}
		strbuf_addch(out, '=');
	}
}

/*
 * The mail's text: its quoted-printable or base64 body decoded, or the
 * data as it is.
 */
void lkp_decode(const char *data, size_t len, struct strbuf *out)
{
	if (has_qp_header(data, len))
		qp_decode(data, len, out);
	else if (!b64_decode_parts(data, len, out))
		strbuf_add(out, data, len);
}

void lkp_toks_free(struct toks *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->alloc = 0;
}

/*
 * Split s (modified: each token is NUL-terminated in place) into tokens;
 * drop mail quoting ("> > ", ">>") wherever it is.  With t->v NULL only
 * counts them, into t->n, leaving s as it was.
 */
void lkp_tokenise(char *s, struct toks *t)
{
	bool store = t->v != NULL;
	int line = 1;
	char *p = s;

	t->base = s;
	t->n = 0;
	while (*p) {
		char *eol = strchr(p, '\n');
		char *end = eol ? eol : p + strlen(p);
		char *q = p;
		size_t first = t->n;
		bool line_start = true;

		while (q < end) {
			char *b;

			/*
			 * isspace() of the C locale, by strspn()/strcspn(): a
			 * loop per byte was the slowest part of the parse.  The
			 * line's '\n' (or the NUL) is end, so neither passes it.
			 */
			q += strspn(q, " \t\v\f\r");
			if (q >= end)
				break;
			b = q;
			q += strcspn(q, " \t\v\f\r\n");
			/* leading quote marks glued to the text: ">>1322908" */
			if (line_start)
				while (b < q && *b == '>')
					b++;
			line_start = false;
			if (b == q)
				continue;
			/* a token made of quote marks only: "> > >" mid-line */
			{
				const char *c = b;

				while (c < q && *c == '>')
					c++;
				if (c == q)
					continue;
			}
			if (store) {
				t->v[t->n].off = (uint32_t)(b - s);
				t->v[t->n].line = (uint32_t)line;
				t->v[t->n].eol = 0;
				if (q < end)
					*q++ = '\0';
			}
			t->n++;
		}
		if (store && t->n > first)
			t->v[t->n - 1].eol = 1;
		line++;
		if (!eol)
			break;
		if (store)
			*eol = '\0';	/* ends the line's last token */
		p = eol + 1;
	}
}
