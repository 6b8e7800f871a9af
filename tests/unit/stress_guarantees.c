/*
 * Bounded concurrency test of the guarantees, per RCU flavor:
 *  1. uniqueness: with add_unique/add_replace/del only, a lookup walk never
 *     sees two live nodes of one key, and the final table holds exactly the
 *     keys whose successful adds outnumber their deletes;
 *  2. a key under repeated add_replace is never missing from a lookup, and
 *     a traversal sees it exactly once;
 *  3. a traversal during resizes (to 1 bucket and back up) sees every key
 *     that stays in the table exactly once;
 *  4. growth from 1 bucket to 2^20 (auto-resize, then explicit) and back to
 *     1, with readers finding every key published as inserted.
 * Usage: stress_guarantees [-s SECONDS] [-q]   (-q: small, for valgrind)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include "flavor.h"
#include "tap.h"

#define NR_REPLACE	64	/* keys 0..63: add_replace only */
#define NR_UNIQUE	64	/* keys 1000..1063: add_unique / del */
#define NR_STABLE	256	/* keys 5000..5255: never touched */
#define UNIQUE_BASE	1000UL
#define STABLE_BASE	5000UL

struct snode {
	unsigned long key;
	unsigned long value;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static struct cds_lfht *ht;
static int stop;
static unsigned long seconds = 2, grow_keys = 1UL << 20;
static long unique_balance[NR_UNIQUE];	/* successful adds - dels */
static unsigned long violations, missing, bad_traversals, traversals, lookups;

static unsigned long hash_of(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct snode, node)->key ==
		*(const unsigned long *)key;
}

static struct snode *snode_new(unsigned long key, unsigned long value)
{
	struct snode *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->key = key;
	n->value = value;
	return n;
}

static void snode_free_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct snode, rcu));
}

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int stopped(void)
{
	return uatomic_read(&stop);
}

/*
 * Writers free what they removed themselves, a batch at a time after a
 * grace period: bounded memory however far call_rcu's thread would lag.
 */
#define RETIRE_BATCH 1024

struct retired {
	struct snode *node[RETIRE_BATCH];
	unsigned int n;
};

static void retire(struct retired *r, struct cds_lfht_node *node)
{
	unsigned int i;

	r->node[r->n++] = caa_container_of(node, struct snode, node);
	if (r->n < RETIRE_BATCH)
		return;
	rcu_read_unlock();
	synchronize_rcu();
	for (i = 0; i < r->n; i++)
		free(r->node[i]);
	r->n = 0;
	rcu_read_lock();
}

static void *writer(void *arg)
{
	unsigned long seed = (unsigned long)(uintptr_t)arg * 7919 + 1, seq = 0;
	static __thread struct retired gone;
	unsigned int i;

	test_thread_register();
	while (!stopped()) {
		unsigned long r = xorshift(&seed), key;
		struct cds_lfht_node *old;
		struct cds_lfht_iter iter;
		struct snode *n;

		rcu_read_lock();
		if (r & 1) {
			key = (r >> 1) % NR_REPLACE;
			n = snode_new(key, ++seq);
			old = cds_lfht_add_replace(ht, hash_of(key), match, &key,
						   &n->node);
			if (!old)
				uatomic_inc(&violations);	/* was present */
			else
				retire(&gone, old);
		} else if (r & 2) {
			key = UNIQUE_BASE + (r >> 2) % NR_UNIQUE;
			n = snode_new(key, ++seq);
			if (cds_lfht_add_unique(ht, hash_of(key), match, &key,
						&n->node) == &n->node)
				uatomic_inc(&unique_balance[key - UNIQUE_BASE]);
			else
				free(n);	/* never visible */
		} else {
			key = UNIQUE_BASE + (r >> 2) % NR_UNIQUE;
			cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
			old = cds_lfht_iter_get_node(&iter);
			if (old && !cds_lfht_del(ht, old)) {
				uatomic_dec(&unique_balance[key - UNIQUE_BASE]);
				retire(&gone, old);
			}
		}
		rcu_read_unlock();
		test_quiescent();
	}
	synchronize_rcu();
	for (i = 0; i < gone.n; i++)
		free(gone.node[i]);
	gone.n = 0;
	test_thread_unregister();
	return NULL;
}

