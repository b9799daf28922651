/*
 * The built-in sampler's pieces (ksample.h): kallsyms read from a fixture
 * of our own (tests/fixtures/profile/kallsyms.txt), addresses named,
 * ring-buffer records (kernel with a call chain, user, lost, malformed)
 * aggregated into the shares perf's profiles get.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksample.h"
#include "perfrec.h"
#include "util.h"

static void load_fixture(struct ksyms *k)
{
	const char *src = getenv("MMBENCH_SRC");
	char *path = xasprintf("%s/tests/fixtures/profile/kallsyms.txt", src ? src : ".");
	FILE *f = fopen(path, "r");
	char err[128] = "";

	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(ksyms_load(k, f, err, sizeof(err)), 0);
	fclose(f);
	free(path);
}

static void test_kallsyms(void **state)
{
	struct ksyms k;

	(void)state;
	load_fixture(&k);
	assert_int_equal(k.n, 10);	/* the data symbol left out */
	assert_null(ksyms_find(&k, 0xffff80008000ffffull));
	assert_non_null(ksyms_find(&k, 0xffff800080010000ull));
	assert_string_equal(ksyms_find(&k, 0xffff800080020004ull), "ptep_clear_flush");
	assert_string_equal(ksyms_find(&k, 0xffff8000800200ffull), "ptep_clear_flush");
	assert_string_equal(ksyms_find(&k, 0xffff800080020100ull), "try_to_unmap_one");
	assert_string_equal(ksyms_find(&k, 0xffff800080012500ull), "do_el0_svc");
	assert_string_equal(ksyms_find(&k, 0xffff800080030010ull), "shrink_folio_list");
	assert_string_equal(ksyms_find(&k, 0xffffffffffff0000ull), "__arm64_sys_madvise");
	ksyms_release(&k);
}

static void test_kallsyms_hidden_and_bad(void **state)
{
	const char hidden[] = "0000000000000000 T _text\n0000000000000000 T do_el0_svc\n";
	const char bad[] = "ffff800080010000 T _text\nnot a symbol line\n";
	struct ksyms k;
	char err[128] = "";
	FILE *f;

	(void)state;
	f = fmemopen((void *)hidden, sizeof(hidden) - 1, "r");
	assert_int_equal(ksyms_load(&k, f, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(k.n, 0);	/* kptr_restrict: as if there were none */
	assert_null(ksyms_find(&k, 0xffff800080010000ull));
	f = fmemopen((void *)bad, sizeof(bad) - 1, "r");
	assert_int_equal(ksyms_load(&k, f, err, sizeof(err)), -1);
	fclose(f);
	assert_non_null(strstr(err, "line 2"));
}

/* A sample record: header, ip, nr, ips (the ring's layout for IP | CALLCHAIN). */
static size_t sample(uint64_t *buf, uint16_t misc, uint64_t ip, const uint64_t *chain,
		     size_t nr)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	size_t n = 1 + 2 + nr;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = (uint16_t)(n * 8);
	buf[1] = ip;
	buf[2] = nr;
	if (nr)
		memcpy(buf + 3, chain, nr * 8);
	return n * 8;
}

static double pct(const struct profile_entry *e, size_t n, enum profile_kind k, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].kind == k && !strcmp(e[i].name, name))
			return e[i].pct;
	return -1;
}

static void test_records(void **state)
{
	const uint64_t chain[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffff800080020010ull, 0xffff800080020180ull,
		0xffff800080030040ull, 0xffff800080040000ull, 0xffff800080050020ull,
		0xffff800080012010ull,
	};
	uint64_t buf[32], lost_rec[4];
	struct perf_event_header *lh = (struct perf_event_header *)lost_rec;
	struct profile_agg a;
	struct profile_entry *e;
	struct ksyms k, none = { 0 };
	int64_t lost = 0;
	char err[128] = "";
	size_t len, n;

	(void)state;
	load_fixture(&k);
	profile_agg_init(&a);
	/* three kernel samples in ptep_clear_flush under reclaim, one in user space */
	len = sample(buf, PERF_RECORD_MISC_KERNEL, 0xffff800080020010ull, chain, 7);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ksample_record(&a, &k, 1e6, buf, len, &lost, err, sizeof(err)), 0);
	len = sample(buf, PERF_RECORD_MISC_USER, 0x400123, NULL, 0);
	assert_int_equal(ksample_record(&a, &k, 1e6, buf, len, &lost, err, sizeof(err)), 0);
	/* no symbols: the kernel's samples are [kernel] */
	len = sample(buf, PERF_RECORD_MISC_KERNEL, 0xffff800080020010ull, NULL, 0);
	assert_int_equal(ksample_record(&a, &none, 2e6, buf, len, &lost, err, sizeof(err)), 0);
	lh->type = PERF_RECORD_LOST;
	lh->misc = 0;
	lh->size = 24;
	lost_rec[1] = 7;
	lost_rec[2] = 5;
	assert_int_equal(ksample_record(&a, &k, 1e6, lost_rec, 24, &lost, err, sizeof(err)), 0);
	assert_int_equal(lost, 5);
	assert_int_equal(a.samples, 5);
	n = profile_agg_entries(&a, 0, &e);
	assert_true(pct(e, n, PROFILE_SELF, "ptep_clear_flush") > 49.9 &&
		    pct(e, n, PROFILE_SELF, "ptep_clear_flush") < 50.1);
	assert_true(pct(e, n, PROFILE_SELF, "[user]") > 16.6);
	assert_true(pct(e, n, PROFILE_SELF, "[kernel]") > 33.3);
	/* the innermost five frames, caller first; the IP repeated as the chain's first left out */
	assert_true(pct(e, n, PROFILE_CALLTRACE, "__arm64_sys_madvise.reclaim_pages."
			"shrink_folio_list.try_to_unmap_one.ptep_clear_flush") > 49.9);
	profile_entries_free(e, n);
	/* malformed: a size that is not the record's, a chain longer than the record */
	len = sample(buf, PERF_RECORD_MISC_KERNEL, 0xffff800080020010ull, chain, 7);
	assert_int_equal(ksample_record(&a, &k, 1e6, buf, len - 8, &lost, err, sizeof(err)), -1);
	buf[2] = 1000;
	assert_int_equal(ksample_record(&a, &k, 1e6, buf, len, &lost, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "call chain"));
	profile_agg_release(&a);
	ksyms_release(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_hidden_and_bad),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
