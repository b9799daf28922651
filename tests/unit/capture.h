/*
 * Capture what the code under test prints on stderr (error(), warning()),
 * so tests can assert the exact message:
 *
 *	struct capture c;
 *	capture_begin(&c);
 *	ret = code_under_test();
 *	char *msg = capture_end(&c);	// malloc'ed, caller frees
 */
#ifndef MMB_TEST_CAPTURE_H
#define MMB_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct capture {
	FILE *tmp;
	int saved;
};

static inline void capture_begin(struct capture *c)
{
	c->tmp = tmpfile();
	fflush(stderr);
	c->saved = dup(2);
	if (c->tmp)
		dup2(fileno(c->tmp), 2);
}

static inline char *capture_end(struct capture *c)
{
	long len;
	char *out;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	if (!c->tmp)
		return calloc(1, 1);
	len = ftell(c->tmp);
	out = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
	rewind(c->tmp);
	if (out && len > 0 && fread(out, 1, (size_t)len, c->tmp) != (size_t)len)
		out[0] = '\0';
	fclose(c->tmp);
	return out;
}

#endif
