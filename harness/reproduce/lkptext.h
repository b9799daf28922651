/* The text of a 0-day / LKP report mail, decoded and tokenised (lkptext.c). */
#ifndef MMB_LKPTEXT_H
#define MMB_LKPTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

#define PM_MARK "\x01"		/* internal spelling of "±" */

/*
 * A token is a NUL-terminated span of the normalised text itself (its
 * separator overwritten): 8 bytes a token and no copy, so a 16 MiB mail
 * of one-letter tokens costs ~5 times its size, not 27 (a malloc'ed copy
 * per token).
 */
struct tok {
	uint32_t off;		/* into toks.base */
	uint32_t line : 31;
	uint32_t eol : 1;	/* last token on its line */
};

struct toks {
	char *base;
	struct tok *v;
	size_t n, alloc;
};

/* The mail's text: a quoted-printable or base64 body decoded, else a copy. */
void lkp_decode(const char *data, size_t len, struct strbuf *out);

/*
 * Copy s (len bytes, NUL-terminated at s[len]) into out with CRLF/CR -> LF,
 * every "±" spelling -> PM_MARK, NBSP -> space.  Returns the offset of a
 * NUL byte (binary data), or -1.
 */
long lkp_normalise(const char *s, size_t len, struct strbuf *out);

/*
 * Split s (modified: each token is NUL-terminated in place) into tokens;
 * with t->v NULL only counts them, into t->n, leaving s as it was.
 */
void lkp_tokenise(char *s, struct toks *t);
void lkp_toks_free(struct toks *t);

#endif
