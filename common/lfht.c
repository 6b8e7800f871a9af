// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * RCU-protected lock-free resizable hash table on a split-ordered list.
 *
 * All nodes of the table, the caller's and the bucket nodes, sit in one
 * singly linked list sorted by bit-reversed hash (Shalev & Shavit, J. ACM
 * 2006).  Bucket i is a next pointer alone, flagged as a bucket, that sorts
 * as reverse hash bit_reverse(i), before caller nodes with the same reverse
 * hash (that hash follows from its address: lfht_bucket_rev()); a table of
 * 2^k buckets is an index into that list, and growing only links new
 * buckets in.
 *
 * Deletion follows Michael (SPAA 2002): a node is first marked removed in
 * its own next pointer (which freezes that pointer), then unlinked by
 * whoever walks past it.  The thread whose cmpxchg set the mark owns the
 * removal and does not return before the node is unlinked, so that a grace
 * period after it returns ends every reference.  Replacement sets the mark
 * and links the new node behind the old one in the same cmpxchg, so a
 * reader meets exactly one of the two.
 *
 * Readers never write and never retry: a lookup is wait-free.  Updaters run
 * inside read-side critical sections, which also rules out ABA on their
 * cmpxchg: no node they hold can be freed and reused meanwhile.
 */
#include "lfht_core.h"

struct insert_walk {
	unsigned long size;	/* heads when the walk started */
	/*
	 * Hashes walked past that a table four times larger would put in
	 * other buckets, each counted once however many nodes share it.
	 * Hashes that share more low bits with ours, and runs of duplicates,
	 * do not count: growing would not split them, so keys made to
	 * collide (hash flooding) cannot make the table grow without end.
	 */
	unsigned long chain;
};

enum insert_mode {
	INSERT_DUPLICATE,	/* cds_lfht_add */
	INSERT_UNIQUE,		/* cds_lfht_add_unique */
	INSERT_REPLACE,		/* cds_lfht_add_replace */
};

/*
 * Unlink @cur, found removed behind @prev whose next pointer read @prev_next.
 * Returns the new value of prev->next, or 0 when prev changed under us and
 * the walk must restart.
 */
static uintptr_t unlink_after(struct cds_lfht_node *prev, uintptr_t prev_next,
			      uintptr_t cur_next)
{
	/* cur's successor, with its LFHT_TO_BUCKET; prev's own flag. */
	uintptr_t repl = (cur_next & ~LFHT_FLAGS) | (prev_next & LFHT_BUCKET);

	/* Full barrier; a reader that still holds cur follows its frozen next. */
	if ((uintptr_t)lfht_cmpxchg(&prev->next, (struct cds_lfht_node *)prev_next,
				    (struct cds_lfht_node *)repl) != prev_next)
		return 0;
	return repl;
}

/*
 * Swap @new in for @old: one cmpxchg marks old removed and points it at new,
 * which already points at old's successor.  A reader at old sees the mark
 * and moves on to new; one before old reaches old, then new.  Returns 0, or
 * -ENOENT when old was removed first.
 */
static int replace_node(struct cds_lfht *ht, unsigned long hash,
			struct cds_lfht_node *old, struct cds_lfht_node *new)
{
	uintptr_t old_next = lfht_next_of(old);
	uintptr_t seen;

	for (;;) {
		if (old_next & LFHT_REMOVED)
			return -ENOENT;
		LFHT_BUG_ON(old_next & LFHT_BUCKET);
		/* old's successor, with its LFHT_TO_BUCKET. */
		LFHT_STORE(new->next, (struct cds_lfht_node *)(old_next & ~LFHT_FLAGS));
		/* Full barrier: new->next is visible before new is reachable. */
		seen = (uintptr_t)lfht_cmpxchg(&old->next,
				(struct cds_lfht_node *)old_next,
				(struct cds_lfht_node *)((uintptr_t)new | LFHT_REMOVED));
		if (seen == old_next)
			break;
		old_next = seen;
	}
	lfht_unlink_removed(ht, hash, old->reverse_hash, old);
	return 0;
}

