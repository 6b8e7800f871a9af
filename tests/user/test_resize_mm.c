/*
 * tests/user/test_resize_mm.c - single-threaded tests of cds_lfht_resize,
 * cds_lfht_destroy (failure on a non-empty table, attr out-parameter) and
 * the three bucket memory allocators (order, chunk, mmap) selected through
 * _cds_lfht_new().  Every check is about contents, never bucket counts.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#include "flavor.h"
#include "api_common.h"

#define NKEYS	3000UL

/* Insert keys [from, to) (call under rcu_read_lock). */
static void add_keys(struct cds_lfht *ht, unsigned long from, unsigned long to)
{
	unsigned long k;

	for (k = from; k < to; k++) {
		struct item *it = item_new(k, k * 10);

		cds_lfht_add(ht, hash_key(k), &it->node);
	}
}

/* Outside any read-side C.S., as cds_lfht_resize requires. */
static int resize_and_check(struct cds_lfht *ht, unsigned long size,
			    unsigned long nkeys)
{
	int good;

	cds_lfht_resize(ht, size);
	rcu_read_lock();
	good = check_range(ht, nkeys);
	rcu_read_unlock();
	return good;
}

/* May this test call cds_lfht_resize on a table with @flags? */
static int may_resize(int flags)
{
	/* See TEST_CAN_RESIZE_AUTO_RESIZE in flavor.h (qsbr deadlock). */
	return !(flags & CDS_LFHT_AUTO_RESIZE) || TEST_CAN_RESIZE_AUTO_RESIZE;
}

static void test_resize(int flags)
{
	static const unsigned long sizes[] = {
		1UL << 12, 1, 1UL << 16, 8, 1UL << 10, 2,
	};
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, flags, NULL);
	unsigned long count;
	long before, after;
	unsigned int i;

	if (may_resize(flags)) {
		rcu_read_lock();
		add_keys(ht, 0, NKEYS);
		rcu_read_unlock();
		for (i = 0; i < CAA_ARRAY_SIZE(sizes); i++)
			ok(resize_and_check(ht, sizes[i], NKEYS),
			   "flags %d: resize to %lu keeps all %lu keys",
			   flags, sizes[i], NKEYS);
	} else {
		note("flags %d: no explicit resize under qsbr "
		     "(TEST_CAN_RESIZE_AUTO_RESIZE), automatic only", flags);
		rcu_read_lock();
		add_keys(ht, 0, NKEYS);
		ok(check_range(ht, NKEYS),
		   "flags %d: automatic growth keeps all %lu keys",
		   flags, NKEYS);
		rcu_read_unlock();
	}

	/* Adds after resizing land in the new layout and are found too. */
	rcu_read_lock();
	add_keys(ht, NKEYS, 2 * NKEYS);
	ok(check_range(ht, 2 * NKEYS), "  keys added after resize found");
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	is_ul(count, 2 * NKEYS, "  count_nodes after resize");
	if (may_resize(flags))
		ok(resize_and_check(ht, 1, 2 * NKEYS),
		   "  final shrink to 1 keeps all keys");
	is_l(drain_and_destroy(ht), 0, "  drained and destroyed");
}

static void test_resize_empty(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);

	ok(resize_and_check(ht, 1UL << 10, 0), "resize empty table up");
	ok(resize_and_check(ht, 1, 0), "resize empty table down");
	is_l(test_destroy(ht, NULL), 0, "  destroyed");
}

/* --- destroy --------------------------------------------------------- */

static void test_destroy_nonempty(int flags)
{
	pthread_attr_t attr, *out = NULL;
	struct cds_lfht *ht;
	int ret;

	pthread_attr_init(&attr);
	ht = cds_lfht_new(4, 1, 0, flags, &attr);
	rcu_read_lock();
	add_keys(ht, 0, 3);
	rcu_read_unlock();

	ret = test_destroy(ht, &out);
	ok(ret < 0, "flags %d: destroy of a non-empty table fails (%d)",
	   flags, ret);
	rcu_read_lock();
	ok(check_range(ht, 3), "  table still usable: contents intact");
	add_keys(ht, 3, 4);
	ok(check_range(ht, 4), "  table still usable: add works");
	rcu_read_unlock();

	ret = drain_and_destroy_attr(ht, &out);
	is_l(ret, 0, "  destroy once empty");
	ok(out == &attr, "  attr out-parameter returns the cds_lfht_new attr");
	pthread_attr_destroy(&attr);
}

static void test_destroy_attr_null(void)
{
	static pthread_attr_t sentinel;
	pthread_attr_t *out = &sentinel;
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);

	is_l(test_destroy(ht, &out), 0, "destroy empty AUTO_RESIZE table");
	ok(out == NULL, "  attr out-parameter is NULL when none was given");
}

/* --- memory management back-ends ------------------------------------- */

struct mm_case {
	const char *name;
	const struct cds_lfht_mm_type *mm;
	unsigned long init, min, max;
};

