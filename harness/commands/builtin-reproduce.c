/*
 * mmbench reproduce [--tree DIR] [--fix PATCH]... [--dry-run] [--runs N]
 *                   [--name COMMIT] [--db FILE] REPORT
 *
 * Read a 0-day report mail, turn it into an experiment and either print it
 * (--dry-run), build and A/B the commits it names (--tree), or run it on the
 * running kernel when that is one of the commits.
 */
#include "ab.h"
#include "builtin.h"
#include "compare.h"
#include "config.h"
#include "db.h"
#include "kbuild.h"
#include "lkpreport.h"
#include "parse-options.h"
#include "plan.h"
#include "proc.h"
#include "qemu.h"
#include "query.h"
#include "read.h"
#include "repcompare.h"
#include "reproduce.h"
#include "session.h"
#include "stats.h"
#include "units.h"
#include "util.h"
#include "vm-options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MAX_FIXES 8

struct repro_args {
	const char *report;
	const char *tree;
	const char **fixes;	/* --fix PATCH, at most MAX_FIXES */
	size_t nfixes;
	bool dry_run;
	int runs;
	const char *name;
	const char *db;
	struct vm_opts vm;	/* --cpus --mem --accel ... for --tree */
	const char *base_config;	/* --base-config, kernel builds */
	const char **fragments;	/* --config FRAG, at most MAX_FIXES */
	size_t nfragments;
	int rounds;		/* --rounds: boots per kernel (default 3) */
	bool keep_disturbed;	/* --keep-disturbed: compare pools disturbed iterations */
	double wait_quiet_s;	/* --wait-quiet: each run first waits for a quiet machine */
};

static void repro_args_release(struct repro_args *a)
{
	free(a->fixes);
	free(a->fragments);
	a->fixes = a->fragments = NULL;
}

static int parse_args(int argc, char **argv, struct repro_args *a)
{
	const struct option opts[] = {
		OPT_STRING(0, "tree", &a->tree, "DIR", "kernel git tree holding the commits"),
		OPT_LIST(0, "fix", &a->fixes, &a->nfixes, "PATCH", "a fix to apply on the suspect"),
		OPT_BOOL('n', "dry-run", &a->dry_run, "print the plan; stop"),
		{ .type = OPTION_INT, .long_name = "runs", .value = &a->runs, .argh = "N",
		  .help = "runs per commit", .min = 1, .max = 1000, .what = "a number 1..1000" },
		{ .type = OPTION_INT, .long_name = "rounds", .value = &a->rounds, .argh = "N",
		  .help = "--tree: boots per kernel", .min = 2, .max = 100,
		  .what = "a number 2..100 (boots per kernel, interleaved)" },
		OPT_STRING(0, "base-config", &a->base_config, "C",
			   "--tree: defconfig, tinyconfig or FILE"),
		OPT_LIST(0, "config", &a->fragments, &a->nfragments, "FRAG",
			 "--tree: config fragment for every build"),
		OPT_STRING(0, "name", &a->name, "COMMIT", "the running kernel is this commit"),
		OPT_BOOL(0, "keep-disturbed", &a->keep_disturbed,
			 "compare disturbed iterations too (a busy machine), saying so"),
		OPT_WAIT_QUIET(&a->wait_quiet_s),
		OPT_STRING(0, "db", &a->db, "FILE", "results database"),
		VM_OPTIONS(&a->vm),
		OPT_SET_INT('q', "quiet", &mmb_quiet, 1, "no informational messages"),
		OPT_END(),
	};

	memset(a, 0, sizeof(*a));
	vm_opts_init(&a->vm);
	a->runs = 6;
	if (parse_one_operand(argc, argv, opts, "reproduce", "REPORT", ": one REPORT at a time",
			      "which REPORT? (a file, or - for stdin)", &a->report))
		return -1;
	if (a->nfixes > MAX_FIXES)
		return error("--fix: at most %d fixes", MAX_FIXES);
	if (a->nfragments > MAX_FIXES)
		return error("--config: at most %d fragments", MAX_FIXES);
	if (a->nfixes && !a->tree && !a->dry_run)
		return error("--fix needs --tree (the fix is applied on the suspect commit and built)");
	if (a->name && !*a->name)
		return error("--name must not be empty");
	if (a->wait_quiet_s > 0 && a->tree)
		return error("--wait-quiet is for runs on this machine; with --tree the kernels boot"
			     " in VMs");
	return 0;
}

