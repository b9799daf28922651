/*
 * Typed variants: the text/JSON round trip, the migration that gives old
 * databases' series their typed params (from the text, on read), a run's
 * typed params stored as the plan made them, and plot's scaling key taken
 * from the types rather than from a list of names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "db-internal.h"	/* the old schema is written with SQL */
#include "db.h"
#include "plot.h"
#include "query.h"
#include "util.h"
#include "variant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_text_round_trip(void **s)
{
	struct variant v, back;
	char err[128], *json, *text;

	(void)s;
	variant_from_text(&v, "clients=4,mode=threads,ratio=0.5");
	assert_int_equal(v.n, 3);
	assert_int_equal(v.p[0].type, MMB_PARAM_INT);
	assert_int_equal(v.p[0].i, 4);
	assert_int_equal(v.p[1].type, MMB_PARAM_STRING);
	assert_int_equal(v.p[2].type, MMB_PARAM_DOUBLE);
	json = variant_to_json(&v);
	assert_string_equal(json, "[{\"name\":\"clients\",\"type\":\"int\",\"value\":4,\"text\":\"4\"},"
			    "{\"name\":\"mode\",\"type\":\"string\",\"value\":\"threads\",\"text\":\"threads\"},"
			    "{\"name\":\"ratio\",\"type\":\"double\",\"value\":0.5,\"text\":\"0.5\"}]");
	assert_int_equal(variant_from_json(&back, json, err, sizeof(err)), 0);
	text = variant_to_text(&back);
	assert_string_equal(text, "clients=4,mode=threads,ratio=0.5");
	assert_int_equal(back.p[0].type, MMB_PARAM_INT);
	assert_true(back.p[2].d == 0.5);
	free(text);
	free(json);
	variant_release(&back);
	variant_release(&v);

	/* a plan's types survive: a size is bytes, named as written */
	variant_add(&v, "size", MMB_PARAM_SIZE, 4096, 4096, "4K");
	variant_add(&v, "mode", MMB_PARAM_ENUM, 1, 1, "processes");
	json = variant_to_json(&v);
	assert_int_equal(variant_from_json(&back, json, err, sizeof(err)), 0);
	assert_int_equal(back.p[0].type, MMB_PARAM_SIZE);
	assert_int_equal(back.p[0].i, 4096);
	assert_int_equal(back.p[1].type, MMB_PARAM_ENUM);
	text = variant_to_text(&back);
	assert_string_equal(text, "size=4K,mode=processes");
	free(text);
	free(json);
	variant_release(&back);
	variant_release(&v);

	variant_from_text(&v, "");
	assert_int_equal(v.n, 0);
	json = variant_to_json(&v);
	assert_string_equal(json, "[]");
	free(json);
	variant_release(&v);

	/* not a variant: said, nothing kept */
	assert_int_equal(variant_from_json(&v, "{\"name\":1}", err, sizeof(err)), -1);
	assert_int_equal(variant_from_json(&v, "[{\"name\":\"x\",\"type\":\"int\",\"value\":\"a\","
					   "\"text\":\"a\"}]", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "must be a number"));
	assert_int_equal(variant_from_json(&v, "[{\"name\":\"x\",\"type\":\"blob\",\"value\":1,"
					   "\"text\":\"1\"}]", err, sizeof(err)), -1);
	assert_int_equal(v.n, 0);
}

static char *tmp_db(void)
{
	char tmpl[] = "/tmp/mmb-variant-XXXXXX";
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	close(fd);
	unlink(tmpl);
	return xstrdup(tmpl);
}

static void rm_db(char *path)
{
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);

	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	free(path);
}

static const struct query_row *row_of(const struct query_set *qs, const char *variant)
{
	for (size_t i = 0; i < qs->nr; i++)
		if (!strcmp(qs->rows[i].variant, variant))
			return &qs->rows[i];
	fail_msg("no row for variant '%s'", variant);
	return NULL;
}

