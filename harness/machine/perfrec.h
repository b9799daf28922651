/*
 * run --profile: one extra iteration per variant under `perf record -g`
 * (docs/profiles.md).  perf is an external program, exec'ed with an argv
 * (never a shell) and attached to the iteration child with -p before the
 * child runs any plugin code; it starts with its events disabled and the
 * child turns them on around run() through perf's --control socket, off
 * at timed_end.  `perf script` is parsed here into the share of the
 * sampled period per symbol (self) and per call chain (calltrace).
 */
#ifndef MMB_PERFREC_H
#define MMB_PERFREC_H

#include "sink.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Frames of a calltrace key: the innermost ones, caller first. */
#define PROFILE_CHAIN_DEPTH 5
/* a symbol longer than this is cut (C++ templates) */
#define PROFILE_SYM_MAX 128
/* Entries below this share of the period are not stored. */
#define PROFILE_STORE_MIN 0.05

/* ---- the perf script parser ---- */

struct profile_map;	/* name -> period, private (profagg.c) */
struct ksampler;

struct profile_agg {
	struct profile_map *map[PROFILE_NKINDS];
	double total;		/* sum of the samples' periods */
	int64_t samples;
};

void profile_agg_init(struct profile_agg *a);
void profile_agg_release(struct profile_agg *a);
/*
 * Add the samples of `perf script -F period,ip,sym,dso` output.  0, or -1
 * with err naming the line and what was wrong.
 */
int profile_agg_parse(struct profile_agg *a, FILE *f, char *err, size_t errlen);
/*
 * One sample of period: its frames leaf first ("[unknown]" where not
 * known), kept as the parser keeps perf script's.
 */
void profile_agg_add(struct profile_agg *a, double period, const char *const *frames, size_t n);
/*
 * The entries of both kinds whose share is at least min_pct, each kind
 * largest first (ties by name); *out is malloc'ed, names too.
 */
size_t profile_agg_entries(const struct profile_agg *a, double min_pct,
			   struct profile_entry **out);
void profile_entries_free(struct profile_entry *e, size_t n);

/* ---- perf itself ---- */

/* profiles.note of the built-in sampler's profiles */
#define PERFREC_BUILTIN_NOTE "built-in sampler, every CPU"

struct perfrec_probe {
	bool usable;
	const char *event;	/* "cycles", or "cpu-clock" without a hardware PMU */
	bool no_pmu;
	bool builtin;		/* the built-in sampler (ksample.h): no perf here, or asked for */
	char perf[256];		/* the program: $MMBENCH_PERF, else perf on PATH */
	char why[1024];		/* !usable: why not */
};

/*
 * Once per run: is perf there and allowed, and which event it samples;
 * without perf, or with MMBENCH_PERF=builtin, the built-in sampler.
 */
void perfrec_probe(struct perfrec_probe *p);

struct perfrec {
	const struct perfrec_probe *probe;
	char *data, *log;	/* perf.data and perf's messages, in the state folder */
	int ctl[2], ack[2];	/* socketpairs to perf's --control: [0] ours, [1] perf's */
	int64_t run_id;
	pid_t pid;		/* perf record; 0 when not running */
	bool attached;		/* perf acknowledged: events open on the child */
	bool on;		/* child: events enabled */
	struct ksampler *ks;	/* the built-in sampler instead of perf, or NULL */
	char why[1024];		/* what went wrong, "" while nothing did */
};

/*
 * Before the iteration child is forked: name the files (under the state
 * folder's profile/, per run and variant) and make the control sockets.
 * 0, or -1 after saying why.
 */
int perfrec_begin(struct perfrec *r, const struct perfrec_probe *p, int64_t run_id,
		  const char *workload, const char *variant);
/* Parent, after the child is contained and before it may go on: start perf on it (r NULL: no-op). */
void perfrec_attach(struct perfrec *r, pid_t child);
/* Child: first thing (drops perf's ends of the sockets). */
void perfrec_child_init(struct perfrec *r);
/* Child: events on or off (waits for perf's acknowledgement). */
void perfrec_child_enable(struct perfrec *r, bool on);
/* Parent, while the child runs: the built-in sampler's rings drained (NULL or perf: no-op). */
void perfrec_poll(struct perfrec *r);
/* Parent, once the child was reaped (before its leftovers are swept): perf's end (NULL: no-op). */
void perfrec_stop(struct perfrec *r);
/* Parent: `perf script` of the data into a; 0, or -1 with r->why set. */
int perfrec_read(struct perfrec *r, struct profile_agg *a);
/*
 * Parent: read the profile and store it under the run (p names the
 * workload and variant); says what it got, or warns why there is none.
 * 0 or -1.
 */
int perfrec_store(struct perfrec *r, struct result_sink *sink, const struct profile_info *p);
void perfrec_release(struct perfrec *r);

#endif
