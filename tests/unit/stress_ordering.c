/*
 * Bounded concurrency test of the ordering guarantees, per RCU flavor.
 *
 * liburcu states them in src/rculfhash.c ("Ordering Guarantees", A.1 to
 * G.3; the installed urcu/rculfhash.h only has the per-function barrier
 * notes: add, add_unique success, add_replace, replace and del success
 * issue a full memory barrier before and after their atomic commit;
 * lookup, next_duplicate, first and next act as rcu_dereference()).
 * Checked here, with the scenario that checks each:
 *   A.1 read after write: pub_writer adds key s then stores a flag (plain
 *       store, ordered by the add's full barrier); a reader that loads the
 *       flag then looks s up finds it, with its payload initialised; same
 *       with a del then a flag: the lookup misses;
 *   A.2 read traversal after write: the same flags, then cds_lfht_for_each;
 *   B.1 write after read: a reader publishes (release) the end of its pass;
 *       rep_writer tags every node it adds with what it saw (acquire); a
 *       lookup never finds a node tagged with its own pass or a later one;
 *   B.2 the same for a traversal;
 *   D.1 write after write: add_unique by one writer, a flag, then
 *       add_unique of that key by another writer returns the first node and
 *       its del succeeds; a flag back, and the first writer's add_unique of
 *       the key succeeds (it sees the del);
 *   D.2 concurrent conflicting writes: cds_lfht_replace and cds_lfht_del on
 *       the same node race; exactly one of them wins;
 *   E   grace period: rep_writer replaces, synchronize_rcu(), then stores the
 *       removed node's sequence number; a reader that loads it inside a
 *       read-side section (no barrier: the grace period orders it) never
 *       sees that node or an older one; and (the other half) a node removed
 *       while a reader holds it is not freed (poisoned by a call_rcu
 *       callback) before the reader's section ends;
 *   F   uniqueness: keys under cds_lfht_replace/add_replace have exactly
 *       one node in every lookup walk, keys under add_unique/replace/del at
 *       most one;
 *   G.1 ordered lookups of a key return the same node or a later one (in
 *       one thread, and across two readers through a release/acquire);
 *   G.2 ordered traversals see the same node of a key or a later one;
 *   and iteration: for_each_duplicate on a duplicate chain sees every node
 *   that stays in the table exactly once during explicit resizes and
 *   adds/dels of other nodes with the same key.
 * Not testable: C (a write during a traversal may or may not be seen: no
 * outcome is wrong) and G.3 (concurrent reads are unordered: a
 * non-guarantee).  Every check counts its violations and how often its
 * critical window was exercised, and fails when it never was.
 *
 * Usage: stress_ordering [-s SECONDS] [-q]   (-q: 1 second, for valgrind)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "flavor.h"
#include "tap.h"

#define NR_READERS	2
#define PUB_WINDOW	32	/* live keys of pub_writer */
#define NR_REP		16	/* keys under replace only */
#define NR_CONF		2	/* keys raced by replace and del */
#define NR_DUP		4	/* keys with duplicate chains */
#define NR_DUP_STABLE	8	/* stable duplicates per dup key */
#define CHURN_MAX	4	/* churned duplicates per dup key */
#define CHURN_BASE	1000UL
#define MAX_OUTSTANDING	20000UL	/* call_rcu callbacks in flight */
#define GP_EVERY	32	/* rep_writer ops between grace periods */

/* Key spaces: the top byte says which scenario a node belongs to. */
#define SCEN_SHIFT	56
#define SCEN_PUB	1UL
#define SCEN_REP	2UL
#define SCEN_HAND	3UL
#define SCEN_DUP	4UL
#define SCEN_CONF	5UL
#define KEY(s, n)	(((s) << SCEN_SHIFT) | (n))
#define SCEN(k)		((k) >> SCEN_SHIFT)
#define KIDX(k)		((k) & ((1UL << SCEN_SHIFT) - 1))

#define NODE_LIVE	0x4c1fe5afe11fe5afUL
#define NODE_POISON	0xdeadbeefdeadbeefUL

