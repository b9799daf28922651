/*
 * fmt_g17() and fmt_int() (fmtnum.h).  A normal double is m * 2^e with m
 * an integer below 2^53; "%.17g" prints D, the 17-digit integer nearest
 * to v * 10^(16-k), k = floor(log10 v), ties to even, in the %e or %f form
 * k selects.  For k from -6 to 38 that product (or its quotient) fits in
 * 128 bits, so D and its rounding are exact, with no table of powers.
 */
#include "fmtnum.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define E16 10000000000000000ull
#define E17 100000000000000000ull

static const uint64_t pow10_64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, E16, E17,
	1000000000000000000ull, 10000000000000000000ull,
};

/* 10^q, 0 <= q <= 38 */
static u128 pow10_128(int q)
{
	return q <= 19 ? pow10_64[q] : (u128)pow10_64[19] * pow10_64[q - 19];
}

/*
 * I = floor(m * 2^e * 10^q) and whether the rest rounds it up (more than
 * half, or half and I odd): 0, or -1 when 128 bits do not hold it.
 */
static int scaled(uint64_t m, int e, int q, uint64_t *out, bool *up)
{
	u128 i, rem, half;

	if (q >= 0) {
		u128 x;

		if (q > 22)	/* m * 10^22 < 2^127 */
			return -1;
		x = (u128)m * pow10_128(q);
		if (e >= 0) {
			if (e > 127 || (e && x >> (128 - e)))
				return -1;
			i = x << e;
			rem = half = 0;
		} else {
			if (e < -127)
				return -1;
			i = x >> -e;
			rem = x & (((u128)1 << -e) - 1);
			half = (u128)1 << (-e - 1);
		}
	} else {
		u128 y, p;

		/* here v >= 1e16 > 2^53: e > 0 */
		if (q < -38 || e < 0 || e > 74)
			return -1;
		y = (u128)m << e;
		p = pow10_128(-q);
		i = y / p;
		rem = 2 * (y % p);	/* < 2 * 10^38 < 2^128 */
		half = p;
	}
	if (i >= (u128)E17 * 10)	/* a wrong guess of k by more than one */
		return -1;
	*out = (uint64_t)i;
	*up = rem > half || (rem == half && rem && (i & 1));
	return 0;
}

/* D in [1e16, 1e17) and k for a normal v = m * 2^e > 0: 0, or -1 (use snprintf). */
static int digits17(uint64_t m, int e, uint64_t *d, int *k)
{
	/* v is in [2^(e+52), 2^(e+53)): k is about (e + 52) log10(2), and
	 * the loop corrects a guess one off */
	int kk = (e + 52) * 78913 >> 18;

	for (int tries = 0; tries < 3; tries++) {
		uint64_t i;
		bool up;

		if (scaled(m, e, 16 - kk, &i, &up))
			return -1;
		if (i >= E17) {
			kk++;
			continue;
		}
		if (i < E16) {
			kk--;
			continue;
		}
		i += up;
		if (i == E17) {	/* 99999999999999999.5 rounds to 1e17 */
			i = E16;
			kk++;
		}
		*d = i;
		*k = kk;
		return 0;
	}
	return -1;
}

static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* the 8 digits of d (< 1e8) into p, two at a time */
static void put8(char *p, uint32_t d)
{
	for (int j = 6; j >= 0; j -= 2, d /= 100)
		memcpy(p + j, pairs + 2 * (d % 100), 2);
}

/* the 17 digits of d (< 1e17) into p */
static void put17(char *p, uint64_t d)
{
	p[0] = (char)('0' + d / E16);
	d %= E16;
	put8(p + 1, (uint32_t)(d / 100000000));
	put8(p + 9, (uint32_t)(d % 100000000));
}

