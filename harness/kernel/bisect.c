/*
 * mmbench bisect: endpoints, steps decided by an SPRT, the first bad
 * commit confirmed (bisect.h).
 */
#include "bisect.h"
#include "ctltext.h"
#include "fmtnum.h"
#include "kbuild.h"
#include "kbuild-internal.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_STEPS 64

struct brun {
	char sha[41];
	double value;
};

struct bstep {
	char sha[41];
	struct bisect_step_result r;
};

struct bstate {
	const struct bisect_opts *o;
	const struct bisect_measure *m;
	char *clone, *tsv;
	char good[41], bad[41];
	struct brun *runs;
	size_t nruns, alloc;
	double machine_s;		/* measuring time of this invocation */
	struct bstep steps[MAX_STEPS];
	size_t nsteps;
	size_t endpoint_n;		/* runs a side the endpoint check ended with */
};

void bisect_opts_init(struct bisect_opts *o)
{
	memset(o, 0, sizeof(*o));
	bisect_step_opts_default(&o->step);
	o->endpoint_rounds = 5;
	kbuild_opts_init(&o->build);
}

void bisect_opts_release(struct bisect_opts *o)
{
	kbuild_opts_release(&o->build);
}

int bisect_opts_check(struct bisect_opts *o, int argc, char **argv)
{
	struct bisect_step_result r;

	if (argc > 1)
		return error("bisect: one CONFIG.yaml only ('%s' and '%s')", argv[0], argv[1]);
	o->experiment = argc ? argv[0] : NULL;
	if (!o->tree)
		return error("bisect: --tree DIR is required");
	if (!o->good || !o->bad)
		return error("bisect: --good REF and --bad REF are both required");
	if (kbuild_ref_check("bisect: --good", o->good) || kbuild_ref_check("bisect: --bad", o->bad))
		return -1;
	if (!o->metric || !strchr(o->metric, '.'))
		return error("bisect: --metric WORKLOAD.METRIC[@VARIANT] is required%s%s%s",
			     o->metric ? " ('" : "", o->metric ? o->metric : "",
			     o->metric ? "' has no '.')" : "");
	if (o->step.max_rounds < o->step.min_rounds)
		return error("bisect: --max-rounds %d is below the %d rounds a step needs",
			     o->step.max_rounds, o->step.min_rounds);
	if (bisect_step_decide(NULL, 0, NULL, 0, NULL, 0, &o->step, &r) < 0)
		return error("bisect: %s", r.reason);
	if (!o->experiment && !getenv("MMBENCH_BISECT_FAKE"))
		return error("bisect: which CONFIG.yaml?");
	return 0;
}

/* ---- the synthetic measurement ---- */

struct fake {
	const char *tree, *file;
	double sd;
	uint64_t s;
};

static double fake_uniform(struct fake *f)
{
	f->s ^= f->s << 13;
	f->s ^= f->s >> 7;
	f->s ^= f->s << 17;
	return ((f->s >> 11) + 0.5) / 9007199254740992.0;
}

