/*
 * db_merge_file(): another mmbench DB file into this one (see merge-file.h).
 * The source is ATTACHed and copied with INSERT ... SELECT; the column
 * lists come from the schema itself (pragma_table_info), so a column a
 * later migration adds is copied without touching this file.
 */
#include "merge-file.h"
#include "db-internal.h"
#include "blockwrite.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC "mmb_src"

/*
 * Columns of main.table, quoted, comma-separated, without the ones in
 * skip; with src, only those the source's table has too: a source of
 * schema 9 or 10, read as it is, lacks what later migrations added
 * (sample_blocks.order_key), which the target's rows then have as NULL.
 */
static int table_cols(struct mmb_db *db, const char *table, const char *const *skip,
		      const char *prefix, struct strbuf *out, bool *has, bool src)
{
	sqlite3_stmt *st;
	int rc;

	strbuf_reset(out);
	if (db_prepare(db, src ? "SELECT name FROM pragma_table_info(?1, 'main') WHERE name IN"
		       " (SELECT name FROM pragma_table_info(?1, '" SRC "')) ORDER BY cid" :
		       "SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid", &st))
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = db_col_raw(st, 0);
		bool skipped = false;

		for (size_t i = 0; skip && skip[i]; i++)
			if (!strcmp(skip[i], name)) {
				skipped = true;
				if (has)
					has[i] = true;
			}
		if (skipped)
			continue;
		/* schema names (ours), never user text; quoted as identifiers */
		strbuf_addf(out, "%s%s\"%s\"", out->len ? ", " : "", prefix, name);
	}
	return db_done(db, st, rc);
}

/* table_cols() of what the merge copies: columns both files have */
static int table_columns(struct mmb_db *db, const char *table, const char *const *skip,
			 const char *prefix, struct strbuf *out, bool *has)
{
	return table_cols(db, table, skip, prefix, out, has, true);
}

/* Run sql with ?1..?3 bound to a, b, c; number of rows changed, or -1. */
static int64_t exec3(struct mmb_db *db, const char *sql, int64_t a, int64_t b, int64_t c)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, sql, &st))
		return -1;
	for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++)
		sqlite3_bind_int64(st, i, i == 1 ? a : i == 2 ? b : c);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (db_done(db, st, rc))
		return -1;
	return sqlite3_changes64(db->c->sql);
}

/* First column of the first row as an integer (0 without a row), or -1 on error. */
static int scalar(struct mmb_db *db, const char *sql, int64_t a, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	*out = 0;
	if (db_prepare(db, sql, &st))
		return -1;
	if (sqlite3_bind_parameter_count(st) >= 1)
		sqlite3_bind_int64(st, 1, a);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = SQLITE_DONE;
	}
	return db_done(db, st, rc);
}

static const char *renamed(const struct db_merge_opts *o, struct db_merge_result *res,
			   const char *label)
{
	for (size_t i = 0; o && i < o->nrenames; i++)
		if (!strcmp(o->renames[i].from, label)) {
			if (res && res->rename_used)
				res->rename_used[i] = true;
			return o->renames[i].to;
		}
	return label;
}

struct src_kernel {
	int64_t id;
	char *label, *release, *config_hash;
};

/*
 * Refuse a label that is one kernel here and another there: every label
 * the mergeable runs use, after renames, against the target's.
 */
static int check_labels(struct mmb_db *db, const char *src_path, const struct db_merge_opts *o,
			struct db_merge_result *res)
{
	sqlite3_stmt *st, *dst;
	struct strbuf why = STRBUF_INIT;
	int rc, nconf = 0;
	char *first = NULL;

