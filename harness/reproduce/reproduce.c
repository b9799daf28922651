/*
 * Report -> experiment mapping and the "reproduced" verdict.  See
 * reproduce.h for the table of mappings.
 */
#include "fmtnum.h"
#include "reproduce.h"
#include "db.h"
#include "plugin.h"
#include "units.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What a plugin implements comes from its descriptor, the one place that
 * knows: the choices of its "test" parameter and the metrics it declares.
 * Each is loaded once (a contained child reads the descriptor).
 */
static struct plugin_facts {
	const char *workload;
	struct plugin p;
	bool loaded, ok;
} facts[] = { { .workload = "will-it-scale" }, { .workload = "vm-scalability" },
	      { .workload = "stress-ng" } };

static const struct plugin *facts_of(const char *workload)
{
	for (size_t i = 0; i < ARRAY_SIZE(facts); i++) {
		char *path;

		if (strcmp(facts[i].workload, workload))
			continue;
		if (!facts[i].loaded) {
			facts[i].loaded = true;
			plugin_init(&facts[i].p);
			path = plugin_find(workload);
			facts[i].ok = path && plugin_load_file(&facts[i].p, path) == 0;
			free(path);
		}
		return facts[i].ok ? &facts[i].p : NULL;
	}
	return NULL;
}

/* The plugin's "test" choices ("a|b|c"), or NULL when it is not there. */
static const char *test_choices(const char *workload)
{
	const struct plugin *p = facts_of(workload);
	int k = p ? plugin_param_index(p, "test") : -1;

	return k >= 0 ? p->params[k]->choices : NULL;
}

static bool plugin_implements(const char *workload, const char *test)
{
	const char *c = test_choices(workload);
	size_t n = test ? strlen(test) : 0;

	for (const char *s = c; n && s && (s = strstr(s, test)); s++)
		if ((s == c || s[-1] == '|') && (s[n] == '|' || !s[n]))
			return true;
	return false;
}

static bool plugin_measures(const char *workload, const char *metric)
{
	const struct plugin *p = facts_of(workload);

	return p && plugin_metric_index(p, metric) >= 0;
}

const char *repro_supported_list(void)
{
	static char *list;
	const char *wis = test_choices("will-it-scale"), *vms = test_choices("vm-scalability");
	const char *sng = test_choices("stress-ng");
	size_t nvms = 0;

	for (const char *s = vms; s && *s; s++)
		nvms += *s == '|';
	free(list);
	list = xasprintf("aim9/brk_test, aim9/page_test, ebizzy, pft, will-it-scale/{%s}, "
			 "vm-scalability/{%zu cases: `mmbench list workloads -v` names each}, "
			 "stress-ng/{%s}", wis ? wis : "(plugin not found)",
			 vms ? nvms + 1 : 0, sng ? sng : "(plugin not found)");
	return list;
}

bool repro_host_has_cpufreq(void)
{
	return access("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", F_OK) == 0;
}

void repro_plan_init(struct repro_plan *p)
{
	memset(p, 0, sizeof(*p));
	experiment_init(&p->exp);
}

void repro_plan_release(struct repro_plan *p)
{
	free(p->testcase);
	free(p->test);
	free(p->workload);
	free(p->metric);
	free(p->lkp_metric);
	for (size_t i = 0; i < p->nparams; i++) {
		free(p->params[i].name);
		free(p->params[i].value);
		free(p->params[i].note);
	}
	free(p->params);
	free(p->governor);
	free(p->governor_skipped);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->name);
	free(p->yaml);
	experiment_release(&p->exp);
	memset(p, 0, sizeof(*p));
}

static void note(struct repro_plan *p, const char *fmt, ...) MMB_PRINTF_FMT(2, 3);
static void note(struct repro_plan *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof(*p->notes));
	p->notes[p->nnotes++] = strbuf_detach(&sb);
}

