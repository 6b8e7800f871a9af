/*
 * Linearizability of the table, checked exactly on many short histories.
 *
 * Each history: 2-3 threads run 2-4 random operations each on a table
 * holding 0-2 preloaded nodes for each of 3 keys, while in about half of
 * them a fourth thread resizes the table.  Every operation records an
 * invocation and a response stamp from one global counter (a full-barrier
 * atomic increment), so "a responded before b was invoked" is real-time
 * precedence.  In three histories out of four the threads meet at their
 * first or second op (each stamps its invocation, then waits for the others
 * to stamp theirs), so that ops overlap even on a loaded machine.  When the
 * threads are done the main thread takes a snapshot
 * of the table (the nodes of each key in list order), a last operation that
 * every other precedes.  The checker (Wing & Gong: depth-first search over
 * the orders that respect real-time precedence, memoising the (set of
 * linearised operations, model state) pairs already failed) must find one
 * order in which every result is what the sequential model gives.
 *
 * Sequential model: for each key, the list of its nodes (identified by
 * their unique values) in table order.
 *   add k v           append v                              (no result)
 *   add_unique k v    empty: append v, returns v; else returns the first
 *   add_replace k v   empty: append v, returns NULL; else the first is
 *                     replaced by v in its place and returned
 *   replace t v       t (a node this thread found by an earlier lookup)
 *                     present: v takes its place, 0; else -ENOENT
 *   del t             t present: removed, 0; else -ENOENT
 *   lookup k          the first node of k, or NULL
 *   snapshot          the lists are exactly the ones observed
 * Which duplicate is "first": nodes of one key have one hash, hence one
 * reverse hash, and the table keeps nodes of equal reverse hash in the
 * order they were linked (an add links behind every node that sorts before
 * or equal to it), a replacement takes the place of the node it replaces,
 * and a lookup or add_unique returns the first live match it meets.  So the
 * model is a list, not a set, and lookup must return its head: the
 * strictest claim the table makes (tests/vectors/FORMAT, `entries`).
 *
 * Nodes are never freed during a history, so a thread may del or replace a
 * node it found in an earlier read-side section; pools are recycled only a
 * grace period after their history ended.
 *
 * The checker is tested first on hand-made histories, some linearizable and
 * some not, and then on corrupted copies of recorded histories.
 * Usage: stress_lin [-s SECONDS] [-q] [-r SEED]   (-q: short, for valgrind)
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"

#define NR_KEYS		3
#define MAX_THREADS	3
#define MAX_THREAD_OPS	4
#define MAX_PRELOAD	2			/* nodes per key before a history */
#define MAX_OPS		(MAX_THREADS * MAX_THREAD_OPS + 1)	/* + snapshot */
#define MAX_LIST	16			/* nodes of one key in a state */
#define NONE		0			/* value of "no node" */
#define FIRST_OP_VALUE	(1 + NR_KEYS * MAX_PRELOAD)
#define POOL_NODES	(FIRST_OP_VALUE + MAX_OPS)
#define ARENA		64			/* pools per grace period */
#define TABLE_LIFE	50			/* histories per table */

enum op_type {
	OP_ADD, OP_ADD_UNIQUE, OP_ADD_REPLACE, OP_REPLACE, OP_DEL, OP_LOOKUP,
	OP_SNAPSHOT,
};

static const char *const op_names[] = {
	"add", "add_unique", "add_replace", "replace", "del", "lookup",
	"snapshot",
};

/* Model state: the nodes of each key, by value, in table order. */
struct mstate {
	uint8_t len[NR_KEYS];
	uint8_t v[NR_KEYS][MAX_LIST];
};

struct op {
	uint8_t type, thread, key;
	uint8_t value;		/* the new node: add, add_unique, add_replace, replace */
	uint8_t target;		/* the node removed: replace, del */
	int result;		/* a node's value, NONE, or 0 / -ENOENT */
	unsigned long inv, resp;
};

struct history {
	unsigned int nr_ops;
	struct op ops[MAX_OPS];
	struct mstate init;
	struct mstate snap;	/* for OP_SNAPSHOT */
};

/* -- The checker ----------------------------------------------------------- */

static int find(const struct mstate *s, unsigned int k, unsigned int v)
{
	unsigned int i;

	for (i = 0; i < s->len[k]; i++)
		if (s->v[k][i] == v)
			return (int)i;
	return -1;
}

