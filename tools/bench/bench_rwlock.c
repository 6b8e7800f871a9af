/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Baseline: a chained hash table behind one pthread_rwlock.  Lookups take
 * the read lock, updates the write lock; "auto" doubles the bucket array
 * under the write lock when there are more entries than buckets (it never
 * shrinks).  Nothing is deferred: a writer holds the lock exclusively, so
 * no reader can see a node it frees.
 */
#include <pthread.h>
#include <stdlib.h>
#include "bench.h"

struct node {
	struct node *next;
	uint64_t key;
};

struct tbl {
	pthread_rwlock_t lock;
	struct node **b;
	unsigned long mask, count;
	int autoresize;
};

const char tbl_lookup_fn[] = "";
const char tbl_insert_fn[] = "";

static int rehash(struct tbl *t, unsigned long n)
{
	struct node **nb = calloc(n, sizeof(*nb));
	unsigned long i;

	if (!nb)
		return -1;
	for (i = 0; i <= t->mask; i++) {
		struct node *p = t->b[i], *next;

		for (; p; p = next) {
			struct node **h = &nb[bench_hash(p->key) & (n - 1)];

			next = p->next;
			p->next = *h;
			*h = p;
		}
	}
	free(t->b);
	t->b = nb;
	t->mask = n - 1;
	return 0;
}

struct tbl *tbl_create(unsigned long init_buckets, int autoresize)
{
	struct tbl *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_rwlock_init(&t->lock, NULL);
	t->b = calloc(init_buckets, sizeof(*t->b));
	if (!t->b) {
		free(t);
		return NULL;
	}
	t->mask = init_buckets - 1;
	t->autoresize = autoresize;
	return t;
}

void tbl_destroy(struct tbl *t)
{
	if (t->count)
		abort();
	pthread_rwlock_destroy(&t->lock);
	free(t->b);
	free(t);
}

void tbl_thread_online(void)
{
}

void tbl_thread_offline(void)
{
}

static struct node **find(struct tbl *t, uint64_t key)
{
	struct node **pp = &t->b[bench_hash(key) & t->mask];

	while (*pp && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

int tbl_lookup(struct tbl *t, uint64_t key)
{
	int found;

	pthread_rwlock_rdlock(&t->lock);
	found = *find(t, key) != NULL;
	pthread_rwlock_unlock(&t->lock);
	return found;
}

int tbl_insert(struct tbl *t, uint64_t key)
{
	struct node *n = malloc(sizeof(*n)), **pp;
	int added = 0;

	if (!n)
		abort();
	n->key = key;
	pthread_rwlock_wrlock(&t->lock);
	pp = find(t, key);
	if (!*pp) {
		n->next = NULL;
		*pp = n;
		added = 1;
		if (++t->count > t->mask + 1 && t->autoresize)
			rehash(t, 2 * (t->mask + 1));
	}
	pthread_rwlock_unlock(&t->lock);
	if (!added)
		free(n);
	return added;
}

int tbl_remove(struct tbl *t, uint64_t key)
{
	struct node **pp, *n;

	pthread_rwlock_wrlock(&t->lock);
	pp = find(t, key);
	n = *pp;
	if (n) {
		*pp = n->next;
		t->count--;
	}
	pthread_rwlock_unlock(&t->lock);
	free(n);
	return n != NULL;
}

void tbl_settle(struct tbl *t)
{
	(void)t;
}

int tbl_resize(struct tbl *t, unsigned long nbuckets)
{
	(void)t;
	(void)nbuckets;
	return -1;
}
