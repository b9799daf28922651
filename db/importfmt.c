/*
 * Reading `mmbench import` input: CSV (RFC 4180) and lkp matrix.json into
 * packed sample blocks (see importfmt.h).  The parsers live here, not in
 * the command file, so the fuzz target links them as they are.
 */
#include "importfmt.h"
#include "importrow.h"
#include "db.h"
#include "block.h"
#include "dump.h"
#include "blockwrite.h"
#include "merge-file.h"
#include "json.h"
#include "querymon.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- direction of lkp stats (after lkp's etc/index-perf-all.yaml) ---- */

static const struct {
	const char *re;
	int better;
} lkp_directions[] = {
	{ "^aim9\\..+\\.ops_per_sec$", 1 },
	{ "^.+\\.throughput$", 1 },
	{ "^will-it-scale\\..+_ops$", 1 },
	{ "^pft\\.faults_per_sec_per_cpu$", 1 },
	{ "^.+\\.ops_per_sec$", 1 },
	{ "^.+\\.time\\.(elapsed|system|user)_time$", -1 },
	{ "^.+\\.time\\.(minor|major)_page_faults$", -1 },
};

static regex_t dir_re[ARRAY_SIZE(lkp_directions)];
static int dir_re_ready;

/* +1 / -1 from the table, 0 when no rule matches. */
static int lkp_direction(const char *name)
{
	if (!dir_re_ready) {
		for (size_t i = 0; i < ARRAY_SIZE(lkp_directions); i++)
			if (regcomp(&dir_re[i], lkp_directions[i].re, REG_EXTENDED | REG_NOSUB))
				die("bad built-in pattern %s", lkp_directions[i].re);
		dir_re_ready = 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(lkp_directions); i++)
		if (!regexec(&dir_re[i], name, 0, NULL, 0))
			return lkp_directions[i].better;
	return 0;
}

void import_directions_free(void)
{
	if (!dir_re_ready)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(lkp_directions); i++)
		regfree(&dir_re[i]);
	dir_re_ready = 0;
}

/* ---- a small string-keyed map (workload/variant/metric -> info) ---- */



static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct smap_ent *smap_get(struct smap *m, const char *key, size_t klen, bool *created)
{
	uint64_t h;
	size_t i;
	struct smap_ent *e;

	if (m->last_ent && m->last.len == klen && !memcmp(m->last.buf, key, klen)) {
		*created = false;
		return m->last_ent;
	}
	h = hash_bytes(key, klen);
	if (!m->size) {
		m->size = 256;
		m->e = xcalloc(m->size, sizeof(*m->e));
	}
	for (i = h & (m->size - 1); m->e[i]; i = (i + 1) & (m->size - 1))
		if (m->e[i]->hash == h && m->e[i]->klen == klen && !memcmp(m->e[i]->key, key, klen)) {
			*created = false;
			e = m->e[i];
			goto found;
		}
	if ((m->nr + 1) * 2 > m->size) {
		struct smap_ent **old = m->e;
		size_t osize = m->size;

		m->size *= 2;
		m->e = xcalloc(m->size, sizeof(*m->e));
		for (size_t j = 0; j < osize; j++) {
			size_t k;

			if (!old[j])
				continue;
			for (k = old[j]->hash & (m->size - 1); m->e[k]; k = (k + 1) & (m->size - 1))
				;
			m->e[k] = old[j];
		}
		free(old);
		for (i = h & (m->size - 1); m->e[i]; i = (i + 1) & (m->size - 1))
			;
	}
	e = xcalloc(1, sizeof(*e));
	e->key = xmalloc(klen + 1);
	memcpy(e->key, key, klen);
	e->key[klen] = '\0';
	e->klen = klen;
	e->hash = h;
	m->e[i] = e;
	ALLOC_GROW(m->order, m->nr + 1, m->order_alloc);
	m->order[m->nr++] = e;
	*created = true;
found:
	strbuf_reset(&m->last);
	strbuf_add(&m->last, key, klen);
	m->last_ent = e;
	return e;
}

