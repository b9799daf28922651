#include "sink.h"
#include "guest-stream.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A field of r the writer may be too old to have filled. */
#define HAS(r, field) ((r)->size >= offsetof(struct iteration_record, field) + sizeof((r)->field))

/* ---- sqlite ---- */

static int sqlite_run(struct result_sink *s, const struct run_info *ri)
{
	s->run_id = db_run_begin(s->db, ri);
	return s->run_id > 0 ? 0 : -1;
}

static int sqlite_env(struct result_sink *s, const char *key, const char *value,
		      const char *original)
{
	return db_run_env(s->db, s->run_id, key, value, original);
}

static int sqlite_env_found(struct result_sink *s, const char *const *keys,
			    const char *const *values, size_t n)
{
	return db_run_env_found(s->db, s->run_id, keys, values, n);
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

static int sqlite_finish(struct result_sink *s, const char *status)
{
	return db_run_finish(s->db, s->run_id, status);
}

static int sqlite_profile(struct result_sink *s, const struct profile_info *p,
			  const struct profile_entry *e, size_t n)
{
	return db_profile_add(s->db, s->run_id, p, e, n);
}

static const struct result_sink_ops sqlite_ops = {
	.name = "sqlite", .run = sqlite_run, .env = sqlite_env, .env_found = sqlite_env_found,
	.iteration = sqlite_iteration, .finish = sqlite_finish, .profile = sqlite_profile,
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

/* One record of n fields, written at once. */
static int stream_record(struct result_sink *s, char type, const char *const *f, int n)
{
	struct strbuf b = STRBUF_INIT;
	int ret;

	mstream_record(&b, type, f, n);
	ret = write_all(s->fd, &b);
	strbuf_release(&b);
	return ret;
}

static int stream_run(struct result_sink *s, const struct run_info *ri)
{
	const char *f[] = { ri->experiment, ri->config_path, ri->config_text, ri->release,
			    ri->version, ri->cmdline, ri->config_hash, ri->harness_version,
			    ri->git_sha, ri->compiler };

	return stream_record(s, 'R', f, 10);
}

static int stream_env(struct result_sink *s, const char *key, const char *value,
		      const char *original)
{
	const char *f[] = { key, value, original };

	return stream_record(s, 'E', f, 3);
}

static int stream_env_found(struct result_sink *s, const char *const *keys,
			    const char *const *values, size_t n)
{
	struct strbuf b = STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < n; i++) {
		const char *f[] = { keys[i], values[i] };

		mstream_record(&b, 'N', f, 2);
	}
	ret = write_all(s->fd, &b);
	strbuf_release(&b);
	return ret;
}

static int stream_finish(struct result_sink *s, const char *status)
{
	const char *f[] = { status };

	return stream_record(s, 'F', f, 1);
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
		/* the 14 fields merge_feed() reads */
		const char *f[] = { it->workload, it->variant, it->params, n[0], n[1], it->status,
				    it->reason, n[2], n[3], n[4], n[5], it->disturbed, n[6],
				    it->variant_json };

		mstream_record(&b, 'I', f, 14);
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

/* One P record: the profile's facts, then a (kind, name, pct) triple per entry. */
static int stream_profile(struct result_sink *s, const struct profile_info *p,
			  const struct profile_entry *e, size_t n)
{
	size_t nf = 5 + 3 * n;
	const char **f = xcalloc(nf, sizeof(*f));
	char **num = xcalloc(n + 1, sizeof(*num));
	int ret;

	f[0] = p->workload;
	f[1] = p->variant;
	f[2] = p->event;
	f[3] = p->note;
	f[4] = num[n] = xasprintf("%lld", (long long)p->samples);
	for (size_t i = 0; i < n; i++) {
		f[5 + 3 * i] = profile_kind_name(e[i].kind);
		f[6 + 3 * i] = e[i].name;
		f[7 + 3 * i] = num[i] = xasprintf("%.17g", e[i].pct);
	}
	ret = stream_record(s, 'P', f, (int)nf);
	for (size_t i = 0; i <= n; i++)
		free(num[i]);
	free(num);
	free(f);
	return ret;
}

static const struct result_sink_ops stream_ops = {
	.name = "stream", .run = stream_run, .env = stream_env, .env_found = stream_env_found,
	.iteration = stream_iteration, .finish = stream_finish, .profile = stream_profile,
};

void sink_stream_init(struct result_sink *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->ops = &stream_ops;
	s->fd = fd;
}
