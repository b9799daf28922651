/*
 * Numbers as text and back, fast, for millions of samples (export, import):
 * the same bytes as printf's "%.17g" and "%d", and the same double as
 * strtod(), without their cost (glibc goes through multi-precision
 * arithmetic: ~0.3 us to print a double, ~0.1 us to read one).
 */
#ifndef MMB_FMTNUM_H
#define MMB_FMTNUM_H

#include <stdbool.h>
#include <stddef.h>

/* room for any "%.17g" ("-2.2250738585072014e-308", and "-nan") */
#define FMT_G17_MAX 32

/*
 * snprintf(buf, FMT_G17_MAX, "%.17g", v), byte for byte: the length
 * written (no NUL).  Values whose 17 digits 128-bit integers give exactly
 * (about 1e-6 to 3e38, zero and their negatives; ties to even, as glibc)
 * are formatted here, the rest (tiny, huge, inf, nan) through snprintf.
 */
size_t fmt_g17(char *buf, double v);

/* "%d" of v into buf (at least 11 bytes): the length written (no NUL). */
size_t fmt_int(char *buf, int v);

/*
 * The double strtod() reads from s[0..n) when that is plain decimal,
 * -?DIGITS[.DIGITS], whose digits make an integer w <= 2^53 with at most
 * 22 after the point: w / 10^f, both exact, so the one rounding of the
 * division is strtod's (Clinger's fast path).  false for anything else
 * (exponents, signs, spaces, longer digit strings): ask strtod().
 */
bool num_parse_decimal(const char *s, size_t n, double *out);

#endif