void smap_release(struct smap *m)
{
	for (size_t i = 0; i < m->size; i++) {
		if (!m->e[i])
			continue;
		free(m->e[i]->key);
		free(m->e[i]->unit);
		free(m->e[i]->it);
		free(m->e[i]->sq);
		free(m->e[i]->val);
		free(m->e[i]);
	}
	free(m->e);
	free(m->order);
	strbuf_release(&m->last);
	memset(m, 0, sizeof(*m));
}

/* ---- the import itself: statements and per-sample insertion ---- */



static int vbad(const struct importer *im, int line, int col, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	if (col > 0)
		error("%s:%d:%d: %s", im->file, line, col, sb.buf);
	else
		error("%s:%d: %s", im->file, line, sb.buf);
	strbuf_release(&sb);
	return MMB_EUSAGE;
}

int import_bad(const struct importer *im, int line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vbad(im, line, 0, fmt, ap);
	va_end(ap);
	return ret;
}

/* "FILE:LINE:COL: why" for JSON values. */
static int bad_at(const struct importer *im, const struct json *where, const char *fmt, ...)
	MMB_PRINTF_FMT(3, 4);
static int bad_at(const struct importer *im, const struct json *where, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vbad(im, where->line, where->col, fmt, ap);
	va_end(ap);
	return ret;
}

/* A name field with a control character: refused, shown escaped (a newline would reach plots). */
static int ctl_field(const struct importer *im, int line, const char *what, const char *s, size_t n)
{
	char *copy, *esc;
	int ret;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c != 0x7f)
			continue;
		copy = xstrndup(s, n);
		esc = ctl_escape(copy);
		ret = import_bad(im, line, "%s '%s': control character 0x%02x; names cannot hold control "
			  "characters (newlines, tabs, escapes)", what, esc, c);
		free(esc);
		free(copy);
		return ret;
	}
	return 0;
}

static int import_db_fail(struct importer *im)
{
	return error("%s: cannot import: %s", db_path(im->db), db_errmsg(im->db));
}

/* Variant is "" or "k=v,k=v": check its shape so compare can show it. */
static int check_variant(const char *v, size_t n)
{
	size_t i = 0;

	/* mmtests' bare variants ("16", "64-ml"): one untyped name */
	if (n && !memchr(v, '=', n) && !memchr(v, ',', n))
		return 0;

	while (i < n) {
		size_t j = i;
		bool eq = false;

		while (j < n && v[j] != ',') {
			if (v[j] == '=' && j > i)
				eq = true;
			j++;
		}
		if (!eq)
			return -1;
		i = j + 1;
		if (j + 1 == n)
			return -1;	/* trailing comma */
	}
	return 0;
}

/* ~16 MB pending (16 bytes a sample, up to twice that as arrays grow) at most; 2^24 samples per block (see schema.c) */
#define BLOCK_PENDING_MAX ((size_t)1 << 20)
#define BLOCK_SAMPLES_MAX (((size_t)1 << 24) - 1)

/*
 * Write every pending block, series in order of first appearance: block ids
 * then keep the file's order, which is the order compare prints rows in.
 */
int importer_flush(struct importer *im)
{
	for (size_t i = 0; i < im->metrics.nr; i++) {
		struct smap_ent *m = im->metrics.order[i];
		const char *why = NULL;
		unsigned char *blk;
		size_t len;
		int ret;

		if (!m->n)
			continue;
		blk = db_block_encode(m->it, m->sq, m->val, m->n, &len, &why);
		if (!blk)
			return error("%s: cannot import: %s", im->file, why);
		ret = db_blocks_add(im->blocks, m->id, m->n, blk, len);
		free(blk);
		if (ret)
			return -1;
		/* the room goes too: a file of many series would keep each one's peak */
		free(m->it);
		free(m->sq);
		free(m->val);
		m->it = m->sq = NULL;
		m->val = NULL;
		m->n = m->alloc = 0;
	}
	im->pending = 0;
	return 0;
}

