/*
 * How vm-scalability maps each case's memory, against how lkp's case
 * scripts run usemem: a case that only reads maps its file or tmpfs object
 * private and read-only (usemem without -S), msync maps its file shared
 * and writable (-S), and the kernel sees exactly that (/proc/self/maps).
 * The engine and the case table are compiled in, so this checks the
 * shipped table, not a copy.
 */
/* before cmocka.h, whose skip() macro would rename host->skip */
#include "../../workloads/vm-scalability/engine.c"
#include "../../workloads/vm-scalability/vm-scalability.c"

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

/* The permission field ("r--p") of the mapping that holds p. */
static void maps_perms(const void *p, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long lo, hi, a = (unsigned long)p;

	assert_non_null(f);
	perms[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && a >= lo && a < hi)
			break;
	fclose(f);
}

/* Map the case's own object as a task would; the kernel's view of it. */
static void mapped_as(const char *name, const char *want)
{
	struct vms_res res = { 0 };
	struct vms_round r = { .c = find_case(name), .page = 4096, .dir = "/tmp" };
	size_t len = 16 * 4096;
	char perms[5];
	int fd = make_object(&r, len, &res);
	char *p;

	assert_true(fd >= 0);
	p = map_mem(&r, len, fd, 0, &res);
	assert_non_null(p);
	maps_perms(p, perms);
	munmap(p, len);
	close(fd);
	if (strcmp(perms, want))
		fail_msg("%s: mapped %s, usemem maps it %s", name, perms, want);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
