/*
 * Soak: mixed operations with resizes in both directions, then an exact
 * account of the contents.
 *
 * Two writers own disjoint halves of KEYS keys, so each knows exactly
 * which nodes its keys hold, in table order (duplicates included: up to
 * MAX_DUPS per key).  They run add, add_unique, add_replace, replace and
 * del of the n-th duplicate and lookups, checking every result against
 * that knowledge, and alternate between filling their keys (to 2 nodes a
 * key on average) and emptying them, at least once each, so that the node
 * count swings and automatic resizing goes both ways.  Meanwhile a reader walks the table (no node
 * twice, every stable key once) and a second reader looks up the stable
 * keys (always found), and a resizer moves the table between 1 and 2^16
 * buckets; with CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING the worker also
 * grows and shrinks it with the count.  At the end: each key holds exactly
 * the nodes its writer expects (nothing lost, nothing duplicated), the
 * traversal count and the split counters agree with the total, and after
 * deleting everything the table is destroyed empty.  Leaks: the ASan and
 * valgrind runs.
 * Usage: stress_soak [-s SECONDS] [-q]   (two runs of SECONDS / 2 each, one
 * without and one with automatic resizing; -q: short, for valgrind)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"

#define NR_WRITERS	2
#define KEYS		2048		/* keys 0..KEYS-1, key % NR_WRITERS owns */
#define MAX_DUPS	3
#define NR_STABLE	128		/* keys STABLE_BASE..: never touched */
#define STABLE_BASE	100000UL
#define HIGH_WATER	(KEYS / NR_WRITERS * 2)	/* a writer's nodes: fill to */
#define LOW_WATER	8			/* ... then empty to */
#define RETIRE_BATCH	512

struct snode {
	unsigned long key, value;
	unsigned long seen;		/* traversal number of the walker */
	struct snode *gone;		/* on the final free list */
	struct cds_lfht_node node;
};

/* What a writer knows of one of its keys: values in table order. */
struct expect {
	unsigned long v[MAX_DUPS];
	unsigned int n;
};

static struct cds_lfht *ht;
static int table_flags;
static int stop;
static unsigned long seconds = 2;
static struct expect expect[KEYS];
static unsigned long errors, ops, traversals, lookups, resizes, cycles;
static unsigned long min_buckets = ~0UL, max_buckets;	/* writers' samples */

static unsigned long hash_of(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct snode, node)->key ==
		*(const unsigned long *)key;
}

static struct snode *snode_of(struct cds_lfht_node *node)
{
	return node ? caa_container_of(node, struct snode, node) : NULL;
}

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* 1: writers finish their cycle; 2: everyone stops (after the writers). */
static int stopped(void)
{
	/* A flag only: what the threads did is read after pthread_join. */
	return uatomic_read(&stop);
}

static int all_stopped(void)
{
	return uatomic_read(&stop) == 2;
}

static void error(const char *what, unsigned long key)
{
	if (uatomic_add_return(&errors, 1) <= 5)
		diag("  %s (key %lu)", what, key);
}

struct retired {
	struct snode *node[RETIRE_BATCH];
	unsigned int n;
};

/* Free a batch a grace period after its nodes were removed.  Read-side. */
static void retire(struct retired *r, struct snode *n)
{
	unsigned int i;

	r->node[r->n++] = n;
	if (r->n < RETIRE_BATCH)
		return;
	rcu_read_unlock();
	synchronize_rcu();
	for (i = 0; i < r->n; i++)
		free(r->node[i]);
	r->n = 0;
	rcu_read_lock();
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

/* The i-th node of @key in table order. */
static struct snode *nth(unsigned long key, unsigned int i,
			 struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *node;

	cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key, iter, node)
		if (!i--)
			return snode_of(node);
	return NULL;
}

