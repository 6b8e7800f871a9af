// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Bucket tables and resizing.
 *
 * Buckets of order o (indexes [2^(o-1), 2^o); bucket 0 goes with order 1)
 * live in their own table, allocated when the size first reaches 2^o and
 * freed a grace period after it drops below.  The first min_size buckets, and
 * buckets 0 and 1 in any case, share one block that lives as long as the
 * table.
 *
 * Growing links each new bucket node into the list behind its parent (its
 * index with the top bit cleared), then publishes the doubled size.
 * Shrinking publishes the halved size first, so new walks start from the
 * lower buckets, then marks the retired bucket nodes removed and unlinks
 * them like any removed node, and frees their table after a grace period,
 * when no walk that read the old size can still hold them.
 *
 * Resizes run one at a time under resize_mutex: either in the caller of
 * cds_lfht_resize() or, for CDS_LFHT_AUTO_RESIZE, in the deferred worker.
 */
#include "lfht_core.h"

/* Buckets linked between two quiescent states of a long resize. */
#define LFHT_RESIZE_BATCH	1024UL

static void publish_size(struct cds_lfht *ht, unsigned long size)
{
	/* Pairs with the acquire in lfht_index_bucket_for(): new buckets are linked. */
	lfht_store_release(ht->idx.size, size);
}

/*
 * Bracket a resize for lookups (lfht_resize_ran()): the sequence is odd
 * from before a grow links its first bucket, or a shrink publishes its
 * smaller size, until the list holds only buckets the published size
 * covers.  Resizes are serialised, so plain increments do.
 */
static void resize_begin(struct cds_lfht *ht)
{
	LFHT_STORE(ht->idx.seq, ht->idx.seq + 1);
	/* Pairs with the smp_rmb() in lfht_resize_ran(): odd before any link. */
	lfht_smp_wmb();
}

static void resize_end(struct cds_lfht *ht)
{
	/* Pairs with the acquire in lfht_index_lookup(): the links come first. */
	lfht_store_release(ht->idx.seq, ht->idx.seq + 1);
}

/*
 * Step @j of a long walk by the resizer, inside a read-side section: every
 * LFHT_RESIZE_BATCH steps, end it and start another, with a quiescent state
 * between them so grace periods end meanwhile (qsbr).  Inline, so that
 * sparse checks the lock balance in the caller's loop.
 */
static inline void batch_point(struct cds_lfht *ht, unsigned long j)
{
	if (!j || j % LFHT_RESIZE_BATCH)
		return;
	lfht_env_read_unlock(&ht->env);
	lfht_env_quiescent(&ht->env);
	lfht_env_read_lock(&ht->env);
}

/*
 * bit_reverse(i + 1) from @r = bit_reverse(i), i + 1 < 2^(BITS - 1): the
 * carry runs down from the top bit through the ones, to the first zero.
 */
static inline unsigned long rev_inc(unsigned long r)
{
	return r ^ (~0UL << (lfht_fls_long(~r) - 1));
}

/* Link bucket @j of @table, of reverse hash @rev, behind parent bucket @j. */
static inline void link_one(struct cds_lfht *ht, char *table, unsigned long j,
			    unsigned long rev)
{
	lfht_link_bucket(lfht_bucket_at(ht, j), (struct cds_lfht_node *)
			 (table + j * LFHT_BUCKET_SIZE), rev);
}

/*
 * Link buckets [len, 2 * len), their table set, for a size going to 2 * len:
 * each behind its parent, its index with the top bit cleared.  A table
 * still being created is private to its creator, which need not be an RCU
 * reader yet: it links without read-side sections.
 */
static void link_buckets(struct cds_lfht *ht, unsigned long len, int shared)
{
	char *table = (char *)lfht_bucket_at(ht, len);	/* [len, 2 * len) */
	unsigned long j, rev = lfht_bit_reverse(len);

	if (!shared) {
		for (j = 0; j < len; j++, rev = rev_inc(rev))
			link_one(ht, table, j, rev);
		return;
	}
	lfht_env_read_lock(&ht->env);
	for (j = 0; j < len; j++, rev = rev_inc(rev)) {
		batch_point(ht, j);
		link_one(ht, table, j, rev);
	}
	lfht_env_read_unlock(&ht->env);
}

/* The table of order @order >= 1: buckets [2^(order-1), 2^order). */
static void *order_table(struct cds_lfht *ht, unsigned int order)
{
	return lfht_bucket_at(ht, 1UL << (order - 1));
}

/*
 * Lookups use base[order] only after reading a size that covers it (the
 * acquire in lfht_index_bucket_for(), paired with publish_size()'s
 * release); lfht_bucket_rev() only after reaching a bucket of @tbl, or
 * after a later table's (its smp_rmb() pairs with the cmpxchg linking it).
 */
