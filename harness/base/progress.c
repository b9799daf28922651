#include "progress.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Not on a terminal (a log, a pipe, CI): a plain line at most this often. */
#define PROGRESS_PLAIN_S 30

static int shown;

/* A plain "progress: ..." line: the first at once, then one per PROGRESS_PLAIN_S. */
static void progress_plain(const char *line)
{
	static uint64_t last;
	uint64_t now = now_ns();

	if (last && now - last < (uint64_t)PROGRESS_PLAIN_S * 1000000000ULL)
		return;
	last = now;
	fprintf(stderr, "progress: %s\n", line);
	fflush(stderr);
}

void progress_update(const char *fmt, ...)
{
	char line[512];
	struct winsize ws;
	int width = 80;
	va_list ap;

	if (mmb_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!progress_enabled()) {
		progress_plain(line);
		return;
	}
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		width = ws.ws_col;
	/* never wrap: a wrapped line cannot be erased with \r */
	fprintf(stderr, "\r\033[K%.*s", width - 1, line);
	fflush(stderr);
	shown = 1;
}

void progress_clear(void)
{
	if (!shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	shown = 0;
}

void format_eta(double s, char *buf, size_t len)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}