/* Applies one operation; returns the change in the key's node count. */
static int writer_op(unsigned long key, unsigned long r, int filling,
		     unsigned long value, struct retired *gone)
{
	unsigned int had = expect[key].n;
	struct expect *e = &expect[key];
	struct cds_lfht_iter iter;
	struct snode *n, *old;
	unsigned int i = (unsigned int)((r >> 8) % MAX_DUPS), kind = r % 8;

	/* Filling: mostly adds; emptying: mostly deletes. */
	if (filling ? kind == 7 : kind < 5)
		kind = 100;	/* delete */
	switch (kind) {
	case 0:
	case 1:
		if (e->n == MAX_DUPS)
			break;
		n = snode_new(key, value);
		cds_lfht_add(ht, hash_of(key), &n->node);
		e->v[e->n++] = value;
		break;
	case 2:
		n = snode_new(key, value);
		old = snode_of(cds_lfht_add_unique(ht, hash_of(key), match,
						   &key, &n->node));
		if (e->n) {
			if (old == n || old->value != e->v[0])
				error("add_unique did not return the first node", key);
			free(n);	/* never visible */
		} else if (old != n) {
			error("add_unique did not add to an absent key", key);
		} else {
			e->v[e->n++] = value;
		}
		break;
	case 3:
		n = snode_new(key, value);
		old = snode_of(cds_lfht_add_replace(ht, hash_of(key), match,
						    &key, &n->node));
		if ((old ? old->value : 0) != (e->n ? e->v[0] : 0))
			error("add_replace replaced the wrong node", key);
		if (old) {
			e->v[0] = value;
			retire(gone, old);
		} else {
			e->v[e->n++] = value;
		}
		break;
	case 4:
		old = nth(key, i, &iter);
		if ((old ? old->value : 0) != (i < e->n ? e->v[i] : 0)) {
			error("duplicates not in the expected order", key);
			break;
		}
		if (!old)
			break;
		n = snode_new(key, value);
		if (cds_lfht_replace(ht, &iter, hash_of(key), match, &key,
				     &n->node)) {
			error("replace of a live node failed", key);
			free(n);
			break;
		}
		e->v[i] = value;
		retire(gone, old);
		break;
	case 5:
	case 6:
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		old = snode_of(cds_lfht_iter_get_node(&iter));
		if ((old ? old->value : 0) != (e->n ? e->v[0] : 0))
			error("lookup did not return the first node", key);
		break;
	default:
		old = nth(key, i % (e->n ? e->n : 1), &iter);
		if (!e->n) {
			if (old)
				error("a node where none is expected", key);
			break;
		}
		i %= e->n;
		if (!old || old->value != e->v[i] || cds_lfht_del(ht, &old->node)) {
			error("del of the expected node failed", key);
			break;
		}
		if (cds_lfht_del(ht, &old->node) != -ENOENT)
			error("second del succeeded", key);
		memmove(&e->v[i], &e->v[i + 1], (e->n - i - 1) * sizeof(e->v[0]));
		e->n--;
		retire(gone, old);
		break;
	}
	return (int)expect[key].n - (int)had;
}

/* The range of sizes seen, kept with cmpxchg: several threads sample. */
static void sample_buckets(void)
{
	unsigned long b = lfht_nr_buckets(ht), seen;

	while ((seen = uatomic_read(&min_buckets)) > b &&
	       uatomic_cmpxchg(&min_buckets, seen, b) != seen)
		;
	while ((seen = uatomic_read(&max_buckets)) < b &&
	       uatomic_cmpxchg(&max_buckets, seen, b) != seen)
		;
}

static void *writer(void *arg)
{
	unsigned long w = (unsigned long)(uintptr_t)arg, seed = w * 7919 + 17;
	unsigned long seq = 0, done = 0, value, cursor = 0, full = 0;
	struct retired *gone = calloc(1, sizeof(*gone));
	long mine = 0;		/* this writer's nodes */
	int filling = 1;
	unsigned int i;

	if (!gone)
		abort();
	test_thread_register();
	/* Run until told to stop, and at least one fill-empty cycle. */
	while (!stopped() || !full) {
		unsigned long r = xorshift(&seed);
		/* Each key in turn: emptying finds every node soon. */
		unsigned long key = (cursor++ % (KEYS / NR_WRITERS)) * NR_WRITERS + w;

		value = (w + 1) << 40 | ++seq;	/* unique over all writers */
		rcu_read_lock();
		mine += writer_op(key, r, filling, value, gone);
		rcu_read_unlock();
		test_quiescent();
		if (filling && mine >= HIGH_WATER) {
			filling = 0;
		} else if (!filling && mine <= LOW_WATER) {
			filling = 1;
			full++;
		}
		if (!(done++ % 64))
			sample_buckets();
	}
	uatomic_add(&ops, done);
	uatomic_add(&cycles, full);
	synchronize_rcu();
	for (i = 0; i < gone->n; i++)
		free(gone->node[i]);
	free(gone);
	test_thread_unregister();
	return NULL;
}

/* Walks: no node twice, every stable key exactly once. */
static void *walker(void *arg)
{
	unsigned long nr = 0, stable_seen;
	struct cds_lfht_iter iter;
	struct snode *n;

	(void)arg;
	test_thread_register();
	do {
		nr++;
		stable_seen = 0;
		rcu_read_lock();
		cds_lfht_for_each_entry(ht, &iter, n, node) {
			/* Only this thread reads or writes seen. */
			if (n->seen == nr)
				error("a traversal met a node twice", n->key);
			n->seen = nr;
			stable_seen += n->key >= STABLE_BASE;
		}
		rcu_read_unlock();
		if (stable_seen != NR_STABLE)
			error("a traversal did not see every stable key once",
			      stable_seen);
		test_quiescent();
	} while (!all_stopped());
	uatomic_set(&traversals, nr);	/* read after pthread_join */
	test_thread_unregister();
	return NULL;
}