struct onode {
	unsigned long key;
	unsigned long seq;
	unsigned long tag[NR_READERS];	/* B.1: readers' pass ends seen */
	unsigned long magic;
	unsigned long owners;		/* D.2: successful removals */
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

enum check {
	C_A1_ADD, C_A1_PAYLOAD, C_A1_DEL, C_A2, C_B1, C_B2, C_D1, C_D2,
	C_E_GP, C_E_FREE, C_F, C_G1, C_G2, C_ITER, C_WRITER, NR_CHECKS
};

static const char *const check_name[NR_CHECKS] = {
	[C_A1_ADD] = "A.1 lookup after add + flag finds the node",
	[C_A1_PAYLOAD] = "A.1 a node found has its initialised payload",
	[C_A1_DEL] = "A.1 lookup after del + flag misses the node",
	[C_A2] = "A.2 traversal after add/del + flag sees/misses the node",
	[C_B1] = "B.1 lookup never sees an add ordered after it",
	[C_B2] = "B.2 traversal never sees an add ordered after it",
	[C_D1] = "D.1 add_unique/del after another writer's add/del + flag see it",
	[C_D2] = "D.2 racing replace and del of one node: exactly one wins",
	[C_E_GP] = "E lookup after del/replace + grace period misses the node",
	[C_E_FREE] = "E a node removed during a read-side section is not freed before it ends",
	[C_F] = "F replaced keys: one node per walk; unique keys: at most one",
	[C_G1] = "G.1 ordered lookups return the same node or a later one",
	[C_G2] = "G.2 ordered traversals see the same node or a later one",
	[C_ITER] = "for_each_duplicate during resizes sees each stable duplicate once",
	[C_WRITER] = "updates return what the key's history implies",
};

/* What counts as the critical window, printed with each result. */
static const char *const window_name[NR_CHECKS] = {
	[C_A1_ADD] = "lookups before the next publish",
	[C_A1_PAYLOAD] = "nodes found",
	[C_A1_DEL] = "lookups before the next delete",
	[C_A2] = "traversals before the next publish",
	[C_B1] = "nodes found added just after the previous pass",
	[C_B2] = "nodes seen added just after the previous pass",
	[C_D1] = "handoffs",
	[C_D2] = "races lost",
	[C_E_GP] = "lookups just after a new grace period",
	[C_E_FREE] = "nodes held across their removal",
	[C_F] = "walks of a key replaced since the last one",
	[C_G1] = "lookups after a newer one by the other reader",
	[C_G2] = "traversals after a replace",
	[C_ITER] = "dup walks across a resize",
	[C_WRITER] = "updates",
};

struct counts {
	unsigned long viol[NR_CHECKS];
	unsigned long exer[NR_CHECKS];
};

static struct cds_lfht *ht;
static int stop;
static unsigned long phase_ms = 1000;
static struct counts total;	/* threads add theirs when they end */
static unsigned long outstanding;	/* retired nodes not yet freed */
static unsigned long reader_passes[NR_READERS], resizes;

/* pub_writer's flags (A.1, A.2) */
static unsigned long pub_published, pub_deleting, pub_deleted;
/* end of each reader's last pass (B.1, B.2) */
static unsigned long reader_done[NR_READERS];
/* per rep key: sequence of the newest node removed a grace period ago (E) */
static unsigned long gp_seq[NR_REP];
/* per reader and rep key: sequence its last lookup returned (G.1) */
static unsigned long g1_seen[NR_READERS][NR_REP];
/* D.1 handoff between pub_writer and churn_writer */
static unsigned long hand_off, hand_back;

static unsigned long hash_of(unsigned long key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdUL;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53UL;
	key ^= key >> 33;
	return key;
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct onode, node)->key ==
		*(const unsigned long *)key;
}

static struct onode *onode_new(unsigned long key, unsigned long seq)
{
	struct onode *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->key = key;
	n->seq = seq;
	n->magic = NODE_LIVE;
	return n;
}

static struct onode *to_onode(struct cds_lfht_node *node)
{
	return node ? caa_container_of(node, struct onode, node) : NULL;
}

static int stopped(void)
{
	return uatomic_read(&stop);
}

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static __attribute__((format(printf, 3, 4)))
void violation(struct counts *c, enum check chk, const char *fmt, ...)
{
	static unsigned long reported;
	char buf[160];
	va_list ap;

	c->viol[chk]++;
	if (uatomic_add_return(&reported, 1) > 20)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag("violation of %s: %s", check_name[chk], buf);
}

/*
 * Freeing in two stages, both through call_rcu: a grace period after the
 * removal the node is poisoned, and a grace period later it is freed.  A
 * reader that still reaches a node after its first grace period (a node
 * not unlinked when its removal returned, or a section the grace period
 * did not wait for) reads the poison, not freed memory.
 */
static void onode_free_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct onode, rcu));
	uatomic_dec(&outstanding);
}

static void onode_poison_rcu(struct rcu_head *head)
{
	struct onode *n = caa_container_of(head, struct onode, rcu);

	CMM_STORE_SHARED(n->magic, NODE_POISON);
	CMM_STORE_SHARED(n->seq, ~0UL);
	call_rcu(&n->rcu, onode_free_rcu);
}

static void retire(struct onode *n)
{
	uatomic_inc(&outstanding);
	call_rcu(&n->rcu, onode_poison_rcu);
}

/* Outside read-side sections: bounded memory however far call_rcu lags. */
static void throttle(void)
{
	if (uatomic_read(&outstanding) < MAX_OUTSTANDING)
		return;
	test_thread_offline();
	while (uatomic_read(&outstanding) > MAX_OUTSTANDING / 2 && !stopped())
		usleep(100);
	test_thread_online();
}

/* Every node a reader meets: never poisoned (E, second half). */
static void check_live(struct counts *c, struct onode *n)
{
	if (CMM_LOAD_SHARED(n->magic) != NODE_LIVE)
		violation(c, C_E_FREE, "  reader met freed node (magic %#lx, key %#lx)",
			  CMM_LOAD_SHARED(n->magic), n->key);
}

