/*
 * The built-in sampler of run --profile (docs/profiles.md): where perf is
 * missing (an arm64 guest's initramfs has busybox and our programs only)
 * or MMBENCH_PERF=builtin asks for it.  perf_event_open(2) of cpu-clock on
 * every CPU, system-wide, sampling the IP and the kernel call chain into a
 * ring buffer per CPU, enabled only in the plugin's timed region; kernel
 * addresses are named from /proc/kallsyms, user ones count as [user].
 */
#ifndef MMB_KSAMPLE_H
#define MMB_KSAMPLE_H

#include "perfrec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Samples a second per CPU (not 1000: out of step with the timer tick). */
#define KSAMPLE_FREQ 997

/* ---- kernel symbols ---- */

struct ksyms {
	uint64_t *addr;		/* ascending */
	char **name;
	size_t n;
};

/*
 * Read /proc/kallsyms' format ("ADDR TYPE NAME [MODULE]"): the text
 * symbols (t, T, w, W).  0, or -1 with err naming the line; no symbol, or
 * every address 0 (kptr_restrict), is not an error: k->n is then 0.
 */
int ksyms_load(struct ksyms *k, FILE *f, char *err, size_t errlen);
/* The symbol that holds ip: the last one at or below it; NULL below the first. */
const char *ksyms_find(const struct ksyms *k, uint64_t ip);
void ksyms_release(struct ksyms *k);

/*
 * One ring-buffer record (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN) into a,
 * weighted by period: a sample's frames are its kernel call chain, named
 * by k ([kernel] without symbols), or [user].  Other record types count
 * in *lost when PERF_RECORD_LOST, else are skipped.  0, or -1 with err
 * saying what is malformed.
 */
int ksample_record(struct profile_agg *a, const struct ksyms *k, double period,
		   const void *rec, size_t len, int64_t *lost, char *err, size_t errlen);

/* ---- the sampler ---- */

struct ksampler {
	int n;			/* CPUs with an event */
	int *fd;
	unsigned char **ring;	/* the mmap of each, NULL when none */
	size_t ring_len;
	double period;		/* ns */
	int64_t lost;
	struct ksyms syms;
	char syms_why[256];	/* why kernel samples are not named, "" when they are */
	struct profile_agg agg;
	char err[256];		/* a malformed record: sampling stopped */
};

/* Can this process sample every CPU?  0, or -1 with why (paranoid, no PERF_EVENTS). */
int ksampler_probe(char *why, size_t len);
/* Open (disabled) and map the events, read kallsyms.  0, or -1 with why. */
int ksampler_open(struct ksampler *s, char *why, size_t len);
/* Events on or off (the timed region; a forked child may do it). */
void ksampler_enable(struct ksampler *s, bool on);
/* Take what the rings hold into s->agg (the parent, while the child runs and after). */
void ksampler_drain(struct ksampler *s);
void ksampler_close(struct ksampler *s);

#endif
