/* Results database: schema, migrations and the writes the runner makes. */
#ifndef MMB_DB_H
#define MMB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMB_DB_DEFAULT "mmbench.db"

/*
 * An open results database, opaque: only db/ speaks SQL, and only db/
 * sees inside the connection (struct db_conn in db/db-internal.h).  Held
 * by value; zero it or db_open() it, db_close() it.
 */
struct db_conn;
struct mmb_db {
	struct db_conn *c;
};

/* What we know about a kernel; NULL fields are stored as NULL. */
struct kernel_info {
	const char *label;
	const char *release;		/* uname -r */
	const char *version;		/* uname -v */
	const char *cmdline;
	const char *config_hash;	/* sha256 of .config when available */
	const char *base_commit;
	const char *patches;		/* JSON: [{"subject":..,"hash":..}] */
	const char *compiler;
};

struct machine_info {
	const char *hostname;
	const char *cpu_model;
	int ncpus;
	uint64_t mem_bytes;
};

/*
 * runs.accel of a boot on the virtual clock (single-threaded TCG with
 * icount, harness/kernel/qemu.h): its times count guest instructions, so
 * it is never pooled or compared with a real clock's runs.
 */
#define RUN_ACCEL_VIRTUAL "tcg-icount"

struct run_info {
	int64_t kernel_id;
	int64_t machine_id;
	const char *experiment;
	const char *config_path;
	const char *config_text;
	const char *release, *version, *cmdline, *config_hash;
	const char *harness_version, *git_sha, *compiler;
	const char *accel;		/* host, kvm, tcg, tcg-icount, import */
	const char *options;		/* plan options, one per line (runs.options); NULL: none */
};

struct iteration_info {
	int64_t run_id;
	const char *workload;
	const char *variant;		/* "clients=4" (matrix params only) */
	const char *variant_json;	/* the same typed (variant.h); NULL: typed from the text */
	const char *params;		/* every param, "k=v k=v" */
	int iteration;			/* 1..N measured, -N..-1 warm-up */
	bool warmup;
	const char *status;		/* ok, failed, skipped */
	const char *reason;
	double started;			/* wall clock seconds */
	double elapsed;			/* seconds */
	const char *disturbed;		/* NULL: clean; else why (interference.h) */
	bool measured;			/* interference below was measured */
	double interference;		/* pooled level (interference_level()) */
};

struct sample_info {
	const char *metric;
	const char *unit;
	int better;			/* +1 higher, -1 lower */
	int seq;			/* several samples per iteration (per thread) */
	double value;
};

/*
 * The pooling rule, the one place it is written: a run whose status is
 * 'complete' or 'interrupted' contributes samples; 'failed' and 'running'
 * ones never do.  SQL in db/ asks the same through usable_run(status).
 */
bool db_run_usable(const char *status);

/*
 * One connection, one thread: skip SQLite's mutexes and memory statistics
 * (a few % of a bulk load).  Call before the first db_open(); harmless
 * (ignored) after.
 */
void db_single_thread(void);
/* A bulk load follows: a big page cache, temp tables in memory, no foreign key checks. */
void db_bulk_load(struct mmb_db *db);

/* Open (creating and migrating) the database; WAL; marks dead runs interrupted. */
int db_open(struct mmb_db *db, const char *path);
#define DB_ENOENT (-2)	/* db_open_existing(): no such file (a usage error, exit 2) */

/*
 * Open an existing database read-only for reporting: 0, DB_ENOENT or -1.
 * It never creates a file beside a database that is not its user's, or in
 * a folder it cannot write (docs/store.md, "Readers create nothing").
 */
int db_open_existing(struct mmb_db *db, const char *path);
/*
 * SQLite's quick_check of the open file: 0 sound, 1 damaged (why says
 * where, as SQLite does: a damaged page, a bad index), -1 not checked.
 * For a file from elsewhere (a fleet node's run.db) before it is trusted.
 */
int db_damaged(struct mmb_db *db, char *why, size_t n);
/*
 * 0, or -1 after error() when a reader that could not lock the file (read
 * as immutable) finds that a writer changed it meanwhile: what it read
 * may be torn.  db_read_torn() then says so until the process ends.
 */
int db_close(struct mmb_db *db);
bool db_read_torn(void);
/* --db FILE, else $MMBENCH_DB, else ./mmbench.db */
const char *db_default_path(const char *opt);

/* PRAGMA user_version, or -1 (after an error message) when it cannot be read. */
int db_schema_version(struct mmb_db *db);
int db_exec(struct mmb_db *db, const char *sql);
int db_begin(struct mmb_db *db);
int db_commit(struct mmb_db *db);
int db_rollback(struct mmb_db *db);

/* Returns the row id (>0) or -1; db_kernel_find() 0 when there is no such label. */
int64_t db_kernel_upsert(struct mmb_db *db, const struct kernel_info *k);
int64_t db_kernel_find(struct mmb_db *db, const char *label);
int64_t db_machine_upsert(struct mmb_db *db, const struct machine_info *m);
/*
 * A run of this mmbench (harness_version, git_sha) on kernel_id, everything
 * else zero: the caller adds what it knows of the kernel and machine.
 */
void run_info_init(struct run_info *r, int64_t kernel_id, const char *experiment,
		   const char *config_path, const char *accel);
int64_t db_run_begin(struct mmb_db *db, const struct run_info *r);
int db_run_env(struct mmb_db *db, int64_t run_id, const char *key,
	       const char *value, const char *original);
int db_run_finish(struct mmb_db *db, int64_t run_id, const char *status);
/*
 * `run --resume`: an interrupted run is 'running' again, owned by this
 * process.  0, 1 when the run is no longer interrupted (another resume
 * took it), -1 on error.
 */
int db_run_resume(struct mmb_db *db, int64_t run_id);
/* The environment as found, key by key, where the run did not set the key itself. */
int db_run_env_found(struct mmb_db *db, int64_t run_id, const char *const *keys,
		     const char *const *values, size_t n);
/* The accelerator a VM run ended up under (a KVM probe may fall back to TCG). */
int db_run_set_accel(struct mmb_db *db, int64_t run_id, const char *accel);
/* The id of a (workload, variant, metric, unit, better) series, made on first use. */
int64_t db_series_id(struct mmb_db *db, const char *workload, const char *variant,
		     const char *metric, const char *unit, int better);
/* One iteration with its samples and monitor deltas, in one transaction. */
int64_t db_iteration_add(struct mmb_db *db, const struct iteration_info *it,
			 const struct sample_info *samples, int nsamples,
			 const char *const *mon_keys, const double *mon_deltas, int nmon,
			 const char *mon_source);

/* sqlite error text for messages. */
const char *db_errmsg(struct mmb_db *db);
/* The file it was opened as ("" when not open), for messages. */
const char *db_path(const struct mmb_db *db);

/* Migrations are data: each entry upgrades user_version i to i+1. */
extern const char *const db_migrations[];
extern const int db_nr_migrations;
extern const int db_reader_min_version;

#endif