	if (db_prepare(db, "SELECT DISTINCT k.label, k.release, k.config_hash FROM " SRC ".runs r"
		       " JOIN " SRC ".kernels k ON k.id = r.kernel_id WHERE r.status <> 'running'"
		       " AND r.uuid NOT IN (SELECT uuid FROM main.runs WHERE uuid IS NOT NULL)"
		       " ORDER BY k.id", &st))
		return -1;
	if (db_prepare(db, "SELECT release, config_hash FROM main.kernels WHERE label = ?1",
		       &dst)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *label = db_col_raw(st, 0);
		const char *rel = db_col_raw(st, 1);
		const char *hash = db_col_raw(st, 2);
		const char *to = renamed(o, res, label);
		int drc;

		sqlite3_reset(dst);
		sqlite3_bind_text(dst, 1, to, -1, SQLITE_TRANSIENT);
		drc = sqlite3_step(dst);
		if (drc == SQLITE_ROW) {
			const char *drel = db_col_raw(dst, 0);
			const char *dhash = db_col_raw(dst, 1);
			bool rel_differs = rel && drel && strcmp(rel, drel);
			bool hash_differs = hash && dhash && strcmp(hash, dhash);

			if (rel_differs || hash_differs) {
				strbuf_addf(&why, "%s  label '%s': release %s, config %.12s here;"
					    " release %s, config %.12s in %s", nconf ? "\n" : "",
					    ctl_show(to), drel ? ctl_show(drel) : "?",
					    dhash ? ctl_show(dhash) : "?", rel ? ctl_show(rel) : "?",
					    hash ? ctl_show(hash) : "?", src_path);
				if (!nconf++)
					first = xstrdup(label);
			}
		} else if (drc != SQLITE_DONE) {
			rc = drc;
			break;
		}
	}
	sqlite3_finalize(dst);
	if (db_done(db, st, rc)) {
		free(first);
		strbuf_release(&why);
		return -1;
	}
	if (nconf) {
		error("%s: %d label%s name%s a different kernel than in %s; nothing merged:\n%s\n"
		      "hint: merge them under another label: --rename %s=%s-2", src_path, nconf,
		      nconf > 1 ? "s" : "", nconf > 1 ? "" : "s", db->c->path, why.buf, ctl_show(first),
		      ctl_show(first));
		free(first);
		strbuf_release(&why);
		return DB_MERGE_REFUSED;
	}
	strbuf_release(&why);
	return 0;
}

/* The target's kernel for a source kernel (made, or gaps filled from it). */
static int64_t merge_kernel(struct mmb_db *db, int64_t src_kid, const char *label)
{
	static const char *const skip[] = { "id", "label", NULL };
	struct strbuf cols = STRBUF_INIT, sql = STRBUF_INIT;
	int64_t id = db_kernel_find(db, label);

	if (id < 0 || table_columns(db, "kernels", skip, "", &cols, NULL))
		goto out_fail;
	if (!id) {
		sqlite3_stmt *st;
		int rc;

		strbuf_addf(&sql, "INSERT INTO main.kernels (label, %s) SELECT ?1, %s FROM " SRC
			    ".kernels WHERE id = ?2", cols.buf, cols.buf);
		if (db_prepare(db, sql.buf, &st))
			goto out_fail;
		sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, src_kid);
		rc = sqlite3_step(st);
		if (db_done(db, st, rc))
			goto out_fail;
		id = sqlite3_last_insert_rowid(db->c->sql);
	} else {
		/* what the target does not know, the source may */
		const char *p = cols.buf;

		strbuf_addstr(&sql, "UPDATE main.kernels SET ");
		while (*p) {
			const char *end = strstr(p, ", ");
			size_t n = end ? (size_t)(end - p) : strlen(p);

			strbuf_addf(&sql, "%s%.*s = coalesce(%.*s, (SELECT %.*s FROM " SRC
				    ".kernels WHERE id = ?2))", p == cols.buf ? "" : ", ",
				    (int)n, p, (int)n, p, (int)n, p);
			p += n;
			if (*p)
				p += 2;
		}
		strbuf_addstr(&sql, " WHERE id = ?1");
		if (exec3(db, sql.buf, id, src_kid, 0) < 0)
			goto out_fail;
	}
	strbuf_release(&cols);
	strbuf_release(&sql);
	return id;
