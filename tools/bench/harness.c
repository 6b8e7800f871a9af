/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Benchmark harness: drives one table back-end (bench.h) through the
 * workloads of issue 4 and prints CSV rows
 *     impl,workload,mode,keys,threads,value,unit
 * where unit is ops/s, s (a duration), us (a stall) or B/entry.
 *
 *   -i NAME    label for the impl column
 *   -k KEYS    entries in the table (a power of two)
 *   -t N       worker threads
 *   -m MODE    auto (from one bucket, auto-resize) or presized
 *   -d SECS    minimum measured time per workload
 *   -w WHAT    all: insert, lookup_hit, lookup_miss, delete, mix90, mix50
 *              resize: grow/shrink times and the longest reader stall
 *              ipo_hit, ipo_miss, ipo_insert, ipo_delete: one thread, a
 *              fixed number of operations inside measured_loop(), for
 *              callgrind (insert and delete: every key once)
 *   -n OPS     operations for ipo_hit / ipo_miss
 *
 * One process measures one table, so resident memory after the insert
 * phase is attributable to it (bytes per entry).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

enum work { W_HIT, W_MISS, W_MIX90, W_MIX50, W_INSERT, W_DELETE };

static struct tbl *T;
static unsigned long K;		/* keys present after insert */
static int NT = 1;
static double DUR = 0.5;
static const char *impl = "?", *mode = "auto";

/*
 * Stop flag of the timed phases, set by the main thread.  It publishes no
 * data (the workers' results are read after pthread_join, which orders
 * them), so relaxed atomics suffice: a worker only has to see it soon.
 */
static int stop;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)	/* xorshift64* */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * Anonymous resident memory: resident less file-backed pages.  Those are
 * library code faulted in on first use (creating lfht's worker thread
 * brought in 84 KiB of libc), not memory the table holds.
 */
static long rss_bytes(void)
{
	long size, res, shared;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%ld %ld %ld", &size, &res, &shared) != 3)
		exit(2);
	fclose(f);
	return (res - shared) * sysconf(_SC_PAGESIZE);
}

static void row(const char *work, double value, const char *unit)
{
	printf("%s,%s,%s,%lu,%d,%.6g,%s\n", impl, work, mode, K, NT, value,
	       unit);
	fflush(stdout);
}

struct worker {
	pthread_t th;
	int id;
	enum work w;
	unsigned long ops;
	double secs;
};

static pthread_barrier_t start_bar;
static double round_total;	/* written by worker 0 between barriers */
/*
 * Written by worker 0 between barriers too; the barriers order it, but it
 * is read through __atomic_load_n(): GCC 12 kept a plain read from before
 * round_wait() in a register across it (the static's address never
 * escapes, and -fno-ipa-reference stopped it), and a worker ran on alone.
 */
static int round_stop;
static long rounds;

/*
 * The barrier between the rounds of the insert and delete workloads.  It
 * spins (yielding now and then) where pthread_barrier_wait() sleeps: a
 * 1024-key round takes 35-150 us, about as long as a sleeping thread took
 * to wake, so with two threads one had often done its share before the
 * other started (the rwlock table's two-thread inserts read 22-29 M/s, its
 * one-thread speed; 7.5-9.8 M/s once both threads overlap).
 */
static unsigned long round_arrived;	/* arrivals in this run, all rounds */

/* The caller's @passed counts the barriers it went through in this run. */
static void round_wait(unsigned long *passed)
{
	unsigned long want = ++*passed * NT, spins = 0;

	/* Release: this worker's part is done before the others go on. */
	__atomic_add_fetch(&round_arrived, 1, __ATOMIC_RELEASE);
	/* Acquire: pairs with the release of every worker's arrival. */
	while (__atomic_load_n(&round_arrived, __ATOMIC_ACQUIRE) < want)
		if (!(++spins & 1023))
			sched_yield();	/* let a preempted worker run */
}