/* Live nodes of @key seen by one lookup walk. */
static unsigned long walk_key(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key, &iter, node)
		n++;
	return n;
}

static void *reader(void *arg)
{
	unsigned char seen[NR_STABLE + NR_REPLACE];

	(void)arg;
	test_thread_register();
	do {	/* at least one pass, however late the thread gets a CPU */
		struct cds_lfht_iter iter;
		struct snode *n;
		unsigned long key, bad = 0, i;

		rcu_read_lock();
		for (key = 0; key < NR_REPLACE; key++) {
			i = walk_key(key);
			if (i == 0)
				uatomic_inc(&missing);
			else if (i > 1)
				uatomic_inc(&violations);
		}
		for (key = UNIQUE_BASE; key < UNIQUE_BASE + NR_UNIQUE; key++)
			if (walk_key(key) > 1)
				uatomic_inc(&violations);
		uatomic_add(&lookups, NR_REPLACE + NR_UNIQUE);
		rcu_read_unlock();
		test_quiescent();

		memset(seen, 0, sizeof(seen));
		rcu_read_lock();
		cds_lfht_for_each_entry(ht, &iter, n, node) {
			if (n->key >= STABLE_BASE && n->key < STABLE_BASE + NR_STABLE)
				bad += seen[n->key - STABLE_BASE]++ != 0;
			else if (n->key < NR_REPLACE)
				bad += seen[NR_STABLE + n->key]++ != 0;
		}
		rcu_read_unlock();
		for (i = 0; i < sizeof(seen); i++)
			bad += seen[i] != 1;
		if (bad)
			uatomic_inc(&bad_traversals);
		uatomic_inc(&traversals);
		test_quiescent();
	} while (!stopped());
	test_thread_unregister();
	return NULL;
}

static void *resizer(void *arg)
{
	unsigned long size = 1;

	(void)arg;
	test_thread_register();
	while (!stopped()) {
		cds_lfht_resize(ht, size);
		size = size == 1 ? 1UL << 12 : size == 1UL << 12 ? 16 : 1;
		test_quiescent();
	}
	test_thread_unregister();
	return NULL;
}

static void drain(void)
{
	struct cds_lfht_iter iter;
	struct snode *n;

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, n, node)
		if (!cds_lfht_del(ht, &n->node))
			call_rcu(&n->rcu, snode_free_rcu);
	rcu_read_unlock();
}

static void test_guarantees(int flags)
{
	pthread_t w[2], r[2], z;
	unsigned long key, wrong = 0;
	struct cds_lfht_iter iter;
	unsigned int i;

	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	violations = missing = bad_traversals = traversals = lookups = 0;
	memset(unique_balance, 0, sizeof(unique_balance));
	rcu_read_lock();
	for (key = 0; key < NR_REPLACE; key++)
		cds_lfht_add_unique(ht, hash_of(key), match, &key,
				    &snode_new(key, 0)->node);
	for (key = STABLE_BASE; key < STABLE_BASE + NR_STABLE; key++)
		cds_lfht_add(ht, hash_of(key), &snode_new(key, 0)->node);
	rcu_read_unlock();
	uatomic_set(&stop, 0);
	for (i = 0; i < 2; i++) {
		pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)(i + 1));
		pthread_create(&r[i], NULL, reader, NULL);
	}
	pthread_create(&z, NULL, resizer, NULL);
	test_sleep((unsigned long)seconds);
	test_thread_offline();
	uatomic_set(&stop, 1);
	for (i = 0; i < 2; i++) {
		pthread_join(w[i], NULL);
		pthread_join(r[i], NULL);
	}
	pthread_join(z, NULL);
	test_thread_online();

	diag("flags %d: %lu lookups, %lu traversals", flags, lookups, traversals);
	is_ul(violations, 0, "uniqueness: never two live nodes of one key");
	is_ul(missing, 0, "add_replace: a replaced key is never missing");
	ok(traversals > 0 && bad_traversals == 0,
	   "traversals during resizes see each stable key once (%lu of %lu bad)",
	   bad_traversals, traversals);
	rcu_read_lock();
	for (i = 0; i < NR_UNIQUE; i++) {
		key = UNIQUE_BASE + i;
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		wrong += (cds_lfht_iter_get_node(&iter) != NULL) !=
			 (unique_balance[i] == 1) || unique_balance[i] > 1 ||
			 unique_balance[i] < 0;
	}
	rcu_read_unlock();
	is_ul(wrong, 0, "final contents match successful adds minus deletes");
	drain();
	rcu_barrier();
	is_l(cds_lfht_destroy(ht, NULL), 0, "destroy after drain");
}

