/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private definitions of the split-ordered list hash table core.
 *
 * The core includes nothing but "lfht_env.h", which each build provides
 * (user/lfht_env.h on liburcu, kernel/lfht_env.h on the kernel).  It must
 * define:
 *   types      struct cds_lfht_node, struct cds_lfht_iter, cds_lfht_match_fct,
 *              the CDS_LFHT_* flags, size_t, uintptr_t, the E* error codes;
 *   memory     LFHT_LOAD, LFHT_STORE, lfht_rcu_dereference,
 *              lfht_load_acquire, lfht_store_release, lfht_smp_rmb,
 *              lfht_smp_wmb, lfht_cmpxchg (fully ordered on success),
 *              lfht_xchg;
 *   misc       LFHT_BUG_ON, LFHT_EXPORT, LFHT_ALWAYS_INLINE (an inline
 *              the environment may force), lfht_bswap_long, lfht_fls_long;
 *   allocation lfht_env_zalloc, lfht_env_free;
 *   counters   struct lfht_env_counter with _init, _destroy, _add (returns
 *              the new value of this CPU's slot), _sum;
 *   locking    struct lfht_env_mutex with _init, _destroy, _lock, _unlock;
 *   RCU/work   struct lfht_env_config, struct lfht_env_table with
 *              lfht_env_table_init/_fini, _queue_work (run soon),
 *              _queue_work_later (run in about the given ms, unless a run
 *              is pending), _flush_work (run what is pending, even later,
 *              and wait), lfht_env_now_ms (a monotonic clock),
 *              _read_lock, _read_unlock, _synchronize, _quiescent,
 *              _blocking_begin/_end, and _check_reader (called first by
 *              every read-side API function; may assert or do nothing).
 */
#ifndef LFHT_CORE_H
#define LFHT_CORE_H

#include "lfht_env.h"
#include "lfht_lookup.h"

/*
 * A bucket of the API (the sizes cds_lfht_new() and cds_lfht_resize() take
 * and lfht_nr_buckets() reports) is 2^LFHT_HEAD_SHIFT list heads of
 * LFHT_BUCKET_SIZE bytes: 16 bytes, the size of one of liburcu's bucket
 * nodes.  Inside the core every size counts heads.  At one entry per
 * bucket a head then holds half an entry: a hit walks 1.25 nodes, not 1.5,
 * and a miss ends at once more often.  API bucket b is heads b and b + n
 * at n API buckets, the two halves a growth would split it into.
 */
#define LFHT_HEAD_SHIFT		1
/* The most heads; max_nr_buckets 0 (no limit) is this many, in buckets. */
#define LFHT_MAX_SIZE		(1UL << (LFHT_BITS_PER_LONG - 2))

/* An add that walks past this many nodes of other hashes asks for growth. */
#define LFHT_CHAIN_GROW		4
/* Accounting looks at the total when a CPU's counter crosses a multiple. */
#define LFHT_COUNT_BATCH	64UL
/*
 * Automatic shrinking waits this long after a delete first saw the count
 * low, and does not happen if an add saw it back up meanwhile: a table
 * that drains and fills again keeps its buckets.
 */
#define LFHT_SHRINK_DELAY_MS	100UL

struct cds_lfht {
	/*
	 * First: the kernel's cds_lfht_lookup_inline() reads it through a cast.
	 * Orders up to block_order share one block (heads 0 and 1 at least,
	 * all of the first min_size), which lives as long as the table.  Sizes
	 * here count heads (LFHT_HEAD_SHIFT).
	 */
	struct lfht_index idx;
	struct cds_lfht_node *block;
	unsigned long min_size, max_size;
	unsigned long init_size;	/* automatic shrinking stops there */
	unsigned int block_order;
	int flags;
	/* Largest size asked for by an add that met a long chain, or 0. */
	unsigned long grow_hint;
	/*
	 * When (lfht_env_now_ms() | 1) a delete first saw the count below the
	 * shrink threshold, or 0 (accounting).
	 */
	unsigned long shrink_asked;
	int destroying;
	struct lfht_env_mutex resize_mutex;	/* serialises resizes */
	struct lfht_env_counter count;		/* CDS_LFHT_ACCOUNTING */
	unsigned long nr_grows, nr_shrinks;	/* under resize_mutex */
	struct lfht_env_table env;
};

struct lfht_stats {
	unsigned long buckets;
	unsigned long nodes;
	unsigned long grows, shrinks;
	unsigned long longest_chain;
	/* chains of length 0, 1, 2, 3, 4-7, 8-15, 16-31, 32 and more */
	unsigned long chain_hist[8];
	int resize_pending;
	/*
	 * The longest chain is far longer than random hashing gives at this
	 * load (over 4 * ceil(nodes / buckets) + 16): keys made to collide?
	 */
	int chain_alert;
};

static inline int lfht_is_pow2(unsigned long x)
{
	return x && !(x & (x - 1));
}

/* Table life cycle, wrapped by each build's public constructor. */
struct cds_lfht *lfht_table_new(unsigned long init_size,
				unsigned long min_size,
				unsigned long max_size, int flags,
				const struct lfht_env_config *cfg);
int lfht_table_destroy(struct cds_lfht *ht);

/* Resizing (lfht_resize.c). */
int lfht_tables_init(struct cds_lfht *ht, unsigned long init_size);
void lfht_tables_free(struct cds_lfht *ht);
void lfht_resize_work(void *arg);
void lfht_request_grow(struct cds_lfht *ht, unsigned long size,
		       unsigned long chain);
void lfht_count_changed(struct cds_lfht *ht, long delta);

/* List primitives shared by the table operations and the resizer. */
void lfht_link_bucket(struct cds_lfht_node *parent,
		      struct cds_lfht_node *bucket, unsigned long rev);
void lfht_unlink_bucket(struct cds_lfht_node *parent,
			struct cds_lfht_node *bucket, unsigned long rev);
void lfht_unlink_removed(struct cds_lfht *ht, unsigned long hash,
			 unsigned long reverse_hash, struct cds_lfht_node *node);
int lfht_is_empty(struct cds_lfht *ht);
void lfht_get_stats(struct cds_lfht *ht, struct lfht_stats *stats);

static inline struct cds_lfht_node *lfht_bucket_at(struct cds_lfht *ht,
						   unsigned long index)
{
	return lfht_index_bucket(&ht->idx, index);
}

static inline unsigned long lfht_roundup_pow2(unsigned long x)
{
	if (x <= 1)
		return 1;
	if (x > LFHT_MAX_SIZE)
		return LFHT_MAX_SIZE;
	return 1UL << lfht_fls_long(x - 1);
}

#endif /* LFHT_CORE_H */
