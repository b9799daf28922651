/* Small shared helpers: errors, allocation, growable strings, exec. */
#ifndef MMB_UTIL_H
#define MMB_UTIL_H

#include "ctltext.h"	/* name_check(), ctl_show(), text_escape(): every caller's */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MMB_PRINTF_FMT(a, b) __attribute__((format(printf, a, b)))

/* Exit codes (the contract in docs/help/mmbench.txt): what main() returns. */
enum mmb_exit {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* a runtime failure (error() returned -1) */
	EXIT_USAGE = 2,		/* bad arguments or input from the user */
};
/*
 * Library functions that can tell bad input from a failure return -1 for a
 * failure and MMB_EUSAGE for bad input; mmb_exit_code() maps 0, MMB_EUSAGE
 * and anything else to EXIT_OK, EXIT_USAGE and EXIT_RUNTIME.
 */
#define MMB_EUSAGE	(-2)
static inline enum mmb_exit mmb_exit_code(int ret)
{
	return ret == 0 ? EXIT_OK : ret == MMB_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
}

/* git style: error() prints "error: ..." and returns -1; die() exits. */
int error(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
/* The name of names[0..n) nearest to want (a typo's "did you mean"), or NULL. */
const char *closest_name(const char *want, char *const *names, size_t n);
int verror(const char *fmt, va_list ap) MMB_PRINTF_FMT(1, 0);
void warning(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
void info(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
__attribute__((noreturn)) void die(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
/* die() with exit code 2: bad input from the user. */
__attribute__((noreturn)) void die_usage(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);
extern int mmb_quiet;		/* -q: suppress info() */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) MMB_PRINTF_FMT(1, 2);

/* Grow an array: ALLOC_GROW(items, nr + 1, alloc). */
#define ALLOC_GROW(x, nr, alloc)					\
	do {								\
		if ((size_t)(nr) > (alloc)) {				\
			(alloc) = (alloc) ? (alloc) * 2 : 16;		\
			if ((alloc) < (size_t)(nr))			\
				(alloc) = (nr);				\
			(x) = xrealloc((x), (alloc) * sizeof(*(x)));	\
		}							\
	} while (0)

struct strbuf {
	char *buf;	/* always NUL terminated once initialised */
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) MMB_PRINTF_FMT(2, 3);
/*
 * s as one CSV field (RFC 4180: quoted when it holds a comma, quote, CR or
 * LF) for reports; text starting = + - @ TAB CR gets a leading ' so a
 * spreadsheet shows it instead of running it as a formula.
 */
void strbuf_add_csv(struct strbuf *sb, const char *s);
/*
 * Does s (n bytes) start like a formula, after any ' ?  strbuf_add_csv()
 * guards those ("'" + s, quoted) and the CSV importer takes one ' off a
 * quoted field that does, so export -> import keeps every name.
 */
bool csv_formula(const char *s, size_t n);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
char *strbuf_detach(struct strbuf *sb);
/* Read a whole file; returns 0 or -1 (errno set). */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Read the whole of an fd. */
int strbuf_read_fd(struct strbuf *sb, int fd);

/*
 * Caps on the files mmbench reads from the user (docs/reliability.md, input
 * limits; each command's help): past its cap a file is refused, never read
 * whole, whatever it is (a huge file, a pipe, /dev/zero).
 */
#define MMB_CAP_EXPERIMENT	((size_t)1 << 20)	/* experiment YAML */
#define MMB_CAP_REPORT		((size_t)16 << 20)	/* 0-day report mail */
#define MMB_CAP_IMPORT		((size_t)256 << 20)	/* CSV / matrix.json */
#define MMB_CAP_FRAGMENT	((size_t)1 << 20)	/* kernel config fragment */
#define MMB_CAP_BASE_CONFIG	((size_t)4 << 20)	/* --base-config FILE */
#define MMB_CAP_PATCH		((size_t)64 << 20)	/* one --patch file */
/*
 * Append all of fd / path to sb, at most cap bytes: 0, or -1 with errno
 * (EFBIG: more than cap).  A regular file's size is checked before reading.
 */
int strbuf_read_fd_capped(struct strbuf *sb, int fd, size_t cap);
int read_file_capped(struct strbuf *sb, const char *path, size_t cap);
/* ... and the file's permission bits into *mode (0600 when it is not a regular file) */
int read_file_capped_mode(struct strbuf *sb, const char *path, size_t cap, mode_t *mode);
/* read_file_capped(), the error said: "PATH: larger than 1 MiB, the limit for WHAT" */
int read_input(struct strbuf *sb, const char *path, size_t cap, const char *what);
int read_input_mode(struct strbuf *sb, const char *path, size_t cap, const char *what,
		    mode_t *mode);
/* "1 MiB", "256 MiB", "4096 bytes" */
const char *cap_str(size_t cap, char buf[32]);
/*
 * Copy a file through tmp + rename, at most cap bytes (streamed), the copy
 * with the source's permission bits (0600 for a non-regular source): a
 * secret stays one.  0 or -1 with errno (EFBIG: more than cap).
 */
int copy_file_capped(const char *from, const char *to, size_t cap);

/* Read the first line of a small file (sysfs/procfs) without the newline. */
int read_line_file(const char *path, char *buf, size_t len);
/*
 * Read a sysfs/procfs knob's current value: the first line, and of a
 * selector like "always [madvise] never" only the bracketed word.
 * Returns the length or -errno.
 */
int read_knob_value(const char *path, char *buf, size_t len);
/* Write a string to a file (sysfs knob); returns 0 or -errno. */
int write_file_str(const char *path, const char *value);
/* Write a whole buffer to a path atomically (tmp + rename). */
int write_file_atomic(const char *path, const void *data, size_t len);
/* ... with exactly this mode, whatever the umask (a copy of a secret stays one) */
int write_file_atomic_mode(const char *path, const void *data, size_t len, mode_t mode);
/* mkdir -p */
int mkdir_p(const char *path, mode_t mode);

uint64_t now_ns(void);		/* CLOCK_MONOTONIC */
double now_wall(void);		/* CLOCK_REALTIME as seconds */
int online_cpus(void);
uint64_t mem_total_bytes(void);

/*
 * In a forked child before exec: die with SIGTERM when the harness dies, for
 * whatever reason (kill -9 included), so a long make or QEMU never outlives
 * the command that started it.  parent is the harness's pid before fork().
 */
void die_with_parent(pid_t parent);
/*
 * The same with signal sig (SIGKILL for what must not linger: the fork
 * server, an iteration that ignores SIGTERM): the getppid() check after
 * prctl() covers a parent that died before it, whoever reaped us.
 */
void die_with_parent_by(pid_t parent, int sig);

/* True when stderr is a terminal and progress output is allowed. */
bool progress_enabled(void);

/* This binary's absolute path (NULL if the kernel will not say), and its folder. */
const char *exe_path(void);
const char *exe_dir(void);

bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
/* Strip leading/trailing whitespace in place; returns s. */
char *strtrim(char *s);
/*
 * The index of s among the n words of names, an enum's words indexed by
 * its values ({ [ACCEL_KVM] = "kvm", ... }); -1 when it is none of them.
 */
int name_index(const char *const *names, size_t n, const char *s);
/* name_index() from names[from] on: the words before are not for parsing */
int name_index_from(const char *const *names, size_t n, size_t from, const char *s);
/*
 * An enum's parse function in one line: *out = the value whose word in
 * names[] (indexed by the enum) is s, searched from names[from]; 0, or -1
 * with *out untouched.
 */
#define NAME_PARSE(names, from, s, out) __extension__ ({			\
	int i_ = name_index_from((names), ARRAY_SIZE(names), (from), (s));	\
	if (i_ >= 0)								\
		*(out) = i_;							\
	i_ < 0 ? -1 : 0; })

/* Hex SHA-256 of a buffer (64 chars + NUL into out). */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