static int read_report(const char *path, struct strbuf *sb)
{
	if (!strcmp(path, "-")) {
		char c[32];

		if (strbuf_read_fd_capped(sb, 0, MMB_CAP_REPORT) < 0)
			return errno == EFBIG
			       ? error("<stdin>: larger than %s, the limit for a 0-day report",
				       cap_str(MMB_CAP_REPORT, c))
			       : error("cannot read the report from stdin: %s", strerror(errno));
		return 0;
	}
	return read_input(sb, path, MMB_CAP_REPORT, "a 0-day report");
}

static const char *report_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/* The 10-char form mails use, also the label results are recorded under. */
static char *short_sha(const struct lkp_commit *c)
{
	return xstrndup(c->long_sha, 10);
}

static void print_commits(const struct lkp_table *t, const struct repro_args *a)
{
	static const char *const role[] = { "base", "suspect", "fix" };

	printf("\ncommits to build (from the report's table, base first):\n");
	for (size_t c = 0; c < t->ncommits; c++) {
		char *s = short_sha(&t->commits[c]);

		printf("  %-8s %s (\"%s\")%s\n", c < 3 ? role[c] : "also", s,
		       t->commits[c].subject,
		       c >= 2 ? "  [the report's third column]" : "");
		free(s);
	}
	for (size_t i = 0; i < a->nfixes; i++) {
		char *s = short_sha(&t->commits[1]);

		printf("  %-8s %s + %s\n", "fix", s, a->fixes[i]);
		free(s);
	}
}

/* Self-check: the experiment resolves against the plugins. */
static int check_experiment(struct repro_plan *p)
{
	struct plan pl;
	struct unit_ctx u;
	struct plan_opts po = { 0 };
	int ret = 0;

	unit_ctx_host(&u);
	if (plan_build(&pl, &p->exp, &u, &po))
		ret = error("the generated experiment does not resolve against the plugins (see above)");
	plan_release(&pl);
	return ret;
}

/* Which column of the table is the running kernel: -1 none. */
static int running_column(const struct lkp_table *t, const char *name, const char **why)
{
	struct utsname u;

	if (name) {
		for (size_t c = 0; c < t->ncommits; c++)
			if (strlen(name) >= 7 && (starts_with(t->commits[c].long_sha, name) ||
						  starts_with(name, t->commits[c].sha)))
				return (int)c;
		*why = "--name";
		return -2;
	}
	if (uname(&u) < 0)
		return -1;
	for (size_t c = 0; c < t->ncommits; c++)
		if (repro_release_has_sha(u.release, t->commits[c].long_sha))
			return (int)c;
	return -1;
}


static void print_notes(const struct repro_plan *p)
{
	if (!p->nnotes)
		return;
	printf("\nnotes:\n");
	for (size_t i = 0; i < p->nnotes; i++)
		printf("  - %s\n", p->notes[i]);
}

/*
 * The plan's time estimate: nkernels x runs x an iteration, the iteration's
 * time from earlier runs of the experiment in the DB when it holds some.
 */
static void print_estimate(const struct repro_args *a, const struct repro_plan *p, size_t nkernels)
{
	const char *path = db_default_path(a->db);
	struct strbuf sb = STRBUF_INIT;
	struct mmb_db db;
	double mean = 0;
	int n = 0;

	/* only a DB that exists is read: a plan never creates one */
	if (access(path, F_OK) == 0 && db_open_existing(&db, path) == 0) {
		if (db_iteration_seconds(&db, p->name, p->workload, &mean, &n))
			n = 0;
		db_close(&db);
	}
	repro_plan_estimate(p, nkernels, mean, n, &sb);
	printf("\n%s", sb.buf);
	strbuf_release(&sb);
}

