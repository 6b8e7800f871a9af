/*
 * tests/user/test_api.c - single-threaded tests of the cds_lfht node API:
 * creation arguments, add/lookup/next_duplicate, add_unique, add_replace,
 * replace, del, is_node_deleted, first/next, the for_each macros and
 * count_nodes.  The main thread is a registered RCU reader throughout;
 * removed nodes are freed with call_rcu and rcu_barrier() runs before
 * every table destruction so nothing leaks.
 *
 * Build: see tests/user/README (one binary per flavor, -DTEST_FLAVOR_*).
 */
#include <errno.h>
#include <stdio.h>

#include "flavor.h"
#include "api_common.h"

#define COLLIDING_HASH	0x5a5a5a5aUL	/* shared by keys 100 and 101 */

static const int all_flags[] = {
	0,
	CDS_LFHT_AUTO_RESIZE,
	CDS_LFHT_ACCOUNTING,
	CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
};

/* --- creation --------------------------------------------------------- */

static void test_new_invalid(void)
{
	ok(cds_lfht_new(3, 1, 0, 0, NULL) == NULL,
	   "init_size 3 (not a power of two) is rejected");
	ok(cds_lfht_new(0, 1, 0, 0, NULL) == NULL, "init_size 0 is rejected");
	ok(cds_lfht_new(6, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL) == NULL,
	   "init_size 6 is rejected with AUTO_RESIZE too");
	ok(cds_lfht_new(4, 3, 0, 0, NULL) == NULL,
	   "min_nr_alloc_buckets 3 (not a power of two) is rejected");
	ok(cds_lfht_new(1, 1, 3, 0, NULL) == NULL,
	   "max_nr_buckets 3 (not a power of two) is rejected");
}

/* A fresh table is empty; one add/lookup/del round trip works. */
static int smoke_table(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct item *it = item_new(42, 1);
	long before, after;
	unsigned long count;
	int good;

	rcu_read_lock();
	cds_lfht_first(ht, &iter);
	good = cds_lfht_iter_get_node(&iter) == NULL;
	cds_lfht_count_nodes(ht, &before, &count, &after);
	good = good && count == 0;
	cds_lfht_add(ht, hash_key(42), &it->node);
	good = good && lookup_item(ht, 42) == it && count_all(ht) == 1;
	good = good && cds_lfht_del(ht, &it->node) == 0;
	good = good && lookup_item(ht, 42) == NULL && count_all(ht) == 0;
	rcu_read_unlock();
	item_retire(it);
	return good;
}

static void test_new_valid(void)
{
	static const unsigned long inits[] = { 1, 8, 1024 };
	unsigned int f, i;

	for (f = 0; f < CAA_ARRAY_SIZE(all_flags); f++) {
		for (i = 0; i < CAA_ARRAY_SIZE(inits); i++) {
			struct cds_lfht *ht;

			ht = cds_lfht_new(inits[i], 1, 0, all_flags[f], NULL);
			if (!ok(ht != NULL, "new(init=%lu, flags=%d)",
				inits[i], all_flags[f]))
				continue;
			ok(smoke_table(ht), "  empty, then add/lookup/del works");
			test_barrier();
			is_l(test_destroy(ht, NULL), 0, "  destroy");
		}
	}
	/* Explicit power-of-two min/max values are all accepted. */
	{
		struct cds_lfht *ht = cds_lfht_new(16, 16, 1UL << 16, 0, NULL);

		ok(ht && smoke_table(ht), "new(16, 16, 1<<16) works");
		test_barrier();
		if (ht)
			is_l(test_destroy(ht, NULL), 0, "  destroy");
	}
	{
		struct cds_lfht *ht = cds_lfht_new(64, 1, 64,
					CDS_LFHT_AUTO_RESIZE, NULL);

		ok(ht && smoke_table(ht), "new(init == max == 64) works");
		test_barrier();
		if (ht)
			is_l(test_destroy(ht, NULL), 0, "  destroy");
	}
}

/* cds_lfht_new_flavor() with the flavor's own rcu_flavor descriptor. */
static void test_new_flavor(void)
{
	struct cds_lfht *ht;

	ht = cds_lfht_new_flavor(8, 8, 0,
			CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
			&rcu_flavor, NULL);
	if (!ok(ht != NULL, "cds_lfht_new_flavor(&rcu_flavor)"))
		return;
	rcu_read_lock();
	add_range(ht, 500);
	ok(check_range(ht, 500), "  500 keys added and found");
	rcu_read_unlock();
	is_l(drain_and_destroy(ht), 0, "  drained and destroyed");
}

