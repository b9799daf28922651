/*
 * Values with units, as written in experiments and on the command line.
 *   int:      42, ncpu, 2*ncpu, ncpu/2, 200% (of CPUs, lkp style), 100x
 *   size:     4096, 4K, 64k, 1M, 1G, 1T (powers of 1024), 3P (pages),
 *             20%mem (of MemTotal), mem/5
 *   duration: 300s, 10ms, 500us, 100ns, 2m, 1h, 1.5s; bare number = seconds
 *   bool:     true/false, yes/no, on/off, 1/0
 * List generators for int and size params (each expands to several values;
 * on a size, A, B and S are sizes and there is no stride):
 *   stride:E        mmtests' "large stride" client list up to E
 *                   (E>32: 1..8 step 3, 12..32 step 9, 48..E step 31;
 *                    E>8: 1..8 step 2, 12..E step 6; else 1..E step 2;
 *                    E always appended), e.g. stride:ncpu
 *   pow2:A..B       A, 2A, 4A, ... up to B, B appended, e.g. pow2:1..4*ncpu
 *   range:A..B[:S]  A, A+S, ... B (S defaults to 1)
 * Errors: functions return -1 and write a one-line reason into err.
 */
#ifndef MMB_UNITS_H
#define MMB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct unit_ctx {
	int ncpus;
	uint64_t mem_total;	/* bytes */
	uint64_t page_size;
};

/* The running machine's values. */
void unit_ctx_host(struct unit_ctx *ctx);

int units_parse_int(const char *s, const struct unit_ctx *ctx, int64_t *out,
		    char *err, size_t errlen);
int units_parse_size(const char *s, const struct unit_ctx *ctx, int64_t *out,
		     char *err, size_t errlen);
int units_parse_duration(const char *s, int64_t *out_ns, char *err, size_t errlen);
int units_parse_bool(const char *s, int64_t *out, char *err, size_t errlen);
int units_parse_double(const char *s, double *out, char *err, size_t errlen);
/*
 * A share: "10%" or "0.1", as a fraction (0.1).  0, or -1 when s is not a
 * finite number with an optional '%'; the range is the caller's to check.
 */
int units_parse_share(const char *s, double *out);

/*
 * If s is a list generator, expand it into *vals (malloc'ed, caller frees)
 * and return 0; return 1 if s is not a generator; -1 on error.
 */
int units_int_list(const char *s, const struct unit_ctx *ctx, int64_t **vals,
		   size_t *n, char *err, size_t errlen);
/* The same for a size parameter: endpoints and step are sizes (pow2:4K..1G, range:4K..64K:4K). */
int units_size_list(const char *s, const struct unit_ctx *ctx, int64_t **vals,
		    size_t *n, char *err, size_t errlen);
/* s starts like a generator (stride:, pow2:, range:) */
bool units_is_generator(const char *s);

/* Format helpers for display: "1.0G", "300s". */
void units_format_size(int64_t bytes, char *buf, size_t len);
void units_format_duration(int64_t ns, char *buf, size_t len);
/* A size as it can be written back, exactly: 4096 -> "4K", 3145728 -> "3M", 1000 -> "1000". */
void units_format_size_exact(int64_t bytes, char *buf, size_t len);

#endif
