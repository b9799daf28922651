/*
 * Reading back what is recorded beside the samples (query.h): the labels,
 * their kernels and runs, the machine a run ran on and its environment;
 * which runs a filter pools; a row of a loaded set by name.
 */
#include "query.h"
#include "db-internal.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void release_run(void *elem)
{
	struct query_run *r = elem;

	free(r->status);
	free(r->accel);
	free(r->experiment);
	free(r->config_path);
	free(r->release);
	free(r->version);
	free(r->cmdline);
	free(r->config_hash);
	free(r->compiler);
	free(r->harness_version);
	free(r->git_sha);
	free(r->host);
}

void query_kernel_release(struct query_kernel *k)
{
	if (!k)
		return;
	free(k->label);
	free(k->release);
	free(k->version);
	free(k->cmdline);
	free(k->config_hash);
	free(k->base_commit);
	free(k->patches);
	free(k->compiler);
	db_list_free(k->runs, k->nruns, sizeof(*k->runs), release_run);
	memset(k, 0, sizeof(*k));
}

void query_free_strv(char **v, size_t n)
{
	db_list_free(v, n, sizeof(*v), db_release_str);
}

int query_labels(struct mmb_db *db, char ***out, size_t *n)
{
	return db_query_list(db, "SELECT label FROM kernels ORDER BY id",
			     NULL, db_read_str, NULL, db_release_str, sizeof(**out), out, n);
}

static int unknown_label(struct mmb_db *db, const char *label)
{
	struct strbuf sb = STRBUF_INIT;
	char **known;
	size_t n;

	if (query_labels(db, &known, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", known[i]);
	if (closest_name(label, known, n))
		error("unknown kernel label '%s' (did you mean '%s'?); known labels: %s", label,
		      closest_name(label, known, n), sb.buf);
	else
		error("unknown kernel label '%s'; known labels: %s", label, n ? sb.buf : "(none)");
	strbuf_release(&sb);
	query_free_strv(known, n);
	return QUERY_EUNKNOWN;
}

/* One run of kernel arg, counted in its nruns_pooled when usable. */
static int read_run(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct query_run *r = db_list_add(list);
	struct query_kernel *k = arg;

	r->id = sqlite3_column_int64(st, 0);
	r->status = db_col_str(st, 1);
	r->accel = db_col_str(st, 2);
	r->experiment = db_col_str(st, 3);
	r->config_path = db_col_str(st, 4);
	r->release = db_col_str(st, 5);
	r->version = db_col_str(st, 6);
	r->cmdline = db_col_str(st, 7);
	r->config_hash = db_col_str(st, 8);
	r->compiler = db_col_str(st, 9);
	r->harness_version = db_col_str(st, 10);
	r->git_sha = db_col_str(st, 11);
	r->host = db_col_str(st, 12);
	r->started = sqlite3_column_double(st, 13);
	r->finished = sqlite3_column_double(st, 14);
	r->machine_id = sqlite3_column_int64(st, 15);
	if (db_run_usable(r->status))
		k->nruns_pooled++;
	return 0;
}

static int load_runs(struct mmb_db *db, struct query_kernel *k)
{
	struct db_list l = { .size = sizeof(*k->runs) };
	sqlite3_stmt *st;
	int ret;

	if (db_prepare(db, "SELECT id, status, accel, experiment, config_path, release, version,"
		       " cmdline, config_hash, compiler, harness_version, git_sha, host,"
		       " started, finished, machine_id"
		       " FROM runs WHERE kernel_id = ? ORDER BY id", &st))
		return -1;
	sqlite3_bind_int64(st, 1, k->id);
	ret = db_read_list(db, st, read_run, k, release_run, &l);
	k->runs = l.v;
	k->nruns = l.n;
	return ret;
}

int query_kernels(struct mmb_db *db, const char *const *labels, size_t n,
		  struct query_kernel **out)
{
	struct query_kernel *ks = xcalloc(n ? n : 1, sizeof(*ks));
	sqlite3_stmt *st;
	int ret = 0;

	*out = NULL;
	if (db_prepare(db, "SELECT id, label, release, version, cmdline, config_hash,"
		       " base_commit, patches, compiler FROM kernels WHERE label = ?", &st)) {
		free(ks);
		return -1;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		struct query_kernel *k = &ks[i];
		int rc;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, labels[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE) {
			ret = unknown_label(db, labels[i]);
			break;
		}
		if (rc != SQLITE_ROW) {
			ret = db_fail(db);
			break;
		}
		k->id = sqlite3_column_int64(st, 0);
		k->label = db_col_str(st, 1);
		k->release = db_col_str(st, 2);
		k->version = db_col_str(st, 3);
		k->cmdline = db_col_str(st, 4);
		k->config_hash = db_col_str(st, 5);
		k->base_commit = db_col_str(st, 6);
		k->patches = db_col_str(st, 7);
		k->compiler = db_col_str(st, 8);
		ret = load_runs(db, k);
	}
	sqlite3_finalize(st);
	if (ret) {
		for (size_t i = 0; i < n; i++)
			query_kernel_release(&ks[i]);
		free(ks);
		return ret;
	}
	*out = ks;
	return 0;
}

int query_filter_set_last(struct query_filter *f, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 1 || n > INT_MAX)
		return -1;
	f->last_runs = (int)n;
	return 0;
}

bool query_run_selected(const struct query_filter *f, const struct query_run *r)
{
	if (!db_run_usable(r->status))
		return false;
	if (!f->machines || r->machine_id <= 0)
		return true;	/* no machine recorded (imports): pools with any */
	for (size_t i = 0; i < f->nmachines; i++)
		if (f->machines[i] == r->machine_id)
			return true;
	return false;
}

long query_find_row(const struct query_set *qs, const char *workload,
		    const char *variant, const char *metric)
{
	for (size_t i = 0; i < qs->nr; i++) {
		const struct query_row *r = &qs->rows[i];

		if (!strcmp(r->workload, workload) && !strcmp(r->variant, variant) &&
		    !strcmp(r->metric, metric))
			return (long)i;
	}
	return -1;
}

int query_machine(struct mmb_db *db, int64_t machine_id, struct query_machine *out)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (db_prepare(db, "SELECT id, hostname, cpu_model, ncpus, mem_bytes FROM machines"
		       " WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, machine_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->hostname = db_col_str(st, 1);
		out->cpu_model = db_col_str(st, 2);
		out->ncpus = sqlite3_column_int(st, 3);
		out->mem_bytes = (uint64_t)sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return 1;
	return db_fail(db);
}

void query_machine_release(struct query_machine *m)
{
	free(m->hostname);
	free(m->cpu_model);
	memset(m, 0, sizeof(*m));
}

static int read_env(sqlite3_stmt *st, struct db_list *list, void *arg)
{
	struct query_env *e = db_list_add(list);

	(void)arg;
	e->key = db_col_str(st, 0);
	e->value = db_col_str(st, 1);
	e->original = db_col_str(st, 2);
	e->set = sqlite3_column_type(st, 2) != SQLITE_NULL;
	return 0;
}

static void release_env(void *elem)
{
	struct query_env *e = elem;

	free(e->key);
	free(e->value);
	free(e->original);
}

int query_run_env(struct mmb_db *db, int64_t run_id, struct query_env **out, size_t *n)
{
	return db_query_list(db, "SELECT key, value, original FROM run_env WHERE run_id = ?"
			     " ORDER BY key",
			     &run_id, read_env, NULL, release_env, sizeof(**out), out, n);
}

void query_env_free(struct query_env *e, size_t n)
{
	db_list_free(e, n, sizeof(*e), release_env);
}