static int append(struct mstate *s, unsigned int k, unsigned int v)
{
	if (s->len[k] >= MAX_LIST)
		return 0;
	s->v[k][s->len[k]++] = (uint8_t)v;
	return 1;
}

/* Apply @op to @s; 0 when its recorded result is not the model's. */
static int apply(struct mstate *s, const struct op *op, const struct mstate *snap)
{
	unsigned int k = op->key;
	unsigned int first = s->len[k] ? s->v[k][0] : NONE;
	int i;

	switch (op->type) {
	case OP_ADD:
		return append(s, k, op->value);
	case OP_ADD_UNIQUE:
		if (first != NONE)
			return op->result == (int)first;
		return op->result == op->value && append(s, k, op->value);
	case OP_ADD_REPLACE:
		if (op->result != (int)first)
			return 0;
		if (first == NONE)
			return append(s, k, op->value);
		s->v[k][0] = op->value;
		return 1;
	case OP_REPLACE:
		i = find(s, k, op->target);
		if (i < 0)
			return op->result == -ENOENT;
		s->v[k][i] = op->value;
		return op->result == 0;
	case OP_DEL:
		i = find(s, k, op->target);
		if (i < 0)
			return op->result == -ENOENT;
		memmove(&s->v[k][i], &s->v[k][i + 1], s->len[k] - (unsigned int)i - 1);
		s->v[k][--s->len[k]] = 0;	/* keep unused slots zero: memcmp */
		return op->result == 0;
	case OP_LOOKUP:
		return op->result == (int)first;
	case OP_SNAPSHOT:
		return !memcmp(s, snap, sizeof(*s));
	}
	return 0;
}

#define MEMO_BITS	15
#define MEMO_SIZE	(1U << MEMO_BITS)

struct memo_entry {
	unsigned int gen;	/* valid when equal to the checker's gen */
	uint32_t done;
	struct mstate s;
};

struct checker {
	const struct history *h;
	uint32_t pred[MAX_OPS];	/* ops that responded before op i was invoked */
	uint32_t all;
	unsigned int gen;
	unsigned long states;	/* search nodes visited, over all checks */
	struct memo_entry memo[MEMO_SIZE];
};

static struct checker checker;

/* Records (done, s) as visited; returns 1 if it already was. */
static int memo_visit(struct checker *c, uint32_t done, const struct mstate *s)
{
	uint32_t h = done * 0x9e3779b1U;
	const uint8_t *p = (const uint8_t *)s;
	unsigned int i, n;

	for (i = 0; i < sizeof(*s); i++)
		h = (h ^ p[i]) * 0x01000193U;
	for (n = 0; n < 64; n++) {
		struct memo_entry *e = &c->memo[(h + n) & (MEMO_SIZE - 1)];

		if (e->gen != c->gen) {
			e->gen = c->gen;
			e->done = done;
			e->s = *s;
			return 0;
		}
		if (e->done == done && !memcmp(&e->s, s, sizeof(*s)))
			return 1;
	}
	return 0;	/* table crowded here: search on without memoising */
}

static int search(struct checker *c, uint32_t done, const struct mstate *s)
{
	unsigned int i;

	if (done == c->all)
		return 1;
	/* Every visit that returned 0 failed; one that succeeded ended the search. */
	if (memo_visit(c, done, s))
		return 0;
	c->states++;
	for (i = 0; i < c->h->nr_ops; i++) {
		struct mstate next;

		if ((done & (1U << i)) || (c->pred[i] & ~done))
			continue;
		next = *s;
		if (apply(&next, &c->h->ops[i], &c->h->snap) &&
		    search(c, done | (1U << i), &next))
			return 1;
	}
	return 0;
}

/* 1 when @h is linearizable with respect to the model. */
static int linearizable(const struct history *h)
{
	struct checker *c = &checker;
	unsigned int i, j;

	c->h = h;
	c->all = (1U << h->nr_ops) - 1;
	for (i = 0; i < h->nr_ops; i++) {
		c->pred[i] = 0;
		for (j = 0; j < h->nr_ops; j++)
			if (h->ops[j].resp < h->ops[i].inv)
				c->pred[i] |= 1U << j;
	}
	if (!++c->gen) {	/* wrapped: old entries could look current */
		memset(c->memo, 0, sizeof(c->memo));
		c->gen = 1;
	}
	return search(c, 0, &h->init);
}

