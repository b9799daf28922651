/*
 * Values with units (see units.h for the grammar).
 *
 * Ints and sizes are small left-to-right products: factors joined by '*' and
 * '/', e.g. "2*ncpu", "ncpu/2", "mem/5", "64M*ncpu".  Arithmetic is checked
 * for overflow; every error names what was expected.
 */
#include "units.h"
#include "fmtnum.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define EXPECT_INT	"expected an integer like 42, ncpu, 2*ncpu, ncpu/2, 200% or 100x"
#define EXPECT_SIZE	"expected a size like 4096, 4K, 1G, 3P (pages), 20%mem or mem/5"
#define EXPECT_DUR	"expected a duration like 300s, 10ms, 500us, 100ns, 2m, 1h or 1.5s"
#define EXPECT_BOOL	"expected a boolean: true/false, yes/no, on/off or 1/0"
#define EXPECT_DOUBLE	"expected a number like 0.5, 10 or 1e-3"

/* A generator may never produce more values than this (a typo guard). */
#define MAX_LIST_VALUES	100000

void unit_ctx_host(struct unit_ctx *ctx)
{
	long ps = sysconf(_SC_PAGESIZE);

	ctx->ncpus = online_cpus();
	if (ctx->ncpus < 1)
		ctx->ncpus = 1;
	ctx->mem_total = mem_total_bytes();
	ctx->page_size = ps > 0 ? (uint64_t)ps : 4096;
}

