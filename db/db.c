#include "db-internal.h"
#include "../harness/base/util.h"
#include "version.h"
#include "blockvt.h"
#include "blockwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* PRAGMA user_version; 0, or -1 after saying why it could not be read. */
static int read_user_version(struct mmb_db *db, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->c->sql, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return error("%s: cannot read schema version: %s", db->c->path, db_errmsg(db));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error("%s: cannot read schema version: %s", db->c->path, db_errmsg(db));
	return 0;
}

int db_schema_version(struct mmb_db *db)
{
	int v;

	return read_user_version(db, &v) ? -1 : v;
}

/* The version is a number anyone can set: 0..N, or error(). */
static int check_version(struct mmb_db *db, int v)
{
	if (v < 0)
		return error("%s: schema version %d is not one mmbench writes (0..%d): not an mmbench database, or a damaged one",
			     db->c->path, v, db_nr_migrations);
	if (v > db_nr_migrations)
		return error("%s: schema version %d is newer than this mmbench (%d); upgrade mmbench",
			     db->c->path, v, db_nr_migrations);
	return 0;
}

/*
 * After migration v (0-based) and inside its transaction: what SQL alone
 * cannot do.  Migration 4 gave every run of an older file a random uuid;
 * db_runs_identify() names them by what they recorded instead, so every
 * copy of the file, migrated in memory or in place, names them alike.
 */
static int migration_fixup(struct mmb_db *db, int v)
{
	return v == 3 ? db_runs_identify(db) : 0;
}

/*
 * Every migration the file lacks, under the write lock and in one
 * transaction.  The version is read, and the schema checked against it
 * again when it moved since open_checked() looked (checked), only once
 * the lock is held: a second writer waits for the first and then finds
 * the file migrated (it read the version before locking and ran a step
 * the first had made, on a file at a later version: a file every command
 * refused, or "migration 9 -> 10 failed").  A failure anywhere rolls back
 * every step: the file stays at its old version.
 */
static int db_migrate(struct mmb_db *db, int checked)
{
	char pragma[64];
	int v, w, ret;

	/* versions only grow: at the newest, there is nothing to wait for */
	if (checked == db_nr_migrations)
		return 0;
	if (db_begin(db))
		return -1;
	ret = read_user_version(db, &v) || check_version(db, v) ? -1 : 0;
	if (!ret && v != checked) {
		db_guard_arm(db->c, true);
		ret = db_guard_schema(db->c, "main", v);
		db_guard_arm(db->c, false);
	}
	for (w = v; !ret && w < db_nr_migrations; w++)
		if (db_exec(db, db_migrations[w]) || migration_fixup(db, w))
			ret = error("%s: migration %d -> %d failed", db->c->path, w, w + 1);
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", db_nr_migrations);
	if (!ret && v < db_nr_migrations && db_exec(db, pragma))
		ret = -1;
	if (ret || db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	return 0;
}

/*
 * A run still "running" whose process is gone was killed: say so.  This
 * reads every run, so a damaged runs table is found here, at open: -1.
 * (The UPDATE may fail on a read-only DB; readers still work.)
 */
static int db_mark_dead_runs(struct mmb_db *db)
{
	sqlite3_stmt *st, *up;
	char host[256] = "";
	int rc;

	gethostname(host, sizeof(host) - 1);
	if (db_prepare(db, "SELECT id, pid, host FROM runs WHERE status = 'running'", &st))
		return -1;
	if (db_prepare(db, "UPDATE runs SET status = 'interrupted' WHERE id = ?", &up)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pid_t pid = sqlite3_column_int(st, 1);
		const char *h = db_col_raw(st, 2);	/* compared, not shown */

		if (h && strcmp(h, host))
			continue;	/* another machine's run (shared DB): leave it */
		if (pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) && pid != getpid())
			continue;
		sqlite3_bind_int64(up, 1, sqlite3_column_int64(st, 0));
		sqlite3_step(up);
		sqlite3_reset(up);
	}
	if (rc != SQLITE_DONE)
		db_fail(db);
	sqlite3_finalize(up);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A reader's stand-in for db_mark_dead_runs(): a damaged runs table is found at open too. */
static int db_check_runs(struct mmb_db *db)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "SELECT id, pid, host, status FROM runs", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	return db_done(db, st, rc);
}

