/*
 * liblfht's own behaviour beyond what liburcu's tests can check: sizes
 * rejected at creation, bucket counts and their limits, the later liburcu
 * additions (cds_lfht_node_init_deleted, cds_lfht_entry), the keyed hash,
 * allocation failure during creation, automatic growth from 1 bucket and
 * the delay before automatic shrinking.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"
#include "lfht_fault.h"
#include "lfht_core.h"

struct item {
	unsigned long key;
	struct cds_lfht_node node;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key ==
		*(const unsigned long *)key;
}

static void test_rejected_sizes(void)
{
	static const unsigned long bad[][3] = {
		{ 0, 1, 0 }, { 3, 1, 0 }, { 4, 0, 0 }, { 4, 3, 0 },
		{ 4, 8, 0 }, { 8, 1, 4 }, { 8, 1, 12 },
	};
	unsigned int i;

	for (i = 0; i < CAA_ARRAY_SIZE(bad); i++)
		ok(!cds_lfht_new(bad[i][0], bad[i][1], bad[i][2], 0, NULL),
		   "cds_lfht_new(%lu, %lu, %lu) is NULL",
		   bad[i][0], bad[i][1], bad[i][2]);
	ok(!_cds_lfht_new(1, 1, 0, 0, NULL, NULL, NULL), "NULL flavor rejected");
}

static void test_bucket_limits(void)
{
	struct cds_lfht *ht = cds_lfht_new(4, 2, 16, 0, NULL);

	is_ul(lfht_nr_buckets(ht), 4, "init size");
	cds_lfht_resize(ht, 5);
	is_ul(lfht_nr_buckets(ht), 8, "resize rounds up to a power of two");
	cds_lfht_resize(ht, 1000);
	is_ul(lfht_nr_buckets(ht), 16, "resize stops at max");
	cds_lfht_resize(ht, 1);
	is_ul(lfht_nr_buckets(ht), 2, "resize stops at min");
	is_l(cds_lfht_destroy(ht, NULL), 0, "destroy");
}

static void test_later_additions(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);
	struct item it = { .key = 7 }, *found;
	struct cds_lfht_iter iter;

	cds_lfht_node_init_deleted(&it.node);
	ok(cds_lfht_is_node_deleted(&it.node), "init_deleted node reads deleted");
	rcu_read_lock();
	is_l(cds_lfht_del(ht, &it.node), -ENOENT, "del of an init_deleted node");
	cds_lfht_lookup(ht, 7, match, &it.key, &iter);
	found = cds_lfht_entry(cds_lfht_iter_get_node(&iter), struct item, node);
	ok(found == NULL, "cds_lfht_entry of NULL is NULL");
	cds_lfht_add(ht, 7, &it.node);
	cds_lfht_lookup(ht, 7, match, &it.key, &iter);
	found = cds_lfht_entry(cds_lfht_iter_get_node(&iter), struct item, node);
	ok(found == &it, "cds_lfht_entry gives the containing object");
	ok(!cds_lfht_is_node_deleted(&it.node), "added node is live");
	is_l(cds_lfht_del(ht, &it.node), 0, "del");
	rcu_read_unlock();
	synchronize_rcu();
	is_l(cds_lfht_destroy(ht, NULL), 0, "destroy");
}

static void test_siphash(void)
{
	/* SipHash-2-4 reference: key 00..0f, messages 00..(n-1). */
	struct lfht_hash_key key = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
	unsigned char msg[64];
	struct lfht_hash_key r1, r2;
	unsigned int i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)i;
	is_ul(lfht_hash(msg, 0, &key), 0x726fdb47dd0e0e31UL, "siphash empty");
	is_ul(lfht_hash(msg, 15, &key), 0xa129ca6149be45e5UL, "siphash 15 bytes");
	is_ul(lfht_hash(msg, 8, &key), 0x93f5f5799a932462UL, "siphash 8 bytes");
	ok(!lfht_hash_key_random(&r1) && !lfht_hash_key_random(&r2) &&
	   (r1.k0 != r2.k0 || r1.k1 != r2.k1), "random keys differ");
}

