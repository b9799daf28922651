#include "pipeline.h"

#include <pthread.h>

struct pipeline {
	const struct pipeline_ops *ops;
	void *arg;
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* an item queued, or stop: the second thread waits on it */
	size_t queue[PIPELINE_QUEUE];	/* produced, for the second thread */
	size_t head, nqueued;
	/*
	 * Consumed by the second thread, to retire: the caller takes them
	 * whenever it queues one, so at most what was queued and in hand.
	 */
	size_t done[PIPELINE_QUEUE + 1];
	size_t ndone;
	bool stop;
};

static void *worker_main(void *arg)
{
	struct pipeline *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t k;

		while (!p->nqueued && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->nqueued)
			break;
		k = p->queue[p->head];
		p->head = (p->head + 1) % PIPELINE_QUEUE;
		p->nqueued--;
		pthread_mutex_unlock(&p->mu);
		p->ops->consume(p->arg, k, 1);
		pthread_mutex_lock(&p->mu);
		p->done[p->ndone++] = k;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* What the second thread consumed, moved to done[] (p->mu held): how many. */
static size_t take_done(struct pipeline *p, size_t *done)
{
	size_t n = p->ndone;

	for (size_t i = 0; i < n; i++)
		done[i] = p->done[i];
	p->ndone = 0;
	return n;
}

static void retire(const struct pipeline *p, const size_t *done, size_t n)
{
	for (size_t i = 0; p->ops->retire && i < n; i++)
		p->ops->retire(p->arg, done[i]);
}

static size_t run_serial(size_t n, const struct pipeline_ops *ops, void *arg)
{
	for (size_t k = 0; k < n; k++) {
		if (ops->produce(arg, k))
			return k;
		ops->consume(arg, k, 0);
		if (ops->retire)
			ops->retire(arg, k);
	}
	return n;
}

size_t pipeline_run(size_t n, const struct pipeline_ops *ops, void *arg, bool threaded)
{
	struct pipeline p = { .ops = ops, .arg = arg };
	pthread_t th;
	size_t k;

	if (!threaded || n < 2)
		return run_serial(n, ops, arg);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (pthread_create(&th, NULL, worker_main, &p)) {
		pthread_mutex_destroy(&p.mu);
		pthread_cond_destroy(&p.cv);
		return run_serial(n, ops, arg);
	}
	for (k = 0; k < n; k++) {
		size_t done[PIPELINE_QUEUE + 1], ndone;
		bool queued = false;

		/* retired before the next is read: its memory can serve that one */
		pthread_mutex_lock(&p.mu);
		ndone = take_done(&p, done);
		pthread_mutex_unlock(&p.mu);
		retire(&p, done, ndone);
		if (ops->produce(arg, k))
			break;
		/* taken with the push: the bound of p.done holds */
		pthread_mutex_lock(&p.mu);
		ndone = take_done(&p, done);
		if (p.nqueued < PIPELINE_QUEUE) {
			p.queue[(p.head + p.nqueued++) % PIPELINE_QUEUE] = k;
			queued = true;
			pthread_cond_broadcast(&p.cv);
		}
		pthread_mutex_unlock(&p.mu);
		retire(&p, done, ndone);
		if (queued)
			continue;
		/* the second thread has enough in hand: this one computes too */
		ops->consume(arg, k, 0);
		if (ops->retire)
			ops->retire(arg, k);
	}
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	pthread_join(th, NULL);
	retire(&p, p.done, p.ndone);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return k;
}
