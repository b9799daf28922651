/*
 * Items 0..n-1 through three steps on two threads: produce(k) in order on
 * the calling thread (the one that may own a resource, e.g. a database
 * connection), consume(k) on either thread (items are independent), and
 * retire(k) on the calling thread once consume(k) has returned.  Up to
 * PIPELINE_QUEUE produced items wait for the second thread; when they are
 * that many the caller consumes the item itself, so both CPUs compute and
 * at most PIPELINE_QUEUE + 2 items are in flight (memory stays O(item)).
 * consume() must touch nothing produce() or retire() writes but its own
 * item's data.
 */
#ifndef MMB_PIPELINE_H
#define MMB_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#define PIPELINE_QUEUE 2

struct pipeline_ops {
	int (*produce)(void *arg, size_t k);	/* nonzero: stop before item k */
	void (*consume)(void *arg, size_t k, unsigned who);	/* who: 0 the caller, 1 the other */
	void (*retire)(void *arg, size_t k);	/* may be NULL */
};

/*
 * Run items [0, n): the number produced, consumed and retired (n, or the k
 * whose produce() failed).  !threaded, or no thread to be had: one thread
 * does produce, consume, retire per item in order.
 */
size_t pipeline_run(size_t n, const struct pipeline_ops *ops, void *arg, bool threaded);

#endif
