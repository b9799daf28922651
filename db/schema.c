/*
 * The schema, as an ordered list of migrations.  PRAGMA user_version holds
 * how many have been applied.  Never edit an entry once released: append.
 */
#include "db.h"

const char *const db_migrations[] = {
	/* 0 -> 1: initial schema */
	"CREATE TABLE kernels ("
	"  id INTEGER PRIMARY KEY,"
	"  label TEXT NOT NULL UNIQUE,"
	"  release TEXT, version TEXT, cmdline TEXT, config_hash TEXT,"
	"  base_commit TEXT, patches TEXT, compiler TEXT,"
	"  created REAL NOT NULL DEFAULT (julianday('now')));"
	"CREATE TABLE machines ("
	"  id INTEGER PRIMARY KEY,"
	"  hostname TEXT, cpu_model TEXT, ncpus INTEGER, mem_bytes INTEGER,"
	"  UNIQUE(hostname, cpu_model, ncpus, mem_bytes));"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  kernel_id INTEGER NOT NULL REFERENCES kernels(id),"
	"  machine_id INTEGER REFERENCES machines(id),"
	"  experiment TEXT, config_path TEXT, config_text TEXT,"
	"  release TEXT, version TEXT, cmdline TEXT, config_hash TEXT,"
	"  harness_version TEXT, git_sha TEXT, compiler TEXT, accel TEXT,"
	"  pid INTEGER, host TEXT,"
	"  started REAL, finished REAL,"
	"  status TEXT NOT NULL CHECK (status IN"
	"    ('running','complete','interrupted','failed')));"
	"CREATE TABLE run_env ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  key TEXT NOT NULL, value TEXT, original TEXT,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE iterations ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  workload TEXT NOT NULL, variant TEXT NOT NULL, params TEXT,"
	"  iteration INTEGER NOT NULL, warmup INTEGER NOT NULL DEFAULT 0,"
	"  status TEXT NOT NULL CHECK (status IN ('ok','failed','skipped')),"
	"  reason TEXT, started REAL, elapsed REAL);"
	"CREATE TABLE samples ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  iteration_id INTEGER REFERENCES iterations(id),"
	"  workload TEXT NOT NULL, variant TEXT NOT NULL,"
	"  metric TEXT NOT NULL, unit TEXT, better INTEGER NOT NULL,"
	"  iteration INTEGER NOT NULL, seq INTEGER NOT NULL DEFAULT 0,"
	"  value REAL NOT NULL);"
	"CREATE INDEX samples_by_metric ON samples(workload, variant, metric, run_id);"
	"CREATE INDEX samples_by_run ON samples(run_id);"
	"CREATE TABLE monitors ("
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id),"
	"  source TEXT NOT NULL, key TEXT NOT NULL, delta REAL NOT NULL);"
	"CREATE INDEX monitors_by_iteration ON monitors(iteration_id);",
};

const int db_nr_migrations = sizeof(db_migrations) / sizeof(db_migrations[0]);