void db_single_thread(void)
{
	/* SQLITE_MISUSE if SQLite was already initialised in this process: fine */
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void db_bulk_load(struct mmb_db *db)
{
	db_exec(db, "PRAGMA cache_size = -8192");
	db_exec(db, "PRAGMA temp_store = MEMORY");
	/* every id a bulk load uses is one it just made: checking them costs ~1/4 */
	db_exec(db, "PRAGMA foreign_keys = OFF");
}

bool db_run_usable(const char *status)
{
	return status && (!strcmp(status, "complete") || !strcmp(status, "interrupted"));
}

static void sql_usable_run(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	sqlite3_result_int(ctx, db_run_usable((const char *)sqlite3_value_text(argv[0])));
}

/* mmb_ctl(text): does it hold a control byte (name_ctl())?  NULL: no. */
static void sql_ctl(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	sqlite3_result_int(ctx, name_ctl((const char *)sqlite3_value_text(argv[0])) != NULL);
}

/*
 * Another process holds the lock (a long rm or merge): wait for it, up
 * to 10 minutes, rather than fail a write and lose what it records -- a
 * finished iteration, a run's end.  Said once, after 10 s.
 */
#define DB_BUSY_MS	(10 * 60 * 1000)

static int db_busy(void *arg, int n)
{
	struct db_conn *c = arg;
	int ms = n < 10 ? 10 : 100;

	if (!n)
		c->busy_ms = 0;
	if (c->busy_ms >= DB_BUSY_MS)
		return 0;
	if (c->busy_ms < 10000 && c->busy_ms + ms >= 10000)
		info("%s: another process is writing to it; waiting for its lock", c->path);
	usleep((useconds_t)ms * 1000);
	c->busy_ms += ms;
	return 1;
}

/*
 * Switching a rollback-journal file to WAL takes an exclusive lock
 * without the busy handler: beside another process's open it fails at
 * once with "database is locked" (1 of 200 trials of e2e 204: an import
 * beside an import of the same old file).  Retried here as the busy
 * handler would, within its bound.
 */
static int db_enter_wal(struct mmb_db *db)
{
	for (int n = 0;; n++) {
		int rc = sqlite3_exec(db->c->sql, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY || !db_busy(db->c, n))
			return error("%s: cannot switch to WAL: %s", db->c->path, db_errmsg(db));
	}
}

/*
 * Any file may come from elsewhere: defences on, then, under a work
 * budget, its version and a schema that is exactly ours (a view over an
 * endless CTE, a trigger, a table we do not know: refused, not run).
 */
static int open_checked(struct mmb_db *db, int *v)
{
	int ret;

	if (db_guard_defend(db->c))
		return -1;
	db_guard_arm(db->c, true);
	/*
	 * one read transaction: the version and the schema of one moment, not
	 * a version from before a writer's migration and a schema from after
	 */
	ret = db_exec(db, "BEGIN") || read_user_version(db, v) || check_version(db, *v) ||
	      db_guard_schema(db->c, "main", *v) ? -1 : 0;
	if (ret && db->c->guard_calls > 0 && sqlite3_errcode(db->c->sql) == SQLITE_INTERRUPT)
		error("%s: gave up reading it: opening took more work than any mmbench database needs",
		      db->c->path);
	if (!sqlite3_get_autocommit(db->c->sql))
		sqlite3_exec(db->c->sql, "COMMIT", NULL, NULL, NULL);
	db_guard_arm(db->c, false);
	/*
	 * The schema is now exactly ours, so its views may call what they
	 * call (SQLite 3.40's json_extract() is not marked innocuous).
	 */
	if (!ret)
		db_guard_trust(db->c);
	return ret;
}

static int db_open_flags(struct mmb_db *db, const char *path, int flags, bool reader)
{
	int v = 0, rc;
	char *target;

	db->c = xcalloc(1, sizeof(*db->c));
	db->c->path = xstrdup(path);
	target = reader ? db_guard_reader_target(db->c, path, &flags) : xstrdup(path);
	if (!target) {
		db_close(db);
		return -1;
	}
	rc = sqlite3_open_v2(target, &db->c->sql, flags, NULL);
	free(target);
	if (rc != SQLITE_OK) {
		error("cannot open database %s: %s", path,
		      db->c->sql ? sqlite3_errmsg(db->c->sql) : "out of memory");
		db_close(db);
		return -1;
	}
	sqlite3_busy_handler(db->c->sql, db_busy, db->c);
	sqlite3_extended_result_codes(db->c->sql, 1);
	if (open_checked(db, &v)) {
		db_close(db);
		return -1;
	}
	/* a reader never changes the file: an older one is migrated in memory */
	if (reader && v < db_reader_min_version && db_guard_to_memory(db)) {
		db_close(db);
		return -1;
	}
	if (sqlite3_create_function_v2(db->c->sql, "usable_run", 1,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_usable_run,
				       NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db->c->sql, "mmb_ctl", 1,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, NULL,
				       sql_ctl, NULL, NULL, NULL) != SQLITE_OK ||
	    db_block_sql_register(db->c->sql) != SQLITE_OK || db_runid_register(db->c->sql)) {
		db_fail(db);
		db_close(db);
		return -1;
	}
	if (reader) {
		if ((db->c->in_memory && db_migrate(db, v)) || db_guard_runs_view(db) ||
		    db_check_runs(db)) {
			db_close(db);
			return -1;
		}
		return 0;
	}
	/* WAL + synchronous=NORMAL: a committed iteration survives kill -9. */
	if (db_enter_wal(db) ||
	    db_exec(db, "PRAGMA synchronous = NORMAL") ||
	    db_exec(db, "PRAGMA foreign_keys = ON") || db_migrate(db, v) ||
	    db_blocks_convert(db, 0, isatty(STDERR_FILENO)) || db_mark_dead_runs(db) ||
	    db_runs_pack(db, isatty(STDERR_FILENO))) {
		db_close(db);
		return -1;
	}
	return 0;
}

/* A writer needs the folder too: SQLite creates FILE-wal and FILE-shm there. */
static int check_dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : xstrdup(".");
	int ret = 0;

	if (access(dir, W_OK) < 0 && (errno == EACCES || errno == EROFS))
		ret = error("cannot record results in %s: folder %s is not writable (%s); SQLite keeps %s-wal and %s-shm beside the database",
			    path, dir, strerror(errno), path, path);
	free(dir);
	return ret;
}