MMB_PRINTF_FMT(3, 4)
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool mul_ok(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

/*
 * Parse an unsigned decimal "123" or "1.25" at *p.  The value is returned as
 * an integer mantissa and a power-of-ten scale (1.25 -> 125, 100) so that
 * units can be applied exactly.  Returns false when there is no number or it
 * does not fit.
 */
struct decimal {
	int64_t mant;
	int64_t scale;		/* 10^(fraction digits) */
	bool has_frac;
};

static bool parse_decimal(const char **p, struct decimal *d)
{
	const char *s = *p;
	int ndig = 0;

	d->mant = 0;
	d->scale = 1;
	d->has_frac = false;
	while (isdigit((unsigned char)*s)) {
		if (!mul_ok(d->mant, 10, &d->mant) ||
		    __builtin_add_overflow(d->mant, *s - '0', &d->mant))
			return false;
		s++;
		ndig++;
	}
	if (*s == '.' && isdigit((unsigned char)s[1])) {
		s++;
		d->has_frac = true;
		while (isdigit((unsigned char)*s)) {
			if (!mul_ok(d->mant, 10, &d->mant) ||
			    __builtin_add_overflow(d->mant, *s - '0', &d->mant) ||
			    !mul_ok(d->scale, 10, &d->scale))
				return false;
			s++;
			ndig++;
		}
	}
	if (!ndig)
		return false;
	*p = s;
	return true;
}

/* mant/scale * mult, rounded down, overflow-checked. */
static bool decimal_times(const struct decimal *d, int64_t mult, int64_t *out)
{
	__int128 v = (__int128)d->mant * mult / d->scale;

	if (v > INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && !isalnum((unsigned char)s[n]) && s[n] != '_';
}

enum expr_kind { EXPR_INT, EXPR_SIZE };

/* Size suffixes; case-insensitive, optional B / iB after K/M/G/T. */
static int size_suffix(const char **p, const struct unit_ctx *ctx, int64_t *mult)
{
	const char *s = *p;
	int shift;

	switch (*s) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	case 'p': case 'P':
		*mult = ctx && ctx->page_size ? (int64_t)ctx->page_size : 4096;
		*p = s + 1;
		return 1;
	case 'b': case 'B':
		*mult = 1;
		*p = s + 1;
		return 1;
	default:
		*mult = 1;
		return 0;
	}
	s++;
	if ((s[0] == 'i' || s[0] == 'I') && (s[1] == 'b' || s[1] == 'B'))
		s += 2;
	else if (*s == 'b' || *s == 'B')
		s++;
	*mult = (int64_t)1 << shift;
	*p = s;
	return 1;
}

/*
 * One factor of an int or size expression.  *p advances past it.
 */
static int parse_factor(const char **p, enum expr_kind kind, const struct unit_ctx *ctx,
			int64_t *out, const char *orig, const char *expect,
			char *err, size_t errlen)
{
	const char *s = skip_ws(*p);
	struct decimal d;
	int64_t mult = 1;

	if (word_at(s, "ncpu")) {
		*out = ctx ? ctx->ncpus : 1;
		*p = s + 4;
		return 0;
	}
	if (kind == EXPR_SIZE && word_at(s, "mem")) {
		if (!ctx || !ctx->mem_total || ctx->mem_total > INT64_MAX)
			return fail(err, errlen, "'%s': total memory is unknown here", orig);
		*out = (int64_t)ctx->mem_total;
		*p = s + 3;
		return 0;
	}
	if (*s == '-' || *s == '+')
		return fail(err, errlen, "'%s': %s; %s", orig,
			    *s == '-' ? "negative values are not allowed" :
			    "unexpected '+'", expect);
	if (!isdigit((unsigned char)*s)) {
		if (!*s)
			return fail(err, errlen, "'%s': missing value; %s", orig, expect);
		return fail(err, errlen, "'%s': unexpected '%.16s'; %s", orig, s, expect);
	}
	if (!parse_decimal(&s, &d))
		return fail(err, errlen, "'%s': number too large", orig);

	if (*s == '%') {
		/* 20%mem (sizes) or 200% of the CPUs (ints, lkp style). */
		const char *t = s + 1;
		int64_t base;

		if (kind == EXPR_SIZE) {
			if (!word_at(t, "mem"))
				return fail(err, errlen, "'%s': a percentage must be of mem, as in 20%%mem; %s",
					    orig, expect);
			if (!ctx || !ctx->mem_total || ctx->mem_total > INT64_MAX)
				return fail(err, errlen, "'%s': total memory is unknown here", orig);
			base = (int64_t)ctx->mem_total;
			t += 3;
		} else {
			base = ctx ? ctx->ncpus : 1;
		}
		__int128 v = (__int128)d.mant * base / ((__int128)d.scale * 100);
		if (v > INT64_MAX)
			return fail(err, errlen, "'%s': value too large", orig);
		*out = (int64_t)v;
		/* lkp: a non-zero share of the CPUs is at least one CPU. */
		if (kind == EXPR_INT && !*out && d.mant)
			*out = 1;
		*p = t;
		return 0;
	}

	if (kind == EXPR_SIZE) {
		if (isalpha((unsigned char)*s)) {
			const char *u = s;

			if (!size_suffix(&s, ctx, &mult) || isalpha((unsigned char)*s))
				return fail(err, errlen, "'%s': unknown unit '%.*s'; %s", orig,
					    (int)strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
					    u, expect);
		}
		if (d.has_frac && mult == 1)
			return fail(err, errlen, "'%s': a fraction needs a unit (1.5G), bytes are whole; %s",
				    orig, expect);
	} else {
		if (*s == 'x' || *s == 'X')
			s++;	/* lkp "100x": a plain count */
		if (d.has_frac)
			return fail(err, errlen, "'%s': not a whole number; %s", orig, expect);
	}
	if (!decimal_times(&d, mult, out))
		return fail(err, errlen, "'%s': value too large", orig);
	*p = s;
	return 0;
}

static int parse_expr(const char *s, enum expr_kind kind, const struct unit_ctx *ctx,
		      int64_t *out, char *err, size_t errlen)
{
	const char *expect = kind == EXPR_SIZE ? EXPECT_SIZE : EXPECT_INT;
	const char *p = s;
	int64_t acc, v;

	if (!s)
		return fail(err, errlen, "missing value; %s", expect);
	if (parse_factor(&p, kind, ctx, &acc, s, expect, err, errlen))
		return -1;
	for (;;) {
		char op;

		p = skip_ws(p);
		if (!*p)
			break;
		op = *p;
		if (op != '*' && op != '/')
			return fail(err, errlen, "'%s': unexpected '%.16s'; %s", s, p, expect);
		p++;
		if (parse_factor(&p, kind, ctx, &v, s, expect, err, errlen))
			return -1;
		if (op == '*') {
			if (!mul_ok(acc, v, &acc))
				return fail(err, errlen, "'%s': value too large", s);
		} else {
			if (!v)
				return fail(err, errlen, "'%s': division by zero", s);
			acc /= v;
		}
	}
	*out = acc;
	return 0;
}

int units_parse_int(const char *s, const struct unit_ctx *ctx, int64_t *out,
		    char *err, size_t errlen)
{
	const char *p = s ? skip_ws(s) : NULL;
	int64_t v;

	/* Plain negative integers are fine for ints (e.g. a nice level). */
	if (p && *p == '-' && isdigit((unsigned char)p[1])) {
		char *end;

		errno = 0;
		long long ll = strtoll(p, &end, 10);
		if (errno == ERANGE)
			return fail(err, errlen, "'%s': value too large", s);
		if (*skip_ws(end))
			return fail(err, errlen, "'%s': unexpected '%.16s'; %s", s,
				    skip_ws(end), EXPECT_INT);
		*out = ll;
		return 0;
	}
	if (parse_expr(s, EXPR_INT, ctx, &v, err, errlen))
		return -1;
	*out = v;
	return 0;
}

int units_parse_size(const char *s, const struct unit_ctx *ctx, int64_t *out,
		     char *err, size_t errlen)
{
	return parse_expr(s, EXPR_SIZE, ctx, out, err, errlen);
}

int units_parse_duration(const char *s, int64_t *out_ns, char *err, size_t errlen)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000LL }, { "m", 60000000000LL }, { "h", 3600000000000LL },
		{ "d", 86400000000000LL },
	};
	const char *p;
	struct decimal d;
	int64_t mult = 1000000000LL;	/* bare number: seconds */

	if (!s)
		return fail(err, errlen, "missing value; %s", EXPECT_DUR);
	p = skip_ws(s);
	if (!*p)
		return fail(err, errlen, "'%s': missing value; %s", s, EXPECT_DUR);
	if (*p == '-')
		return fail(err, errlen, "'%s': negative durations are not allowed; %s", s, EXPECT_DUR);
	if (!isdigit((unsigned char)*p))
		return fail(err, errlen, "'%s': not a number; %s", s, EXPECT_DUR);
	if (!parse_decimal(&p, &d))
		return fail(err, errlen, "'%s': number too large", s);
	p = skip_ws(p);
	if (*p) {
		size_t i, n = strcspn(p, " \t");

		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (strlen(units[i].name) == n && !strncmp(p, units[i].name, n))
				break;
		if (i == ARRAY_SIZE(units))
			return fail(err, errlen, "'%s': unknown unit '%.*s'; %s", s, (int)n, p,
				    EXPECT_DUR);
		mult = units[i].ns;
		p = skip_ws(p + n);
		if (*p)
			return fail(err, errlen, "'%s': unexpected '%.16s'; %s", s, p, EXPECT_DUR);
	}
	if (!decimal_times(&d, mult, out_ns))
		return fail(err, errlen, "'%s': duration too long", s);
	return 0;
}

