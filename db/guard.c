/*
 * Databases as untrusted input (see db-internal.h): SQLite's defences for
 * files from elsewhere, a check that the schema is exactly one mmbench
 * writes, read-only readers that never change the file, and the copy of a
 * merge source that the merge reads instead of the file.
 */
#include "db-internal.h"
#include "../harness/base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Work allowed while opening: the progress handler is called every
 * GUARD_STEP VM instructions, and the open is stopped after GUARD_CALLS
 * calls.  Reading our own schema and a version takes a few thousand
 * instructions; a view over an endless recursive CTE never ends.
 */
#define GUARD_STEP	10000
#define GUARD_CALLS	20000	/* 2e8 instructions: seconds, never a hang */

static int guard_progress(void *arg)
{
	struct db_conn *c = arg;

	return ++c->guard_calls > GUARD_CALLS;
}

void db_guard_arm(struct db_conn *c, bool on)
{
	c->guard_calls = 0;
	sqlite3_progress_handler(c->sql, on ? GUARD_STEP : 0, on ? guard_progress : NULL, c);
}

int db_guard_defend(struct db_conn *c)
{
	/* no writes to sqlite_schema, no hidden-schema tricks, no untrusted functions in views */
	if (sqlite3_db_config(c->sql, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	    sqlite3_db_config(c->sql, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(c->sql, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL) != SQLITE_OK)
		return error("%s: cannot turn on SQLite's defences: %s", c->path,
			     sqlite3_errmsg(c->sql));
	return 0;
}

void db_guard_trust(struct db_conn *c)
{
	sqlite3_db_config(c->sql, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, NULL);
}

/* The schema objects, one "type name tbl_name sql" line each, sorted. */
static int schema_text(sqlite3 *sql, const char *schema, struct strbuf *out, char **err)
{
	sqlite3_stmt *st;
	char *q = xasprintf("SELECT type, name, tbl_name, sql FROM \"%s\".sqlite_schema"
			    " WHERE name NOT IN ('sqlite_stat1', 'sqlite_stat4', 'sqlite_sequence')"
			    " ORDER BY type, name", schema);
	int rc = sqlite3_prepare_v2(sql, q, -1, &st, NULL);

	free(q);
	strbuf_reset(out);
	strbuf_addstr(out, "");
	if (rc != SQLITE_OK) {
		*err = xstrdup(sqlite3_errmsg(sql));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 4; i++) {
			const char *t = db_col_raw(st, i);

			strbuf_addstr(out, t ? t : "NULL");
			strbuf_addch(out, i < 3 ? '\x1f' : '\x1e');
		}
	if (rc != SQLITE_DONE)
		*err = xstrdup(sqlite3_errmsg(sql));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* What migrations 0..version-1 make, built once per version in memory. */
static const char *expected_schema(int version)
{
	static char **cache;
	sqlite3 *mem = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *err = NULL;

	if (!cache)
		cache = xcalloc(db_nr_migrations + 1, sizeof(*cache));
	if (cache[version])
		return cache[version];
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK)
		goto fail;
	for (int v = 0; v < version; v++)
		if (sqlite3_exec(mem, db_migrations[v], NULL, NULL, NULL) != SQLITE_OK)
			goto fail;
	if (schema_text(mem, "main", &sb, &err))
		goto fail;
	sqlite3_close(mem);
	cache[version] = strbuf_detach(&sb);
	return cache[version];
fail:
	free(err);
	strbuf_release(&sb);
	sqlite3_close(mem);
	return NULL;
}

/* The first object line of a that b lacks; its "type name" into *what, and whether b names it. */
static bool first_extra(const char *a, const char *b, char **what, bool *changed)
{
	for (const char *p = a; *p;) {
		const char *end = strchr(p, '\x1e');
		size_t n = end ? (size_t)(end - p + 1) : strlen(p);
		char *line = xstrndup(p, n), *us;

		if (!strstr(b, line)) {
			/* "type\x1fname\x1f...": keep "type\x1fname\x1f" to look for in b */
			us = strchr(line, '\x1f');
			if (us && (us = strchr(us + 1, '\x1f')))
				us[1] = '\0';
			*changed = strstr(b, line) != NULL;
			for (char *q = line; *q; q++)
				if (*q == '\x1f')
					*q = *(q + 1) ? ' ' : '\0';
			*what = ctl_escape(line);
			free(line);
			return true;
		}
		free(line);
		p += n;
	}
	return false;
}

int db_guard_schema(struct db_conn *c, const char *schema, int version)
{
	const char *want = expected_schema(version);
	struct strbuf have = STRBUF_INIT;
	char *err = NULL, *what = NULL;
	bool changed = false;
	int ret = 0;

	if (!want)
		return error("%s: cannot build schema %d to check against", c->path, version);
	if (schema_text(c->sql, schema, &have, &err)) {
		ret = error("%s: cannot read its schema: %s", c->path, err);
		free(err);
		strbuf_release(&have);
		return ret;
	}
	if (first_extra(have.buf, want, &what, &changed))
		ret = error("%s: not a database mmbench wrote: %s %s %s; refusing to read it", c->path,
			    changed ? "its" : "it has", what,
			    changed ? "is not the one mmbench makes" : "that mmbench never makes");
	else if (first_extra(want, have.buf, &what, &changed))
		ret = error("%s: not a database mmbench wrote: it lacks %s (schema version %d); refusing to read it",
			    c->path, what, version);
	free(what);
	strbuf_release(&have);
	return ret;
}

/* mmb_dead(pid, host): a 'running' run whose process is gone (db_mark_dead_runs()'s test). */
static void sql_dead(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	char host[256] = "";
	const char *h = (const char *)sqlite3_value_text(argv[1]);
	pid_t pid = (pid_t)sqlite3_value_int64(argv[0]);

	(void)argc;
	gethostname(host, sizeof(host) - 1);
	if (h && strcmp(h, host)) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	sqlite3_result_int(ctx, !(pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) &&
				  pid != getpid()));
}

/*
 * A reader does not mark killed runs 'interrupted' in the file: a TEMP
 * view of the same name shows them so (unqualified names find temp.runs
 * first), and every query of db/ reads runs unqualified.
 */
int db_guard_runs_view(struct mmb_db *db)
{
	sqlite3_stmt *st;
	struct strbuf cols = STRBUF_INIT, sql = STRBUF_INIT;
	int rc, ret;

	if (sqlite3_create_function_v2(db->c->sql, "mmb_dead", 2,
				       SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL, sql_dead, NULL,
				       NULL, NULL) != SQLITE_OK)
		return db_fail(db);
	if (db_prepare(db, "SELECT name FROM pragma_table_info('runs', 'main') ORDER BY cid", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = db_col_raw(st, 0);

		if (cols.len)
			strbuf_addstr(&cols, ", ");
		/* schema names (checked against ours), quoted as identifiers */
		if (!strcmp(n, "status"))
			strbuf_addstr(&cols, "CASE WHEN status = 'running' AND mmb_dead(pid, host)"
				      " THEN 'interrupted' ELSE status END AS status");
		else
			strbuf_addf(&cols, "\"%s\"", n);
	}
	if (db_done(db, st, rc)) {
		strbuf_release(&cols);
		return -1;
	}
	strbuf_addf(&sql, "CREATE TEMP VIEW runs AS SELECT %s FROM main.runs", cols.buf);
	ret = db_exec(db, sql.buf);
	strbuf_release(&cols);
	strbuf_release(&sql);
	return ret;
}

/* Is path a WAL database (bytes 18 and 19 of its header)?  Unreadable: no. */
static bool wal_header(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, h, sizeof(h));
	close(fd);
	return n == (ssize_t)sizeof(h) && h[18] == 2 && h[19] == 2;
}

/*
 * May this process create FILE-wal and FILE-shm beside path?  Only when
 * they would be the file owner's (ours, or root's: SQLite gives root's
 * the database's owner) and the folder takes them.  Another user's files
 * there would stop the owner's next write ("attempt to write a readonly
 * database"), in a sticky folder for good.
 */
static bool may_create_beside(const char *path, const struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : xstrdup(".");
	uid_t me = geteuid();
	bool ok = (me == 0 || me == st->st_uid) &&
		  faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) == 0;

	free(dir);
	return ok;
}

