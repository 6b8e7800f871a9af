/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <lfht/lfht_api.h> - the part of the cds_lfht API that user space and the
 * kernel share: nodes, iterators, lookups, updates, traversals.  Not for
 * direct inclusion: <lfht/rculfhash.h> (user space) and kernel/lfht.h
 * (kernel) include it after defining LFHT_API (symbol visibility),
 * LFHT_NODE_ALIGN and LFHT_CONTAINER_OF, and add the constructor and
 * destructor of their world.
 */
#ifndef LFHT_API_H
#define LFHT_API_H

struct cds_lfht;

/*
 * A node embedded in the caller's object.  @next carries two flag bits in
 * its low bits (removed, bucket), hence the 8-byte alignment.
 */
struct cds_lfht_node {
	struct cds_lfht_node *next;
	unsigned long reverse_hash;
} LFHT_NODE_ALIGN;

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
	(__extension__ ({						\
		__typeof__(ptr) lfht_entry_ptr_ = (ptr);		\
		lfht_entry_ptr_ ? LFHT_CONTAINER_OF(lfht_entry_ptr_,	\
					type, member) : NULL;		\
	}))

enum {
	CDS_LFHT_AUTO_RESIZE = (1U << 0),
	CDS_LFHT_ACCOUNTING = (1U << 1),
};

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

#endif /* LFHT_API_H */