static void dump_history(const struct history *h)
{
	unsigned int i, k, j;

	for (k = 0; k < NR_KEYS; k++) {
		char line[128];
		int n = 0;

		for (j = 0; j < h->init.len[k]; j++)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %u",
				      h->init.v[k][j]);
		diag("  initially key %u:%s", k, n ? line : " none");
	}
	for (i = 0; i < h->nr_ops; i++) {
		const struct op *o = &h->ops[i];

		diag("  [%lu, %lu] thread %u %s key %u value %u target %u -> %d",
		     o->inv, o->resp, o->thread, op_names[o->type], o->key,
		     o->value, o->target, o->result);
	}
}

/* -- Hand-made histories: the checker accepts and rejects ------------------ */

static struct op mk(uint8_t type, uint8_t thread, uint8_t key, uint8_t value,
		    uint8_t target, int result, unsigned long inv,
		    unsigned long resp)
{
	struct op o = { type, thread, key, value, target, result, inv, resp };

	return o;
}

static void self_test(void)
{
	struct history h;

	/* Overlapping add and lookup: the lookup may see the node. */
	memset(&h, 0, sizeof(h));
	h.nr_ops = 2;
	h.ops[0] = mk(OP_ADD, 0, 1, 10, 0, 0, 1, 4);
	h.ops[1] = mk(OP_LOOKUP, 1, 1, 0, 0, 10, 2, 3);
	ok(linearizable(&h), "checker: lookup inside an add sees the node");
	h.ops[1].result = NONE;
	ok(linearizable(&h), "checker: ... or does not");

	/* A lookup after the add responded must see it. */
	h.ops[1] = mk(OP_LOOKUP, 1, 1, 0, 0, NONE, 5, 6);
	ok(!linearizable(&h), "checker: rejects a lookup missing a completed add");

	/* Seen, then not seen, with no delete: not linearizable. */
	h.nr_ops = 3;
	h.ops[0] = mk(OP_ADD, 0, 1, 10, 0, 0, 1, 10);
	h.ops[1] = mk(OP_LOOKUP, 1, 1, 0, 0, 10, 2, 3);
	h.ops[2] = mk(OP_LOOKUP, 1, 1, 0, 0, NONE, 4, 5);
	ok(!linearizable(&h), "checker: rejects a node that disappears");

	/* Two concurrent deletes of one node cannot both succeed. */
	memset(&h, 0, sizeof(h));
	h.init.len[0] = 1;
	h.init.v[0][0] = 1;
	h.nr_ops = 2;
	h.ops[0] = mk(OP_DEL, 0, 0, 0, 1, 0, 1, 4);
	h.ops[1] = mk(OP_DEL, 1, 0, 0, 1, 0, 2, 3);
	ok(!linearizable(&h), "checker: rejects two successful deletes of a node");
	h.ops[1].result = -ENOENT;
	ok(linearizable(&h), "checker: accepts one delete winning");

	/* Concurrent add_unique on an empty key: only one may add. */
	memset(&h, 0, sizeof(h));
	h.nr_ops = 2;
	h.ops[0] = mk(OP_ADD_UNIQUE, 0, 2, 10, 0, 10, 1, 4);
	h.ops[1] = mk(OP_ADD_UNIQUE, 1, 2, 11, 0, 11, 2, 3);
	ok(!linearizable(&h), "checker: rejects two add_unique both adding");
	h.ops[1].result = 10;
	ok(linearizable(&h), "checker: accepts the second returning the first");

	/* Duplicates: lookup returns the first in table order, not any. */
	memset(&h, 0, sizeof(h));
	h.init.len[0] = 2;
	h.init.v[0][0] = 1;
	h.init.v[0][1] = 2;
	h.nr_ops = 1;
	h.ops[0] = mk(OP_LOOKUP, 0, 0, 0, 0, 2, 1, 2);
	ok(!linearizable(&h), "checker: rejects a lookup of the second duplicate");
	h.ops[0].result = 1;
	ok(linearizable(&h), "checker: accepts the first duplicate");

	/* add_replace replaces in place: the replacement stays first. */
	h.nr_ops = 2;
	h.ops[0] = mk(OP_ADD_REPLACE, 0, 0, 10, 0, 1, 1, 2);
	h.ops[1] = mk(OP_LOOKUP, 1, 0, 0, 0, 10, 3, 4);
	ok(linearizable(&h), "checker: add_replace's node takes the first place");
	h.ops[1].result = 2;
	ok(!linearizable(&h), "checker: rejects the replacement moved behind");

	/* The snapshot must match the state reached. */
	memset(&h, 0, sizeof(h));
	h.nr_ops = 2;
	h.ops[0] = mk(OP_ADD, 0, 0, 10, 0, 0, 1, 2);
	h.ops[1] = mk(OP_SNAPSHOT, 9, 0, 0, 0, 0, 3, 4);
	ok(!linearizable(&h), "checker: rejects a snapshot that lost a node");
	h.snap.len[0] = 1;
	h.snap.v[0][0] = 10;
	ok(linearizable(&h), "checker: accepts the snapshot with the node");

	/*
	 * Needs a reordering against invocation order: B's del (invoked
	 * first) can only succeed after A's add_unique (invoked later) adds.
	 */
	memset(&h, 0, sizeof(h));
	h.nr_ops = 3;
	h.ops[0] = mk(OP_LOOKUP, 1, 0, 0, 0, NONE, 1, 2);
	h.ops[1] = mk(OP_ADD_UNIQUE, 0, 0, 10, 0, 10, 4, 7);
	h.ops[2] = mk(OP_DEL, 1, 0, 0, 10, 0, 3, 8);
	ok(linearizable(&h), "checker: finds a linearization out of invocation order");
	h.ops[2].resp = 5;
	h.ops[1].inv = 6;
	ok(!linearizable(&h), "checker: rejects a delete before the add began");
}

