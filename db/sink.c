#include "sink.h"
#include "merge.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A field of r the writer may be too old to have filled. */
#define HAS(r, field) ((r)->size >= offsetof(struct iteration_record, field) + sizeof((r)->field))

/* ---- sqlite ---- */

static int sqlite_env(struct result_sink *s, const char *key, const char *value,
		      const char *original)
{
	return db_run_env(s->db, s->run_id, key, value, original);
}

static int sqlite_iteration(struct result_sink *s, const struct iteration_record *r)
{
	struct iteration_info it = *r->it;

	it.run_id = s->run_id;
	return db_iteration_add(s->db, &it, r->samples, (int)r->nsamples,
				HAS(r, mon_keys) ? r->mon_keys : NULL,
				HAS(r, mon_values) ? r->mon_values : NULL,
				HAS(r, nmon) ? (int)r->nmon : 0,
				HAS(r, mon_source) ? r->mon_source : NULL) < 0 ? -1 : 0;
}

static const struct result_sink_ops sqlite_ops = {
	.name = "sqlite", .env = sqlite_env, .iteration = sqlite_iteration,
};

void sink_sqlite_init(struct result_sink *s, struct mmb_db *db, int64_t run_id)
{
	memset(s, 0, sizeof(*s));
	s->ops = &sqlite_ops;
	s->db = db;
	s->run_id = run_id;
	s->fd = -1;
}

/* ---- stream ---- */

static int write_all(int fd, const struct strbuf *b)
{
	for (size_t off = 0; off < b->len;) {
		ssize_t n = write(fd, b->buf + off, b->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error("result stream: write failed: %s", n < 0 ? strerror(errno)
								    : "nothing written");
		off += (size_t)n;
	}
	return 0;
}

static int stream_env(struct result_sink *s, const char *key, const char *value,
		      const char *original)
{
	struct strbuf b = STRBUF_INIT;
	const char *f[] = { key, value, original };
	int ret;

	mstream_record(&b, 'E', f, 3);
	ret = write_all(s->fd, &b);
	strbuf_release(&b);
	return ret;
}

static char *num(const char *fmt, double v)
{
	return xasprintf(fmt, v);
}

static int stream_iteration(struct result_sink *s, const struct iteration_record *r)
{
	const struct iteration_info *it = r->it;
	struct strbuf b = STRBUF_INIT;
	size_t nmon = HAS(r, nmon) ? r->nmon : 0;
	char *n[7];
	int ret;

	n[0] = xasprintf("%d", it->iteration);
	n[1] = xasprintf("%d", it->warmup ? 1 : 0);
	n[2] = num("%.17g", it->started);
	n[3] = num("%.17g", it->elapsed);
	n[4] = xasprintf("%zu", it->warmup ? 0 : r->nsamples);
	n[5] = xasprintf("%zu", nmon);
	n[6] = it->measured ? num("%.17g", it->interference) : NULL;
	{
		/* the 13 fields merge_feed() reads, as mstream_poll() sends them */
		const char *f[] = { it->workload, it->variant, it->params, n[0], n[1], it->status,
				    it->reason, n[2], n[3], n[4], n[5], it->disturbed, n[6] };

		mstream_record(&b, 'I', f, 13);
	}
	for (size_t i = 0; !it->warmup && i < r->nsamples; i++) {
		const struct sample_info *x = &r->samples[i];
		char *better = xasprintf("%d", x->better), *seq = xasprintf("%d", x->seq);
		char *v = num("%.17g", x->value);
		const char *f[] = { x->metric, x->unit, better, seq, v };

		mstream_record(&b, 'S', f, 5);
		free(better);
		free(seq);
		free(v);
	}
	for (size_t i = 0; i < nmon; i++) {
		const char *key = r->mon_keys[i], *colon = strchr(key, ':');
		char *src = colon ? xstrndup(key, (size_t)(colon - key))
				  : xstrdup(HAS(r, mon_source) && r->mon_source ? r->mon_source
										: "vmstat");
		char *d = num("%.17g", r->mon_values[i]);
		const char *f[] = { src, colon ? colon + 1 : key, d };

		mstream_record(&b, 'O', f, 3);
		free(src);
		free(d);
	}
	ret = write_all(s->fd, &b);
	strbuf_release(&b);
	for (int i = 0; i < 7; i++)
		free(n[i]);
	return ret;
}

static const struct result_sink_ops stream_ops = {
	.name = "stream", .env = stream_env, .iteration = stream_iteration,
};

void sink_stream_init(struct result_sink *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->ops = &stream_ops;
	s->fd = fd;
}