/* --- lookups and duplicates -------------------------------------------- */

static void test_empty(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct item *pos;
	unsigned long key = 1, n = 0, count;
	long before, after;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_key(key), match_item, &key, &iter);
	ok(cds_lfht_iter_get_node(&iter) == NULL, "lookup in empty table");
	cds_lfht_first(ht, &iter);
	ok(cds_lfht_iter_get_node(&iter) == NULL, "first in empty table");
	cds_lfht_for_each(ht, &iter, node)
		n++;
	cds_lfht_for_each_entry(ht, &iter, pos, node)
		n++;
	cds_lfht_for_each_duplicate(ht, hash_key(key), match_item, &key,
				    &iter, node)
		n++;
	cds_lfht_for_each_entry_duplicate(ht, hash_key(key), match_item, &key,
					  &iter, pos, node)
		n++;
	is_ul(n, 0, "for_each macros iterate zero times on empty table");
	cds_lfht_count_nodes(ht, &before, &count, &after);
	is_ul(count, 0, "count_nodes on empty table");
	rcu_read_unlock();
	is_l(test_destroy(ht, NULL), 0, "destroy empty table");
}

/* The values seen while walking @key's duplicates, as a bit mask. */
static unsigned long dup_value_mask(struct cds_lfht *ht, unsigned long hash,
				    unsigned long key, unsigned long *n)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long mask = 0;

	*n = 0;
	cds_lfht_for_each_duplicate(ht, hash, match_item, &key, &iter, node) {
		struct item *it = to_item(node);

		if (it->key != key)
			return ~0UL;	/* match function was ignored */
		mask |= 1UL << it->value;
		(*n)++;
	}
	return mask;
}

