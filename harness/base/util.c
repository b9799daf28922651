#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int mmb_quiet;

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s%s\n", prefix, msg);
}

/* The body every variadic reporter shares: the caller's arguments after fmt, prefixed. */
#define REPORT_VA(prefix)				\
	do {						\
		va_list ap;				\
							\
		va_start(ap, fmt);			\
		vreport((prefix), fmt, ap);		\
		va_end(ap);				\
	} while (0)

int error(const char *fmt, ...)
{
	REPORT_VA("error: ");
	return -1;
}

int verror(const char *fmt, va_list ap)
{
	vreport("error: ", fmt, ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	REPORT_VA("warning: ");
}

void info(const char *fmt, ...)
{
	if (mmb_quiet)
		return;
	REPORT_VA("");
}

void die(const char *fmt, ...)
{
	REPORT_VA("fatal: ");
	exit(EXIT_RUNTIME);
}

void die_usage(const char *fmt, ...)
{
	REPORT_VA("error: ");
	exit(EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", n, sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory reallocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->alloc = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->alloc);
	sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_reset(struct strbuf *sb)
{
	if (!sb->buf)
		strbuf_init(sb);
	sb->len = 0;
	sb->buf[0] = '\0';
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (!sb->buf)
		strbuf_init(sb);
	if (sb->len + extra + 1 > sb->alloc) {
		while (sb->len + extra + 1 > sb->alloc)
			sb->alloc *= 2;
		sb->buf = xrealloc(sb->buf, sb->alloc);
	}
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p;

	if (!sb->buf)
		strbuf_init(sb);
	p = sb->buf;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	/* no cap: one short of SIZE_MAX, so the byte read past the cap does not wrap to 0 */
	return strbuf_read_fd_capped(sb, fd, SIZE_MAX - 1);
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret, saved;

	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

int strbuf_read_fd_capped(struct strbuf *sb, int fd, size_t cap)
{
	char buf[8192];
	size_t got = 0;
	struct stat st;
	ssize_t n;

	if (!sb->buf)
		strbuf_init(sb);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > cap) {
		errno = EFBIG;
		return -1;
	}
	for (;;) {
		/* one byte past the cap tells "exactly cap" from "more" */
		size_t want = cap - got + 1 < sizeof(buf) ? cap - got + 1 : sizeof(buf);

		n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if ((size_t)n > cap - got) {
			errno = EFBIG;
			return -1;
		}
		strbuf_add(sb, buf, n);
		got += n;
	}
}

int read_file_capped(struct strbuf *sb, const char *path, size_t cap)
{
	return read_file_capped_mode(sb, path, cap, NULL);
}

int read_file_capped_mode(struct strbuf *sb, const char *path, size_t cap, mode_t *mode)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ret, saved;

	if (fd < 0)
		return -1;
	if (mode)
		*mode = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? st.st_mode & 0777 : 0600;
	ret = strbuf_read_fd_capped(sb, fd, cap);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

const char *cap_str(size_t cap, char buf[32])
{
	if (cap >= (1u << 20) && !(cap % (1u << 20)))
		snprintf(buf, 32, "%zu MiB", cap >> 20);
	else if (cap >= 1024 && !(cap % 1024))
		snprintf(buf, 32, "%zu KiB", cap >> 10);
	else
		snprintf(buf, 32, "%zu bytes", cap);
	return buf;
}

int read_input(struct strbuf *sb, const char *path, size_t cap, const char *what)
{
	return read_input_mode(sb, path, cap, what, NULL);
}

int read_input_mode(struct strbuf *sb, const char *path, size_t cap, const char *what,
		    mode_t *mode)
{
	char c[32];

	if (read_file_capped_mode(sb, path, cap, mode) == 0)
		return 0;
	if (errno == EFBIG)
		return error("%s: larger than %s, the limit for %s", path, cap_str(cap, c), what);
	return error("%s: cannot read %s: %s", path, what, strerror(errno));
}

int copy_file_capped(const char *from, const char *to, size_t cap)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, saved, ret = -1;
	mode_t mode = 0600;
	char *tmp = NULL, buf[65536];
	size_t got = 0;
	struct stat st;
	ssize_t n;

	if (in < 0)
		return -1;
	if (fstat(in, &st) < 0)
		goto out;
	if (S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > cap) {
			errno = EFBIG;
			goto out;
		}
		mode = st.st_mode & 0777;
	}
	tmp = xasprintf("%s.tmp.%d", to, (int)getpid());
	/* created without group/other bits, then given the source's exactly (no umask) */
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0 || fchmod(out, mode) < 0)
		goto out;
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		if ((size_t)n > cap - got) {
			errno = EFBIG;
			goto out;
		}
		got += n;
		for (ssize_t off = 0, w; off < n; off += w) {
			w = write(out, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				goto out;
		}
	}
	if (fsync(out) < 0)
		goto out;
	n = close(out);
	out = -1;
	if (n < 0 || rename(tmp, to) < 0)
		goto out;
	ret = 0;
out:
	saved = errno;
	if (out >= 0)
		close(out);
	if (ret && tmp)
		unlink(tmp);
	close(in);
	free(tmp);
	errno = saved;
	return ret;
}

