/*
 * pipeline_run(): every item produced in order, consumed once and retired
 * once on the caller's thread after its consume; a failed produce stops
 * there with every item before it done; at most PIPELINE_QUEUE + 2 items
 * in flight.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "pipeline.h"

#define N 500

struct trace {
	pthread_t caller;
	size_t fail_at;		/* produce() fails here (N + 1: never) */
	size_t next;		/* the item produce() expects */
	size_t in_flight, max_in_flight;	/* produced, not retired (caller's thread only) */
	int state[N];		/* 0, 1 produced, 2 consumed, 3 retired */
	unsigned who[N];
	double sink[N];
};

static int produce(void *arg, size_t k)
{
	struct trace *t = arg;

	assert_true(pthread_equal(pthread_self(), t->caller));
	assert_int_equal(k, t->next);
	if (k == t->fail_at)
		return -1;
	t->next++;
	assert_int_equal(t->state[k], 0);
	t->state[k] = 1;
	if (++t->in_flight > t->max_in_flight)
		t->max_in_flight = t->in_flight;
	return 0;
}

static void consume(void *arg, size_t k, unsigned who)
{
	struct trace *t = arg;
	double x = 0;

	/* some work, more on some items, so the threads' order varies */
	for (size_t i = 0; i < 2000 * (1 + k % 5); i++)
		x += (double)i * 1e-9;
	t->sink[k] = x;
	assert_int_equal(t->state[k], 1);
	t->state[k] = 2;
	t->who[k] = who;
}

static void retire(void *arg, size_t k)
{
	struct trace *t = arg;

	assert_true(pthread_equal(pthread_self(), t->caller));
	assert_int_equal(t->state[k], 2);
	t->state[k] = 3;
	t->in_flight--;
}

static const struct pipeline_ops ops = { produce, consume, retire };

static void run(bool threaded, size_t fail_at, size_t want)
{
	static struct trace t;
	size_t n1 = 0;

	memset(&t, 0, sizeof(t));
	t.caller = pthread_self();
	t.fail_at = fail_at;
	assert_int_equal(pipeline_run(N, &ops, &t, threaded), want);
	for (size_t k = 0; k < N; k++) {
		assert_int_equal(t.state[k], k < want ? 3 : 0);
		n1 += t.who[k];
	}
	assert_int_equal(t.in_flight, 0);
	assert_true(t.max_in_flight <= (threaded ? PIPELINE_QUEUE + 2 : 1));
	/* the first item always waits for the second thread: it computed */
	assert_true(threaded && want ? n1 > 0 : n1 == 0);
}

static void test_serial(void **state)
{
	(void)state;
	run(false, N + 1, N);
	run(false, 17, 17);
}

static void test_threaded(void **state)
{
	(void)state;
	for (int i = 0; i < 5; i++)
		run(true, N + 1, N);
	run(true, 0, 0);
	run(true, 1, 1);
	run(true, 333, 333);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial),
		cmocka_unit_test(test_threaded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
