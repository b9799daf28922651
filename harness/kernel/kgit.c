/*
 * What kbuild.c, kcache.c and kpatch.c share, below all three: git run the
 * way kernel builds run it, kernel label checks, small string helpers
 * (refs are kref.c's).  Kept here so the three call down into it, not
 * round in a circle through each other.
 */
#include "kbuild.h"
#include "kbuild-internal.h"
#include "kargv.h"
#include "proc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int kbuild_label_valid(const char *label, char *err, size_t errlen)
{
	char *esc;

	if (!label || !*label) {
		snprintf(err, errlen, "'': empty kernel label");
		return -1;
	}
	esc = ctl_escape(label);
	if (strlen(label) > 100 || label[0] == '.' || label[0] == '-') {
		snprintf(err, errlen, "'%s': must be 1-100 characters, not starting with '.' or '-'",
			 esc);
		free(esc);
		return -1;
	}
	for (const char *p = label; *p; p++) {
		if (kconf_sym_char(*p) || *p == '.' || *p == '-' || *p == '+' || *p == '@' || *p == ':')
			continue;
		if (*p >= 0x20 && *p < 0x7f)
			snprintf(err, errlen, "'%s': character '%c' not allowed (use letters, digits and . - _ + @ :)",
				 esc, *p);
		else
			snprintf(err, errlen, "'%s': byte 0x%02x not allowed (use letters, digits and . - _ + @ :)",
				 esc, (unsigned char)*p);
		free(esc);
		return -1;
	}
	free(esc);
	return 0;
}

/* a fixed committer and date: the same patches give the same commits */
const char *const kbuild_git_env[] = {
	"GIT_COMMITTER_NAME=mmbench", "GIT_COMMITTER_EMAIL=mmbench@localhost",
	"GIT_COMMITTER_DATE=1700000000 +0000", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", NULL,
};

int kbuild_git(const char *dir, struct strbuf *out, struct strbuf *err, ...)
{
	struct kargv a = KARGV_INIT;
	const char *s;
	va_list ap;
	int rc;

	kargv_push(&a, "git");
	/* an auto gc git am starts in the background would run beside the boots */
	kargv_push(&a, "-c");
	kargv_push(&a, "gc.autoDetach=false");
	kargv_push(&a, "-C");
	kargv_push(&a, dir);
	va_start(ap, err);
	while ((s = va_arg(ap, const char *)))
		kargv_push(&a, s);
	va_end(ap);
	rc = run_argv_dir((const char *const *)a.v, NULL, kbuild_git_env, out, err);
	kargv_release(&a);
	return rc;
}

/* First line of a buffer (static, for messages). */
const char *kbuild_first_line(const char *s)
{
	static char buf[512];
	size_t n;

	s = s ? s : "";
	while (*s == '\n')
		s++;
	n = strcspn(s, "\n");
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

int kcache_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
