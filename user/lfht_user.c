// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The user-space environment of the core: allocation (with a fault hook for
 * tests), per-CPU split counters, the resize worker thread, and the public
 * constructor and destructor that take liburcu's flavor and pthread attr.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lfht_core.h"
#include "lfht_fault.h"

/* -- Allocation ----------------------------------------------------------- */

/* Allocations from this size up are aligned for transparent huge pages. */
#define LFHT_HUGE_SIZE	(2UL << 20)

static long fault_nth;		/* fail allocation number fault_nth; 0: never */
static long fault_seen;		/* allocations since lfht_fault_inject() */

void lfht_fault_inject(long nth)
{
	uatomic_set(&fault_seen, 0);
	uatomic_set(&fault_nth, nth);
}

long lfht_fault_allocations(void)
{
	return uatomic_read(&fault_seen);
}

/* Whether this allocation (or thread creation) is the one to fail. */
static int fault_now(void)
{
	long nth = uatomic_read(&fault_nth);

	return uatomic_add_return(&fault_seen, 1) == nth && nth > 0;
}

void *lfht_env_zalloc(size_t size)
{
	size_t align = CAA_CACHE_LINE_SIZE;
	void *p;

	if (fault_now())
		return NULL;
	/*
	 * Line-aligned: a table's hot fields and its per-CPU counter slots
	 * share no line with another allocation.  Found by the benchmark:
	 * one more field moved the slots next to other data, and two
	 * threads deleting ran at 0.75 of the speed.
	 *
	 * A bucket table of 2 MiB or more (2^17 buckets and up, always a
	 * multiple of 2 MiB): aligned and marked for transparent huge pages,
	 * so that a lookup's random bucket access does not also miss the TLB.
	 * madvise() is only advice: without THP the table works as it is.
	 */
	if (size >= LFHT_HUGE_SIZE)
		align = LFHT_HUGE_SIZE;
	if (posix_memalign(&p, align, size))
		return NULL;
	if (align == LFHT_HUGE_SIZE)
		(void)madvise(p, size, MADV_HUGEPAGE);
	return memset(p, 0, size);
}

void lfht_env_free(void *p)
{
	free(p);
}

/* -- Split counters ------------------------------------------------------- */

int lfht_env_counter_init(struct lfht_env_counter *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long n = lfht_roundup_pow2(cpus > 0 ? (unsigned long)cpus : 1);

	c->slots = lfht_env_zalloc(n * sizeof(*c->slots));
	if (!c->slots)
		return -ENOMEM;
	c->mask = n - 1;
	return 0;
}

void lfht_env_counter_destroy(struct lfht_env_counter *c)
{
	lfht_env_free(c->slots);
}

unsigned long lfht_env_counter_index(void)
{
	static __thread unsigned long fallback;
	int cpu = sched_getcpu();

	if (cpu >= 0)
		return (unsigned long)cpu;
	if (!fallback)
		fallback = (unsigned long)(uintptr_t)&fallback >> 6;
	return fallback;
}

long lfht_env_counter_sum(struct lfht_env_counter *c)
{
	unsigned long i;
	long sum = 0;

	for (i = 0; i <= c->mask; i++)
		sum += uatomic_read(&c->slots[i].value);
	return sum;
}

/* -- Resize worker -------------------------------------------------------- */

unsigned long lfht_env_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Make a run pending now, covering one due later; under work_lock.  The
 * worker and lfht_env_flush_work() wait on the same condition, so wake
 * them all: a signal could wake only a flusher.
 */
static void run_now(struct lfht_env_table *env)
{
	env->work_later = 0;
	uatomic_set(&env->work_pending, 1);
	pthread_cond_broadcast(&env->work_cond);
}

/* Wait for a request, or until a later one is due; under work_lock. */
static void worker_wait(struct lfht_env_table *env)
{
	struct timespec due;

	if (!env->work_later) {
		pthread_cond_wait(&env->work_cond, &env->work_lock);
		return;
	}
	if ((long)(lfht_env_now_ms() - env->work_due) >= 0) {
		run_now(env);
		return;
	}
	/* work_cond runs on CLOCK_MONOTONIC, like lfht_env_now_ms(). */
	due.tv_sec = env->work_due / 1000;
	due.tv_nsec = (env->work_due % 1000) * 1000000;
	pthread_cond_timedwait(&env->work_cond, &env->work_lock, &due);
}

