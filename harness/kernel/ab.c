#include "ab.h"
#include "initramfs.h"
#include "compare.h"
#include "monlist.h"
#include "db.h"
#include "plotdb.h"
#include "render.h"
#include "read.h"
#include "kbuild.h"
#include "levels.h"
#include "precision.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* boots of one round side the host disturbed, done again before one counts */
#define AB_HOST_RETRIES 2

void ab_opts_init(struct ab_opts *o)
{
	memset(o, 0, sizeof(*o));
	kbuild_opts_init(&o->build);
	vm_opts_init(&o->vm);
}

void ab_opts_release(struct ab_opts *o)
{
	kbuild_opts_release(&o->build);
}

void ab_result_release(struct ab_result *r)
{
	free(r->base_label);
	free(r->new_label);
	r->base_label = r->new_label = NULL;
}

int ab_precision_opts_check(const struct ab_opts *o, const char *who)
{
	if (o->max_rounds && !o->precision)
		return error("%s: --max-rounds goes with --precision", who);
	if (o->precision && o->max_rounds && o->rounds > o->max_rounds)
		return error("%s: --rounds %d is more than --max-rounds %d", who, o->rounds,
			     o->max_rounds);
	return 0;
}

int ab_opts_check(struct ab_opts *o, int argc, char **argv)
{
	if (argc > 1)
		return error("ab: one CONFIG.yaml only ('%s' and '%s')", argv[0], argv[1]);
	o->experiment = argv[0];
	if (!o->experiment)
		return error("ab: which CONFIG.yaml?");
	if (o->compare_format && !renderer_find_or_error("ab", o->compare_format))
		return -1;
	if (!o->build.tree && (!o->base_label || !o->new_label))
		return error("ab: --tree DIR is required (or --base-name and --new-name of built kernels)");
	if (o->new_ref && !o->build.tree)
		return error("ab: --new REF needs --tree DIR");
	if (o->build.tree && !o->build.npatches && !o->new_ref)
		return error("ab: no --patch or --new given: the new kernel would be the base kernel");
	if (o->new_ref && kbuild_ref_check("ab: --new", o->new_ref))
		return -1;
	if (vm_clock_check(&(enum accel){ o->vm.accel }, o->vm.clock, o->vm.cpus) < 0 ||
	    vm_arch_check(o->vm.arch, &(enum accel){ o->vm.accel }, o->vm.machine) < 0)
		return -1;
	if (ab_precision_opts_check(o, "ab"))
		return -1;
	if (o->base_label && o->new_label && !strcmp(o->base_label, o->new_label))
		return error("ab: --base-name and --new-name are both '%s'", o->base_label);
	if (o->build.tree && kbuild_ref_check("ab: --base", o->build.ref))
		return -1;
	for (size_t i = 0; i < o->build.npatches; i++)
		/* not a file, so a range: refused before anything runs */
		if ((o->build.patches[i][0] == '-' || strstr(o->build.patches[i], "..")) &&
		    access(o->build.patches[i], F_OK) < 0 &&
		    kbuild_range_check("ab: --patch", o->build.patches[i]))
			return -1;
	return 0;
}

/* `mmbench compare --last N BASE NEW` of the series; compare's exit code. */
static int ab_compare(struct mmb_db *db, struct compare_select *sel, const char *format)
{
	/* checked by ab_opts_check() */
	const struct renderer *f = format ? renderer_find(format) : renderers[0];

	fflush(stdout);
	sel->need = COMPARE_NEED_COMMON;
	sel->meta = true;
	return render_show(db, sel, f, stdout);
}

/* The series' plots, quietly, in dir (default <db dir>/ab-BASE-vs-NEW). */
static void ab_plots(struct mmb_db *db, struct compare_select *sel, const char *dir,
		     const char *dbpath, const struct ab_result *r)
{
	struct plot_opts po;
	int quiet = mmb_quiet, rc;
	char *out;

	if (dir) {
		out = xstrdup(dir);
	} else {
		char *copy = xstrdup(dbpath);

		out = xasprintf("%s/ab-%s-vs-%s", dirname(copy), r->base_label, r->new_label);
		free(copy);
	}
	plot_opts_init(&po);
	po.outdir = out;
	sel->need = COMPARE_NEED_ROWS;
	sel->meta = false;
	mmb_quiet = 1;
	rc = plot_show(db, sel, &po);
	mmb_quiet = quiet;
	if (rc == EXIT_OK)
		info("ab: plots in %s", out);
	else
		warning("ab: plots were not written (see the messages above)");
	free(out);
}