static void add_counts(const struct counts *c)
{
	unsigned int i;

	for (i = 0; i < NR_CHECKS; i++) {
		uatomic_add(&total.viol[i], c->viol[i]);
		uatomic_add(&total.exer[i], c->exer[i]);
	}
}

/* D.2, replace side (called by pub_writer, which never waits for a grace
 * period and so meets churn_writer's dels often). */
static void conf_replace(struct counts *c, unsigned long r, unsigned long *seq)
{
	unsigned long key = KEY(SCEN_CONF, r % NR_CONF);
	struct cds_lfht_iter iter;
	struct onode *n, *old;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
	old = to_onode(cds_lfht_iter_get_node(&iter));
	n = onode_new(key, ++*seq);
	if (!old) {
		if (cds_lfht_add_unique(ht, hash_of(key), match, &key,
					&n->node) != &n->node)
			free(n);	/* lost to churn_writer's add: never visible */
	} else {
		if (!((r >> 8) & 3))
			sched_yield();	/* widen the window for churn_writer's del */
		if (!cds_lfht_replace(ht, &iter, hash_of(key), match, &key,
				      &n->node)) {
			if (uatomic_add_return(&old->owners, 1) != 1)
				violation(c, C_D2, "  %#lx removed twice (replace), owners %lu",
					  key, uatomic_read(&old->owners));
			retire(old);
		} else {
			c->exer[C_D2]++;	/* del won */
			free(n);
		}
	}
	rcu_read_unlock();
}

/* ---- pub_writer: A.1, A.2 (add/del then flag), D.1 first half, D.2 ----- */

static void handoff_step(struct counts *c, unsigned long *cur)
{
	struct onode *n;
	unsigned long key;

	/* Pairs with churn_writer's release after it deleted HAND|*cur. */
	if (__atomic_load_n(&hand_back, __ATOMIC_ACQUIRE) != *cur)
		return;
	rcu_read_lock();
	if (*cur) {	/* D.1: our add_unique must see churn_writer's del */
		key = KEY(SCEN_HAND, *cur);
		n = onode_new(key, 0);
		if (cds_lfht_add_unique(ht, hash_of(key), match, &key,
					&n->node) != &n->node) {
			violation(c, C_D1, "  add_unique of %#lx after its del + flag failed",
				  key);
			free(n);	/* never visible */
		} else if (cds_lfht_del(ht, &n->node)) {
			violation(c, C_WRITER, "  del of own %#lx failed", key);
		} else {
			retire(n);
		}
		c->exer[C_D1]++;
	}
	++*cur;
	key = KEY(SCEN_HAND, *cur);
	n = onode_new(key, *cur);
	if (cds_lfht_add_unique(ht, hash_of(key), match, &key, &n->node) !=
	    &n->node) {
		violation(c, C_WRITER, "  add_unique of fresh %#lx failed", key);
		free(n);
	}
	rcu_read_unlock();
	/* Pairs with churn_writer's acquire: the add_unique happened before. */
	__atomic_store_n(&hand_off, *cur, __ATOMIC_RELEASE);
}

static void *pub_writer(void *arg)
{
	struct counts c;
	unsigned long s = 0, hand = 0, key, old;
	unsigned long seed = 88172645463325252UL, conf_seq = 0;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *ret;
	struct onode *n;

	(void)arg;
	memset(&c, 0, sizeof(c));
	test_thread_register();
	while (!stopped()) {
		throttle();
		key = KEY(SCEN_PUB, ++s);
		n = onode_new(key, s);
		rcu_read_lock();
		switch (s % 3) {	/* every kind of add is a "write" */
		case 0:
			cds_lfht_add(ht, hash_of(key), &n->node);
			break;
		case 1:
			ret = cds_lfht_add_unique(ht, hash_of(key), match, &key,
						  &n->node);
			if (ret != &n->node)
				violation(&c, C_WRITER, "  add_unique of fresh %#lx returned %p",
					  key, (void *)ret);
			break;
		default:
			ret = cds_lfht_add_replace(ht, hash_of(key), match, &key,
						   &n->node);
			if (ret)
				violation(&c, C_WRITER, "  add_replace of fresh %#lx returned %p",
					  key, (void *)ret);
			break;
		}
		rcu_read_unlock();
		c.exer[C_WRITER]++;
		/* Plain store: the add's full barrier after its commit orders
		 * it; pairs with the readers' rmb before their lookup (A.1). */
		CMM_STORE_SHARED(pub_published, s);
		if (s > PUB_WINDOW) {
			old = s - PUB_WINDOW;
			key = KEY(SCEN_PUB, old);
			/* Plain store: the del's full barrier before its commit
			 * orders it; pairs with the readers' rmb after a miss. */
			CMM_STORE_SHARED(pub_deleting, old);
			rcu_read_lock();
			cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
			n = to_onode(cds_lfht_iter_get_node(&iter));
			if (!n || cds_lfht_del(ht, &n->node))
				violation(&c, C_WRITER, "  del of %#lx (found: %d) failed",
					  key, n != NULL);
			else
				retire(n);
			rcu_read_unlock();
			/* Plain store: the del's full barrier after its commit
			 * orders it; pairs with the readers' rmb (A.1 del). */
			CMM_STORE_SHARED(pub_deleted, old);
		}
		handoff_step(&c, &hand);
		if (s & 1)
			conf_replace(&c, xorshift(&seed), &conf_seq);
		test_quiescent();
	}
	add_counts(&c);
	test_thread_unregister();
	return NULL;
}

