/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The read side of a lookup, inline: the bucket index and the walk along a
 * bucket's segment of the list.  Shared by the core (cds_lfht_lookup()) and
 * by the kernel's cds_lfht_lookup_inline(), which kernel/lfht.h offers so
 * that a constant match function is compiled into the caller's lookup with
 * no indirect call.  Include "lfht_env.h" first: this uses its
 * lfht_rcu_dereference, lfht_load_acquire, LFHT_LOAD, lfht_smp_rmb,
 * lfht_bswap_long, lfht_fls_long and LFHT_BUG_ON.
 */
#ifndef LFHT_LOOKUP_H
#define LFHT_LOOKUP_H

/* Flags in the low bits of a node's next pointer, describing that node. */
#define LFHT_REMOVED	1UL	/* logically deleted; next is frozen */
#define LFHT_BUCKET	2UL	/* a bucket node, not a caller's node */
#define LFHT_FLAGS	(LFHT_REMOVED | LFHT_BUCKET)
/*
 * And one describing what it points to: a bucket node, or the end of the
 * list (NULL).  Whoever writes a pointer to a bucket sets it; the list's
 * last pointer has it from the start, and a pointer copied along keeps it.
 * A lookup that sees it knows, with no further load, that its walk has
 * reached the next bucket (see lfht_resize_ran()) or the end.
 */
#define LFHT_TO_BUCKET	4UL

#define LFHT_BITS_PER_LONG	(sizeof(unsigned long) * 8)
/*
 * A bucket is only the next pointer of a node: the list code reads and
 * writes nothing else of a node that LFHT_BUCKET (in its own next) or
 * LFHT_TO_BUCKET (in the pointer to it) says is a bucket.  Its reverse hash
 * follows from its address (lfht_bucket_rev()).  Half the memory of a
 * whole node: at the same bytes, twice the buckets and half the load.
 */
#define LFHT_BUCKET_SIZE	sizeof(((struct cds_lfht_node *)0)->next)
/* Bucket table orders: order o holds buckets [2^(o-1), 2^o), order 1 also 0. */
#define LFHT_NR_ORDERS		LFHT_BITS_PER_LONG

/* What a lookup reads of a table: the first member of struct cds_lfht. */
struct lfht_index {
	/*
	 * List heads in use (two per API bucket, LFHT_HEAD_SHIFT), a power
	 * of two; written with release, read acquire.
	 */
	unsigned long size;
	/*
	 * Resize sequence: odd while a resize may have buckets linked that
	 * the published size does not cover (a grow's new ones, a shrink's
	 * retired ones), even otherwise.  Only lookups read it.
	 */
	unsigned long seq;
	/*
	 * Bucket i is at base[fls(i | 1)] + i * LFHT_BUCKET_SIZE: base[o] is
	 * the address of the table of order o less the offset of its first
	 * bucket, 2^(o-1), so that one load and one add find any bucket.
	 * Written with LFHT_STORE; 0 for an order not allocated.
	 */
	uintptr_t base[LFHT_NR_ORDERS];
};

static inline struct cds_lfht_node *lfht_ptr(uintptr_t next)
{
	return (struct cds_lfht_node *)(next & ~(LFHT_FLAGS | LFHT_TO_BUCKET));
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
					index * LFHT_BUCKET_SIZE);
}

/*
 * The reverse hash of the bucket @p, met by a walk in the segment of @rev
 * at @size heads.  Most often @p is the bucket after that segment: one
 * address compare.  Otherwise a resize linked it (or @size is stale), and
 * its index is found from its address, in the table whose range holds it.
 */
