/* What config.c and config-env.c share: the parser's state, and the helpers of config-node.c. */
#ifndef MMB_CONFIG_INTERNAL_H
#define MMB_CONFIG_INTERNAL_H

#include "config.h"
#include "units.h"
#include "util.h"

#include <stdbool.h>
#include <yaml.h>

struct cfg_parse {
	struct experiment *e;
	yaml_document_t *doc;
	struct unit_ctx units;
	const char *origin;	/* "--set K=V": errors name it, not a file position */
};

typedef int (*cfg_pair_fn)(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		       void *data);

/* messages: "FILE:LINE:COL: why" (or the --set text), the valid choices named */
struct cfg_pos cfg_pos_of(struct cfg_parse *ps, yaml_node_t *n);
int cfg_perr(struct cfg_parse *ps, yaml_node_t *n, const char *fmt, ...) MMB_PRINTF_FMT(3, 4);
void cfg_join_choices(struct strbuf *sb, const char *const *list);
int cfg_perr_choices(struct cfg_parse *ps, yaml_node_t *n, const char *what,
			const char *got, const char *const *list, const char *listname);
const char *cfg_node_kind(yaml_node_t *n);
const char *cfg_scalar(yaml_node_t *n);
bool cfg_is_null(yaml_node_t *n);
int cfg_want_scalar(struct cfg_parse *ps, yaml_node_t *n, const char *key, const char *what);
int cfg_want_mapping(struct cfg_parse *ps, yaml_node_t *n, const char *key,
			const char *const *keys);
int cfg_in_list(const char *s, const char *const *list);
int cfg_for_each_pair(struct cfg_parse *ps, yaml_node_t *map, const char *const *keys,
			 const char *where, cfg_pair_fn fn, void *data);
int cfg_get_string(struct cfg_parse *ps, yaml_node_t *n, const char *key, char **out);
int cfg_get_count(struct cfg_parse *ps, yaml_node_t *n, const char *key, int min, int *out);
int cfg_get_timeout(struct cfg_parse *ps, yaml_node_t *n, const char *key, int64_t *out);
int cfg_get_choice(struct cfg_parse *ps, yaml_node_t *n, const char *key,
		      const char *const *list, char **out);
/* the environment: mapping (v, under key) */
int cfg_environment(struct cfg_parse *ps, yaml_node_t *v, const char *key);
/* one key of it */
int cfg_env_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		 void *data);

#endif