/*
 * Rows from here on belong to the run of (label, key): made on first use,
 * pending blocks of the previous run written first.
 */
int importer_use_run(struct importer *im, const char *label, size_t ll,
		     const char *key, size_t kl)
{
	struct smap_ent *e;
	bool created;

	if (!im->begin_run)
		return 0;
	strbuf_reset(&im->key);
	if (label)
		strbuf_add(&im->key, label, ll);
	strbuf_addch(&im->key, '\0');
	strbuf_add(&im->key, key, kl);
	e = smap_get(&im->runs, im->key.buf, im->key.len, &created);
	if (created) {
		e->id = im->begin_run(im, label, ll);
		if (e->id < 0)
			return (int)e->id;
		ALLOC_GROW(im->run_ids, im->nruns + 1, im->runs_alloc);
		im->run_ids[im->nruns++] = e->id;
	}
	if (e->id == im->run_id)
		return 0;
	if (im->blocks && importer_flush(im))
		return -1;
	/* seq counts repeats within one run */
	for (size_t i = 0; i < im->metrics.nr; i++)
		im->metrics.order[i]->last_iteration = -1;
	im->run_id = e->id;
	if (im->blocks) {
		db_blocks_set_run(im->blocks, e->id);
		return 0;
	}
	im->blocks = db_blocks_begin(im->db, im->run_id);
	return im->blocks ? 0 : -1;
}

/* Are r's workload, variant and metric those of m (its key "w\0v\0m")? */
static bool same_series(const struct smap_ent *m, const struct sample_row *r)
{
	const char *k = m->key;

	return m->klen == r->wl + r->vl + r->ml + 2 && !memcmp(k, r->workload, r->wl) &&
	       !k[r->wl] && !memcmp(k + r->wl + 1, r->variant, r->vl) && !k[r->wl + 1 + r->vl] &&
	       !memcmp(k + r->wl + r->vl + 2, r->metric, r->ml);
}