static int build_one(const struct ab_opts *o, const char *label, bool with_patches,
		     double *secs)
{
	struct kbuild_opts k = o->build;
	struct kbuild_result r;
	int ret;

	k.arch = o->vm.arch;	/* vm's --arch: ab and reproduce take it there */
	if (!with_patches) {
		k.patches = NULL;
		k.npatches = 0;
	} else if (o->new_ref) {
		k.ref = o->new_ref;
	}
	k.label = label;
	k.db_path = o->vm.db_path;
	k.cache_dir = o->vm.cache_dir;
	ret = kbuild_build(&k, &r);
	if (ret == 0) {
		*secs = r.cached ? 0 : r.seconds;
		if (r.cached)
			info("ab: kernel %s from the cache", label);
		else
			info("ab: kernel %s built in %.0fs", label, r.seconds);
	}
	kbuild_result_release(&r);
	return ret;
}

/* --base and --new one commit with no series: nothing to compare (MMB_EUSAGE). */
static int ab_same_commit(const struct ab_opts *o)
{
	const char *base = o->build.ref ? o->build.ref : "HEAD";
	char *a = kbuild_resolve_ref(o->build.tree, base);
	char *b = a ? kbuild_resolve_ref(o->build.tree, o->new_ref) : NULL;
	int rc = !a || !b ? MMB_EUSAGE : 0;

	if (a && b && !o->build.npatches && !strcmp(a, b)) {
		error("ab: --base %s and --new %s are one commit (%.12s) and there is no --patch: "
		      "nothing to compare", base, o->new_ref, a);
		rc = MMB_EUSAGE;
	}
	free(a);
	free(b);
	return rc;
}

/*
 * Labels from --tree: --base-name/--new-name, else with --new each ref's
 * git describe (the series' last subject when --patch goes on top of
 * --new), else the short base commit and the series' subject.
 */
static int ab_default_labels(const struct ab_opts *o, struct ab_result *r)
{
	struct kbuild_opts k = o->build;

	k.cache_dir = o->vm.cache_dir;
	k.arch = o->vm.arch;
	if (o->new_ref && ab_same_commit(o))
		return MMB_EUSAGE;
	if (o->base_label) {
		r->base_label = xstrdup(o->base_label);
	} else {
		const char *base = o->build.ref ? o->build.ref : "HEAD";
		char *sha = o->new_ref ? kbuild_describe_ref(o->build.tree, base)
				       : kbuild_resolve_ref(o->build.tree, base);

		if (!sha)
			return MMB_EUSAGE;
		r->base_label = o->new_ref ? sha : xstrndup(sha, 12);
		if (!o->new_ref)
			free(sha);
	}
	if (o->new_label) {
		r->new_label = xstrdup(o->new_label);
	} else if (o->new_ref && !o->build.npatches) {
		r->new_label = kbuild_describe_ref(o->build.tree, o->new_ref);
		if (!r->new_label)
			return MMB_EUSAGE;
	} else {
		char *subj = kbuild_series_subject(&k);

		if (!subj) {
			error("ab: cannot read a subject from the series; give --new-name");
			return MMB_EUSAGE;
		}
		r->new_label = kbuild_label_from_text(subj, 60);
		free(subj);
	}
	if (k.arch && strcmp(k.arch->name, "x86_64")) {
		/* a label names one build: the arch's own, beside x86_64's of the same refs */
		char *b = r->base_label, *n = r->new_label;

		r->base_label = o->base_label ? b : xasprintf("%s-%s", b, k.arch->name);
		r->new_label = o->new_label ? n : xasprintf("%s-%s", n, k.arch->name);
		if (r->base_label != b)
			free(b);
		if (r->new_label != n)
			free(n);
	}
	if (!strcmp(r->base_label, r->new_label)) {
		error("ab: base and new kernels would both be labelled '%s'; give --new-name",
		      r->base_label);
		return MMB_EUSAGE;
	}
	return 0;
}