out_fail:
	strbuf_release(&cols);
	strbuf_release(&sql);
	return -1;
}

/* The target's machine row equal to the source's (made if new); 0 for none. */
static int64_t merge_machine(struct mmb_db *db, int64_t src_mid)
{
	static const char *const skip[] = { "id", NULL };
	struct strbuf cols = STRBUF_INIT, sql = STRBUF_INIT;
	int64_t id;

	if (src_mid <= 0)
		return 0;
	if (scalar(db, "SELECT d.id FROM main.machines d, " SRC ".machines s WHERE s.id = ?1"
		   " AND d.hostname IS s.hostname AND d.cpu_model IS s.cpu_model"
		   " AND d.ncpus IS s.ncpus AND d.mem_bytes IS s.mem_bytes ORDER BY d.id",
		   src_mid, &id))
		return -1;
	if (id)
		return id;
	if (table_columns(db, "machines", skip, "", &cols, NULL))
		return -1;
	strbuf_addf(&sql, "INSERT INTO main.machines (%s) SELECT %s FROM " SRC
		    ".machines WHERE id = ?1", cols.buf, cols.buf);
	id = exec3(db, sql.buf, src_mid, 0, 0);
	strbuf_release(&cols);
	strbuf_release(&sql);
	if (id < 0)
		return -1;
	return id ? sqlite3_last_insert_rowid(db->c->sql) : 0;
}

/*
 * Copy one table's rows of source run src_run into target run new_run:
 * run_id becomes new_run, iteration_id moves by ioff, series_id is looked
 * up by the series' names, an INTEGER PRIMARY KEY id is made anew.
 */
static int64_t copy_rows(struct mmb_db *db, const char *table, int64_t src_run, int64_t new_run,
			 int64_t ioff)
{
	static const char *const skip[] = { "id", "run_id", "iteration_id", "series_id",
					    "order_key", NULL };
	bool has[5] = { false };
	struct strbuf cols = STRBUF_INIT, xcols = STRBUF_INIT, sql = STRBUF_INIT;
	struct strbuf into = STRBUF_INIT, from = STRBUF_INIT;
	int64_t n;

	if (table_columns(db, table, skip, "", &cols, has) ||
	    table_columns(db, table, skip, "x.", &xcols, NULL))
		goto fail;
	if (!has[1] && !has[2]) {
		n = 0;		/* not a table of runs' rows */
		goto out;
	}
	strbuf_addstr(&into, cols.buf);
	strbuf_addstr(&from, xcols.buf);
	if (has[0] && strcmp(table, "iterations")) {
		/* a new id (kept, moved by ioff, only for iterations) */
	} else if (has[0]) {
		strbuf_addf(&into, "%sid", into.len ? ", " : "");
		strbuf_addf(&from, "%sx.id + ?3", from.len ? ", " : "");
	}
	if (has[1]) {
		strbuf_addf(&into, "%srun_id", into.len ? ", " : "");
		strbuf_addf(&from, "%s?2", from.len ? ", " : "");
	}
	if (has[2]) {
		strbuf_addf(&into, "%siteration_id", into.len ? ", " : "");
		strbuf_addf(&from, "%sx.iteration_id + ?3", from.len ? ", " : "");
	}
	if (has[3]) {
		strbuf_addf(&into, "%sseries_id", into.len ? ", " : "");
		strbuf_addf(&from, "%sd.id", from.len ? ", " : "");
	}
	if (has[4]) {
		/* a packed block sorts by its first row's iteration id (schema.c): moved with it */
		strbuf_addf(&into, "%sorder_key", into.len ? ", " : "");
		strbuf_addf(&from, "%sx.order_key + ?3 * 16777216", from.len ? ", " : "");
	}
	strbuf_addf(&sql, "INSERT INTO main.\"%s\" (%s) SELECT %s FROM " SRC ".\"%s\" x", table,
		    into.buf, from.buf, table);
	if (has[3])
		strbuf_addstr(&sql, " JOIN " SRC ".series s ON s.id = x.series_id"
			      " JOIN main.series d ON d.workload = s.workload AND d.variant = s.variant"
			      " AND d.metric = s.metric AND d.unit = s.unit AND d.better = s.better");
	if (has[1])
		strbuf_addstr(&sql, " WHERE x.run_id = ?1");
	else
		strbuf_addstr(&sql, " WHERE x.iteration_id IN (SELECT id FROM " SRC
			      ".iterations WHERE run_id = ?1)");
	strbuf_addstr(&sql, " ORDER BY x.rowid");
	n = exec3(db, sql.buf, src_run, new_run, ioff);
	goto out;
fail:
	n = -1;
out:
	strbuf_release(&cols);
	strbuf_release(&xcols);
	strbuf_release(&sql);
	strbuf_release(&into);
	strbuf_release(&from);
	return n;
}