static void set_order_table(struct cds_lfht *ht, unsigned int order,
			    void *tbl)
{
	LFHT_STORE(ht->idx.base[order],
		   tbl ? (uintptr_t)tbl - (LFHT_BUCKET_SIZE << (order - 1)) : 0);
}

int lfht_tables_init(struct cds_lfht *ht, unsigned long init_size)
{
	unsigned long len;
	unsigned int order;
	char *block;
	void *tbl;

	block = lfht_env_zalloc(LFHT_BUCKET_SIZE << ht->block_order);
	if (!block)
		return -ENOMEM;
	ht->block = (struct cds_lfht_node *)block;
	for (order = 1; order <= ht->block_order; order++)
		set_order_table(ht, order, block + (LFHT_BUCKET_SIZE << (order - 1)));
	/* Bucket 0 heads the list; the others are linked as the size grows. */
	ht->block->next = (struct cds_lfht_node *)(LFHT_BUCKET | LFHT_TO_BUCKET);
	ht->idx.size = 1;
	while (ht->idx.size < init_size) {
		len = ht->idx.size;
		order = lfht_fls_long(len);	/* the order of buckets [len, 2len) */
		if (order > ht->block_order) {
			tbl = lfht_env_zalloc(len * LFHT_BUCKET_SIZE);
			if (!tbl) {
				lfht_tables_free(ht);
				return -ENOMEM;
			}
			set_order_table(ht, order, tbl);
		}
		link_buckets(ht, len, 0);
		publish_size(ht, 2 * len);
	}
	return 0;
}

void lfht_tables_free(struct cds_lfht *ht)
{
	unsigned int order;

	for (order = ht->block_order + 1; order < LFHT_NR_ORDERS; order++) {
		if (ht->idx.base[order])
			lfht_env_free(order_table(ht, order));
		set_order_table(ht, order, NULL);
	}
	lfht_env_free(ht->block);
	ht->block = NULL;
}

/* Double the size.  Returns -ENOMEM, leaving the table as it was. */
static int grow_once(struct cds_lfht *ht)
{
	unsigned long len = ht->idx.size;
	unsigned int order = lfht_fls_long(len);
	void *tbl;

	if (order > ht->block_order) {
		tbl = lfht_env_zalloc(len * LFHT_BUCKET_SIZE);
		if (!tbl)
			return -ENOMEM;
		/* Readers reach it only after publish_size() below. */
		set_order_table(ht, order, tbl);
	}
	resize_begin(ht);
	link_buckets(ht, len, 1);
	publish_size(ht, 2 * len);
	resize_end(ht);
	LFHT_STORE(ht->nr_grows, ht->nr_grows + 1);
	return 0;
}

/*
 * Halve the size: publish it, so new walks start from the lower buckets,
 * then mark each retired bucket node removed and unlink it at once, while
 * its cache line is hot.  Only walks that read the old size still start
 * at a retired bucket; an add there fails on the mark and starts again
 * from the parent.  Their table is freed by shrink_to(), after a grace
 * period.
 */
static void retire_half(struct cds_lfht *ht)
{
	unsigned long len = ht->idx.size / 2, j, rev = lfht_bit_reverse(len);
	char *table = (char *)lfht_bucket_at(ht, len);	/* [len, 2 * len) */
	struct cds_lfht_node *bucket;
	uintptr_t next, seen;

	publish_size(ht, len);
	lfht_env_read_lock(&ht->env);
	for (j = 0; j < len; j++, rev = rev_inc(rev)) {
		batch_point(ht, j);
		bucket = (struct cds_lfht_node *)(table + j * LFHT_BUCKET_SIZE);
		next = lfht_next_of(bucket);
		do {
			seen = next;
			/* Full barrier: ordered after publish_size() above. */
			next = (uintptr_t)lfht_cmpxchg(&bucket->next,
					(struct cds_lfht_node *)seen,
					(struct cds_lfht_node *)(seen | LFHT_REMOVED));
		} while (next != seen);
		lfht_unlink_bucket(lfht_bucket_at(ht, j), bucket, rev);
	}
	lfht_env_read_unlock(&ht->env);
}

/*
 * Shrink to @target < size, halving as often as needed, with one grace
 * period for all the halvings: a retired bucket is unlinked before the
 * next halving starts, and nothing is freed or linked again until every
 * walk that read an old size, or reached a retired bucket, has ended.
 * The tables not in the block are freed then; the block's buckets can be
 * linked again by a later grow.
 */
static void shrink_to(struct cds_lfht *ht, unsigned long target)
{
	unsigned long from = ht->idx.size, len;
	unsigned int order;

	resize_begin(ht);
	while (ht->idx.size > target)
		retire_half(ht);
	resize_end(ht);
	lfht_env_synchronize(&ht->env);
	for (len = target; len < from; len *= 2) {
		order = lfht_fls_long(len);
		if (order > ht->block_order) {
			lfht_env_free(order_table(ht, order));
			set_order_table(ht, order, NULL);
		}
		LFHT_STORE(ht->nr_shrinks, ht->nr_shrinks + 1);
	}
}