/* The two labels, building the kernels from --tree, or checking the cache has them. */
static int ab_labels(const struct ab_opts *o, const char *cache, struct ab_result *r)
{
	struct kernel_entry e;
	int rc;

	if (!o->build.tree) {
		r->base_label = xstrdup(o->base_label);
		r->new_label = xstrdup(o->new_label);
		for (int i = 0; i < 2; i++) {
			const char *l = i ? r->new_label : r->base_label;

			if (kbuild_find(cache, l, &e) < 0) {
				error("ab: no kernel labelled '%s' (see `mmbench kernel list`)", l);
				return MMB_EUSAGE;
			}
			kernel_entry_release(&e);
		}
		return 0;
	}
	if ((rc = ab_default_labels(o, r)) != 0)
		return rc;
	if (o->new_ref)
		info("ab: A = %s (%s), B = %s (%s +%zu patch argument%s)", r->base_label,
		     o->build.ref ? o->build.ref : "HEAD", r->new_label, o->new_ref,
		     o->build.npatches, o->build.npatches == 1 ? "" : "s");
	else
		info("ab: A = %s (%s), B = %s (+%zu patch argument%s)", r->base_label, o->build.ref,
		     r->new_label, o->build.npatches, o->build.npatches == 1 ? "" : "s");
	if ((rc = build_one(o, r->base_label, false, &r->build_base_s)) < 0 ||
	    (rc = build_one(o, r->new_label, true, &r->build_new_s)) < 0)
		return rc;
	return 0;
}

/* A boot the host disturbed: failed, so that no round and no --last counts it. */
static void ab_set_aside(const char *dbpath, int64_t run_id, const char *why)
{
	struct mmb_db db;
	char *msg;

	if (db_open(&db, dbpath))
		return;
	msg = xasprintf("set aside by ab and booted again: %s", why);
	db_run_env(&db, run_id, "vm.failure", msg, NULL);
	db_run_finish(&db, run_id, "failed");
	free(msg);
	db_close(&db);
}

/*
 * One boot of a round.  A boot the host was busy during is set aside and
 * done again (AB_HOST_RETRIES times at most; then it counts, its
 * iterations disturbed, and compare says so).
 */
static int ab_boot(struct vm_opts *vm, const char *dbpath, struct ab_result *r)
{
	for (int attempt = 0;; attempt++) {
		struct vm_result vr;
		bool again;
		int rc = vm_run(vm, &vr);

		if (rc == 0 && !r->first_sample_s)
			r->first_sample_s = vr.boot_to_first_sample;
		if (rc == 0 && vr.iterations > 0 && vr.boot_to_first_sample > 0) {
			r->boot_s += vr.boot_to_first_sample;
			r->iter_s += (vr.wall - vr.boot_to_first_sample) / vr.iterations;
			r->nboots++;
		}
		/* a KVM probe that fell back decides the rest of the series */
		if (vr.run_id > 0)
			vm->accel = vr.accel;
		again = rc == 0 && vr.host_busy[0] && attempt < AB_HOST_RETRIES;
		if (again) {
			info("ab: run %lld set aside (the host was busy); booting %s again",
			     (long long)vr.run_id, vm->label);
			ab_set_aside(dbpath, vr.run_id, vr.host_busy);
			r->set_aside++;
		} else if (rc == 0 && vr.host_busy[0]) {
			warning("ab: the host stayed busy through %d boots of %s: run %lld counts, "
				"its iterations disturbed", attempt + 1, vm->label, (long long)vr.run_id);
		}
		vm_result_release(&vr);
		if (!again)
			return rc;
	}
}

/*
 * The interleaved rounds A, B, A, B...; rounds an earlier invocation of the
 * same series recorded are not run again.
 */