/* ---- rep_writer: B.1, B.2, E, F, G.1, G.2 ------------------------------ */

static struct onode *rep_node(unsigned long key, unsigned long seq)
{
	struct onode *n = onode_new(key, seq);
	unsigned int r;

	for (r = 0; r < NR_READERS; r++)
		/* Pairs with the reader's release at the end of its pass (B.1). */
		n->tag[r] = __atomic_load_n(&reader_done[r], __ATOMIC_ACQUIRE);
	return n;
}

static void *rep_writer(void *arg)
{
	struct counts c;
	unsigned long seed = 0x9e3779b97f4a7c15UL, seq = NR_REP, r, key, i;
	unsigned long pending[NR_REP] = { 0 }, ops = 0;
	struct cds_lfht_node *ret;
	struct cds_lfht_iter iter;
	struct onode *n, *old;

	(void)arg;
	memset(&c, 0, sizeof(c));
	test_thread_register();
	while (!stopped()) {
		throttle();
		ret = NULL;
		r = xorshift(&seed);
		i = r % NR_REP;
		key = KEY(SCEN_REP, i);
		n = rep_node(key, ++seq);
		rcu_read_lock();
		if ((r >> 4) & 1) {
			ret = cds_lfht_add_replace(ht, hash_of(key), match, &key,
						   &n->node);
			old = to_onode(ret);
			ret = &n->node;	/* visible, replacing or not */
		} else {
			cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
			old = to_onode(cds_lfht_iter_get_node(&iter));
			if (cds_lfht_replace(ht, &iter, hash_of(key), match, &key,
					     &n->node))
				old = NULL;
		}
		if (!old) {
			violation(&c, C_WRITER, "  replace of present %#lx failed",
				  key);
			if (!ret)	/* cds_lfht_replace failed: never visible */
				free(n);
		} else {
			pending[i] = old->seq;
			retire(old);
		}
		rcu_read_unlock();
		c.exer[C_WRITER]++;
		if (++ops % GP_EVERY == 0) {
			synchronize_rcu();
			for (i = 0; i < NR_REP; i++)
				if (pending[i])
					/* Plain store: the grace period orders
					 * it after the removal (E). */
					CMM_STORE_SHARED(gp_seq[i], pending[i]);
			memset(pending, 0, sizeof(pending));
		}
		test_quiescent();
	}
	add_counts(&c);
	test_thread_unregister();
	return NULL;
}

/* ---- churn_writer: D.1 second half, D.2 (del side), duplicate churn ---- */

static void conf_del(struct counts *c, unsigned long r, unsigned long *seq)
{
	unsigned long key = KEY(SCEN_CONF, r % NR_CONF);
	struct cds_lfht_iter iter;
	struct onode *n;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
	n = to_onode(cds_lfht_iter_get_node(&iter));
	if (n) {
		if (!((r >> 8) & 3))
			sched_yield();	/* widen the window for pub_writer's replace */
		if (!cds_lfht_del(ht, &n->node)) {
			if (uatomic_add_return(&n->owners, 1) != 1)
				violation(c, C_D2, "  %#lx removed twice (del), owners %lu",
					  key, uatomic_read(&n->owners));
			retire(n);
		} else {
			c->exer[C_D2]++;	/* replace (or nobody) won */
		}
	} else {
		n = onode_new(key, ++*seq);
		if (cds_lfht_add_unique(ht, hash_of(key), match, &key,
					&n->node) != &n->node)
			free(n);	/* never visible */
	}
	rcu_read_unlock();
}

static void handback_step(struct counts *c, unsigned long *last)
{
	/* Pairs with pub_writer's release after its add_unique (D.1). */
	unsigned long h = __atomic_load_n(&hand_off, __ATOMIC_ACQUIRE);
	unsigned long key = KEY(SCEN_HAND, h);
	struct cds_lfht_node *ret;
	struct onode *m, *n;

	if (h == *last)
		return;
	m = onode_new(key, 0);
	rcu_read_lock();
	ret = cds_lfht_add_unique(ht, hash_of(key), match, &key, &m->node);
	n = to_onode(ret);
	if (n == m) {
		violation(c, C_D1, "  add_unique of %#lx after its add + flag succeeded",
			  key);
	} else {
		free(m);	/* never visible */
		if (n->seq != h)
			violation(c, C_D1, "  %#lx: add_unique returned seq %lu", key, n->seq);
	}
	if (cds_lfht_del(ht, &n->node))
		violation(c, C_D1, "  del of %#lx after its add + flag failed", key);
	else
		retire(n);
	rcu_read_unlock();
	c->exer[C_D1]++;
	*last = h;
	/* Pairs with pub_writer's acquire: the del happened before. */
	__atomic_store_n(&hand_back, h, __ATOMIC_RELEASE);
}