/*
 * Link @node, of reverse hash @rev (its reverse_hash set), behind every
 * node that sorts before or equal to it.  In unique
 * and replace modes a live node matching @key stops the walk: it is
 * returned (unique), or replaced and returned (replace).  Otherwise
 * returns NULL once @node is linked.  @walk gets the table size the last
 * walk used and the caller nodes of other hashes it walked past in that
 * bucket.  Inlined into each caller, whose constant @mode folds away its
 * tests: called, it cost 23 of 230 instructions per add in prologue.
 */
static LFHT_ALWAYS_INLINE struct cds_lfht_node *
insert(struct cds_lfht *ht, unsigned long hash, unsigned long rev,
	struct cds_lfht_node *node, enum insert_mode mode,
	cds_lfht_match_fct match, const void *key, struct insert_walk *walk)
{
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_next, cur_next;
	unsigned int split;	/* reverse-hash bits a 4x table compares */
	unsigned long counted;	/* the last reverse hash counted in chain */
	unsigned long r;	/* cur's reverse hash */
	unsigned long seq;

restart:
	walk->chain = 0;
	counted = rev;
	/* Pairs with the release in resize_end(): that resize's links are seen. */
	seq = lfht_load_acquire(ht->idx.seq);
	/* Pairs with the release in publish_size(): the bucket is linked. */
	walk->size = lfht_load_acquire(ht->idx.size);
	split = lfht_fls_long(walk->size) + 1;
	split = split < LFHT_BITS_PER_LONG ? split : LFHT_BITS_PER_LONG;
	prev = lfht_bucket_at(ht, hash & (walk->size - 1));
	prev_next = lfht_next_of(prev);
	/*
	 * A shrink is retiring this bucket: it has already published the
	 * smaller size, which the restart will read (sooner or later: no
	 * barrier needed for safety, the old bucket stays valid meanwhile).
	 */
	if (prev_next & LFHT_REMOVED)
		goto restart;
	for (;;) {
		/*
		 * If no resize ran, a pointer to a bucket points to the next
		 * segment's (see lfht_resize_ran()), which sorts after @rev:
		 * stop without loading it or reversing its index.
		 */
		if ((prev_next & LFHT_TO_BUCKET) &&
		    !lfht_resize_ran(&ht->idx, seq))
			break;
		cur = lfht_ptr(prev_next);
		if (!cur)
			break;
		cur_next = lfht_next_of(cur);
		if (cur_next & LFHT_REMOVED) {
			prev_next = unlink_after(prev, prev_next, cur_next);
			if (!prev_next)
				goto restart;
			continue;
		}
		r = cur_next & LFHT_BUCKET ?
			lfht_bucket_rev(&ht->idx, walk->size, cur, rev) :
			cur->reverse_hash;
		if (r > rev)
			break;
		if (r == rev) {
			if (mode != INSERT_DUPLICATE &&
			    !(cur_next & LFHT_BUCKET) && match(cur, key)) {
				if (mode == INSERT_UNIQUE)
					return cur;
				if (!replace_node(ht, hash, cur, node))
					return cur;
				goto restart;	/* cur was removed first */
			}
		} else if (!(cur_next & LFHT_BUCKET) &&
			   r != counted &&
			   (r ^ rev) >> (LFHT_BITS_PER_LONG - split)) {
			counted = r;
			walk->chain++;
		}
		prev = cur;
		prev_next = cur_next;
	}
	/* cur, with its LFHT_TO_BUCKET. */
	LFHT_STORE(node->next, (struct cds_lfht_node *)(prev_next & ~LFHT_FLAGS));
	/* Full barrier: node's fields are visible before node is reachable. */
	if ((uintptr_t)lfht_cmpxchg(&prev->next, (struct cds_lfht_node *)prev_next,
			(struct cds_lfht_node *)((uintptr_t)node |
						 (prev_next & LFHT_BUCKET))) != prev_next)
		goto restart;
	return NULL;
}

