/*
 * Kconfig fragments: parsed into requirements, checked against the
 * .config a build produced (kbuild.h).
 */
#include "kbuild.h"
#include "kbuild-internal.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- fragments and .config ---------------------------------------- */

static void kconf_set(struct kconf_reqs *reqs, const char *sym, const char *value,
		      const char *file, int line, bool optional)
{
	for (size_t i = 0; i < reqs->nr; i++) {
		struct kconf_req *r = &reqs->v[i];

		if (!strcmp(r->sym, sym)) {
			/* Kconfig keeps the last assignment: so do we */
			free(r->value);
			free(r->file);
			r->value = xstrdup(value);
			r->file = xstrdup(file);
			r->line = line;
			r->optional = optional;
			return;
		}
	}
	ALLOC_GROW(reqs->v, reqs->nr + 1, reqs->alloc);
	reqs->v[reqs->nr].sym = xstrdup(sym);
	reqs->v[reqs->nr].value = xstrdup(value);
	reqs->v[reqs->nr].file = xstrdup(file);
	reqs->v[reqs->nr].line = line;
	reqs->v[reqs->nr].optional = optional;
	reqs->nr++;
}

bool kconf_sym_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

int kconf_parse_fragment(struct kconf_reqs *reqs, const char *file, const char *text,
			 char *err, size_t errlen)
{
	const char *p = text;
	int lineno = 0;
	bool optional = false;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xstrndup(p, len), *s = strtrim(line);

		lineno++;
		p += len + (eol ? 1 : 0);
		if (starts_with(s, "# CONFIG_") && ends_with(s, " is not set")) {
			char *sym = s + 2, *end = sym;

			while (kconf_sym_char(*end))
				end++;
			if (strcmp(end, " is not set") || end == sym + 7) {
				snprintf(err, errlen, "%s:%d: malformed '# CONFIG_X is not set' line",
					 file, lineno);
				free(line);
				return -1;
			}
			*end = '\0';
			kconf_set(reqs, sym, "n", file, lineno, optional);
		} else if (!strcmp(s, "# mmbench: optional")) {
			optional = true;
		} else if (!*s || *s == '#') {
			/* comment or blank */
		} else if (starts_with(s, "CONFIG_")) {
			char *eq = strchr(s, '='), *q;

			for (q = s; q < (eq ? eq : s + strlen(s)); q++)
				if (!kconf_sym_char(*q))
					break;
			if (!eq || q != eq || eq == s + 7 || !eq[1]) {
				snprintf(err, errlen, "%s:%d:%d: expected CONFIG_NAME=VALUE", file,
					 lineno, (int)((eq ? q : s) - s) + 1);
				free(line);
				return -1;
			}
			*eq = '\0';
			kconf_set(reqs, s, eq + 1, file, lineno, optional);
		} else {
			snprintf(err, errlen,
				 "%s:%d:1: not a config line (expected CONFIG_NAME=VALUE or "
				 "'# CONFIG_NAME is not set')", file, lineno);
			free(line);
			return -1;
		}
		free(line);
	}
	return 0;
}

void kconf_reqs_release(struct kconf_reqs *reqs)
{
	for (size_t i = 0; i < reqs->nr; i++) {
		free(reqs->v[i].sym);
		free(reqs->v[i].value);
		free(reqs->v[i].file);
	}
	free(reqs->v);
	reqs->v = NULL;
	reqs->nr = reqs->alloc = 0;
}

char *kconf_lookup(const char *config_text, const char *sym)
{
	size_t sl = strlen(sym);
	const char *p = config_text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > sl && !strncmp(p, sym, sl) && p[sl] == '=') {
			const char *v = p + sl + 1;
			size_t vl = len - sl - 1;

			if (vl == 1 && *v == 'n')
				break;
			return xstrndup(v, vl);
		}
		p = eol ? eol + 1 : NULL;
	}
	return xstrdup("n");
}

int kconf_verify(const struct kconf_reqs *reqs, const char *config_text, struct strbuf *report,
		 struct strbuf *notes)
{
	int dropped = 0;

	for (size_t i = 0; i < reqs->nr; i++) {
		const struct kconf_req *r = &reqs->v[i];
		char *got = kconf_lookup(config_text, r->sym);
		struct strbuf *to = r->optional ? notes : report;

		if (strcmp(got, r->value) && to) {
			if (!strcmp(r->value, "n"))
				strbuf_addf(to, "  # %s is not set (%s:%d): resolved to %s=%s\n",
					    r->sym, r->file, r->line, r->sym, got);
			else if (!strcmp(got, "n"))
				strbuf_addf(to, "  %s=%s (%s:%d): resolved to not set\n",
					    r->sym, r->value, r->file, r->line);
			else
				strbuf_addf(to, "  %s=%s (%s:%d): resolved to %s=%s\n",
					    r->sym, r->value, r->file, r->line, r->sym, got);
		}
		if (strcmp(got, r->value) && !r->optional)
			dropped++;
		free(got);
	}
	return dropped;
}
