// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lfht.ko: the shared core (common/) on kernel primitives, the public
 * constructor and destructor, and the module's life cycle.
 */
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "lfht_core.h"
#include "lfht_kernel.h"
#include "lfht_vector.h"

static struct workqueue_struct *lfht_wq;

/* -- Allocation, and its fault hook for tests ----------------------------- */

/*
 * Every allocation the core makes (a table, its bucket tables, its per-CPU
 * counter; the vector interpreter's nodes) asks lfht_fault_fail() first,
 * and counts in fault_live while it lives.  Only table creation and resizes
 * allocate, never lookups or updates: the hook costs the fast path nothing.
 *
 * Relaxed atomics: they are counts and publish no other memory.  A test
 * arms the hook before the work it measures starts and reads the counts
 * once that work has ended; the calls between (a return, queue_work(),
 * flush_work()) order them with the allocations.
 */
static atomic_long_t fault_nth;		/* fail attempt number fault_nth; 0: never */
static atomic_long_t fault_seen;	/* attempts since lfht_fault_inject() */
static atomic_long_t fault_live;	/* allocations made and not yet freed */

/**
 * lfht_fault_inject - test hook: make one allocation of lfht.ko fail
 * @nth: fail the @nth allocation attempt (1-based) counted from now, and
 *	only that one; 0 fails none
 *
 * For the KUnit suite only, not an API.  The count covers every allocation
 * of the core (table creation, resizes, per-CPU counters, vector runs), so
 * a test arms it while its own table is the only thing that allocates.
 */
void lfht_fault_inject(long nth)
{
	atomic_long_set(&fault_seen, 0);
	atomic_long_set(&fault_nth, nth);
}
EXPORT_SYMBOL_GPL(lfht_fault_inject);

/**
 * lfht_fault_allocations - test hook: allocations attempted since armed
 *
 * For the KUnit suite only, not an API.
 *
 * Return: the allocation attempts, failed or not, since the last
 * lfht_fault_inject().
 */
long lfht_fault_allocations(void)
{
	return atomic_long_read(&fault_seen);
}
EXPORT_SYMBOL_GPL(lfht_fault_allocations);

/**
 * lfht_fault_live - test hook: allocations not freed yet
 *
 * For the KUnit suite only, not an API.  Zero when no table exists and no
 * vector run is in progress: what a table allocated, its destroy freed.
 *
 * Return: the allocations the core made (those lfht_fault_inject() can
 * fail), less those it freed.
 */
long lfht_fault_live(void)
{
	return atomic_long_read(&fault_live);
}
EXPORT_SYMBOL_GPL(lfht_fault_live);

/* The one check of every allocation: true when this attempt must fail. */
static bool lfht_fault_fail(void)
{
	long nth = atomic_long_read(&fault_nth);

	return atomic_long_inc_return_relaxed(&fault_seen) == nth && nth > 0;
}

void *lfht_env_zalloc(size_t size)
{
	void *p;

	if (lfht_fault_fail())
		return NULL;
	p = kvzalloc(size, GFP_KERNEL);
	if (p)
		atomic_long_inc(&fault_live);
	return p;
}

void lfht_env_free(void *p)
{
	if (p)
		atomic_long_dec(&fault_live);
	kvfree(p);
}

/* -- Split counters ------------------------------------------------------- */

int lfht_env_counter_init(struct lfht_env_counter *c)
{
	c->count = lfht_fault_fail() ? NULL : alloc_percpu(long);
	if (!c->count)
		return -ENOMEM;
	atomic_long_inc(&fault_live);
	return 0;
}

void lfht_env_counter_destroy(struct lfht_env_counter *c)
{
	if (c->count)
		atomic_long_dec(&fault_live);
	free_percpu(c->count);
	c->count = NULL;
}

long lfht_env_counter_sum(struct lfht_env_counter *c)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(c->count, cpu));
	return sum;
}

/* -- Resize work ---------------------------------------------------------- */

static void lfht_env_work(struct work_struct *work)
{
	struct lfht_env_table *env = container_of(to_delayed_work(work),
						  struct lfht_env_table, work);

	env->work_fn(env->work_arg);
}

int lfht_env_table_init(struct lfht_env_table *env,
			const struct lfht_env_config *cfg, int want_worker,
			void (*work_fn)(void *arg), void *work_arg)
{
	env->caller_wq = cfg->wq;
	env->wq = cfg->wq ? cfg->wq : lfht_wq;
	env->work_fn = work_fn;
	env->work_arg = work_arg;
	env->has_work = want_worker;
	INIT_DELAYED_WORK(&env->work, lfht_env_work);
	return 0;
}

void lfht_env_table_fini(struct lfht_env_table *env)
{
	/* Nothing queues work on a table being freed; this ends any run. */
	if (env->has_work)
		cancel_delayed_work_sync(&env->work);
}

/* -- Public constructor and destructor ------------------------------------ */

/**
 * cds_lfht_new - create a hash table
 * @init_size: initial number of buckets, a power of two; automatic
 *	shrinking (%CDS_LFHT_ACCOUNTING) stops there.  A bucket is 16 bytes:
 *	two list heads, each with half of its entries
 * @min_nr_alloc_buckets: buckets that stay allocated, a power of two not
 *	above @init_size; the smallest size cds_lfht_resize() goes to
 * @max_nr_buckets: the largest size, a power of two not below @init_size,
 *	or 0 for no limit
 * @flags: %CDS_LFHT_AUTO_RESIZE and/or %CDS_LFHT_ACCOUNTING
 * @wq: workqueue for automatic resizes, or NULL for lfht's own
 *
 * Process context; may sleep.
 *
 * Return: the table, or NULL for invalid sizes or when memory runs out.
 */
struct cds_lfht *cds_lfht_new(unsigned long init_size,
			      unsigned long min_nr_alloc_buckets,
			      unsigned long max_nr_buckets, int flags,
			      struct workqueue_struct *wq)
{
	struct lfht_env_config cfg = { .wq = wq };

	might_sleep();
	return lfht_table_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			      flags, &cfg);
}
EXPORT_SYMBOL_GPL(cds_lfht_new);

/**
 * cds_lfht_destroy - free an empty hash table
 * @ht: the table; no other caller may use it any more
 * @wq: if not NULL, receives the workqueue given to cds_lfht_new()
 *
 * Waits for the table's resize work, then frees every bucket table.
 * Process context; may sleep.
 *
 * Return: 0, or -EPERM when nodes remain (the table is then left intact).
 */
int cds_lfht_destroy(struct cds_lfht *ht, struct workqueue_struct **wq)
{
	struct workqueue_struct *saved = ht->env.caller_wq;
	int ret;

	might_sleep();
	ret = lfht_table_destroy(ht);
	if (!ret && wq)
		*wq = saved;
	return ret;
}
EXPORT_SYMBOL_GPL(cds_lfht_destroy);

/* -- Module --------------------------------------------------------------- */

static int __init lfht_init(void)
{
	int ret;

	/* Unbound: a resize is long and need not stay on the CPU that asked. */
	lfht_wq = alloc_workqueue("lfht", WQ_UNBOUND, 0);
	if (!lfht_wq)
		return -ENOMEM;
	ret = lfht_debugfs_init();
	if (ret)
		destroy_workqueue(lfht_wq);
	return ret;
}

static void __exit lfht_exit(void)
{
	lfht_debugfs_exit();
	destroy_workqueue(lfht_wq);
}

module_init(lfht_init);
module_exit(lfht_exit);
MODULE_DESCRIPTION("RCU-protected lock-free resizable hash table (cds_lfht)");
MODULE_LICENSE("GPL");