static void *worker_main(void *arg)
{
	struct lfht_env_table *env = arg;

	env->flavor->register_thread();
	/* Idle workers must not hold up qsbr grace periods. */
	env->flavor->thread_offline();
	pthread_mutex_lock(&env->work_lock);
	for (;;) {
		while (!env->work_pending && !env->work_stop)
			worker_wait(env);
		if (env->work_stop)
			break;
		env->work_pending = 0;
		env->work_running = 1;
		pthread_mutex_unlock(&env->work_lock);
		env->flavor->thread_online();
		env->work_fn(env->work_arg);
		env->flavor->thread_offline();
		pthread_mutex_lock(&env->work_lock);
		env->work_running = 0;
		pthread_cond_broadcast(&env->work_cond);
	}
	pthread_mutex_unlock(&env->work_lock);
	env->flavor->thread_online();
	env->flavor->unregister_thread();
	return NULL;
}

int lfht_env_table_init(struct lfht_env_table *env,
			const struct lfht_env_config *cfg, int want_worker,
			void (*work_fn)(void *arg), void *work_arg)
{
	pthread_condattr_t ca;

	env->flavor = cfg->flavor;
	env->attr = cfg->attr;
	env->work_fn = work_fn;
	env->work_arg = work_arg;
	pthread_mutex_init(&env->work_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&env->work_cond, &ca);
	pthread_condattr_destroy(&ca);
	if (want_worker) {
		/* The fault hook counts the worker thread as an allocation. */
		if (fault_now() ||
		    pthread_create(&env->worker, env->attr, worker_main, env)) {
			pthread_cond_destroy(&env->work_cond);
			pthread_mutex_destroy(&env->work_lock);
			return -ENOMEM;
		}
		env->has_worker = 1;
	}
	return 0;
}

void lfht_env_table_fini(struct lfht_env_table *env)
{
	if (env->has_worker) {
		pthread_mutex_lock(&env->work_lock);
		env->work_stop = 1;
		pthread_cond_broadcast(&env->work_cond);
		pthread_mutex_unlock(&env->work_lock);
		pthread_join(env->worker, NULL);
	}
	pthread_cond_destroy(&env->work_cond);
	pthread_mutex_destroy(&env->work_lock);
}

void lfht_env_queue_work(struct lfht_env_table *env)
{
	/* Racy peek: a request already pending covers this one. */
	if (!env->has_worker || uatomic_read(&env->work_pending))
		return;
	pthread_mutex_lock(&env->work_lock);
	run_now(env);
	pthread_mutex_unlock(&env->work_lock);
}

void lfht_env_queue_work_later(struct lfht_env_table *env, unsigned long ms)
{
	/* Racy peeks: a run pending, now or later, covers this request. */
	if (!env->has_worker || uatomic_read(&env->work_pending) ||
	    uatomic_read(&env->work_later))
		return;
	pthread_mutex_lock(&env->work_lock);
	if (!env->work_pending && !env->work_later) {
		env->work_due = lfht_env_now_ms() + ms;
		uatomic_set(&env->work_later, 1);
		pthread_cond_broadcast(&env->work_cond);
	}
	pthread_mutex_unlock(&env->work_lock);
}

/* Runs a request due later now, then waits for the runs to end. */
void lfht_env_flush_work(struct lfht_env_table *env)
{
	if (!env->has_worker)
		return;
	pthread_mutex_lock(&env->work_lock);
	if (env->work_later)
		run_now(env);
	while (env->work_pending || env->work_running)
		pthread_cond_wait(&env->work_cond, &env->work_lock);
	pthread_mutex_unlock(&env->work_lock);
}

/* -- Public constructor and destructor ------------------------------------ */

/*
 * liburcu's memory-management plugins, kept as names: liblfht has one
 * allocation strategy (a table per order) and accepts any of the three.
 */
const struct cds_lfht_mm_type cds_lfht_mm_order = { .bucket_at = NULL };
const struct cds_lfht_mm_type cds_lfht_mm_chunk = { .bucket_at = NULL };
const struct cds_lfht_mm_type cds_lfht_mm_mmap = { .bucket_at = NULL };

struct cds_lfht *_cds_lfht_new(unsigned long init_size,
			       unsigned long min_nr_alloc_buckets,
			       unsigned long max_nr_buckets, int flags,
			       const struct cds_lfht_mm_type *mm,
			       const struct rcu_flavor_struct *flavor,
			       pthread_attr_t *attr)
{
	struct lfht_env_config cfg = { .flavor = flavor, .attr = attr };

	if (!flavor || (mm && mm != &cds_lfht_mm_order &&
			mm != &cds_lfht_mm_chunk && mm != &cds_lfht_mm_mmap))
		return NULL;
	return lfht_table_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			      flags, &cfg);
}

int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	pthread_attr_t *saved = ht->env.attr;
	int ret = lfht_table_destroy(ht);

	if (!ret && attr)
		*attr = saved;
	return ret;
}
