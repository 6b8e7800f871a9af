/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <lfht/rculfhash.h> - RCU-protected lock-free resizable hash table.
 *
 * The API of liburcu's <urcu/rculfhash.h> (0.13), plus the later
 * cds_lfht_node_init_deleted() and cds_lfht_entry(), implemented by liblfht
 * on split-ordered lists.  Include an RCU flavor header first (urcu.h,
 * urcu-qsbr.h, urcu-bp.h, or one of the urcu/urcu-*.h forms): cds_lfht_new()
 * then ties the table to that flavor.  Programs written for liburcu's hash
 * table build unchanged against this header through the lfht-compat
 * pkg-config module.
 *
 * Every lookup, traversal and update runs inside an RCU read-side critical
 * section of the table's flavor, from a thread registered with it.
 */
#ifndef LFHT_RCULFHASH_H
#define LFHT_RCULFHASH_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LFHT_API __attribute__((visibility("default")))

#define LFHT_NODE_ALIGN __attribute__((aligned(8)))
#define LFHT_CONTAINER_OF(ptr, type, member) caa_container_of(ptr, type, member)
#include "lfht_api.h"

struct rcu_flavor_struct;

/*
 * Memory-management plugins of liburcu.  liblfht allocates bucket tables one
 * power-of-two order at a time whichever of the three is named; each is
 * accepted by _cds_lfht_new() so that code choosing one builds and runs.
 */
struct cds_lfht_mm_type {
	struct cds_lfht *(*alloc_cds_lfht)(unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets);
	void (*alloc_bucket_table)(struct cds_lfht *ht, unsigned long order);
	void (*free_bucket_table)(struct cds_lfht *ht, unsigned long order);
	struct cds_lfht_node *(*bucket_at)(struct cds_lfht *ht,
			unsigned long index);
};

extern LFHT_API const struct cds_lfht_mm_type cds_lfht_mm_order;
extern LFHT_API const struct cds_lfht_mm_type cds_lfht_mm_chunk;
extern LFHT_API const struct cds_lfht_mm_type cds_lfht_mm_mmap;

/*
 * _cds_lfht_new - create a table (use cds_lfht_new or cds_lfht_new_flavor).
 * @init_size: initial number of buckets, a power of two; automatic
 *	shrinking (CDS_LFHT_ACCOUNTING) stops there.  A bucket is 16 bytes,
 *	as liburcu's: two list heads, each with half of its entries.
 * @min_nr_alloc_buckets: buckets that stay allocated, a power of two, and
 *	the smallest size cds_lfht_resize() goes to; at most @init_size.
 * @max_nr_buckets: largest size, a power of two not below @init_size, or 0
 *	for no limit.
 * @flags: CDS_LFHT_AUTO_RESIZE and/or CDS_LFHT_ACCOUNTING.
 * @mm: NULL or one of cds_lfht_mm_order, _chunk, _mmap.
 * @flavor: the RCU flavor of the threads that use the table.
 * @attr: attributes of the resize worker thread, or NULL.
 *
 * Returns NULL on invalid sizes or when memory or a thread cannot be had.
 */
extern LFHT_API
struct cds_lfht *_cds_lfht_new(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct cds_lfht_mm_type *mm,
			const struct rcu_flavor_struct *flavor,
			pthread_attr_t *attr);

static inline
struct cds_lfht *cds_lfht_new_flavor(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct rcu_flavor_struct *flavor,
			pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, flavor, attr);
}

/*
 * The flavor cds_lfht_new() uses: the one liburcu's API map names (urcu.h,
 * urcu-qsbr.h, urcu-bp.h), else the single urcu/urcu-*.h header included.
 */
#if defined(rcu_flavor)
#define LFHT_DEFAULT_FLAVOR (&rcu_flavor)
#elif defined(_URCU_MEMB_H) && !defined(_URCU_QSBR_H) && \
	!defined(_URCU_MB_H) && !defined(_URCU_BP_H) && !defined(_URCU_SIGNAL_H)
#define LFHT_DEFAULT_FLAVOR (&urcu_memb_flavor)
#elif defined(_URCU_QSBR_H) && !defined(_URCU_MEMB_H) && \
	!defined(_URCU_MB_H) && !defined(_URCU_BP_H) && !defined(_URCU_SIGNAL_H)
#define LFHT_DEFAULT_FLAVOR (&urcu_qsbr_flavor)
#elif defined(_URCU_MB_H) && !defined(_URCU_MEMB_H) && \
	!defined(_URCU_QSBR_H) && !defined(_URCU_BP_H) && !defined(_URCU_SIGNAL_H)
#define LFHT_DEFAULT_FLAVOR (&urcu_mb_flavor)
#elif defined(_URCU_BP_H) && !defined(_URCU_MEMB_H) && \
	!defined(_URCU_QSBR_H) && !defined(_URCU_MB_H) && !defined(_URCU_SIGNAL_H)
#define LFHT_DEFAULT_FLAVOR (&urcu_bp_flavor)
#elif defined(_URCU_SIGNAL_H) && !defined(_URCU_MEMB_H) && \
	!defined(_URCU_QSBR_H) && !defined(_URCU_MB_H) && !defined(_URCU_BP_H)
#define LFHT_DEFAULT_FLAVOR (&urcu_signal_flavor)
#endif

#ifdef LFHT_DEFAULT_FLAVOR
/* cds_lfht_new - create a table tied to the flavor included before. */
static inline
struct cds_lfht *cds_lfht_new(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, LFHT_DEFAULT_FLAVOR, attr);
}
#endif

/*
 * cds_lfht_destroy - free an empty table.  Waits for its resize worker.
 * Returns 0, or -EPERM (the table untouched) when nodes remain.  *@attr, if
 * @attr is not NULL, receives the attr given to cds_lfht_new.
 */
extern LFHT_API int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);

/*
 * liblfht extension: keyed hash for callers who have none.  SipHash-2-4 with
 * a 128-bit secret key: without the key an attacker cannot compute which
 * keys collide, so cannot fill one chain (an unkeyed hash such as jhash
 * with a fixed seed can be inverted offline).  Pick the key at random per
 * table or per process with lfht_hash_key_random().
 */
struct lfht_hash_key {
	uint64_t k0, k1;
};
extern LFHT_API int lfht_hash_key_random(struct lfht_hash_key *key);
extern LFHT_API unsigned long lfht_hash(const void *data, size_t len,
		const struct lfht_hash_key *key);

#ifdef __cplusplus
}
#endif

#endif /* LFHT_RCULFHASH_H */
