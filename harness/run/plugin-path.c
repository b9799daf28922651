/* Finding plugins: the search path, a name's file, the names there are. */
#include "plugin.h"
#include "util.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MMB_PLUGIN_DIR
#define MMB_PLUGIN_DIR "/usr/local/lib/mmbench"
#endif

const char *const *plugin_search_path(void)
{
	static char **dirs;
	size_t n = 0, alloc = 0;
	const char *env;

	if (dirs)
		return (const char *const *)dirs;
	env = getenv("MMBENCH_PLUGIN_PATH");
	if (env && *env) {
		char *copy = xstrdup(env), *save = NULL;

		for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			ALLOC_GROW(dirs, n + 1, alloc);
			dirs[n++] = xstrdup(tok);
		}
		free(copy);
	}
	ALLOC_GROW(dirs, n + 4, alloc);
	dirs[n++] = xasprintf("%s/workloads", exe_dir());
	dirs[n++] = xasprintf("%s/../lib/mmbench", exe_dir());
	dirs[n++] = xstrdup(MMB_PLUGIN_DIR);
	dirs[n] = NULL;
	return (const char *const *)dirs;
}

char *plugin_find(const char *name)
{
	if (!plugin_name_valid(name))
		return NULL;
	for (const char *const *dirs = plugin_search_path(); *dirs; dirs++) {
		char *path = xasprintf("%s/%s.so", *dirs, name);

		if (access(path, F_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

int plugin_load(struct plugin *p, const char *name)
{
	char *path;
	int ret;

	plugin_init(p);
	if (!plugin_name_valid(name))
		return error("'%s' is not a valid workload name", name);
	path = plugin_find(name);
	if (path) {
		ret = plugin_load_file(p, path);
		free(path);
		return ret;
	}
	return error("no workload plugin '%s' (looked for %s.so in the plugin path; `mmbench list workloads` shows what exists)",
		     name, name);
}

int plugin_param_index(const struct plugin *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i]->name, name))
			return (int)i;
	return -1;
}

int plugin_metric_index(const struct plugin *p, const char *name)
{
	for (size_t i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i]->name, name))
			return (int)i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int plugin_list(char ***names, size_t *n)
{
	size_t nr = 0, alloc = 0;
	char **out = NULL;

	for (const char *const *dirs = plugin_search_path(); *dirs; dirs++) {
		DIR *d = opendir(*dirs);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);
			char *name;
			bool dup = false;

			if (len < 4 || strcmp(de->d_name + len - 3, ".so"))
				continue;
			name = xstrndup(de->d_name, len - 3);
			for (size_t i = 0; i < nr; i++)
				dup |= !strcmp(out[i], name);
			if (dup || !plugin_name_valid(name)) {
				free(name);
				continue;
			}
			ALLOC_GROW(out, nr + 1, alloc);
			out[nr++] = name;
		}
		closedir(d);
	}
	if (nr)
		qsort(out, nr, sizeof(*out), cmp_str);
	*names = out;
	*n = nr;
	return 0;
}

int plugin_metric_places(const char *workload, const char *metric)
{
	static struct described {
		char *name;
		struct plugin p;
		bool ok;
	} *seen;
	static size_t nseen, alloc;
	struct described *d = NULL;
	char *path;
	int i;

	for (size_t k = 0; k < nseen && !d; k++)
		if (!strcmp(seen[k].name, workload))
			d = &seen[k];
	if (!d) {
		ALLOC_GROW(seen, nseen + 1, alloc);
		d = &seen[nseen++];
		d->name = xstrdup(workload);
		plugin_init(&d->p);
		/* a name from a database is looked up only as a plugin name (plugin_find) */
		path = plugin_find(workload);
		d->ok = path && plugin_load_file(&d->p, path) == 0;
		free(path);
	}
	if (!d->ok || (i = plugin_metric_index(&d->p, metric)) < 0)
		return -1;
	return d->p.metrics[i]->places ? (int)d->p.metrics[i]->places : -1;
}
