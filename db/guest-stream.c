/* Guest -> host result stream; see guest-stream.h for the record format. */
#include "guest-stream.h"
#include "profile.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSTREAM_MAGIC "mmbench-stream"
/* an I record's fields, its type included: the most a writer sends */
#define MSTREAM_ITER_FIELDS 15

/* ---- encoding ------------------------------------------------------ */

void mstream_escape(struct strbuf *out, const char *s)
{
	if (!s) {
		strbuf_addstr(out, "\\N");
		return;
	}
	for (; *s; s++) {
		switch (*s) {
		case '\\': strbuf_addstr(out, "\\\\"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\r': strbuf_addstr(out, "\\r"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

void mstream_record(struct strbuf *out, char type, const char *const *fields, int n)
{
	strbuf_addch(out, type);
	for (int i = 0; i < n; i++) {
		strbuf_addch(out, '\t');
		mstream_escape(out, fields[i]);
	}
	strbuf_addch(out, '\n');
}

char **mstream_split(const char *line, int *n)
{
	char **f = NULL;
	size_t alloc = 0;
	const char *p = line;

	*n = 0;
	for (;;) {
		struct strbuf sb = STRBUF_INIT;
		bool null = false;

		strbuf_addstr(&sb, "");
		if (p[0] == '\\' && p[1] == 'N' && (p[2] == '\t' || !p[2])) {
			null = true;
			p += 2;
		}
		while (!null && *p && *p != '\t') {
			if (*p == '\\' && p[1]) {
				char c = p[1];

				strbuf_addch(&sb, c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c);
				p += 2;
			} else {
				strbuf_addch(&sb, *p++);
			}
		}
		ALLOC_GROW(f, (size_t)*n + 1, alloc);
		if (null) {
			f[(*n)++] = NULL;
			strbuf_release(&sb);
		} else {
			f[(*n)++] = strbuf_detach(&sb);
		}
		if (*p != '\t')
			break;
		p++;
	}
	return f;
}

void mstream_fields_free(char **f, int n)
{
	for (int i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

/* ---- host side --------------------------------------------------------- */

void merge_init(struct merge_ctx *m, struct mmb_db *db, int64_t run_id)
{
	memset(m, 0, sizeof(*m));
	m->db = db;
	m->run_id = run_id;
	m->line = xcalloc(1, sizeof(*m->line));
	strbuf_init(m->line);
	m->exit_code = -1;
}

static void merge_iter_reset(struct merge_ctx *m)
{
	if (m->iter)
		mstream_fields_free(m->iter, MSTREAM_ITER_FIELDS);
	m->iter = NULL;
	for (int i = 0; i < 2 * m->nsamples; i++)
		free(m->sample_strs[i]);
	for (int i = 0; i < m->nmon; i++)
		free(m->mon_keys[i]);
	free(m->sample_strs);
	free(m->samples);
	free(m->mon_keys);
	free(m->mon_deltas);
	m->sample_strs = NULL;
	m->samples = NULL;
	m->mon_keys = NULL;
	m->mon_deltas = NULL;
	m->nsamples = m->nmon = m->need_s = m->need_o = 0;
}

void merge_release(struct merge_ctx *m)
{
	merge_iter_reset(m);
	if (m->line) {
		strbuf_release(m->line);
		free(m->line);
	}
	free(m->guest_status);
	free(m->guest_release);
	free(m->last_message);
	memset(m, 0, sizeof(*m));
}

static int parse_int(const char *s, long long *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return *end || errno ? -1 : 0;
}

static int parse_dbl(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	*v = strtod(s, &end);
	/* finite or refused: "nan", "inf" and 1e309 are no measurements */
	return *end || !isfinite(*v) ? -1 : 0;
}

static int merge_iteration_commit(struct merge_ctx *m)
{
	struct iteration_info it = { 0 };
	long long iter = 0, warm = 0;
	double started = 0, elapsed = 0;
	int64_t id;

	if (parse_int(m->iter[4], &iter) || parse_int(m->iter[5], &warm))
		return error("result stream: bad iteration number");
	if (m->iter[8])
		parse_dbl(m->iter[8], &started);
	if (m->iter[9])
		parse_dbl(m->iter[9], &elapsed);
	it.run_id = m->run_id;
	it.workload = m->iter[1];
	it.variant = m->iter[2] ? m->iter[2] : "";
	it.params = m->iter[3];
	it.iteration = (int)iter;
	it.warmup = warm != 0;
	it.status = m->iter[6];
	it.reason = m->iter[7];
	it.started = started;
	it.elapsed = elapsed;
	/* fields 12, 13 (disturbed, interference) came with schema 3; older guests stop at 11 */
	it.disturbed = m->iter[12];
	if (m->iter[13] && !parse_dbl(m->iter[13], &it.interference))
		it.measured = true;
	/* field 14: the typed variant a new series keeps (NULL: typed from the text on read) */
	it.variant_json = m->iter[14];
	if (!it.workload || !it.status)
		return error("result stream: iteration without workload or status");
	id = db_iteration_add(m->db, &it, m->samples, m->nsamples,
			      (const char *const *)m->mon_keys, m->mon_deltas, m->nmon, "vm");
	if (id < 0)
		return -1;
	m->iterations++;
	if (!it.warmup && m->nsamples) {
		m->nsamples_total += m->nsamples;
		if (!m->first_sample_wall)
			m->first_sample_wall = now_wall();
	}
	merge_iter_reset(m);
	return 0;
}

static int merge_run(struct merge_ctx *m, char **f, int n)
{
	sqlite3_stmt *st;
	int rc;

	if (n != 11)
		return error("result stream: run record has %d fields, expected 10", n - 1);
	/* keep what the host knows (config path/text) unless the guest has it */
	if (sqlite3_prepare_v2(m->db->c->sql,
			       "UPDATE runs SET experiment = coalesce(?1, experiment),"
			       " release = ?2, version = ?3, cmdline = ?4,"
			       " config_hash = coalesce(config_hash, ?5), harness_version = ?6,"
			       " git_sha = ?7, compiler = ?8,"
			       " config_text = coalesce(config_text, ?9) WHERE id = ?10",
			       -1, &st, NULL) != SQLITE_OK)
		return error("%s: %s", m->db->c->path, db_errmsg(m->db));
	sqlite3_bind_text(st, 1, f[1], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, f[4], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, f[5], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, f[6], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, f[7], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, f[8], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, f[9], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, f[10], -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, f[3], -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 10, m->run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", m->db->c->path, db_errmsg(m->db));
	m->have_run = true;
	return 0;
}

/* M: the guest's facts; the machine is the VM as the guest sees it, on this host */
static int merge_machine(struct merge_ctx *m, char **f, int n)
{
	long long c = 0, mem = 0;
	char host[200] = "", *name;
	struct machine_info mi = { 0 };
	int64_t mid;

	if (n != 7 || parse_int(f[1], &c) || parse_int(f[2], &mem))
		return error("result stream: bad machine record");
	m->guest_ncpus = (int)c;
	m->guest_mem = (uint64_t)mem;
	free(m->guest_release);
	m->guest_release = f[4] ? xstrdup(f[4]) : NULL;
	m->have_machine = true;
	gethostname(host, sizeof(host) - 1);
	name = xasprintf("vm@%s", host);
	mi.hostname = name;
	mi.cpu_model = f[3];
	mi.ncpus = (int)c;
	mi.mem_bytes = (uint64_t)mem;
	mid = db_machine_upsert(m->db, &mi);
	free(name);
	if (mid > 0) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(m->db->c->sql, "UPDATE runs SET machine_id = ? WHERE id = ?",
				       -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, mid);
			sqlite3_bind_int64(st, 2, m->run_id);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
	}
	if (db_run_env(m->db, m->run_id, "vm.guest_ncpus", f[1], NULL) ||
	    db_run_env(m->db, m->run_id, "vm.guest_mem_bytes", f[2], NULL) ||
	    db_run_env(m->db, m->run_id, "vm.guest_cpu_model", f[3], NULL))
		return -1;
	return 0;
}

static int merge_iter_begin(struct merge_ctx *m, char **f, int n)
{
	long long ns, no;

	if ((n != 12 && n != 14 && n != MSTREAM_ITER_FIELDS) || parse_int(f[10], &ns) || parse_int(f[11], &no) || ns < 0 || no < 0 ||
	    ns > 1000000 || no > 1000000)
		return error("result stream: bad iteration record");
	m->iter = xcalloc(MSTREAM_ITER_FIELDS, sizeof(char *));
	for (int i = 0; i < n; i++) {
		m->iter[i] = f[i];
		f[i] = NULL;
	}
	m->need_s = (int)ns;
	m->need_o = (int)no;
	m->samples = xcalloc(ns + 1, sizeof(*m->samples));
	m->sample_strs = xcalloc(2 * ns + 1, sizeof(char *));
	m->mon_keys = xcalloc(no + 1, sizeof(char *));
	m->mon_deltas = xcalloc(no + 1, sizeof(double));
	return !m->need_s && !m->need_o ? merge_iteration_commit(m) : 0;
}

/* the iteration is complete once every S and O record it announced came */
static int merge_iter_maybe_commit(struct merge_ctx *m)
{
	return m->nsamples == m->need_s && m->nmon == m->need_o ? merge_iteration_commit(m) : 0;
}

static int merge_sample(struct merge_ctx *m, char **f, int n)
{
	struct sample_info *s;
	long long better, seq;
	double v;

	if (!m->iter || m->nsamples >= m->need_s || n != 6 || !f[1] ||
	    parse_int(f[3], &better) || parse_int(f[4], &seq) || parse_dbl(f[5], &v)) {
		error("result stream: unexpected or bad sample record");
		merge_iter_reset(m);
		return -1;
	}
	s = &m->samples[m->nsamples];
	m->sample_strs[2 * m->nsamples] = f[1];
	m->sample_strs[2 * m->nsamples + 1] = f[2];
	s->metric = f[1];
	s->unit = f[2];
	f[1] = f[2] = NULL;
	s->better = (int)better;
	s->seq = (int)seq;
	s->value = v;
	m->nsamples++;
	return merge_iter_maybe_commit(m);
}

static int merge_monitor(struct merge_ctx *m, char **f, int n)
{
	double d;

	if (!m->iter || m->nmon >= m->need_o || n != 4 || !f[1] || !f[2] ||
	    parse_dbl(f[3], &d)) {
		error("result stream: unexpected or bad monitor record");
		merge_iter_reset(m);
		return -1;
	}
	m->mon_keys[m->nmon] = xasprintf("%s:%s", f[1], f[2]);
	m->mon_deltas[m->nmon] = d;
	m->nmon++;
	return merge_iter_maybe_commit(m);
}

/* A P record: the guest's profile under the host's run id. */
static int merge_profile(struct merge_ctx *m, char **f, int n)
{
	struct profile_info p = { 0 };
	struct profile_entry *e;
	size_t ne;
	long long samples;
	int ret = -1;

	if (n < 6 || (n - 6) % 3 || !f[1] || !f[2] || !f[3] || parse_int(f[5], &samples) ||
	    samples < 0)
		return error("result stream: bad profile record");
	ne = (size_t)(n - 6) / 3;
	e = xcalloc(ne + 1, sizeof(*e));
	for (size_t i = 0; i < ne; i++) {
		char **t = f + 6 + 3 * i;
		double pct;

		if (!t[0] || !t[1] || parse_dbl(t[2], &pct) || !(pct >= 0 && pct <= 100) ||
		    (strcmp(t[0], "self") && strcmp(t[0], "calltrace"))) {
			error("result stream: bad profile entry %zu", i + 1);
			goto out;
		}
		e[i].kind = strcmp(t[0], "self") ? PROFILE_CALLTRACE : PROFILE_SELF;
		e[i].name = t[1];
		e[i].pct = pct;
	}
	p.workload = f[1];
	p.variant = f[2];
	p.event = f[3];
	p.note = f[4];
	p.samples = samples;
	ret = db_profile_add(m->db, m->run_id, &p, e, ne);
out:
	free(e);
	return ret;
}

/* The records with a handler of their own (the rest are one-liners below). */
static const struct {
	char type;
	int (*fn)(struct merge_ctx *m, char **f, int n);
} record_handlers[] = {
	{ 'M', merge_machine }, { 'R', merge_run }, { 'I', merge_iter_begin },
	{ 'S', merge_sample }, { 'O', merge_monitor }, { 'P', merge_profile },
};

static int merge_line(struct merge_ctx *m, const char *line)
{
	int n, ret = 0;
	char **f;
	char type;

	if (!*line)
		return 0;
	f = mstream_split(line, &n);
	type = f[0] && strlen(f[0]) == 1 ? f[0][0] : '?';
	m->records++;
	m->last_record_wall = now_wall();
	if (!m->first_record_wall)
		m->first_record_wall = m->last_record_wall;
	if (m->iter && type != 'S' && type != 'O') {
		ret = error("result stream: iteration record cut short by '%c'", type);
		merge_iter_reset(m);
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(record_handlers); i++)
		if (record_handlers[i].type == type) {
			ret = record_handlers[i].fn(m, f, n);
			goto out;
		}
	switch (type) {
	case 'V':
		if (n < 3 || !f[1] || strcmp(f[1], MSTREAM_MAGIC) || !f[2] || strcmp(f[2], "1"))
			ret = error("result stream: unknown format '%s'", line);
		m->have_version = true;
		break;
	case 'E':
		if (n != 4 || !f[1])
			ret = error("result stream: bad environment record");
		else
			ret = db_run_env(m->db, m->run_id, f[1], f[2], f[3]);
		break;
	case 'N':
		if (n != 3 || !f[1])
			ret = error("result stream: bad environment record");
		else
			ret = db_run_env_found(m->db, m->run_id, (const char *const *)&f[1],
					       (const char *const *)&f[2], 1);
		break;
	case 'F':
		if (n != 2 || !f[1]) {
			ret = error("result stream: bad status record");
			break;
		}
		free(m->guest_status);
		m->guest_status = xstrdup(f[1]);
		break;
	case 'X': {
		long long rc;

		if (n != 2 || parse_int(f[1], &rc))
			ret = error("result stream: bad exit record");
		else {
			m->exit_code = (int)rc;
			m->have_exit = true;
		}
		break;
	}
	case 'H':
		break;
	case 'L':
		free(m->last_message);
		m->last_message = n > 1 && f[1] ? xstrdup(f[1]) : NULL;
		break;
	default:
		ret = error("result stream: unknown record type in '%.40s'", line);
	}
out:
	mstream_fields_free(f, n);
	return ret;
}

int merge_feed(struct merge_ctx *m, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] != '\n') {
			strbuf_addch(m->line, data[i]);
			continue;
		}
		if (merge_line(m, m->line->buf) < 0) {
			strbuf_reset(m->line);
			return -1;
		}
		strbuf_reset(m->line);
	}
	return 0;
}
