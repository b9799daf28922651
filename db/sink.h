/*
 * Where a run's results go: a sink takes the run's row, its environment
 * rows, one record per iteration (its row, samples, monitor deltas and the
 * interference record) and the final status, and nothing in the runner
 * knows what is behind it.
 *
 *   sqlite sink   the results DB (db_iteration_add: one transaction each)
 *   stream sink   mmbench-stream records (db/guest-stream.h) on a file descriptor,
 *                 e.g. a guest's virtio port; merge_feed() on the other end
 *                 writes the same rows into the host's DB
 *
 * struct iteration_record carries its size and only grows at the end
 * (SQLite's and perf's rule): a sink reads a field only when the record
 * the writer built is long enough to hold it.
 */
#ifndef MMB_SINK_H
#define MMB_SINK_H

#include "db.h"
#include "profile.h"

#include <stddef.h>
#include <stdint.h>

struct strbuf;

struct iteration_record {
	size_t size;				/* sizeof at the writer */
	const struct iteration_info *it;	/* incl. disturbed, interference level */
	const struct sample_info *samples;	/* none for a failed or skipped one */
	size_t nsamples;
	const char *const *mon_keys;		/* "source:key"; the interference
						   record is source "interference" */
	const double *mon_values;
	size_t nmon;
	const char *mon_source;			/* source of keys without one */
};
#define ITERATION_RECORD_INIT { .size = sizeof(struct iteration_record) }

struct result_sink;
struct result_sink_ops {
	const char *name;
	/* the run's row: sqlite begins it (s->run_id), stream sends R */
	int (*run)(struct result_sink *s, const struct run_info *ri);
	/* one run_env row; original NULL when the run did not change it */
	int (*env)(struct result_sink *s, const char *key, const char *value,
		   const char *original);
	/* run_env rows as found on the machine: a key env() recorded keeps its row */
	int (*env_found)(struct result_sink *s, const char *const *keys,
			 const char *const *values, size_t n);
	/* 0 or -1 after printing why (the run then stops: nothing is kept in memory) */
	int (*iteration)(struct result_sink *s, const struct iteration_record *r);
	/* the run's final status: complete, interrupted or failed */
	int (*finish)(struct result_sink *s, const char *status);
	/* run --profile: a variant's profile (ops grow only at the end) */
	int (*profile)(struct result_sink *s, const struct profile_info *p,
		       const struct profile_entry *e, size_t n);
};

struct result_sink {
	const struct result_sink_ops *ops;
	struct mmb_db *db;		/* sqlite */
	int64_t run_id;			/* sqlite: the run the rows belong to */
	int fd;				/* stream */
};

/* run_id 0: sink_run() begins the run (the row's id is then s->run_id) */
void sink_sqlite_init(struct result_sink *s, struct mmb_db *db, int64_t run_id);
void sink_stream_init(struct result_sink *s, int fd);

static inline int sink_run(struct result_sink *s, const struct run_info *ri)
{
	return s->ops->run(s, ri);
}

static inline int sink_env(struct result_sink *s, const char *key, const char *value,
			   const char *original)
{
	return s->ops->env(s, key, value, original);
}

static inline int sink_env_found(struct result_sink *s, const char *const *keys,
				 const char *const *values, size_t n)
{
	return s->ops->env_found(s, keys, values, n);
}

static inline int sink_iteration(struct result_sink *s, const struct iteration_record *r)
{
	return s->ops->iteration(s, r);
}

static inline int sink_finish(struct result_sink *s, const char *status)
{
	return s->ops->finish(s, status);
}

static inline int sink_profile(struct result_sink *s, const struct profile_info *p,
			       const struct profile_entry *e, size_t n)
{
	return s->ops->profile(s, p, e, n);
}

#endif