/*
 * The resizer's walks, from a bucket @parent to the place of @bucket, of
 * reverse hash @rev, in parent's segment.  Resizes are serialised, and
 * only the bucket being linked (or retired) sorts inside that segment:
 * any other bucket met is the next segment's, after @bucket.  So they
 * need neither the size nor lfht_bucket_rev(), and walk past at most the
 * parent's caller nodes that sort before @bucket (none, in an empty
 * table).  Returns prev, set to the node @bucket goes (or is) behind,
 * and its next pointer in @prev_next: @bucket itself, or what follows its
 * place if @bucket is not linked.  Returns NULL when prev changed under
 * the walk: start again.
 */
static LFHT_ALWAYS_INLINE struct cds_lfht_node *
bucket_place(struct cds_lfht_node *parent, struct cds_lfht_node *bucket,
	     unsigned long rev, uintptr_t *prev_next)
{
	struct cds_lfht_node *prev = parent, *cur;
	uintptr_t next = lfht_next_of(prev), cur_next;

	for (;;) {
		cur = lfht_ptr(next);
		if (cur == bucket || !cur || (next & LFHT_TO_BUCKET))
			break;
		cur_next = lfht_next_of(cur);
		if (cur_next & LFHT_REMOVED) {
			next = unlink_after(prev, next, cur_next);
			if (!next)
				return NULL;
			continue;
		}
		if (cur->reverse_hash >= rev)
			break;	/* buckets sort first among equals */
		prev = cur;
		next = cur_next;
	}
	*prev_next = next;
	return prev;
}

void lfht_link_bucket(struct cds_lfht_node *parent,
		      struct cds_lfht_node *bucket, unsigned long rev)
{
	struct cds_lfht_node *prev;
	uintptr_t next;

	do {
		while (!(prev = bucket_place(parent, bucket, rev, &next)))
			;
		/* What follows, with its LFHT_TO_BUCKET; a bucket's own flag. */
		LFHT_STORE(bucket->next, (struct cds_lfht_node *)
			   ((next & ~LFHT_FLAGS) | LFHT_BUCKET));
		/* Full barrier: bucket->next is visible before bucket is reachable. */
	} while ((uintptr_t)lfht_cmpxchg(&prev->next, (struct cds_lfht_node *)next,
			(struct cds_lfht_node *)((uintptr_t)bucket | LFHT_TO_BUCKET |
						 (next & LFHT_BUCKET))) != next);
}

/*
 * Unlink @bucket, marked removed, from behind @parent.  When it returns,
 * @bucket is unlinked: by this walk, or by another that met it.
 */
void lfht_unlink_bucket(struct cds_lfht_node *parent,
			struct cds_lfht_node *bucket, unsigned long rev)
{
	struct cds_lfht_node *prev;
	uintptr_t next;

	do {
		prev = bucket_place(parent, bucket, rev, &next);
		if (prev && lfht_ptr(next) != bucket)
			return;	/* another walk unlinked it */
	} while (!prev || !unlink_after(prev, next, lfht_next_of(bucket)));
}

/*
 * Walk the segment of @hash up to @node, removed, of reverse hash
 * @reverse_hash, unlinking every removed node on the way.  When it
 * returns, @node is unlinked: by this walk, which then stops without
 * loading what follows (at 2^20 keys a cache miss per delete), or by
 * another, and this one passed where it sorted.
 */
void lfht_unlink_removed(struct cds_lfht *ht, unsigned long hash,
			 unsigned long reverse_hash, struct cds_lfht_node *node)
{
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_next, cur_next;
	unsigned long size, r, seq;

restart:
	/* Pairs with the release in resize_end(): that resize's links are seen. */
	seq = lfht_load_acquire(ht->idx.seq);
	/* Pairs with the release in publish_size(): the bucket is linked. */
	size = lfht_load_acquire(ht->idx.size);
	prev = lfht_bucket_at(ht, hash & (size - 1));
	prev_next = lfht_next_of(prev);
	if (prev_next & LFHT_REMOVED)
		goto restart;	/* bucket being retired, as in insert() */
	for (;;) {
		/* The next segment's bucket if no resize ran, as in insert(). */
		if ((prev_next & LFHT_TO_BUCKET) &&
		    !lfht_resize_ran(&ht->idx, seq))
			return;
		cur = lfht_ptr(prev_next);
		if (!cur)
			return;
		cur_next = lfht_next_of(cur);
		if (cur_next & LFHT_REMOVED) {
			prev_next = unlink_after(prev, prev_next, cur_next);
			if (!prev_next)
				goto restart;
			/* Its mark stops links behind it: prev was its only way in. */
			if (cur == node)
				return;
			continue;
		}
		r = cur_next & LFHT_BUCKET ?
			lfht_bucket_rev(&ht->idx, size, cur, reverse_hash) :
			cur->reverse_hash;
		if (r > reverse_hash)
			return;
		prev = cur;
		prev_next = cur_next;
	}
}

