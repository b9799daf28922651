/*
 * libFuzzer target: the plugin loader's descriptor checks.  The input is
 * turned into a descriptor in memory (as a malformed plugin would hand it
 * over: wrong ABI, truncated size, odd element strides, missing names,
 * hooks, units, bad enums, duplicates, unterminated-looking lists) and
 * given to the same check plugin_load_file() runs after dlopen
 * (plugin_check_descriptor).  Accepted descriptors then go through what
 * plan.c does with them: defaults parsed with their units.
 *
 * Element strides that are not a multiple of the struct's alignment are
 * only generated with -DFUZZ_UNALIGNED_STRIDES: the loader does not reject
 * them yet (reported to the lead; see tests/fuzz/README.md).
 */
#include "plan.h"
#include "plugin.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* As in plugin.c: the smallest element an ABI 1.x plugin can have. */
#define MMB_PARAM_DEF_MIN_SIZE \
	(offsetof(struct mmb_param_def, help) + sizeof(const char *))
#define MMB_METRIC_DEF_MIN_SIZE \
	(offsetof(struct mmb_metric_def, help) + sizeof(const char *))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct rd {
	const uint8_t *p;
	size_t n;
};

static unsigned int take(struct rd *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

/* Strings are taken from the input (NUL-terminated, bounded) or a pool. */
static const char *const pool[] = {
	"fuzz", "size", "clients", "mode", "a|b|c", "", "1G", "ncpu", "2*ncpu",
	"20%mem", "300s", "stride:ncpu", "pow2:1..ncpu", "range:1..4:2", "true",
	"a", "b", "|", "a||b", "nan", "-1", "9223372036854775807", "1e308",
};
static char strs[64][32];
static size_t nstrs;

static const char *take_str(struct rd *r)
{
	unsigned int c = take(r);

	if (c < 16)
		return NULL;
	if (c < 128 || nstrs >= 64)
		return pool[c % (sizeof(pool) / sizeof(pool[0]))];
	/* a fresh string from the input */
	char *s = strs[nstrs++];
	size_t len = take(r) % 31;

	for (size_t i = 0; i < len; i++)
		s[i] = (char)take(r);
	s[len] = '\0';
	return s;
}

static size_t take_stride(struct rd *r, size_t real, size_t align)
{
	size_t s;

	switch (take(r) % 6) {
	case 0: return real + 8 * (take(r) % 4);	/* a newer plugin's bigger struct */
	case 1: s = take(r) % (real + 1); break;	/* truncated */
	case 2: s = real + (take(r) % 8); break;	/* odd sizes */
	default: return real;
	}
#ifndef FUZZ_UNALIGNED_STRIDES
	s -= s % align;
#endif
	return s;
}

static int hook_setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{ (void)h; (void)c; (void)p; (void)s; return 0; }
static int hook_run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)h; (void)c; (void)p; (void)s; return 0; }
static void hook_teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{ (void)h; (void)c; (void)p; (void)s; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd r = { data, size };
	struct plugin p;
	unsigned char *dbuf, *pbuf = NULL, *mbuf = NULL;
	struct mmb_workload d = { MMB_WORKLOAD_INIT };
	size_t dsize, np, nm;
	unsigned int flags;

	nstrs = 0;
	flags = take(&r);
	if (flags & 1)
		d.abi_major = take(&r);
	if (flags & 2)
		d.abi_minor = take(&r);
	dsize = take_stride(&r, sizeof(d), 1);
	d.size = dsize;
	d.name = (flags & 4) ? take_str(&r) : "fuzz";
	d.summary = (flags & 8) ? take_str(&r) : "a fuzzed descriptor";
	d.setup = (flags & 16) ? NULL : hook_setup;
	d.run = (flags & 32) ? NULL : hook_run;
	d.teardown = (flags & 64) ? NULL : hook_teardown;
	d.requires = take(&r);
	d.min_kernel = take(&r) << 16;

	/* parameters: up to 300 (the loader stops at 256), stride from the input */
	np = take(&r);
	if (np & 0x80)
		np += take(&r);
	d.param_def_size = take_stride(&r, sizeof(struct mmb_param_def),
				       _Alignof(struct mmb_param_def));
	if (np != 0xff) {
		size_t stride = d.param_def_size ? d.param_def_size : 1;

		pbuf = calloc(np + 1, stride + sizeof(struct mmb_param_def));
		for (size_t i = 0; i < np && d.param_def_size >= MMB_PARAM_DEF_MIN_SIZE; i++) {
			struct mmb_param_def pd = { 0 };

			pd.name = take_str(&r);
			if (!pd.name && r.n)
				pd.name = "p";	/* only the end of input terminates early */
			pd.type = (enum mmb_param_type)(take(&r) % 9);
			pd.def = take_str(&r);
			pd.min = (int64_t)(int8_t)take(&r);
			pd.max = (int64_t)take(&r) << (take(&r) % 40);
			pd.choices = take_str(&r);
			pd.help = take_str(&r);
			/* stored at the plugin's stride; only the known part written */
			memcpy(pbuf + i * stride, &pd,
			       stride < sizeof(pd) ? stride : sizeof(pd));
		}
		d.params = (const void *)pbuf;
	}

	nm = take(&r);
	if (nm & 0x80)
		nm += take(&r);
	d.metric_def_size = take_stride(&r, sizeof(struct mmb_metric_def),
					_Alignof(struct mmb_metric_def));
	if (nm != 0xff) {
		size_t stride = d.metric_def_size ? d.metric_def_size : 1;

		mbuf = calloc(nm + 1, stride + sizeof(struct mmb_metric_def));
		for (size_t i = 0; i < nm && d.metric_def_size >= MMB_METRIC_DEF_MIN_SIZE; i++) {
			struct mmb_metric_def md = { 0 };

			md.name = take_str(&r);
			if (!md.name && r.n)
				md.name = "m";
			md.unit = take_str(&r);
			md.better = (enum mmb_better)((int)(take(&r) % 4) - 1);
			md.help = take_str(&r);
			memcpy(mbuf + i * stride, &md,
			       stride < sizeof(md) ? stride : sizeof(md));
		}
		d.metrics = (const void *)mbuf;
	}

	/*
	 * The plugin's descriptor is exactly as big as it says (at least up
	 * to .size, which must be read to know it): ASan flags any read past.
	 */
	size_t alloc = dsize > offsetof(struct mmb_workload, name) ? dsize
		       : offsetof(struct mmb_workload, name);

	dbuf = calloc(1, alloc);
	memcpy(dbuf, &d, alloc < sizeof(d) ? alloc : sizeof(d));

	plugin_init(&p);
	p.path = xstrdup("fuzz.so");
	if (!plugin_check_descriptor(&p, (const void *)dbuf, "fuzz")) {
		struct unit_ctx u = { .ncpus = 4, .mem_total = 8ULL << 30, .page_size = 4096 };

		if (!p.nmetrics || p.nmetrics > 256 || p.nparams > 256)
			abort();
		for (size_t i = 0; i < p.nparams; i++) {
			struct mmb_value v;
			char err[256];

			if (plugin_param_index(&p, p.params[i]->name) != (int)i)
				abort();	/* names are unique */
			if (p.params[i]->def)
				plan_parse_value(p.params[i], p.params[i]->def, &u, &v, err,
						 sizeof(err));
		}
		for (size_t i = 0; i < p.nmetrics; i++)
			if (!p.metrics[i]->unit)
				abort();
	}
	plugin_release(&p);	/* no handle: frees the copies and the path */
	free(dbuf);
	free(pbuf);
	free(mbuf);
	return 0;
}