/* A report's text as one line: control characters become blanks (the YAML's rule). */
static char *one_line(const char *s)
{
	char *r = xstrdup(s);

	for (char *c = r; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
	return r;
}

static void add_param(struct repro_plan *p, const char *name, const char *value,
		      char *note_owned)
{
	p->params = xrealloc(p->params, (p->nparams + 1) * sizeof(*p->params));
	p->params[p->nparams].name = xstrdup(name);
	p->params[p->nparams].value = one_line(value);
	p->params[p->nparams].note = note_owned;
	p->nparams++;
}

static const char *param_or(const struct lkp_report *r, const char *key, const char *def)
{
	const char *v = lkp_report_param(r, key);

	return v ? v : def;
}

/*
 * An lkp CPU-relative count ("200%", "50%", "ncpu"): the report's lkp_name
 * (dflt when absent) as the param name, with a note of what it is here.
 */
static int add_cpu_param(struct repro_plan *p, const struct lkp_report *r,
			 const struct repro_opts *o, const char *name, const char *lkp_name,
			 const char *dflt, char *err, size_t errlen)
{
	const char *value = param_or(r, lkp_name, dflt);
	int ncpus = o->ncpus;
	struct unit_ctx u = { .ncpus = ncpus, .mem_total = 0, .page_size = 4096 };
	char uerr[200];
	int64_t v;

	if (units_parse_int(value, &u, &v, uerr, sizeof(uerr)) < 0) {
		snprintf(err, errlen, "report parameter %s: %s", lkp_name, uerr);
		return -1;
	}
	if (v < 1) {
		snprintf(err, errlen, "report parameter %s: '%s' is %lld tasks on %d CPUs here",
			 lkp_name, value, (long long)v, ncpus);
		return -1;
	}
	add_param(p, name, value,
		  strchr(value, '%') ? xasprintf("%s of %d CPUs here = %lld", value, ncpus,
						 (long long)v)
				     : NULL);
	return 0;
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* Params of the report this mapping consumed; the rest are listed as ignored. */
static void note_ignored(struct repro_plan *p, const struct lkp_report *r,
			 const char *const *used)
{
	for (size_t i = 0; i < r->nparams; i++) {
		const char *k = r->params[i].key;

		if (!strcmp(k, "cpufreq_governor") || in_list(k, used))
			continue;
		note(p, "report parameter %s: %s has no mmbench equivalent; ignored", k,
		     r->params[i].value);
	}
}

/* YAML scalar: plain when safe, else double-quoted. */
static void yaml_scalar(struct strbuf *sb, const char *s)
{
	bool plain = *s && !isspace((unsigned char)*s);

	for (const char *c = s; *c && plain; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.%/+-", *c))
			plain = false;
	if (plain && strchr("-%", s[0]) && !isdigit((unsigned char)s[1]))
		plain = false;
	if (plain) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (const char *c = s; *c; c++) {
		if (*c == '"' || *c == '\\')
			strbuf_addch(sb, '\\');
		if ((unsigned char)*c < 0x20)
			strbuf_addch(sb, ' ');
		else
			strbuf_addch(sb, *c);
	}
	strbuf_addch(sb, '"');
}

static char *description(const struct repro_plan *p, const struct lkp_report *r)
{
	const struct lkp_table *t = p->table;
	char *d = xasprintf("0-day: %s %s%s%s, %.10s vs %.10s", r->headline_metric,
			    FMT_FP(r->headline_change, 1), r->headline_absolute ? "" : "%",
			    r->direction < 0 ? " regression" : r->direction > 0 ? " improvement" : "",
			    t->commits[0].long_sha, t->commits[1].long_sha);
	char *line = one_line(d);

	free(d);
	return line;
}

static int line_no(const struct strbuf *sb)
{
	int n = 1;

	for (size_t i = 0; i < sb->len; i++)
		n += sb->buf[i] == '\n';
	return n;
}

/*
 * The experiment value, as the YAML record says it (tests/unit checks the
 * two agree); positions point into the record, for plan errors.
 */
static void build_experiment(struct repro_plan *p, const struct lkp_report *r,
			     const int *param_line, int workload_line)
{
	struct experiment *e = &p->exp;
	struct cfg_workload *w;

	experiment_release(e);
	e->path = xasprintf("<generated by mmbench reproduce: %s.yaml>", p->name);
	e->text = xstrdup(p->yaml);
	e->name = xstrdup(p->name);
	e->description = description(p, r);
	e->iterations = p->iterations;
	e->warmup = 0;
	e->timeout_ns = p->timeout_ns;
	if (p->governor)
		e->env.governor = xstrdup(p->governor);
	e->workloads = xcalloc(1, sizeof(*e->workloads));
	e->nworkloads = 1;
	w = &e->workloads[0];
	w->name = xstrdup(p->workload);
	w->pos = (struct cfg_pos){ e->path, workload_line, 11 };
	w->iterations = p->workload_iterations ? p->workload_iterations : -1;
	w->warmup = -1;
	w->params = xcalloc(p->nparams ? p->nparams : 1, sizeof(*w->params));
	w->nparams = p->nparams;
	for (size_t i = 0; i < p->nparams; i++) {
		struct cfg_param *cp = &w->params[i];

		cp->name = xstrdup(p->params[i].name);
		cp->pos = (struct cfg_pos){ e->path, param_line[i], 7 };
		cp->values = xcalloc(1, sizeof(*cp->values));
		cp->nvalues = 1;
		cp->values[0].text = xstrdup(p->params[i].value);
		cp->values[0].pos = (struct cfg_pos){ e->path, param_line[i],
						      9 + (int)strlen(p->params[i].name) };
	}
}

static void build_yaml(struct repro_plan *p, const struct lkp_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	int *param_line = xcalloc(p->nparams ? p->nparams : 1, sizeof(*param_line)), wl_line;
	char dur[32];

	strbuf_addstr(&sb, "# generated by 'mmbench reproduce' from a 0-day report\n");
	strbuf_addstr(&sb, "experiment: ");
	yaml_scalar(&sb, p->name);
	strbuf_addstr(&sb, "\ndescription: ");
	{
		char *d = description(p, r);

		yaml_scalar(&sb, d);
		free(d);
	}
	if (p->rounds)
		strbuf_addf(&sb, "\niterations: %d             # x %d boots per kernel = %d runs\n",
			    p->iterations, p->rounds, p->iterations * p->rounds);
	else
		strbuf_addf(&sb, "\niterations: %d\n", p->iterations);
	strbuf_addstr(&sb, "warmup: 0                 # 0-day runs have no warm-up run\n");
	units_format_duration(p->timeout_ns, dur, sizeof(dur));
	strbuf_addf(&sb, "timeout: %s\n", dur);
	if (p->governor) {
		strbuf_addstr(&sb, "environment:\n  governor: ");
		yaml_scalar(&sb, p->governor);
		strbuf_addch(&sb, '\n');
	} else if (p->governor_skipped) {
		strbuf_addstr(&sb, "# environment:\n#   governor: ");
		yaml_scalar(&sb, p->governor_skipped);
		strbuf_addstr(&sb, "    # skipped: no cpufreq where the runs happen\n");
	}
	strbuf_addstr(&sb, "workloads:\n  - name: ");
	wl_line = line_no(&sb);
	yaml_scalar(&sb, p->workload);
	strbuf_addch(&sb, '\n');
	if (p->workload_iterations)
		strbuf_addf(&sb, "    iterations: %d\n", p->workload_iterations);
	strbuf_addstr(&sb, "    params:\n");
	for (size_t i = 0; i < p->nparams; i++) {
		param_line[i] = line_no(&sb);
		strbuf_addf(&sb, "      %s: ", p->params[i].name);
		yaml_scalar(&sb, p->params[i].value);
		if (p->params[i].note)
			strbuf_addf(&sb, "    # %s", p->params[i].note);
		strbuf_addch(&sb, '\n');
	}
	p->yaml = strbuf_detach(&sb);
	build_experiment(p, r, param_line, wl_line);
	free(param_line);
}

static int64_t dur_or(const char *s, int64_t def)
{
	int64_t ns;
	char e[128];

	if (s && units_parse_duration(s, &ns, e, sizeof(e)) == 0)
		return ns;
	return def;
}

#define SEC 1000000000LL

/* "... with 192G memory" / "memory: 256G": the report's machine, 0 unknown. */
static uint64_t report_mem(const struct lkp_report *r, const struct lkp_table *t)
{
	const char *texts[] = { t ? t->model : NULL, r->test_machine };

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		const char *s = texts[i], *m;
		struct unit_ctx u = { .ncpus = 1, .mem_total = 0, .page_size = 4096 };
		char num[32], e[128];
		int64_t v;

		if (!s)
			continue;
		if ((m = strstr(s, "memory: "))) {
			m += strlen("memory: ");
		} else if ((m = strstr(s, " memory")) && m > s) {
			while (m > s && m[-1] != ' ')
				m--;
			if (m > s && !strcmp(m, " memory"))
				continue;
		} else {
			continue;
		}
		snprintf(num, sizeof(num), "%.*s", (int)strcspn(m, " \t\n,)"), m);
		if (units_parse_size(num, &u, &v, e, sizeof(e)) == 0 && v > 0)
			return (uint64_t)v;
	}
	return 0;
}

static char *fmt_size(uint64_t b)
{
	char buf[32];

	units_format_size_exact((int64_t)b, buf, sizeof(buf));
	return xstrdup(buf);
}

static const char *nodes_txt(int nodes)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), " x %d nodes", nodes);
	return buf;
}

