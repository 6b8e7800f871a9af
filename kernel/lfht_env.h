/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfht_env.h for the kernel: the environment layer of the shared core
 * (common/) mapped onto kernel RCU, atomics, kvmalloc, per-CPU counters, a
 * mutex and a workqueue.  user/lfht_env.h is the user-space twin;
 * common/lfht_core.h lists what both provide.
 */
#ifndef LFHT_ENV_KERNEL_H
#define LFHT_ENV_KERNEL_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/swab.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/barrier.h>
#include "lfht.h"

/* -- Memory access -------------------------------------------------------- */

#define LFHT_LOAD(x)		READ_ONCE(x)
#define LFHT_STORE(x, v)	WRITE_ONCE(x, v)

/*
 * Load of a pointer published by a cmpxchg or lfht_store_release().  The
 * caller's read-side section is checked once per API call (see
 * lfht_env_check_reader()), so the per-load form needs no lockdep check; and
 * node->next is not __rcu because it also carries flag bits.
 */
#define lfht_rcu_dereference(p)	rcu_dereference_raw(p)

/* Each call site in common/ says which release or acquire it pairs with. */
#define lfht_load_acquire(p)	smp_load_acquire(&(p))
/* Each call site in common/ says which acquire it pairs with. */
#define lfht_store_release(p, v) smp_store_release(&(p), (v))
/* Each use in common/ says which smp_wmb() it pairs with. */
#define lfht_smp_rmb()		smp_rmb()
/* Each use in common/ says which smp_rmb() it pairs with. */
#define lfht_smp_wmb()		smp_wmb()

/* cmpxchg() and xchg() are fully ordered (when cmpxchg succeeds). */
#define lfht_cmpxchg(ptr, old, new)	cmpxchg(ptr, old, new)
#define lfht_xchg(ptr, v)		xchg(ptr, v)

#define LFHT_BUG_ON(cond)	WARN_ON_ONCE(cond)
/*
 * Left to gcc here: forced, as in user space, it made lfht.ko's text 2.3 KiB
 * larger and TCG lookups in the bench 0.83-0.98x rhashtable's, with the
 * lookup's own code unchanged (README, Benchmarks).
 */
#define LFHT_ALWAYS_INLINE	inline
/*
 * Used right after each exported function in common/; checkpatch flags the
 * macro's own line because no function precedes it here.
 */
#define LFHT_EXPORT(sym)	EXPORT_SYMBOL_GPL(sym)

static inline unsigned long lfht_bswap_long(unsigned long x)
{
#if BITS_PER_LONG == 64
	return swab64(x);
#else
	return swab32(x);
#endif
}

static inline unsigned int lfht_fls_long(unsigned long x)
{
	return fls_long(x);
}

/* -- Memory --------------------------------------------------------------- */

/* kvzalloc(GFP_KERNEL): bucket tables may be large.  Never in atomic context. */
void *lfht_env_zalloc(size_t size);
void lfht_env_free(void *p);

/* -- Split counters ------------------------------------------------------- */

struct lfht_env_counter {
	long __percpu *count;
};

int lfht_env_counter_init(struct lfht_env_counter *c);
void lfht_env_counter_destroy(struct lfht_env_counter *c);

static inline long lfht_env_counter_add(struct lfht_env_counter *c, long delta)
{
	/* Preemption-safe; this CPU's slot only, so no ordering is needed. */
	return this_cpu_add_return(*c->count, delta);
}

long lfht_env_counter_sum(struct lfht_env_counter *c);

/* -- Locking -------------------------------------------------------------- */

struct lfht_env_mutex {
	struct mutex lock;
};

static inline void lfht_env_mutex_init(struct lfht_env_mutex *m)
{
	mutex_init(&m->lock);
}

static inline void lfht_env_mutex_destroy(struct lfht_env_mutex *m)
{
	mutex_destroy(&m->lock);
}

static inline void lfht_env_mutex_lock(struct lfht_env_mutex *m)
{
	mutex_lock(&m->lock);
}

static inline void lfht_env_mutex_unlock(struct lfht_env_mutex *m)
{
	mutex_unlock(&m->lock);
}

/* -- Per-table environment: RCU and the resize work item ------------------ */

struct lfht_env_config {
	struct workqueue_struct *wq;	/* NULL: the module's own */
};

struct lfht_env_table {
	struct workqueue_struct *wq;
	struct workqueue_struct *caller_wq;	/* given back by destroy */
	struct delayed_work work;
	void (*work_fn)(void *arg);
	void *work_arg;
	bool has_work;
};

int lfht_env_table_init(struct lfht_env_table *env,
			const struct lfht_env_config *cfg, int want_worker,
			void (*work_fn)(void *arg), void *work_arg);
void lfht_env_table_fini(struct lfht_env_table *env);

static inline void lfht_env_queue_work(struct lfht_env_table *env)
{
	/*
	 * Racy peek: pending with no timer, the item is queued to run now
	 * and that run covers this request.  Else run it now (a run due
	 * later is brought forward).
	 */
	if (env->has_work && (!delayed_work_pending(&env->work) ||
			      timer_pending(&env->work.timer)))
		mod_delayed_work(env->wq, &env->work, 0);
}

static inline void lfht_env_queue_work_later(struct lfht_env_table *env,
					     unsigned long ms)
{
	/* A no-op while the item is pending: that run covers this request. */
	if (env->has_work)
		queue_delayed_work(env->wq, &env->work, msecs_to_jiffies(ms));
}

/* Runs a run due later now, then waits for it to end. */
static inline void lfht_env_flush_work(struct lfht_env_table *env)
{
	if (env->has_work)
		flush_delayed_work(&env->work);
}

static inline unsigned long lfht_env_now_ms(void)
{
	return jiffies64_to_msecs(get_jiffies_64());
}

static inline void lfht_env_read_lock(struct lfht_env_table *env)
{
	rcu_read_lock();
}

static inline void lfht_env_read_unlock(struct lfht_env_table *env)
{
	rcu_read_unlock();
}

static inline void lfht_env_synchronize(struct lfht_env_table *env)
{
	synchronize_rcu();
}

/* Between the read-side sections of a long resize: let others run. */
static inline void lfht_env_quiescent(struct lfht_env_table *env)
{
	cond_resched();
}

/* Kernel RCU readers are never "online" across a sleep: nothing to do. */
static inline int lfht_env_blocking_begin(struct lfht_env_table *env)
{
	return 0;
}

static inline void lfht_env_blocking_end(struct lfht_env_table *env, int token)
{
}

/* With PROVE_RCU: warn when a read-side call is not under rcu_read_lock(). */
static inline void lfht_check_rcu_reader(void)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "cds_lfht call outside rcu_read_lock()");
}

static inline void lfht_env_check_reader(struct lfht_env_table *env)
{
	lfht_check_rcu_reader();
}

#endif /* LFHT_ENV_KERNEL_H */