static void *churn_writer(void *arg)
{
	struct counts c;
	unsigned long seed = 0x2545f4914f6cdd1dUL, seq = 0, last = 0, r, key, d;
	struct onode *ring[NR_DUP][CHURN_MAX] = { { NULL } };
	unsigned int head[NR_DUP] = { 0 };

	(void)arg;
	memset(&c, 0, sizeof(c));
	test_thread_register();
	while (!stopped()) {
		throttle();
		r = xorshift(&seed);
		d = r % NR_DUP;
		key = KEY(SCEN_DUP, d);
		rcu_read_lock();
		if (ring[d][head[d]]) {
			if (cds_lfht_del(ht, &ring[d][head[d]]->node))
				violation(&c, C_WRITER, "  del of churned %#lx failed",
					  key);
			else
				retire(ring[d][head[d]]);
		}
		ring[d][head[d]] = onode_new(key, CHURN_BASE + ++seq);
		cds_lfht_add(ht, hash_of(key), &ring[d][head[d]]->node);
		head[d] = (head[d] + 1) % CHURN_MAX;
		rcu_read_unlock();
		c.exer[C_WRITER]++;
		if (!((r >> 5) & 1))
			conf_del(&c, r >> 7, &seq);
		handback_step(&c, &last);
		test_quiescent();
	}
	add_counts(&c);
	test_thread_unregister();
	return NULL;
}

/* ---- readers ------------------------------------------------------------ */

struct reader_state {
	unsigned int r;
	unsigned long pass;
	unsigned long last_seq[NR_REP];	/* G.1: own last lookup per key */
	unsigned long last_g[NR_REP];	/* E: last gp_seq seen per key */
	unsigned long trav_seq[NR_REP];	/* G.2: last traversal per key */
	unsigned long dup_walks;
	struct counts c;
};

/* A.1: flag then lookup, for an add and for a del. */
static void pass_publish(struct reader_state *st)
{
	struct cds_lfht_iter iter;
	unsigned long p, d, key;
	struct onode *n;

	p = CMM_LOAD_SHARED(pub_published);
	/* Pairs with the full barrier after the add's commit (pub_writer). */
	cmm_smp_rmb();
	if (p) {
		key = KEY(SCEN_PUB, p);
		rcu_read_lock();
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		n = to_onode(cds_lfht_iter_get_node(&iter));
		if (!n) {
			/* Pairs with the full barrier before the del's commit:
			 * a miss due to the del shows its pub_deleting. */
			cmm_smp_rmb();
			if (CMM_LOAD_SHARED(pub_deleting) < p)
				violation(&st->c, C_A1_ADD, "  key %lu published, not found (deleting %lu)",
					  p, CMM_LOAD_SHARED(pub_deleting));
		} else {
			check_live(&st->c, n);
			if (n->key != key || n->seq != p)
				violation(&st->c, C_A1_PAYLOAD, "  node of key %lu has seq %lu",
					  p, n->seq);
			st->c.exer[C_A1_PAYLOAD]++;
		}
		rcu_read_unlock();
		/* Orders the re-read after the lookup: was it before the next add? */
		cmm_smp_rmb();
		if (CMM_LOAD_SHARED(pub_published) == p)
			st->c.exer[C_A1_ADD]++;
	}
	d = CMM_LOAD_SHARED(pub_deleted);
	/* Pairs with the full barrier after the del's commit (pub_writer). */
	cmm_smp_rmb();
	if (d) {
		key = KEY(SCEN_PUB, d);
		rcu_read_lock();
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		n = to_onode(cds_lfht_iter_get_node(&iter));
		if (n)
			violation(&st->c, C_A1_DEL, "  key %lu deleted, still found (seq %lu)",
				  d, n->seq);
		rcu_read_unlock();
		/* Orders the re-read after the lookup: before the next del? */
		cmm_smp_rmb();
		if (CMM_LOAD_SHARED(pub_deleted) == d)
			st->c.exer[C_A1_DEL]++;
	}
}

/* Live nodes of @key in one lookup walk; *first gets the first. */
static unsigned long walk_key(struct reader_state *st, unsigned long key,
			      struct onode **first)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long cnt = 0;

	*first = NULL;
	cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key, &iter, node) {
		check_live(&st->c, to_onode(node));
		if (!cnt++)
			*first = to_onode(node);
	}
	return cnt;
}