/*
 * THP changes every anonymous case (2M pages: one fault where there were
 * 512).  lkp's kernels usually run "always"; say what the report's had, if
 * it says, and what the runs here will have.
 */
static void note_thp(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o)
{
	const char *theirs = lkp_report_param(r, "thp_enabled");

	note(p, "THP: the report's kernel %s%s; %s: %s", theirs ? "ran " : "",
	     theirs ? theirs : "does not say (lkp's kernels usually run always)",
	     o->where ? o->where : "this machine",
	     o->thp ? o->thp : "unknown (no transparent_hugepage in sysfs)");
}

/*
 * vm-scalability: lkp's sizes are for the report's machine; the same share
 * of memory here ("size 128G -> 16G: this machine has 24G").  One round is
 * unit_size (lkp's default: half of memory), at most 3/8 of memory for the
 * cow cases (their copies need as much again); size is rounds of it, at
 * most 4096, and runtime ends the iteration as it ends lkp's.
 */
static int map_vms(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		   const char *test, int64_t *work_ns, char *err, size_t errlen)
{
	uint64_t theirs = report_mem(r, p->table), here = o->mem_bytes, unit, size, cap;
	int nodes = lkp_report_nodes(r, p->table);
	const char *lsize = lkp_report_param(r, "size"), *lunit = lkp_report_param(r, "unit_size");
	const char *rt = param_or(r, "runtime", "300s");
	struct unit_ctx u = { .ncpus = o->ncpus, .mem_total = theirs, .page_size = 4096 };
	char e[160], hs[32], ts[32];
	int64_t v;

	if (!test || !plugin_implements("vm-scalability", test))
		return -2;
	p->workload = xstrdup("vm-scalability");
	p->metric = xstrdup("throughput");
	add_param(p, "test", test, NULL);
	if (!here || !theirs) {
		add_param(p, "size", "50%mem", xstrdup("the report does not say its machine's memory: half of it here, one round"));
	} else {
		units_format_size((int64_t)here, hs, sizeof(hs));
		units_format_size_exact((int64_t)theirs, ts, sizeof(ts));
		unit = theirs / 2;
		if (lunit && units_parse_size(lunit, &u, &v, e, sizeof(e)) == 0 && v > 0)
			unit = (uint64_t)v;
		size = unit;
		if (lsize && *lsize && units_parse_size(lsize, &u, &v, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "report parameter size: %s", e);
			return -1;
		}
		/* lkp's run script: size = size * nr_node, repeat = size / unit_size */
		if (lsize && *lsize)
			size = (uint64_t)v * (uint64_t)(nodes ? nodes : 1);
		/* the same share of memory here, in whole MiB */
		unit = (uint64_t)((double)unit * (double)here / (double)theirs) >> 20 << 20;
		cap = (strstr(test, "-cow-") ? here / 8 * 3 : here / 2) >> 20 << 20;
		if (unit > cap)
			unit = cap;
		if (unit < (1u << 20))
			unit = 1u << 20;
		size = (uint64_t)((double)size * (double)here / (double)theirs) >> 20 << 20;
		if (size < unit)
			size = unit;
		if (size / unit > 4096)
			size = unit * 4096;
		{
			char *sz = fmt_size(size), *un = fmt_size(unit);

			add_param(p, "size", sz, xasprintf("size %s%s -> %s: the report's machine has %s, %s has %s",
							   lsize && *lsize ? lsize : "(none: one round)",
							   lsize && *lsize && nodes > 1 ? nodes_txt(nodes) : "",
							   sz, ts, o->where ? o->where : "this machine", hs));
			add_param(p, "unit_size", un,
				  xasprintf("unit_size %s -> %s: %llu round%s of it, until runtime",
					    lunit ? lunit : "(lkp: mem/2)", un,
					    (unsigned long long)(size / unit), size / unit == 1 ? "" : "s"));
			free(sz);
			free(un);
		}
	}
	if (add_cpu_param(p, r, o, "nr_task", "nr_task", "100%", err, errlen) < 0)
		return -1;
	add_param(p, "runtime", rt, NULL);
	*work_ns = dur_or(rt, 300 * SEC);
	if (strstr(test, "hugetlb"))
		note(p, "%s reserves hugetlb pages for each iteration (needs root); without them it is skipped", test);
	if (lsize && *lsize && !nodes)
		note(p, "the report does not say its machine's NUMA nodes: size is taken for one (lkp multiplies it by nr_node)");
	note_thp(p, r, o);
	return 0;
}