/* Keys id, id+NT, ... below K: this worker's share of a fill or drain. */
static void share(int id, int insert)
{
	unsigned long k;

	for (k = id; k < K; k += NT)
		if (insert)
			tbl_insert(T, k);
		else
			tbl_remove(T, k);
}

/*
 * insert / delete: time the whole table filled (drained) by all workers,
 * barrier to barrier, repeated (undoing each round untimed) until DUR.
 * An insert run ends full, a delete run ends empty.
 */
static void counted(struct worker *me)
{
	int ins = me->w == W_INSERT;
	unsigned long passed = 0;
	double t0 = 0;

	for (;;) {
		round_wait(&passed);
		if (me->id == 0)
			t0 = now();
		share(me->id, ins);
		round_wait(&passed);
		if (me->id == 0) {
			round_total += now() - t0;
			rounds++;
			__atomic_store_n(&round_stop, round_total >= DUR,
					 __ATOMIC_RELAXED);
		}
		round_wait(&passed);
		if (__atomic_load_n(&round_stop, __ATOMIC_RELAXED))
			break;
		share(me->id, !ins);
	}
}

static void timed(struct worker *me)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL * (me->id + 1), r;
	unsigned long ops = 0, i;
	double t0 = now();
	int lpct = me->w == W_MIX90 ? 90 : 50, ipct = me->w == W_MIX90 ? 5 : 25;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < 64; i++) {
			r = rnd(&s);
			switch (me->w) {
			case W_HIT:
				tbl_lookup(T, r & (K - 1));
				break;
			case W_MISS:
				tbl_lookup(T, K + (r & (K - 1)));
				break;
			default: {	/* mixes over keys [0, 2K) */
				uint64_t key = r & (2 * K - 1);
				unsigned int op = (r >> 40) % 100;

				if (op < (unsigned int)lpct)
					tbl_lookup(T, key);
				else if (op < (unsigned int)(lpct + ipct))
					tbl_insert(T, key);
				else
					tbl_remove(T, key);
			}
			}
		}
		ops += 64;
	}
	me->ops = ops;
	me->secs = now() - t0;
}

static void *worker_main(void *arg)
{
	struct worker *me = arg;

	tbl_thread_online();
	pthread_barrier_wait(&start_bar);
	if (me->w == W_INSERT || me->w == W_DELETE)
		counted(me);
	else
		timed(me);
	tbl_thread_offline();
	return NULL;
}

/* Run one workload on NT threads; returns ops/s. */
static double run(enum work w)
{
	struct worker ws[64];
	double rate = 0;
	int i;

	pthread_barrier_init(&start_bar, NULL, NT + 1);
	round_total = 0;
	round_stop = 0;
	rounds = 0;
	round_arrived = 0;	/* pthread_create() orders it for the workers */
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < NT; i++) {
		ws[i].id = i;
		ws[i].w = w;
		if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i]))
			exit(2);
	}
	pthread_barrier_wait(&start_bar);
	if (w != W_INSERT && w != W_DELETE) {
		usleep(DUR * 1e6);
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	}
	for (i = 0; i < NT; i++)
		pthread_join(ws[i].th, NULL);
	pthread_barrier_destroy(&start_bar);
	if (w == W_INSERT || w == W_DELETE)
		return (double)K * rounds / round_total;
	for (i = 0; i < NT; i++)
		rate += ws[i].ops / ws[i].secs;
	return rate;
}

/* Untimed fill or drain of keys [lo, hi) by the calling thread. */
static void fill(unsigned long lo, unsigned long hi, int insert)
{
	for (; lo < hi; lo++)
		if (insert)
			tbl_insert(T, lo);
		else
			tbl_remove(T, lo);
}

static void settle(void)
{
	tbl_settle(T);
	usleep(20000);	/* let a deferred resize worker finish */
	tbl_settle(T);
}

/*
 * settle(), then wait until resident memory holds still for 150 ms (at most
 * 5 s): a table whose resize runs in a worker (liburcu's) may still be
 * growing after the last add.  Measured 50 ms after it, liburcu's auto table
 * at 2^20 keys showed 51.5 B/entry; at rest, 64.3.  The lookups that follow
 * an insert run are timed on a table at rest, too.
 */
