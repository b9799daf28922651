/*
 * How vm-scalability maps each case's memory, against how lkp's case
 * scripts run usemem: a case that only reads maps its file or tmpfs object
 * private and read-only (usemem without -S), msync maps its file shared
 * and writable (-S), anonymous memory is a private map of /dev/zero (usemem
 * without -O), and the kernel sees exactly that (/proc/self/maps).  Then
 * the per-word walk: what it reads and writes, and where it stops.  The
 * engine and the case table are compiled in, so this checks the shipped
 * table, not a copy.
 */
/* before cmocka.h, whose skip() macro would rename host->skip */
#include "../../workloads/vm-scalability/engine.c"
#include "../../workloads/vm-scalability/vm-scalability.c"
#include "../../workloads/vm-scalability/walk.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static const struct vms_case *find_case(const char *name)
{
	for (const struct vms_case *c = vms_cases; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	fail_msg("no case '%s'", name);
	return NULL;
}

/*
 * The mapping that holds p: its permission field ("r--p"), its path ("" for
 * none) and its bounds.
 */
static void maps_entry(const void *p, char perms[5], char path[256], unsigned long *lo,
		       unsigned long *hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long a = (unsigned long)p;

	assert_non_null(f);
	perms[0] = path[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %255s", lo, hi, perms, path) >= 3 &&
		    a >= *lo && a < *hi)
			break;
		perms[0] = path[0] = '\0';
	}
	fclose(f);
}

/* A round of the named case, with the /dev/zero its anonymous memory maps. */
static struct vms_round round_of(const char *name)
{
	struct vms_round r = { .c = find_case(name), .page = 4096, .dir = "/tmp", .fd = -1 };

	r.zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	assert_true(r.zero_fd >= 0);
	return r;
}

/* Map the case's own object as a task would; the kernel's view of it. */
static void mapped_as(const char *name, const char *want)
{
	struct vms_res res = { 0 };
	struct vms_round r = round_of(name);
	size_t len = 16 * 4096;
	char perms[5], path[256];
	unsigned long lo, hi;
	int fd = r.c->backing >= B_FILE ? make_object(&r, len, &res) : -1;
	char *p;

	assert_true(fd >= 0 || r.c->backing < B_FILE);
	p = map_mem(&r, len, fd, 0, &res);
	assert_non_null(p);
	maps_entry(p, perms, path, &lo, &hi);
	munmap(p, len);
	if (fd >= 0)
		close(fd);
	close(r.zero_fd);
	if (strcmp(perms, want))
		fail_msg("%s: mapped %s, usemem maps it %s", name, perms, want);
	if (r.c->backing == B_ANON && strcmp(path, "/dev/zero"))
		fail_msg("%s: mapped '%s', usemem maps /dev/zero", name, path);
}

static void test_read_only_file_cases_map_private(void **state)
{
	(void)state;
	mapped_as("lru-file-mmap-read", "r--p");
	mapped_as("lru-file-mmap-read-rand", "r--p");
	mapped_as("mmap-pread-seq", "r--p");
	mapped_as("lru-shm", "r--p");
	mapped_as("lru-shm-rand", "r--p");
	mapped_as("shm-pread-seq", "r--p");
}

static void test_msync_maps_shared_writable(void **state)
{
	(void)state;
	mapped_as("msync", "rw-s");
}

static void test_anon_cases(void **state)
{
	(void)state;
	mapped_as("anon-w-seq", "rw-p");
	mapped_as("anon-r-seq", "r--p");
}

/*
 * small-allocs' units stay a mapping each, as usemem's do (each is at
 * /dev/zero offset 0, so none merges with its neighbour): a kernel change
 * to VMA merging or lookup sees lkp's 13,107 VMAs per task, not one.
 */
static void test_small_allocs_units_do_not_merge(void **state)
{
	struct vms_res res = { 0 };
	struct vms_round r = round_of("small-allocs");
	size_t unit = SMALL_UNIT_PAGES * 4096;
	char *u[4], perms[5], path[256];
	unsigned long lo, hi;

	(void)state;
	for (int i = 0; i < 4; i++) {
		u[i] = map_mem(&r, unit, -1, 0, &res);
		assert_non_null(u[i]);
		/* the zero page mapped, as the walk leaves it */
		assert_int_equal(u[i][0] + u[i][unit - 1], 0);
	}
	for (int i = 0; i < 4; i++) {
		maps_entry(u[i], perms, path, &lo, &hi);
		if (hi - lo != unit)
			fail_msg("unit %d: its mapping is %lu bytes, not the unit's %zu", i, hi - lo,
				 unit);
	}
	for (int i = 0; i < 4; i++)
		munmap(u[i], unit);
	close(r.zero_fd);
}