/* s as one shell word, for a command line printed for the user to copy (never run). */
static void add_shell_word(struct strbuf *sb, const char *s)
{
	bool plain = *s != 0;

	for (const char *c = s; *c && plain; c++)
		plain = isalnum((unsigned char)*c) || strchr("-_./=:,+@%", *c);
	strbuf_addch(sb, ' ');
	if (plain) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *c = s; *c; c++)
		strbuf_addstr(sb, *c == '\'' ? "'\\''" : (char[2]){ *c, 0 });
	strbuf_addch(sb, '\'');
}

/* "mmbench reproduce OPTS... REPORT": the options this run was given that the next one needs. */
static void next_command(struct strbuf *sb, const struct repro_args *a, const char *opt,
			 const char *val)
{
	strbuf_addstr(sb, "  mmbench reproduce");
	if (opt) {
		add_shell_word(sb, opt);
		add_shell_word(sb, val);
	}
	if (a->runs != 6)
		strbuf_addf(sb, " --runs %d", a->runs);
	if (a->db) {
		add_shell_word(sb, "--db");
		add_shell_word(sb, a->db);
	}
	if (a->keep_disturbed)
		strbuf_addstr(sb, " --keep-disturbed");
	add_shell_word(sb, strcmp(a->report, "-") ? a->report : "REPORT");
	strbuf_addch(sb, '\n');
}

/*
 * Only the running kernel's commit was measured: the exact commands that
 * complete the A/B, with --tree (both built and booted in VMs) or by booting
 * each other commit of the report and running this again with --name.
 */