/* A database is a regular file: /dev/null would get a -journal beside it (0666, as root). */
static int check_regular(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return error("database %s is not a regular file (%s); give the path of a file",
			     path, S_ISDIR(st.st_mode) ? "a folder" : S_ISCHR(st.st_mode) ? "a device" :
			     S_ISFIFO(st.st_mode) ? "a FIFO" : "not a file");
	return 0;
}

int db_open(struct mmb_db *db, const char *path)
{
	memset(db, 0, sizeof(*db));
	if (check_regular(path) || check_dir_writable(path) ||
	    db_open_flags(db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, false))
		return -1;
	/*
	 * SQLite quietly opens a write-protected file read-only; a writer
	 * would then fail at its first INSERT, after work was done.  Say it
	 * once, up front.  (Readers use db_open_existing and still work.)
	 */
	if (sqlite3_db_readonly(db->c->sql, "main") == 1) {
		error("database %s is read-only (file permissions or a read-only mount); results cannot be recorded",
		      path);
		db_close(db);
		return -1;
	}
	return 0;
}

int db_open_existing(struct mmb_db *db, const char *path)
{
	if (access(path, F_OK) < 0) {
		error("database %s does not exist (run `mmbench run` or `mmbench import` first)",
		      path);
		return DB_ENOENT;
	}
	memset(db, 0, sizeof(*db));
	if (check_regular(path))
		return -1;
	return db_open_flags(db, path, SQLITE_OPEN_READONLY, true);
}

/*
 * Ballast beside the database, held while a run records: on disk full
 * the run's last write -- marking it failed -- still needs a few WAL
 * frames, so the ballast is given back first (see db_run_finish).
 */
#define DB_RESERVE_BYTES (64 * 1024)

static void reserve_take(struct mmb_db *db)
{
	char *path;
	int fd;

	/* an in-memory or temporary DB has no disk to run out of beside it */
	if (db->c->reserve || !*db->c->path || !strcmp(db->c->path, ":memory:") ||
	    !strncmp(db->c->path, "file:", 5))
		return;
	path = xasprintf("%s-reserve", db->c->path);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(path);
		return;		/* no ballast: only the disk-full corner case is worse */
	}
	/* as much as there is, down to two frames */
	for (off_t len = DB_RESERVE_BYTES; len >= 8192; len /= 2) {
		if (!posix_fallocate(fd, 0, len)) {
			db->c->reserve = path;
			db->c->reserve_fd = fd;
			return;
		}
	}
	close(fd);
	unlink(path);
	free(path);
}

static bool reserve_release(struct mmb_db *db)
{
	if (!db->c->reserve)
		return false;
	unlink(db->c->reserve);
	close(db->c->reserve_fd);
	free(db->c->reserve);
	db->c->reserve = NULL;
	return true;
}

static bool read_torn;

bool db_read_torn(void)
{
	return read_torn;
}

