/*
 * The plan: an experiment resolved against the plugins.  Every workload's
 * parameters are parsed with their types and units, checked against the
 * descriptor, and list-valued ones expanded into a matrix of variants.
 */
#ifndef MMB_PLAN_H
#define MMB_PLAN_H

#include "config.h"
#include "plugin.h"
#include "units.h"
#include "variant.h"

struct plan_variant {
	struct mmb_value *values;	/* one per descriptor param */
	char *variant;			/* matrix params only: "clients=4,mode=threads" */
	struct variant typed;		/* the same params with their types and values */
	char *variant_json;		/* typed as the database keeps it (variant.h) */
	char *params_text;		/* every param: "size=1G clients=4 mode=threads" */
	const char *unsupported;	/* supported()'s reason, NULL when it can run */
	/* run --resume (resume.h): what the interrupted run recorded */
	int resume_measured;		/* measured iterations 1..N already in the DB */
	int resume_warmups;		/* warm-up rows there (new ones number on below) */
	bool resume_done;		/* nothing left to run */
};

struct plan_workload {
	struct plugin plugin;
	const struct cfg_workload *cfg;
	int iterations, warmup;
	int64_t timeout_ns;
	struct plan_variant *variants;
	size_t nvariants;
	char **strings;			/* storage behind mmb_value.s */
	size_t nstrings, astrings;
};

struct plan_opts {
	int iterations;		/* > 0: override every workload's count */
	bool quick;		/* 2 iterations, no warm-up: a smoke test */
	const char *only;	/* run only this workload (NULL: all) */
};

struct plan {
	struct experiment *exp;
	struct plan_workload *wls;
	size_t nwls;
	size_t total_iterations;	/* warm-up included, for progress/ETA */
	double precision;		/* run --precision (0: off), a fraction */
	int min_iterations, max_iterations;	/* its bounds on measured iterations */
	bool profile;			/* run --profile: a perf profile per variant */
};

/*
 * 0, -1 after an error in the experiment (file:line:col), or
 * PLAN_PLUGIN_CRASHED when a plugin's supported()/check_params() crashed
 * (a runtime failure, not the user's input).
 */
#define PLAN_PLUGIN_CRASHED (-2)
int plan_build(struct plan *p, struct experiment *e, const struct unit_ctx *u,
	       const struct plan_opts *o);
void plan_release(struct plan *p);

/* An int, size or duration value for messages: "42", "1.0G", "300s". */
void plan_format_value(enum mmb_param_type t, int64_t v, char *buf, size_t len);

/* Parse one value of a parameter; err gets the reason. */
int plan_parse_value(const struct mmb_param_def *d, const char *text,
		     const struct unit_ctx *u, struct mmb_value *out,
		     char *err, size_t errlen);

#endif