/* A walk with the given settings over 64 words; the bytes it touched. */
static size_t walk64(unsigned long *w, int read, int random, unsigned long limit, int stop,
		     struct vms_res *res)
{
	struct vms_ctl ctl = { .stop = stop };
	struct drand48_data rd;
	int pass = 0;

	vms_walk_set(&(const struct vms_walk){ .random = random, .limit = limit,
					       .step = sizeof(unsigned long), .ctl = &ctl,
					       .deadline_ns = UINT64_MAX });
	srand48_r(1, &rd);
	return vms_walk_words(w, 64 * sizeof(*w), read, &rd, &pass, res);
}

/* In order, a write leaves each word its index; a read changes nothing. */
static void test_walk_in_order(void **state)
{
	unsigned long w[64] = { 0 };
	struct vms_res res = { 0 };

	(void)state;
	assert_int_equal(walk64(w, 0, 0, 0, 0, &res), sizeof(w));
	for (unsigned long i = 0; i < 64; i++)
		assert_int_equal(w[i], i);
	memset(w, 0xa5, sizeof(w));
	assert_int_equal(walk64(w, 1, 0, 0, 0, &res), sizeof(w));
	for (int i = 0; i < 64; i++)
		assert_int_equal(w[i], 0xa5a5a5a5a5a5a5a5ul);
	assert_int_equal(res.err, 0);
}

/*
 * At random, a step writes a word chosen with replacement: as many steps
 * as words, each word written holds its index, and some words are
 * written twice (others not at all) where a permutation would hit each once.
 */
static void test_walk_random_with_replacement(void **state)
{
	unsigned long w[64];
	struct vms_res res = { 0 };
	int untouched = 0;

	(void)state;
	memset(w, 0xff, sizeof(w));
	assert_int_equal(walk64(w, 0, 1, 0, 0, &res), sizeof(w));
	for (unsigned long i = 0; i < 64; i++) {
		if (w[i] == ~0ul)
			untouched++;
		else
			assert_int_equal(w[i], i);
	}
	/* 64 draws from 64: about 64/e words are left; all but one is a near-impossible draw */
	assert_true(untouched > 0 && untouched < 63);
}

/* A limit ends the walk after that many words; a stop asked before it, after the first. */
static void test_walk_limit_and_stop(void **state)
{
	unsigned long w[64] = { 0 };
	struct vms_res res = { 0 };

	(void)state;
	assert_int_equal(walk64(w, 0, 0, 5, 0, &res), 5 * sizeof(*w));
	assert_int_equal(w[4], 4);
	assert_int_equal(w[5], 0);
	memset(w, 0xff, sizeof(w));
	assert_int_equal(walk64(w, 0, 0, 0, 1, &res), sizeof(*w));
	assert_int_equal(w[0], 0);
	assert_int_equal(w[1], ~0ul);
}

/* Verifying, a word that does not hold its index fails the task and ends the walk. */
static void test_walk_verify_fails_on_a_wrong_word(void **state)
{
	unsigned long w[64];
	struct vms_ctl ctl = { 0 };
	struct vms_res res = { 0 };
	struct drand48_data rd;
	int pass = 1;

	(void)state;
	for (unsigned long i = 0; i < 64; i++)
		w[i] = i;
	w[10] = 99;
	vms_walk_set(&(const struct vms_walk){ .verify = 1, .step = sizeof(unsigned long),
					       .ctl = &ctl, .deadline_ns = UINT64_MAX });
	srand48_r(1, &rd);
	assert_int_equal(vms_walk_words(w, sizeof(w), 0, &rd, &pass, &res), 10 * sizeof(*w));
	assert_int_equal(res.err, EIO);
	assert_string_equal(res.what, "verify");
}

/* Every case that neither writes nor copies on write maps read-only. */
static void test_every_reader_is_read_only(void **state)
{
	(void)state;
	for (const struct vms_case *c = vms_cases; c->name; c++) {
		if (c->write || c->cow || c->op != OP_TOUCH || c->backing == B_HUGETLB)
			continue;
		mapped_as(c->name, "r--p");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_only_file_cases_map_private),
		cmocka_unit_test(test_msync_maps_shared_writable),
		cmocka_unit_test(test_anon_cases),
		cmocka_unit_test(test_every_reader_is_read_only),
		cmocka_unit_test(test_small_allocs_units_do_not_merge),
		cmocka_unit_test(test_walk_in_order),
		cmocka_unit_test(test_walk_random_with_replacement),
		cmocka_unit_test(test_walk_limit_and_stop),
		cmocka_unit_test(test_walk_verify_fails_on_a_wrong_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
