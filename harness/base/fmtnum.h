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

/*
 * Bounded text for a number a person reads: snprintf's "%.*f" of v (with
 * a sign when plus) while that has at most 20 digits before the point
 * (mmtests prints 1e17 as 100000000000000000.00, and its layout is
 * matched byte for byte), else the same precision in the %e form
 * ("1.70e+308"), so that no value, however large, prints as 300 digits; prec is taken between 0 and
 * 17 (at least 2 in the %e form).  Returns buf (FMT_FIXED_MAX bytes).
 * FMT_F(v, prec) and FMT_FP(v, prec) ('+') format into a buffer that lives
 * until the end of the enclosing block, for printf's "%s".
 */
#define FMT_FIXED_MAX 48
char *fmt_fixed(char *buf, double v, int prec, bool plus);
#define FMT_F(v, prec) fmt_fixed((char[FMT_FIXED_MAX]){ 0 }, (v), (prec), false)
#define FMT_FP(v, prec) fmt_fixed((char[FMT_FIXED_MAX]){ 0 }, (v), (prec), true)

/*
 * The one text of a p-value (or a BH q): "0.0123", "1.2e-05" below 0.0001
 * in a table's cell (compare's layouts, reproduce), or two significant
 * digits, "%.2g", in a sentence (FMT_P_PROSE: the report, bisect, monitor
 * notes); nan ("-", "n/a") for NaN.  Returns buf (FMT_P_MAX bytes).
 * FMT_P(p, nan) and FMT_P_PROSE(p) format into a buffer that lives until
 * the end of the enclosing block.
 */
#define FMT_P_MAX 32
char *fmt_p(char *buf, double p, bool prose, const char *nan);
#define FMT_P(p, nan) fmt_p((char[FMT_P_MAX]){ 0 }, (p), false, (nan))
#define FMT_P_PROSE(p) fmt_p((char[FMT_P_MAX]){ 0 }, (p), true, "nan")

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

/*
 * A number a person wrote (a config value, an option, an imported value)
 * in s[0..n): [+-]DIGITS[.DIGITS][e[+-]DIGITS] (".5" and "5." too), the
 * double strtod() reads from it.  Refused, 0 or -1 with *why: anything
 * else (hex floats such as 0x1p3, inf, nan, a space inside), a value
 * beyond the doubles (1e309), and one so small it would read as 0
 * (1e-400; a subnormal such as 4.9e-324 is kept).
 */
int num_parse(const char *s, size_t n, double *out, const char **why);

#endif
