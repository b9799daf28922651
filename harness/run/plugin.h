/* Workload plugins: finding, loading and checking them. */
#ifndef MMB_PLUGIN_H
#define MMB_PLUGIN_H

#include <mmbench/workload.h>
#include <stddef.h>

struct plugin {
	char *path;
	/*
	 * The harness never maps a plugin itself (its constructors could crash,
	 * hang or start daemons in the harness): a contained child loads it and
	 * sends the descriptor over.  handle and the hooks in w are set only in
	 * a child that called plugin_bind() before calling a hook.
	 */
	void *handle;
	/*
	 * The plugin's descriptor copied into a struct of the size this
	 * harness knows; fields past the plugin's own size read as zero.
	 * Its strings live in desc_buf; params/metrics tables are NULL here.
	 */
	struct mmb_workload w;
	char *desc_buf;
	size_t desc_len;
	unsigned int hooks;	/* PLUGIN_HAS_*: the optional hooks it has */
	/*
	 * Each element copied out of the plugin's array (walked with its
	 * declared element size) into a zeroed struct of this harness's size.
	 */
	const struct mmb_param_def **params;
	size_t nparams;
	const struct mmb_metric_def **metrics;
	size_t nmetrics;
	/* a described plugin's programs (ABI 1.2): w.programs points here */
	const char **programs;
};

#define PLUGIN_HAS_SUPPORTED	(1u << 0)
#define PLUGIN_HAS_CHECK_PARAMS	(1u << 1)

void plugin_init(struct plugin *p);
/* Load a given file; expect_name NULL takes the name from the file name. */
int plugin_load_file(struct plugin *p, const char *path);
/* Find <name>.so in the search path and load it. */
int plugin_load(struct plugin *p, const char *name);
void plugin_release(struct plugin *p);
/*
 * In a child about to call hooks: map the plugin and take its hooks,
 * checking it still is the plugin that was described.  0 (also when the
 * hooks are there already), or -1 with the reason in why.
 */
int plugin_bind(struct plugin *p, char *why, size_t len);
/*
 * The decimals of mmtests' layout that plugin `workload` declares for its
 * `metric` (mmb_metric_def.places), or -1: no such plugin here, or it says
 * nothing.  Each plugin is described once a process.
 */
int plugin_metric_places(const char *workload, const char *metric);
/* Path of <name>.so in the search path (malloc'ed), or NULL; prints nothing. */
char *plugin_find(const char *name);

/*
 * The plan-time hooks, each run in a forked child so a crash in plugin
 * code cannot take the harness down before anything ran.  0 with *why
 * NULL (fine, or no such hook) or the hook's reason (malloc'ed); -1 after
 * "plugin NAME crashed in supported: SIGSEGV" (or how it exited).
 */
int plugin_call_supported(const struct plugin *p, const struct mmb_host *host,
			  const struct mmb_value *vals, char **why);
/*
 * The same on n value sets in one child (planning forks once per workload,
 * not once per variant): why[i] NULL or the reason; 0, or -1 after error().
 */
int plugin_call_check_params_all(const struct plugin *p, const struct mmb_value *const *vals,
				 size_t n, char **why);
int plugin_call_supported_all(const struct plugin *p, const struct mmb_host *host,
			      const struct mmb_value *const *vals, size_t n, char **why);

int plugin_param_index(const struct plugin *p, const char *name);
int plugin_metric_index(const struct plugin *p, const char *name);

/*
 * Search path, in order: $MMBENCH_PLUGIN_PATH (colon separated), the build
 * tree next to the binary (<exe>/workloads), <exe>/../lib/mmbench, and the
 * configured install dir.  Returns a NULL-terminated static array.
 */
const char *const *plugin_search_path(void);
/* Names of every loadable plugin in the search path, sorted, deduplicated. */
int plugin_list(char ***names, size_t *n);
/* A valid plugin name: [a-z0-9][a-z0-9_-]* (used before building paths). */
int plugin_name_valid(const char *name);

/*
 * Check a descriptor as plugin_load_file() does after dlopen (ABI, sizes,
 * name == fname, hooks, params, metrics), filling p->w/params/metrics.
 * For tests/fuzz/fuzz_plugin.c; 0 or -1 after printing why.
 */
int plugin_check_descriptor(struct plugin *p, const struct mmb_workload *d, const char *fname);

#endif