int importer_add(struct importer *im, const struct sample_row *r)
{
	struct smap_ent *m;
	bool created;
	int better = r->better, ret;

	if (!im->run_id) {
		ret = importer_use_run(im, NULL, 0, "", 0);
		if (ret)
			return ret;
	}
	if (im->last_m && same_series(im->last_m, r)) {
		/* the fields the last row had, and passed the checks with */
		m = im->last_m;
		created = false;
		if (!isfinite(r->value))
			return import_bad(im, r->line, "value is not a finite number");
		goto known;
	}
	if (!r->wl)
		return import_bad(im, r->line, "empty workload");
	if (!r->ml)
		return import_bad(im, r->line, "empty metric");
	if (memchr(r->workload, '\0', r->wl) || memchr(r->metric, '\0', r->ml) ||
	    memchr(r->variant, '\0', r->vl))
		return import_bad(im, r->line, "NUL byte in a field");
	if (check_variant(r->variant, r->vl))
		return import_bad(im, r->line, "variant '%.*s' is neither k=v[,k=v...] nor one bare name",
			   (int)r->vl, r->variant);
	if (!isfinite(r->value))
		return import_bad(im, r->line, "value is not a finite number");
	if ((ret = ctl_field(im, r->line, "workload", r->workload, r->wl)) ||
	    (ret = ctl_field(im, r->line, "metric", r->metric, r->ml)) ||
	    (ret = ctl_field(im, r->line, "variant", r->variant, r->vl)) ||
	    (r->unit && (ret = ctl_field(im, r->line, "unit", r->unit, r->ul))))
		return ret;

	strbuf_reset(&im->key);
	strbuf_add(&im->key, r->workload, r->wl);
	strbuf_addch(&im->key, '\0');
	strbuf_add(&im->key, r->variant, r->vl);
	strbuf_addch(&im->key, '\0');
	strbuf_add(&im->key, r->metric, r->ml);
	m = smap_get(&im->metrics, im->key.buf, im->key.len, &created);
	if (created) {
		if (!better) {
			char *name = xasprintf("%.*s.%.*s", (int)r->wl, r->workload,
					       (int)r->ml, r->metric);

			better = lkp_direction(name);
			free(name);
		}
		m->better = better ? better : 1;
		m->unit = xstrndup(r->unit ? r->unit : "", r->ul);
		m->line = r->line;
		m->last_iteration = -1;		/* iterations are >= 0 */
		/* the key is "workload\0variant\0metric": the series' own names */
		m->id = db_series_id(im->db, m->key, m->key + r->wl + 1,
				     m->key + r->wl + 1 + r->vl + 1, m->unit, m->better);
		if (m->id < 0)
			return import_db_fail(im);
	} else {
known:
		if (better && better != m->better)
			return import_bad(im, r->line,
				   "metric '%.*s' is %s-is-better here but %s-is-better on line %d",
				   (int)r->ml, r->metric, better > 0 ? "higher" : "lower",
				   m->better > 0 ? "higher" : "lower", m->line);
		if (r->unit && (strlen(m->unit) != r->ul || memcmp(m->unit, r->unit, r->ul)))
			return import_bad(im, r->line, "metric '%.*s' has unit '%.*s' here but '%s' on line %d",
				   (int)r->ml, r->metric, (int)r->ul, r->unit, m->unit, m->line);
	}

	im->last_m = m;
	if (r->has_seq)
		m->seq = r->seq;
	else if (r->iteration == m->last_iteration)
		m->seq++;
	else
		m->seq = 0;
	m->last_iteration = r->iteration;
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 64;
		m->it = xrealloc(m->it, m->alloc * sizeof(*m->it));
		m->sq = xrealloc(m->sq, m->alloc * sizeof(*m->sq));
		m->val = xrealloc(m->val, m->alloc * sizeof(*m->val));
	}
	m->it[m->n] = (int)r->iteration;
	m->sq[m->n] = m->seq;
	m->val[m->n] = r->value;
	m->n++;
	im->nsamples++;
	im->pending++;
	/* bounded memory, and block keys fit the view's id arithmetic */
	if (im->pending >= BLOCK_PENDING_MAX || m->n >= BLOCK_SAMPLES_MAX)
		return importer_flush(im);
	return 0;
}

int importer_prepare(struct importer *im)
{
	if (im->begin_run)
		return 0;	/* the first row's run makes them */
	im->blocks = db_blocks_begin(im->db, im->run_id);
	return im->blocks ? 0 : -1;
}

void importer_release(struct importer *im)
{
	db_blocks_end(im->blocks);
	im->blocks = NULL;
	im->last_m = NULL;
	smap_release(&im->metrics);
	smap_release(&im->runs);
	strbuf_release(&im->key);
	free(im->run_ids);
	im->run_ids = NULL;
	im->nruns = im->runs_alloc = 0;
}

/* ---- lkp matrix.json ---- */

/*
 * lkp's monitor stats become monitor rows of the testcase's iterations
 * (docs/monitors.md): proc-vmstat.K, meminfo.K, perf-stat.K and
 * <testcase>.time.K.  Sets *source and *key; false for a sample stat.
 */
static bool matrix_monitor(const char *name, const char **source, const char **key)
{
	static const struct { const char *prefix, *source; } pre[] = {
		{ "proc-vmstat.", "vmstat" }, { "meminfo.", "meminfo" }, { "perf-stat.", "perf-stat" },
	};
	const char *dot = strchr(name, '.');

	for (size_t i = 0; i < ARRAY_SIZE(pre); i++)
		if (starts_with(name, pre[i].prefix) && name[strlen(pre[i].prefix)]) {
			*source = pre[i].source;
			*key = name + strlen(pre[i].prefix);
			return true;
		}
	if (dot && starts_with(dot, ".time.") && dot[6]) {
		*source = "time";
		*key = dot + 6;
		return true;
	}
	return false;
}