/* Fail each allocation of a creation in turn: NULL, and nothing leaked. */
static void test_new_alloc_failure(void)
{
	const int flags[] = { 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING };
	unsigned int f;

	for (f = 0; f < CAA_ARRAY_SIZE(flags); f++) {
		struct cds_lfht *ht;
		long k, n, nulls = 0;

		lfht_fault_inject(0);
		ht = cds_lfht_new(64, 4, 0, flags[f], NULL);
		n = lfht_fault_allocations();
		cds_lfht_destroy(ht, NULL);
		for (k = 1; k <= n; k++) {
			lfht_fault_inject(k);
			ht = cds_lfht_new(64, 4, 0, flags[f], NULL);
			nulls += ht == NULL;
			if (ht)
				cds_lfht_destroy(ht, NULL);
		}
		lfht_fault_inject(0);
		is_l(nulls, n, "each of the allocations of cds_lfht_new failing gives NULL");
	}
}

static void test_auto_growth(void)
{
	const unsigned long n = 1UL << 14;
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	struct item *items = calloc(n, sizeof(*items));
	struct cds_lfht_iter iter;
	unsigned long i, missing = 0;
	int tries;

	rcu_read_lock();
	for (i = 0; i < n; i++) {
		items[i].key = i;
		cds_lfht_add(ht, i * 0x9e3779b97f4a7c15UL, &items[i].node);
	}
	rcu_read_unlock();
	/*
	 * The worker resizes in the background: wait for it, boundedly.
	 * Without accounting, growth is asked by adds that walk 4 nodes or
	 * more, and a walk covers one list head, half a bucket: the table
	 * may settle at 4 entries per head, 8 per bucket.
	 */
	for (tries = 0; tries < 500 && lfht_nr_buckets(ht) < n / 8; tries++) {
		test_thread_offline();
		usleep(10000);
		test_thread_online();
	}
	ok(lfht_nr_buckets(ht) >= n / 8, "grew from 1 to %lu buckets for %lu keys",
	   lfht_nr_buckets(ht), n);
	/* A chain measured in a small table must not size a large one. */
	ok(lfht_nr_buckets(ht) <= 4 * n, "growth stays within 4 buckets per key");
	rcu_read_lock();
	for (i = 0; i < n; i++) {
		cds_lfht_lookup(ht, i * 0x9e3779b97f4a7c15UL, match, &items[i].key, &iter);
		missing += cds_lfht_iter_get_node(&iter) != &items[i].node;
		cds_lfht_del(ht, &items[i].node);
	}
	rcu_read_unlock();
	is_ul(missing, 0, "every key found after growth");
	synchronize_rcu();
	free(items);
	is_l(cds_lfht_destroy(ht, NULL), 0, "destroy");
}

/*
 * A table sized ahead of its fill (auto-resize with accounting) is not
 * shrunk while it fills: only deletes ask to shrink.  Found by the
 * benchmark, where a pre-sized 2^20 table shrank to 2^14 and regrew.
 * Nor does automatic shrinking go below the initial size: the benchmark's
 * pre-sized 1024-key table was shrunk and regrown each time it drained
 * and filled, at half liburcu's insert rate.
 */
static unsigned long wait_buckets(struct cds_lfht *ht, int bigger,
				  unsigned long than)
{
	int i;

	for (i = 0; i < 200 && (lfht_nr_buckets(ht) > than) != bigger; i++) {
		test_thread_offline();
		usleep(10000);
		test_thread_online();
	}
	return lfht_nr_buckets(ht);
}

static void test_presized_fill(void)
{
	const unsigned long n = 1UL << 14, total = 8 * n;
	struct cds_lfht *ht = cds_lfht_new(n, 1, 0, CDS_LFHT_AUTO_RESIZE |
					   CDS_LFHT_ACCOUNTING, NULL);
	struct item *items = calloc(total, sizeof(*items));
	unsigned long i, smallest = n, size;
	struct cds_lfht_iter iter;

	for (i = 0; i < total; i++) {
		items[i].key = i;
		rcu_read_lock();
		cds_lfht_add(ht, i * 0x9e3779b97f4a7c15UL, &items[i].node);
		rcu_read_unlock();
		if (i < n && !(i % 1024)) {
			test_thread_offline();
			usleep(2000);	/* let the worker act on the count */
			test_thread_online();
			if (lfht_nr_buckets(ht) < smallest)
				smallest = lfht_nr_buckets(ht);
		}
	}
	is_ul(smallest, n, "a pre-sized table keeps its size while it fills");
	size = wait_buckets(ht, 1, n);
	ok(size > n, "8x its size in keys grow it (%lu buckets)", size);
	rcu_read_lock();
	for (i = 0; i < total; i++) {
		cds_lfht_lookup(ht, i * 0x9e3779b97f4a7c15UL, match, &items[i].key,
				&iter);
		cds_lfht_del(ht, cds_lfht_iter_get_node(&iter));
	}
	rcu_read_unlock();
	size = wait_buckets(ht, 0, n);
	is_ul(size, n, "deleting every key shrinks it back to its initial size");
	test_thread_offline();
	usleep(50000);
	test_thread_online();
	is_ul(lfht_nr_buckets(ht), n, "and not below");
	synchronize_rcu();
	free(items);
	is_l(test_destroy(ht, NULL), 0, "destroy");
}

