/*
 * The environment: block of an experiment (THP, mTHP, governor, CPUs,
 * swap) and `run --set K=V`, which reads one such setting as YAML.
 */
#include "config-internal.h"
#include "counters.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const env_keys[] = {
	"thp", "thp_defrag", "mthp", "governor", "pin_cpu", "drop_caches", "swap", NULL
};
static const char *const swap_keys[] = { "zram", "comp", NULL };
static const char *const thp_values[] = { "always", "madvise", "never", NULL };
static const char *const defrag_values[] = {
	"always", "defer", "defer+madvise", "madvise", "never", NULL
};
static const char *const mthp_values[] = { "always", "inherit", "madvise", "never", NULL };

/* ---- environment ------------------------------------------------------ */

/*
 * mTHP size keys: "16K", "16kB", "hugepages-16kB", "2M", "2048K".  Returns
 * the size in kB, or 0 with a reason.
 */
static unsigned int mthp_size_kb(const char *s, const char **why)
{
	const char *p = s;
	unsigned long long v = 0;
	unsigned long long kb;

	if (starts_with(p, "hugepages-"))
		p += strlen("hugepages-");
	if (!isdigit((unsigned char)*p)) {
		*why = "expected a size like 16K, 64kB, 2M or hugepages-16kB";
		return 0;
	}
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > (1ULL << 40)) {
			*why = "size too large";
			return 0;
		}
	}
	if (!strcasecmp(p, "k") || !strcasecmp(p, "kb") || !strcasecmp(p, "kib")) {
		kb = v;
	} else if (!strcasecmp(p, "m") || !strcasecmp(p, "mb") || !strcasecmp(p, "mib")) {
		kb = v << 10;
	} else if (!strcasecmp(p, "g") || !strcasecmp(p, "gb") || !strcasecmp(p, "gib")) {
		kb = v << 20;
	} else {
		*why = *p ? "unknown unit; expected a size like 16K, 64kB, 2M or hugepages-16kB"
			  : "missing unit; expected a size like 16K, 64kB, 2M or hugepages-16kB";
		return 0;
	}
	if (kb < 8 || (kb & (kb - 1)) || kb > UINT_MAX) {
		*why = "an mTHP size must be a power of two >= 8K (16K, 32K, 64K, ... 2M)";
		return 0;
	}
	return (unsigned int)kb;
}

static int mthp_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		     void *data)
{
	struct cfg_env *env = &ps->e->env;
	const char *why = NULL;
	unsigned int kb = mthp_size_kb(key, &why);
	char *val = NULL;
	char label[64];

	if (!kb)
		return cfg_perr(ps, k, "bad mTHP size '%s': %s", key, why);
	for (size_t i = 0; i < env->nmthp; i++)
		if (env->mthp[i].kb == kb)
			return cfg_perr(ps, k, "duplicate mTHP size '%s' (same as line %d: %ukB)", key,
				    env->mthp[i].pos.line, kb);
	snprintf(label, sizeof(label), "mthp %s", key);
	if (cfg_get_choice(ps, v, label, mthp_values, &val))
		return -1;
	env->mthp = xrealloc(env->mthp, (env->nmthp + 1) * sizeof(*env->mthp));
	env->mthp[env->nmthp].kb = kb;
	env->mthp[env->nmthp].value = val;
	env->mthp[env->nmthp].pos = cfg_pos_of(ps, k);
	env->nmthp++;
	return 0;
}