static int matrix_add_monitor(struct importer *im, const struct json *a, const char *name,
			      const char *testcase, size_t tl)
{
	const char *source, *key, *dot = strchr(name, '.');
	char *wl;
	int ret = 0;

	matrix_monitor(name, &source, &key);
	/* <testcase>.time.K belongs to its own testcase, the rest to the matrix's */
	wl = !strcmp(source, "time") ? xstrndup(name, (size_t)(dot - name)) : xstrndup(testcase, tl);
	for (size_t k = 0; k < a->n && !ret; k++) {
		if (a->items[k].type != JSON_NUMBER) {
			ret = bad_at(im, &a->items[k], "stat '%s' run %zu is not a number", name, k);
			break;
		}
		if (!isfinite(a->items[k].num)) {
			ret = bad_at(im, &a->items[k], "stat '%s' run %zu is not a finite number",
				     name, k);
			break;
		}
		/* monrows_import() said why */
		if (monrows_import(im->db, im->run_id, wl, (int)k + 1, source, key, a->items[k].num))
			ret = -1;
	}
	free(wl);
	return ret;
}

int import_matrix(struct importer *im, const char *buf, size_t len)
{
	struct smap seen = { 0 };	/* stat names, to refuse one given twice */
	struct json *j;
	char err[256];
	const char *testcase = NULL;	/* the first sample stat's, for monitor rows */
	size_t tl = 0;
	int ret = 0;

	if (json_parse(buf, len, &j, err, sizeof(err))) {
		error("%s:%s", im->file, err);
		return MMB_EUSAGE;
	}
	if (j->type != JSON_OBJECT) {
		ret = bad_at(im, j, "expected an lkp matrix.json object (stat -> array of per-run values)");
		goto out;
	}
	for (size_t i = 0; i < j->n && !testcase; i++) {
		const char *name = j->keys[i], *dot = strchr(name, '.'), *src, *key;

		if (dot && dot != name && !matrix_monitor(name, &src, &key)) {
			testcase = name;
			tl = (size_t)(dot - name);
		}
	}
	for (size_t i = 0; i < j->n && !ret; i++) {
		const char *name = j->keys[i], *dot = strchr(name, '.'), *src, *key;
		const struct json *a = &j->items[i];
		struct sample_row r = { 0 };
		struct smap_ent *e;
		bool created;

		/* JSON leaves duplicate keys open; pooling both arrays would hide it */
		e = smap_get(&seen, name, strlen(name), &created);
		if (!created) {
			ret = bad_at(im, a, "stat '%s' appears twice (first at line %d)", name, e->line);
			break;
		}
		e->line = a->line;
		if (!dot || dot == name || !dot[1]) {
			ret = bad_at(im, a, "stat '%s' is not of the form <testcase>.<stat>", name);
			break;
		}
		if (a->type != JSON_ARRAY) {
			ret = bad_at(im, a, "stat '%s' is not an array of per-run values", name);
			break;
		}
		if (testcase && matrix_monitor(name, &src, &key)) {
			ret = matrix_add_monitor(im, a, name, testcase, tl);
			continue;
		}
		r.workload = name;
		r.wl = (size_t)(dot - name);
		r.metric = dot + 1;
		r.ml = strlen(dot + 1);
		r.variant = "";
		r.better = lkp_direction(name);
		for (size_t k = 0; k < a->n && !ret; k++) {
			if (a->items[k].type != JSON_NUMBER) {
				ret = bad_at(im, &a->items[k], "stat '%s' run %zu is not a number",
					  name, k);
				break;
			}
			r.line = a->items[k].line;
			r.iteration = (long)k + 1;
			r.value = a->items[k].num;
			ret = importer_add(im, &r);
		}
	}
	if (!ret && !im->nsamples)
		ret = bad_at(im, j, "no stats in the matrix");
out:
	smap_release(&seen);
	json_free(j);
	return ret;
}

bool import_looks_like_json(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	/* no CSV header starts with '[': a JSON array is a wrong matrix, said so */
	return i < len && (buf[i] == '{' || buf[i] == '[');
}

/* ---- mmbench export --format json ---- */

