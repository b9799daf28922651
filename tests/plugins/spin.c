/*
 * Interference test plugin: `threads` threads each spin for `ms`
 * milliseconds counting loop passes; reports passes per second.  CPU-bound
 * on purpose, so a CPU hog beside it slows it down the way it would slow a
 * real benchmark (tests/e2e/44-interference.sh).
 */
#include <mmbench/workload.h>

#include <pthread.h>
#include <stdint.h>
#include <string.h>

enum { P_THREADS, P_MS, P_SLOW };

static const struct mmb_param_def params[] = {
	{ "threads", MMB_PARAM_INT, "2", 1, 64, NULL, "spinning threads" },
	{ "ms", MMB_PARAM_INT, "100", 1, 10000, NULL, "how long each thread spins" },
	{ "slow_pct", MMB_PARAM_INT, "0", 0, 1000, NULL,
	  "extra work per pass, in %: an injected regression of about that size" },
	{ 0 },
};

static const struct mmb_metric_def metrics[] = {
	{ .name = "passes", .unit = "passes/s", .better = MMB_HIGHER_IS_BETTER, .help = "loop passes per second, all threads" },
	{ 0 },
};

struct spinner {
	const struct mmb_host *h;
	uint64_t until, passes;
	int work;		/* inner loop length */
	pthread_t tid;
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	volatile uint64_t x = 0;
	uint64_t n = 0;

	/* a pass: `work` additions; slow_pct makes each pass that much longer */
	while (s->h->now_ns() < s->until) {
		for (int i = 0; i < s->work; i++)
			x += i;
		n++;
	}
	s->passes = n;
	return NULL;
}

static int setup(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void **s)
{
	(void)h; (void)c; (void)p; (void)s;
	return MMB_OK;
}

static void teardown(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *s)
{
	(void)h; (void)c; (void)p; (void)s;
}

static int run(const struct mmb_host *h, struct mmb_ctx *c, const struct mmb_value *p, void *st)
{
	struct spinner s[64];
	int n = (int)p[P_THREADS].i;
	uint64_t t0 = h->now_ns(), total = 0;
	double secs;

	(void)st;
	memset(s, 0, sizeof(s));
	for (int i = 0; i < n; i++) {
		s[i].h = h;
		s[i].work = 1000 + (int)p[P_SLOW].i * 10;
		s[i].until = t0 + (uint64_t)p[P_MS].i * 1000000u;
		if (pthread_create(&s[i].tid, NULL, spin, &s[i])) {
			h->fail(c, "pthread_create failed");
			return MMB_FAIL;
		}
	}
	for (int i = 0; i < n; i++) {
		pthread_join(s[i].tid, NULL);
		total += s[i].passes;
	}
	secs = (h->now_ns() - t0) / 1e9;
	h->report(c, 0, total / secs);
	return MMB_OK;
}

static const struct mmb_workload desc = {
	MMB_WORKLOAD_INIT,
	.name = "spin",
	.summary = "test plugin: CPU-bound threads, for interference tests",
	.params = params,
	.metrics = metrics,
	.setup = setup, .run = run, .teardown = teardown,
};
MMB_WORKLOAD(desc)