/* -- Recording histories --------------------------------------------------- */

struct lnode {
	unsigned long key;
	unsigned int value;
	struct cds_lfht_node node;
};

struct pool {
	struct lnode n[POOL_NODES];
};

static struct cds_lfht *ht;
static int hash_mode, table_flags;
static struct pool arena[ARENA];
static struct pool *pool;
static struct history hist;
/* What each thread is to do in this history: planned type and key. */
static struct plan {
	unsigned int nr;
	uint8_t type[MAX_THREAD_OPS], key[MAX_THREAD_OPS];
	unsigned int spin[MAX_THREAD_OPS];
} plans[MAX_THREADS];
static unsigned int nr_threads;
static unsigned long resize_sizes[3];
static unsigned int nr_resizes;
static unsigned long clk;		/* the stamps */
static unsigned int ready;		/* threads at the start line */
static unsigned int participants;
/*
 * Op index at which the op threads meet: each stamps that op's invocation
 * and waits for the others to stamp theirs before calling the table, so
 * those ops overlap even when the machine is loaded and the threads take
 * turns on one CPU.  NO_MEET: no meeting, overlaps only as they happen.
 */
#define NO_MEET		MAX_THREAD_OPS
static unsigned int meet_at, met;
static int quit;
static pthread_barrier_t start_bar, end_bar;

static unsigned long hash_of(unsigned long key)
{
	switch (hash_mode) {
	case 0:
		return key * 0x9e3779b97f4a7c15UL;
	case 1:
		return 0x5bd1e995UL;	/* every key in one chain: match decides */
	default:
		return key << 8;	/* one bucket while the table is small */
	}
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct lnode, node)->key ==
		*(const unsigned long *)key;
}

static int value_of(struct cds_lfht_node *node)
{
	return node ? (int)caa_container_of(node, struct lnode, node)->value : NONE;
}

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static unsigned long stamp(void)
{
	/* Full barrier (uatomic_add_return): pairs with the other threads' stamps. */
	return uatomic_add_return(&clk, 1);
}

static void bar_wait(pthread_barrier_t *b)
{
	test_thread_offline();	/* qsbr: no grace period waits on a sleeper */
	pthread_barrier_wait(b);
	test_thread_online();
}

/* Tighter than the barrier: everyone leaves the start line together. */
static void start_line(void)
{
	unsigned int spins = 0;

	/* Full barrier (uatomic_add_return): pairs with the others' increments. */
	uatomic_add_return(&ready, 1);
	/* Relaxed reads: the increments above and theirs are full barriers. */
	while (uatomic_read(&ready) < participants) {
		caa_cpu_relax();
		if (++spins % 64 == 0) {
			test_quiescent();
			sched_yield();	/* 2 cores, up to 4 threads */
		}
	}
}

