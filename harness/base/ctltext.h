#ifndef MMB_CTLTEXT_H
#define MMB_CTLTEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Control characters: C0 (0x00-0x1f), DEL, the C1 controls U+0080-U+009F,
 * U+2028 and U+2029 (line and paragraph separators).  A newline in a name
 * would start a new line in a plot script, a data file or a terminal; an
 * ESC drives the terminal.
 *
 * Names (labels, workloads, metrics, variants, units) never hold one.
 * Bytes that are not UTF-8 are allowed (names are bytes), the bytes
 * 0x80-0x9f too (an 8-bit terminal's C1): text_escape() shows them all
 * as \xNN.
 * name_ctl() is the first control of s or NULL; name_check() is
 * error("WHAT 'ESCAPED': ...") for one, else 0.
 */
const char *name_ctl(const char *s);
int name_check(const char *what, const char *s);
/* Length of the well-formed UTF-8 sequence at s (RFC 3629), 0 if none starts there. */
size_t utf8_len(const char *s);
/*
 * Text shown to a person is UTF-8 without controls: text_ctl() is the
 * first byte of s that text_escape() writes otherwise (a control, or a
 * byte that is not part of well-formed UTF-8), or NULL.  text_escape()
 * returns a copy (to free) with each written as \n, \t, \r, \xNN (a
 * byte) or \uNNNN (a C1 control, U+2028, U+2029).  With lines, newlines,
 * tabs and the CR of a CRLF are kept (multi-line text: an experiment).
 */
const char *text_ctl(const char *s, bool lines);
char *text_escape(const char *s, bool lines);
/* text_escape(s, false). */
char *ctl_escape(const char *s);
/*
 * s for a terminal: s itself when text_ctl() finds nothing, else
 * ctl_escape(s) in one of 16 slots reused in turn (valid until 16 more
 * calls; no free).  For text not read through db/ (which escapes it).
 */
const char *ctl_show(const char *s);

/*
 * s as Markdown text: control bytes escaped (ctl_escape()); \ ` * [ ] | < > &
 * backslashed, so no name becomes HTML, a link, code or a table cell break
 * (an underscore inside a word is no emphasis: names keep theirs).
 */
char *md_text(const char *s);

#endif
