/*
 * What a kernel ref may be (kbuild.h kbuild_ref_check()): refs reach git
 * as arguments, so one that git would read as an option or as other
 * revision syntax is refused before git runs.
 */
#include "kbuild.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* why ref is not a name with ~N / ^N steps (kbuild_ref_check()), or NULL */
static const char *ref_syntax(const char *ref)
{
	const char *p = ref;

	if (*ref == '^')
		return "a leading '^' excludes a commit";
	if (strlen(ref) > 256)
		return "longer than 256 characters";
	for (; *p && *p != '~' && *p != '^'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c <= ' ' || c == 0x7f)
			return "a space or control character";
		if (strchr(":?*[\\", c))
			return c == ':' ? "':' names a file or searches commit messages" :
			       "'?', '*', '[' and '\\' are not in ref names";
		if (c == '.' && p[1] == '.')
			return "'..' is a range";
		if (c == '@' && p[1] == '{')
			return "'@{' reads the reflog";
	}
	if (p == ref || (p - ref == 1 && *ref == '@'))
		return "no name before the ~ or ^ steps";
	/* the steps: ~N or ^N, N optional */
	while (*p == '~' || *p == '^') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p ? "only ~N and ^N may follow the name (not ^{...}, ^!, ^@, ^- or a range)" :
		    NULL;
}

int kbuild_ref_check(const char *what, const char *ref)
{
	const char *why;

	if (!ref || !*ref)
		return error("%s: an empty git ref", what);
	if (ref[0] == '-')
		return error("%s %s: a git ref cannot start with '-' (git would read it as an option)",
			     what, ref);
	why = ref_syntax(ref);
	if (why)
		return error("%s %s: not a commit, tag or branch name: %s (a ref is a name, "
			     "optionally followed by ~N or ^N: v6.12, HEAD~1)", what, ref, why);
	return 0;
}

int kbuild_range_check(const char *what, const char *range)
{
	const char *dots = strstr(range, "..");
	char *a;
	int ret;

	if (range[0] == '-')
		return kbuild_ref_check(what, range);
	if (!dots || dots == range || !dots[2] || dots[2] == '.' || strstr(dots + 2, ".."))
		return error("%s %s: not a range A..B of two refs", what, range);
	a = xstrndup(range, (size_t)(dots - range));
	ret = ref_syntax(a) || ref_syntax(dots + 2) ? -1 : 0;
	if (ret)
		error("%s %s: not a range A..B of commit, tag or branch names: %s", what, range,
		      ref_syntax(a) ? ref_syntax(a) : ref_syntax(dots + 2));
	free(a);
	return ret;
}