bool import_is_export(const char *buf, size_t len)
{
	static const char key[] = "\"mmbench_export\"";
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	if (i >= len || buf[i++] != '{')
		return false;
	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	return len - i >= sizeof(key) - 1 && !memcmp(buf + i, key, sizeof(key) - 1);
}

static void unlink_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };

	for (size_t i = 0; i < ARRAY_SIZE(suffix); i++) {
		char *p = xasprintf("%s%s", path, suffix[i]);

		unlink(p);
		free(p);
	}
}

/* The export's rows in a database of their own (a temporary file): 0, MMB_EUSAGE, -1. */
static int load_into_temp(const char *file, const struct json *j, const char *path,
			  char ***labels, size_t *nlabels)
{
	struct mmb_db tmp;
	int ret;

	if (db_open(&tmp, path))
		return -1;
	ret = db_dump_load(&tmp, j, file, labels, nlabels);
	db_close(&tmp);
	return ret == -2 ? MMB_EUSAGE : ret;
}

/*
 * The temporary database of an import is removed on TERM, HUP, INT and
 * QUIT, and what a SIGKILLed import left (its pid in the name, gone) by
 * the next import: 5 kills left 18 files and 26 MB in $TMPDIR.
 */
static char tmp_files[4][4096];
static const char *const tmp_suffix[] = { "", "-wal", "-shm", "-journal" };

static void tmp_signal(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(tmp_files); i++)
		if (tmp_files[i][0])
			unlink(tmp_files[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void tmp_guard(const char *path)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };

	for (size_t i = 0; i < ARRAY_SIZE(tmp_files); i++)
		if (path)
			snprintf(tmp_files[i], sizeof(tmp_files[i]), "%s%s", path, tmp_suffix[i]);
		else
			tmp_files[i][0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], path ? tmp_signal : SIG_DFL);
}

/* mmbench-import-PID-XXXXXX* of ours whose PID is gone: a killed import's. */
static void tmp_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *p;
		long pid;
		struct stat st;

		if (strncmp(de->d_name, "mmbench-import-", 15))
			continue;
		pid = strtol(de->d_name + 15, &p, 10);
		if (p == de->d_name + 15 || *p != '-' || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (!lstat(p, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid())
			unlink(p);
		free(p);
	}
	closedir(d);
}

int import_export_json(struct mmb_db *db, const char *file, const char *buf, size_t len,
		       const char *label, struct db_merge_result *res)
{
	const char *dir = getenv("TMPDIR");
	char *path = xasprintf("%s/mmbench-import-%d-XXXXXX", dir && *dir ? dir : "/tmp",
			       (int)getpid());
	struct db_merge_opts opts = { .name = file };
	struct db_rename *ren = NULL;
	char **labels = NULL, err[256];
	size_t nl = 0;
	struct json *j;
	int fd, ret;

	if (json_parse(buf, len, &j, err, sizeof(err))) {
		error("%s:%s", file, err);
		free(path);
		return MMB_EUSAGE;
	}
	tmp_sweep(dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		ret = error("cannot make a temporary database %s: %s", path, strerror(errno));
		goto out;
	}
	close(fd);
	tmp_guard(path);
	ret = load_into_temp(file, j, path, &labels, &nl);
	if (ret)
		goto out;
	/* --name: every label of the file goes under it */
	if (label) {
		ren = xcalloc(nl + 1, sizeof(*ren));
		for (size_t i = 0; i < nl; i++)
			ren[i] = (struct db_rename){ labels[i], label };
		opts.renames = ren;
		opts.nrenames = nl;
	}
	ret = db_merge_file(db, path, &opts, res);
	if (ret == DB_MERGE_REFUSED)
		ret = MMB_EUSAGE;
out:
	if (fd >= 0) {
		unlink_db(path);
		tmp_guard(NULL);
	}
	for (size_t i = 0; i < nl; i++)
		free(labels[i]);
	free(labels);
	free(ren);
	free(path);
	json_free(j);
	return ret;
}