/* Inline, as is added(): called, the two cost 20 instructions per add. */
static LFHT_ALWAYS_INLINE void account(struct cds_lfht *ht, long delta)
{
	long local;

	if (!(ht->flags & CDS_LFHT_ACCOUNTING))
		return;
	local = lfht_env_counter_add(&ht->count, delta);
	/* The total is looked at when a CPU's count crosses a multiple. */
	if (!((unsigned long)local & (LFHT_COUNT_BATCH - 1)))
		lfht_count_changed(ht, delta);
}

/*
 * A node was linked by @walk.  Growth is asked relative to the size that
 * walk used: a chain seen in a smaller table says nothing about a larger.
 */
static LFHT_ALWAYS_INLINE void added(struct cds_lfht *ht,
				    const struct insert_walk *walk)
{
	account(ht, 1);
	if (walk->chain >= LFHT_CHAIN_GROW && (ht->flags & CDS_LFHT_AUTO_RESIZE))
		lfht_request_grow(ht, walk->size, walk->chain);
}

/**
 * cds_lfht_add - add a node, duplicates allowed
 * @ht: the table
 * @hash: the node's hash
 * @node: the node to add
 *
 * Call within an RCU read-side critical section.  Issues a full memory
 * barrier before and after the cmpxchg that links the node.
 */
void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
		  struct cds_lfht_node *node)
{
	struct insert_walk walk;

	lfht_env_check_reader(&ht->env);
	node->reverse_hash = lfht_bit_reverse(hash);
	insert(ht, hash, node->reverse_hash, node, INSERT_DUPLICATE, NULL, NULL,
	       &walk);
	added(ht, &walk);
}
LFHT_EXPORT(cds_lfht_add);

/**
 * cds_lfht_add_unique - add a node unless its key is present
 * @ht: the table
 * @hash: the node's hash
 * @match: key comparison
 * @key: the node's key
 * @node: the node to add
 *
 * Return: @node when it was added, else the node already present (then
 * @node was never visible and may be freed at once).  Call within an RCU
 * read-side critical section.
 */
struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht,
					  unsigned long hash,
					  cds_lfht_match_fct match,
					  const void *key,
					  struct cds_lfht_node *node)
{
	struct cds_lfht_node *found;
	struct insert_walk walk;

	lfht_env_check_reader(&ht->env);
	node->reverse_hash = lfht_bit_reverse(hash);
	found = insert(ht, hash, node->reverse_hash, node, INSERT_UNIQUE, match,
		       key, &walk);
	if (found)
		return found;
	added(ht, &walk);
	return node;
}
LFHT_EXPORT(cds_lfht_add_unique);

/**
 * cds_lfht_add_replace - add a node, replacing the node with its key
 * @ht: the table
 * @hash: the node's hash
 * @match: key comparison
 * @key: the node's key
 * @node: the node to add
 *
 * Return: the node replaced, to be freed after a grace period, or NULL when
 * none matched and @node was added.  Lookups concurrent with the
 * replacement find exactly one of the two nodes.  Call within an RCU
 * read-side critical section.
 */
struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht,
					   unsigned long hash,
					   cds_lfht_match_fct match,
					   const void *key,
					   struct cds_lfht_node *node)
{
	struct cds_lfht_node *old;
	struct insert_walk walk;

	lfht_env_check_reader(&ht->env);
	node->reverse_hash = lfht_bit_reverse(hash);
	old = insert(ht, hash, node->reverse_hash, node, INSERT_REPLACE, match,
		     key, &walk);
	if (!old)
		added(ht, &walk);
	return old;
}
LFHT_EXPORT(cds_lfht_add_replace);

