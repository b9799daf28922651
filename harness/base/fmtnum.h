/*
 * Numbers as text, fast, for the writers of millions of samples (export):
 * the same bytes as printf's "%.17g" and "%d", without printf's cost
 * (glibc formats a double through multi-precision arithmetic, ~0.3 us).
 */
#ifndef MMB_FMTNUM_H
#define MMB_FMTNUM_H

#include <stddef.h>

/* room for any "%.17g" ("-2.2250738585072014e-308", and "-nan") */
#define FMT_G17_MAX 32

/*
 * snprintf(buf, FMT_G17_MAX, "%.17g", v), byte for byte: the length
 * written (no NUL).  Values whose 17 digits 128-bit integers give exactly
 * (about 1e-6 to 3e38, zero and their negatives) are formatted here; the
 * rest, and ties the integers cannot settle, through snprintf.
 */
size_t fmt_g17(char *buf, double v);

/* "%d" of v into buf (at least 11 bytes): the length written (no NUL). */
size_t fmt_int(char *buf, int v);

#endif