/* stress-ng: one mm stressor with lkp's options; the KPI is <stressor>.<metric>. */
static int map_stress_ng(struct repro_plan *p, const struct lkp_report *r,
			 const struct repro_opts *o, const char *test, int64_t *work_ns,
			 char *err, size_t errlen)
{
	const char *tt = param_or(r, "testtime", "60s"), *method = lkp_report_param(r, "method");
	const char *m = strncmp(r->headline_metric, "stress-ng.", 10) ? "" : r->headline_metric + 10;
	size_t tl = test ? strlen(test) : 0;

	if (!test || !plugin_implements("stress-ng", test))
		return -2;
	p->workload = xstrdup("stress-ng");
	if (!strncmp(m, test, tl) && m[tl] == '.' &&
	    plugin_measures("stress-ng", m))
		p->metric = xstrdup(m);
	else
		p->metric = xasprintf("%s.ops_per_sec", test);
	add_param(p, "test", test, NULL);
	if (add_cpu_param(p, r, o, "nr_threads", "nr_threads", "100%", err, errlen) < 0)
		return -1;
	add_param(p, "testtime", tt, NULL);
	if (method)
		add_param(p, "method", method, NULL);
	*work_ns = dur_or(tt, 60 * SEC);
	note(p, "bogo ops depend on the stress-ng version: the report's is lkp's build, this machine's is recorded with the run (run_env tool.stress-ng)");
	return 0;
}

