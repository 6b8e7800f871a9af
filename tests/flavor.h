/*
 * tests/flavor.h - pick exactly one liburcu flavor for a test build.
 *
 * Build with exactly one of:
 *	-DTEST_FLAVOR_MEMB    <urcu.h> (default flavor: membarrier)  -lurcu-memb
 *	-DTEST_FLAVOR_QSBR    <urcu-qsbr.h>                          -lurcu-qsbr
 *	-DTEST_FLAVOR_MB      RCU_MB + <urcu.h>                      -lurcu-mb
 *	-DTEST_FLAVOR_SIGNAL  RCU_SIGNAL + <urcu.h>                  -lurcu-signal
 *	-DTEST_FLAVOR_BP      <urcu-bp.h>                            -lurcu-bp
 * plus the hash table library (-lurcu-cds for liburcu's own cds_lfht).
 *
 * The flavor headers define URCU_API_MAP, so rcu_read_lock(), call_rcu(),
 * rcu_flavor, ... map to the flavor's symbols and cds_lfht_new() (which
 * only exists under URCU_API_MAP) passes &rcu_flavor.  That is why the
 * flavor header must come before <urcu/rculfhash.h>.
 */
#ifndef LFHT_TESTS_FLAVOR_H
#define LFHT_TESTS_FLAVOR_H

#include <time.h>

#if (defined(TEST_FLAVOR_MEMB) + defined(TEST_FLAVOR_QSBR) + \
     defined(TEST_FLAVOR_MB) + defined(TEST_FLAVOR_SIGNAL) + \
     defined(TEST_FLAVOR_BP)) > 1
#error "define only one TEST_FLAVOR_* macro"
#endif

#if defined(TEST_FLAVOR_MEMB)
# include <urcu.h>
# define FLAVOR_NAME "memb"
#elif defined(TEST_FLAVOR_QSBR)
# include <urcu-qsbr.h>
# define FLAVOR_NAME "qsbr"
# define TEST_FLAVOR_IS_QSBR 1
#elif defined(TEST_FLAVOR_MB)
/* urcu/urcu.h (0.13) selects urcu/urcu-mb.h when RCU_MB is defined. */
# define RCU_MB
# include <urcu.h>
# define FLAVOR_NAME "mb"
#elif defined(TEST_FLAVOR_SIGNAL)
/* urcu/urcu.h (0.13) selects urcu/urcu-signal.h when RCU_SIGNAL is defined. */
# define RCU_SIGNAL
# include <urcu.h>
# define FLAVOR_NAME "signal"
#elif defined(TEST_FLAVOR_BP)
# include <urcu-bp.h>
# define FLAVOR_NAME "bp"
#else
# error "define one of TEST_FLAVOR_MEMB, TEST_FLAVOR_QSBR, TEST_FLAVOR_MB, TEST_FLAVOR_SIGNAL, TEST_FLAVOR_BP"
#endif

/*
 * Make sure the flavor we asked for is the one the preprocessor really
 * pulled in (each flavor header has its own include guard), and no other.
 */
#if defined(TEST_FLAVOR_MEMB) && \
	(!defined(_URCU_MEMB_H) || defined(_URCU_MB_H) || defined(_URCU_SIGNAL_H))
# error "TEST_FLAVOR_MEMB did not select urcu/urcu-memb.h"
#endif
#if defined(TEST_FLAVOR_MB) && (!defined(_URCU_MB_H) || defined(_URCU_MEMB_H))
# error "RCU_MB did not select urcu/urcu-mb.h"
#endif
#if defined(TEST_FLAVOR_SIGNAL) && \
	(!defined(_URCU_SIGNAL_H) || defined(_URCU_MEMB_H))
# error "RCU_SIGNAL did not select urcu/urcu-signal.h"
#endif
#if defined(TEST_FLAVOR_QSBR) && !defined(_URCU_QSBR_H)
# error "TEST_FLAVOR_QSBR did not select urcu/urcu-qsbr.h"
#endif
#if defined(TEST_FLAVOR_BP) && !defined(_URCU_BP_H)
# error "TEST_FLAVOR_BP did not select urcu/urcu-bp.h"
#endif
#ifndef URCU_API_MAP
# error "flavor header did not define URCU_API_MAP"
#endif

#include <urcu/rculfhash.h>

#ifndef TEST_FLAVOR_IS_QSBR
# define TEST_FLAVOR_IS_QSBR 0
#endif

/*
 * liburcu 0.13 + qsbr: an explicit cds_lfht_resize() on a
 * CDS_LFHT_AUTO_RESIZE table can deadlock against the table's resize
 * worker.  Whoever shrinks holds the resize mutex across synchronize_rcu();
 * the other party (worker or explicit caller) is a registered, *online*
 * qsbr thread blocked on that mutex, so the grace period never ends.  Any
 * explicit resize can turn into a shrink (the worker may have grown the
 * table past the requested size, or shrink it concurrently), so under qsbr
 * the tests never resize AUTO_RESIZE tables explicitly.  Define
 * LFHT_TEST_QSBR_RESIZE_SAFE for an implementation without that deadlock.
 */
#if !TEST_FLAVOR_IS_QSBR || defined(LFHT_TEST_QSBR_RESIZE_SAFE)
# define TEST_CAN_RESIZE_AUTO_RESIZE 1
#else
# define TEST_CAN_RESIZE_AUTO_RESIZE 0
#endif

static inline void test_thread_register(void)
{
	rcu_register_thread();
}

static inline void test_thread_unregister(void)
{
	rcu_unregister_thread();
}

/*
 * qsbr readers must announce quiescent states, otherwise grace periods
 * (and thus call_rcu, synchronize_rcu and shrinking resizes) never end.
 * Call only outside read-side critical sections.
 */
static inline void test_quiescent(void)
{
#if TEST_FLAVOR_IS_QSBR
	rcu_quiescent_state();
#endif
}

/*
 * Around blocking calls (sleep, pthread_join, waiting for other threads):
 * a qsbr thread that blocks while online stalls every grace period.
 * rcu_thread_offline/online are no-ops in the other flavors.
 */
static inline void test_thread_offline(void)
{
	rcu_thread_offline();
}

static inline void test_thread_online(void)
{
	rcu_thread_online();
}

/*
 * Sleep @secs seconds, offline.  sleep() returns early on a signal, and the
 * signal flavor's grace periods signal every registered thread: sleep to a
 * deadline instead.
 */
static inline void test_sleep(unsigned long secs)
{
	struct timespec end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	test_thread_offline();	/* qsbr: no grace period waits for a sleeper */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL))
		;
	test_thread_online();
}

/*
 * rcu_barrier() refuses to run (prints an error and returns) when
 * rcu_read_ongoing() is true; for qsbr that is "thread online", so the
 * caller has to go offline first.  Must not be called in a read-side C.S.
 */
static inline void test_barrier(void)
{
	test_thread_offline();
	rcu_barrier();
	test_thread_online();
}

static inline void test_synchronize(void)
{
	synchronize_rcu();
}

/*
 * cds_lfht_destroy() has no RCU requirement since liburcu 0.10, but with
 * AUTO_RESIZE it waits for the resize worker, which may itself be waiting
 * for a grace period: a qsbr caller must therefore be offline.
 */
static inline int test_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	int ret;

	test_thread_offline();
	ret = cds_lfht_destroy(ht, attr);
	test_thread_online();
	return ret;
}

#endif /* LFHT_TESTS_FLAVOR_H */
