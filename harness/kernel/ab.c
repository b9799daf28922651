#include "ab.h"
#include "compare.h"
#include "monitors.h"
#include "db.h"
#include "plotdb.h"
#include "read.h"
#include "kbuild.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int ab_opts_parse(struct ab_opts *o, int argc, char **argv)
{
	const struct option opts[] = {
		OPT_STRING(0, "tree", &o->build.tree, "DIR", "git work tree of the kernel"),
		OPT_STRING(0, "base", &o->build.ref, "REF", "base commit"),
		OPT_LIST(0, "patch", &o->build.patches, &o->build.npatches, "P", "the series"),
		OPT_LIST(0, "config", &o->build.fragments, &o->build.nfragments, "FRAG",
			 "config fragment for both kernels"),
		OPT_STRING(0, "base-config", &o->build.base_config, "B",
			   "defconfig, tinyconfig or a config file"),
		OPT_STRING(0, "base-name", &o->base_label, "L", "label of the base kernel"),
		OPT_STRING(0, "new-name", &o->new_label, "L", "label of the patched kernel"),
		OPT_INT_RANGE(0, "rounds", &o->rounds, 1, 1000, "N", "A/B rounds"),
		OPT_INT_RANGE(0, "jobs", &o->build.jobs, 1, 4096, "N", "parallel make jobs"),
		OPT_STRING(0, "plots", &o->plot_dir, "DIR", "where to write the plots"),
		OPT_BOOL(0, "no-plots", &o->no_plots, "do not draw plots"),
		OPT_STRING(0, "format", &o->compare_format, "F", "compare table format"),
		VM_OPTIONS(&o->vm),
		OPT_STRING(0, "db", &o->vm.db_path, "FILE", "results database"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, "ab", "CONFIG.yaml", 0);

	if (n < 0)
		return -1;
	if (n > 1)
		return error("ab: one CONFIG.yaml only ('%s' and '%s')", argv[0], argv[1]);
	o->experiment = argv[0];
	if (!o->experiment)
		return error("ab: which CONFIG.yaml?");
	if (o->compare_format && compare_format_parse(o->compare_format, &(enum compare_format){ 0 }))
		return error("ab: unknown --format '%s' (formats: mmtests, lkp, markdown, csv, json)",
			     o->compare_format);
	if (!o->build.tree && (!o->base_label || !o->new_label))
		return error("ab: --tree DIR is required (or --base-name and --new-name of built kernels)");
	if (o->build.tree && !o->build.npatches)
		return error("ab: no --patch given: the new kernel would be the base kernel");
	if (o->base_label && o->new_label && !strcmp(o->base_label, o->new_label))
		return error("ab: --base-name and --new-name are both '%s'", o->base_label);
	if (o->build.tree && kbuild_ref_check("ab: --base", o->build.ref))
		return -1;
	for (size_t i = 0; i < o->build.npatches; i++)
		/* not a file, so a range: refused before anything runs */
		if (o->build.patches[i][0] == '-' && access(o->build.patches[i], F_OK) < 0 &&
		    kbuild_ref_check("ab: --patch", o->build.patches[i]))
			return -1;
	return 0;
}

/* `mmbench compare --last N BASE NEW` of the series; compare's exit code. */
static int ab_compare(struct mmb_db *db, struct compare_select *sel, const char *format)
{
	enum compare_format f = CMP_TEXT;

	if (format)
		compare_format_parse(format, &f);	/* checked by ab_opts_parse() */
	fflush(stdout);
	sel->need = COMPARE_NEED_COMMON;
	sel->meta = true;
	return compare_show(db, sel, f, stdout);
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

	if (!with_patches) {
		k.patches = NULL;
		k.npatches = 0;
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
	struct kbuild_opts k = o->build;

	k.cache_dir = o->vm.cache_dir;
	if (o->base_label) {
		r->base_label = xstrdup(o->base_label);
	} else {
		char *sha = kbuild_resolve_ref(o->build.tree, o->build.ref);

		if (!sha)
			return MMB_EUSAGE;
		r->base_label = xstrndup(sha, 12);
		free(sha);
	}
	if (o->new_label) {
		r->new_label = xstrdup(o->new_label);
	} else {
		char *subj = kbuild_series_subject(&k);

		if (!subj) {
			error("ab: cannot read a subject from the series; give --new-name");
			return MMB_EUSAGE;
		}
		r->new_label = kbuild_label_from_text(subj, 60);
		free(subj);
	}
	if (!strcmp(r->base_label, r->new_label)) {
		error("ab: base and new kernels would both be labelled '%s'; give --new-name",
		      r->base_label);
		return MMB_EUSAGE;
	}
	info("ab: A = %s (%s), B = %s (+%zu patch argument%s)", r->base_label, o->build.ref,
	     r->new_label, o->build.npatches, o->build.npatches == 1 ? "" : "s");
	if ((rc = build_one(o, r->base_label, false, &r->build_base_s)) < 0 ||
	    (rc = build_one(o, r->new_label, true, &r->build_new_s)) < 0)
		return rc;
	return 0;
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
	if (db_count_rounds(&db, r->base_label, text, accel_name(vm->accel), &done) ||
	    db_count_rounds(&db, r->new_label, text, accel_name(vm->accel), &rc)) {
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
			struct vm_result vr;

			vm->label = side ? r->new_label : r->base_label;
			info("ab: round %d/%d: %s", round + 1, rounds, vm->label);
			rc = vm_run(vm, &vr);
			if (rc == 0 && !r->first_sample_s)
				r->first_sample_s = vr.boot_to_first_sample;
			/* a KVM probe that fell back decides the rest of the series */
			if (vr.run_id > 0)
				vm->accel = vr.accel;
			vm_result_release(&vr);
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
		error("ab: the runs of %s and %s were made under different accelerators (%s); "
		      "comparing them would mix emulation speed into the result. Use a fresh --db "
		      "or the same --accel as before", r->base_label, r->new_label, accels.buf);
		rc = -1;
	}
	strbuf_release(&accels);
	return rc < 0 ? -1 : 0;
}

int ab_run(const struct ab_opts *o, struct ab_result *r)
{
	const char *cache = o->vm.cache_dir ? o->vm.cache_dir : kbuild_cache_dir();
	const char *dbpath = db_default_path(o->vm.db_path);
	struct strbuf text = STRBUF_INIT;
	struct mmb_db db;
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
	if ((ret = ab_labels(o, cache, r)) < 0)
		goto out;

	/* one accelerator for every boot */
	vm.accel = vm_pick_accel(o->vm.accel, cache, why, sizeof(why));
	if (o->vm.accel == ACCEL_AUTO && vm.accel == ACCEL_TCG)
		info("ab: using TCG (no KVM: %s)", why);
	vm.experiment = o->experiment;
	if ((ret = ab_rounds(&vm, dbpath, text.buf, rounds, r)) < 0 ||
	    (ret = ab_check_series(dbpath, rounds, r)) < 0)
		goto out;

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
	r->wall = now_wall() - t0;
	ret = r->compare_rc > 0 ? -1 : 0;
out:
	strbuf_release(&text);
	return ret;
}