/* The KPI the verdict is about: the headline when mmbench measures it. */
static void match_kpi(struct repro_plan *p, const struct lkp_report *r, const char *tc)
{
	size_t n = strlen(tc);
	const char *m = strlen(r->headline_metric) > n ? r->headline_metric + n + 1 : "";
	bool same;

	/* vm-scalability: the headline by name, where the plugin measures it */
	if (!strcmp(tc, "vm-scalability") && plugin_measures("vm-scalability", m)) {
		free(p->metric);
		p->metric = xstrdup(m);
	}
	same = !strncmp(r->headline_metric, tc, n) && r->headline_metric[n] == '.' &&
	       (!strcmp(m, p->metric) ||
		(!strcmp(tc, "pft") && !strcmp(m, "faults_per_sec_per_cpu")));
	if (!same) {
		note(p, "the headline %s is not a metric mmbench's %s measures; comparing %s.%s instead",
		     r->headline_metric, p->workload, tc, p->metric);
		free(p->lkp_metric);
		p->lkp_metric = !strcmp(tc, "pft") ? xstrdup("pft.faults_per_sec_per_cpu")
						  : xasprintf("%s.%s", tc, p->metric);
	}
	p->row = lkp_table_row(p->table, p->lkp_metric);
	if (lkp_metric_better(p->lkp_metric) < 0)
		p->better = -1;
}

