/*
 * Moving results from a guest into the host's database, as a stream.
 *
 * The guest agent (`mmbench vm guest`) runs the experiment with the stream
 * sink (db/sink.h) on a virtio-serial port: each row is a text record the
 * moment the runner has it, and the guest writes no database.  The host
 * appends what arrives to a file and merges each complete record into its
 * own DB at once, under the host's run id (bound parameters only).  A guest
 * that panics mid-run therefore loses at most the iteration in flight:
 * everything streamed before is already merged.
 *
 * Records are lines, fields separated by TAB, with \\, \t, \n and \r
 * escaped and \N for NULL:
 *   V  mmbench-stream 1                     first line
 *   M  ncpus mem_bytes cpu_model release version cmdline     guest facts
 *   R  experiment config_path config_text release version cmdline
 *      config_hash harness_version git_sha compiler         the guest's run
 *   E  key value original                   run_env row the run set
 *   N  key value                            run_env row as found (an E row of
 *                                           the same key stays)
 *   I  workload variant params iteration warmup status reason started
 *      elapsed nsamples nmonitors disturbed interference variant_json
 *                                           then nsamples S and nmonitors O
 *                                           (variant_json: the variant typed,
 *                                           series.params_json; \N: typed
 *                                           from the text)
 *   S  metric unit better seq value
 *   O  source key delta
 *   P  workload variant event note samples  a profile (run --profile), then
 *      kind name pct ...                    one triple per entry (kind: self
 *                                           or calltrace; pct 0..100)
 *   F  status                               the guest run's final status
 *   X  rc                                   the runner's exit code
 *   H  uptime                               heartbeat (guest alive)
 *   L  text                                 a message for the host's user
 */
#ifndef MMB_GUEST_STREAM_H
#define MMB_GUEST_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

struct strbuf;

/* ---- guest side (the stream sink writes the run's records) ---- */
/* Append one record; fields may be NULL. */
void mstream_record(struct strbuf *out, char type, const char *const *fields, int n);

/* ---- host side ---- */
struct merge_ctx {
	struct mmb_db *db;
	int64_t run_id;			/* host run receiving the rows */
	struct strbuf *line;		/* incomplete line carried between feeds */
	/* iteration being assembled */
	char **iter;			/* I fields (MSTREAM_ITER_FIELDS) */
	int need_s, need_o;
	struct sample_info *samples;
	char **sample_strs;		/* metric/unit storage */
	int nsamples;
	char **mon_keys;
	double *mon_deltas;
	int nmon;
	/* what arrived */
	int records, iterations, nsamples_total;
	bool have_version, have_run, have_machine, have_exit;
	int exit_code;
	char *guest_status;		/* from F */
	int guest_ncpus;
	uint64_t guest_mem;
	char *guest_release;
	double first_sample_wall;	/* now_wall() when the first sample merged (0: none) */
	double last_record_wall;
	double first_record_wall;	/* now_wall() when the first record arrived (0: none) */
	char *last_message;		/* latest L record */
};

void merge_init(struct merge_ctx *m, struct mmb_db *db, int64_t run_id);
void merge_release(struct merge_ctx *m);
/*
 * Feed stream bytes (any split).  Complete records are merged at once;
 * returns 0, or -1 after printing what was malformed (the stream is then
 * no longer trusted; what merged so far stays).
 */
int merge_feed(struct merge_ctx *m, const char *data, size_t len);

/* Escaping, exposed for tests. */
void mstream_escape(struct strbuf *out, const char *s);
/* Split one line (no newline) into malloc'ed unescaped fields; NULL for \N. */
char **mstream_split(const char *line, int *n);
void mstream_fields_free(char **f, int n);

#endif