#define MAX_BIG	(~0UL)	/* sentinel: 2^32, or what big_mmap_max() can reserve */

static const struct mm_case mm_cases[] = {
	{ "order", &cds_lfht_mm_order, 1, 1, 0 },
	{ "order", &cds_lfht_mm_order, 1, 1, 1UL << 32 },
	{ "order", &cds_lfht_mm_order, 8, 8, 1UL << 16 },
	{ "chunk", &cds_lfht_mm_chunk, 1, 1, 1UL << 16 },
	{ "chunk", &cds_lfht_mm_chunk, 16, 16, 1UL << 20 },
	{ "mmap", &cds_lfht_mm_mmap, 1, 1, MAX_BIG },
	{ "mmap", &cds_lfht_mm_mmap, 1, 1, 1UL << 20 },
	{ "mmap", &cds_lfht_mm_mmap, 64, 64, 1UL << 16 },
};

/*
 * The mmap allocator reserves max_nr_buckets bucket nodes of address
 * space up front (64 GiB for 2^32) and aborts if the reservation fails.
 * Native runs and ASan manage 2^32; valgrind's address-space manager does
 * not, so probe for the largest reservation this process can make
 * (2^32 down to 2^24 buckets) and use that.
 */
static unsigned long big_mmap_max(void)
{
	static unsigned long cached;
	unsigned long max;

	if (cached)
		return cached;
	for (max = 1UL << 32; max > 1UL << 24; max >>= 1) {
		size_t len = max * sizeof(struct cds_lfht_node);
		void *p = mmap(NULL, len, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (p != MAP_FAILED) {
			munmap(p, len);
			break;
		}
	}
	if (max != 1UL << 32)
		note("cannot reserve 2^32 buckets of address space here "
		     "(valgrind?): using max_nr_buckets %lu for mmap", max);
	cached = max;
	return max;
}

static void run_mm_case(const struct mm_case *c, int flags)
{
	unsigned long max = c->max;
	struct cds_lfht *ht;

	if (c->mm == &cds_lfht_mm_mmap && max == MAX_BIG)
		max = big_mmap_max();
	ht = _cds_lfht_new(c->init, c->min, max, flags, c->mm,
			   &rcu_flavor, NULL);
	if (!ok(ht != NULL, "mm %s init %lu min %lu max %lu flags %d: created",
		c->name, c->init, c->min, max, flags))
		return;
	rcu_read_lock();
	add_keys(ht, 0, NKEYS);
	ok(check_range(ht, NKEYS), "  %lu keys found", NKEYS);
	rcu_read_unlock();
	if (may_resize(flags)) {
		ok(resize_and_check(ht, 1UL << 14, NKEYS),
		   "  grow to 2^14 keeps keys");
		if (max == 1UL << 16)
			ok(resize_and_check(ht, 1UL << 18, NKEYS),
			   "  resize beyond max_nr_buckets keeps keys");
		ok(resize_and_check(ht, 1, NKEYS), "  shrink to 1 keeps keys");
	}
	is_l(drain_and_destroy(ht), 0, "  drained and destroyed");
}

static void test_mm(void)
{
	unsigned int i;

	for (i = 0; i < CAA_ARRAY_SIZE(mm_cases); i++) {
		run_mm_case(&mm_cases[i], 0);
		run_mm_case(&mm_cases[i],
			    CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	}
}

/* cds_lfht_new picks the allocator itself; large and "infinite" max. */
static void test_default_mm(void)
{
	/* With max <= 2^32, liburcu picks the mmap allocator. */
	const unsigned long maxes[] = { 0, big_mmap_max() };
	unsigned int i;

	for (i = 0; i < CAA_ARRAY_SIZE(maxes); i++) {
		struct cds_lfht *ht = cds_lfht_new(1, 1, maxes[i],
						   CDS_LFHT_AUTO_RESIZE, NULL);

		if (!ok(ht != NULL, "cds_lfht_new(max=%lu)", maxes[i]))
			continue;
		rcu_read_lock();
		add_keys(ht, 0, NKEYS);
		ok(check_range(ht, NKEYS), "  auto-resized, %lu keys found",
		   NKEYS);
		rcu_read_unlock();
		is_l(drain_and_destroy(ht), 0, "  drained and destroyed");
	}
}

int main(void)
{
	test_thread_register();
	note("flavor: %s", FLAVOR_NAME);

	test_resize(0);
	test_resize(CDS_LFHT_ACCOUNTING);
	test_resize(CDS_LFHT_AUTO_RESIZE);
	test_resize(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	test_resize_empty();
	test_destroy_nonempty(0);
	test_destroy_nonempty(CDS_LFHT_AUTO_RESIZE);
	test_destroy_attr_null();
	test_mm();
	test_default_mm();

	test_barrier();
	is_ul(uatomic_read(&items_alive), 0, "every item was freed");
	test_thread_unregister();
	return done_testing();
}