static int map_aim9(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		    const char *test, int64_t *work_ns, char *err, size_t errlen)
{
	const char *tt = param_or(r, "testtime", "300s");

	(void)o, (void)err, (void)errlen;
	if (!test || (strcmp(test, "brk_test") && strcmp(test, "page_test")))
		return -2;
	p->workload = xstrdup("aim9");
	p->metric = xasprintf("%s.ops_per_sec", test);
	add_param(p, "test", test, NULL);
	add_param(p, "testtime", tt, NULL);
	*work_ns = dur_or(tt, 300 * SEC);
	return 0;
}

static int map_ebizzy(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		      const char *test, int64_t *work_ns, char *err, size_t errlen)
{
	const char *it = param_or(r, "iterations", "100x");
	const char *d = param_or(r, "duration", "10s");
	struct unit_ctx u = { .ncpus = o->ncpus, .mem_total = 0, .page_size = 4096 };
	int64_t n = 0;
	char uerr[160];

	(void)test;
	p->workload = xstrdup("ebizzy");
	p->metric = xstrdup("throughput");
	if (add_cpu_param(p, r, o, "threads", "nr_threads", "200%", err, errlen) < 0)
		return -1;
	add_param(p, "duration", d, NULL);
	add_param(p, "rng", "compat", xstrdup("0-day's ebizzy 0.3 never advances its RNG"));
	if (units_parse_int(it, &u, &n, uerr, sizeof(uerr)) < 0 || n < 1) {
		snprintf(err, errlen, "report parameter iterations: %s", uerr);
		return -1;
	}
	p->workload_iterations = (int)n;
	note(p, "iterations: %s -> %lld ebizzy runs per run, as lkp's job does", it,
	     (long long)n);
	*work_ns = n * dur_or(d, 10 * SEC);
	return 0;
}

static int map_pft(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		   const char *test, int64_t *work_ns, char *err, size_t errlen)
{
	(void)test;
	p->workload = xstrdup("pft");
	p->metric = xstrdup("faults/cpu");
	add_param(p, "size", "20%mem", xstrdup("lkp: pft -m <mem/5>"));
	if (add_cpu_param(p, r, o, "clients", "nr_task", "100%", err, errlen) < 0)
		return -1;
	add_param(p, "mode", "processes", xstrdup("lkp: pft -n (processes)"));
	if (lkp_report_param(r, "runtime"))
		note(p, "runtime: %s: lkp repeats pft for that long; here one pft pass per iteration",
		     lkp_report_param(r, "runtime"));
	*work_ns = 120 * SEC;
	p->iteration_bound = true;	/* no runtime parameter: the timeout's basis, not a time */
	return 0;
}

static int map_wis(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		   const char *test, int64_t *work_ns, char *err, size_t errlen)
{
	const char *mode = param_or(r, "mode", "process");

	if (!test || !plugin_implements("will-it-scale", test))
		return -2;
	if (strcmp(mode, "process") && strcmp(mode, "thread")) {
		snprintf(err, errlen, "not supported: will-it-scale/%s mode '%s' (mmbench runs mode process or thread)",
			 test, mode);
		return -1;
	}
	p->workload = xstrdup("will-it-scale");
	p->metric = xasprintf("per_%s_ops", mode);
	add_param(p, "test", test, NULL);
	add_param(p, "mode", mode, NULL);
	if (add_cpu_param(p, r, o, "nr_task", "nr_task", "100%", err, errlen) < 0)
		return -1;
	*work_ns = 60 * SEC;
	p->iteration_bound = true;
	return 0;
}

/*
 * Every 0-day testcase reproduce maps to a workload, one line each: the
 * mapping returns 0, -1 after the message in err, or -2 for "not
 * supported" (a test of the testcase mmbench does not run); used names the
 * report's params it consumes (the rest are noted as ignored).
 */
