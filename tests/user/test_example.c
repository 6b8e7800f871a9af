/*
 * tests/user/test_example.c - the "typical usage" style of program from
 * liburcu's rculfhash examples: a user structure embedding a
 * struct cds_lfht_node, a Jenkins-style hash of the key bytes, a match
 * function, and nodes freed with call_rcu().  Written as TAP assertions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "flavor.h"
#include <urcu/uatomic.h>

#include "tap.h"

struct mynode {
	int value;			/* node content, also the key */
	int seqnum;			/* insertion sequence number */
	struct cds_lfht_node node;	/* chaining in the hash table */
	struct rcu_head rcu_head;	/* for call_rcu() */
};

static unsigned long nodes_alive;

/* --- Bob Jenkins' lookup3-style hash over bytes ----------------------- */

static inline uint32_t rot32(uint32_t x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static inline void jmix(uint32_t *a, uint32_t *b, uint32_t *c)
{
	*a -= *c; *a ^= rot32(*c, 4);  *c += *b;
	*b -= *a; *b ^= rot32(*a, 6);  *a += *c;
	*c -= *b; *c ^= rot32(*b, 8);  *b += *a;
	*a -= *c; *a ^= rot32(*c, 16); *c += *b;
	*b -= *a; *b ^= rot32(*a, 19); *a += *c;
	*c -= *b; *c ^= rot32(*b, 4);  *b += *a;
}

static inline void jfinal(uint32_t *a, uint32_t *b, uint32_t *c)
{
	*c ^= *b; *c -= rot32(*b, 14);
	*a ^= *c; *a -= rot32(*c, 11);
	*b ^= *a; *b -= rot32(*a, 25);
	*c ^= *b; *c -= rot32(*b, 16);
	*a ^= *c; *a -= rot32(*c, 4);
	*b ^= *a; *b -= rot32(*a, 14);
	*c ^= *b; *c -= rot32(*b, 24);
}

/* Little-endian 32-bit word from up to 4 bytes. */
static inline uint32_t load_le(const uint8_t *p, size_t n)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static uint32_t jhash(const void *key, size_t length, uint32_t initval)
{
	const uint8_t *p = key;
	uint32_t a, b, c;

	a = b = c = 0xdeadbeef + (uint32_t)length + initval;
	while (length > 12) {
		a += load_le(p, 4);
		b += load_le(p + 4, 4);
		c += load_le(p + 8, 4);
		jmix(&a, &b, &c);
		length -= 12;
		p += 12;
	}
	if (length == 0)
		return c;
	a += load_le(p, length);
	if (length > 4)
		b += load_le(p + 4, length - 4);
	if (length > 8)
		c += load_le(p + 8, length - 8);
	jfinal(&a, &b, &c);
	return c;
}

/* --- the example ------------------------------------------------------ */

static const uint32_t seed = 0x1337c0de;	/* fixed: reproducible runs */

static unsigned long hash_value(int value)
{
	return jhash(&value, sizeof(value), seed);
}

static int match(struct cds_lfht_node *ht_node, const void *_key)
{
	struct mynode *node = caa_container_of(ht_node, struct mynode, node);
	const int *key = _key;

	return *key == node->value;
}

static struct mynode *mynode_new(int value, int seqnum)
{
	struct mynode *node = malloc(sizeof(*node));

	if (!node)
		abort();
	cds_lfht_node_init(&node->node);
	node->value = value;
	node->seqnum = seqnum;
	uatomic_inc(&nodes_alive);
	return node;
}

static void free_node(struct rcu_head *head)
{
	struct mynode *node = caa_container_of(head, struct mynode, rcu_head);

	uatomic_dec(&nodes_alive);
	free(node);
}

static const int values[] = { -5, 42, 42, 36, 24 };	/* 42 is duplicated */

static void populate(struct cds_lfht *ht)
{
	unsigned int i;

	rcu_read_lock();
	for (i = 0; i < CAA_ARRAY_SIZE(values); i++) {
		struct mynode *node = mynode_new(values[i], (int)i);

		cds_lfht_add(ht, hash_value(values[i]), &node->node);
	}
	rcu_read_unlock();
}

/* Every inserted (value, seqnum) pair is seen exactly once. */
static void check_iteration(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct mynode *node;
	unsigned int seen = 0, n = 0;
	int consistent = 1;

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, node, node) {
		n++;
		if (node->seqnum < 0 || node->seqnum >= (int)CAA_ARRAY_SIZE(values)
		    || values[node->seqnum] != node->value
		    || (seen & (1U << node->seqnum)))
			consistent = 0;
		else
			seen |= 1U << node->seqnum;
	}
	rcu_read_unlock();
	is_ul(n, CAA_ARRAY_SIZE(values), "iteration visits every node");
	ok(consistent && seen == (1U << CAA_ARRAY_SIZE(values)) - 1,
	   "  each (value, seqnum) pair exactly once");
}