static void meet(void)
{
	unsigned int spins = 0;

	/* Full barrier (uatomic_add_return): our stamp is before the count. */
	uatomic_add_return(&met, 1);
	/* Relaxed reads: the increment above and theirs are full barriers. */
	while (uatomic_read(&met) < nr_threads) {
		caa_cpu_relax();
		if (++spins % 16 == 0) {
			test_quiescent();	/* not in a read-side section */
			sched_yield();
		}
	}
}

static void run_thread_ops(unsigned int t)
{
	struct plan *p = &plans[t];
	struct cds_lfht_iter held = { NULL, NULL };
	unsigned int i, j;

	for (i = 0; i < p->nr; i++) {
		struct op *op = &hist.ops[t * MAX_THREAD_OPS + i];
		unsigned int type = p->type[i];
		unsigned long key = p->key[i];
		struct cds_lfht_iter iter;
		struct cds_lfht_node *r;
		struct lnode *n = NULL;

		for (j = 0; j < p->spin[i]; j++)
			caa_cpu_relax();
		if ((type == OP_DEL || type == OP_REPLACE) && !held.node)
			type = OP_LOOKUP;	/* nothing found yet to remove */
		memset(op, 0, sizeof(*op));
		op->type = (uint8_t)type;
		op->thread = (uint8_t)t;
		if (type == OP_DEL || type == OP_REPLACE) {
			n = caa_container_of(held.node, struct lnode, node);
			key = n->key;
			op->target = (uint8_t)n->value;
		}
		op->key = (uint8_t)key;
		if (type != OP_DEL && type != OP_LOOKUP) {
			op->value = (uint8_t)(FIRST_OP_VALUE + t * MAX_THREAD_OPS + i);
			n = &pool->n[op->value];
			n->key = key;
			n->value = op->value;
		}
		op->inv = stamp();
		if (i == meet_at)
			meet();
		rcu_read_lock();
		switch (type) {
		case OP_ADD:
			cds_lfht_add(ht, hash_of(key), &n->node);
			break;
		case OP_ADD_UNIQUE:
			r = cds_lfht_add_unique(ht, hash_of(key), match, &key,
						&n->node);
			op->result = value_of(r);
			break;
		case OP_ADD_REPLACE:
			r = cds_lfht_add_replace(ht, hash_of(key), match, &key,
						 &n->node);
			op->result = value_of(r);
			break;
		case OP_REPLACE:
			op->result = cds_lfht_replace(ht, &held, hash_of(key),
						      match, &key, &n->node);
			held.node = NULL;
			break;
		case OP_DEL:
			op->result = cds_lfht_del(ht, held.node);
			held.node = NULL;
			break;
		case OP_LOOKUP:
			cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
			op->result = value_of(cds_lfht_iter_get_node(&iter));
			if (iter.node)
				held = iter;
			break;
		}
		rcu_read_unlock();
		op->resp = stamp();
		test_quiescent();
	}
}

static void *op_thread(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;

	test_thread_register();
	for (;;) {
		bar_wait(&start_bar);
		/* Set before the barrier by the main thread: ordered by it. */
		if (uatomic_read(&quit))
			break;
		if (t < nr_threads) {
			start_line();
			run_thread_ops(t);
		}
		bar_wait(&end_bar);
	}
	test_thread_unregister();
	return NULL;
}

static void *resize_thread(void *arg)
{
	unsigned int i;

	(void)arg;
	test_thread_register();
	for (;;) {
		bar_wait(&start_bar);
		/* Set before the barrier by the main thread: ordered by it. */
		if (uatomic_read(&quit))
			break;
		if (nr_resizes) {
			start_line();
			for (i = 0; i < nr_resizes; i++)
				cds_lfht_resize(ht, resize_sizes[i]);
		}
		bar_wait(&end_bar);
	}
	test_thread_unregister();
	return NULL;
}

static void new_table(unsigned long *seed)
{
	static const int flag_sets[] = {
		0, CDS_LFHT_AUTO_RESIZE, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
	};
	unsigned long r = xorshift(seed);

	table_flags = flag_sets[r % 3];
	hash_mode = (int)((r >> 4) % 3);
	ht = cds_lfht_new(1UL << ((r >> 8) % 4), 1, 0, table_flags, NULL);
	if (!ht)
		abort();
}

