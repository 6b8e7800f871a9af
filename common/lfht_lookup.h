/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The read side of a lookup, inline: the bucket index and the walk along a
 * bucket's segment of the list.  Shared by the core (cds_lfht_lookup()) and
 * by the kernel's cds_lfht_lookup_inline(), which kernel/lfht.h offers so
 * that a constant match function is compiled into the caller's lookup with
 * no indirect call.  Include "lfht_env.h" first: this uses its
 * lfht_rcu_dereference, lfht_load_acquire, lfht_bswap_long, lfht_fls_long.
 */
#ifndef LFHT_LOOKUP_H
#define LFHT_LOOKUP_H

/* Flags in the low bits of a node's next pointer, describing that node. */
#define LFHT_REMOVED	1UL	/* logically deleted; next is frozen */
#define LFHT_BUCKET	2UL	/* a bucket node, not a caller's node */
#define LFHT_FLAGS	(LFHT_REMOVED | LFHT_BUCKET)

#define LFHT_BITS_PER_LONG	(sizeof(unsigned long) * 8)
/* Bucket table orders: order o holds buckets [2^(o-1), 2^o), order 1 also 0. */
#define LFHT_NR_ORDERS		LFHT_BITS_PER_LONG

/* What a lookup reads of a table: the first member of struct cds_lfht. */
struct lfht_index {
	/* Buckets in use, a power of two; written with release, read acquire. */
	unsigned long size;
	/*
	 * Bucket i is at base[fls(i | 1)] + i * sizeof(node): base[o] is the
	 * address of the table of order o less the offset of its first bucket,
	 * 2^(o-1), so that one load and one add find any bucket.
	 */
	uintptr_t base[LFHT_NR_ORDERS];
};

static inline struct cds_lfht_node *lfht_ptr(uintptr_t next)
{
	return (struct cds_lfht_node *)(next & ~LFHT_FLAGS);
}

static inline uintptr_t lfht_next_of(struct cds_lfht_node *node)
{
	/* Pairs with the cmpxchg that linked the successor: its fields are set. */
	return (uintptr_t)lfht_rcu_dereference(node->next);
}

/* Reverse the bits of a word: split order sorts by the reversed hash. */
static inline unsigned long lfht_bit_reverse(unsigned long x)
{
	const unsigned long m4 = ~0UL / 0xff * 0x0f;
	const unsigned long m2 = ~0UL / 0xff * 0x33;
	const unsigned long m1 = ~0UL / 0xff * 0x55;

	x = lfht_bswap_long(x);
	x = ((x >> 4) & m4) | ((x & m4) << 4);
	x = ((x >> 2) & m2) | ((x & m2) << 2);
	x = ((x >> 1) & m1) | ((x & m1) << 1);
	return x;
}

static inline struct cds_lfht_node *lfht_index_bucket(const struct lfht_index *idx,
						      unsigned long index)
{
	/* Bucket 0 is found through base[1]: the block holds buckets 0 and 1. */
	return (struct cds_lfht_node *)(idx->base[lfht_fls_long(index | 1)] +
					index * sizeof(struct cds_lfht_node));
}

/* The bucket whose segment holds @hash, for the size in use now. */
static inline struct cds_lfht_node *lfht_index_bucket_for(const struct lfht_index *idx,
							  unsigned long hash)
{
	/* Pairs with the release in publish_size(): the bucket is linked. */
	unsigned long size = lfht_load_acquire(idx->size);

	return lfht_index_bucket(idx, hash & (size - 1));
}

/*
 * First live node at or after @node with reverse hash @rev matching @key;
 * the walk ends at the first node that sorts after @rev.  Across match()
 * the walk keeps its place in @iter, so that only match, key and iter
 * need saving around the call (when it is not inlined).
 */
static inline void lfht_match_from(struct cds_lfht_node *node,
				   unsigned long rev,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	uintptr_t next;

	for (;;) {
		while (node && node->reverse_hash < rev)
			node = lfht_ptr(lfht_next_of(node));
		if (!node || node->reverse_hash != rev)
			break;
		next = lfht_next_of(node);
		if (!(next & LFHT_FLAGS)) {
			iter->node = node;
			iter->next = (struct cds_lfht_node *)next;
			if (match(node, key))
				return;
			node = iter->node;
			next = (uintptr_t)iter->next;
			rev = node->reverse_hash;
		}
		node = lfht_ptr(next);
	}
	iter->node = NULL;
	iter->next = NULL;
}

/* The whole lookup on a table's index; see cds_lfht_lookup(). */
static inline void lfht_index_lookup(const struct lfht_index *idx,
				     unsigned long hash,
				     cds_lfht_match_fct match, const void *key,
				     struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *bucket = lfht_index_bucket_for(idx, hash);

	lfht_match_from(lfht_ptr(lfht_next_of(bucket)), lfht_bit_reverse(hash),
			match, key, iter);
}

#endif /* LFHT_LOOKUP_H */