static const struct {
	const char *testcase;
	int (*map)(struct repro_plan *p, const struct lkp_report *r, const struct repro_opts *o,
		   const char *test, int64_t *work_ns, char *err, size_t errlen);
	const char *const *used;
} testcases[] = {
	{ "aim9", map_aim9, (const char *const[]){ "test", "testtime", NULL } },
	{ "ebizzy", map_ebizzy, (const char *const[]){ "nr_threads", "duration", "iterations", NULL } },
	{ "pft", map_pft, (const char *const[]){ "nr_task", "runtime", NULL } },
	{ "will-it-scale", map_wis, (const char *const[]){ "test", "mode", "nr_task", NULL } },
	{ "vm-scalability", map_vms, (const char *const[]){ "test", "size", "nr_task", "unit_size", "runtime", NULL } },
	{ "stress-ng", map_stress_ng, (const char *const[]){ "test", "nr_threads", "testtime", "method", NULL } },
};

/* The governor the report used, when this machine (or guest) can set one. */
static int map_governor(struct repro_plan *p, const struct lkp_report *r,
			const struct repro_opts *o, char *err, size_t errlen)
{
	const char *gov = lkp_report_param(r, "cpufreq_governor");

	/* the experiment file's own rule for a governor (config.c) */
	if (gov && o->has_cpufreq && strpbrk(gov, " \t\n/")) {
		snprintf(err, errlen, "report parameter cpufreq_governor: '%s' is not a governor name",
			 gov);
		return -1;
	}
	if (!gov)
		return 0;
	if (o->has_cpufreq) {
		p->governor = xstrdup(gov);
	} else {
		const char *w = o->where ? o->where : "this machine";

		p->governor_skipped = xstrdup(gov);
		note(p, "governor: the report used cpufreq_governor %s; %s has no cpufreq%s, skipped",
		     gov, w, strcmp(w, "this machine") ? "" : " (a VM?)");
	}
	return 0;
}

int repro_plan_build(const struct lkp_report *r, const struct repro_opts *o,
		     struct repro_plan *p, char *err, size_t errlen)
{
	const char *tc = r->testcase;
	const char *test = lkp_report_param(r, "test");
	int64_t work_ns = 0;
	int rc = -2;

	repro_plan_init(p);
	p->table = lkp_report_main_table(r);
	p->testcase = xstrdup(tc);
	p->test = xstrdup(test ? test : "");
	p->runs = o->runs;
	p->rounds = o->rounds > 0 ? (o->rounds < o->runs ? o->rounds : o->runs) : 0;
	p->iterations = p->rounds ? (o->runs + p->rounds - 1) / p->rounds : o->runs;
	p->lkp_metric = xstrdup(r->headline_metric);
	p->better = 1;