/**
 * cds_lfht_replace - replace the node at an iterator
 * @ht: the table
 * @old_iter: position of the node to replace
 * @hash: the hash of both nodes
 * @match: key comparison
 * @key: the key of both nodes
 * @new_node: the replacement
 *
 * Return: 0; -ENOENT when the old node is NULL or already removed; -EINVAL
 * when its hash or key is not @hash and @key.  Call within the RCU
 * read-side critical section that found the old node.
 */
int cds_lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
		     unsigned long hash, cds_lfht_match_fct match,
		     const void *key, struct cds_lfht_node *new_node)
{
	struct cds_lfht_node *old = old_iter->node;
	unsigned long rev = lfht_bit_reverse(hash);

	lfht_env_check_reader(&ht->env);
	if (!old)
		return -ENOENT;
	if (old->reverse_hash != rev || !match(old, key))
		return -EINVAL;
	new_node->reverse_hash = rev;
	return replace_node(ht, hash, old, new_node);
}
LFHT_EXPORT(cds_lfht_replace);

/**
 * cds_lfht_del - remove a node
 * @ht: the table
 * @node: the node, found by a lookup or a traversal
 *
 * Return: 0, or -ENOENT when @node is NULL or already removed.  The node
 * is unlinked when this returns; free it after a grace period.  Call
 * within the RCU read-side critical section that found it.
 */
int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	uintptr_t next, seen;

	lfht_env_check_reader(&ht->env);
	if (!node)
		return -ENOENT;
	next = lfht_next_of(node);
	for (;;) {
		if (next & LFHT_REMOVED)
			return -ENOENT;
		LFHT_BUG_ON(next & LFHT_BUCKET);
		/* Full barrier; the mark freezes next and makes us the owner. */
		seen = (uintptr_t)lfht_cmpxchg(&node->next,
				(struct cds_lfht_node *)next,
				(struct cds_lfht_node *)(next | LFHT_REMOVED));
		if (seen == next)
			break;
		next = seen;
	}
	lfht_unlink_removed(ht, lfht_bit_reverse(node->reverse_hash),
			    node->reverse_hash, node);
	account(ht, -1);
	return 0;
}
LFHT_EXPORT(cds_lfht_del);

/**
 * cds_lfht_is_node_deleted - whether a node has been removed
 * @node: a node found by a lookup or a traversal
 *
 * Return: non-zero once @node is removed (or replaced).  No barrier.
 */
int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	return ((uintptr_t)LFHT_LOAD(node->next) & LFHT_REMOVED) != 0;
}
LFHT_EXPORT(cds_lfht_is_node_deleted);

/* First live caller node at or after @node, into @iter. */
static void live_from(struct cds_lfht_node *node, struct cds_lfht_iter *iter)
{
	uintptr_t next = 0;

	while (node) {
		next = lfht_next_of(node);
		if (!(next & LFHT_FLAGS))
			break;
		node = lfht_ptr(next);
	}
	iter->node = node;
	iter->next = (struct cds_lfht_node *)next;
}

/**
 * cds_lfht_lookup - find the first node with a key
 * @ht: the table
 * @hash: the key's hash
 * @match: key comparison
 * @key: the key
 * @iter: receives the node, or NULL
 *
 * Wait-free.  Call within an RCU read-side critical section; acts as
 * rcu_dereference() for the node.
 */
void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
		     cds_lfht_match_fct match, const void *key,
		     struct cds_lfht_iter *iter)
{
	lfht_env_check_reader(&ht->env);
	lfht_index_lookup(&ht->idx, hash, match, key, iter);
}
LFHT_EXPORT(cds_lfht_lookup);

/**
 * cds_lfht_next_duplicate - next node with the key of the iterator's node
 * @ht: the table
 * @match: key comparison
 * @key: the key
 * @iter: position from a lookup or traversal; receives the next node or NULL
 */