/* Size of path + suffix, -1 when there is none. */
static off_t beside(const char *path, const char *suffix)
{
	char *p = xasprintf("%s%s", path, suffix);
	struct stat st;
	off_t size = lstat(p, &st) == 0 ? st.st_size : -1;

	free(p);
	return size;
}

/* A file: URI for path with query q; every byte but the plainest escaped. */
static char *file_uri(const char *path, const char *q)
{
	struct strbuf sb = STRBUF_INIT;

	/* "file:///abs" ("file://x" would name a host); "file:rel" */
	strbuf_addstr(&sb, *path == '/' ? "file://" : "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			strbuf_addch(&sb, (char)*p);
		else
			strbuf_addf(&sb, "%%%02X", *p);
	strbuf_addf(&sb, "?%s", q);
	return strbuf_detach(&sb);
}

char *db_guard_reader_target(struct db_conn *c, const char *path, int *flags)
{
	struct stat st;
	off_t wal, shm;

	*flags = SQLITE_OPEN_READONLY;
	if (stat(path, &st) < 0 || !wal_header(path) || may_create_beside(path, &st))
		return xstrdup(path);	/* a rollback-journal file: a reader creates nothing */
	wal = beside(path, "-wal");
	shm = beside(path, "-shm");
	*flags |= SQLITE_OPEN_URI;
	/* a writer has it open, or died so: read the -wal by its -shm, writing neither */
	if (wal > 0 && shm >= 0)
		return file_uri(path, "readonly_shm=1");
	if (wal > 0) {
		error("%s: cannot read it without creating %s-shm beside it, which is not this user's to create: its -wal holds changes not yet in the file; its owner (uid %u) opening it once mends that",
		      path, path, (unsigned int)st.st_uid);
		return NULL;
	}
	/*
	 * No -wal (or an empty one): the file holds every commit.  Read it as
	 * immutable (no lock, no file beside it), and since nothing then
	 * stops a writer, check at the end that nobody wrote it meanwhile.
	 */
	c->immutable = true;
	c->seen = st;
	return file_uri(path, "immutable=1");
}

int db_guard_reader_unchanged(struct db_conn *c)
{
	struct stat st;

	if (!c->immutable)
		return 0;
	c->immutable = false;	/* said once */
	if (stat(c->path, &st) == 0 && st.st_dev == c->seen.st_dev &&
	    st.st_ino == c->seen.st_ino && st.st_size == c->seen.st_size &&
	    st.st_mtim.tv_sec == c->seen.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == c->seen.st_mtim.tv_nsec &&
	    st.st_ctim.tv_sec == c->seen.st_ctim.tv_sec &&
	    st.st_ctim.tv_nsec == c->seen.st_ctim.tv_nsec)
		return 0;
	return error("%s: a writer changed it while it was read without a lock (a reader creates no -wal or -shm beside a file that is not its own, or in a folder it cannot write); what was read may mix its old and new state: run the command again",
		     c->path);
}

int db_guard_to_memory(struct mmb_db *db)
{
	sqlite3 *mem = NULL;
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return error("%s: cannot open a copy in memory", db->c->path);
	}
	b = sqlite3_backup_init(mem, "main", db->c->sql, "main");
	if (!b) {
		error("%s: cannot copy it to memory: %s", db->c->path, sqlite3_errmsg(mem));
		sqlite3_close(mem);
		return -1;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		error("%s: cannot copy it to memory: %s", db->c->path, sqlite3_errstr(rc));
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(db->c->sql);
	db->c->sql = mem;
	db->c->in_memory = true;
	/* the copy is all that is read from now: it must be of one moment */
	return db_guard_reader_unchanged(db->c);
}

/* A small source is copied into memory (fast), a larger one to a temporary file. */
#define COPY_IN_MEMORY_MAX ((sqlite3_int64)32 << 20)

/* The size of c's main database (page_count * page_size), or -1. */
static sqlite3_int64 db_bytes(sqlite3 *c)
{
	sqlite3_int64 v[2] = { -1, -1 };
	static const char *const sql[2] = { "PRAGMA main.page_count", "PRAGMA main.page_size" };

	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(c, sql[i], -1, &st, NULL) != SQLITE_OK)
			return -1;
		if (sqlite3_step(st) == SQLITE_ROW)
			v[i] = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return v[0] < 0 || v[1] < 0 ? -1 : v[0] * v[1];
}