static int fake_measure(void *ctx, const char *sha, double *value)
{
	struct fake *f = ctx;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *obj = xasprintf("%s:%s", sha, f->file), *end;
	int ret = 0;

	if (kbuild_git(f->tree, &out, &err, "show", obj, NULL) != 0) {
		ret = error("bisect: MMBENCH_BISECT_FAKE: no %s at %.12s", f->file, sha);
	} else {
		errno = 0;
		*value = strtod(out.buf, &end);
		if (end == out.buf || errno)
			ret = error("bisect: MMBENCH_BISECT_FAKE: %s at %.12s is not a number",
				    f->file, sha);
		else
			*value += f->sd * sqrt(-2 * log(fake_uniform(f))) *
				  cos(2 * M_PI * fake_uniform(f));
	}
	free(obj);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

int bisect_fake_measure(const struct bisect_opts *o, struct bisect_measure *m)
{
	static struct fake f;
	const char *file = getenv("MMBENCH_BISECT_FAKE"), *sd = getenv("MMBENCH_BISECT_FAKE_SD");
	const char *seed = getenv("MMBENCH_BISECT_SEED");
	char *end;

	if (!file || !*file)
		return 0;
	f = (struct fake){ .tree = o->tree, .file = file, .sd = 1, .s = 0x9e3779b97f4a7c15ull };
	if (sd && (f.sd = strtod(sd, &end), *end || !(f.sd >= 0)))
		return error("bisect: MMBENCH_BISECT_FAKE_SD '%s' is not a number >= 0", sd);
	if (seed && *seed)
		f.s ^= strtoull(seed, NULL, 0) * 0xbf58476d1ce4e5b9ull;
	if (!f.s)
		f.s = 1;
	m->measure = fake_measure;
	m->ctx = &f;
	return 1;
}

/* ---- stored runs ---- */

static void add_run(struct bstate *st, const char *sha, double v)
{
	if (st->nruns == st->alloc) {
		st->alloc = st->alloc ? 2 * st->alloc : 64;
		st->runs = xrealloc(st->runs, st->alloc * sizeof(*st->runs));
	}
	snprintf(st->runs[st->nruns].sha, sizeof(st->runs[0].sha), "%.40s", sha);
	st->runs[st->nruns++].value = v;
}

static int load_runs(struct bstate *st)
{
	FILE *f = fopen(st->tsv, "r");
	char sha[64];
	double v;

	if (!f)
		return errno == ENOENT ? 0 : error("bisect: %s: %s", st->tsv, strerror(errno));
	while (fscanf(f, "%63s %lf", sha, &v) == 2)
		if (strlen(sha) == 40)
			add_run(st, sha, v);
	fclose(f);
	return 0;
}

/* The stored values of sha into out[] (room for st->nruns); their count. */
static size_t values_of(const struct bstate *st, const char *sha, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++)
		if (!strcmp(st->runs[i].sha, sha))
			out[n++] = st->runs[i].value;
	return n;
}

/* Measure sha until it has want runs; each run appended to runs.tsv. */
static int measure_to(struct bstate *st, const char *sha, size_t want)
{
	double *tmp = xmalloc((st->nruns + 1) * sizeof(double));
	size_t have = values_of(st, sha, tmp);

	free(tmp);
	for (; have < want; have++) {
		struct timespec a, b;
		double v;
		FILE *f;

		clock_gettime(CLOCK_MONOTONIC, &a);
		if (st->m->measure(st->m->ctx, sha, &v) < 0)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &b);
		st->machine_s += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		f = fopen(st->tsv, "a");
		if (!f)
			return error("bisect: %s: %s", st->tsv, strerror(errno));
		fprintf(f, "%s\t%.17g\n", sha, v);
		fclose(f);
		add_run(st, sha, v);
	}
	return 0;
}

/* ---- the clone and its git bisect state ---- */