static void settle_mem(void)
{
	long prev = -1, cur;
	int still = 0, polls;

	settle();
	for (polls = 0; polls < 100 && still < 3; polls++) {
		usleep(50000);
		tbl_settle(T);
		cur = rss_bytes();
		still = cur == prev ? still + 1 : 0;
		prev = cur;
	}
}

static void bench_all(void)
{
	long rss0;
	double r;

	rss0 = rss_bytes();	/* before create: a presized table's buckets count */
	T = tbl_create(strcmp(mode, "auto") ? K : 1, 1);
	if (!T)
		exit(2);
	/*
	 * Memory after one fill, before the timed rounds: their fills and
	 * drains leave freed nodes in malloc's free lists, and how many depends
	 * on how far call_rcu() lagged (the same binary measured 81 to 265
	 * B/entry at 2^16 keys after them).
	 */
	fill(0, K, 1);
	settle_mem();
	row("bytes_per_entry", (double)(rss_bytes() - rss0) / K, "B/entry");
	fill(0, K, 0);
	settle();
	r = run(W_INSERT);
	settle_mem();
	row("insert", r, "ops/s");
	row("lookup_hit", run(W_HIT), "ops/s");
	row("lookup_miss", run(W_MISS), "ops/s");
	row("delete", run(W_DELETE), "ops/s");
	settle();
	fill(0, K, 1);		/* back to K keys of [0, 2K) for the mixes */
	settle();
	row("mix90", run(W_MIX90), "ops/s");
	settle();
	row("mix50", run(W_MIX50), "ops/s");
	/* No drain: the process ends here, and draining 2^24 keys is slow. */
}

/* --- resize: durations and the longest gap a reader sees --- */

enum { PH_IDLE, PH_GROW_AUTO, PH_SHRINK_AUTO, PH_GROW, PH_SHRINK, PH_N };
/* Phase label and stop flag for the reader: labels only, no data behind
 * them, so relaxed (the stall array is read after pthread_join). */
static int phase, rstop;
static double stall[PH_N];
#define RKEYS 1024UL	/* keys the reader looks up, present throughout */

static void *reader(void *arg)
{
	uint64_t s = 12345;
	double prev, t, gap;
	int p;

	(void)arg;
	tbl_thread_online();
	prev = now();
	while (!__atomic_load_n(&rstop, __ATOMIC_RELAXED)) {
		tbl_lookup(T, rnd(&s) & (RKEYS - 1));
		t = now();
		gap = t - prev;
		prev = t;
		p = __atomic_load_n(&phase, __ATOMIC_RELAXED);
		if (gap > stall[p])
			stall[p] = gap;
	}
	tbl_thread_offline();
	return NULL;
}

static void set_phase(int p)
{
	__atomic_store_n(&phase, p, __ATOMIC_RELAXED);
}

