/*
 * mmbench export [--db FILE] [--format csv|json] [--label L]... [--run N]...
 *
 * Writes the usable runs (what compare pools) in the form `mmbench import`
 * reads back.  json: every row of the runs, their kernels, machines,
 * environment, iterations, samples and monitors (db/dump.h), lossless.
 * csv: the samples only,
 *   label,run,workload,variant,metric,unit,better,iteration,seq,value
 * one row per sample, by run then recording order; run is the run's id
 * here, which import uses only to keep the runs apart.  Values are
 * printed with 17 significant digits, so they read back bit for bit.
 */
#include "builtin.h"
#include "db.h"
#include "dump.h"
#include "fmtnum.h"
#include "parse-options.h"
#include "read.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_ARGS ""

/*
 * CSV rows fill buf while a writer thread writes the buffer before it
 * (the copy into the page cache is ~40% of export's CPU): one buffer in
 * flight at a time, so the bytes go out in order.
 */
struct export_writer {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct strbuf job;	/* being written while busy */
	bool started, busy, stop, failed;
};

struct export_out {
	struct strbuf buf, prefix;
	size_t rows;
	bool failed;
	struct export_writer w;
};

static void *writer_main(void *arg)
{
	struct export_writer *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		bool bad;

		while (!w->busy && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->mu);
		bad = fwrite(w->job.buf, 1, w->job.len, stdout) != w->job.len;
		pthread_mutex_lock(&w->mu);
		w->failed |= bad;
		w->busy = false;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Wait for the buffer in flight; with stop, end the thread: whether a write failed. */
static bool writer_wait(struct export_writer *w, bool stop)
{
	bool failed;

	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	w->stop = stop;
	failed = w->failed;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return failed;
}

static int flush_out(struct export_out *o)
{
	struct export_writer *w = &o->w;

	if (!w->started) {
		if (o->buf.len && fwrite(o->buf.buf, 1, o->buf.len, stdout) != o->buf.len)
			o->failed = true;
	} else if (o->buf.len) {
		struct strbuf t;

		o->failed |= writer_wait(w, false);
		pthread_mutex_lock(&w->mu);
		t = w->job;
		w->job = o->buf;
		o->buf = t;
		w->busy = true;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	strbuf_reset(&o->buf);
	return o->failed ? error("cannot write the export: standard output failed") : 0;
}

/* The writer thread, or (none could start) every flush writing itself. */
static void writer_start(struct export_writer *w)
{
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->started = !pthread_create(&w->th, NULL, writer_main, w);
}

/* The last buffer written, the thread ended: 0 or -1 (said). */
static int writer_finish(struct export_out *o)
{
	struct export_writer *w = &o->w;
	bool said = o->failed;	/* a flush already said it */

	if (!w->started)
		return 0;
	o->failed |= writer_wait(w, true);
	pthread_join(w->th, NULL);
	w->started = false;
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	strbuf_release(&w->job);
	return o->failed && !said ? error("cannot write the export: standard output failed") : 0;
}

static int export_row(const struct db_export_row *r, void *arg)
{
	struct export_out *o = arg;
	char tail[2 * 11 + FMT_G17_MAX + 3];
	size_t n;

	/* a block's samples share everything before the iteration: quote it once */
	if (!r->same_names) {
		strbuf_reset(&o->prefix);
		strbuf_add_csv(&o->prefix, r->label);
		strbuf_addf(&o->prefix, ",%lld,", (long long)r->run_id);
		strbuf_add_csv(&o->prefix, r->workload);
		strbuf_addch(&o->prefix, ',');
		strbuf_add_csv(&o->prefix, r->variant);
		strbuf_addch(&o->prefix, ',');
		strbuf_add_csv(&o->prefix, r->metric);
		strbuf_addch(&o->prefix, ',');
		strbuf_add_csv(&o->prefix, r->unit);
		strbuf_addstr(&o->prefix, r->better < 0 ? ",lower," : ",higher,");
	}
	/* "%d,%d,%.17g\n" without printf's cost: export is mostly this line */
	n = fmt_int(tail, r->iteration);
	tail[n++] = ',';
	n += fmt_int(tail + n, r->seq);
	tail[n++] = ',';
	n += fmt_g17(tail + n, r->value);
	tail[n++] = '\n';
	strbuf_add(&o->buf, o->prefix.buf, o->prefix.len);
	strbuf_add(&o->buf, tail, n);
	o->rows++;
	return o->buf.len > (1 << 20) ? flush_out(o) : 0;
}

static int flush_json(struct strbuf *sb, void *arg)
{
	struct export_out *o = arg;

	return flush_out(o);
}

static int add_run(const struct option *opt, const char *arg)
{
	struct { int64_t *v; size_t nr, alloc; } *runs = opt->value;
	char *end;
	long long v = strtoll(arg, &end, 10);

	if (!*arg || *end || v < 1)
		return error("--run '%s': expected a run id (see `mmbench list runs`)", arg);
	ALLOC_GROW(runs->v, runs->nr + 1, runs->alloc);
	runs->v[runs->nr++] = v;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	const char *dbpath = NULL, *format = "csv";
	const char **labels = NULL;
	size_t nlabels = 0;
	struct { int64_t *v; size_t nr, alloc; } runs = { 0 };
	struct export_out o = { .buf = STRBUF_INIT, .prefix = STRBUF_INIT };
	struct mmb_db db;
	int ret = EXIT_USAGE, n;
	const struct option opts[] = {
		OPT_STRING(0, "db", &dbpath, "FILE", "results database"),
		OPT_STRING(0, "format", &format, "F", "csv (samples) or json (everything)"),
		OPT_LIST(0, "label", &labels, &nlabels, "L", "only the runs of kernel label L"),
		OPT_CALLBACK(0, "run", &runs, "N", "only run N", add_run),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, "export", EXPORT_ARGS, 0);
	if (n < 0)
		goto out;
	if (n > 0) {
		error("export takes no operands ('%s'): select with --label and --run", argv[0]);
		parse_options_usage(stderr, opts, "export", EXPORT_ARGS);
		goto out;
	}
	if (strcmp(format, "csv") && strcmp(format, "json")) {
		error("--format '%s': export writes csv or json (the forms `mmbench import` reads)",
		      format);
		goto out;
	}
	db_single_thread();
	if ((ret = command_open_db(&db, dbpath)))
		goto out;
	if (!strcmp(format, "json")) {
		n = db_dump_json(&db, labels, nlabels, runs.v, runs.nr, &o.buf, flush_json, &o,
				 &o.rows);
	} else {
		strbuf_addstr(&o.buf, "label,run,workload,variant,metric,unit,better,iteration,"
			      "seq,value\n");
		writer_start(&o.w);
		n = db_export_samples(&db, labels, nlabels, runs.v, runs.nr, export_row, &o);
	}
	if (!n)
		n = flush_out(&o);
	if (writer_finish(&o) && !n)
		n = -1;
	if (!n && fflush(stdout))
		n = error("cannot write the export: standard output failed");
	ret = n == -2 ? EXIT_USAGE : n ? EXIT_RUNTIME : EXIT_OK;
	if (!n)
		info("exported %zu %s", o.rows, strcmp(format, "json") ? "samples" : "runs");
	db_close(&db);
out:
	strbuf_release(&o.buf);
	strbuf_release(&o.prefix);
	free(runs.v);
	free(labels);
	return ret;
}
