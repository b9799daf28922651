/*
 * What else differs between the labels' recorded runs (compare.h,
 * compare_load_settings()): the settings of c->runs, read once by
 * compare_open(), kept where their values differ, and said in one
 * paragraph.
 */
#include "compare.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Recorded facts that cannot move a metric (a device's name, what was
 * counted), or that differ between any two boots by nature (a VM run's
 * console path, its kernel's cache key: the kernels are the point of the
 * comparison and named above; the memory the guest kernel reports, which
 * each kernel reserves differently of the same vm.mem_bytes; its boot
 * phases, vm.boot.*; what else ran on the host during it, vm.host.*).
 */
static bool setting_ignored(const char *key)
{
	static const char *const keys[] = {
		"swap.zram", "counters.unsupported", "profile", "profile.event",
		"vm.console_log", "vm.kernel_key", "vm.guest_mem_bytes",
		"vm.clock",	/* compare_check_clocks() keeps the clocks apart */
		"vm.arch",	/* and compare_check_arches() the archs */
	};

	if (starts_with(key, "vm.boot.") || starts_with(key, "vm.host."))
		return true;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* Add value v of key for label i (distinct values, "|"-joined, sorted as met). */
static void setting_add(struct compare *c, size_t *alloc, const char *key, size_t i,
			const char *v)
{
	size_t nl = c->qs->nlabels, k;
	char **slot, *joined;

	for (k = 0; k < c->nsettings && strcmp(c->setting[k].key, key); k++)
		;
	if (k == c->nsettings) {
		ALLOC_GROW(c->setting, c->nsettings + 1, *alloc);
		c->setting[k].key = xstrdup(key);
		c->setting[k].values = xcalloc(nl, sizeof(char *));
		c->nsettings++;
	}
	slot = &c->setting[k].values[i];
	if (!*slot) {
		*slot = xstrdup(v);
		return;
	}
	/* already there? (a "|"-joined list of the runs' values) */
	for (const char *p = *slot; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
		if (!strncmp(p, v, strlen(v)) && (p[strlen(v)] == '|' || !p[strlen(v)]))
			return;
	joined = xasprintf("%s|%s", *slot, v);
	free(*slot);
	*slot = joined;
}

/* Do n labels' values of a setting differ (or one label's runs, "a|b")? */
static bool values_differ(char *const *values, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = values[i] ? values[i] : "";

		if (strchr(v, '|') || strcmp(v, values[0] ? values[0] : ""))
			return true;
	}
	return false;
}

static bool same_build(const struct query_kernel *a, const struct query_kernel *b)
{
	return *a->release && !strcmp(a->release, b->release) && !strcmp(a->version, b->version) &&
	       !strcmp(a->config_hash, b->config_hash) && !strcmp(a->base_commit, b->base_commit) &&
	       !strcmp(a->patches, b->patches);
}

static void settings_text(struct compare *c)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nl = c->qs->nlabels;

	strbuf_addstr(&sb, c->same_kernel ? "settings: every label is the same kernel build, so "
		      "this compares settings; the labels' runs differ in " :
		      "settings: the labels' runs differ in ");
	for (size_t k = 0; k < c->nsettings; k++) {
		const struct compare_setting *s = &c->setting[k];

		strbuf_addf(&sb, "%s%s (", k ? ", " : "", s->key);
		if (nl == 2 && !strchr(s->values[0] ? s->values[0] : "", '|') &&
		    !strchr(s->values[1] ? s->values[1] : "", '|')) {
			strbuf_addf(&sb, "%s -> %s)", s->values[0] && *s->values[0] ? s->values[0] :
				    "unset", s->values[1] && *s->values[1] ? s->values[1] : "unset");
			continue;
		}
		for (size_t i = 0; i < nl; i++)
			strbuf_addf(&sb, "%s%s: %s", i ? ", " : "", c->qs->kernels[i].label,
				    s->values[i] && *s->values[i] ? s->values[i] : "unset");
		strbuf_addch(&sb, ')');
	}
	strbuf_addstr(&sb, c->same_kernel ? "\n" : ": changes may come from the settings, not the"
		      " kernel\n");
	c->settings = strbuf_detach(&sb);
}

void compare_load_settings(struct compare *c)
{
	size_t nl = c->qs->nlabels, alloc = 0, keep = 0;

	c->same_kernel = nl > 1;
	for (size_t i = 0; i < nl; i++)
		c->same_kernel &= same_build(&c->qs->kernels[0], &c->qs->kernels[i]);
	for (size_t k = 0; k < c->nruns; k++) {
		const struct compare_run *cr = &c->runs[k];

		setting_add(c, &alloc, "cmdline", cr->label, cr->run->cmdline);
		for (size_t e = 0; e < cr->nenv; e++)
			if (!setting_ignored(cr->env[e].key))
				setting_add(c, &alloc, cr->env[e].key, cr->label, cr->env[e].value);
	}
	/* keep the keys whose values differ, in key order */
	for (size_t k = 0; k < c->nsettings; k++) {
		if (values_differ(c->setting[k].values, nl)) {
			c->setting[keep++] = c->setting[k];
			continue;
		}
		for (size_t i = 0; i < nl; i++)
			free(c->setting[k].values[i]);
		free(c->setting[k].values);
		free(c->setting[k].key);
	}
	c->nsettings = keep;
	if (keep)
		settings_text(c);
}

void compare_settings_release(struct compare *c, size_t nl)
{
	for (size_t k = 0; k < c->nsettings; k++) {
		for (size_t i = 0; i < nl; i++)
			free(c->setting[k].values[i]);
		free(c->setting[k].values);
		free(c->setting[k].key);
	}
	free(c->setting);
	free(c->settings);
	c->setting = NULL;
	c->settings = NULL;
	c->nsettings = 0;
}

void compare_settings_pair(const struct compare *c, size_t i, struct compare *view)
{
	const size_t pick[2] = { 0, i };
	size_t alloc = 0;

	view->same_kernel = same_build(&c->qs->kernels[0], &c->qs->kernels[i]);
	for (size_t k = 0; k < c->nsettings; k++) {
		char *const pair[2] = { c->setting[k].values[0], c->setting[k].values[i] };
		struct compare_setting s;

		if (!values_differ(pair, 2))
			continue;
		ALLOC_GROW(view->setting, view->nsettings + 1, alloc);
		s.key = xstrdup(c->setting[k].key);
		s.values = xcalloc(2, sizeof(char *));
		for (size_t j = 0; j < 2; j++)
			s.values[j] = c->setting[k].values[pick[j]] ?
				      xstrdup(c->setting[k].values[pick[j]]) : NULL;
		view->setting[view->nsettings++] = s;
	}
	if (view->nsettings)
		settings_text(view);
}