/* Tables besides these hang off a run or an iteration (or are skipped). */
static bool table_is_special(const char *name)
{
	static const char *const special[] = { "kernels", "machines", "runs", "series",
					       "iterations", NULL };

	if (!strncmp(name, "sqlite_", 7))
		return true;
	for (size_t i = 0; special[i]; i++)
		if (!strcmp(special[i], name))
			return true;
	return false;
}

static int merge_run(struct mmb_db *db, int64_t src_run, int64_t src_kid, int64_t src_mid,
		     const char *label, struct db_merge_result *res, char ***tables, size_t *ntables)
{
	static const char *const skip[] = { "id", "kernel_id", "machine_id", NULL };
	struct strbuf cols = STRBUF_INIT, sql = STRBUF_INIT;
	int64_t kid, mid, run, imax, imin, n;
	int ret = -1;

	kid = merge_kernel(db, src_kid, label);
	mid = merge_machine(db, src_mid);
	if (kid < 0 || mid < 0 || table_columns(db, "runs", skip, "", &cols, NULL))
		goto out;
	strbuf_addf(&sql, "INSERT INTO main.runs (kernel_id, machine_id, %s)"
		    " SELECT ?1, nullif(?2, 0), %s FROM " SRC ".runs WHERE id = ?3", cols.buf, cols.buf);
	if (exec3(db, sql.buf, kid, mid, src_run) != 1)
		goto out;
	run = sqlite3_last_insert_rowid(db->c->sql);

	/* iteration ids move past the target's: others' rows point at them */
	if (scalar(db, "SELECT ifnull(max(id), 0) FROM main.iterations", 0, &imax) ||
	    scalar(db, "SELECT ifnull(min(id), 0) FROM " SRC ".iterations WHERE run_id = ?1",
		   src_run, &imin))
		goto out;
	n = copy_rows(db, "iterations", src_run, run, imax - imin + 1);
	if (n < 0)
		goto out;
	res->iterations += (size_t)n;

	if (!*tables) {
		sqlite3_stmt *st;
		size_t alloc = 0;
		int rc;

		if (db_prepare(db, "SELECT name FROM main.sqlite_schema WHERE type = 'table'"
			       " ORDER BY rootpage", &st))
			goto out;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *name = db_col_raw(st, 0);

			if (table_is_special(name))
				continue;
			ALLOC_GROW(*tables, *ntables + 1, alloc);
			(*tables)[(*ntables)++] = xstrdup(name);
		}
		if (db_done(db, st, rc))
			goto out;
		if (!*tables)
			*tables = xcalloc(1, sizeof(**tables));
	}
	for (size_t i = 0; i < *ntables; i++)
		if (copy_rows(db, (*tables)[i], src_run, run, imax - imin + 1) < 0)
			goto out;
	if (scalar(db, "SELECT (SELECT count(*) FROM main.sample_values WHERE run_id = ?1) +"
		   " (SELECT ifnull(sum(n), 0) FROM main.sample_blocks WHERE run_id = ?1)", run, &n))
		goto out;
	res->samples += (size_t)n;
	res->runs_added++;
	ret = 0;