static void test_duplicates(void)
{
	struct cds_lfht *ht = cds_lfht_new(4, 1, 0, 0, NULL);
	struct cds_lfht_iter iter;
	struct item *pos, *first;
	struct item *dup[3];
	unsigned long key, n, sum, i;

	rcu_read_lock();
	/* key 7 three times (values 1..3), key 8 once, colliding 100/101. */
	for (i = 0; i < 3; i++) {
		dup[i] = item_new(7, i + 1);
		cds_lfht_add(ht, hash_key(7), &dup[i]->node);
	}
	cds_lfht_add(ht, hash_key(8), &item_new(8, 1)->node);
	for (i = 0; i < 4; i++) {
		struct item *it = item_new(100 + (i & 1), i);

		cds_lfht_add(ht, COLLIDING_HASH, &it->node);
	}

	first = lookup_item(ht, 7);
	ok(first && first->key == 7, "lookup finds a duplicated key");
	is_ul(dup_value_mask(ht, hash_key(7), 7, &n), 0xe,
	      "next_duplicate walk sees values 1, 2, 3 of key 7");
	is_ul(n, 3, "  exactly three nodes");
	is_ul(count_key(ht, 8), 1, "single key found once");
	is_ul(count_key(ht, 9), 0, "absent key not found");

	is_ul(dup_value_mask(ht, COLLIDING_HASH, 100, &n), 0x5,
	      "same hash, key 100: only key 100's nodes (values 0, 2)");
	is_ul(n, 2, "  two nodes");
	is_ul(dup_value_mask(ht, COLLIDING_HASH, 101, &n), 0xa,
	      "same hash, key 101: only key 101's nodes (values 1, 3)");
	key = 100;
	cds_lfht_lookup(ht, hash_key(100), match_item, &key, &iter);
	ok(cds_lfht_iter_get_node(&iter) == NULL,
	   "right key with a different hash is not found");

	sum = 0;
	key = 7;
	cds_lfht_for_each_entry_duplicate(ht, hash_key(7), match_item, &key,
					  &iter, pos, node)
		sum += pos->value;
	is_ul(sum, 6, "for_each_entry_duplicate sums key 7 values to 6");
	is_ul(count_all(ht), 8, "traversal sees all 8 nodes");

	/* Deleting one duplicate leaves the other two. */
	ok(cds_lfht_del(ht, &dup[1]->node) == 0, "delete middle duplicate");
	is_ul(dup_value_mask(ht, hash_key(7), 7, &n), 0xa,
	      "remaining duplicates have values 1 and 3");
	rcu_read_unlock();
	item_retire(dup[1]);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

/* True if a full traversal ever returns @node. */
static int table_contains_node(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;

	cds_lfht_for_each(ht, &iter, n)
		if (n == node)
			return 1;
	return 0;
}

/* --- add_unique / add_replace ------------------------------------------ */

static void test_add_unique(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	struct item *a = item_new(1, 1), *b = item_new(1, 2);
	struct item *c = item_new(1, 3), *x;
	struct cds_lfht_node *ret;
	unsigned long key = 1;

	rcu_read_lock();
	ret = cds_lfht_add_unique(ht, hash_key(1), match_item, &key, &a->node);
	ok(ret == &a->node, "add_unique of absent key returns the new node");
	ret = cds_lfht_add_unique(ht, hash_key(1), match_item, &key, &b->node);
	ok(ret == &a->node, "add_unique of present key returns existing node");
	ok(!table_contains_node(ht, &b->node), "  rejected node is not in table");
	is_ul(count_key(ht, 1), 1, "  key still present once");
	item_free(b);	/* header: no grace period needed after failure */

	/* Same hash, different key: not a duplicate. */
	x = item_new(101, 0);
	key = 101;
	ret = cds_lfht_add_unique(ht, COLLIDING_HASH, match_item, &key,
				  &x->node);
	ok(ret == &x->node, "add_unique with colliding hash, other key succeeds");

	ok(cds_lfht_del(ht, &a->node) == 0, "delete the unique node");
	key = 1;
	ret = cds_lfht_add_unique(ht, hash_key(1), match_item, &key, &c->node);
	ok(ret == &c->node, "add_unique succeeds again after delete");
	is_ul(count_key(ht, 1), 1, "  key present once");

	/* With duplicates added by cds_lfht_add, one of them is returned. */
	{
		struct item *d1 = item_new(5, 1), *d2 = item_new(5, 2);
		struct item *y = item_new(5, 3);

		cds_lfht_add(ht, hash_key(5), &d1->node);
		cds_lfht_add(ht, hash_key(5), &d2->node);
		key = 5;
		ret = cds_lfht_add_unique(ht, hash_key(5), match_item, &key,
					  &y->node);
		ok(ret == &d1->node || ret == &d2->node,
		   "add_unique over duplicates returns one of them");
		is_ul(count_key(ht, 5), 2, "  no third copy added");
		item_free(y);
	}
	rcu_read_unlock();
	item_retire(a);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

static void test_add_replace(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);
	struct item *a = item_new(2, 1), *b = item_new(2, 2);
	struct item *x = item_new(100, 9);
	struct cds_lfht_node *ret;
	unsigned long key = 2;

	rcu_read_lock();
	ret = cds_lfht_add_replace(ht, hash_key(2), match_item, &key, &a->node);
	ok(ret == NULL, "add_replace of absent key returns NULL");
	ok(lookup_item(ht, 2) == a, "  and inserted the node");
	ret = cds_lfht_add_replace(ht, hash_key(2), match_item, &key, &b->node);
	ok(ret == &a->node, "add_replace of present key returns the old node");
	ok(lookup_item(ht, 2) == b, "  lookup now finds the new node");
	is_ul(count_key(ht, 2), 1, "  exactly one node for the key");
	ok(cds_lfht_is_node_deleted(&a->node), "  old node is marked deleted");
	ok(!cds_lfht_is_node_deleted(&b->node), "  new node is not deleted");
	ok(cds_lfht_del(ht, &a->node) < 0, "  replaced node cannot be deleted");

	/* A colliding key (same hash) must not be replaced by key 101. */
	key = 100;
	cds_lfht_add(ht, COLLIDING_HASH, &x->node);
	{
		struct item *y = item_new(101, 9);

		key = 101;
		ret = cds_lfht_add_replace(ht, COLLIDING_HASH, match_item,
					   &key, &y->node);
		ok(ret == NULL, "add_replace, same hash, other key: added");
		is_ul(count_key_hash(ht, COLLIDING_HASH, 100), 1,
		      "  key 100 untouched");
	}
	rcu_read_unlock();
	item_retire(a);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

/* --- replace / del ----------------------------------------------------- */

/* cds_lfht_replace(@iter -> node for @key/@hash); frees it on failure. */
static int try_replace(struct cds_lfht *ht, struct cds_lfht_iter *iter,
		       unsigned long hash, unsigned long key, struct item *nw)
{
	int ret = cds_lfht_replace(ht, iter, hash, match_item, &key, &nw->node);

	if (ret) {
		if (table_contains_node(ht, &nw->node))
			diag("  failed replace inserted the new node");
		else
			item_free(nw);	/* never published */
	}
	return ret;
}

static void test_replace(void)
{
	struct cds_lfht *ht = cds_lfht_new(8, 1, 0, 0, NULL);
	struct item *a = item_new(3, 1), *b = item_new(3, 2);
	struct cds_lfht_iter iter, stale;
	unsigned long key = 3;

	rcu_read_lock();
	cds_lfht_add(ht, hash_key(3), &a->node);
	cds_lfht_lookup(ht, hash_key(3), match_item, &key, &iter);
	stale = iter;
	is_l(try_replace(ht, &iter, hash_key(3), 3, b), 0, "replace succeeds");
	ok(lookup_item(ht, 3) == b, "  lookup finds the replacement");
	is_ul(count_key(ht, 3), 1, "  one node for the key");
	ok(cds_lfht_is_node_deleted(&a->node), "  old node marked deleted");
	is_l(try_replace(ht, &stale, hash_key(3), 3, item_new(3, 3)), -ENOENT,
	     "replacing an already replaced node: -ENOENT");
	ok(lookup_item(ht, 3) == b, "  table unchanged");

	key = 4;
	cds_lfht_lookup(ht, hash_key(4), match_item, &key, &iter);
	is_l(try_replace(ht, &iter, hash_key(4), 4, item_new(4, 1)), -ENOENT,
	     "replacing a NULL node (absent key): -ENOENT");
	is_ul(count_key(ht, 4), 0, "  nothing added");

	key = 3;
	cds_lfht_lookup(ht, hash_key(3), match_item, &key, &iter);
	ok(cds_lfht_del(ht, &b->node) == 0, "delete the replacement");
	is_l(try_replace(ht, &iter, hash_key(3), 3, item_new(3, 4)), -ENOENT,
	     "replacing a deleted node: -ENOENT");
	is_ul(count_key(ht, 3), 0, "  key stays absent");
	rcu_read_unlock();
	item_retire(a);
	item_retire(b);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

static void test_replace_mismatch(void)
{
	struct cds_lfht *ht = cds_lfht_new(8, 1, 0, 0, NULL);
	struct item *e = item_new(5, 1), *g = item_new(100, 1);
	struct cds_lfht_iter iter;
	unsigned long key = 5;

	rcu_read_lock();
	cds_lfht_add(ht, hash_key(5), &e->node);
	cds_lfht_lookup(ht, hash_key(5), match_item, &key, &iter);
	is_l(try_replace(ht, &iter, hash_key(5) ^ 1, 5, item_new(5, 2)), -EINVAL,
	     "replace with a different hash: -EINVAL");
	ok(lookup_item(ht, 5) == e && !cds_lfht_is_node_deleted(&e->node),
	   "  old node untouched");

	cds_lfht_add(ht, COLLIDING_HASH, &g->node);
	key = 100;
	cds_lfht_lookup(ht, COLLIDING_HASH, match_item, &key, &iter);
	is_l(try_replace(ht, &iter, COLLIDING_HASH, 101, item_new(101, 2)),
	     -EINVAL, "replace with same hash but other key: -EINVAL");
	is_ul(count_key_hash(ht, COLLIDING_HASH, 100), 1, "  old node kept");
	is_ul(count_key_hash(ht, COLLIDING_HASH, 101), 0, "  new key not added");
	rcu_read_unlock();
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

static void test_del(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	struct item *a = item_new(6, 1), *b = item_new(6, 2);
	struct item *c = item_new(7, 1);

	rcu_read_lock();
	cds_lfht_add(ht, hash_key(6), &a->node);
	cds_lfht_add(ht, hash_key(6), &b->node);
	cds_lfht_add(ht, hash_key(7), &c->node);
	ok(!cds_lfht_is_node_deleted(&a->node), "live node is not deleted");
	is_l(cds_lfht_del(ht, &a->node), 0, "del returns 0");
	ok(cds_lfht_is_node_deleted(&a->node), "  node is marked deleted");
	is_l(cds_lfht_del(ht, &a->node), -ENOENT, "second del: -ENOENT");
	ok(cds_lfht_del(ht, NULL) < 0, "del(NULL) fails");
	ok(lookup_item(ht, 6) == b, "other duplicate still found");
	ok(!table_contains_node(ht, &a->node), "deleted node not traversed");
	ok(lookup_item(ht, 7) == c && !cds_lfht_is_node_deleted(&c->node),
	   "unrelated key untouched");
	rcu_read_unlock();
	item_retire(a);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

/* Header: del during any of the traversals is safe. */
static void test_del_while_iterating(void)
{
	struct cds_lfht *ht = cds_lfht_new(16, 1, 0, 0, NULL);
	struct cds_lfht_iter iter;
	struct item *pos;
	unsigned long deleted = 0, failed = 0;

	rcu_read_lock();
	add_range(ht, 300);
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		if (cds_lfht_del(ht, &pos->node) == 0) {
			deleted++;
			item_retire(pos);
		} else {
			failed++;
		}
	}
	is_ul(deleted, 300, "for_each_entry + del removes every node");
	is_ul(failed, 0, "  no del failed");
	is_ul(count_all(ht), 0, "  table is empty");
	rcu_read_unlock();
	is_l(drain_and_destroy(ht), 0, "destroyed");
}

/* --- traversal --------------------------------------------------------- */

static void test_iteration(void)
{
	const unsigned long n = 1000;
	struct cds_lfht *ht = cds_lfht_new(2, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	unsigned char *seen = calloc(n, 1);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct item *pos;
	unsigned long k, total, bad;

	rcu_read_lock();
	add_range(ht, n);
	ok(check_range(ht, n), "first/next see each of %lu keys once", n);

	total = bad = 0;
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		total++;
		if (pos->key >= n || seen[pos->key]++ || pos->value != pos->key * 10)
			bad++;
	}
	ok(total == n && bad == 0, "for_each_entry sees each key once");

	/* Explicit first/next loop, after deleting the even keys. */
	for (k = 0; k < n; k += 2) {
		struct item *it = lookup_item(ht, k);

		if (it && cds_lfht_del(ht, &it->node) == 0)
			item_retire(it);
	}
	memset(seen, 0, n);
	total = bad = 0;
	for (cds_lfht_first(ht, &iter); (node = cds_lfht_iter_get_node(&iter));
	     cds_lfht_next(ht, &iter)) {
		struct item *it = to_item(node);

		total++;
		if (!(it->key & 1) || seen[it->key]++)
			bad++;
	}
	ok(total == n / 2 && bad == 0,
	   "after deleting even keys, traversal sees each odd key once");
	rcu_read_unlock();
	free(seen);
	is_l(drain_and_destroy(ht), 0, "drained and destroyed");
}

/* --- count_nodes ------------------------------------------------------- */

/* 100 adds, 10 failed add_unique, 10 add_replace of present keys, 30 dels. */
static void churn_for_count(struct cds_lfht *ht)
{
	unsigned long k;

	add_range(ht, 100);
	for (k = 0; k < 10; k++) {
		struct item *it = item_new(k, 0);

		if (cds_lfht_add_unique(ht, hash_key(k), match_item, &k,
					&it->node) != &it->node)
			item_free(it);
	}
	for (k = 10; k < 20; k++) {
		struct item *it = item_new(k, k * 10);
		struct cds_lfht_node *old;

		old = cds_lfht_add_replace(ht, hash_key(k), match_item, &k,
					   &it->node);
		if (old)
			item_retire(to_item(old));
	}
	for (k = 50; k < 80; k++) {
		struct item *it = lookup_item(ht, k);

		if (it && cds_lfht_del(ht, &it->node) == 0)
			item_retire(it);
	}
}

static void test_count_nodes(void)
{
	unsigned int f;

	for (f = 0; f < CAA_ARRAY_SIZE(all_flags); f++) {
		struct cds_lfht *ht = cds_lfht_new(4, 1, 0, all_flags[f], NULL);
		long before, after;
		unsigned long count;

		rcu_read_lock();
		churn_for_count(ht);
		cds_lfht_count_nodes(ht, &before, &count, &after);
		rcu_read_unlock();
		is_ul(count, 70, "count_nodes traversal count after churn");
		if (all_flags[f] & CDS_LFHT_ACCOUNTING) {
			is_l(before, 70, "  ACCOUNTING: split count before");
			is_l(after, 70, "  ACCOUNTING: split count after");
		}
		note("  flags %d: before %ld count %lu after %ld",
		     all_flags[f], before, count, after);
		is_l(drain_and_destroy(ht), 0, "  drained and destroyed");
	}
}

int main(void)
{
	test_thread_register();
	note("flavor: %s", FLAVOR_NAME);

	test_new_invalid();
	test_new_valid();
	test_new_flavor();
	test_empty();
	test_duplicates();
	test_add_unique();
	test_add_replace();
	test_replace();
	test_replace_mismatch();
	test_del();
	test_del_while_iterating();
	test_iteration();
	test_count_nodes();

	test_barrier();
	is_ul(uatomic_read(&items_alive), 0, "every item was freed");
	test_thread_unregister();
	return done_testing();
}