int units_parse_bool(const char *s, int64_t *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	if (!s)
		return fail(err, errlen, "missing value; %s", EXPECT_BOOL);
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return fail(err, errlen, "'%s': %s", s, EXPECT_BOOL);
}

int units_parse_double(const char *s, double *out, char *err, size_t errlen)
{
	const char *b, *why;
	size_t n;

	if (!s || !*skip_ws(s))
		return fail(err, errlen, "missing value; %s", EXPECT_DOUBLE);
	b = skip_ws(s);
	n = strlen(b);
	while (n && isspace((unsigned char)b[n - 1]))
		n--;
	if (!num_parse(b, n, out, &why))
		return 0;
	if (!strcmp(why, "not a decimal number")) {
		char *end;
		double v = strtod(b, &end);	/* where a number would have ended */

		if (end > b && !*skip_ws(end) && !isfinite(v))
			return fail(err, errlen, "'%s': out of range", s);	/* nan, inf */
		if (end > b && *skip_ws(end))
			return fail(err, errlen, "'%s': unexpected '%.16s'; %s", s, skip_ws(end),
				    EXPECT_DOUBLE);
		return fail(err, errlen, "'%s': %s", s, EXPECT_DOUBLE);
	}
	return fail(err, errlen, "'%s': %s; %s", s, why, EXPECT_DOUBLE);
}

/* ---- list generators ------------------------------------------------- */

struct ilist {
	int64_t *v;
	size_t n, alloc;
};

