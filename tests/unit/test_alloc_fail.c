/*
 * Allocation-failure sweep through the fault hook of liblfht.a
 * (user/lfht_fault.h: fail the k-th allocation from now; the hook is not
 * exported from liblfht.so, so this test links the static library).
 *
 *  1. cds_lfht_new, every configuration below, failing each of its
 *     allocations in turn: NULL, and nothing leaked (ASan and valgrind
 *     check leaks in make check);
 *  2. an explicit growing cds_lfht_resize, failing each of its allocations:
 *     the table stays at its old size with every node, correct, and the
 *     same resize done again succeeds;
 *  3. automatic growth by the resize worker, failing each allocation it
 *     makes: the table stays correct, and later adds make it grow.
 * Prints how many failure points were tried.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"
#include "lfht_fault.h"

struct item {
	unsigned long key;
	struct cds_lfht_node node;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key ==
		*(const unsigned long *)key;
}

static unsigned long hash_of(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

static unsigned long points;	/* allocation failures injected and seen */

/*
 * Every item of items[0..n) is found by lookup (itself, once among its
 * key's duplicates) and the traversal sees exactly those n nodes once.
 */
static int contents_ok(struct cds_lfht *ht, struct item *items, unsigned long n)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, seen = 0, bad = 0, count;
	long before, after;
	unsigned char *mark = calloc(n, 1);

	if (!mark)
		abort();
	rcu_read_lock();
	for (i = 0; i < n; i++) {
		unsigned long found = 0;

		cds_lfht_for_each_duplicate(ht, hash_of(items[i].key), match,
					    &items[i].key, &iter, node)
			found += node == &items[i].node;
		bad += found != 1;
	}
	cds_lfht_for_each(ht, &iter, node) {
		struct item *it = caa_container_of(node, struct item, node);

		if (it < items || it >= items + n || mark[it - items]++)
			bad++;
		seen++;
	}
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	free(mark);
	return !bad && seen == n && count == n;
}

/* Keys i % @keys: duplicates when @keys is below the count. */
static void add_items(struct cds_lfht *ht, struct item *items,
		      unsigned long from, unsigned long to, unsigned long keys)
{
	unsigned long i;

	rcu_read_lock();
	for (i = from; i < to; i++) {
		items[i].key = i % keys;
		cds_lfht_add(ht, hash_of(items[i].key), &items[i].node);
	}
	rcu_read_unlock();
}

static void del_items(struct cds_lfht *ht, struct item *items, unsigned long n)
{
	unsigned long i;

	rcu_read_lock();
	for (i = 0; i < n; i++)
		cds_lfht_del(ht, &items[i].node);
	rcu_read_unlock();
	synchronize_rcu();	/* items are reused or freed by the caller */
}

/* 1. Creation. */
static void sweep_new(void)
{
	static const struct {
		unsigned long init, min;
		int flags;
	} cfg[] = {
		{ 1, 1, 0 }, { 64, 1, 0 }, { 64, 4, 0 }, { 1024, 16, 0 },
		{ 1, 1, CDS_LFHT_AUTO_RESIZE },
		{ 64, 4, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING },
		{ 1024, 1024, CDS_LFHT_ACCOUNTING },
	};
	unsigned int c;

	for (c = 0; c < CAA_ARRAY_SIZE(cfg); c++) {
		struct cds_lfht *ht;
		long k, n, nulls = 0, bad = 0;

		lfht_fault_inject(0);
		ht = cds_lfht_new(cfg[c].init, cfg[c].min, 0, cfg[c].flags, NULL);
		n = lfht_fault_allocations();
		ok(ht && n > 0, "new(%lu, %lu, flags %d) makes %ld allocations",
		   cfg[c].init, cfg[c].min, cfg[c].flags, n);
		if (ht)
			bad += test_destroy(ht, NULL) != 0;
		for (k = 1; k <= n; k++) {
			lfht_fault_inject(k);
			ht = cds_lfht_new(cfg[c].init, cfg[c].min, 0,
					  cfg[c].flags, NULL);
			bad += lfht_fault_allocations() < k;	/* k-th was reached */
			lfht_fault_inject(0);
			nulls += ht == NULL;
			if (ht)
				bad += test_destroy(ht, NULL) != 0;
		}
		points += (unsigned long)n;
		ok(nulls == n && !bad,
		   "each of those %ld allocations failing gives NULL (%ld did)",
		   n, nulls);
	}
}

