/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interface between the benchmark harness (harness.c) and one table
 * back-end.  Each benchmark binary links harness.c with exactly one of:
 *   bench_lfht.c    written against the cds_lfht API; built twice, once
 *                   against liblfht and once against liburcu-cds
 *   bench_ck.c      Concurrency Kit ck_hs (SPMC: one writer at a time under
 *                   a mutex, lock-free readers, ck_epoch reclamation)
 *   bench_rwlock.c  a chained table behind one pthread_rwlock
 * so every table is driven by the same loops, keys and hash.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

struct tbl;

/*
 * tbl_create - a table for 64-bit integer keys.  @init_buckets is 1 for the
 * "auto" mode (grow from one bucket) or the key count for "presized";
 * @autoresize enables automatic resizing.  NULL on failure.
 */
struct tbl *tbl_create(unsigned long init_buckets, int autoresize);
void tbl_destroy(struct tbl *t);	/* table must be empty */

/* Every thread that touches a table calls these first and last. */
void tbl_thread_online(void);
void tbl_thread_offline(void);

int tbl_lookup(struct tbl *t, uint64_t key);	/* 1 if present */
int tbl_insert(struct tbl *t, uint64_t key);	/* 1 if added, 0 if present */
int tbl_remove(struct tbl *t, uint64_t key);	/* 1 if removed */

/* Wait for deferred frees (and, where possible, pending resizes). */
void tbl_settle(struct tbl *t);

/* Synchronous resize to @nbuckets; returns -1 if the table cannot. */
int tbl_resize(struct tbl *t, unsigned long nbuckets);

/* Name of the table's library function that a lookup/insert spends in,
 * for the callgrind breakdown ("" if none). */
extern const char tbl_lookup_fn[], tbl_insert_fn[];

/* The one hash every back-end uses: a 64-bit mixer, fixed seed, so runs
 * are reproducible (callgrind) and every table sees the same distribution. */
static inline uint64_t bench_hash(uint64_t k)
{
	k += 0x9e3779b97f4a7c15ULL;
	k ^= k >> 31;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 29;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 32;
	return k;
}

#endif /* BENCH_H */