/* B.1, E, F, G.1 on the replaced keys; F on the raced keys. */
static void pass_replace(struct reader_state *st)
{
	unsigned int r = st->r, o = (st->r + 1) % NR_READERS;
	unsigned long k, key, other, g, seq, tag, cnt;
	struct onode *n;

	for (k = 0; k < NR_REP; k++) {
		key = KEY(SCEN_REP, k);
		/* Pairs with the other reader's release after its lookup (G.1). */
		other = __atomic_load_n(&g1_seen[o][k], __ATOMIC_ACQUIRE);
		/* Orders this lookup after our previous one of k (G.1). */
		cmm_smp_rmb();
		rcu_read_lock();
		/* No barrier: the grace period before the store orders it (E). */
		g = CMM_LOAD_SHARED(gp_seq[k]);
		cnt = walk_key(st, key, &n);
		if (cnt != 1)
			violation(&st->c, C_F, "  replaced key %lu: %lu nodes in one walk",
				  k, cnt);
		seq = 0;
		if (n) {
			seq = n->seq;
			tag = n->tag[r];
			if (seq <= g)
				violation(&st->c, C_E_GP, "  saw seq %lu, removed a grace period ago up to %lu",
					  seq, g);
			if (g > st->last_g[k])
				st->c.exer[C_E_GP]++;
			st->last_g[k] = g;
			if (tag >= st->pass)
				violation(&st->c, C_B1, "  pass %lu found node tagged %lu",
					  st->pass, tag);
			else if (tag + 1 == st->pass && tag)
				st->c.exer[C_B1]++;
			if (seq < other || seq < st->last_seq[k])
				violation(&st->c, C_G1, "  lookup got seq %lu after %lu",
					  seq, other > st->last_seq[k] ?
					  other : st->last_seq[k]);
			if (other > st->last_seq[k])
				st->c.exer[C_G1]++;
			if (seq != st->last_seq[k])
				st->c.exer[C_F]++;
			st->last_seq[k] = seq;
		}
		rcu_read_unlock();
		/* Pairs with the other reader's acquire: our lookup came first. */
		__atomic_store_n(&g1_seen[r][k], seq, __ATOMIC_RELEASE);
	}
	rcu_read_lock();
	for (k = 0; k < NR_CONF; k++) {
		cnt = walk_key(st, KEY(SCEN_CONF, k), &n);
		if (cnt > 1)
			violation(&st->c, C_F, "  unique key %lu: %lu nodes in one walk",
				  k, cnt);
	}
	rcu_read_unlock();
}

/* A.2, B.2, G.2: one traversal of the whole table. */
static void pass_traverse(struct reader_state *st)
{
	unsigned long p, d, k, seq, tag;
	int saw_p = 0, saw_d = 0, advanced = 0;
	struct cds_lfht_iter iter;
	struct onode *n;

	p = CMM_LOAD_SHARED(pub_published);
	d = CMM_LOAD_SHARED(pub_deleted);
	/* Pairs with the full barriers after the add/del commits (A.2); also
	 * orders this traversal after our previous one (G.2). */
	cmm_smp_rmb();
	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, n, node) {
		check_live(&st->c, n);
		switch (SCEN(n->key)) {
		case SCEN_PUB:
			saw_p |= KIDX(n->key) == p;
			saw_d |= KIDX(n->key) == d;
			break;
		case SCEN_REP:
			k = KIDX(n->key);
			seq = n->seq;
			tag = n->tag[st->r];
			if (tag >= st->pass)
				violation(&st->c, C_B2, "  pass %lu saw node tagged %lu",
					  st->pass, tag);
			else if (tag + 1 == st->pass && tag)
				st->c.exer[C_B2]++;
			if (seq < st->trav_seq[k])
				violation(&st->c, C_G2, "  traversal saw seq %lu after %lu",
					  seq, st->trav_seq[k]);
			else if (seq > st->trav_seq[k] && st->trav_seq[k])
				advanced = 1;
			st->trav_seq[k] = seq;
			break;
		}
	}
	rcu_read_unlock();
	if (p && !saw_p) {
		/* Pairs with the full barrier before the del's commit. */
		cmm_smp_rmb();
		if (CMM_LOAD_SHARED(pub_deleting) < p)
			violation(&st->c, C_A2, "  traversal missed published key %lu",
				  p);
	}
	if (d && saw_d)
		violation(&st->c, C_A2, "  traversal saw deleted key %lu", d);
	/* Orders the re-read after the traversal. */
	cmm_smp_rmb();
	if (p && CMM_LOAD_SHARED(pub_published) == p)
		st->c.exer[C_A2]++;
	if (advanced)
		st->c.exer[C_G2]++;
}