void cds_lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
			     const void *key, struct cds_lfht_iter *iter)
{
	lfht_env_check_reader(&ht->env);
	lfht_match_walk(&ht->idx, (uintptr_t)iter->next,
			iter->node->reverse_hash, match, key, iter);
}
LFHT_EXPORT(cds_lfht_next_duplicate);

/**
 * cds_lfht_first - first node of the table in split order
 * @ht: the table
 * @iter: receives the node, or NULL for an empty table
 *
 * A traversal sees exactly once every node that stays in the table while
 * it runs, resizes included.
 */
void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_env_check_reader(&ht->env);
	live_from(lfht_ptr(lfht_next_of(ht->block)), iter);
}
LFHT_EXPORT(cds_lfht_first);

/**
 * cds_lfht_next - the node after the iterator's in split order
 * @ht: the table
 * @iter: current position; receives the next node, or NULL at the end
 */
void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_env_check_reader(&ht->env);
	live_from(lfht_ptr((uintptr_t)iter->next), iter);
}
LFHT_EXPORT(cds_lfht_next);

/**
 * cds_lfht_count_nodes - count the nodes
 * @ht: the table
 * @split_count_before: the accounting counters before the traversal
 * @count: live nodes seen by a traversal
 * @split_count_after: the accounting counters after it
 *
 * The counters read 0 for a table without CDS_LFHT_ACCOUNTING.  Call within
 * an RCU read-side critical section.
 */
void cds_lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
			  unsigned long *count, long *split_count_after)
{
	int accounting = ht->flags & CDS_LFHT_ACCOUNTING;
	struct cds_lfht_iter iter;
	unsigned long n = 0;

	*split_count_before = accounting ? lfht_env_counter_sum(&ht->count) : 0;
	for (cds_lfht_first(ht, &iter); iter.node; cds_lfht_next(ht, &iter))
		n++;
	*count = n;
	*split_count_after = accounting ? lfht_env_counter_sum(&ht->count) : 0;
}
LFHT_EXPORT(cds_lfht_count_nodes);

/*
 * Whether any caller node, even one being removed, is still linked.  On
 * the way, asserts that each pointer's LFHT_TO_BUCKET says what it points
 * to (destroy calls this, so every test checks the buckets' links).
 */
int lfht_is_empty(struct cds_lfht *ht)
{
	uintptr_t link = (uintptr_t)ht->block | LFHT_TO_BUCKET, next;
	struct cds_lfht_node *node;

	for (; (node = lfht_ptr(link)); link = next) {
		next = lfht_next_of(node);
		LFHT_BUG_ON(!(link & LFHT_TO_BUCKET) != !(next & LFHT_BUCKET));
		if (!(next & LFHT_BUCKET))
			return 0;
	}
	LFHT_BUG_ON(!(link & LFHT_TO_BUCKET));	/* the end is tagged too */
	return 1;
}

/**
 * lfht_nr_buckets - number of buckets in use
 * @ht: the table
 *
 * Buckets as cds_lfht_new() and cds_lfht_resize() count them: each is two
 * list heads, 16 bytes.
 */
unsigned long lfht_nr_buckets(struct cds_lfht *ht)
{
	return lfht_load_acquire(ht->idx.size) >> LFHT_HEAD_SHIFT;
}
LFHT_EXPORT(lfht_nr_buckets);

/* A head's live caller nodes. */
static unsigned long head_chain(struct cds_lfht *ht, unsigned long i)
{
	struct cds_lfht_node *node;
	unsigned long len = 0;
	uintptr_t link, next;

	for (link = lfht_next_of(lfht_bucket_at(ht, i));
	     (node = lfht_ptr(link)); link = next) {
		next = lfht_next_of(node);
		/* The pointer's LFHT_TO_BUCKET says what it points to. */
		LFHT_BUG_ON(!(link & LFHT_TO_BUCKET) != !(next & LFHT_BUCKET));
		if (next & LFHT_BUCKET)
			break;
		if (!(next & LFHT_REMOVED))
			len++;
	}
	return len;
}