static int ab_rounds(struct vm_opts *vm, const char *dbpath,
		     const char *text, int rounds, struct ab_result *r)
{
	struct mmb_db db;
	int done, rc;

	if (db_open(&db, dbpath))
		return -1;
	if (db_count_rounds(&db, r->base_label, text, accel_record_name(vm->accel, vm->clock), &done) ||
	    db_count_rounds(&db, r->new_label, text, accel_record_name(vm->accel, vm->clock), &rc)) {
		db_close(&db);
		return -1;
	}
	if (rc < done)
		done = rc;
	db_close(&db);
	if (done)
		info("ab: %d of %d rounds already recorded in %s; resuming", done < rounds ? done : rounds,
		     rounds, dbpath);

	for (int round = done; round < rounds; round++) {
		for (int side = 0; side < 2; side++) {
			vm->label = side ? r->new_label : r->base_label;
			info("ab: round %d/%d: %s", round + 1, rounds, vm->label);
			rc = ab_boot(vm, dbpath, r);
			if (rc < 0) {
				error("ab: round %d on %s failed; measured rounds are kept, re-run the "
				      "same command to resume", round + 1, vm->label);
				return rc;
			}
		}
		r->rounds_run++;
	}
	r->rounds_done = rounds > done ? rounds : done;
	r->accel = vm->accel;
	r->clock = vm->clock;
	return 0;
}

/* Never compare across accelerators silently; say when a label holds older runs. */
static int ab_check_series(const char *dbpath, int rounds, const struct ab_result *r)
{
	struct strbuf accels = STRBUF_INIT;
	struct mmb_db db;
	int rc;

	if (db_open(&db, dbpath))
		return -1;
	if (db_usable_accels(&db, r->base_label, r->new_label, &accels, &rc))
		rc = -1;
	for (int side = 0; side < 2 && rc >= 0; side++) {
		const char *l = side ? r->new_label : r->base_label;
		int n;

		if (db_count_usable(&db, l, &n)) {
			rc = -1;
			break;
		}
		if (n > rounds)
			info("ab: %s holds %d runs in %s; comparing only the newest %d, this "
			     "series' rounds (compare --last %d)", l, n, dbpath, rounds, rounds);
	}
	db_close(&db);
	if (rc > 1) {
		error("ab: the runs of %s and %s were made under different accelerators or clocks "
		      "(%s); comparing them would mix emulation speed into the result. Use a fresh "
		      "--db or the same --accel and --clock as before", r->base_label, r->new_label,
		      accels.buf);
		rc = -1;
	}
	strbuf_release(&accels);
	return rc < 0 ? -1 : 0;
}

/* The widest run-level CI of a KPI, and the variance components of its row and label. */
struct ab_look {
	double worst;			/* % of the label's mean */
	const char *label, *what;	/* where: the ab_result's label, ab_look's buffer */
	size_t side;			/* 0 base, 1 new */
	double between, within;		/* that label's CoVs, % */
};

static void look_row(const struct compare *c, size_t r, struct ab_look *lk, struct strbuf *what)
{
	for (size_t i = 0; i < 2; i++) {
		const struct query_series *s = &c->rows[r].q->series[i];
		double *m = xmalloc((s->n + 1) * sizeof(*m)), hw;
		/* the mean of each run, as the run-level test sees them */
		size_t k = stats_run_means(s->v, s->run_id, s->n, m);

		hw = 100 * precision_rel_halfwidth(m, k);
		free(m);
		if (!(hw > lk->worst))
			continue;	/* NaN never wins; INFINITY (one run) always does */
		lk->worst = hw;
		lk->side = i;
		lk->between = c->rows[r].comp[i].between_cov;
		lk->within = c->rows[r].comp[i].within_cov;
		strbuf_reset(what);
		strbuf_addf(what, "%s %s", c->rows[r].q->workload, c->rows[r].q->metric);
	}
}

/* After `rounds` rounds: the widest KPI CI over both labels (0, or -1). */
static int ab_look(const char *dbpath, const struct ab_result *r, int rounds, struct ab_look *lk,
		   struct strbuf *what)
{
	const char *labels[2] = { r->base_label, r->new_label };
	struct compare_select sel;
	struct compare c;
	struct mmb_db db;
	int rc;

