/*
 * libFuzzer target: values with units and the list generators.  Byte 0
 * picks the parser, byte 1 the CPU count; the rest is the text.
 */
#include "units.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct unit_ctx ctx = { .mem_total = 24ULL << 30, .page_size = 4096 };
	char err[256], buf[64];
	int64_t v, *vals;
	double d;
	size_t n;
	char *s;
	int rc;

	if (size < 2)
		return 0;
	ctx.ncpus = 1 + data[1] % 512;
	if (data[0] & 0x80)
		ctx.mem_total = (uint64_t)data[1] << 40;	/* big and odd machines */
	s = xstrndup((const char *)data + 2, size - 2);
	err[0] = '\0';
	switch (data[0] % 6) {
	case 0:
		if (!units_parse_int(s, &ctx, &v, err, sizeof(err)))
			units_format_size(v, buf, sizeof(buf));
		break;
	case 1:
		if (!units_parse_size(s, &ctx, &v, err, sizeof(err))) {
			if (v < 0)
				abort();	/* a size is never negative */
			units_format_size(v, buf, sizeof(buf));
		}
		break;
	case 2:
		if (!units_parse_duration(s, &v, err, sizeof(err)))
			units_format_duration(v, buf, sizeof(buf));
		break;
	case 3:
		if (!units_parse_bool(s, &v, err, sizeof(err)) && v != 0 && v != 1)
			abort();
		break;
	case 4:
		units_parse_double(s, &d, err, sizeof(err));
		break;
	default:
		rc = units_int_list(s, &ctx, &vals, &n, err, sizeof(err));
		if (rc == 0 && (!n || !vals))
			abort();	/* a generator yields at least one value */
		if (rc != 0 && vals)
			abort();
		free(vals);
		break;
	}
	/* the error text is terminated, and one line unless it quotes one */
	if (!memchr(err, '\0', sizeof(err)) || (strchr(err, '\n') && !strchr(s, '\n')))
		abort();
	free(s);
	return 0;
}