int db_close(struct mmb_db *db)
{
	int ret;

	if (!db->c)
		return 0;
	/* before the close: a file changed meanwhile is said once and fails the command */
	ret = db_guard_reader_unchanged(db->c);
	if (ret)
		read_torn = true;
	reserve_release(db);
	sqlite3_finalize(db->c->series_get);
	sqlite3_finalize(db->c->series_add);
	sqlite3_finalize(db->c->iter_add);
	sqlite3_finalize(db->c->value_add);
	sqlite3_finalize(db->c->monitor_add);
	db->c->series_get = db->c->series_add = NULL;
	db->c->iter_add = db->c->value_add = db->c->monitor_add = NULL;
	if (db->c->sql)
		sqlite3_close(db->c->sql);
	db->c->sql = NULL;
	free(db->c->path);
	free(db->c);
	db->c = NULL;
	return ret;
}

static int64_t step_id(struct mmb_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	int64_t id = -1;

	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db->c->sql);
	else
		error("%s: cannot record %s: %s", db->c->path, what, db_errmsg(db));
	sqlite3_finalize(st);
	return id;
}

int64_t db_kernel_find(struct mmb_db *db, const char *label)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	if (db_prepare(db, "SELECT id FROM kernels WHERE label = ?", &st))
		return -1;
	db_bind_text_or_null(st, 1, label);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		id = db_fail(db);
	sqlite3_finalize(st);
	return id;
}

int64_t db_kernel_upsert(struct mmb_db *db, const struct kernel_info *k)
{
	sqlite3_stmt *st;
	int64_t id = name_check("kernel label", k->label) ? -1 : db_kernel_find(db, k->label);
	const char *sql = id > 0 ?
		"UPDATE kernels SET release = coalesce(?2, release),"
		" version = coalesce(?3, version), cmdline = coalesce(?4, cmdline),"
		" config_hash = coalesce(?5, config_hash), base_commit = coalesce(?6, base_commit),"
		" patches = coalesce(?7, patches), compiler = coalesce(?8, compiler)"
		" WHERE label = ?1 RETURNING id" :
		"INSERT INTO kernels (label, release, version, cmdline, config_hash,"
		" base_commit, patches, compiler) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

	if (id < 0)
		return -1;
	if (db_prepare(db, sql, &st))
		return -1;
	db_bind_text_or_null(st, 1, k->label);
	db_bind_text_or_null(st, 2, k->release);
	db_bind_text_or_null(st, 3, k->version);
	db_bind_text_or_null(st, 4, k->cmdline);
	db_bind_text_or_null(st, 5, k->config_hash);
	db_bind_text_or_null(st, 6, k->base_commit);
	db_bind_text_or_null(st, 7, k->patches);
	db_bind_text_or_null(st, 8, k->compiler);
	return step_id(db, st, "kernel");
}

int64_t db_machine_upsert(struct mmb_db *db, const struct machine_info *m)
{
	sqlite3_stmt *st;

	if (db_prepare(db, "INSERT INTO machines (hostname, cpu_model, ncpus, mem_bytes)"
		       " VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET ncpus = excluded.ncpus"
		       " RETURNING id", &st))
		return -1;
	db_bind_text_or_null(st, 1, m->hostname);
	db_bind_text_or_null(st, 2, m->cpu_model);
	sqlite3_bind_int(st, 3, m->ncpus);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)m->mem_bytes);
	return step_id(db, st, "machine");
}

void run_info_init(struct run_info *r, int64_t kernel_id, const char *experiment,
		   const char *config_path, const char *accel)
{
	memset(r, 0, sizeof(*r));
	r->kernel_id = kernel_id;
	r->experiment = experiment;
	r->config_path = config_path;
	r->accel = accel;
	r->harness_version = mmb_version;
	r->git_sha = mmb_git_sha;
}

