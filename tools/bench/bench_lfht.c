/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cds_lfht back-end of the benchmark.  Written only against liburcu's
 * documented API (<urcu.h> memb flavor, <urcu/rculfhash.h>), so the same
 * file builds against liblfht (-Iinclude/compat -Iinclude, build/liblfht.a)
 * and against liburcu-cds (system headers, -lurcu-cds).
 */
#include <errno.h>
#include <stdlib.h>
#include <urcu.h>
#include <urcu/rculfhash.h>
#include "bench.h"

struct node {
	struct cds_lfht_node node;
	uint64_t key;
	struct rcu_head rcu;
};

struct tbl {
	struct cds_lfht *ht;
};

const char tbl_lookup_fn[] = "cds_lfht_lookup";
const char tbl_insert_fn[] = "cds_lfht_add_unique";

static int match(struct cds_lfht_node *n, const void *key)
{
	return caa_container_of(n, struct node, node)->key ==
		*(const uint64_t *)key;
}

static void free_node(struct rcu_head *head)
{
	free(caa_container_of(head, struct node, rcu));
}

struct tbl *tbl_create(unsigned long init_buckets, int autoresize)
{
	struct tbl *t = malloc(sizeof(*t));
	int flags = autoresize ? CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING : 0;

	if (!t)
		return NULL;
	t->ht = cds_lfht_new(init_buckets, 1, 0, flags, NULL);
	if (!t->ht) {
		free(t);
		return NULL;
	}
	return t;
}

void tbl_destroy(struct tbl *t)
{
	if (cds_lfht_destroy(t->ht, NULL))
		abort();
	free(t);
}

void tbl_thread_online(void)
{
	rcu_register_thread();
}

void tbl_thread_offline(void)
{
	rcu_unregister_thread();
}

int tbl_lookup(struct tbl *t, uint64_t key)
{
	struct cds_lfht_iter iter;
	int found;

	rcu_read_lock();
	cds_lfht_lookup(t->ht, bench_hash(key), match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter) != NULL;
	rcu_read_unlock();
	return found;
}

int tbl_insert(struct tbl *t, uint64_t key)
{
	struct node *n = malloc(sizeof(*n));
	struct cds_lfht_node *ret;

	if (!n)
		abort();
	cds_lfht_node_init(&n->node);
	n->key = key;
	rcu_read_lock();
	ret = cds_lfht_add_unique(t->ht, bench_hash(key), match, &key, &n->node);
	rcu_read_unlock();
	if (ret != &n->node) {
		free(n);	/* never published: free at once */
		return 0;
	}
	return 1;
}

int tbl_remove(struct tbl *t, uint64_t key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	int removed = 0;

	rcu_read_lock();
	cds_lfht_lookup(t->ht, bench_hash(key), match, &key, &iter);
	n = cds_lfht_iter_get_node(&iter);
	if (n && !cds_lfht_del(t->ht, n))
		removed = 1;
	rcu_read_unlock();
	if (removed)	/* readers may still see it: free after a grace period */
		call_rcu(&caa_container_of(n, struct node, node)->rcu, free_node);
	return removed;
}

void tbl_settle(struct tbl *t)
{
	(void)t;
	rcu_barrier();
}

int tbl_resize(struct tbl *t, unsigned long nbuckets)
{
	cds_lfht_resize(t->ht, nbuckets);
	return 0;
}