static void print_next_step(const struct repro_args *a, const struct lkp_table *t, int col)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "next step: A/B %.10s against the report's other commit%s in VMs, from a kernel"
		    " git tree holding them (KERNEL_TREE):\n", t->commits[col].long_sha,
		    t->ncommits > 2 ? "s" : "");
	next_command(&sb, a, "--tree", "KERNEL_TREE");
	for (size_t c = 0; c < t->ncommits; c++) {
		char *s;

		if ((int)c == col)
			continue;
		s = short_sha(&t->commits[c]);
		strbuf_addf(&sb, "or boot the report's %s commit %s on this machine and run:\n",
			    c == 0 ? "base" : c == 1 ? "suspect" : "third", s);
		next_command(&sb, a, "--name", s);
		free(s);
	}
	if (!strcmp(a->report, "-"))
		strbuf_addstr(&sb, "(REPORT: the report this run read on stdin, saved to a file)\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* Run on the running kernel (it is column col of the table). */
static int run_here(const struct repro_args *a, const struct lkp_report *r,
		    struct repro_plan *p, int col)
{
	const struct lkp_table *t = p->table;
	char *label = short_sha(&t->commits[col]);
	struct run_request rq = { 0 };
	int ret;

	printf("running kernel is the report's %s commit %s: recording under label '%s'\n",
	       col == 0 ? "base" : col == 1 ? "suspect" : "third", label, label);
	fflush(stdout);
	rq.config_path = p->exp.path;
	rq.label = label;
	rq.db = a->db;
	rq.keep_disturbed = a->keep_disturbed;
	rq.wait_quiet_s = a->wait_quiet_s;
	ret = run_experiment(&p->exp, &rq);
	if (ret == EXIT_OK) {
		struct mmb_db db;
		const char *labels[LKP_MAX_COLS], *titles[LKP_MAX_COLS];
		char *own[LKP_MAX_COLS] = { 0 }, *tt[LKP_MAX_COLS] = { 0 };
		int rcol[LKP_MAX_COLS];
		size_t n = t->ncommits;
		bool complete;

		for (size_t c = 0; c < n; c++) {
			own[c] = short_sha(&t->commits[c]);
			tt[c] = xasprintf("%s (\"%s\")", own[c], t->commits[c].subject);
			labels[c] = own[c];
			titles[c] = tt[c];
			rcol[c] = (int)c;
		}
		if (db_open_existing(&db, db_default_path(a->db)) == 0) {
			struct repro_columns cols = { labels, titles, rcol, n, a->keep_disturbed };
			int rc = repro_print_comparison(&db, r, p, &cols, &complete);

			if (rc >= 0 && !complete)
				print_next_step(a, t, col);
			db_close(&db);
		}
		for (size_t c = 0; c < n; c++) {
			free(own[c]);
			free(tt[c]);
		}
	}
	free(label);
	return ret;
}

/* `git merge-base --is-ancestor a b` in tree: 1 yes, 0 no, -1 git failed. */
static int is_ancestor(const char *tree, const char *a, const char *b)
{
	const char *argv[] = { "git", "-C", tree, "merge-base", "--is-ancestor", "--end-of-options",
			       a, b, NULL };
	struct strbuf err = STRBUF_INIT;
	int rc = run_argv(argv, NULL, &err);

	strbuf_release(&err);
	return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}

/* Full sha of a commit in tree, quietly; NULL when it is not there. */
static char *resolve_commit(const char *tree, const char *sha)
{
	char *rev = xasprintf("%s^{commit}", sha);
	const char *argv[] = { "git", "-C", tree, "rev-parse", "--verify", "--quiet",
			       "--end-of-options", rev, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *res = NULL;

	if (run_argv(argv, &out, &err) == 0 && out.len >= 40)
		res = xstrndup(strtrim(out.buf), 40);
	strbuf_release(&out);
	strbuf_release(&err);
	free(rev);
	return res;
}

struct column {
	char *label;		/* DB / kernel label */
	char *title;		/* "cacded5e42 (\"subject\")" */
	char *range;		/* base..commit, NULL for the base */
	const char *fix;	/* --fix file on top of the range */
	int rcol;		/* report column, -1 none */
};

/* The experiment file ab boots with: content-addressed, kept for resuming. */
static char *experiment_file(const struct repro_plan *p)
{
	char hex[65], *dir, *path;

	sha256_hex(p->yaml, strlen(p->yaml), hex);
	dir = xasprintf("%s/reproduce", kbuild_cache_dir());
	if (mkdir_p(dir, 0755) < 0) {
		error("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	path = xasprintf("%s/%s-%.12s.yaml", dir, p->name, hex);
	free(dir);
	if (access(path, F_OK) && write_file_atomic(path, p->yaml, strlen(p->yaml)) < 0) {
		error("cannot write %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}

/*
 * --tree: build base, suspect (and the report's third column, and the
 * suspect + each --fix) and A/B each against the base, interleaved.
 */
/*
 * The columns to build: the report's commits found in the tree (base,
 * suspect, others that descend from the base), then base..suspect plus
 * each --fix.  EXIT_OK, or EXIT_USAGE after the message.
 */
static int tree_columns(const struct repro_args *a, const struct lkp_table *t, char **sha,
			struct column *col, size_t *ncol)
{
	for (size_t c = 0; c < t->ncommits; c++) {
		sha[c] = resolve_commit(a->tree, t->commits[c].long_sha);
		if (!sha[c] && c < 2)
			return error("the report's %s commit %s is not in %s: fetch it there first (git fetch)",
				     c ? "suspect" : "base", t->commits[c].sha, a->tree), EXIT_USAGE;
	}
	for (size_t c = 0; c < t->ncommits; c++) {
		struct column *k;

		if (!sha[c]) {
			info("reproduce: the report's column %zu (%s) is not in %s; not built", c + 1,
			     t->commits[c].sha, a->tree);
			continue;
		}
		if (c > 0 && is_ancestor(a->tree, sha[0], sha[c]) != 1) {
			if (c == 1)
				return error("the suspect %s does not descend from the base %s in %s; reproduce builds the base plus base..suspect",
					     t->commits[1].sha, t->commits[0].sha, a->tree), EXIT_USAGE;
			info("reproduce: %s does not descend from the base; column not built",
			     t->commits[c].sha);
			continue;
		}
		k = &col[(*ncol)++];
		k->label = xstrndup(sha[c], 10);
		k->title = xasprintf("%s (\"%s\")", k->label, t->commits[c].subject);
		k->range = c ? xasprintf("%s..%s", sha[0], sha[c]) : NULL;
		k->rcol = (int)c;
	}
	for (size_t f = 0; f < a->nfixes; f++) {
		struct column *k = &col[(*ncol)++];
		char *b = xstrdup(a->fixes[f]), *txt;

		txt = xasprintf("%.10s+%s", sha[1], basename(b));
		k->label = kbuild_label_from_text(txt, 60);
		k->title = xasprintf("%.10s + %s", sha[1], a->fixes[f]);
		k->range = xasprintf("%s..%s", sha[0], sha[1]);
		k->fix = a->fixes[f];
		k->rcol = -1;
		free(txt);
		free(b);
	}
	return EXIT_OK;
}

/* A/B of column 0 (the base) against column k; the accelerator used. */
static int ab_column(const struct repro_args *a, const struct repro_plan *p, const char *base_sha,
		     const struct column *col, size_t k, const char *exp, enum accel *used)
{
	struct ab_opts o;
	struct ab_result res;
	const char *patches[2];
	int rc;

	ab_opts_init(&o);
	o.build.tree = a->tree;
	o.build.ref = base_sha;
	patches[0] = col[k].range;
	patches[1] = col[k].fix;
	o.build.patches = patches;
	o.build.npatches = col[k].fix ? 2 : 1;
	o.base_label = col[0].label;
	o.new_label = col[k].label;
	o.experiment = exp;
	o.vm = a->vm;
	o.vm.db_path = a->db;
	if (a->base_config)
		o.build.base_config = a->base_config;
	o.build.fragments = a->nfragments ? a->fragments : NULL;
	o.build.nfragments = a->nfragments;
	o.rounds = p->rounds;
	o.no_compare = true;
	o.no_plots = true;
	info("reproduce: A/B %s vs %s, %d boots each", col[0].label, col[k].label, p->rounds);
	rc = ab_run(&o, &res);
	/* ab_opts_release would free the caller's arrays */
	o.build.patches = NULL;
	o.build.fragments = NULL;
	ab_opts_release(&o);
	if (rc >= 0)
		*used = res.accel;
	ab_result_release(&res);
	return rc < 0 ? (rc == MMB_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME) : EXIT_OK;
}

/* Our rows under the report's, from the DB the A/Bs wrote. */
static int tree_compare(const struct repro_args *a, const struct lkp_report *r,
			struct repro_plan *p, const struct column *col, size_t ncol, enum accel used)
{
	struct mmb_db db;
	const char *labels[LKP_MAX_COLS], *titles[LKP_MAX_COLS];
	int rcol[LKP_MAX_COLS];
	size_t n = ncol < LKP_MAX_COLS ? ncol : LKP_MAX_COLS;
	int guest = a->vm.cpus ? a->vm.cpus : (online_cpus() < 2 ? 1 : 2);
	bool complete;
	int rc;

	for (size_t c = 0; c < n; c++) {
		labels[c] = col[c].label;
		titles[c] = col[c].title;
		rcol[c] = col[c].rcol;
	}
	repro_plan_caveats(p, r, guest, accel_record_name(used, a->vm.clock));
	if (db_open_existing(&db, db_default_path(a->db)))
		return EXIT_RUNTIME;
	{
		struct repro_columns cols = { labels, titles, rcol, n, a->keep_disturbed };

		rc = repro_print_comparison(&db, r, p, &cols, &complete);
	}
	db_close(&db);
	print_notes(p);
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

static int run_tree(struct repro_args *a, const struct lkp_report *r, struct repro_plan *p)
{
	struct column col[LKP_MAX_COLS + MAX_FIXES];
	size_t ncol = 0;
	char *sha[LKP_MAX_COLS] = { 0 };
	char *exp = NULL;
	enum accel used = ACCEL_AUTO;
	int ret;

	memset(col, 0, sizeof(col));
	ret = tree_columns(a, p->table, sha, col, &ncol);
	if (ret)
		goto out;
	exp = experiment_file(p);
	if (!exp) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	printf("experiment: %s\n", exp);
	for (size_t c = 0; c < ncol; c++)
		printf("  %-8s %s\n", c == 0 ? "base" : col[c].rcol == 1 ? "suspect" : "column",
		       col[c].title);
	print_estimate(a, p, ncol);
	fflush(stdout);
	for (size_t c = 1; c < ncol && !ret; c++)
		ret = ab_column(a, p, sha[0], col, c, exp, &used);
	if (!ret)
		ret = tree_compare(a, r, p, col, ncol, used);
out:
	for (size_t c = 0; c < ncol; c++) {
		free(col[c].label);
		free(col[c].title);
		free(col[c].range);
	}
	for (size_t c = 0; c < LKP_MAX_COLS; c++)
		free(sha[c]);
	free(exp);
	return ret;
}

int cmd_reproduce(int argc, char **argv)
{
	struct repro_args a;
	struct strbuf text = STRBUF_INIT, desc = STRBUF_INIT;
	struct lkp_report r;
	struct repro_plan p;
	struct repro_opts o = { 0 };
	char thp[32];
	char err[1024];
	int ret = EXIT_OK, col;
	const char *why = NULL;

	if (parse_args(argc, argv, &a)) {
		repro_args_release(&a);
		return EXIT_USAGE;
	}
	if (read_report(a.report, &text)) {
		strbuf_release(&text);
		repro_args_release(&a);
		return EXIT_USAGE;
	}
	if (lkpreport_parse(&r, text.buf ? text.buf : "", text.len, err, sizeof(err))) {
		error("%s: %s", report_name(a.report), err);
		strbuf_release(&text);
		repro_args_release(&a);
		return EXIT_USAGE;
	}
	strbuf_release(&text);

	o.runs = a.runs;
	o.ncpus = online_cpus() > 0 ? online_cpus() : 1;
	o.mem_bytes = mem_total_bytes();
	if (a.tree) {
		/* the runs happen in the guest: its CPUs, 3 interleaved boots */
		o.ncpus = a.vm.cpus ? a.vm.cpus : (o.ncpus < 2 ? o.ncpus : 2);
		o.mem_bytes = a.vm.mem_bytes ? a.vm.mem_bytes : 2ull << 30;	/* the guest's default */
		o.rounds = a.rounds ? a.rounds : 3;
	}
	o.has_cpufreq = a.tree ? false : repro_host_has_cpufreq();
	o.where = a.tree ? "the QEMU guest" : "this machine";
	/* the guest kernel's default is mmbench.config's TRANSPARENT_HUGEPAGE_MADVISE */
	o.thp = a.tree ? "madvise"
		: read_knob_value("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp)) >= 0
		? thp : NULL;
	if (repro_plan_build(&r, &o, &p, err, sizeof(err))) {
		error("%s: %s", report_name(a.report), err);
		lkp_report_release(&r);
		repro_args_release(&a);
		return EXIT_USAGE;
	}
	if (a.dry_run) {
		repro_plan_caveats(&p, &r, o.ncpus, NULL);
		lkp_report_describe(&r, &desc);
		printf("parsed report (%s):\n%s", report_name(a.report), desc.buf);
		strbuf_release(&desc);
		printf("\nexperiment (%d runs per commit; workload %s, metric %s -> %s):\n%s",
		       p.runs, p.workload, p.metric, p.lkp_metric, p.yaml);
		print_commits(p.table, &a);
		print_notes(&p);
		print_estimate(&a, &p, p.table->ncommits + a.nfixes);
		if (check_experiment(&p))
			ret = EXIT_RUNTIME;
		goto out;
	}

	if (a.tree) {
		ret = run_tree(&a, &r, &p);
		goto out;
	}

	col = running_column(p.table, a.name, &why);
	if (col == -2) {
		error("--name %s is none of the report's commits (%s%s%s)", a.name,
		      p.table->commits[0].sha, p.table->ncommits > 1 ? ", " : "",
		      p.table->ncommits > 1 ? p.table->commits[1].sha : "");
		ret = EXIT_USAGE;
		goto out;
	}
	if (col < 0) {
		struct utsname u;

		uname(&u);
		error("the running kernel (%s) is none of the report's commits (%s, %s): use --tree DIR to build them, --name COMMIT to say which one this is, or --dry-run",
		      u.release, p.table->commits[0].sha, p.table->commits[1].sha);
		ret = EXIT_USAGE;
		goto out;
	}
	repro_plan_caveats(&p, &r, o.ncpus, NULL);
	print_notes(&p);
	print_estimate(&a, &p, 1);
	fflush(stdout);
	ret = run_here(&a, &r, &p, col);
out:
	repro_plan_release(&p);
	lkp_report_release(&r);
	repro_args_release(&a);
	return ret < 0 ? EXIT_RUNTIME : ret;
}