int64_t db_run_begin(struct mmb_db *db, const struct run_info *r)
{
	sqlite3_stmt *st;
	char host[256] = "";
	int64_t id;

	gethostname(host, sizeof(host) - 1);
	if (db_prepare(db, "INSERT INTO runs (kernel_id, machine_id, experiment, config_path,"
		       " config_text, release, version, cmdline, config_hash,"
		       " harness_version, git_sha, compiler, accel, pid, host, started, options,"
		       " status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running')", &st))
		return -1;
	sqlite3_bind_int64(st, 1, r->kernel_id);
	if (r->machine_id > 0)
		sqlite3_bind_int64(st, 2, r->machine_id);
	else
		sqlite3_bind_null(st, 2);
	db_bind_text_or_null(st, 3, r->experiment);
	db_bind_text_or_null(st, 4, r->config_path);
	db_bind_text_or_null(st, 5, r->config_text);
	db_bind_text_or_null(st, 6, r->release);
	db_bind_text_or_null(st, 7, r->version);
	db_bind_text_or_null(st, 8, r->cmdline);
	db_bind_text_or_null(st, 9, r->config_hash);
	db_bind_text_or_null(st, 10, r->harness_version);
	db_bind_text_or_null(st, 11, r->git_sha);
	db_bind_text_or_null(st, 12, r->compiler);
	db_bind_text_or_null(st, 13, r->accel);
	sqlite3_bind_int(st, 14, (int)getpid());
	db_bind_text_or_null(st, 15, host);
	sqlite3_bind_double(st, 16, now_wall());
	db_bind_text_or_null(st, 17, r->options);
	id = step_id(db, st, "run");
	/* after the row: the ballast must not be what keeps the run from starting */
	if (id > 0)
		reserve_take(db);
	return id;
}

int db_run_env(struct mmb_db *db, int64_t run_id, const char *key,
	       const char *value, const char *original)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "INSERT INTO run_env (run_id, key, value, original) VALUES (?,?,?,?)"
		       " ON CONFLICT DO UPDATE SET value = excluded.value,"
		       " original = coalesce(run_env.original, excluded.original)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	db_bind_text_or_null(st, 2, key);
	db_bind_text_or_null(st, 3, value);
	db_bind_text_or_null(st, 4, original);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: cannot record environment: %s", db->c->path, db_errmsg(db));
	return 0;
}

static int run_finish_once(struct mmb_db *db, int64_t run_id, const char *status)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db->c->sql, "UPDATE runs SET status = ?, finished = ? WHERE id = ?",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	db_bind_text_or_null(st, 1, status);
	sqlite3_bind_double(st, 2, now_wall());
	sqlite3_bind_int64(st, 3, run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int db_run_finish(struct mmb_db *db, int64_t run_id, const char *status)
{
	int rc = run_finish_once(db, run_id, status);

	/*
	 * Disk full (the error that stopped the run, already reported): the
	 * row must still say how the run ended, or it stays 'running'.
	 */
	if ((rc & 0xff) == SQLITE_FULL && reserve_release(db))
		rc = run_finish_once(db, run_id, status);
	if ((rc & 0xff) == SQLITE_FULL &&
	    sqlite3_wal_checkpoint_v2(db->c->sql, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) ==
	    SQLITE_OK)
		rc = run_finish_once(db, run_id, status);
	if (rc != SQLITE_OK)
		return error("%s: cannot mark run %lld %s: %s", db->c->path, (long long)run_id,
			     status, db_errmsg(db));
	/* ended: its rows become blocks (a failure is warned; they read the same) */
	db_run_pack(db, run_id);
	return 0;
}

int db_run_resume(struct mmb_db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	char host[256] = "";
	int rc;

	gethostname(host, sizeof(host) - 1);
	/* the status test makes it a claim: of two resumes one wins */
	if (db_prepare(db, "UPDATE runs SET status = 'running', pid = ?, host = ?, finished = NULL"
		       " WHERE id = ? AND status = 'interrupted'", &st))
		return -1;
	sqlite3_bind_int(st, 1, (int)getpid());
	db_bind_text_or_null(st, 2, host);
	sqlite3_bind_int64(st, 3, run_id);
	rc = sqlite3_step(st);
	if (db_done(db, st, rc))
		return -1;
	if (sqlite3_changes(db->c->sql) != 1)
		return 1;
	reserve_take(db);
	return 0;
}

int db_run_env_found(struct mmb_db *db, int64_t run_id, const char *const *keys,
		     const char *const *values, size_t n)
{
	sqlite3_stmt *st;
	int ret = 0;

	/* keep what runner_env_apply recorded (with its original value) */
	if (db_prepare(db, "INSERT OR IGNORE INTO run_env (run_id, key, value) VALUES (?, ?, ?)",
		       &st))
		return -1;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, keys[i], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, values[i], -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE) {
			/* one error, not one per item (disk full, read-only DB) */
			ret = error("%s: cannot record the run's environment: %s", db->c->path,
				    db_errmsg(db));
			break;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return ret;
}

int db_run_set_accel(struct mmb_db *db, int64_t run_id, const char *accel)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "UPDATE runs SET accel = ? WHERE id = ?", &st))
		return -1;
	db_bind_text_or_null(st, 1, accel);
	sqlite3_bind_int64(st, 2, run_id);
	rc = sqlite3_step(st);
	return db_done(db, st, rc);
}
