/*
 * Hash flooding (issue 5): keys chosen to collide under a known, unkeyed
 * hash all land in one chain.  Shows the attack (the chain length), that
 * automatic resizing does not let it grow the table without end (growing
 * would not split those keys), that the stats flag the chain (chain_alert),
 * and the defence: the same keys through the keyed lfht_hash() spread out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"
#include "lfht_core.h"

#define NKEYS	2000

struct item {
	uint64_t key;
	struct cds_lfht_node node;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key ==
		*(const uint64_t *)key;
}

/* Keys an attacker picks against hash = key: the low 40 bits all zero. */
static uint64_t flood_key(unsigned long i)
{
	return (uint64_t)(i + 1) << 40;
}

static struct lfht_hash_key secret;

static unsigned long hash_of(uint64_t key, int keyed)
{
	return keyed ? lfht_hash(&key, sizeof(key), &secret) : (unsigned long)key;
}

/* Let the resize worker run: sleep offline (qsbr) for @ms milliseconds. */
static void let_worker_run(unsigned int ms)
{
	test_thread_offline();
	usleep(ms * 1000);
	test_thread_online();
}

static void fill(struct cds_lfht *ht, struct item *items, int keyed,
		 uint64_t (*key_of)(unsigned long))
{
	unsigned long i;

	rcu_read_lock();
	for (i = 0; i < NKEYS; i++) {
		items[i].key = key_of(i);
		cds_lfht_add(ht, hash_of(items[i].key, keyed), &items[i].node);
	}
	rcu_read_unlock();
}

static void empty_and_destroy(struct cds_lfht *ht, struct item *items,
			      int keyed)
{
	struct cds_lfht_iter iter;
	unsigned long i, missing = 0;

	rcu_read_lock();
	for (i = 0; i < NKEYS; i++) {
		cds_lfht_lookup(ht, hash_of(items[i].key, keyed), match,
				&items[i].key, &iter);
		if (cds_lfht_del(ht, cds_lfht_iter_get_node(&iter)))
			missing++;
	}
	rcu_read_unlock();
	is_ul(missing, 0, "every key found and deleted");
	synchronize_rcu();
	is_l(test_destroy(ht, NULL), 0, "destroy");
}

static struct lfht_stats stats_of(struct cds_lfht *ht)
{
	struct lfht_stats st;

	rcu_read_lock();
	lfht_get_stats(ht, &st);
	rcu_read_unlock();
	return st;
}

/* The attack against an auto-resizing table: one chain, bounded growth. */
static void test_flood_auto_resize(struct item *items)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	struct lfht_stats st;

	fill(ht, items, 0, flood_key);
	let_worker_run(300);
	st = stats_of(ht);
	is_ul(st.longest_chain, NKEYS, "the attack works: every key in one chain");
	ok(st.buckets <= 16,
	   "colliding keys do not grow the table without end (%lu buckets)",
	   st.buckets);
	empty_and_destroy(ht, items, 0);
}

/* A pre-sized table: the load predicts short chains; stats flag the one. */
static void test_flood_alert(struct item *items, int keyed)
{
	struct cds_lfht *ht = cds_lfht_new(1024, 1, 0, 0, NULL);
	struct lfht_stats st;

	fill(ht, items, keyed, flood_key);
	st = stats_of(ht);
	if (keyed) {
		ok(st.longest_chain <= 16 && !st.chain_alert,
		   "keyed lfht_hash spreads the same keys: longest chain %lu, no alert",
		   st.longest_chain);
	} else {
		ok(st.longest_chain == NKEYS && st.chain_alert,
		   "unkeyed: chain of %lu in 1024 buckets raises chain_alert",
		   st.longest_chain);
	}
	empty_and_destroy(ht, items, keyed);
}

static uint64_t random_key(unsigned long i)
{
	(void)i;
	return ((uint64_t)random() << 33) ^ ((uint64_t)random() << 2) ^
	       (uint64_t)random();
}

/* Keys that are not chosen still make the table grow with the same rules. */
static void test_random_keys_grow(struct item *items)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	unsigned long buckets = 1;
	int waited;

	fill(ht, items, 0, random_key);
	for (waited = 0; waited < 100; waited++) {
		buckets = lfht_nr_buckets(ht);
		if (buckets >= 256)
			break;
		let_worker_run(50);
	}
	ok(buckets >= 256 && buckets <= 4 * NKEYS,
	   "random keys grow the table from 1 to %lu buckets", buckets);
	ok(!stats_of(ht).chain_alert, "no chain_alert for random keys");
	empty_and_destroy(ht, items, 0);
}

int main(void)
{
	struct item *items = calloc(NKEYS, sizeof(*items));

	test_thread_register();
	srandom(12345);
	ok(!lfht_hash_key_random(&secret), "random hash key");
	test_flood_auto_resize(items);
	test_flood_alert(items, 0);
	test_flood_alert(items, 1);
	test_random_keys_grow(items);
	test_thread_unregister();
	free(items);
	return done_testing();
}