out:
	strbuf_release(&cols);
	strbuf_release(&sql);
	return ret;
}

/*
 * What a source must hold before anything of it is copied: rows that keep
 * our schema's invariants (a label on every run's kernel, names without
 * control characters, finite numbers).  A file from another machine may
 * break any of them; the first broken row is named with the source file.
 */
static const struct source_check {
	const char *sql;	/* one row: where, the value as text (may be NULL) */
	const char *why;
} source_checks[] = {
	{ "SELECT 'run ' || r.id, NULL FROM " SRC ".runs r LEFT JOIN " SRC ".kernels k"
	  " ON k.id = r.kernel_id WHERE k.id IS NULL OR k.label IS NULL OR k.label = ''",
	  "has no kernel label (NULL, empty or a missing kernel row)" },
	{ "SELECT 'kernel ' || id, label FROM " SRC ".kernels WHERE mmb_ctl(label)",
	  "label holds a control character" },
	{ "SELECT 'series ' || id, NULL FROM " SRC ".series WHERE workload IS NULL OR variant IS NULL"
	  " OR metric IS NULL OR unit IS NULL OR workload = '' OR metric = ''",
	  "has a NULL or empty name" },
	{ "SELECT 'series ' || id, workload || ' ' || variant || ' ' || metric || ' ' || unit FROM "
	  SRC ".series WHERE mmb_ctl(workload) OR mmb_ctl(variant) OR mmb_ctl(metric) OR mmb_ctl(unit)",
	  "name holds a control character" },
	{ "SELECT 'iteration ' || id, ifnull(workload, '') || ' ' || ifnull(variant, '') FROM " SRC
	  ".iterations WHERE mmb_ctl(workload) OR mmb_ctl(variant)",
	  "name holds a control character" },
	{ "SELECT 'sample ' || rowid || ' of run ' || run_id, CAST(value AS TEXT) FROM " SRC
	  ".sample_values WHERE typeof(value) NOT IN ('integer', 'real') OR abs(value) > 1.7976931348623157e308",
	  "value is not a finite number" },
	{ "SELECT 'sample block ' || b.id || ' of run ' || b.run_id, mmb_block_bad(b.data, b.n) FROM "
	  SRC ".sample_blocks b WHERE mmb_block_bad(b.data, b.n) IS NOT NULL",
	  "is not a sample block of n finite samples" },
};

/*
 * The same invariants on the rows the merge wrote, before the commit: a
 * file whose indexes disagree with its tables (a corrupt or crafted one)
 * can pass the checks above and still copy other rows than were checked.
 * ?1..?5: the highest kernel, series, iteration, sample and block ids
 * before the merge.  Found by fuzz_mergedb.
 */
static const struct source_check target_checks[] = {
	{ "SELECT 'kernel ' || id, label FROM main.kernels WHERE id > ?1"
	  " AND (label = '' OR mmb_ctl(label))",
	  "label is empty or holds a control character" },
	{ "SELECT 'series ' || id, workload || ' ' || variant || ' ' || metric || ' ' || unit"
	  " FROM main.series WHERE id > ?2 AND (workload = '' OR metric = '' OR mmb_ctl(workload)"
	  " OR mmb_ctl(variant) OR mmb_ctl(metric) OR mmb_ctl(unit))",
	  "name is empty or holds a control character" },
	{ "SELECT 'iteration ' || id, workload || ' ' || variant FROM main.iterations"
	  " WHERE id > ?3 AND (mmb_ctl(workload) OR mmb_ctl(variant))",
	  "name holds a control character" },
	{ "SELECT 'sample ' || id, CAST(value AS TEXT) FROM main.sample_values WHERE id > ?4"
	  " AND (typeof(value) NOT IN ('integer', 'real') OR abs(value) > 1.7976931348623157e308)",
	  "value is not a finite number" },
	{ "SELECT 'sample block ' || b.id, mmb_block_bad(b.data, b.n) FROM main.sample_blocks b"
	  " WHERE b.id > ?5 AND mmb_block_bad(b.data, b.n) IS NOT NULL",
	  "is not a sample block of n finite samples" },
};