static void *looker(void *arg)
{
	unsigned long nr = 0, seed = 99, key;
	struct cds_lfht_iter iter;

	(void)arg;
	test_thread_register();
	do {
		key = STABLE_BASE + xorshift(&seed) % NR_STABLE;
		rcu_read_lock();
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		if (!cds_lfht_iter_get_node(&iter))
			error("a stable key was not found", key);
		rcu_read_unlock();
		test_quiescent();
		nr++;
	} while (!all_stopped());
	uatomic_set(&lookups, nr);	/* read after pthread_join */
	test_thread_unregister();
	return NULL;
}

static void *resizer(void *arg)
{
	static const unsigned long sizes[] = { 1, 1UL << 16, 8, 1UL << 12, 2, 256 };
	unsigned long nr = 0;

	(void)arg;
	test_thread_register();
	while (!all_stopped()) {
		cds_lfht_resize(ht, sizes[nr++ % CAA_ARRAY_SIZE(sizes)]);
		test_quiescent();
	}
	uatomic_set(&resizes, nr);	/* read after pthread_join */
	test_thread_unregister();
	return NULL;
}

static void soak(int flags)
{
	pthread_t w[NR_WRITERS], walk, look, rz;
	struct snode *gone = NULL;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long key, i, total = 0, wrong = 0, count;
	int explicit_resize = !(flags & CDS_LFHT_AUTO_RESIZE) ||
			      TEST_CAN_RESIZE_AUTO_RESIZE;
	long before, after;

	table_flags = flags;
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	memset(expect, 0, sizeof(expect));
	errors = ops = traversals = lookups = resizes = cycles = max_buckets = 0;
	min_buckets = ~0UL;
	rcu_read_lock();
	for (key = STABLE_BASE; key < STABLE_BASE + NR_STABLE; key++)
		cds_lfht_add(ht, hash_of(key), &snode_new(key, 0)->node);
	rcu_read_unlock();
	uatomic_set(&stop, 0);	/* before pthread_create, which orders it */
	for (i = 0; i < NR_WRITERS; i++)
		pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)i);
	pthread_create(&walk, NULL, walker, NULL);
	pthread_create(&look, NULL, looker, NULL);
	if (explicit_resize)
		pthread_create(&rz, NULL, resizer, NULL);
	test_sleep(seconds > 2 ? seconds / 2 : 1);
	uatomic_set(&stop, 1);
	test_thread_offline();
	for (i = 0; i < NR_WRITERS; i++)
		pthread_join(w[i], NULL);
	/* Writers first: walker, looker and resizer run until they end. */
	uatomic_set(&stop, 2);
	pthread_join(walk, NULL);
	pthread_join(look, NULL);
	if (explicit_resize)
		pthread_join(rz, NULL);
	test_thread_online();

	/* Each key holds exactly the nodes its writer expects, in order. */
	rcu_read_lock();
	for (key = 0; key < KEYS; key++) {
		unsigned int n = 0;

		cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key,
					    &iter, node) {
			if (n >= expect[key].n ||
			    snode_of(node)->value != expect[key].v[n])
				wrong++;
			n++;
		}
		wrong += n != expect[key].n;
		total += expect[key].n;
	}
	for (key = STABLE_BASE; key < STABLE_BASE + NR_STABLE; key++) {
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		cds_lfht_next_duplicate(ht, match, &key, &iter);
		wrong += !node || cds_lfht_iter_get_node(&iter);
	}
	total += NR_STABLE;
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();

	diag("flags %d: %lu ops, %lu fill-empty cycles, %lu traversals, "
	     "%lu lookups, %lu explicit resizes, buckets seen %lu..%lu, "
	     "%lu nodes at the end", flags, ops, cycles, traversals, lookups,
	     resizes, min_buckets, max_buckets, count);
	is_ul(errors, 0, "every result matched its writer's expectation");
	is_ul(wrong, 0, "at the end, each key holds exactly the nodes expected");
	is_ul(count, total, "the traversal counts every node once");
	if (flags & CDS_LFHT_ACCOUNTING)
		ok(before == (long)total && after == (long)total,
		   "split counters agree (%ld, %ld, expected %lu)",
		   before, after, total);
	ok(min_buckets < max_buckets, "resized both ways (%lu..%lu buckets)",
	   min_buckets, max_buckets);

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		struct snode *n = snode_of(node);

		if (cds_lfht_del(ht, node)) {
			wrong++;
			continue;
		}
		n->gone = gone;
		gone = n;
	}
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	is_ul(count + wrong, 0, "empty after deleting everything");
	synchronize_rcu();	/* then nothing references the nodes deleted */
	while (gone) {
		struct snode *n = gone;

		gone = n->gone;
		free(n);
	}
	is_l(test_destroy(ht, NULL), 0, "destroy");
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:q")) != -1) {
		if (opt == 's')
			seconds = strtoul(optarg, NULL, 10);
		else if (opt == 'q')
			seconds = 1;
	}
	test_thread_register();
	soak(0);
	soak(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	test_thread_unregister();
	return done_testing();
}
