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

struct cds_lfht;
struct rcu_flavor_struct;

/*
 * A node embedded in the caller's object.  @next carries two flag bits in
 * its low bits (removed, bucket), hence the 8-byte alignment.
 */
struct cds_lfht_node {
	struct cds_lfht_node *next;
	unsigned long reverse_hash;
} __attribute__((aligned(8)));

/* Position of a lookup or a traversal. */
struct cds_lfht_iter {
	struct cds_lfht_node *node, *next;
};

static inline struct cds_lfht_node *
cds_lfht_iter_get_node(struct cds_lfht_iter *iter)
{
	return iter->node;
}

typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

/* Kept for API compatibility: nodes need no initialisation before an add. */
static inline void cds_lfht_node_init(struct cds_lfht_node *node)
{
	(void)node;
}

/* Removed flag in a node's next pointer; see cds_lfht_is_node_deleted(). */
#define LFHT_NODE_REMOVED_FLAG 1UL

/*
 * cds_lfht_node_init_deleted - make a node that is not in any table look
 * deleted, so that cds_lfht_is_node_deleted() is true for it and
 * cds_lfht_del() fails with -ENOENT.
 */
static inline void cds_lfht_node_init_deleted(struct cds_lfht_node *node)
{
	cds_lfht_node_init(node);
	node->next = (struct cds_lfht_node *)LFHT_NODE_REMOVED_FLAG;
}

/* cds_lfht_entry - containing object of a node, or NULL for a NULL node. */
#define cds_lfht_entry(ptr, type, member)				\
	__extension__ ({						\
		__typeof__(ptr) lfht_entry_ptr_ = (ptr);		\
		lfht_entry_ptr_ ? caa_container_of(lfht_entry_ptr_,	\
					type, member) : NULL;		\
	})

enum {
	CDS_LFHT_AUTO_RESIZE = (1U << 0),
	CDS_LFHT_ACCOUNTING = (1U << 1),
};

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
 * @init_size: initial number of buckets, a power of two.
 * @min_nr_alloc_buckets: buckets that stay allocated, a power of two, and
 *	the smallest size a resize goes to; at most @init_size.
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
 * cds_lfht_count_nodes - the node count three ways: the split counters
 * before the traversal, the traversal, the split counters after (the
 * counters read 0 without CDS_LFHT_ACCOUNTING).  Read-side.
 */
extern LFHT_API void cds_lfht_count_nodes(struct cds_lfht *ht,
		long *split_count_before, unsigned long *count,
		long *split_count_after);

/* Find the first node with @hash for which @match(node, @key) is true. */
extern LFHT_API void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/* The next node after @iter with the same key, or NULL in iter->node. */
extern LFHT_API void cds_lfht_next_duplicate(struct cds_lfht *ht,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/* First node of the table, in split order. */
extern LFHT_API void cds_lfht_first(struct cds_lfht *ht,
		struct cds_lfht_iter *iter);

/* Node after @iter, in split order. */
extern LFHT_API void cds_lfht_next(struct cds_lfht *ht,
		struct cds_lfht_iter *iter);

/* Add @node; duplicates allowed.  Full barrier before and after. */
extern LFHT_API void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
		struct cds_lfht_node *node);

/*
 * Add @node unless a node matching @key is present.  Returns @node when
 * added, else the node present (then @node may be freed at once).
 */
extern LFHT_API struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht,
		unsigned long hash, cds_lfht_match_fct match,
		const void *key, struct cds_lfht_node *node);

/*
 * Add @node, atomically replacing a node matching @key if there is one.
 * Returns the replaced node (free it after a grace period) or NULL.
 */
extern LFHT_API struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht,
		unsigned long hash, cds_lfht_match_fct match,
		const void *key, struct cds_lfht_node *node);

/*
 * Replace the node at @old_iter with @new_node.  Returns 0, -ENOENT when the
 * old node is NULL or already removed, -EINVAL when the hash or key differ.
 */
extern LFHT_API int cds_lfht_replace(struct cds_lfht *ht,
		struct cds_lfht_iter *old_iter, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_node *new_node);

/*
 * Remove @node.  Returns 0, or -ENOENT for NULL or a node already removed.
 * Free it after a grace period.
 */
extern LFHT_API int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);

/* Non-zero when @node has been removed from its table. */
extern LFHT_API int cds_lfht_is_node_deleted(const struct cds_lfht_node *node);

/*
 * Resize to @new_size buckets (rounded up to a power of two and kept within
 * the table's limits) before returning.  Not from a read-side section.
 */
extern LFHT_API void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size);

/* liblfht extension: number of buckets in use now. */
extern LFHT_API unsigned long lfht_nr_buckets(struct cds_lfht *ht);

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

/*
 * Traversals; deleting or replacing the current node inside them is safe.
 * The _entry forms leave @pos NULL at the end (no container_of of NULL).
 */
#define cds_lfht_for_each(ht, iter, node)				\
	for (cds_lfht_first(ht, iter),					\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next(ht, iter),				\
			node = cds_lfht_iter_get_node(iter))

#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter))

#define cds_lfht_for_each_entry(ht, iter, pos, member)			\
	for (cds_lfht_first(ht, iter),					\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		cds_lfht_iter_get_node(iter) != NULL;			\
		cds_lfht_next(ht, iter),				\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key,		\
				iter, pos, member)			\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		cds_lfht_iter_get_node(iter) != NULL;			\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			pos = cds_lfht_entry(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* LFHT_RCULFHASH_H */