size_t fmt_g17(char *buf, double v)
{
	uint64_t bits, d;
	char dig[17], *p = buf;
	int be, k, nd = 17;

	memcpy(&bits, &v, sizeof(bits));
	be = (int)(bits >> 52 & 0x7ff);
	if (be == 0 || be == 0x7ff) {
		if (!(bits << 1)) {	/* ±0 */
			if (bits)
				*p++ = '-';
			*p++ = '0';
			return (size_t)(p - buf);
		}
		return (size_t)snprintf(buf, FMT_G17_MAX, "%.17g", v);	/* subnormal, inf, nan */
	}
	if (digits17((bits & ((1ull << 52) - 1)) | 1ull << 52, be - 1075, &d, &k))
		return (size_t)snprintf(buf, FMT_G17_MAX, "%.17g", v);
	if (bits >> 63)
		*p++ = '-';
	put17(dig, d);
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (k < -4 || k >= 17) {	/* %e: d.ddde+XX, at least two exponent digits */
		unsigned x = (unsigned)(k < 0 ? -k : k);

		*p++ = dig[0];
		if (nd > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, (size_t)nd - 1);
			p += nd - 1;
		}
		*p++ = 'e';
		*p++ = k < 0 ? '-' : '+';
		if (x >= 100)
			*p++ = (char)('0' + x / 100);
		*p++ = (char)('0' + x / 10 % 10);
		*p++ = (char)('0' + x % 10);
	} else if (k >= 0) {	/* %f: k + 1 integer digits */
		memcpy(p, dig, (size_t)k + 1);
		p += k + 1;
		if (nd > k + 1) {
			*p++ = '.';
			memcpy(p, dig + k + 1, (size_t)(nd - k - 1));
			p += nd - k - 1;
		}
	} else {	/* 0.000ddd */
		*p++ = '0';
		*p++ = '.';
		memset(p, '0', (size_t)(-k - 1));
		p += -k - 1;
		memcpy(p, dig, (size_t)nd);
		p += nd;
	}
	return (size_t)(p - buf);
}

char *fmt_fixed(char *buf, double v, int prec, bool plus)
{
	prec = prec < 0 ? 0 : prec > 17 ? 17 : prec;
	if (isfinite(v) && fabs(v) >= 1e20)
		snprintf(buf, FMT_FIXED_MAX, plus ? "%+.*e" : "%.*e", prec < 2 ? 2 : prec, v);
	else
		snprintf(buf, FMT_FIXED_MAX, plus ? "%+.*f" : "%.*f", prec, v);
	return buf;
}

char *fmt_p(char *buf, double p, bool prose, const char *nan)
{
	if (isnan(p))
		snprintf(buf, FMT_P_MAX, "%s", nan);
	else if (prose)
		snprintf(buf, FMT_P_MAX, "%.2g", p);
	else
		snprintf(buf, FMT_P_MAX, p < 0.0001 ? "%.1e" : "%.4f", p);
	return buf;
}

size_t fmt_int(char *buf, int v)
{
	char tmp[10];
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	size_t n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	return len;
}

int num_parse(const char *s, size_t n, double *out, const char **why)
{
	char buf[512], *end;
	size_t i = 0, digits = 0;
	bool nonzero = false;
	double v;

	if (num_parse_decimal(s, n, out))
		return 0;
	*why = "not a decimal number";
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		*why = "a hex number: write it in decimal";
		return -1;
	}
	for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
		if (s[i] == '.' && memchr(s, '.', i))
			return -1;	/* a second point */
		digits += s[i] != '.';
		nonzero |= s[i] > '0' && s[i] <= '9';
	}
	if (!digits)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = ++i;

		if (i < n && (s[i] == '+' || s[i] == '-'))
			e = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == e)
			return -1;
	}
	if (i != n)
		return -1;
	if (n >= sizeof(buf)) {
		*why = "longer than 511 characters";
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtod(buf, &end);
	if (!isfinite(v)) {
		*why = "out of range: beyond the largest double (1.8e308)";
		return -1;
	}
	if (v == 0 && nonzero) {
		*why = "too small: it would read as 0 (the smallest double is 4.9e-324)";
		return -1;
	}
	*out = v;
	return 0;
}

bool num_parse_decimal(const char *s, size_t n, double *out)
{
	static const double p10[23] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	const char *end = s + n, *dot = NULL;
	bool neg = n && *s == '-';
	uint64_t w = 0;
	int digits = 0;
	size_t f = 0;

	s += neg;
	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9') {
			/* leading zeros leave w as it is */
			if ((w || *s != '0') && ++digits > 19)	/* w would not fit */
				return false;
			w = w * 10 + (uint64_t)(*s - '0');
		} else if (*s == '.' && !dot) {
			dot = s;
		} else {
			return false;
		}
	}
	if (dot) {
		f = (size_t)(end - dot - 1);
		if (!f || f > 22)	/* "5." is strtod's 5 too, but rare */
			return false;
	}
	if (w > (1ull << 53))
		return false;
	*out = f ? (double)w / p10[f] : (double)w;
	if (neg)
		*out = -*out;
	return true;
}