	memset(lk, 0, sizeof(*lk));
	lk->between = lk->within = NAN;
	if (db_open_existing(&db, dbpath))
		return -1;
	compare_select_init(&sel, labels, 2);
	sel.filter.last_runs = rounds;
	sel.need = COMPARE_NEED_ROWS;
	/* look_row() takes each run's mean: the samples stay in the value (one pass) */
	sel.samples = true;
	rc = compare_open(&db, &sel, &c);
	db_close(&db);
	if (rc)
		return -1;
	/* the worst of the rows, each label's CI on its own: never the difference */
	lk->worst = -1;
	for (size_t row = 0; row < c.nr; row++)
		if (!c.rows[row].q->monitor)
			look_row(&c, row, lk, what);
	if (lk->worst < 0)
		lk->worst = INFINITY;	/* no KPI row: never precise */
	lk->what = what->buf;
	lk->label = lk->side ? r->new_label : r->base_label;
	compare_release(&c);
	return 0;
}

/* After the pilot rounds: Kalibera and Jones's plan, said, and the iterations it sets. */
static void ab_plan(const struct ab_opts *o, const struct ab_result *r, const struct ab_look *lk,
		    struct vm_opts *vm)
{
	double boot = r->nboots ? r->boot_s / r->nboots : NAN;
	double iter = r->nboots ? r->iter_s / r->nboots : NAN;
	size_t per, runs;

	if (stats_plan_levels(lk->between, lk->within, boot, iter, 100 * o->precision, &per,
			      &runs)) {
		info("ab: no plan from the first rounds (between-run %.1f%%, within %.1f%%): "
		     "keeping the experiment's iterations", lk->between, lk->within);
		return;
	}
	info("ab: %s: boot-to-boot %.1f%%, within a boot %.1f%%; a boot costs %.1f s, an "
	     "iteration %.2f s: %zu iteration%s per boot, ~%zu boots per side for +-%.3g%%",
	     lk->label, lk->between, lk->within, boot, iter, per, per == 1 ? "" : "s", runs,
	     100 * o->precision);
	vm->iterations = (int)(per > 100000 ? 100000 : per);
}

int ab_precision_next(const struct ab_opts *o, const char *dbpath, struct ab_result *r, size_t k,
		      bool *was, size_t *next)
{
	size_t max = o->max_rounds > 0 ? (size_t)o->max_rounds : 30;
	struct strbuf what = STRBUF_INIT;
	struct ab_look lk;

	if (ab_look(dbpath, r, (int)k, &lk, &what)) {
		strbuf_release(&what);
		return -1;
	}
	info("ab: after %zu round%s: widest 95%% CI +-%.2f%% (%s, %s), target +-%.3g%%", k,
	     k == 1 ? "" : "s", lk.worst, lk.label ? lk.label : "-", lk.what, 100 * o->precision);
	*next = stats_rounds_next(k, lk.worst <= 100 * o->precision, was, max);
	r->halfwidth = lk.worst;
	if (!*next && !(lk.worst <= 100 * o->precision))
		warning("ab: --precision %.3g%% not reached in --max-rounds %zu: the widest CI is "
			"+-%.2f%% (%s, %s)", 100 * o->precision, max, lk.worst, lk.label ? lk.label : "-",
			lk.what);
	strbuf_release(&what);
	return 0;
}

/* ab --precision: the pilot rounds, then more until every label is precise. */
static int ab_rounds_precise(const struct ab_opts *o, struct vm_opts *vm, const char *dbpath,
			     const char *text, int *rounds, struct ab_result *r)
{
	size_t k = (size_t)*rounds, next;
	bool was = false, planned = false;

	for (;;) {
		if (ab_rounds(vm, dbpath, text, (int)k, r) < 0 ||
		    ab_precision_next(o, dbpath, r, k, &was, &next))
			return -1;
		if (!planned) {
			struct strbuf what = STRBUF_INIT;
			struct ab_look lk;
			int rc = ab_look(dbpath, r, (int)k, &lk, &what);

			if (!rc)
				ab_plan(o, r, &lk, vm);
			strbuf_release(&what);
			if (rc)
				return -1;
			planned = true;
		}
		if (!next)
			break;
		k = next;
	}
	*rounds = (int)k;
	return 0;
}

