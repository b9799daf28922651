/*
 * Control characters in names and in text shown to a person (base layer;
 * util.h includes this).  See ctltext.h.
 */
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (c == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;	/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * What the character at s is to a terminal or a line-based reader:
 * CTL_NONE (*n bytes, shown as they are), CTL_BYTE (one byte: C0, DEL, or
 * a byte that is not part of well-formed UTF-8; *cp is the byte) or CTL_CP
 * (*n bytes of UTF-8 for a C1 control, U+2028 or U+2029; *cp).
 */
enum ctl_kind { CTL_NONE, CTL_BYTE, CTL_CP };
static enum ctl_kind ctl_at(const char *s, size_t *n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	*n = utf8_len(s);
	*cp = u[0];
	if (!*n) {
		*n = 1;
		return CTL_BYTE;
	}
	if (*n == 1)
		return u[0] < 0x20 || u[0] == 0x7f ? CTL_BYTE : CTL_NONE;
	*cp = u[0] & (0x7f >> *n);
	for (size_t i = 1; i < *n; i++)
		*cp = *cp << 6 | (u[i] & 0x3f);
	return *cp <= 0x9f || *cp == 0x2028 || *cp == 0x2029 ? CTL_CP : CTL_NONE;
}

const char *name_ctl(const char *s)
{
	size_t n;
	uint32_t cp;

	for (; s && *s; s += n) {
		enum ctl_kind k = ctl_at(s, &n, &cp);

		/* a byte that is not UTF-8 is a name's own (names are bytes): every
		   printer shows it escaped (text_escape()) */
		if (k == CTL_CP || (k == CTL_BYTE && (cp < 0x20 || cp == 0x7f)))
			return s;
	}
	return NULL;
}

/* A newline, a tab, or a CR ending a line: text in lines mode keeps them. */
static bool line_byte(const char *s)
{
	return *s == '\n' || *s == '\t' || (*s == '\r' && s[1] == '\n');
}

const char *text_ctl(const char *s, bool lines)
{
	size_t n;
	uint32_t cp;

	for (; s && *s; s += n)
		if (ctl_at(s, &n, &cp) != CTL_NONE && !(lines && line_byte(s)))
			return s;
	return NULL;
}

char *text_escape(const char *s, bool lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	uint32_t cp;

	strbuf_addstr(&sb, "");
	for (; s && *s; s += n) {
		enum ctl_kind k = ctl_at(s, &n, &cp);

		if (k == CTL_NONE || (lines && line_byte(s)))
			strbuf_add(&sb, s, n);
		else if (k == CTL_CP)
			strbuf_addf(&sb, "\\u%04x", (unsigned)cp);
		else if (cp == '\n')
			strbuf_addstr(&sb, "\\n");
		else if (cp == '\t')
			strbuf_addstr(&sb, "\\t");
		else if (cp == '\r')
			strbuf_addstr(&sb, "\\r");
		else
			strbuf_addf(&sb, "\\x%02x", (unsigned)cp);
	}
	return strbuf_detach(&sb);
}

char *ctl_escape(const char *s)
{
	return text_escape(s, false);
}

const char *ctl_show(const char *s)
{
	static char *ring[16];
	static size_t next;

	if (!text_ctl(s, false))
		return s ? s : "";
	free(ring[next]);
	ring[next] = ctl_escape(s);
	s = ring[next];
	next = (next + 1) % ARRAY_SIZE(ring);
	return s;
}

int name_check(const char *what, const char *s)
{
	const char *bad = name_ctl(s);
	char *e, code[16];
	size_t n;
	uint32_t cp;
	enum ctl_kind kind;

	if (!bad)
		return 0;
	e = ctl_escape(s);
	kind = ctl_at(bad, &n, &cp);
	snprintf(code, sizeof(code), kind == CTL_CP ? "U+%04X" : "0x%02x", (unsigned)cp);
	error("%s '%s': control character %s at byte %zu; names cannot hold control characters "
	      "(newlines, tabs, escapes)", what, e, code, (size_t)(bad - s) + 1);
	free(e);
	return -1;
}

char *md_text(const char *s)
{
	char *e = ctl_escape(s);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	for (const char *p = e; *p; p++) {
		if (strchr("\\`*[]|<>&", *p))
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, *p);
	}
	free(e);
	return strbuf_detach(&sb);
}
