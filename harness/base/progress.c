#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int shown;

void progress_update(const char *fmt, ...)
{
	char line[512];
	struct winsize ws;
	int width = 80;
	va_list ap;

	if (!progress_enabled())
		return;
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		width = ws.ws_col;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
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