static int ilist_add(struct ilist *l, int64_t x, const char *s, char *err, size_t errlen)
{
	if (l->n && l->v[l->n - 1] == x)
		return 0;	/* appended end already produced */
	if (l->n >= MAX_LIST_VALUES)
		return fail(err, errlen, "'%s': more than %d values", s, MAX_LIST_VALUES);
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = x;
	return 0;
}

/* the endpoints of a size generator are sizes (pow2:4K..1G), of an int one ints */
static int gen_int(bool gen_sizes, const char *text, size_t len, const struct unit_ctx *ctx,
		   const char *orig, const char *what, int64_t *out, char *err, size_t errlen)
{
	char *tmp = xstrndup(text, len);
	char sub[256];
	int ret = gen_sizes ? units_parse_size(tmp, ctx, out, sub, sizeof(sub))
			    : units_parse_int(tmp, ctx, out, sub, sizeof(sub));

	if (ret)
		fail(err, errlen, "'%s': bad %s: %s", orig, what, sub);
	free(tmp);
	return ret;
}

/* Step through [a, b] by `step`, stopping before overflow. */
static int gen_steps(struct ilist *l, int64_t a, int64_t b, int64_t step,
		     const char *s, char *err, size_t errlen)
{
	for (int64_t x = a; x <= b; ) {
		if (ilist_add(l, x, s, err, errlen))
			return -1;
		if (__builtin_add_overflow(x, step, &x))
			break;
	}
	return 0;
}

#define EXPECT_GEN "expected stride:E, pow2:A..B or range:A..B[:S] (e.g. stride:ncpu, pow2:1..4*ncpu, range:1..16:2)"

static int int_list(bool gen_sizes, const char *s, const struct unit_ctx *ctx, int64_t **vals,
		    size_t *n, char *err, size_t errlen)
{
	struct ilist l = { 0 };
	const char *p, *colon, *dots;
	int64_t a, b, step = 1;

	*vals = NULL;
	*n = 0;
	if (!s)
		return 1;
	p = skip_ws(s);
	/* "word:" where word is all lowercase letters/digits names a generator. */
	colon = p + strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (colon == p || *colon != ':')
		return 1;

	if (colon - p == 6 && !strncmp(p, "stride", 6)) {
		int64_t e;

		if (gen_sizes)
			return fail(err, errlen, "'%s': stride: makes client counts; for sizes use"
				    " pow2:A..B or range:A..B:S (e.g. pow2:4K..1G)", s);

		if (gen_int(gen_sizes, colon + 1, strlen(colon + 1), ctx, s, "end", &e, err, errlen))
			return -1;
		if (e < 1)
			return fail(err, errlen, "'%s': the end must be >= 1, got %lld", s,
				    (long long)e);
		/* mmtests' "large stride" client list. */
		if (e > 32) {
			if (gen_steps(&l, 1, 8, 3, s, err, errlen) ||
			    gen_steps(&l, 12, 32, 9, s, err, errlen) ||
			    gen_steps(&l, 48, e, 31, s, err, errlen))
				goto fail;
		} else if (e > 8) {
			if (gen_steps(&l, 1, 8, 2, s, err, errlen) ||
			    gen_steps(&l, 12, e, 6, s, err, errlen))
				goto fail;
		} else if (gen_steps(&l, 1, e, 2, s, err, errlen)) {
			goto fail;
		}
		if (ilist_add(&l, e, s, err, errlen))
			goto fail;
		goto done;
	}

	bool is_pow2 = colon - p == 4 && !strncmp(p, "pow2", 4);
	bool is_range = colon - p == 5 && !strncmp(p, "range", 5);

	if (!is_pow2 && !is_range)
		return fail(err, errlen, "'%s': unknown list generator '%.*s'; %s", s,
			    (int)(colon - p), p, EXPECT_GEN);

	const char *args = colon + 1;
	dots = strstr(args, "..");
	if (!dots)
		return fail(err, errlen, "'%s': missing '..'; %s", s, EXPECT_GEN);
	if (gen_int(gen_sizes, args, dots - args, ctx, s, "start", &a, err, errlen))
		return -1;
	const char *bs = dots + 2;
	const char *sc = strchr(bs, ':');
	if (sc && is_pow2)
		return fail(err, errlen, "'%s': pow2 takes no step; expected pow2:A..B", s);
	if (gen_int(gen_sizes, bs, sc ? (size_t)(sc - bs) : strlen(bs), ctx, s, "end", &b, err, errlen))
		return -1;
	if (sc && gen_int(gen_sizes, sc + 1, strlen(sc + 1), ctx, s, "step", &step, err, errlen))
		return -1;
	if (a > b)
		return fail(err, errlen, "'%s': start %lld is greater than end %lld", s,
			    (long long)a, (long long)b);

	if (is_pow2) {
		if (a < 1)
			return fail(err, errlen, "'%s': pow2 start must be >= 1, got %lld", s,
				    (long long)a);
		for (int64_t x = a; x <= b; ) {
			if (ilist_add(&l, x, s, err, errlen))
				goto fail;
			if (!mul_ok(x, 2, &x))
				break;
		}
		if (ilist_add(&l, b, s, err, errlen))
			goto fail;
	} else {
		if (step < 1)
			return fail(err, errlen, "'%s': step must be >= 1, got %lld", s,
				    (long long)step);
		if (((uint64_t)b - (uint64_t)a) / (uint64_t)step >= MAX_LIST_VALUES)
			return fail(err, errlen, "'%s': more than %d values", s, MAX_LIST_VALUES);
		if (gen_steps(&l, a, b, step, s, err, errlen))
			goto fail;
	}
done:
	*vals = l.v;
	*n = l.n;
	return 0;
fail:
	free(l.v);
	return -1;
}