/* Chain length statistics: caller nodes per bucket at the size in use. */
void lfht_get_stats(struct cds_lfht *ht, struct lfht_stats *stats)
{
	unsigned long i, h, len, heads = lfht_load_acquire(ht->idx.size);
	unsigned long size = heads >> LFHT_HEAD_SHIFT;
	unsigned int slot;

	*stats = (struct lfht_stats){ .buckets = size };
	stats->grows = LFHT_LOAD(ht->nr_grows);
	stats->shrinks = LFHT_LOAD(ht->nr_shrinks);
	stats->resize_pending = LFHT_LOAD(ht->grow_hint) != 0;
	for (i = 0; i < size; i++) {
		/* Bucket i's heads: i, i + size, ... (see LFHT_HEAD_SHIFT). */
		for (len = 0, h = i; h < heads; h += size)
			len += head_chain(ht, h);
		stats->nodes += len;
		if (len > stats->longest_chain)
			stats->longest_chain = len;
		slot = len < 4 ? (unsigned int)len : lfht_fls_long(len) + 1;
		stats->chain_hist[slot < 8 ? slot : 7]++;
	}
	stats->chain_alert = stats->longest_chain >
			     4 * ((stats->nodes + size - 1) / size) + 16;
}

struct cds_lfht *lfht_table_new(unsigned long init_size,
				unsigned long min_size,
				unsigned long max_size, int flags,
				const struct lfht_env_config *cfg)
{
	struct cds_lfht *ht;

	if (!max_size)
		max_size = LFHT_MAX_SIZE >> LFHT_HEAD_SHIFT;
	if (!lfht_is_pow2(init_size) || !lfht_is_pow2(min_size) ||
	    !lfht_is_pow2(max_size) || min_size > init_size ||
	    max_size < init_size || max_size > LFHT_MAX_SIZE >> LFHT_HEAD_SHIFT)
		return NULL;
	/* From buckets to heads, which every size inside counts. */
	init_size <<= LFHT_HEAD_SHIFT;
	min_size <<= LFHT_HEAD_SHIFT;
	max_size <<= LFHT_HEAD_SHIFT;
	ht = lfht_env_zalloc(sizeof(*ht));
	if (!ht)
		return NULL;
	ht->min_size = min_size;
	ht->init_size = init_size;
	/* Order 1 at least: lfht_bucket_at() finds bucket 0 through it. */
	ht->block_order = min_size > 2 ? lfht_fls_long(min_size) - 1 : 1;
	ht->max_size = max_size;
	ht->flags = flags;
	lfht_env_mutex_init(&ht->resize_mutex);
	if ((flags & CDS_LFHT_ACCOUNTING) && lfht_env_counter_init(&ht->count))
		goto fail_counter;
	if (lfht_env_table_init(&ht->env, cfg, flags & CDS_LFHT_AUTO_RESIZE,
				lfht_resize_work, ht))
		goto fail_env;
	if (lfht_tables_init(ht, init_size))
		goto fail_tables;
	return ht;

fail_tables:
	lfht_env_table_fini(&ht->env);
fail_env:
	if (flags & CDS_LFHT_ACCOUNTING)
		lfht_env_counter_destroy(&ht->count);
fail_counter:
	lfht_env_mutex_destroy(&ht->resize_mutex);
	lfht_env_free(ht);
	return NULL;
}

int lfht_table_destroy(struct cds_lfht *ht)
{
	int token;

	/* Seen by the worker under resize_mutex: no resize starts any more. */
	LFHT_STORE(ht->destroying, 1);
	token = lfht_env_blocking_begin(&ht->env);
	lfht_env_flush_work(&ht->env);
	lfht_env_blocking_end(&ht->env, token);
	if (!lfht_is_empty(ht)) {
		LFHT_STORE(ht->destroying, 0);
		/*
		 * A worker that ran during the flush did nothing and left
		 * grow_hint set, so later adds asking for no more than it
		 * would not queue work again: run it now.
		 */
		lfht_env_queue_work(&ht->env);
		return -EPERM;
	}
	lfht_env_table_fini(&ht->env);
	lfht_tables_free(ht);
	if (ht->flags & CDS_LFHT_ACCOUNTING)
		lfht_env_counter_destroy(&ht->count);
	lfht_env_mutex_destroy(&ht->resize_mutex);
	lfht_env_free(ht);
	return 0;
}
