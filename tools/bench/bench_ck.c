/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Concurrency Kit ck_hs back-end.  ck_hs in CK_HS_MODE_SPMC allows one
 * writer concurrently with any number of lock-free readers, so writers
 * take a mutex (that is the honest way to use it with several writing
 * threads) and readers run inside ck_epoch sections.  Removed objects and
 * the maps ck_hs replaces when it grows are freed through ck_epoch_call
 * once no reader can hold them.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <ck_epoch.h>
#include <ck_hs.h>
#include "bench.h"

struct obj {
	uint64_t key;
	ck_epoch_entry_t epoch;
};

/* A map ck_hs retired: freed after an epoch, like a removed object. */
struct deferred {
	ck_epoch_entry_t epoch;
	void *p;
};

struct tbl {
	ck_hs_t hs;
	pthread_mutex_t writer;	/* SPMC: one writer at a time */
};

const char tbl_lookup_fn[] = "ck_hs_get";
const char tbl_insert_fn[] = "ck_hs_put";

static ck_epoch_t epoch;
static pthread_once_t epoch_once = PTHREAD_ONCE_INIT;
static __thread ck_epoch_record_t *rec;
static __thread unsigned int calls;	/* deferred frees since last poll */

static void epoch_init(void)
{
	ck_epoch_init(&epoch);
}

static void free_obj(ck_epoch_entry_t *e)
{
	free((char *)e - offsetof(struct obj, epoch));
}

static void free_deferred(ck_epoch_entry_t *e)
{
	struct deferred *d = (struct deferred *)((char *)e -
			offsetof(struct deferred, epoch));

	free(d->p);
	free(d);
}

/* Reclaim now and then, from the writer's own record. */
static void defer(ck_epoch_entry_t *e, ck_epoch_cb_t *fn)
{
	ck_epoch_call(rec, e, fn);
	if (++calls % 64 == 0)
		ck_epoch_poll(rec);
}

static void *hs_malloc(size_t n)
{
	return malloc(n);
}

static void hs_free(void *p, size_t n, bool deferred)
{
	struct deferred *d;

	(void)n;
	if (!deferred) {
		free(p);
		return;
	}
	d = malloc(sizeof(*d));
	if (!d)
		abort();
	d->p = p;
	defer(&d->epoch, free_deferred);
}

static struct ck_malloc allocator = { .malloc = hs_malloc, .free = hs_free };

static unsigned long hs_hash(const void *o, unsigned long seed)
{
	(void)seed;
	return bench_hash(((const struct obj *)o)->key);
}

static bool hs_compare(const void *a, const void *b)
{
	return ((const struct obj *)a)->key == ((const struct obj *)b)->key;
}

struct tbl *tbl_create(unsigned long init_buckets, int autoresize)
{
	struct tbl *t = malloc(sizeof(*t));

	(void)autoresize;	/* ck_hs always grows on put */
	if (!t)
		return NULL;
	pthread_mutex_init(&t->writer, NULL);
	/*
	 * ck_hs grows when more than half full, so room for init_buckets
	 * keys without a resize is twice that; "auto" starts at the minimum.
	 */
	if (!ck_hs_init(&t->hs, CK_HS_MODE_OBJECT | CK_HS_MODE_SPMC, hs_hash,
			hs_compare, &allocator,
			init_buckets > 1 ? 2 * init_buckets : 1, 0)) {
		free(t);
		return NULL;
	}
	return t;
}

void tbl_destroy(struct tbl *t)
{
	if (ck_hs_count(&t->hs))
		abort();
	ck_hs_destroy(&t->hs);
	free(t);
}

void tbl_thread_online(void)
{
	pthread_once(&epoch_once, epoch_init);
	rec = malloc(sizeof(*rec));
	if (!rec)
		abort();
	ck_epoch_register(&epoch, rec, NULL);
}

void tbl_thread_offline(void)
{
	ck_epoch_barrier(rec);	/* run every callback this thread queued */
	ck_epoch_unregister(rec);
	/* ck keeps unregistered records on its list for recycling: no free */
	rec = NULL;
}

int tbl_lookup(struct tbl *t, uint64_t key)
{
	struct obj probe = { .key = key };
	int found;

	ck_epoch_begin(rec, NULL);
	found = ck_hs_get(&t->hs, bench_hash(key), &probe) != NULL;
	ck_epoch_end(rec, NULL);
	return found;
}

int tbl_insert(struct tbl *t, uint64_t key)
{
	struct obj *o = malloc(sizeof(*o));
	bool added;

	if (!o)
		abort();
	o->key = key;
	pthread_mutex_lock(&t->writer);
	added = ck_hs_put(&t->hs, bench_hash(key), o);
	pthread_mutex_unlock(&t->writer);
	if (!added)
		free(o);	/* never published */
	return added;
}

int tbl_remove(struct tbl *t, uint64_t key)
{
	struct obj probe = { .key = key };
	struct obj *o;

	pthread_mutex_lock(&t->writer);
	o = ck_hs_remove(&t->hs, bench_hash(key), &probe);
	pthread_mutex_unlock(&t->writer);
	if (!o)
		return 0;
	defer(&o->epoch, free_obj);	/* readers may still hold it */
	return 1;
}

void tbl_settle(struct tbl *t)
{
	(void)t;
	ck_epoch_barrier(rec);
}

int tbl_resize(struct tbl *t, unsigned long nbuckets)
{
	(void)t;
	(void)nbuckets;
	return -1;
}