/* A database as the mmbench before typed variants left it (schema 4). */
static void old_db(const char *path)
{
	sqlite3 *raw;

	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	for (int m = 0; m < 4; m++)
		assert_int_equal(sqlite3_exec(raw, db_migrations[m], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw,
		"PRAGMA user_version = 4;"
		"INSERT INTO kernels (id, label) VALUES (1, 'old');"
		"INSERT INTO runs (id, kernel_id, status) VALUES (1, 1, 'complete');"
		"INSERT INTO series (id, workload, variant, metric, better)"
		" VALUES (1, 'pft', 'clients=4,mode=threads', 'faults/sec', 1);"
		"INSERT INTO sample_values (run_id, series_id, iteration, value) VALUES (1, 1, 1, 10);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
}

static void test_migration_types_old_rows(void **s)
{
	char *path = tmp_db();
	const char *labels[] = { "old" };
	struct query_filter f = { 0 };
	struct query_set qs;
	struct mmb_db db;
	struct kernel_info k = { .label = "old" };
	struct run_info r = { .config_text = "x", .accel = "host" };
	struct sample_info sm = { .metric = "faults/sec", .unit = "faults/s", .better = 1, .value = 5 };
	struct iteration_info it = { .workload = "pft", .variant = "clients=8,size=4K",
				     .variant_json = "[{\"name\":\"clients\",\"type\":\"int\",\"value\":8,"
						     "\"text\":\"8\"},{\"name\":\"size\",\"type\":\"size\","
						     "\"value\":4096,\"text\":\"4K\"}]",
				     .params = "clients=8 size=4K", .iteration = 1, .status = "ok" };
	const struct query_row *row;

	(void)s;
	old_db(path);
	assert_int_equal(db_open(&db, path), 0);
	assert_int_equal(db_schema_version(&db), db_nr_migrations);
	/* the old series has no JSON; a run's new series gets the plan's */
	r.kernel_id = db_kernel_upsert(&db, &k);
	it.run_id = db_run_begin(&db, &r);
	assert_true(it.run_id > 0);
	assert_true(db_iteration_add(&db, &it, &sm, 1, NULL, NULL, 0, NULL) > 0);
	assert_int_equal(db_run_finish(&db, it.run_id, "complete"), 0);

	assert_int_equal(query_load(&db, labels, 1, &f, &qs), 0);
	assert_int_equal(qs.nr, 2);
	/* typed from the text, on read */
	row = row_of(&qs, "clients=4,mode=threads");
	assert_string_equal(row->params_json,
			    "[{\"name\":\"clients\",\"type\":\"int\",\"value\":4,\"text\":\"4\"},"
			    "{\"name\":\"mode\",\"type\":\"string\",\"value\":\"threads\",\"text\":\"threads\"}]");
	/* as the run wrote them: the size keeps its type */
	row = row_of(&qs, "clients=8,size=4K");
	assert_string_equal(row->params_json, it.variant_json);
	query_set_release(&qs);
	db_close(&db);
	rm_db(path);
}

static void group_of(struct plot_group *g, const char *const *variants, size_t n,
		     const char *const *json)
{
	const char *kernels[] = { "a", "b" };

	plot_group_init(g, "w", "m", "", 1, 2, kernels);
	for (size_t i = 0; i < n; i++) {
		size_t v = plot_group_variant(g, variants[i]);

		if (json)
			plot_group_variant_typed(g, v, json[i]);
	}
}

static void test_scaling_key_from_types(void **s)
{
	static const char *const repeats[] = { "repeats=1", "repeats=2", "repeats=4" };
	static const char *const cases[] = { "test=fork,folio_kb=4", "test=fork,folio_kb=64" };
	static const char *const same[] = { "clients=4,mode=threads", "clients=4,mode=processes" };
	static const char *const sizes[] = { "size=4K", "size=1M" };
	static const char *const sizes_json[] = {
		"[{\"name\":\"size\",\"type\":\"size\",\"value\":4096,\"text\":\"4K\"}]",
		"[{\"name\":\"size\",\"type\":\"size\",\"value\":1048576,\"text\":\"1M\"}]",
	};
	static const char *const mode_json[] = {
		"[{\"name\":\"mode\",\"type\":\"enum\",\"value\":\"a\",\"text\":\"1\"}]",
		"[{\"name\":\"mode\",\"type\":\"enum\",\"value\":\"b\",\"text\":\"2\"}]",
	};
	struct plot_group g;

	(void)s;
	/* a test plugin's parameter no list of names knew */
	group_of(&g, repeats, 3, NULL);
	assert_non_null(plot_scaling_key(&g));
	assert_string_equal(plot_scaling_key(&g), "repeats");
	plot_group_release(&g);
	/* a case first: box plots */
	group_of(&g, cases, 2, NULL);
	assert_null(plot_scaling_key(&g));
	plot_group_release(&g);
	/* a number that does not vary */
	group_of(&g, same, 2, NULL);
	assert_null(plot_scaling_key(&g));
	plot_group_release(&g);
	/* the text "4K" is no number; the plan's type says it is bytes */
	group_of(&g, sizes, 2, NULL);
	assert_null(plot_scaling_key(&g));
	plot_group_release(&g);
	group_of(&g, sizes, 2, sizes_json);
	assert_non_null(plot_scaling_key(&g));
	assert_string_equal(plot_scaling_key(&g), "size");
	plot_group_release(&g);
	/* an enum shown as digits is still a choice, not a number */
	group_of(&g, (const char *const[]){ "mode=1", "mode=2" }, 2, mode_json);
	assert_null(plot_scaling_key(&g));
	plot_group_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_migration_types_old_rows),
		cmocka_unit_test(test_scaling_key_from_types),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