	for (size_t i = 0; i < ARRAY_SIZE(testcases); i++)
		if (!strcmp(tc, testcases[i].testcase)) {
			rc = testcases[i].map(p, r, o, test, &work_ns, err, errlen);
			if (!rc)
				note_ignored(p, r, testcases[i].used);
		}
	if (rc == -2)
		snprintf(err, errlen, "not supported: %s/%s; mmbench can reproduce: %s", tc,
			 test ? test : "(no test parameter)", repro_supported_list());
	if (rc < 0)
		goto fail;
	match_kpi(p, r, tc);
	if (map_governor(p, r, o, err, errlen))
		goto fail;
	p->timeout_ns = work_ns + work_ns / 2 + 120 * SEC;
	p->iteration_ns = work_ns;
	{
		struct strbuf nm = STRBUF_INIT;

		strbuf_addf(&nm, "lkp-%s%s%s", tc, *p->test ? "-" : "", p->test);
		for (char *c = nm.buf; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
				*c = '_';
		p->name = strbuf_detach(&nm);
	}
	build_yaml(p, r);
	return 0;

fail:
	repro_plan_release(p);
	return -1;
}

void repro_plan_estimate(const struct repro_plan *p, size_t nkernels, double measured_s,
			 int nmeasured, struct strbuf *out)
{
	long long per_kernel = p->rounds ? (long long)p->rounds * p->iterations : p->iterations;
	long long iters = (long long)nkernels * per_kernel;
	int64_t it_ns = nmeasured > 0 ? (int64_t)(measured_s * 1e9) : p->iteration_ns;
	char per[32], total[32];

	units_format_duration(it_ns, per, sizeof(per));
	units_format_duration(it_ns * iters, total, sizeof(total));
	strbuf_addf(out, "time estimate: %zu kernel%s x ", nkernels, nkernels == 1 ? "" : "s");
	if (p->rounds)
		strbuf_addf(out, "%d boots x %d runs", p->rounds, p->iterations);
	else
		strbuf_addf(out, "%d runs", p->iterations);
	strbuf_addf(out, " x %s%s an iteration = %s%s of measuring", p->iteration_bound &&
		    nmeasured <= 0 ? "up to " : "", per, p->iteration_bound && nmeasured <= 0 ?
		    "up to " : "about ", total);
	if (p->rounds)
		strbuf_addstr(out, ", plus builds and boots");
	if (nmeasured > 0)
		strbuf_addf(out, " (the mean of %d iterations of earlier %s runs in the DB)\n",
			    nmeasured, p->name);
	else if (p->iteration_bound)
		strbuf_addf(out, " (an estimate: %s has no runtime parameter, so this is the limit an"
			    " iteration may take; earlier runs in the DB would tell)\n", p->testcase);
	else
		strbuf_addstr(out, " (an estimate from the report's runtime parameters)\n");
}

void repro_plan_caveats(struct repro_plan *p, const struct lkp_report *r,
			int ncpus_here, const char *accel)
{
	int theirs = p->table && p->table->nr_cpu ? p->table->nr_cpu : r->nr_cpu;

	bool scaled = false;

	for (size_t i = 0; i < p->nparams; i++)
		scaled |= p->params[i].note && strstr(p->params[i].note, " CPUs here");
	if (theirs > 0 && ncpus_here > 0 &&
	    (theirs >= 4 * ncpus_here || ncpus_here >= 4 * theirs)) {
		if (scaled)
			note(p, "caveat: the report's machine has %d CPUs, this one %d: per-CPU scaled parameters shrink accordingly and contention effects may not show",
			     theirs, ncpus_here);
		else
			note(p, "caveat: the report's machine has %d CPUs, this one %d; %s runs a single task, so per-core speed and microarchitecture matter more than the count",
			     theirs, ncpus_here, p->workload);
	}
	if (accel && !strcmp(accel, "tcg"))
		note(p, "caveat: kernels run under QEMU TCG (emulated CPU): syscall and fault costs are distorted, magnitudes differ from bare metal");
	if (accel && !strcmp(accel, RUN_ACCEL_VIRTUAL))
		note(p, "caveat: kernels run under QEMU TCG on the virtual clock (time counts guest instructions): a change in instructions shows at full size, cache, TLB and memory latency do not show at all");
}

int repro_verdict(double report_change, double rel, double rel_lo, double rel_hi,
		  double p, struct strbuf *out)
{
	bool sig = rel_lo > 0 || rel_hi < 0;
	bool same = (report_change < 0 && rel < 0) || (report_change > 0 && rel > 0);
	int ok;

	if (!isnan(p))
		sig = sig && p < 0.05;
	ok = sig && same;
	strbuf_addf(out, "report: %s%%, here: %s%% [CI %s, %s], p=%s", FMT_FP(report_change, 1),
		    FMT_FP(rel, 1), FMT_FP(rel_lo, 1), FMT_FP(rel_hi, 1), FMT_P(p, "n/a"));
	strbuf_addstr(out, ok ? ": reproduced" : ": not reproduced");
	if (ok && (rel_hi < report_change || rel_lo > report_change))
		strbuf_addf(out, " (magnitude differs: the report's %s%% is outside the CI)",
			    FMT_FP(report_change, 1));
	if (!ok && sig && !same)
		strbuf_addstr(out, " (significant change in the opposite direction)");
	else if (!ok)
		strbuf_addstr(out, " (no significant difference)");
	return ok;
}

bool repro_release_has_sha(const char *release, const char *sha)
{
	size_t sl = strlen(sha);

	for (const char *p = release; *p;) {
		size_t n = 0;

		/* "-g<sha>" of setlocalversion: skip the g */
		if (*p == 'g' && p > release && p[-1] == '-')
			p++;
		while (isxdigit((unsigned char)p[n]) && !isupper((unsigned char)p[n]))
			n++;
		if (n >= 7) {
			size_t m = sl < n ? sl : n;

			if (m >= 7 && !strncmp(p, sha, m))
				return true;
		}
		p += n ? n : 1;
	}
	return false;
}