static void check_lookup(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct mynode *node;
	int key = 42, absent = 7, dup = 0;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_value(key), match, &key, &iter);
	node = caa_container_of(cds_lfht_iter_get_node(&iter), struct mynode,
				node);
	ok(cds_lfht_iter_get_node(&iter) && node->value == 42,
	   "lookup of 42 finds a node with value 42");
	cds_lfht_next_duplicate(ht, match, &key, &iter);
	if (cds_lfht_iter_get_node(&iter))
		dup = caa_container_of(cds_lfht_iter_get_node(&iter),
				       struct mynode, node)->value == 42;
	ok(dup, "  next_duplicate finds the second 42");
	cds_lfht_next_duplicate(ht, match, &key, &iter);
	ok(!cds_lfht_iter_get_node(&iter), "  and no third one");
	cds_lfht_lookup(ht, hash_value(absent), match, &absent, &iter);
	ok(!cds_lfht_iter_get_node(&iter), "lookup of absent value 7 fails");
	rcu_read_unlock();
}

static void check_unique_replace(struct cds_lfht *ht)
{
	struct mynode *dup36 = mynode_new(36, 100), *n7 = mynode_new(7, 101);
	struct mynode *n24 = mynode_new(24, 102);
	struct cds_lfht_node *ret;
	int key;

	rcu_read_lock();
	key = 36;
	ret = cds_lfht_add_unique(ht, hash_value(key), match, &key,
				  &dup36->node);
	ok(ret != &dup36->node, "add_unique(36) fails: 36 already present");
	key = 7;
	ret = cds_lfht_add_unique(ht, hash_value(key), match, &key, &n7->node);
	ok(ret == &n7->node, "add_unique(7) succeeds");
	key = 24;
	ret = cds_lfht_add_replace(ht, hash_value(key), match, &key,
				   &n24->node);
	ok(ret && caa_container_of(ret, struct mynode, node)->seqnum == 4,
	   "add_replace(24) returns the original node 24");
	rcu_read_unlock();
	/* Rejected node: never visible, free it now; replaced one: after GP. */
	free_node(&dup36->rcu_head);
	if (ret)
		call_rcu(&caa_container_of(ret, struct mynode, node)->rcu_head,
			 free_node);
}

/* Remove every 42 through the duplicate iterator, then everything. */
static void remove_all(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct mynode *node;
	unsigned int n42 = 0, rest = 0;
	int key = 42;

	rcu_read_lock();
	cds_lfht_for_each_entry_duplicate(ht, hash_value(key), match, &key,
					  &iter, node, node) {
		if (cds_lfht_del(ht, &node->node) == 0) {
			call_rcu(&node->rcu_head, free_node);
			n42++;
		}
	}
	cds_lfht_for_each_entry(ht, &iter, node, node) {
		if (cds_lfht_del(ht, &node->node) == 0) {
			call_rcu(&node->rcu_head, free_node);
			rest++;
		}
	}
	rcu_read_unlock();
	is_ul(n42, 2, "both 42 nodes removed via the duplicate iterator");
	is_ul(rest, 4, "remaining -5, 36, 24 (replaced) and 7 removed");
}

int main(void)
{
	struct cds_lfht *ht;

	test_thread_register();
	note("flavor: %s", FLAVOR_NAME);
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
			  NULL);
	if (!ok(ht != NULL, "allocate hash table"))
		return done_testing();
	populate(ht);
	check_iteration(ht);
	check_lookup(ht);
	check_unique_replace(ht);
	remove_all(ht);
	test_barrier();	/* wait for the call_rcu() frees */
	is_ul(uatomic_read(&nodes_alive), 0, "every node was freed");
	is_l(test_destroy(ht, NULL), 0, "destroy the empty table");
	test_thread_unregister();
	return done_testing();
}