/* Add (or delete) keys [0, n) of @items, each under its own read lock. */
static void fill_drain(struct cds_lfht *ht, struct item *items,
		       unsigned long n, int add)
{
	struct cds_lfht_iter iter;
	unsigned long i;

	for (i = 0; i < n; i++) {
		rcu_read_lock();
		if (add) {
			items[i].key = i;
			cds_lfht_add(ht, i * 0x9e3779b97f4a7c15UL, &items[i].node);
		} else {
			cds_lfht_lookup(ht, i * 0x9e3779b97f4a7c15UL, match,
					&items[i].key, &iter);
			cds_lfht_del(ht, cds_lfht_iter_get_node(&iter));
		}
		rcu_read_unlock();
	}
}

static unsigned long nr_shrinks(struct cds_lfht *ht)
{
	struct lfht_stats st;

	rcu_read_lock();
	lfht_get_stats(ht, &st);
	rcu_read_unlock();
	return st.shrinks;
}

static void sleep_ms(unsigned int ms)
{
	test_thread_offline();
	usleep(ms * 1000);
	test_thread_online();
}

/*
 * Automatic shrinking waits LFHT_SHRINK_DELAY_MS after a delete first saw
 * the count low, and an add that sees the count back up calls it off: a
 * table that drains and fills again keeps its buckets.  Found by the
 * benchmark, where a 2^10-key auto-resized table shrank to one bucket and
 * grew again in every 100 us round, at 0.6 of liburcu's rates.
 */
static void test_shrink_delay(void)
{
	const unsigned long n = 4096;
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE |
					   CDS_LFHT_ACCOUNTING, NULL);
	struct item *items = calloc(n, sizeof(*items));
	unsigned long big, shrinks, size = 0, took = 0, t0;
	int tries;

	fill_drain(ht, items, n, 1);
	wait_buckets(ht, 1, n / 4);
	sleep_ms(50);	/* growth done */
	big = lfht_nr_buckets(ht);
	shrinks = nr_shrinks(ht);
	ok(big > n / 4, "%lu keys grew it to %lu buckets", n, big);
	/*
	 * The delay runs from a delete during the drain to an add during the
	 * refill: only a round that took less than the delay in all tells
	 * something.  A slow machine (valgrind) gets a few tries.
	 */
	for (tries = 0; tries < 5; tries++) {
		t0 = lfht_env_now_ms();
		fill_drain(ht, items, n, 0);
		sleep_ms(20);
		size = lfht_nr_buckets(ht);
		synchronize_rcu();	/* before the nodes are added again */
		fill_drain(ht, items, n, 1);
		took = lfht_env_now_ms() - t0;
		if (took < LFHT_SHRINK_DELAY_MS)
			break;
		sleep_ms(3 * LFHT_SHRINK_DELAY_MS);
		wait_buckets(ht, 1, n / 4);
		sleep_ms(50);
		shrinks = nr_shrinks(ht);
		big = lfht_nr_buckets(ht);
	}
	ok(took < LFHT_SHRINK_DELAY_MS, "drain and refill in %lu ms (%d tries)",
	   took, tries + 1);
	is_ul(size, big, "20 ms after a drain it is not shrunk");
	sleep_ms(3 * LFHT_SHRINK_DELAY_MS);
	is_ul(nr_shrinks(ht), shrinks, "filled again within the delay: no shrink");
	is_ul(lfht_nr_buckets(ht), big, "and the same size");
	fill_drain(ht, items, n, 0);
	is_ul(wait_buckets(ht, 0, 1), 1, "left empty, it shrinks after the delay");
	synchronize_rcu();
	free(items);
	is_l(test_destroy(ht, NULL), 0, "destroy");
}

int main(void)
{
	test_thread_register();
	test_rejected_sizes();
	test_bucket_limits();
	test_later_additions();
	test_siphash();
	test_new_alloc_failure();
	test_auto_growth();
	test_presized_fill();
	test_shrink_delay();
	test_thread_unregister();
	return done_testing();
}