/* Iteration: each stable duplicate exactly once, across resizes. */
static void pass_dups(struct reader_state *st)
{
	unsigned char seen[NR_DUP_STABLE];
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	unsigned long d, key, b0, b1, j, bad;
	struct onode *n;

	for (d = 0; d < NR_DUP; d++) {
		key = KEY(SCEN_DUP, d);
		memset(seen, 0, sizeof(seen));
		j = bad = 0;
		rcu_read_lock();
		b0 = lfht_nr_buckets(ht);
		cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key,
					    &iter, node) {
			n = to_onode(node);
			check_live(&st->c, n);
			if (n->key != key)
				bad++;
			else if (n->seq < NR_DUP_STABLE)
				seen[n->seq]++;
			if (++j == 2 && !(st->dup_walks % 2))
				sched_yield();	/* widen the window for a resize */
		}
		b1 = lfht_nr_buckets(ht);
		rcu_read_unlock();
		st->dup_walks++;
		for (j = 0; j < NR_DUP_STABLE; j++)
			bad += seen[j] != 1;
		if (bad)
			violation(&st->c, C_ITER, "  dup key %lu: %lu stable nodes missing, repeated or foreign",
				  d, bad);
		if (b0 != b1)
			st->c.exer[C_ITER]++;
		test_quiescent();
	}
}

/* E, second half: hold the oldest published node until it is removed. */
static void pass_hold(struct reader_state *st)
{
	struct cds_lfht_iter iter;
	unsigned long p, key, t;
	struct onode *n;

	p = CMM_LOAD_SHARED(pub_published);
	if (p <= PUB_WINDOW)
		return;
	key = KEY(SCEN_PUB, p - PUB_WINDOW + 1);
	rcu_read_lock();
	cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
	n = to_onode(cds_lfht_iter_get_node(&iter));
	if (n) {
		for (t = 0; t < 4096 && !cds_lfht_is_node_deleted(&n->node); t++) {
			caa_cpu_relax();
			if (t % 64 == 63)
				sched_yield();
		}
		if (cds_lfht_is_node_deleted(&n->node)) {
			sched_yield();	/* give a wrong free the time to happen */
			check_live(&st->c, n);
			if (n->key != key)
				violation(&st->c, C_E_FREE, "  held node's key changed to %#lx",
					  n->key);
			st->c.exer[C_E_FREE]++;
		}
	}
	rcu_read_unlock();
}

static void *reader(void *arg)
{
	struct reader_state *st = calloc(1, sizeof(*st));

	if (!st)
		abort();
	st->r = (unsigned int)(uintptr_t)arg;
	test_thread_register();
	do {	/* at least one pass, however late the thread gets a CPU */
		st->pass++;
		/* B.1/B.2 window: from the previous pass's end to the reads
		 * in pass_replace/pass_traverse, so those come last. */
		pass_dups(st);
		if (!(st->pass % 4))
			pass_hold(st);
		pass_publish(st);
		test_quiescent();
		pass_replace(st);
		test_quiescent();
		pass_traverse(st);
		/* Pairs with rep_writer's acquire (B.1, B.2): every read of
		 * this pass happened before. */
		__atomic_store_n(&reader_done[st->r], st->pass, __ATOMIC_RELEASE);
		test_quiescent();
	} while (!stopped());
	add_counts(&st->c);
	uatomic_set(&reader_passes[st->r], st->pass);
	test_thread_unregister();
	free(st);
	return NULL;
}

static void *resizer(void *arg)
{
	unsigned long size = 1, n = 0;

	(void)arg;
	test_thread_register();
	while (!stopped()) {
		cds_lfht_resize(ht, size);
		size = size == 1 ? 1024 : size == 1024 ? 8 : 1;
		n++;
		test_quiescent();
	}
	uatomic_set(&resizes, n);
	test_thread_unregister();
	return NULL;
}

/* ---- phases ------------------------------------------------------------- */

static void populate(void)
{
	unsigned long k, j, key;
	struct onode *n;

	rcu_read_lock();
	for (k = 0; k < NR_REP; k++) {
		key = KEY(SCEN_REP, k);
		n = onode_new(key, k + 1);
		cds_lfht_add_unique(ht, hash_of(key), match, &key, &n->node);
	}
	for (k = 0; k < NR_DUP; k++)
		for (j = 0; j < NR_DUP_STABLE; j++) {
			key = KEY(SCEN_DUP, k);
			cds_lfht_add(ht, hash_of(key), &onode_new(key, j)->node);
		}
	rcu_read_unlock();
}

/* Final contents: one node per replaced key, stable duplicates, window. */
static unsigned long check_final(void)
{
	unsigned long rep[NR_REP] = { 0 }, conf[NR_CONF] = { 0 };
	unsigned long dup[NR_DUP] = { 0 }, pub = 0, wrong = 0, k, p;
	struct cds_lfht_iter iter;
	struct onode *n;

	p = CMM_LOAD_SHARED(pub_published);
	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, n, node) {
		k = KIDX(n->key);
		switch (SCEN(n->key)) {
		case SCEN_PUB:
			pub++;
			wrong += k > p || k + PUB_WINDOW <= p;
			break;
		case SCEN_REP:
			rep[k]++;
			break;
		case SCEN_CONF:
			conf[k]++;
			break;
		case SCEN_DUP:
			dup[k] += n->seq < NR_DUP_STABLE;
			break;
		}
	}
	rcu_read_unlock();
	wrong += pub != (p < PUB_WINDOW ? p : PUB_WINDOW);
	for (k = 0; k < NR_REP; k++)
		wrong += rep[k] != 1;
	for (k = 0; k < NR_CONF; k++)
		wrong += conf[k] > 1;
	for (k = 0; k < NR_DUP; k++)
		wrong += dup[k] != NR_DUP_STABLE;
	return wrong;
}

