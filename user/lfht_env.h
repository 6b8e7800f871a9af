/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfht_env.h for user space: the environment layer of the shared core
 * (common/) mapped onto liburcu and POSIX threads.  This file and
 * kernel/lfht_env.h are the only places that know which world the core is
 * built for; common/lfht_core.h lists what each must provide.
 */
#ifndef LFHT_ENV_USER_H
#define LFHT_ENV_USER_H

#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <assert.h>
#include <pthread.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include <urcu/flavor.h>
#include <lfht/rculfhash.h>

/* -- Memory access -------------------------------------------------------- */

#define LFHT_LOAD(x)		CMM_LOAD_SHARED(x)
#define LFHT_STORE(x, v)	CMM_STORE_SHARED(x, v)

/* Load of a pointer published by a cmpxchg or lfht_store_release(). */
#define lfht_rcu_dereference(p)						\
	__extension__ ({						\
		__typeof__(p) lfht_p_ = CMM_LOAD_SHARED(p);		\
		cmm_smp_read_barrier_depends();				\
		lfht_p_;						\
	})

#define lfht_load_acquire(p)	__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define lfht_store_release(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define lfht_smp_rmb()		cmm_smp_rmb()
#define lfht_smp_wmb()		cmm_smp_wmb()

/* Fully ordered on success (liburcu's uatomic_cmpxchg); returns the old value. */
#define lfht_cmpxchg(ptr, old, new)	uatomic_cmpxchg(ptr, old, new)
#define lfht_xchg(ptr, v)		uatomic_xchg(ptr, v)

#define LFHT_BUG_ON(cond)	assert(!(cond))
#define LFHT_ALWAYS_INLINE	inline __attribute__((__always_inline__))
#define LFHT_EXPORT(sym)	extern int lfht_exported_##sym

static inline unsigned long lfht_bswap_long(unsigned long x)
{
	return sizeof(x) == 8 ? (unsigned long)__builtin_bswap64(x)
			      : (unsigned long)__builtin_bswap32((uint32_t)x);
}

/* Position of the most significant set bit, 1-based; 0 for 0. */
static inline unsigned int lfht_fls_long(unsigned long x)
{
	return x ? (unsigned int)(sizeof(x) * 8) - (unsigned int)__builtin_clzl(x) : 0;
}

/* -- Memory --------------------------------------------------------------- */

/*
 * All core allocations go through these two so that the allocation-failure
 * tests can fail the k-th one (lfht_fault_inject()).
 */
void *lfht_env_zalloc(size_t size);
void lfht_env_free(void *p);

/* -- Split counters ------------------------------------------------------- */

/* One slot per CPU, a cache line each (lfht_env_zalloc() aligns to a line). */
struct lfht_env_counter_slot {
	long value;
	char pad[CAA_CACHE_LINE_SIZE - sizeof(long)];
};

struct lfht_env_counter {
	struct lfht_env_counter_slot *slots;
	unsigned long mask;
};

int lfht_env_counter_init(struct lfht_env_counter *c);
void lfht_env_counter_destroy(struct lfht_env_counter *c);
/* Of the calling thread's CPU, or a fixed slot per thread without one. */
unsigned long lfht_env_counter_index(void);

static inline long lfht_env_counter_add(struct lfht_env_counter *c, long delta)
{
	/* Atomic: a thread may migrate, two threads may share a slot. */
	return uatomic_add_return(&c->slots[lfht_env_counter_index() & c->mask].value,
				  delta);
}

long lfht_env_counter_sum(struct lfht_env_counter *c);

/* -- Locking -------------------------------------------------------------- */

struct lfht_env_mutex {
	pthread_mutex_t lock;
};

static inline void lfht_env_mutex_init(struct lfht_env_mutex *m)
{
	pthread_mutex_init(&m->lock, NULL);
}

static inline void lfht_env_mutex_destroy(struct lfht_env_mutex *m)
{
	pthread_mutex_destroy(&m->lock);
}

static inline void lfht_env_mutex_lock(struct lfht_env_mutex *m)
{
	pthread_mutex_lock(&m->lock);
}

static inline void lfht_env_mutex_unlock(struct lfht_env_mutex *m)
{
	pthread_mutex_unlock(&m->lock);
}

/* -- Per-table environment: RCU flavor and resize worker ------------------ */

struct lfht_env_config {
	const struct rcu_flavor_struct *flavor;
	pthread_attr_t *attr;
};

struct lfht_env_table {
	const struct rcu_flavor_struct *flavor;
	pthread_attr_t *attr;
	/* Resize worker, only for CDS_LFHT_AUTO_RESIZE tables. */
	void (*work_fn)(void *arg);
	void *work_arg;
	int has_worker;
	pthread_t worker;
	pthread_mutex_t work_lock;
	pthread_cond_t work_cond;
	int work_pending, work_running, work_stop;
	int work_later;			/* a run is due at work_due */
	unsigned long work_due;		/* lfht_env_now_ms() */
};

int lfht_env_table_init(struct lfht_env_table *env,
			const struct lfht_env_config *cfg, int want_worker,
			void (*work_fn)(void *arg), void *work_arg);
void lfht_env_table_fini(struct lfht_env_table *env);
void lfht_env_queue_work(struct lfht_env_table *env);
void lfht_env_queue_work_later(struct lfht_env_table *env, unsigned long ms);
void lfht_env_flush_work(struct lfht_env_table *env);
unsigned long lfht_env_now_ms(void);

static inline void lfht_env_read_lock(struct lfht_env_table *env)
{
	env->flavor->read_lock();
}

static inline void lfht_env_read_unlock(struct lfht_env_table *env)
{
	env->flavor->read_unlock();
}

static inline void lfht_env_synchronize(struct lfht_env_table *env)
{
	env->flavor->update_synchronize_rcu();
}

/*
 * Every read-side entry point of the API calls this first.  Free by
 * default; -DLFHT_DEBUG_RCU makes it assert that the caller is inside a
 * read-side critical section (an indirect call per operation).
 */
static inline void lfht_env_check_reader(struct lfht_env_table *env)
{
#ifdef LFHT_DEBUG_RCU
	LFHT_BUG_ON(!env->flavor->read_ongoing());
#else
	(void)env;
#endif
}

/* Between read-side sections of a long job: let grace periods end (qsbr). */
static inline void lfht_env_quiescent(struct lfht_env_table *env)
{
	env->flavor->read_quiescent_state();
}

/*
 * Around a wait that another thread's synchronize_rcu() may depend on: a
 * qsbr thread that is online would block that grace period, so it goes
 * offline.  For the other flavors read_ongoing() is false outside read-side
 * sections and nothing happens.
 */
static inline int lfht_env_blocking_begin(struct lfht_env_table *env)
{
	int online = env->flavor->read_ongoing();

	if (online)
		env->flavor->thread_offline();
	return online;
}

static inline void lfht_env_blocking_end(struct lfht_env_table *env, int token)
{
	if (token)
		env->flavor->thread_online();
}

#endif /* LFHT_ENV_USER_H */