static void bench_resize(void)
{
	pthread_t rd;
	double t0;
	int explicit_ok;

	memset(stall, 0, sizeof(stall));
	/* Auto: grow from one bucket to K entries, then drain and shrink. */
	T = tbl_create(1, 1);
	if (!T)
		exit(2);
	fill(0, RKEYS, 1);
	set_phase(PH_IDLE);
	__atomic_store_n(&rstop, 0, __ATOMIC_RELAXED);
	pthread_create(&rd, NULL, reader, NULL);
	usleep(100000);
	set_phase(PH_GROW_AUTO);
	t0 = now();
	fill(RKEYS, K, 1);
	row("grow_auto", now() - t0, "s");
	settle();
	set_phase(PH_SHRINK_AUTO);
	t0 = now();
	fill(RKEYS, K, 0);
	tbl_resize(T, 1);	/* ck_hs and rwlock: no-op */
	row("shrink_auto", now() - t0, "s");
	__atomic_store_n(&rstop, 1, __ATOMIC_RELAXED);
	pthread_join(rd, NULL);
	fill(0, RKEYS, 0);
	settle();
	tbl_destroy(T);

	/* Explicit: 1 -> K buckets and back, RKEYS entries present. */
	T = tbl_create(1, 0);
	fill(0, RKEYS, 1);
	__atomic_store_n(&rstop, 0, __ATOMIC_RELAXED);
	set_phase(PH_GROW);
	pthread_create(&rd, NULL, reader, NULL);
	usleep(10000);
	t0 = now();
	explicit_ok = tbl_resize(T, K) == 0;
	if (explicit_ok)
		row("grow_explicit", now() - t0, "s");
	set_phase(PH_SHRINK);
	t0 = now();
	if (explicit_ok && tbl_resize(T, 1) == 0)
		row("shrink_explicit", now() - t0, "s");
	__atomic_store_n(&rstop, 1, __ATOMIC_RELAXED);
	pthread_join(rd, NULL);
	fill(0, RKEYS, 0);
	settle();
	tbl_destroy(T);

	row("stall_idle", stall[PH_IDLE] * 1e6, "us");
	row("stall_grow_auto", stall[PH_GROW_AUTO] * 1e6, "us");
	row("stall_shrink_auto", stall[PH_SHRINK_AUTO] * 1e6, "us");
	if (explicit_ok) {
		row("stall_grow_explicit", stall[PH_GROW] * 1e6, "us");
		row("stall_shrink_explicit", stall[PH_SHRINK] * 1e6, "us");
	}
}

/*
 * --- ipo: callgrind counts only inside measured_loop() (--toggle-collect),
 * so table set-up and the resize worker's start are left out.
 */
__attribute__((noinline)) void measured_loop(int w, unsigned long n)
{
	uint64_t s = 42;
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (w == W_INSERT)
			tbl_insert(T, i);
		else if (w == W_DELETE)
			tbl_remove(T, i);
		else
			tbl_lookup(T, (w == W_MISS ? K : 0) + (rnd(&s) & (K - 1)));
	}
}

static void bench_ipo(enum work w, unsigned long n)
{
	T = tbl_create(strcmp(mode, "auto") ? K : 1, 1);
	if (!T)
		exit(2);
	if (w == W_INSERT) {
		measured_loop(w, K);
	} else {
		fill(0, K, 1);
		settle();
		usleep(200000);	/* under valgrind the resize worker is slow */
		settle();
		measured_loop(w, w == W_DELETE ? K : n);
	}
	fill(0, K, 0);
	settle();
	tbl_destroy(T);
	printf("ipo %s %s %s %lu\n", impl, tbl_lookup_fn, tbl_insert_fn,
	       w == W_INSERT || w == W_DELETE ? K : n);
}

int main(int argc, char **argv)
{
	const char *what = "all";
	unsigned long n = 100000;
	int c;

	K = 1024;
	while ((c = getopt(argc, argv, "i:k:t:m:d:w:n:")) != -1) {
		switch (c) {
		case 'i': impl = optarg; break;
		case 'k': K = strtoul(optarg, NULL, 0); break;
		case 't': NT = atoi(optarg); break;
		case 'm': mode = optarg; break;
		case 'd': DUR = atof(optarg); break;
		case 'w': what = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: see harness.c\n");
			return 2;
		}
	}
	if (K < RKEYS || (K & (K - 1)) || NT < 1 || NT > 64) {
		fprintf(stderr, "keys: power of two >= %lu; threads 1..64\n",
			RKEYS);
		return 2;
	}
	tbl_thread_online();
	if (!strcmp(what, "all"))
		bench_all();
	else if (!strcmp(what, "resize"))
		bench_resize();
	else if (!strcmp(what, "ipo_hit"))
		bench_ipo(W_HIT, n);
	else if (!strcmp(what, "ipo_miss"))
		bench_ipo(W_MISS, n);
	else if (!strcmp(what, "ipo_insert"))
		bench_ipo(W_INSERT, n);
	else if (!strcmp(what, "ipo_delete"))
		bench_ipo(W_DELETE, n);
	else
		return 2;
	tbl_thread_offline();
	return 0;
}