static unsigned long clamp_size(struct cds_lfht *ht, unsigned long size)
{
	size = lfht_roundup_pow2(size);
	if (size < ht->min_size)
		return ht->min_size;
	if (size > ht->max_size)
		return ht->max_size;
	return size;
}

/*
 * Resize to @target (clamped); called with resize_mutex held.  A growth
 * that runs out of memory goes back to the old size: a failed resize
 * leaves the table as it found it (shrinking allocates nothing).
 */
static void resize_to(struct cds_lfht *ht, unsigned long target)
{
	unsigned long old = ht->idx.size;

	target = clamp_size(ht, target);
	while (ht->idx.size < target) {
		if (grow_once(ht)) {
			if (ht->idx.size > old)
				shrink_to(ht, old);
			return;
		}
	}
	if (ht->idx.size > target)
		shrink_to(ht, target);
}

/**
 * cds_lfht_resize - resize now
 * @ht: the table
 * @new_size: wanted number of buckets
 *
 * @new_size is rounded up to a power of two and kept within the table's
 * minimum and maximum.  Not from within an RCU read-side critical section.
 */
void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	/* Offline while waiting: the holder may be in synchronize_rcu(). */
	int token = lfht_env_blocking_begin(&ht->env);

	lfht_env_mutex_lock(&ht->resize_mutex);
	lfht_env_blocking_end(&ht->env, token);
	/* In heads; past the largest, clamp_size() brings it back. */
	resize_to(ht, new_size > LFHT_MAX_SIZE ? LFHT_MAX_SIZE :
		  new_size << LFHT_HEAD_SHIFT);
	lfht_env_mutex_unlock(&ht->resize_mutex);
}
LFHT_EXPORT(cds_lfht_resize);

/*
 * Size wanted for @count nodes: grow above 2 per bucket, shrink below 1/8,
 * but not below the initial size: a table sized ahead of its fill is not
 * shrunk and grown again each time it drains and fills.
 */
static unsigned long size_for_count(struct cds_lfht *ht, unsigned long size)
{
	long count = lfht_env_counter_sum(&ht->count);
	unsigned long want, floor, buckets = size >> LFHT_HEAD_SHIFT;

	if (count < 0)
		count = 0;
	/* The thresholds count buckets, what is returned heads. */
	if ((unsigned long)count > 2 * buckets)
		return lfht_roundup_pow2(count) << LFHT_HEAD_SHIFT;
	if ((unsigned long)count >= buckets / 8)
		return size;
	want = lfht_roundup_pow2(2 * count) << LFHT_HEAD_SHIFT;
	floor = ht->init_size < size ? ht->init_size : size;
	return want > floor ? want : floor;
}

/*
 * Without accounting the worker estimates the load: live nodes in up to
 * LFHT_SAMPLE list heads spread over the table, counting at most
 * LFHT_SAMPLE_CAP per head, so that a few flooded chains cannot make it
 * look loaded.  Returns whole nodes per bucket (not per head).
 */
#define LFHT_SAMPLE	64UL
#define LFHT_SAMPLE_CAP	8UL

static unsigned long sampled_load(struct cds_lfht *ht)
{
	unsigned long size = ht->idx.size, n = size < LFHT_SAMPLE ? size : LFHT_SAMPLE;
	unsigned long i, len, nodes = 0;
	struct cds_lfht_node *node;
	uintptr_t next;

	lfht_env_read_lock(&ht->env);
	for (i = 0; i < n; i++) {
		node = lfht_bucket_at(ht, i * (size / n));
		for (len = 0, node = lfht_ptr(lfht_next_of(node));
		     node && len < LFHT_SAMPLE_CAP; node = lfht_ptr(next)) {
			next = lfht_next_of(node);
			if (next & LFHT_BUCKET)
				break;
			len += !(next & LFHT_REMOVED);
		}
		nodes += len;
	}
	lfht_env_read_unlock(&ht->env);
	return (nodes << LFHT_HEAD_SHIFT) / n;
}

/*
 * Whether the worker may shrink now: a delete asked LFHT_SHRINK_DELAY_MS
 * ago or more, and no add has seen the count back up since.  If it asked
 * less long ago, look again when the delay is up.
 */
static int shrink_due(struct cds_lfht *ht)
{
	unsigned long asked = LFHT_LOAD(ht->shrink_asked), waited;

	if (!asked)
		return 0;
	/* asked is a time with its low bit set: clear it, or it may be ahead. */
	waited = lfht_env_now_ms() - (asked & ~1UL);
	if ((long)waited < 0)
		waited = 0;
	if (waited < LFHT_SHRINK_DELAY_MS) {
		lfht_env_queue_work_later(&ht->env, LFHT_SHRINK_DELAY_MS - waited);
		return 0;
	}
	/* Full barrier; fails if an add called the shrink off meanwhile. */
	return lfht_cmpxchg(&ht->shrink_asked, asked, 0UL) == asked;
}