int read_line_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *nl;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return (int)strlen(buf);
}

int read_knob_value(const char *path, char *buf, size_t len)
{
	int n = read_line_file(path, buf, len);
	char *l, *r;

	if (n < 0)
		return n;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		memmove(buf, l + 1, r - l - 1);
		buf[r - l - 1] = '\0';
	}
	return (int)strlen(buf);
}

int write_file_str(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* exact: the file gets mode whatever the umask (created 0600 first, so never more open) */
static int write_atomic(const char *path, const void *data, size_t len, mode_t mode, bool exact)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, exact ? 0600 : mode);
	const char *p = data;
	int ret = -1;

	if (fd < 0)
		goto out;
	if (exact && fchmod(fd, mode) < 0) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += n;
		len -= n;
	}
	if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	return write_atomic(path, data, len, 0644, false);
}

int write_file_atomic_mode(const char *path, const void *data, size_t len, mode_t mode)
{
	return write_atomic(path, data, len, mode, true);
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			ret = -1;
			break;
		}
		*s = '/';
	}
	if (!ret && mkdir(p, mode) < 0 && errno != EEXIST)
		ret = -1;
	free(p);
	return ret;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

uint64_t mem_total_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

bool progress_enabled(void)
{
	return !mmb_quiet && isatty(2);
}

const char *exe_path(void)
{
	static char path[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return path;
}

const char *exe_dir(void)
{
	static char dir[PATH_MAX];
	const char *exe = exe_path();
	char *slash;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s", exe ? exe : ".");
	slash = exe ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	return dir;
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int name_index_from(const char *const *names, size_t n, size_t from, const char *s)
{
	for (size_t i = from; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

int name_index(const char *const *names, size_t n, const char *s)
{
	return name_index_from(names, n, 0, s);
}

char *strtrim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* SHA-256 (FIPS 180-4), for cache keys and config hashes. */
static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		uint32_t s1 = ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + s1 + ch + sha_k[i] + w[i];
		uint32_t s0 = ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;
		hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *p = data;
	unsigned char tail[128];
	size_t rem, tlen;
	uint64_t bits = (uint64_t)len * 8;

	for (; len >= 64; len -= 64, p += 64)
		sha256_block(h, p);
	rem = len;
	memcpy(tail, p, rem);
	tail[rem] = 0x80;
	tlen = rem + 1 <= 56 ? 64 : 128;
	memset(tail + rem + 1, 0, tlen - rem - 1);
	for (int i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
	for (size_t off = 0; off < tlen; off += 64)
		sha256_block(h, tail + off);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", h[i]);
}

void die_with_parent_by(pid_t parent, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	/* it died before prctl(): we were reparented (to init or a subreaper) */
	if (getppid() != parent)
		_exit(128 + sig);
}

void die_with_parent(pid_t parent)
{
	die_with_parent_by(parent, SIGTERM);
}

bool csv_formula(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == '\'')
		i++;
	return i < n && s[i] && strchr("=+-@\t\r", s[i]);
}

void strbuf_add_csv(struct strbuf *sb, const char *s)
{
	/*
	 * A spreadsheet runs a cell starting = + - @ (or TAB, CR before one)
	 * as a formula: such text cells get a leading ' (OWASP's guard),
	 * quoted.  Numbers never come through here.
	 */
	bool formula = csv_formula(s, strlen(s));

	if (!formula && !strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	if (formula)
		strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

/* Levenshtein distance, capped work: names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, d;

	if (la > 256 || lb > 256)
		return SIZE_MAX;
	row = xcalloc(lb + 1, sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *closest_name(const char *want, char *const *names, size_t n)
{
	size_t best = SIZE_MAX, limit = strlen(want) / 3 > 2 ? strlen(want) / 3 : 2;
	const char *hit = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(want, names[i]);

		if (d && d <= limit && d < best) {
			best = d;
			hit = names[i];
		}
	}
	return hit;
}