int units_int_list(const char *s, const struct unit_ctx *ctx, int64_t **vals,
		   size_t *n, char *err, size_t errlen)
{
	return int_list(false, s, ctx, vals, n, err, errlen);
}

int units_size_list(const char *s, const struct unit_ctx *ctx, int64_t **vals,
		    size_t *n, char *err, size_t errlen)
{
	return int_list(true, s, ctx, vals, n, err, errlen);
}

bool units_is_generator(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return starts_with(s, "stride:") || starts_with(s, "pow2:") || starts_with(s, "range:");
}

/* ---- formatting ------------------------------------------------------- */

void units_format_size_exact(int64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "TGMK";
	int64_t a = bytes < 0 ? -bytes : bytes;

	for (int i = 0; a && i < 4; i++) {
		int64_t unit = (int64_t)1 << (10 * (4 - i));

		if (a % unit == 0) {
			snprintf(buf, len, "%lld%c", (long long)(bytes / unit), suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%lld", (long long)bytes);
}

void units_format_size(int64_t bytes, char *buf, size_t len)
{
	/* No P: "3P" parses as three pages. */
	static const char suffix[] = "KMGT";
	double v = (double)bytes;
	int i = -1;

	if (bytes < 1024 && bytes > -1024) {
		snprintf(buf, len, "%lldB", (long long)bytes);
		return;
	}
	while (fabs(v) >= 1024 && i < (int)sizeof(suffix) - 2) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f%c", v, suffix[i]);
}

/* "%.3f" without trailing zeros. */
static void fmt_trim(double v, const char *unit, char *buf, size_t len)
{
	char num[64];
	char *dot;

	snprintf(num, sizeof(num), "%.3f", v);
	dot = strchr(num, '.');
	if (dot) {
		char *e = num + strlen(num) - 1;

		while (e > dot && *e == '0')
			*e-- = '\0';
		if (e == dot)
			*e = '\0';
	}
	snprintf(buf, len, "%s%s", num, unit);
}

void units_format_duration(int64_t ns, char *buf, size_t len)
{
	int64_t a = ns < 0 ? -ns : ns;

	if (a >= 1000000000LL)
		fmt_trim(ns / 1e9, "s", buf, len);
	else if (a >= 1000000)
		fmt_trim(ns / 1e6, "ms", buf, len);
	else if (a >= 1000)
		fmt_trim(ns / 1e3, "us", buf, len);
	else
		snprintf(buf, len, "%lldns", (long long)ns);
}

int units_parse_share(const char *s, double *out)
{
	size_t n = strlen(s);
	bool pct = n && s[n - 1] == '%';
	const char *why;
	double d;

	/* a decimal number as everywhere (num_parse()), then an optional % */
	if (num_parse(s, n - pct, &d, &why))
		return -1;
	*out = pct ? d / 100 : d;
	return 0;
}