static int swap_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		     void *data)
{
	struct cfg_env *env = &ps->e->env;
	char err[256];

	if (!strcmp(key, "zram")) {
		int64_t bytes;

		if (cfg_want_scalar(ps, v, "zram", "a size like 1G or 10%mem"))
			return -1;
		if (units_parse_size(cfg_scalar(v), &ps->units, &bytes, err, sizeof(err)))
			return cfg_perr(ps, v, "'zram': %s", err);
		if (bytes <= 0)
			return cfg_perr(ps, v, "'zram' must be greater than 0, got '%s'", cfg_scalar(v));
		env->zram_bytes = bytes;
		return 0;
	}
	/* comp: the kernel's list varies (lzo, lz4, zstd, ...); checked at run time. */
	if (cfg_get_string(ps, v, "comp", &env->zram_comp))
		return -1;
	if (strpbrk(env->zram_comp, " \t\n/"))
		return cfg_perr(ps, v, "'comp' expects a compressor name like lz4 or zstd, got '%s'",
			    env->zram_comp);
	return 0;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A CPU number; values past INT_MAX saturate (and fail the range check). */
static const char *cpu_number(const char *p, int *out)
{
	long long v = 0;

	while (isdigit((unsigned char)*p)) {
		if (v <= INT_MAX)
			v = v * 10 + (*p - '0');
		p++;
	}
	*out = v > INT_MAX ? INT_MAX : (int)v;
	return p;
}

/*
 * pin_cpu: "0-3,8", "1" or "none".  Stored as a CPU set plus the list in
 * canonical form (ranges merged), which run_env records.
 */
static int get_cpu_list(struct cfg_parse *ps, yaml_node_t *v, struct cfg_env *env)
{
	const char *s, *p;
	int last = ps->units.ncpus - 1, run = -1;
	struct strbuf sb = STRBUF_INIT;
	cpu_set_t set;

	if (cfg_want_scalar(ps, v, "pin_cpu", "a CPU list like 0-3,8 or none"))
		return -1;
	s = cfg_scalar(v);
	if (!strcmp(s, "none")) {
		free(env->pin_cpu);
		env->pin_cpu = NULL;
		CPU_ZERO(&env->pin_set);
		return 0;
	}
	if (last >= CPU_SETSIZE)
		last = CPU_SETSIZE - 1;
	CPU_ZERO(&set);
	for (p = skip_blanks(s);; p = skip_blanks(p + 1)) {
		int a, b;

		if (!isdigit((unsigned char)*p))
			goto syntax;
		p = skip_blanks(cpu_number(p, &a));
		b = a;
		if (*p == '-') {
			p = skip_blanks(p + 1);
			if (!isdigit((unsigned char)*p))
				goto syntax;
			p = skip_blanks(cpu_number(p, &b));
		}
		if (b < a)
			return cfg_perr(ps, v, "'pin_cpu': range %d-%d runs backwards; write %d-%d", a,
				    b, b, a);
		if (b > last)
			return cfg_perr(ps, v, "'pin_cpu': CPU %d is not on this machine (CPUs 0..%d)",
				    a > last ? a : b, last);
		for (int c = a; c <= b; c++)
			CPU_SET(c, &set);
		if (!*p)
			break;
		if (*p != ',')
			goto syntax;
	}
	for (int c = 0; c <= last + 1; c++) {
		bool in = c <= last && CPU_ISSET(c, &set);

		if (in && run < 0)
			run = c;
		if (!in && run >= 0) {
			strbuf_addf(&sb, "%s%d", sb.len ? "," : "", run);
			if (c - 1 > run)
				strbuf_addf(&sb, "-%d", c - 1);
			run = -1;
		}
	}
	free(env->pin_cpu);
	env->pin_cpu = strbuf_detach(&sb);
	env->pin_set = set;
	return 0;
syntax:
	return cfg_perr(ps, v, "'pin_cpu' expects a CPU list like 0-3,8 (CPUs 0..%d) or none, got '%s'",
		    last, s);
}

int cfg_env_pair(struct cfg_parse *ps, const char *key, yaml_node_t *k, yaml_node_t *v,
		    void *data)
{
	struct cfg_env *env = &ps->e->env;
	char err[256];

	if (!strcmp(key, "thp"))
		return cfg_get_choice(ps, v, key, thp_values, &env->thp_enabled);
	if (!strcmp(key, "thp_defrag"))
		return cfg_get_choice(ps, v, key, defrag_values, &env->thp_defrag);
	if (!strcmp(key, "mthp")) {
		if (cfg_want_mapping(ps, v, key, NULL))
			return -1;
		return cfg_for_each_pair(ps, v, NULL, NULL, mthp_pair, NULL);
	}
	if (!strcmp(key, "governor")) {
		if (cfg_get_string(ps, v, key, &env->governor))
			return -1;
		if (strpbrk(env->governor, " \t\n/"))
			return cfg_perr(ps, v, "'governor' expects a cpufreq governor name like "
				    "performance or schedutil, got '%s'", env->governor);
		return 0;
	}
	if (!strcmp(key, "pin_cpu"))
		return get_cpu_list(ps, v, env);
	if (!strcmp(key, "drop_caches")) {
		int64_t b;

		if (cfg_want_scalar(ps, v, key, "true or false"))
			return -1;
		if (units_parse_bool(cfg_scalar(v), &b, err, sizeof(err)))
			return cfg_perr(ps, v, "'drop_caches': %s", err);
		env->drop_caches = b;
		return 0;
	}
	/* swap */
	if (cfg_want_mapping(ps, v, key, swap_keys))
		return -1;
	if (cfg_for_each_pair(ps, v, swap_keys, "swap", swap_pair, NULL))
		return -1;
	if (!env->zram_bytes)
		return cfg_perr(ps, v, "'swap' needs %s", ps->origin ? "a size: add --set swap.zram=SIZE"
				   " (e.g. 1G)" : "'zram: SIZE' (e.g. zram: 1G)");
	return 0;
}

/* ---- run --set -------------------------------------------------------- */

static const char *const set_keys[] = {
	"thp", "thp_defrag", "mthp.SIZE", "governor", "pin_cpu", "drop_caches", "swap.zram",
	"swap.comp", NULL
};

/*
 * The value is a plain scalar node of its own (never read as YAML, so
 * "{...}" or "#" stay text); "mthp.64K" and "swap.zram" wrap it in a
 * one-pair mapping.  env_pair then checks it as the file's own value.
 */
int experiment_set_env(struct experiment *e, const char *setting)
{
	const char *eq = strchr(setting, '='), *dot;
	struct strbuf origin = STRBUF_INIT, sb = STRBUF_INIT;
	yaml_document_t doc;
	struct cfg_parse ps = { .e = e, .doc = &doc };
	char *key;
	int node, ret;

	strbuf_addf(&origin, "--set %s", setting);
	ps.origin = origin.buf;
	if (strpbrk(setting, "\n\r")) {
		strbuf_release(&origin);
		return error("--set: KEY=VALUE must be one line");
	}
	if (!eq || eq == setting) {
		ret = error("%s: expected KEY=VALUE, e.g. --set thp=never", origin.buf);
		strbuf_release(&origin);
		return ret;
	}
	key = xstrndup(setting, (size_t)(eq - setting));
	dot = strchr(key, '.');
	if ((dot && strncmp(key, "mthp.", 5) && strncmp(key, "swap.", 5)) ||
	    (!dot && cfg_in_list(key, env_keys) < 0) || (dot && !dot[1])) {
		cfg_join_choices(&sb, set_keys);
		ret = error("%s: unknown environment key '%s'; valid keys: %s", origin.buf, key,
			    sb.buf);
		goto out_key;
	}
	if (!dot && (!strcmp(key, "mthp") || !strcmp(key, "swap"))) {
		ret = error("%s: '%s' is a mapping; set one of its keys, e.g. --set %s", origin.buf,
			    key, strcmp(key, "mthp") ? "swap.zram=1G" : "mthp.64K=always");
		goto out_key;
	}
	unit_ctx_host(&ps.units);
	if (!yaml_document_initialize(&doc, NULL, NULL, NULL, 1, 1))
		die("out of memory initialising a YAML document");
	node = yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)(eq + 1), (int)strlen(eq + 1),
					YAML_PLAIN_SCALAR_STYLE);
	if (dot) {
		int map = yaml_document_add_mapping(&doc, NULL, YAML_BLOCK_MAPPING_STYLE);
		int k = yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)(dot + 1),
						 (int)strlen(dot + 1), YAML_PLAIN_SCALAR_STYLE);
		const char *why;
		unsigned int kb;

		if (!node || !map || !k || !yaml_document_append_mapping_pair(&doc, map, k, node))
			die("out of memory building a YAML document");
		node = map;
		/* the override replaces the file's value for that size */
		kb = strncmp(key, "mthp.", 5) ? 0 : mthp_size_kb(dot + 1, &why);
		for (size_t i = 0; kb && i < e->env.nmthp; i++) {
			if (e->env.mthp[i].kb != kb)
				continue;
			free(e->env.mthp[i].value);
			memmove(&e->env.mthp[i], &e->env.mthp[i + 1],
				(e->env.nmthp - i - 1) * sizeof(*e->env.mthp));
			e->env.nmthp--;
			break;
		}
		key[dot - key] = '\0';
	}
	if (!node)
		die("out of memory building a YAML document");
	ret = cfg_env_pair(&ps, key, NULL, yaml_document_get_node(&doc, node), NULL);
	yaml_document_delete(&doc);
	if (!ret) {
		if (!e->text)
			e->text = xstrdup("");
		if (*e->text && e->text[strlen(e->text) - 1] != '\n')
			strbuf_addstr(&sb, "\n");
		strbuf_addf(&sb, "# %s\n", origin.buf);
		{
			size_t len = strlen(e->text);

			e->text = xrealloc(e->text, len + sb.len + 1);
			memcpy(e->text + len, sb.buf, sb.len + 1);
		}
	}
out_key:
	strbuf_release(&sb);
	free(key);
	strbuf_release(&origin);
	return ret;
}

int cfg_environment(struct cfg_parse *ps, yaml_node_t *v, const char *key)
{
	if (cfg_want_mapping(ps, v, key, env_keys))
		return -1;
	return cfg_for_each_pair(ps, v, env_keys, "environment", cfg_env_pair, NULL);
}
