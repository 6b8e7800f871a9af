/*
 * tests/user/api_common.h - helpers shared by the single-threaded API tests.
 *
 * Include after tests/flavor.h.  Everything is static inline so each test
 * program only pays for what it uses and -Wunused-function stays quiet.
 */
#ifndef LFHT_TESTS_USER_API_COMMON_H
#define LFHT_TESTS_USER_API_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <urcu/uatomic.h>

#include "tap.h"

/* Test object: key/value with the hash table node embedded in the middle. */
struct item {
	unsigned long key;
	struct cds_lfht_node node;
	unsigned long value;
	struct rcu_head rcu;
};

/* Number of items allocated and not yet freed; 0 at the end of each test. */
static unsigned long items_alive __attribute__((unused));

/*
 * 64-bit finaliser (murmur3 fmix64): a bijection, so distinct keys always
 * get distinct hashes; tests that want collisions pass a hash explicitly.
 */
static inline unsigned long hash_key(unsigned long key)
{
	uint64_t h = key;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (unsigned long)h;
}

static inline struct item *to_item(struct cds_lfht_node *node)
{
	return node ? caa_container_of(node, struct item, node) : NULL;
}

static inline int match_item(struct cds_lfht_node *node, const void *key)
{
	return to_item(node)->key == *(const unsigned long *)key;
}

static inline struct item *item_new(unsigned long key, unsigned long value)
{
	struct item *it = calloc(1, sizeof(*it));

	if (!it)
		abort();
	it->key = key;
	it->value = value;
	cds_lfht_node_init(&it->node);
	uatomic_inc(&items_alive);
	return it;
}

/* Only for items never published, or after a grace period. */
static inline void item_free(struct item *it)
{
	uatomic_dec(&items_alive);
	free(it);
}

static inline void item_free_rcu_cb(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, rcu);

	it->key = ~0UL;	/* poison: a late reader would see a bogus key */
	item_free(it);
}

/* Free an item that readers may still hold: after a grace period. */
static inline void item_retire(struct item *it)
{
	call_rcu(&it->rcu, item_free_rcu_cb);
}

/* Lookup of @key with the default hash; returns the first match or NULL. */
static inline struct item *lookup_item(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;

	cds_lfht_lookup(ht, hash_key(key), match_item, &key, &iter);
	return to_item(cds_lfht_iter_get_node(&iter));
}

/* Number of nodes matching @key (lookup + next_duplicate walk). */
static inline unsigned long count_key_hash(struct cds_lfht *ht,
					   unsigned long hash, unsigned long key)
{
	struct cds_lfht_iter iter;
	unsigned long n = 0;

	cds_lfht_lookup(ht, hash, match_item, &key, &iter);
	while (cds_lfht_iter_get_node(&iter)) {
		n++;
		cds_lfht_next_duplicate(ht, match_item, &key, &iter);
	}
	return n;
}

static inline unsigned long count_key(struct cds_lfht *ht, unsigned long key)
{
	return count_key_hash(ht, hash_key(key), key);
}

/* Number of nodes seen by a cds_lfht_first/next traversal. */
static inline unsigned long count_all(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	unsigned long n = 0;

	for (cds_lfht_first(ht, &iter); cds_lfht_iter_get_node(&iter);
	     cds_lfht_next(ht, &iter))
		n++;
	return n;
}

/* Insert keys [0, n) with value = key * 10 (call under rcu_read_lock). */
static inline void add_range(struct cds_lfht *ht, unsigned long n)
{
	unsigned long k;

	for (k = 0; k < n; k++) {
		struct item *it = item_new(k, k * 10);

		cds_lfht_add(ht, hash_key(k), &it->node);
	}
}

/*
 * Every key in [0, n) is found exactly once by lookup, with its value, and
 * a traversal sees exactly n nodes, each key once.  Call under read lock.
 */
static inline int check_range(struct cds_lfht *ht, unsigned long n)
{
	unsigned char *seen = calloc(n ? n : 1, 1);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long k, total = 0;
	int good = 1;

	if (!seen)
		abort();
	for (k = 0; k < n && good; k++) {
		struct item *it = lookup_item(ht, k);

		good = it && it->key == k && it->value == k * 10
			&& count_key(ht, k) == 1;
		if (!good)
			diag("  key %lu: lookup %p", k, (void *)it);
	}
	cds_lfht_for_each(ht, &iter, node) {
		struct item *it = to_item(node);

		total++;
		if (it->key >= n || seen[it->key]++) {
			diag("  traversal: unexpected or repeated key %lu",
			     it->key);
			good = 0;
		}
	}
	if (total != n) {
		diag("  traversal saw %lu nodes, expected %lu", total, n);
		good = 0;
	}
	free(seen);
	return good;
}

/*
 * Remove and retire every node, wait for the frees, destroy the table.
 * Returns cds_lfht_destroy()'s result.  Caller is online, not in a C.S.
 */
static inline int drain_and_destroy_attr(struct cds_lfht *ht,
					 pthread_attr_t **attr)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		if (cds_lfht_del(ht, node) == 0)
			item_retire(to_item(node));
	}
	rcu_read_unlock();
	test_barrier();
	return test_destroy(ht, attr);
}

static inline int drain_and_destroy(struct cds_lfht *ht)
{
	return drain_and_destroy_attr(ht, NULL);
}

#endif /* LFHT_TESTS_USER_API_COMMON_H */