static int git_in(const struct bstate *st, struct strbuf *out, const char *a, const char *b,
		  const char *c)
{
	struct strbuf err = STRBUF_INIT;
	int rc = kbuild_git(st->clone, out, &err, a, b, c, NULL);

	if (rc != 0)
		error("bisect: git %s %s in %s: %s", a, b ? b : "", st->clone, strtrim(err.buf));
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/* What a bisect measures, beyond GOOD..BAD: its runs are only comparable under one. */
static void measure_key(const struct bisect_opts *o, struct strbuf *key)
{
	struct strbuf text = STRBUF_INIT;
	char hex[65];

	strbuf_addf(key, "metric %s\nbase-config %s\n", o->metric,
		    o->build.base_config ? o->build.base_config : "defconfig");
	/* the real clock's runs were made before the key named a clock */
	if (o->virtual_clock)
		strbuf_addstr(key, "clock virtual\n");
	if (o->microvm)
		strbuf_addstr(key, "machine microvm\n");
	else if (o->machine_auto && !o->virtual_clock)
		/* since auto chose microvm under TCG: earlier steps booted q35 */
		strbuf_addstr(key, "machine auto (microvm under TCG)\n");
	/* x86_64's runs were made before the key named an arch */
	if (o->build.arch && strcmp(o->build.arch->name, "x86_64"))
		strbuf_addf(key, "arch %s\n", o->build.arch->name);
	for (size_t i = 0; i <= o->build.nfragments; i++) {
		const char *f = i < o->build.nfragments ? o->build.fragments[i] : o->experiment;

		strbuf_reset(&text);
		if (!f || strbuf_read_file(&text, f) < 0)
			continue;
		sha256_hex(text.buf, text.len, hex);
		strbuf_addf(key, "%s %s sha256 %s\n", i < o->build.nfragments ? "fragment" :
			    "experiment", f, hex);
	}
	strbuf_release(&text);
}

/*
 * A new bisect records what it measures; a resumed one must measure the
 * same, or its stored runs would be pooled with other kernels' or other
 * experiments' runs.
 */
static int check_measure_key(const struct bstate *st, bool fresh)
{
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	char *path = xasprintf("%s/measures", st->clone);
	int rc = 0;

	measure_key(st->o, &want);
	if (fresh || (strbuf_read_file(&have, path) < 0 && errno == ENOENT))
		rc = write_file_atomic(path, want.buf, want.len) < 0 ?
		     error("bisect: cannot write %s: %s", path, strerror(errno)) : 0;
	else if (strcmp(have.buf, want.buf))
		rc = error("bisect: %s was started measuring\n%swhich is not what this command "
			   "measures\n%s(remove %s to start it again)", st->clone, have.buf,
			   want.buf, st->clone);
	free(path);
	strbuf_release(&want);
	strbuf_release(&have);
	return rc;
}

static int open_clone(struct bstate *st, const char *cache)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *dir = xasprintf("%s/bisect", cache), *marker, *tree = realpath(st->o->tree, NULL);
	int rc = 0;
	struct stat sb;

	st->clone = xasprintf("%s/%.12s-%.12s", dir, st->good, st->bad);
	st->tsv = xasprintf("%s/runs.tsv", st->clone);
	marker = xasprintf("%s/.git/BISECT_START", st->clone);
	if (mkdir_p(dir, 0755) < 0) {
		rc = error("bisect: cannot create %s: %s", dir, strerror(errno));
	} else if (stat(marker, &sb) == 0) {
		info("bisect: resuming in %s", st->clone);
		rc = check_measure_key(st, false);
	} else if (!tree) {
		rc = error("bisect: --tree %s: %s", st->o->tree, strerror(errno));
	} else if (kbuild_git(dir, &out, &err, "clone", "--quiet", "--no-checkout", "--",
			      tree, st->clone, NULL) != 0 && stat(st->clone, &sb) < 0) {
		rc = error("bisect: git clone of %s: %s", st->o->tree, strtrim(err.buf));
	} else {
		strbuf_reset(&out);
		rc = kbuild_git(st->clone, &out, &err, "bisect", "start", "--no-checkout",
				st->bad, st->good, NULL) ? error("bisect: git bisect start: %s",
								  strtrim(err.buf)) : 0;
		if (!rc)
			rc = check_measure_key(st, true);
	}
	free(marker);
	free(dir);
	free(tree);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

/* ---- endpoints, steps, the answer ---- */

static double *vals(const struct bstate *st, const char *sha, size_t *n)
{
	double *v = xmalloc((st->nruns + 1) * sizeof(double));

	*n = values_of(st, sha, v);
	return v;
}

/*
 * good vs bad: Welch on the run means, with rounds added up to the last
 * look before it says there is nothing (bisect_endpoints_decide()); 1
 * when not significant.
 */
static int check_endpoints(struct bstate *st)
{
	size_t n0 = (size_t)st->o->endpoint_rounds, want = n0, ng, nb;
	enum bisect_endpoints d;
	struct stats_test t;
	double *g, *b;

	for (;;) {
		for (size_t k = 1; k <= want; k++)
			if (measure_to(st, st->good, k) < 0 || measure_to(st, st->bad, k) < 0)
				return -1;
		g = vals(st, st->good, &ng);
		b = vals(st, st->bad, &nb);
		d = bisect_endpoints_decide(g, ng, b, nb, n0, &t);
		free(g);
		free(b);
		if (d != BISECT_ENDPOINTS_MORE)
			break;
		want = bisect_endpoints_next(ng < nb ? ng : nb, n0);
		info("bisect: good vs bad is %+.1f%% [%+.1f%%, %+.1f%%] (Welch p = %s, %zu and %zu "
		     "runs): not yet below %.3g; measuring up to %zu runs each", t.rel, t.rel_lo,
		     t.rel_hi, FMT_P_PROSE(t.p), ng, nb, BISECT_ENDPOINT_ALPHA / BISECT_ENDPOINT_LOOKS, want);
	}
	st->endpoint_n = ng < nb ? ng : nb;
	if (d == BISECT_ENDPOINTS_SAME) {
		printf("nothing to bisect: good vs bad is %+.1f%% [%+.1f%%, %+.1f%%] (ratio of means, "
		       "95%% CI; Welch p = %s, %zu and %zu runs, needed p < %.3g)\n", t.rel,
		       t.rel_lo, t.rel_hi, FMT_P_PROSE(t.p), ng, nb, BISECT_ENDPOINT_ALPHA / BISECT_ENDPOINT_LOOKS);
		return 1;
	}
	info("bisect: good vs bad is %+.1f%% [%+.1f%%, %+.1f%%] (Welch p = %s, %zu and %zu runs)",
	     t.rel, t.rel_lo, t.rel_hi, FMT_P_PROSE(t.p), ng, nb);
	return 0;
}

/* One step at the candidate: rounds of good, bad, candidate until decided. */
static int one_step(struct bstate *st, const char *cand, struct bisect_step_result *r)
{
	size_t n0 = st->endpoint_n;

	for (size_t k = 1;; k++) {
		size_t ng, nb, nc;
		double *g, *b, *c;
		int rc;

		if (measure_to(st, st->good, n0 + k) < 0 || measure_to(st, st->bad, n0 + k) < 0 ||
		    measure_to(st, cand, k) < 0)
			return -1;
		g = vals(st, st->good, &ng);
		b = vals(st, st->bad, &nb);
		c = vals(st, cand, &nc);
		rc = bisect_step_decide(g, ng, b, nb, c, nc, &st->o->step, r);
		free(g);
		free(b);
		free(c);
		if (rc < 0)
			return error("bisect: %s", r->reason);
		if (r->decision != BISECT_MORE)
			return 0;
	}
}

#define BISECT_UNDECIDED 2	/* git has only skipped commits left */

/*
 * Steps until git names the first bad commit: 0 with first[] set,
 * BISECT_UNDECIDED when only skipped commits are left, -1.
 */
static int steps(struct bstate *st, char *first)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc = 0;

	while (st->nsteps < MAX_STEPS) {
		struct bstep *s = &st->steps[st->nsteps];
		const char *word;
		int git_rc;

		strbuf_reset(&out);
		if ((rc = git_in(st, &out, "rev-parse", "--verify", "BISECT_HEAD")) < 0)
			break;
		snprintf(s->sha, sizeof(s->sha), "%.40s", strtrim(out.buf));
		if ((rc = one_step(st, s->sha, &s->r)) < 0)
			break;
		st->nsteps++;
		word = bisect_decision_name(s->r.decision);
		info("bisect: step %zu: %.12s is %s (%zu runs%s%s)", st->nsteps, s->sha, word,
		     s->r.nruns, *s->r.reason ? ": " : "", s->r.reason);
		strbuf_reset(&out);
		strbuf_reset(&err);
		git_rc = kbuild_git(st->clone, &out, &err, "bisect", word, s->sha, NULL);
		/* git exits 2 when its skips leave nothing to test: an answer, not a failure */
		if (strstr(out.buf, "only 'skip'ped commits left")) {
			rc = BISECT_UNDECIDED;
			break;
		}
		if (git_rc != 0) {
			rc = error("bisect: git bisect %s %.12s in %s: %s", word, s->sha, st->clone,
				   strtrim(err.buf));
			break;
		}
		if (strstr(out.buf, "is the first bad commit")) {
			snprintf(first, 41, "%.40s", strtrim(out.buf));
			break;
		}
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

/*
 * A finished bisect's answer from its log: 0 and first[] from "# first bad
 * commit: [sha] ...", BISECT_UNDECIDED when it ended with only skipped
 * commits left, 1 when it has not finished.
 */
static int done_before(struct bstate *st, char *first)
{
	struct strbuf out = STRBUF_INIT;
	const char *p;
	int rc = 1;

	if (git_in(st, &out, "bisect", "log", NULL) == 0) {
		if ((p = strstr(out.buf, "# first bad commit: [")) && strlen(p) > 21 + 40) {
			snprintf(first, 41, "%.40s", p + 21);
			rc = 0;
		} else if (strstr(out.buf, "# only skipped commits left to test")) {
			rc = BISECT_UNDECIDED;
		}
	}
	strbuf_release(&out);
	return rc;
}

/* Resumed: the steps of earlier invocations, from the log and the stored runs. */
static void earlier_steps(struct bstate *st)
{
	struct strbuf out = STRBUF_INIT;
	char word[8], sha[64];

	if (git_in(st, &out, "bisect", "log", NULL) < 0)
		goto out;
	for (char *line = out.buf; line && *line && st->nsteps < MAX_STEPS;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (sscanf(line, "git bisect %7s %63s", word, sha) == 2 && strlen(sha) == 40 &&
		    strcmp(word, "start")) {
			struct bstep *s = &st->steps[st->nsteps++];
			size_t ng, nc;
			double *g = vals(st, st->good, &ng), *c = vals(st, sha, &nc);

			snprintf(s->sha, sizeof(s->sha), "%.40s", sha);
			bisect_step_decide(g, ng, g, ng, c, nc, &st->o->step, &s->r);
			s->r.decision = !strcmp(word, "good") ? BISECT_GOOD :
					!strcmp(word, "bad") ? BISECT_BAD : BISECT_SKIP;
			free(g);
			free(c);
		}
		line = nl ? nl + 1 : NULL;
	}
out:
	strbuf_release(&out);
}

/* mean and change vs good of sha's runs: "mean, change [CI]" */
static void print_row(struct bstate *st, const char *sha, const char *decision, double bound)
{
	size_t ng, nc;
	double *g = vals(st, st->good, &ng), *c = vals(st, sha, &nc), mean = 0;
	struct stats_test t;

	for (size_t i = 0; i < nc; i++)
		mean += c[i] / (double)nc;
	printf("  %.12s  %-5s  %4zu  %12.4g", sha, decision, nc, mean);
	if (nc >= 2 && stats_welch(g, ng, c, nc, &t) == 0)
		printf("  %+7.1f%% [%+.1f%%, %+.1f%%]", t.rel, t.rel_lo, t.rel_hi);
	else
		printf("  %26s", "-");
	if (bound >= 0)
		printf("  %.2f%%", 100 * bound);
	printf("\n");
	free(g);
	free(c);
}

/* The table of good, each step, bad; the product of the decided steps' 1 - bound. */
static double print_steps(struct bstate *st)
{
	double conf = 1;

	printf("\n  commit        step   runs          mean  change vs good [95%% CI]     error bound\n");
	print_row(st, st->good, "good", -1);
	for (size_t i = 0; i < st->nsteps; i++) {
		/* a skip decided nothing: it has no error bound */
		print_row(st, st->steps[i].sha, bisect_decision_name(st->steps[i].r.decision),
			  st->steps[i].r.decision == BISECT_SKIP ? -1 : st->steps[i].r.error_bound);
		if (st->steps[i].r.decision != BISECT_SKIP)
			conf *= 1 - st->steps[i].r.error_bound;
	}
	print_row(st, st->bad, "bad", -1);
	return conf;
}

/*
 * Only skipped commits left: git's candidates (from its log, so a resumed
 * bisect prints the same) and the steps; exit 1, as "nothing to bisect".
 */
static int print_undecided(struct bstate *st)
{
	struct strbuf out = STRBUF_INIT;
	const char *tag = "# possible first bad commit: [";
	size_t ncand = 0;

	printf("no first bad commit: only commits the steps skipped (undecided after --max-rounds "
	       "%d) are left; the first bad commit is one of:\n", st->o->step.max_rounds);
	if (git_in(st, &out, "bisect", "log", NULL) == 0)
		for (const char *p = out.buf; (p = strstr(p, tag)); ncand++) {
			const char *sha = p + strlen(tag), *nl = strchrnul(sha, '\n');
			const char *end = memchr(sha, ']', (size_t)(nl - sha));
			const char *from = end && end + 2 <= nl ? end + 2 : nl;
			/* "[sha] subject": the subject is the tree's text, escaped for the terminal */
			char *subject = xstrndup(from, (size_t)(nl - from));

			printf("  %.12s %s\n", sha, ctl_show(subject));
			free(subject);
			p = sha;
		}
	print_steps(st);
	printf("steps: %zu, %zu candidates left (a change this small against the run-to-run "
	       "spread needs more rounds a step: --max-rounds, or a bisect of fewer commits); "
	       "machine time this invocation: %.0fs; %zu runs stored in %s\n", st->nsteps, ncand,
	       st->machine_s, st->nruns, st->tsv);
	strbuf_release(&out);
	return 1;
}

static int print_answer(struct bstate *st, const char *first)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *shown;
	double conf;
	char *parent_rev = xasprintf("%s^", first), parent[41];
	size_t n0 = (size_t)st->o->endpoint_rounds, np, nf;
	double *p, *f;
	struct stats_test t;
	int rc = 0;

	if (kbuild_git(st->clone, &out, &err, "show", "-s",
		       "--format=%H%n  %s%n  Author: %an <%ae>", first, NULL) != 0)
		strbuf_addstr(&out, first);
	shown = text_escape(strtrim(out.buf), true);	/* the tree's author and subject */
	printf("first bad commit: %s\n", shown);
	free(shown);
	conf = print_steps(st);
	strbuf_reset(&out);
	if (git_in(st, &out, "rev-parse", "--verify", parent_rev) < 0) {
		rc = -1;
		goto out;
	}
	snprintf(parent, sizeof(parent), "%.40s", strtrim(out.buf));
	/* the confirmation A/B: the first bad commit against its parent, interleaved */
	for (size_t k = 1; k <= n0; k++)
		if (measure_to(st, parent, k) < 0 || measure_to(st, first, k) < 0) {
			rc = -1;
			goto out;
		}
	p = vals(st, parent, &np);
	f = vals(st, first, &nf);
	if (stats_welch(p, np, f, nf, &t) == 0)
		printf("\nconfirmation: %.12s vs its parent %.12s: %+.1f%% [%+.1f%%, %+.1f%%], "
		       "Welch p = %s (%zu and %zu runs)%s\n", first, parent, t.rel, t.rel_lo,
		       t.rel_hi, FMT_P_PROSE(t.p), nf, np, t.significant ? "" : ": NOT confirmed");
	free(p);
	free(f);
	printf("steps: %zu; overall confidence (product of the steps' 1 - bound): %.1f%%; "
	       "machine time this invocation: %.0fs; %zu runs stored in %s\n",
	       st->nsteps, 100 * conf, st->machine_s, st->nruns, st->tsv);
out:
	free(parent_rev);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

static int resolve_ends(struct bstate *st)
{
	char *g = kbuild_resolve_ref(st->o->tree, st->o->good);
	char *b = g ? kbuild_resolve_ref(st->o->tree, st->o->bad) : NULL;
	int rc = 0;

	if (!g || !b)
		rc = MMB_EUSAGE;
	else if (!strcmp(g, b)) {
		error("bisect: --good %s and --bad %s are one commit", st->o->good, st->o->bad);
		rc = MMB_EUSAGE;
	}
	if (!rc) {
		snprintf(st->good, sizeof(st->good), "%.40s", g);
		snprintf(st->bad, sizeof(st->bad), "%.40s", b);
	}
	free(g);
	free(b);
	return rc;
}

static void bstate_release(struct bstate *st)
{
	free(st->clone);
	free(st->tsv);
	free(st->runs);
}

int bisect_run(const struct bisect_opts *o, const struct bisect_measure *m)
{
	struct bstate st = { .o = o, .m = m };
	char first[41] = "";
	int rc;

	if ((rc = resolve_ends(&st)) != 0)
		return rc;
	if ((rc = open_clone(&st, o->cache_dir ? o->cache_dir : kbuild_cache_dir())) < 0 ||
	    (rc = load_runs(&st)) < 0)
		goto out;
	if ((rc = check_endpoints(&st)) != 0)
		goto out;
	earlier_steps(&st);
	if ((rc = done_before(&st, first)) == 1)
		rc = steps(&st, first);
	if (rc == BISECT_UNDECIDED)
		rc = print_undecided(&st);
	else if (rc == 0)
		rc = *first ? print_answer(&st, first) : 1;
out:
	bstate_release(&st);
	return rc;
}

int bisect_print_log(const struct bisect_opts *o)
{
	struct bstate st = { .o = o };
	struct strbuf out = STRBUF_INIT;
	int rc;

	if ((rc = resolve_ends(&st)) != 0)
		return rc;
	st.clone = xasprintf("%s/bisect/%.12s-%.12s", o->cache_dir ? o->cache_dir :
			     kbuild_cache_dir(), st.good, st.bad);
	if ((rc = git_in(&st, &out, "bisect", "log", NULL)) == 0)
		fputs(out.buf, stdout);
	strbuf_release(&out);
	bstate_release(&st);
	return rc;
}