#define NMARKS 5
static const char *const mark_sql[NMARKS] = {
	"SELECT ifnull(max(id), 0) FROM main.kernels",
	"SELECT ifnull(max(id), 0) FROM main.series",
	"SELECT ifnull(max(id), 0) FROM main.iterations",
	"SELECT ifnull(max(id), 0) FROM main.sample_values",
	"SELECT ifnull(max(id), 0) FROM main.sample_blocks",
};

/* The first row breaking one of the checks, named with the source: DB_MERGE_REFUSED, 0 or -1. */
static int run_checks(struct mmb_db *db, const struct source_check *checks, size_t n,
		      const int64_t *marks, const char *src_name, const char *when)
{
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *st;
		int rc;

		if (db_prepare(db, checks[i].sql, &st))
			return -1;
		for (int m = 0; marks && m < NMARKS; m++)
			sqlite3_bind_int64(st, m + 1, marks[m]);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			const char *val = db_col_raw(st, 1);
			char *where = db_col_str(st, 0), *esc = val ? ctl_escape(val) : NULL;

			error("cannot merge %s: %s%s %s%s%s%s; nothing merged", src_name, when, where,
			      checks[i].why, esc ? " ('" : "", esc ? esc : "", esc ? "')" : "");
			free(where);
			free(esc);
			sqlite3_finalize(st);
			return DB_MERGE_REFUSED;
		}
		if (db_done(db, st, rc))
			return -1;
	}
	return 0;
}

/*
 * The source as mmbench opens any DB it only reads: read-only, its schema
 * checked, an older one migrated in memory; then attached as a
 * copy in memory, so nothing the merge does can write the file, and the
 * file cannot change between the check and the copy.
 */