/* Snapshot: the nodes of each key in list order; then empty the table. */
static void snapshot_and_drain(struct mstate *snap)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long key;

	memset(snap, 0, sizeof(*snap));
	rcu_read_lock();
	for (key = 0; key < NR_KEYS; key++)
		cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key,
					    &iter, node)
			if (snap->len[key] < MAX_LIST)
				snap->v[key][snap->len[key]++] =
					(uint8_t)value_of(node);
	cds_lfht_for_each(ht, &iter, node)
		cds_lfht_del(ht, node);
	rcu_read_unlock();
}

/* Plan, run and record one history into hist. */
static void run_history(unsigned long *seed, unsigned long nr)
{
	static const uint8_t weights[] = {	/* out of 20 */
		OP_ADD, OP_ADD, OP_ADD, OP_ADD_UNIQUE, OP_ADD_UNIQUE,
		OP_ADD_UNIQUE, OP_ADD_REPLACE, OP_ADD_REPLACE, OP_ADD_REPLACE,
		OP_REPLACE, OP_REPLACE, OP_REPLACE, OP_DEL, OP_DEL, OP_DEL,
		OP_DEL, OP_LOOKUP, OP_LOOKUP, OP_LOOKUP, OP_LOOKUP,
	};
	unsigned int t, i, k, slot, nr_ops;
	struct op ops[MAX_OPS];
	int can_resize;

	pool = &arena[nr % ARENA];
	memset(pool, 0, sizeof(*pool));
	memset(&hist, 0, sizeof(hist));
	/* Preload: 0-2 nodes per key, duplicates included, in order. */
	rcu_read_lock();
	for (k = 0; k < NR_KEYS; k++) {
		unsigned int n = (unsigned int)(xorshift(seed) % (MAX_PRELOAD + 1));

		for (i = 0; i < n; i++) {
			struct lnode *ln = &pool->n[1 + k * MAX_PRELOAD + i];

			ln->key = k;
			ln->value = 1 + k * MAX_PRELOAD + i;
			hist.init.v[k][hist.init.len[k]++] = (uint8_t)ln->value;
			cds_lfht_add(ht, hash_of(k), &ln->node);
		}
	}
	rcu_read_unlock();

	nr_threads = 2 + (unsigned int)(xorshift(seed) % (MAX_THREADS - 1));
	for (t = 0; t < MAX_THREADS; t++) {
		plans[t].nr = t < nr_threads ?
			2 + (unsigned int)(xorshift(seed) % (MAX_THREAD_OPS - 1)) : 0;
		for (i = 0; i < plans[t].nr; i++) {
			unsigned long r = xorshift(seed);

			plans[t].type[i] = weights[r % sizeof(weights)];
			plans[t].key[i] = (uint8_t)((r >> 8) % NR_KEYS);
			plans[t].spin[i] = (r >> 16) % 4 ? 0 : (unsigned int)((r >> 20) % 200);
		}
	}
	can_resize = !(table_flags & CDS_LFHT_AUTO_RESIZE) || TEST_CAN_RESIZE_AUTO_RESIZE;
	nr_resizes = can_resize && (xorshift(seed) & 1) ?
		1 + (unsigned int)(xorshift(seed) % 3) : 0;
	for (i = 0; i < nr_resizes; i++)
		resize_sizes[i] = 1UL << (xorshift(seed) % 7);
	participants = nr_threads + (nr_resizes ? 1 : 0);
	/* ready, met, plans: set before the start barrier, which orders them. */
	uatomic_set(&ready, 0);
	/* Every thread has 2 ops or more: all reach op 0 or 1. */
	meet_at = xorshift(seed) % 4 ? (unsigned int)(xorshift(seed) % 2) : NO_MEET;
	uatomic_set(&met, 0);

	bar_wait(&start_bar);	/* the threads run the plans */
	bar_wait(&end_bar);

	/* Compact the recorded ops, then the snapshot every op precedes. */
	nr_ops = 0;
	for (t = 0; t < nr_threads; t++)
		for (i = 0; i < plans[t].nr; i++)
			ops[nr_ops++] = hist.ops[t * MAX_THREAD_OPS + i];
	memcpy(hist.ops, ops, nr_ops * sizeof(ops[0]));
	slot = nr_ops++;
	memset(&hist.ops[slot], 0, sizeof(hist.ops[slot]));
	hist.ops[slot].type = OP_SNAPSHOT;
	hist.ops[slot].thread = MAX_THREADS;
	hist.ops[slot].inv = stamp();
	snapshot_and_drain(&hist.snap);
	hist.ops[slot].resp = stamp();
	hist.nr_ops = nr_ops;
}