/*
 * The deferred worker: apply growth hints and, with accounting, the count.
 * A hint only says that one add met a long chain.  With accounting the
 * count bounds it (a bucket per node at most); without, the worker grows
 * while the sampled load is above 1 per bucket, so that adds made before a
 * growth (which ask nothing more) are still covered, and never on one
 * add's long chain alone.
 */
void lfht_resize_work(void *arg)
{
	struct cds_lfht *ht = arg;
	unsigned long target, hint, load, size, most;
	long count;
	int token;

	/* Offline while waiting: the holder may be in synchronize_rcu(). */
	token = lfht_env_blocking_begin(&ht->env);
	lfht_env_mutex_lock(&ht->resize_mutex);
	lfht_env_blocking_end(&ht->env, token);
	if (!LFHT_LOAD(ht->destroying)) {
		hint = lfht_xchg(&ht->grow_hint, 0UL);
		target = ht->idx.size;
		if (ht->flags & CDS_LFHT_ACCOUNTING) {
			target = size_for_count(ht, ht->idx.size);
			/* Shrink only when a delete asked long enough ago. */
			if (target < ht->idx.size && !shrink_due(ht))
				target = ht->idx.size;
			/* The count bounds a hint: one bucket per node at most. */
			count = lfht_env_counter_sum(&ht->count);
			most = lfht_roundup_pow2(count > 0 ? (unsigned long)count : 1)
			       << LFHT_HEAD_SHIFT;
			if (hint > most)
				hint = most;
		}
		if (hint > target)
			target = hint;
		if (ht->flags & CDS_LFHT_ACCOUNTING)
			resize_to(ht, target);
		/*
		 * Without a count a hint is one add's view: even at one node
		 * per bucket some chains are long.  Grow only while a sample
		 * of buckets says the table is loaded.
		 */
		while (!(ht->flags & CDS_LFHT_ACCOUNTING) && hint &&
		       ht->idx.size < ht->max_size &&
		       (load = sampled_load(ht)) > 1) {
			target = ht->idx.size * lfht_roundup_pow2(load);
			size = ht->idx.size;
			resize_to(ht, target);
			if (ht->idx.size == size)
				break;	/* out of memory */
		}
	}
	lfht_env_mutex_unlock(&ht->resize_mutex);
}

/*
 * An add walked past @chain nodes at @size heads that a table four times
 * larger would split off: ask for a larger size, at most that.
 */
void lfht_request_grow(struct cds_lfht *ht, unsigned long size,
		       unsigned long chain)
{
	unsigned int steps = lfht_fls_long(chain) - 2;
	unsigned long want = size << (steps < 2 ? steps : 2);
	unsigned long seen = LFHT_LOAD(ht->grow_hint);

	if (want > ht->max_size || want < size)
		want = ht->max_size;
	if (want <= size)
		return;
	while (seen < want) {
		unsigned long old = seen;

		seen = lfht_cmpxchg(&ht->grow_hint, old, want);
		if (seen == old) {
			lfht_env_queue_work(&ht->env);
			return;
		}
	}
}

/*
 * A CPU's node counter, moved by @delta, crossed a multiple of
 * LFHT_COUNT_BATCH: look at the total.
 */
void lfht_count_changed(struct cds_lfht *ht, long delta)
{
	unsigned long size, want;

	if (!(ht->flags & CDS_LFHT_AUTO_RESIZE))
		return;
	size = LFHT_LOAD(ht->idx.size);
	want = clamp_size(ht, size_for_count(ht, size));
	/*
	 * Adds ask only to grow and deletes only to shrink, so that a table
	 * sized ahead of its fill is not shrunk while it fills.  A shrink
	 * waits (shrink_due()); an add that sees the count back up calls it
	 * off, so that a table that drains and fills again keeps its size.
	 */
	if (want < size && delta < 0) {
		/* Full barrier: the worker that runs next sees the request. */
		if (!LFHT_LOAD(ht->shrink_asked))
			lfht_cmpxchg(&ht->shrink_asked, 0UL, lfht_env_now_ms() | 1);
		lfht_env_queue_work_later(&ht->env, LFHT_SHRINK_DELAY_MS);
	} else if (delta > 0 && want >= size) {
		/* No ordering: racing a new ask, either outcome is a valid one. */
		if (LFHT_LOAD(ht->shrink_asked))
			LFHT_STORE(ht->shrink_asked, 0UL);
		if (want > size)
			lfht_env_queue_work(&ht->env);
	}
}