/* Writers insert disjoint halves; readers check every published key. */
static struct snode **grow_nodes;
static unsigned long published[2];

static void *grow_writer(void *arg)
{
	unsigned long half = (unsigned long)(uintptr_t)arg, i;

	test_thread_register();
	for (i = half; i < grow_keys; i += 2) {
		rcu_read_lock();
		cds_lfht_add(ht, hash_of(i), &grow_nodes[i]->node);
		rcu_read_unlock();
		/* Pairs with the reader's load: node linked before published. */
		uatomic_set(&published[half], i + 2);
		if (!(i & 1023))
			test_quiescent();
	}
	test_thread_unregister();
	return NULL;
}

static void *grow_reader(void *arg)
{
	unsigned long seed = 12345, i, limit, key;
	struct cds_lfht_iter iter;

	(void)arg;
	test_thread_register();
	while (!stopped()) {
		unsigned int half = xorshift(&seed) & 1;

		limit = uatomic_read(&published[half]);
		cmm_smp_rmb();	/* pairs with the add's full barrier */
		if (limit < 2)
			continue;
		key = half + 2 * (xorshift(&seed) % (limit / 2));
		if (key >= limit)
			continue;
		rcu_read_lock();
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		if (!cds_lfht_iter_get_node(&iter))
			uatomic_inc(&missing);
		rcu_read_unlock();
		uatomic_inc(&lookups);
		for (i = 0; i < 16; i++)
			caa_cpu_relax();
		test_quiescent();
	}
	test_thread_unregister();
	return NULL;
}

static void test_growth(int flags)
{
	pthread_t w[2], r;
	unsigned long i, count;
	long before, after;

	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	grow_nodes = malloc(grow_keys * sizeof(*grow_nodes));
	for (i = 0; i < grow_keys; i++)
		grow_nodes[i] = snode_new(i, i);
	missing = lookups = 0;
	published[0] = published[1] = 0;
	uatomic_set(&stop, 0);
	pthread_create(&r, NULL, grow_reader, NULL);
	for (i = 0; i < 2; i++)
		pthread_create(&w[i], NULL, grow_writer, (void *)(uintptr_t)i);
	test_thread_offline();
	for (i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	test_thread_online();
	ok(lfht_nr_buckets(ht) <= 4 * grow_keys,
	   "automatic growth stays within 4 buckets per key (%lu)",
	   lfht_nr_buckets(ht));
	cds_lfht_resize(ht, grow_keys);
	ok(lfht_nr_buckets(ht) >= grow_keys, "grew from 1 to %lu buckets",
	   lfht_nr_buckets(ht));
	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	is_ul(count, grow_keys, "every key counted after growth");
	uatomic_set(&stop, 1);
	pthread_join(r, NULL);
	is_ul(missing, 0, "readers found every published key during growth");
	diag("%lu lookups during growth", lookups);

	drain();
	cds_lfht_resize(ht, 1);
	is_ul(lfht_nr_buckets(ht), 1, "shrank back to 1 bucket");
	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	is_ul(count, 0, "empty after deleting every key");
	rcu_barrier();
	free(grow_nodes);
	is_l(cds_lfht_destroy(ht, NULL), 0, "destroy");
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:q")) != -1) {
		if (opt == 's') {
			seconds = strtoul(optarg, NULL, 10);
		} else if (opt == 'q') {
			seconds = 1;
			grow_keys = 1UL << 12;
		}
	}
	test_thread_register();
	test_guarantees(0);
	test_guarantees(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	test_growth(CDS_LFHT_AUTO_RESIZE);
	test_thread_unregister();
	return done_testing();
}
