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

/* A run of a kernel as the runs table holds it. */
static const struct db_cols run_cols = { sizeof(struct query_run), {
		DB_COL(INT64, struct query_run, id),
		DB_COL(STR, struct query_run, status),
		DB_COL(STR, struct query_run, accel),
		DB_COL(STR, struct query_run, experiment),
		DB_COL(STR, struct query_run, config_path),
		DB_COL(STR, struct query_run, release),
		DB_COL(STR, struct query_run, version),
		DB_COL(STR, struct query_run, cmdline),
		DB_COL(STR, struct query_run, config_hash),
		DB_COL(STR, struct query_run, compiler),
		DB_COL(STR, struct query_run, harness_version),
		DB_COL(STR, struct query_run, git_sha),
		DB_COL(STR, struct query_run, host),
		DB_COL(DOUBLE, struct query_run, started),
		DB_COL(DOUBLE, struct query_run, finished),
		DB_COL(INT64, struct query_run, machine_id),
	}
};

void query_kernel_release(struct query_kernel *k)
{
	if (!k)
		return;
	free(k->label);
	free(k->key);
	free(k->release);
	free(k->version);
	free(k->cmdline);
	free(k->config_hash);
	free(k->base_commit);
	free(k->patches);
	free(k->compiler);
	db_rows_free(&run_cols, k->runs, k->nruns);
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

/* The runs of kernel k, counted in its nruns_pooled when usable. */
static int load_runs(struct mmb_db *db, struct query_kernel *k)
{
	if (db_query_rows(db, "SELECT id, status, accel, experiment, config_path, release, version,"
			  " cmdline, config_hash, compiler, harness_version, git_sha, host,"
			  " started, finished, machine_id"
			  " FROM runs WHERE kernel_id = ? ORDER BY id",
			  DB_ARGS(DB_I64(k->id)), &run_cols, &k->runs, &k->nruns))
		return -1;
	for (size_t i = 0; i < k->nruns; i++)
		if ((k->runs[i].usable = db_run_usable(k->runs[i].status)))
			k->nruns_pooled++;
	return 0;
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
		k->key = xstrdup(labels[i]);
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

static const struct db_cols machine_cols = { sizeof(struct query_machine), {
		DB_COL(INT64, struct query_machine, id),
		DB_COL(STR, struct query_machine, hostname),
		DB_COL(STR, struct query_machine, cpu_model),
		DB_COL(INT, struct query_machine, ncpus),
		DB_COL(INT64, struct query_machine, mem_bytes),
	}
};

int query_machine(struct mmb_db *db, int64_t machine_id, struct query_machine *out)
{
	return db_query_row(db, "SELECT id, hostname, cpu_model, ncpus, mem_bytes FROM machines"
			    " WHERE id = ?", DB_ARGS(DB_I64(machine_id)), &machine_cols, out);
}

void query_machine_release(struct query_machine *m)
{
	db_row_release(&machine_cols, m);
	memset(m, 0, sizeof(*m));
}

static const struct db_cols env_cols = { sizeof(struct query_env), {
		DB_COL(STR, struct query_env, key),
		DB_COL(STR, struct query_env, value),
		DB_COL(STR, struct query_env, original),
		DB_COL(BOOL, struct query_env, set),
	}
};

int query_run_env(struct mmb_db *db, int64_t run_id, struct query_env **out, size_t *n)
{
	return db_query_rows(db, "SELECT key, value, original, original IS NOT NULL FROM run_env"
			     " WHERE run_id = ? ORDER BY key",
			     DB_ARGS(DB_I64(run_id)), &env_cols, out, n);
}

void query_env_free(struct query_env *e, size_t n)
{
	db_rows_free(&env_cols, e, n);
}