static int open_source(struct mmb_db *dst, const char *src_path, const char *name)
{
	char why[512];
	struct mmb_db src;
	struct stat a, b;
	int ret;

	if (stat(src_path, &a) < 0) {
		error("cannot merge %s: %s", src_path, strerror(errno));
		return DB_MERGE_REFUSED;
	}
	if (!S_ISREG(a.st_mode)) {
		error("cannot merge %s: not a regular file", src_path);
		return DB_MERGE_REFUSED;
	}
	if (stat(dst->c->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		error("cannot merge %s into itself", src_path);
		return DB_MERGE_REFUSED;
	}
	ret = db_open_existing(&src, src_path);
	if (ret) {
		error("cannot merge %s: not an mmbench results database this mmbench can read",
		      src_path);
		return DB_MERGE_REFUSED;
	}
	/* a damaged page fails the copy's queries later, as if the target were damaged */
	if (db_damaged(&src, why, sizeof(why)) > 0) {
		error("cannot merge %s: the file is damaged (%s); nothing merged", name, why);
		db_close(&src);
		return DB_MERGE_REFUSED;
	}
	ret = db_guard_attach_copy(dst, &src, SRC);
	/* a copy of a file a writer changed while it was copied is not merged */
	if (db_close(&src) && !ret) {
		db_exec(dst, "DETACH DATABASE " SRC);
		ret = DB_MERGE_REFUSED;
	}
	return ret;
}

int db_merge_file(struct mmb_db *db, const char *src_path, const struct db_merge_opts *o,
		  struct db_merge_result *res)
{
	struct db_merge_result local = { 0 };
	char **tables = NULL;
	size_t ntables = 0;
	sqlite3_stmt *st = NULL;
	int64_t present, running, marks[NMARKS];
	int ret, rc;

	if (!res)
		res = &local;
	res->runs_added = res->runs_present = res->runs_running = 0;
	res->iterations = res->samples = 0;
	ret = open_source(db, src_path, o && o->name ? o->name : src_path);
	if (ret)
		return ret;
	ret = -1;
	if (db_begin(db))
		goto detach;
	if (scalar(db, "SELECT count(*) FROM " SRC ".runs WHERE uuid IN"
		   " (SELECT uuid FROM main.runs)", 0, &present) ||
	    scalar(db, "SELECT count(*) FROM " SRC ".runs WHERE status = 'running' AND uuid NOT IN"
		   " (SELECT uuid FROM main.runs)", 0, &running))
		goto rollback;
	ret = run_checks(db, source_checks, ARRAY_SIZE(source_checks), NULL,
			 o && o->name ? o->name : src_path, "");
	for (int m = 0; !ret && m < NMARKS; m++)
		ret = scalar(db, mark_sql[m], 0, &marks[m]);
	if (!ret)
		ret = check_labels(db, o && o->name ? o->name : src_path, o, res);
	if (ret)
		goto rollback;
	ret = -1;
	/*
	 * every series first: samples find theirs by name; the typed variant
	 * comes along, and fills a gap where this DB has the series untyped
	 */
	if (exec3(db, "INSERT OR IGNORE INTO main.series (workload, variant, metric, unit, better,"
		  " params_json) SELECT workload, variant, metric, unit, better, params_json FROM "
		  SRC ".series ORDER BY id", 0, 0, 0) < 0 ||
	    exec3(db, "UPDATE main.series SET params_json = (SELECT s.params_json FROM " SRC
		  ".series s WHERE s.workload = main.series.workload AND s.variant ="
		  " main.series.variant AND s.metric = main.series.metric AND s.unit ="
		  " main.series.unit AND s.better = main.series.better) WHERE params_json IS NULL",
		  0, 0, 0) < 0)
		goto rollback;
	if (db_prepare(db, "SELECT r.id, r.kernel_id, ifnull(r.machine_id, 0), k.label FROM " SRC
		       ".runs r JOIN " SRC ".kernels k ON k.id = r.kernel_id"
		       " WHERE r.status <> 'running' AND r.uuid NOT IN (SELECT uuid FROM main.runs)"
		       " ORDER BY r.id", &st))
		goto rollback;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *l = db_col_raw(st, 3);	/* the label merged: as stored */
		char *label = xstrdup(l ? l : "");
		int r = merge_run(db, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
				  sqlite3_column_int64(st, 2), renamed(o, NULL, label), res,
				  &tables, &ntables);

		free(label);
		if (r)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		db_fail(db);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto rollback;
	ret = run_checks(db, target_checks, ARRAY_SIZE(target_checks), marks,
			 o && o->name ? o->name : src_path,
			 "its indexes and tables disagree (corrupt or crafted): as copied, ");
	/* an older source's JSON blocks land binary, as every writer writes */
	if (!ret && db_blocks_convert(db, marks[4], false))
		ret = -1;
	if (ret || db_commit(db)) {
		ret = ret ? ret : -1;
		goto rollback;
	}
	res->runs_present = (size_t)present;
	res->runs_running = (size_t)running;
	/* an older source's runner rows land as blocks, as every ended run's are */
	db_runs_pack(db, false);
	ret = 0;
	goto detach;
rollback:
	db_rollback(db);
	res->runs_added = res->iterations = res->samples = 0;
	if (ret == -1)
		error("%s: nothing merged from %s", db->c->path, o && o->name ? o->name : src_path);
detach:
	for (size_t i = 0; i < ntables; i++)
		free(tables[i]);
	free(tables);
	db_exec(db, "DETACH DATABASE " SRC);
	return ret;
}

/* Every table whose rows belong to a run or an iteration, children first. */
static int remove_rows(struct mmb_db *db, int64_t run)
{
	static const char *const skip[] = { "run_id", "iteration_id", NULL };
	struct strbuf cols = STRBUF_INIT, sql = STRBUF_INIT;
	sqlite3_stmt *st;
	char **tables = NULL;
	size_t nt = 0, alloc = 0;
	int rc, ret = -1;

	if (db_prepare(db, "SELECT name FROM main.sqlite_schema WHERE type = 'table'"
		       " AND name NOT IN ('iterations', 'runs') AND name NOT LIKE 'sqlite_%'", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(tables, nt + 1, alloc);
		tables[nt++] = db_col_str(st, 0);
	}
	if (db_done(db, st, rc))
		goto out;
	for (size_t i = 0; i < nt; i++) {
		bool has[2] = { false, false };

		if (table_cols(db, tables[i], skip, "", &cols, has, false))
			goto out;
		strbuf_reset(&sql);
		if (has[0])
			strbuf_addf(&sql, "DELETE FROM main.\"%s\" WHERE run_id = ?1", tables[i]);
		else if (has[1])
			strbuf_addf(&sql, "DELETE FROM main.\"%s\" WHERE iteration_id IN"
				    " (SELECT id FROM main.iterations WHERE run_id = ?1)", tables[i]);
		else
			continue;
		if (exec3(db, sql.buf, run, 0, 0) < 0)
			goto out;
	}
	if (exec3(db, "DELETE FROM main.iterations WHERE run_id = ?1", run, 0, 0) < 0 ||
	    exec3(db, "DELETE FROM main.runs WHERE id = ?1", run, 0, 0) < 0)
		goto out;
	ret = 0;
out:
	for (size_t i = 0; i < nt; i++)
		free(tables[i]);
	free(tables);
	strbuf_release(&cols);
	strbuf_release(&sql);
	return ret;
}

int db_runs_remove(struct mmb_db *db, const int64_t *ids, size_t n, size_t *labels_removed)
{
	const char *hook = getenv("MMBENCH_TEST_RM_SLEEP");
	int64_t *kids = xcalloc(n + 1, sizeof(*kids));
	size_t nl = 0;

	if (labels_removed)
		*labels_removed = 0;
	if (db_begin(db)) {
		free(kids);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (scalar(db, "SELECT kernel_id FROM main.runs WHERE id = ?1", ids[i], &kids[i]) ||
		    remove_rows(db, ids[i]))
			goto fail;
	/* a label the removed runs leave empty goes with them (only those) */
	for (size_t i = 0; i < n; i++) {
		int64_t c = exec3(db, "DELETE FROM main.kernels WHERE id = ?1 AND NOT EXISTS"
				  " (SELECT 1 FROM main.runs WHERE kernel_id = ?1)", kids[i], 0, 0);

		if (c < 0)
			goto fail;
		nl += (size_t)c;
	}
	if (hook && *hook)
		sleep((unsigned int)atoi(hook));
	if (db_commit(db))
		goto fail;
	if (labels_removed)
		*labels_removed = nl;
	free(kids);
	return 0;
fail:
	free(kids);
	db_rollback(db);
	return error("%s: nothing removed", db->c->path);
}

int db_runs_of_file(struct mmb_db *db, const char *src_path, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc, ret = open_source(db, src_path, src_path);

	*ids = NULL;
	*n = 0;
	if (ret)
		return ret;
	ret = -1;
	if (!db_prepare(db, "SELECT id FROM main.runs WHERE uuid IN (SELECT uuid FROM " SRC
			".runs WHERE uuid IS NOT NULL) ORDER BY id", &st)) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			ALLOC_GROW(*ids, *n + 1, alloc);
			(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
		}
		ret = db_done(db, st, rc) ? -1 : 0;
	}
	db_exec(db, "DETACH DATABASE " SRC);
	return ret;
}