/* Some op of two different threads overlapped in time. */
static int overlapped(const struct history *h)
{
	unsigned int i, j;

	for (i = 0; i < h->nr_ops; i++)
		for (j = 0; j < h->nr_ops; j++)
			if (h->ops[i].thread != h->ops[j].thread &&
			    h->ops[i].inv < h->ops[j].inv &&
			    h->ops[j].inv < h->ops[i].resp)
				return 1;
	return 0;
}

/* A copy with a result no order can explain; 0 when @h has no such op. */
static int corrupt(const struct history *h, struct history *bad)
{
	unsigned int i;

	*bad = *h;
	for (i = 0; i < bad->nr_ops; i++) {
		struct op *o = &bad->ops[i];

		if (o->type == OP_LOOKUP || o->type == OP_ADD_UNIQUE ||
		    o->type == OP_ADD_REPLACE) {
			o->result = 250;	/* a value no node ever had */
			return 1;
		}
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	unsigned long seconds = 2, min_histories = 1000, seed = 0x2545f4914f6cdd1dUL;
	unsigned long nr = 0, bad = 0, overlaps = 0, resized = 0, corrupted = 0,
		      rejected = 0, destroy_fail = 0;
	pthread_t th[MAX_THREADS], rz;
	struct history wrong;
	unsigned int t;
	double end;
	int opt;

	seed ^= (unsigned long)time(NULL);
	while ((opt = getopt(argc, argv, "s:qr:")) != -1) {
		if (opt == 's') {
			seconds = strtoul(optarg, NULL, 10);
		} else if (opt == 'q') {
			seconds = 1;
			min_histories = 200;
		} else if (opt == 'r') {
			seed = strtoul(optarg, NULL, 0);	/* replay a run */
		}
	}
	note("seed %#lx", seed);
	self_test();

	test_thread_register();
	pthread_barrier_init(&start_bar, NULL, MAX_THREADS + 2);
	pthread_barrier_init(&end_bar, NULL, MAX_THREADS + 2);
	for (t = 0; t < MAX_THREADS; t++)
		pthread_create(&th[t], NULL, op_thread, (void *)(uintptr_t)t);
	pthread_create(&rz, NULL, resize_thread, NULL);

	end = now() + (double)seconds;
	new_table(&seed);
	while (now() < end || nr < min_histories) {
		if (nr && nr % ARENA == 0)
			synchronize_rcu();	/* the arena's pools are unreferenced */
		if (nr && nr % TABLE_LIFE == 0) {
			destroy_fail += test_destroy(ht, NULL) != 0;
			new_table(&seed);
		}
		run_history(&seed, nr);
		test_quiescent();
		nr++;
		overlaps += overlapped(&hist);
		resized += nr_resizes != 0;
		if (!linearizable(&hist)) {
			if (bad++ < 3) {
				diag("history %lu not linearizable (flags %d, hash mode %d):",
				     nr, table_flags, hash_mode);
				dump_history(&hist);
			}
		}
		if (nr % 8 == 0 && corrupt(&hist, &wrong)) {
			corrupted++;
			rejected += !linearizable(&wrong);
		}
	}
	uatomic_set(&quit, 1);	/* the start barrier below orders it */
	bar_wait(&start_bar);
	test_thread_offline();
	for (t = 0; t < MAX_THREADS; t++)
		pthread_join(th[t], NULL);
	pthread_join(rz, NULL);
	test_thread_online();
	destroy_fail += test_destroy(ht, NULL) != 0;
	synchronize_rcu();

	ok(bad == 0, "%lu histories checked, %lu not linearizable "
	   "(%lu with overlapping operations, %lu with resizes, %lu search states)",
	   nr, bad, overlaps, resized, checker.states);
	ok(overlaps > nr / 2,
	   "operations of different threads overlapped in %lu histories", overlaps);
	ok(corrupted > 0 && rejected == corrupted,
	   "checker rejected %lu of %lu corrupted recorded histories",
	   rejected, corrupted);
	is_ul(destroy_fail, 0, "every table destroyed empty");
	pthread_barrier_destroy(&start_bar);
	pthread_barrier_destroy(&end_bar);
	test_thread_unregister();
	return done_testing();
}