static inline unsigned long lfht_bucket_rev(const struct lfht_index *idx,
					    unsigned long size,
					    const struct cds_lfht_node *p,
					    unsigned long rev)
{
	unsigned int o, k = lfht_fls_long(size) - 1;	/* size is 2^k */
	/* The first reverse hash of the next segment; 0 after the last. */
	unsigned long nrev = (rev | (~0UL >> k)) + 1, i;
	uintptr_t base;

	/* The caller read @size with acquire: the base covering it is seen. */
	if (nrev && lfht_index_bucket(idx, lfht_bit_reverse(nrev)) == p)
		return nrev;
	/*
	 * Pairs with the full barrier of the cmpxchg that linked @p, which
	 * set_order_table() preceded: @p's base is seen, and so are the
	 * zeroes of tables freed before it was allocated.
	 */
	lfht_smp_rmb();
	/* Orders below a bucket's still linked, or held, have their tables. */
	for (o = 1; o < LFHT_NR_ORDERS && (base = LFHT_LOAD(idx->base[o])); o++) {
		/* Wraps when @p is below: then i < 2^(o-1) or fls(i) > o. */
		i = ((uintptr_t)p - base) / LFHT_BUCKET_SIZE;
		if (lfht_fls_long(i | 1) == o)
			return lfht_bit_reverse(i);
	}
	LFHT_BUG_ON(1);	/* @p is no linked bucket */
	return ~0UL;
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
 * Whether a walk (a lookup's, or an update's in lfht.c) that read sequence
 * @seq and met a pointer to a bucket node must walk on (nonzero): it may
 * stop if no resize ran meanwhile.  Then every linked bucket is one of the
 * size it read, and the next one in the list sorts after every hash of the
 * bucket it started from.  Otherwise it must walk on: a grow may have
 * linked a bucket inside its segment, or a shrink may have retired one
 * there.
 */
static inline unsigned long lfht_resize_ran(const struct lfht_index *idx,
					    unsigned long seq)
{
	/* Pairs with the smp_wmb() in resize_begin(): the walk's loads come first. */
	lfht_smp_rmb();
	/* With no branch: the caller tests it together with other conditions. */
	return (LFHT_LOAD(idx->seq) ^ seq) | (seq & 1);
}

/*
 * First live node after the pointer @next with reverse hash @rev matching
 * @key; the walk ends at the first node that sorts after @rev.  Across
 * match() the walk keeps its place in @iter, so that only match, key and
 * iter need saving around the call (when it is not inlined).
 */
static inline void lfht_match_walk(const struct lfht_index *idx,
				   uintptr_t next, unsigned long rev,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *node;
	unsigned long size;

	for (;;) {
		node = lfht_ptr(next);
		if (!node)
			break;
		if (next & LFHT_TO_BUCKET) {
			/* Pairs with publish_size(): its base is set. */
			size = lfht_load_acquire(idx->size);
			if (lfht_bucket_rev(idx, size, node, rev) > rev)
				break;
			next = lfht_next_of(node);
			continue;
		}
		if (node->reverse_hash > rev)
			break;
		next = lfht_next_of(node);
		if (node->reverse_hash < rev || (next & LFHT_FLAGS))
			continue;
		iter->node = node;
		iter->next = (struct cds_lfht_node *)next;
		if (match(node, key))
			return;
		next = (uintptr_t)iter->next;
		rev = iter->node->reverse_hash;
	}
	iter->node = NULL;
	iter->next = NULL;
}

/*
 * What lfht_match_from() reads in place of a pointer to a bucket: it sorts
 * after every reverse hash below ~0UL and, flagged as a bucket, is never a
 * candidate.  It stays in cache, and the walk picks it with a mask, not a
 * branch, so that each step keeps one unpredictable branch (r < rev).
 */
static inline struct cds_lfht_node *lfht_stand_in(void)
{
	static const struct cds_lfht_node stand_in = {
		.next = (struct cds_lfht_node *)LFHT_BUCKET,
		.reverse_hash = ~0UL,
	};

	return (struct cds_lfht_node *)&stand_in;
}

/*
 * lfht_match_walk() for a lookup that read @seq from @idx before its size:
 * up to the first candidate, a pointer to a bucket (or the end) reads as
 * lfht_stand_in(), which saves the load of a bucket node elsewhere in
 * memory (an empty bucket's, or the next bucket's for the last key of a
 * segment).  Only a walk that ends there asks lfht_resize_ran() whether it
 * may stop; if not, it walks on from the real bucket.  After a candidate
 * that does not match (equal hashes: rare), it walks on as
 * lfht_match_walk() does, so that @seq need not be saved across match().
 */
static inline void lfht_match_from(const struct lfht_index *idx,
				   unsigned long seq, uintptr_t next,
				   unsigned long rev,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *node, *stand_in = lfht_stand_in();
	uintptr_t succ, tag;
	unsigned long r;

	for (;;) {
		/*
		 * The end of the list is tagged too: one test for both.  A
		 * mask, not a ?:, which compilers turn back into a branch.
		 */
		tag = 0 - (next & LFHT_TO_BUCKET);	/* bits 2 and up */
		node = lfht_ptr(next ^ ((next ^ (uintptr_t)stand_in) & tag));
		r = node->reverse_hash;
		succ = lfht_next_of(node);
		if (r < rev) {
			next = succ;
			continue;
		}
		if (r != rev)
			break;
		if (!(succ & LFHT_FLAGS))
			goto candidate;
		if (node == stand_in)	/* rev is ~0UL */
			break;
		next = succ;
	}
	iter->node = NULL;
	iter->next = NULL;
	/*
	 * Whether the walk ended at a node or at a bucket is a coin toss: one
	 * branch on both conditions, taken only when a resize ran, whose
	 * buckets may sit inside the segment (at the end of the list, NULL,
	 * lfht_match_walk() returns at once).
	 */
	if ((node == stand_in) & (lfht_resize_ran(idx, seq) != 0))
		lfht_match_walk(idx, next, rev, match, key, iter);
	return;
candidate:
	iter->node = node;
	iter->next = (struct cds_lfht_node *)succ;
	if (match(node, key))
		return;
	lfht_match_walk(idx, (uintptr_t)iter->next, iter->node->reverse_hash,
			match, key, iter);
}

/* The whole lookup on a table's index; see cds_lfht_lookup(). */
static inline void lfht_index_lookup(const struct lfht_index *idx,
				     unsigned long hash,
				     cds_lfht_match_fct match, const void *key,
				     struct cds_lfht_iter *iter)
{
	/* Pairs with the release in resize_end(): that resize's links are seen. */
	unsigned long seq = lfht_load_acquire(idx->seq);
	struct cds_lfht_node *bucket = lfht_index_bucket_for(idx, hash);

	lfht_match_from(idx, seq, lfht_next_of(bucket), lfht_bit_reverse(hash),
			match, key, iter);
}

#endif /* LFHT_LOOKUP_H */