int ab_report(const struct ab_opts *o, const char *dbpath, int rounds, struct ab_result *r)
{
	struct mmb_db db;

	if (ab_check_series(dbpath, rounds, r) < 0)
		return -1;
	if ((!o->no_compare || !o->no_plots) && db_open_existing(&db, dbpath) == 0) {
		/* only this series' rounds: a label may hold older runs (drift) */
		const char *labels[2] = { r->base_label, r->new_label };
		struct compare_select sel;

		compare_select_init(&sel, labels, 2);
		sel.filter.last_runs = rounds;
		sel.monitors = MONITORS_CHANGED;	/* the why rows, as compare lists them */
		if (!o->no_compare)
			r->compare_rc = ab_compare(&db, &sel, o->compare_format);
		if (!o->no_plots)
			ab_plots(&db, &sel, o->plot_dir, dbpath, r);
		db_close(&db);
	} else if (!o->no_compare) {
		r->compare_rc = EXIT_RUNTIME;
	}
	return r->compare_rc > 0 ? -1 : 0;
}

/*
 * No --arch (reproduce, labels built before): the kernels' own, so an
 * arm64 pair on an x86_64 host is booted under TCG, not probed with KVM.
 * 0, or MMB_EUSAGE after a message.
 */
static int ab_kernel_arch(const char *cache, const struct ab_result *r, struct vm_opts *vm)
{
	struct kernel_entry e;

	if (vm->arch || kbuild_find(cache, r->base_label, &e) < 0)
		return 0;
	vm->arch = e.arch;
	kernel_entry_release(&e);
	return vm_arch_check(vm->arch, &vm->accel, vm->machine) < 0 ? MMB_EUSAGE : 0;
}

int ab_run(const struct ab_opts *o, struct ab_result *r)
{
	const char *cache = o->vm.cache_dir ? o->vm.cache_dir : kbuild_cache_dir();
	const char *dbpath = db_default_path(o->vm.db_path);
	struct strbuf text = STRBUF_INIT;
	struct vm_opts vm = o->vm;
	int rounds = o->rounds > 0 ? o->rounds : 3, ret;
	double t0 = now_wall();
	char why[256];

	memset(r, 0, sizeof(*r));
	r->compare_rc = -1;
	if (read_input(&text, o->experiment, MMB_CAP_EXPERIMENT, "an experiment config") < 0) {
		strbuf_release(&text);
		return MMB_EUSAGE;
	}
	/* one accelerator and clock for every boot */
	if (vm_clock_check(&vm.accel, vm.clock, vm.cpus) < 0 ||
	    vm_arch_check(vm.arch, &vm.accel, vm.machine) < 0) {
		ret = MMB_EUSAGE;
		goto out;
	}
	/* an arm64 guest's programs: missing, said before the kernels are built */
	if (vm.arch && initramfs_guest_ready(vm.arch) < 0) {
		ret = MMB_EUSAGE;
		goto out;
	}
	if ((ret = ab_labels(o, cache, r)) < 0 || (ret = ab_kernel_arch(cache, r, &vm)) < 0)
		goto out;
	vm.accel = vm_pick_accel(vm.accel, cache, why, sizeof(why));
	if (o->vm.accel == ACCEL_AUTO && vm.accel == ACCEL_TCG && vm.clock == VM_CLOCK_REAL)
		info("ab: using TCG (no KVM: %s)", why);
	vm.experiment = o->experiment;
	if ((ret = o->precision > 0 ? ab_rounds_precise(o, &vm, dbpath, text.buf, &rounds, r) :
		   ab_rounds(&vm, dbpath, text.buf, rounds, r)) < 0)
		goto out;
	ret = ab_report(o, dbpath, rounds, r);
	r->wall = now_wall() - t0;
out:
	strbuf_release(&text);
	return ret;
}