/* ATTACH a copy of src in memory: 0 or -1. */
static int attach_memory(struct mmb_db *dst, struct mmb_db *src, const char *as)
{
	sqlite3_int64 size = 0;
	unsigned char *img = sqlite3_serialize(src->c->sql, "main", &size, 0);
	char *sql;
	int rc;

	if (!img)
		return error("%s: cannot read it into memory", src->c->path);
	/* an image of a WAL database says so in its header; memory has no WAL */
	if (size >= 100 && img[18] == 2 && img[19] == 2)
		img[18] = img[19] = 1;
	sql = xasprintf("ATTACH DATABASE ':memory:' AS %s", as);
	rc = db_exec(dst, sql);
	free(sql);
	if (rc) {
		sqlite3_free(img);
		return -1;
	}
	rc = sqlite3_deserialize(dst->c->sql, as, img, size, size,
				 SQLITE_DESERIALIZE_FREEONCLOSE);
	if (rc != SQLITE_OK) {
		error("%s: cannot read it into memory: %s", src->c->path, sqlite3_errstr(rc));
		sql = xasprintf("DETACH DATABASE %s", as);
		db_exec(dst, sql);
		free(sql);
		return -1;
	}
	return 0;
}

int db_guard_attach_copy(struct mmb_db *dst, struct mmb_db *src, const char *as)
{
	sqlite3_int64 bytes = db_bytes(src->c->sql);
	sqlite3_backup *b;
	char *sql;
	int rc;

	if (bytes >= 0 && bytes <= COPY_IN_MEMORY_MAX)
		return attach_memory(dst, src, as);
	/*
	 * A private temporary database ('': SQLite's own file, deleted when
	 * detached) rather than memory: peak RSS stays bounded for any size
	 * of source (issue 31), its pages beyond the cache going to the file.
	 */
	sql = xasprintf("ATTACH DATABASE '' AS %s", as);
	rc = db_exec(dst, sql);
	free(sql);
	if (rc)
		return -1;
	sql = xasprintf("PRAGMA %s.cache_size = -8192", as);
	rc = db_exec(dst, sql);
	free(sql);
	b = rc ? NULL : sqlite3_backup_init(dst->c->sql, as, src->c->sql, "main");
	if (!b) {
		if (!rc)
			error("%s: cannot copy it: %s", src->c->path, sqlite3_errmsg(dst->c->sql));
		rc = SQLITE_ERROR;
	} else {
		rc = sqlite3_backup_step(b, -1);
		sqlite3_backup_finish(b);
		if (rc != SQLITE_DONE)
			error("%s: cannot copy it: %s", src->c->path, sqlite3_errstr(rc));
	}
	if (rc != SQLITE_DONE) {
		sql = xasprintf("DETACH DATABASE %s", as);
		db_exec(dst, sql);
		free(sql);
		return -1;
	}
	return 0;
}

int db_damaged(struct mmb_db *db, char *why, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->c->sql, "PRAGMA quick_check(3)", -1, &st, NULL);
	int ret = 0;

	*why = 0;
	if (rc != SQLITE_OK) {
		/* a damaged schema page fails here already */
		snprintf(why, n, "%s", sqlite3_errmsg(db->c->sql));
		return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? 1 : -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = db_col_raw(st, 0);

		if (t && strcmp(t, "ok")) {
			size_t l = strlen(why);

			snprintf(why + l, n - l, "%s%s", l ? "; " : "", t);
			ret = 1;
		}
	}
	if (rc != SQLITE_DONE) {
		snprintf(why, n, "%s", sqlite3_errmsg(db->c->sql));
		ret = rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? 1 : -1;
	}
	sqlite3_finalize(st);
	/* SQLite's report spans lines: one line for a message */
	for (char *c = why; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';
	return ret;
}
