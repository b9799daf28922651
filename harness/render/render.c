/*
 * The renderers: every output format of a comparison is one entry of
 * renderers[] (name, function, flags), one file each (render-<name>.c),
 * collected from their DEFINE_RENDERER lines by make (render.h).
 * Format lists in errors and help come from the table; render_show() is
 * `mmbench compare` (render and print).
 */
#include "render.h"
#include "render-internal.h"
#include "monlist.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Every output format, by rank; the first is the default.  A new format is
 * its own file (docs/ARCHITECTURE.md, the recipes). */
/* renderer-list.h: RENDERER_ENTRY(name) per DEFINE_RENDERER line, made by make */
#define RENDERER_ENTRY(name) extern const struct renderer renderer_##name;
#include "renderer-list.h"
#undef RENDERER_ENTRY
#define RENDERER_ENTRY(name) &renderer_##name,
const struct renderer *const renderers[] = {
#include "renderer-list.h"
};
#undef RENDERER_ENTRY
const size_t nrenderers = ARRAY_SIZE(renderers);

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; name && i < nrenderers; i++)
		if (!strcmp(renderers[i]->name, name))
			return renderers[i];
	return NULL;
}

void renderer_names(struct strbuf *out)
{
	for (size_t i = 0; i < nrenderers; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", renderers[i]->name);
}

const struct renderer *renderer_find_or_error(const char *who, const char *name)
{
	const struct renderer *r = renderer_find(name);
	struct strbuf names = STRBUF_INIT;

	if (r)
		return r;
	renderer_names(&names);
	error("%s: unknown format '%s' (formats: %s)", who, name, names.buf);
	strbuf_release(&names);
	return NULL;
}

int render_show(struct mmb_db *db, const struct compare_select *s, const struct renderer *r,
		FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct compare c;
	struct compare_select sel = *s;
	int rc;

	sel.mm_sums = r->flags & RENDER_MM_SUMS;
	rc = compare_open(db, &sel, &c);

	if (rc)
		return mmb_exit_code(rc);
	r->render(&sb, &c);
	if (r->flags & RENDER_NOTES)
		monitors_note(&sb, &c, (enum monitors_mode)s->monitors,
			      (r->flags & RENDER_MON_VERBOSE) && !c.verbose);
	fwrite(sb.buf, 1, sb.len, out);
	rc = fflush(out) ? EXIT_RUNTIME : EXIT_OK;
	strbuf_reset(&sb);
	if (compare_all_disturbed(&c, &sb)) {
		error("%s", sb.buf);
		rc = EXIT_RUNTIME;
	}
	strbuf_release(&sb);
	compare_release(&c);
	return rc;
}