static void drain(void)
{
	struct cds_lfht_iter iter;
	struct onode *n;

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, n, node)
		if (!cds_lfht_del(ht, &n->node))
			retire(n);
	rcu_read_unlock();
}

/* The signal flavor's grace periods interrupt sleeps: sleep to a deadline. */
static void sleep_ms(unsigned long ms)
{
	struct timespec end, now;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)(ms / 1000);
	end.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return;
		usleep(10000);
	}
}

static void run_phase(const char *name, int flags, int explicit_resize)
{
	pthread_t w[3], rd[NR_READERS], z;
	void *(*wfn[3])(void *) = { pub_writer, rep_writer, churn_writer };
	char what[96];
	unsigned int i;

	/*
	 * No cap on growth: this test found that a fresh key sorting behind
	 * the dup key's run of 12 equal hashes asked for 4x the size at any
	 * size, growing ~100 nodes to 2^20 buckets; runs of duplicates count
	 * once now, and the end of each phase checks the size.
	 */
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	if (!ht)
		abort();
	memset(&total, 0, sizeof(total));
	pub_published = pub_deleting = pub_deleted = 0;
	hand_off = hand_back = 0;
	resizes = 0;
	memset(reader_done, 0, sizeof(reader_done));
	memset(gp_seq, 0, sizeof(gp_seq));
	memset(g1_seen, 0, sizeof(g1_seen));
	memset(reader_passes, 0, sizeof(reader_passes));
	populate();
	uatomic_set(&stop, 0);
	for (i = 0; i < 3; i++)
		pthread_create(&w[i], NULL, wfn[i], NULL);
	for (i = 0; i < NR_READERS; i++)
		pthread_create(&rd[i], NULL, reader, (void *)(uintptr_t)i);
	if (explicit_resize)
		pthread_create(&z, NULL, resizer, NULL);
	test_thread_offline();
	sleep_ms(phase_ms);
	uatomic_set(&stop, 1);
	for (i = 0; i < 3; i++)
		pthread_join(w[i], NULL);
	for (i = 0; i < NR_READERS; i++)
		pthread_join(rd[i], NULL);
	if (explicit_resize)
		pthread_join(z, NULL);
	test_thread_online();

	diag("%s: reader passes %lu and %lu, %lu explicit resizes, %lu buckets at the end",
	     name, reader_passes[0], reader_passes[1], resizes,
	     lfht_nr_buckets(ht));
	/* The explicit resizer ends at 1, 8 or 1024; growth alone stays small. */
	ok(lfht_nr_buckets(ht) <= 1024,
	   "%s: automatic growth bounded (%lu buckets for about 100 nodes)",
	   name, lfht_nr_buckets(ht));
	for (i = 0; i < NR_CHECKS; i++) {
		/* Without the explicit resizer, resizes may not happen at all. */
		int need = i != C_ITER || explicit_resize;

		ok(total.viol[i] == 0 && (total.exer[i] > 0 || !need),
		   "%s: %s (%lu violations; %lu %s)", name, check_name[i],
		   total.viol[i], total.exer[i], window_name[i]);
	}
	ok(reader_passes[0] > 0 && reader_passes[1] > 0,
	   "%s: every reader completed a pass", name);
	snprintf(what, sizeof(what), "%s: final contents match the writers' history", name);
	is_ul(check_final(), 0, what);
	drain();
	test_barrier();	/* the poisoning callbacks ... */
	test_barrier();	/* ... and the frees they queued */
	snprintf(what, sizeof(what), "%s: every retired node freed", name);
	is_ul(uatomic_read(&outstanding), 0, what);
	snprintf(what, sizeof(what), "%s: destroy after drain", name);
	is_l(test_destroy(ht, NULL), 0, what);
}

/* A library bug can also show as a hang (a corrupted list): fail, not wait. */
static void watchdog(int sig)
{
	static const char msg[] = "Bail out! stress_ordering: watchdog expired\n";
	ssize_t r;

	(void)sig;
	r = write(STDOUT_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(2);
}

int main(int argc, char **argv)
{
	unsigned long seconds = 2;
	int opt;

	while ((opt = getopt(argc, argv, "s:q")) != -1) {
		if (opt == 's')
			seconds = strtoul(optarg, NULL, 10);
		else if (opt == 'q')
			seconds = 1;
	}
	/* Two phases share the time. */
	phase_ms = seconds * 1000 / 2;
	if (phase_ms < 200)
		phase_ms = 200;
	signal(SIGALRM, watchdog);
	alarm((unsigned int)(120 + 30 * seconds));
	test_thread_register();
	run_phase("explicit resizes", 0, 1);
	run_phase("auto resize", CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
		  TEST_CAN_RESIZE_AUTO_RESIZE);
	test_thread_unregister();
	return done_testing();
}
