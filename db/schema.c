/*
 * The schema, as an ordered list of migrations.  PRAGMA user_version holds
 * how many have been applied.  Never edit an entry once released: append.
 */
#include "db.h"

/* A random RFC 4122 version-4 UUID, evaluated per row. */
#define DB_UUID_SQL \
	"(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||" \
	" substr(lower(hex(randomblob(2))), 2) || '-' ||" \
	" substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) ||" \
	" '-' || lower(hex(randomblob(6))))"

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

	/*
	 * 1 -> 2: samples name their (workload, variant, metric, unit, better)
	 * by a series id instead of repeating the text.  The runner writes a
	 * sample_values row per sample; import writes one sample_blocks row
	 * per series and file, data = JSON [[iteration, seq, value], ...]
	 * (a row per sample caps SQLite near 600k samples/s on a small VM).
	 * "samples" stays, as a view over both, so every reader (and user SQL)
	 * sees the old columns; block samples get ids from 2^62 up, block id
	 * times 2^24 plus the index in the block, in the order written.
	 */
	"CREATE TABLE series ("
	"  id INTEGER PRIMARY KEY,"
	"  workload TEXT NOT NULL, variant TEXT NOT NULL, metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL DEFAULT '', better INTEGER NOT NULL,"
	"  UNIQUE (workload, variant, metric, unit, better));"
	"CREATE TABLE sample_values ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  iteration_id INTEGER REFERENCES iterations(id),"
	"  series_id INTEGER NOT NULL REFERENCES series(id),"
	"  iteration INTEGER NOT NULL, seq INTEGER NOT NULL DEFAULT 0,"
	"  value REAL NOT NULL);"
	"INSERT INTO series (workload, variant, metric, unit, better)"
	"  SELECT DISTINCT workload, variant, metric, ifnull(unit, ''), better FROM samples"
	"  ORDER BY workload, variant, metric;"
	"INSERT INTO sample_values (id, run_id, iteration_id, series_id, iteration, seq, value)"
	"  SELECT x.id, x.run_id, x.iteration_id, s.id, x.iteration, x.seq, x.value"
	"  FROM samples x JOIN series s ON s.workload = x.workload AND s.variant = x.variant"
	"   AND s.metric = x.metric AND s.unit = ifnull(x.unit, '') AND s.better = x.better"
	"  ORDER BY x.id;"
	"DROP TABLE samples;"
	"CREATE INDEX sample_values_by_run ON sample_values(run_id);"
	"CREATE INDEX sample_values_by_series ON sample_values(series_id, run_id);"
	"CREATE TABLE sample_blocks ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  series_id INTEGER NOT NULL REFERENCES series(id),"
	"  n INTEGER NOT NULL CHECK (n BETWEEN 1 AND 16777215),"
	"  data TEXT NOT NULL);"
	"CREATE INDEX sample_blocks_by_run ON sample_blocks(run_id);"
	"CREATE VIEW samples AS SELECT"
	"  v.id AS id, v.run_id AS run_id, v.iteration_id AS iteration_id,"
	"  s.workload AS workload, s.variant AS variant, s.metric AS metric,"
	"  nullif(s.unit, '') AS unit, s.better AS better,"
	"  v.iteration AS iteration, v.seq AS seq, v.value AS value, v.series_id AS series_id"
	"  FROM sample_values v JOIN series s ON s.id = v.series_id"
	" UNION ALL SELECT"
	"  4611686018427387904 + b.id * 16777216 + j.key, b.run_id, NULL,"
	"  s.workload, s.variant, s.metric, nullif(s.unit, ''), s.better,"
	"  json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),"
	"  CAST(json_extract(j.value, '$[2]') AS REAL), b.series_id"
	"  FROM sample_blocks b JOIN series s ON s.id = b.series_id, json_each(b.data) j;",

	/*
	 * 2 -> 3: what disturbed an iteration.  disturbed: NULL when clean,
	 * else the reasons ("foreign CPU 48% of 2 CPUs (limit 10%); knob
	 * thp.enabled changed to always").  interference: the level compare
	 * pools (others' CPU share + steal share of the iteration's CPUs),
	 * NULL when not measured (imports, older runs).  The whole record is
	 * in monitors with source 'interference'.
	 */
	"ALTER TABLE iterations ADD COLUMN disturbed TEXT;"
	"ALTER TABLE iterations ADD COLUMN interference REAL;",

	/*
	 * 3 -> 4: a run's stable name across databases (merge is idempotent
	 * by it): a random UUID (version 4 layout), given to every existing
	 * run here and to every new one by the trigger, whichever code
	 * inserts it; merge copies the source's.
	 */
	"ALTER TABLE runs ADD COLUMN uuid TEXT;"
	"UPDATE runs SET uuid = " DB_UUID_SQL ";"
	"CREATE UNIQUE INDEX runs_by_uuid ON runs(uuid);"
	"CREATE TRIGGER runs_uuid AFTER INSERT ON runs WHEN NEW.uuid IS NULL"
	" BEGIN UPDATE runs SET uuid = " DB_UUID_SQL " WHERE id = NEW.id; END;",

	/*
	 * 4 -> 5: the options that shaped the run's plan (--iterations,
	 * --quick, --workload, --precision, --set, ...), one "--opt=value"
	 * per line, so `run --resume` plans what the run planned.  NULL for
	 * older runs, imports and runs `reproduce` made: not resumable.
	 */
	"ALTER TABLE runs ADD COLUMN options TEXT;",

	/*
	 * 5 -> 6: a variant's typed params as JSON (variant.h), written by the
	 * runner from the plugin's descriptors.  NULL (imports, streams, rows
	 * older than this) is typed from the variant's text when read.
	 */
	"ALTER TABLE series ADD COLUMN params_json TEXT;",

	/*
	 * 6 -> 7: run --profile (docs/profiles.md).  One profiles row per run
	 * and variant: the event perf sampled (cycles, or cpu-clock without a
	 * hardware PMU), the samples it took and a note; profile_rows holds its
	 * per-symbol self and per-call-chain percentages of the sampled
	 * period.  Both hang off run_id only, so merge and rm handle them like
	 * any run's rows.
	 */
	"CREATE TABLE profiles ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  workload TEXT NOT NULL, variant TEXT NOT NULL,"
	"  event TEXT NOT NULL, samples INTEGER NOT NULL, note TEXT,"
	"  PRIMARY KEY (run_id, workload, variant));"
	"CREATE TABLE profile_rows ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  workload TEXT NOT NULL, variant TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('self', 'calltrace')),"
	"  name TEXT NOT NULL, pct REAL NOT NULL CHECK (pct >= 0 AND pct <= 100),"
	"  PRIMARY KEY (run_id, workload, variant, kind, name));",

	/*
	 * 7 -> 8: rm and merge find a run's samples by iteration_id; without
	 * an index each removed run scanned every sample (removing 200 runs
	 * of a 100k-sample DB took 35 s, holding the write lock).
	 */
	"CREATE INDEX sample_values_by_iteration ON sample_values(iteration_id);",

	/*
	 * 8 -> 9: sample blocks are packed binary (db/block.h): 8 bytes a
	 * value instead of ~20 of JSON text, decoded without a parser.  The
	 * view reads a block, either kind, through mmb_samples() (db/blockvt.h;
	 * the sqlite3 shell loads it as an extension, docs/store.md).  Writers
	 * convert the JSON blocks of older files afterwards in bounded batches
	 * (db_blocks_convert()): a kill midway leaves both kinds, which read.
	 */
	"DROP VIEW samples;"
	"CREATE VIEW samples AS SELECT"
	"  v.id AS id, v.run_id AS run_id, v.iteration_id AS iteration_id,"
	"  s.workload AS workload, s.variant AS variant, s.metric AS metric,"
	"  nullif(s.unit, '') AS unit, s.better AS better,"
	"  v.iteration AS iteration, v.seq AS seq, v.value AS value, v.series_id AS series_id"
	"  FROM sample_values v JOIN series s ON s.id = v.series_id"
	" UNION ALL SELECT"
	"  4611686018427387904 + b.id * 16777216 + j.key, b.run_id, NULL,"
	"  s.workload, s.variant, s.metric, nullif(s.unit, ''), s.better,"
	"  j.iteration, j.seq, j.value, b.series_id"
	"  FROM sample_blocks b JOIN series s ON s.id = b.series_id, mmb_samples(b.data, b.n) j;",

	/*
	 * 9 -> 10: a run's sample count (list runs, list kernels, merge) is
	 * the sum of its blocks' n, which the run index alone did not hold:
	 * each block's row was read, a page each (0.2 s for 200 runs of a
	 * 10M-sample fleet DB, issue 31).  With n in the index it is a few
	 * pages; id stays second, so readers' ORDER BY run_id, id is still
	 * the index's order (sorting blocks cost compare a quarter).
	 */
	"CREATE INDEX sample_blocks_by_run_n ON sample_blocks(run_id, id, n);"
	"DROP INDEX sample_blocks_by_run;",

	/*
	 * 10 -> 11: the runner's samples end up in blocks too.  A run's
	 * sample_values rows (one a sample, committed with each iteration so
	 * kill -9 loses at most one) are packed into a block per series when
	 * the run ends (db_run_pack()).  A block names iterations by number,
	 * not id: readers find an iteration's disturbed mark and interference
	 * level by (run, workload, variant, number) among the measured ones,
	 * which this index serves, and the view gives block samples the
	 * iteration_id that number names (NULL for imports, which have no
	 * iterations rows).  order_key keeps compare's row order: the rows
	 * came first, in the order of their ids; a packed block sorts as
	 * 2^61 + (iteration id of its first row) * 2^24 + (that row's place
	 * in the iteration), ahead of import's blocks (2^62 + id * 2^24) and,
	 * as rows did, in the order the iterations were recorded.  NULL for
	 * import's blocks.
	 */
	"ALTER TABLE sample_blocks ADD COLUMN order_key INTEGER;"
	"CREATE INDEX iterations_by_number ON iterations(run_id, workload, variant, iteration);"
	"DROP VIEW samples;"
	"CREATE VIEW samples AS SELECT"
	"  v.id AS id, v.run_id AS run_id, v.iteration_id AS iteration_id,"
	"  s.workload AS workload, s.variant AS variant, s.metric AS metric,"
	"  nullif(s.unit, '') AS unit, s.better AS better,"
	"  v.iteration AS iteration, v.seq AS seq, v.value AS value, v.series_id AS series_id"
	"  FROM sample_values v JOIN series s ON s.id = v.series_id"
	" UNION ALL SELECT"
	"  4611686018427387904 + b.id * 16777216 + j.key, b.run_id,"
	"  (SELECT i.id FROM iterations i WHERE i.run_id = b.run_id AND i.workload = s.workload"
	"   AND i.variant = s.variant AND i.iteration = j.iteration AND i.warmup = 0"
	"   ORDER BY i.id LIMIT 1),"
	"  s.workload, s.variant, s.metric, nullif(s.unit, ''), s.better,"
	"  j.iteration, j.seq, j.value, b.series_id"
	"  FROM sample_blocks b JOIN series s ON s.id = b.series_id, mmb_samples(b.data, b.n) j;",
};

const int db_nr_migrations = sizeof(db_migrations) / sizeof(db_migrations[0]);
/*
 * The oldest version a reader reads as it is: what came after it only adds
 * indexes (10) and names block samples' iterations in the view (11, for
 * the runner's blocks, which only a file at 11 holds).  An older file is
 * migrated in memory by a reader, a copy of the whole file: for a fleet's
 * database, once per command.
 */
const int db_reader_min_version = 9;