/* 2. Explicit growth from @init (min @min) to @target, failing each allocation. */
static void sweep_resize(unsigned long init, unsigned long min,
			 unsigned long target, int flags)
{
	const unsigned long n = 300;
	struct item *items = calloc(n, sizeof(*items));
	struct cds_lfht *ht = cds_lfht_new(init, min, 0, flags, NULL);
	long k, allocs, kept = 0, correct = 0, regrown = 0, zero_shrink = 0;

	if (!items || !ht)
		abort();
	add_items(ht, items, 0, n, 97);
	lfht_fault_inject(0);
	cds_lfht_resize(ht, target);
	allocs = lfht_fault_allocations();
	ok(lfht_nr_buckets(ht) == target && allocs > 0,
	   "resize %lu -> %lu (min %lu) makes %ld allocations",
	   init, target, min, allocs);
	for (k = 1; k <= allocs; k++) {
		lfht_fault_inject(0);
		cds_lfht_resize(ht, init);
		zero_shrink += lfht_fault_allocations() == 0;
		lfht_fault_inject(k);
		cds_lfht_resize(ht, target);
		points += lfht_fault_allocations() >= k;
		lfht_fault_inject(0);
		kept += lfht_nr_buckets(ht) == init;
		if (lfht_nr_buckets(ht) != init)
			diag("  allocation %ld failing left %lu buckets, not %lu",
			     k, lfht_nr_buckets(ht), init);
		correct += contents_ok(ht, items, n);
		cds_lfht_resize(ht, target);
		regrown += lfht_nr_buckets(ht) == target &&
			   contents_ok(ht, items, n);
	}
	is_l(zero_shrink, allocs, "shrinking allocates nothing");
	is_l(kept, allocs, "a failed resize leaves the table at its old size");
	is_l(correct, allocs, "... with every node, each seen once");
	is_l(regrown, allocs, "... and the same resize then succeeds");
	del_items(ht, items, n);
	is_l(test_destroy(ht, NULL), 0, "destroy");
	free(items);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Wait (boundedly) until @cond holds: polls every 2 ms for up to 10 s, by
 * the clock (the signal flavor's grace periods cut usleep() short).
 */
#define WAIT_FOR(cond) do {						\
		double end_ = now() + 10;				\
		while (!(cond) && now() < end_) {			\
			test_thread_offline();				\
			usleep(2000);					\
			test_thread_online();				\
		}							\
	} while (0)

/* 3. Automatic growth failing in the worker, each allocation in turn. */
static void sweep_auto(int flags)
{
	const unsigned long n = 512;	/* allocs below is log2(n / 4) - 1 */
	struct item *items = calloc(2 * n, sizeof(*items));
	long k, allocs, fired = 0, correct = 0, grew = 0;
	struct cds_lfht *ht;

	if (!items)
		abort();
	/*
	 * Distinct keys: growth follows chains of distinct hashes, which
	 * duplicates do not lengthen.  Growing from 1 to n / 4 buckets
	 * allocates one bucket table per doubling but the first (bucket 1
	 * lives in the first block with bucket 0), whatever steps the worker
	 * takes (how far past n / 4 it goes depends on timing): those are
	 * the allocations failed in turn below.
	 */
	allocs = 6;	/* log2(n / 4) - 1 */
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	lfht_fault_inject(0);
	add_items(ht, items, 0, n, ~0UL);
	WAIT_FOR(lfht_nr_buckets(ht) >= n / 4);
	ok(lfht_nr_buckets(ht) >= n / 4 && lfht_fault_allocations() >= allocs,
	   "auto-resize (flags %d) grows to %lu buckets for %lu nodes, %ld allocations",
	   flags, lfht_nr_buckets(ht), n, lfht_fault_allocations());
	del_items(ht, items, n);
	is_l(test_destroy(ht, NULL), 0, "destroy");

	for (k = 1; k <= allocs; k++) {
		ht = cds_lfht_new(1, 1, 0, flags, NULL);
		lfht_fault_inject(k);
		add_items(ht, items, 0, n, ~0UL);
		/* The k-th is needed to reach n / 4 buckets: it comes. */
		WAIT_FOR(lfht_fault_allocations() >= k);
		fired += lfht_fault_allocations() >= k;
		correct += contents_ok(ht, items, n);
		lfht_fault_inject(0);
		/* More adds: the worker is asked again and succeeds. */
		add_items(ht, items, n, 2 * n, ~0UL);
		WAIT_FOR(lfht_nr_buckets(ht) >= 2 * n / 4);
		if (lfht_nr_buckets(ht) < 2 * n / 4)
			diag("  fault %ld: %lu buckets for %lu nodes", k,
			     lfht_nr_buckets(ht), 2 * n);
		grew += lfht_nr_buckets(ht) >= 2 * n / 4 &&
			contents_ok(ht, items, 2 * n);
		del_items(ht, items, 2 * n);
		if (test_destroy(ht, NULL))
			diag("  destroy failed after fault %ld", k);
	}
	points += (unsigned long)fired;
	is_l(fired, allocs, "each allocation of the growth was failed once");
	is_l(correct, allocs, "the table stays correct when the worker's growth fails");
	is_l(grew, allocs, "... and grows when adds ask again");
	free(items);
}

int main(void)
{
	test_thread_register();
	sweep_new();
	sweep_resize(1, 1, 1024, 0);
	sweep_resize(8, 4, 4096, 0);
	sweep_resize(16, 16, 256, CDS_LFHT_ACCOUNTING);
	sweep_auto(CDS_LFHT_AUTO_RESIZE);
	sweep_auto(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	ok(points > 0, "%lu allocation failure points tried", points);
	test_thread_unregister();
	return done_testing();
}
