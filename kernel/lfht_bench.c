// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /sys/kernel/debug/lfht/bench: lfht against the kernel's rhashtable, same
 * boot, same keys, same hash (jhash2 with a random seed), same kthreads.
 *
 *   echo 'keys=65536 threads=2 ms=200 rounds=5' > bench   (the defaults)
 *   cat bench        runs every workload, prints one line per comparison:
 *                    RATIO <workload> <keys> <threads> lfht/rhashtable <r>
 *
 * r is the median over the rounds of lfht's throughput over rhashtable's;
 * higher is better for lfht.  In a round of a timed workload both tables
 * are loaded and run alternately in 10 slices of ms / 10 each (under TCG
 * the host's speed drifts by 1.5x between rounds); insert and delete run
 * one table after the other.  Workloads:
 * lookup_hit, lookup_miss, insert (into a table grown from one bucket),
 * delete, mix90 and mix50 (lookup/insert/delete 90/5/5 and 50/25/25 on a
 * table kept half full).  Under emulation only the ratios mean anything.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "lfht_core.h"
#include "lfht_inline.h"
#include "lfht_kernel.h"

#define BENCH_MAX_THREADS	16
#define BENCH_MAX_ROUNDS	15
#define BENCH_OUT_MAX		(64 * 1024)
/* A round of a timed workload: this many slices per table, alternating. */
#define BENCH_SLICES		10

struct bench_params {
	unsigned long keys, threads, ms, rounds;
};

static struct bench_params params = {
	.keys = 65536, .threads = 2, .ms = 200, .rounds = 5,
};
static DEFINE_MUTEX(bench_lock);	/* params and one run at a time */

/*
 * One object for both tables, in one array per round that both use: the
 * same memory (the same pages and cache lines under the same keys) for
 * each, so that where the array lands, which moves a TCG guest's speed by
 * up to 1.5x, is no difference between them.
 */
struct bench_obj {
	struct cds_lfht_node lf;
	struct rhash_head rh;
	u64 key;
	bool present[2];	/* in lfht's table, in rhashtable's */
};

static const struct rhashtable_params rh_params = {
	.key_len = sizeof(u64),
	.key_offset = offsetof(struct bench_obj, key),
	.head_offset = offsetof(struct bench_obj, rh),
	.automatic_shrinking = true,
};

enum workload { LOOKUP_HIT, LOOKUP_MISS, INSERT, DELETE, MIX90, MIX50, NR_WORKLOADS };

static const char *const workload_names[] = {
	"lookup_hit", "lookup_miss", "insert", "delete", "mix90", "mix50",
};

/* Per-mille lookups and inserts of the mixes; the rest are deletes. */
static const unsigned int mix_lookup[] = { [MIX90] = 900, [MIX50] = 500 };
static const unsigned int mix_insert[] = { [MIX90] = 50, [MIX50] = 250 };

/* Insert and delete run a fixed count; the others run for a time. */
static bool fixed_count(enum workload w)
{
	return w == INSERT || w == DELETE;
}

struct bench_run {
	bool rh;			/* rhashtable, else lfht */
	bool rh_ready;			/* rht initialised */
	enum workload w;
	unsigned long keys, threads;
	u64 deadline_ns;
	u32 seed;
	struct cds_lfht *lf;
	struct rhashtable rht;
	struct bench_obj *objs;		/* 2 * keys: [0, keys) start present */
	atomic_t ready;
	struct completion go, done;
	/*
	 * Insert and delete: threads started (set before complete_all(go)),
	 * threads past go, and the time the last of them got there.
	 */
	int started;
	atomic_t arrived;
	u64 start_ns;
	atomic_t running;
	atomic64_t ops;
	/*
	 * Each thread's random state and place in its objects, kept across
	 * slices.  Thread i writes them before its fully ordered decrement of
	 * running; run_threads() returns after the last decrement (its own,
	 * or the wait for the complete() after it), and the next slice's
	 * thread i is created after that.
	 */
	u32 rnd[BENCH_MAX_THREADS];
	unsigned long pos[BENCH_MAX_THREADS];
	u64 end_ns[BENCH_MAX_THREADS];	/* insert and delete; the same way */
};

static u32 key_hash(const struct bench_run *r, u64 key)
{
	return jhash2((const u32 *)&key, 2, r->seed);
}

static int lf_match(struct cds_lfht_node *node, const void *key)
{
	return container_of(node, struct bench_obj, lf)->key == *(const u64 *)key;
}

static u32 xorshift(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* -- The operations, one per table ---------------------------------------- */

/*
 * Each table's lookup is a function of its own at the start of a page.
 * Under TCG the ratio of lookup hits at 2^10 keys fell from 1.33 to 0.84
 * when unrelated code shifted op_lookup() by 64 bytes, its machine code
 * unchanged (QEMU finds translated code by guest address; how that costs
 * is not pinned down).
 * Page-aligned, they no longer move with code elsewhere in the module.
 * Each is in a section of its own: page alignment inside .text would make
 * gas jump over the padding, which objtool reports as unreachable.
 */
static noinline __section(".text.lfht_bench_lf") __aligned(PAGE_SIZE)
bool lf_lookup(struct bench_run *r, u64 key)
{
	struct cds_lfht_iter iter;
	bool found;

	rcu_read_lock();
	cds_lfht_lookup_inline(r->lf, key_hash(r, key), lf_match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter);
	rcu_read_unlock();
	return found;
}

static noinline __section(".text.lfht_bench_rh") __aligned(PAGE_SIZE)
bool rh_lookup(struct bench_run *r, u64 key)
{
	/* Takes rcu_read_lock() itself. */
	return rhashtable_lookup_fast(&r->rht, &key, rh_params) != NULL;
}

static bool op_lookup(struct bench_run *r, u64 key)
{
	return r->rh ? rh_lookup(r, key) : lf_lookup(r, key);
}

static void op_insert(struct bench_run *r, unsigned long i)
{
	struct bench_obj *o = &r->objs[i];

	o->present[r->rh] = true;
	if (r->rh) {
		WARN_ON_ONCE(rhashtable_insert_fast(&r->rht, &o->rh, rh_params));
		return;
	}
	rcu_read_lock();
	WARN_ON_ONCE(cds_lfht_add_unique(r->lf, key_hash(r, o->key), lf_match,
					 &o->key, &o->lf) != &o->lf);
	rcu_read_unlock();
}

/* Both look the object up first, as a caller holding only a key would. */
static void op_delete(struct bench_run *r, unsigned long i)
{
	struct cds_lfht_iter iter;
	struct bench_obj *o;
	u64 key = r->objs[i].key;

	r->objs[i].present[r->rh] = false;
	if (r->rh) {
		rcu_read_lock();
		o = rhashtable_lookup(&r->rht, &key, rh_params);
		WARN_ON_ONCE(!o || rhashtable_remove_fast(&r->rht, &o->rh,
							  rh_params));
		rcu_read_unlock();
		return;
	}
	rcu_read_lock();
	cds_lfht_lookup_inline(r->lf, key_hash(r, key), lf_match, &key, &iter);
	WARN_ON_ONCE(cds_lfht_del(r->lf, cds_lfht_iter_get_node(&iter)));
	rcu_read_unlock();
}

static bool present(struct bench_run *r, unsigned long i)
{
	return r->objs[i].present[r->rh];
}

/* -- Threads -------------------------------------------------------------- */

struct bench_thread {
	struct bench_run *r;
	unsigned long id;
};

/*
 * Thread @id owns objects id, id + threads, ...: only it inserts or deletes
 * them, so the workloads never fail an insert or a delete.  Timed runs
 * check the clock every 64 operations; insert and delete run a fixed count.
 * Every 64 operations a thread lets others run: with a thread bound to
 * each CPU and no preemption, the tables' resize work would wait for the
 * end of the run (lfht inserted 65536 keys into one bucket at 10000/s).
 * Keys 2 * keys and up are never present (lookup_miss).
 */
static int bench_thread(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_run *r = t->r;
	unsigned long n = 2 * r->keys, step = r->threads, i, done = 0;
	unsigned long j = r->pos[t->id], mine = n / step;	/* own: id + j * step */
	u32 rnd = r->rnd[t->id];
	unsigned int p;

	atomic_inc(&r->ready);
	wait_for_completion(&r->go);
	if (fixed_count(r->w)) {
		/*
		 * A fixed count (about 0.3 ms at 1024 keys) is timed from when
		 * every thread is running, not from complete_all(): waking a
		 * kthread on an idle CPU took about as long.  Fully ordered
		 * increment; the last one's time is read after the run, like
		 * rnd[] and pos[].
		 */
		if (atomic_inc_return(&r->arrived) == r->started)
			r->start_ns = ktime_get_ns();
		/* Unordered read: the count orders nothing, it only gates. */
		while (atomic_read(&r->arrived) < r->started)
			cond_resched();	/* the resize work may need this CPU */
	}
	switch (r->w) {
	case INSERT:		/* objects [keys, 2 keys) */
		for (i = r->keys + t->id; i < n; i += step, done++) {
			op_insert(r, i);
			if (!(done & 63))
				cond_resched();
		}
		break;
	case DELETE:		/* objects [0, keys) */
		for (i = t->id; i < r->keys; i += step, done++) {
			op_delete(r, i);
			if (!(done & 63))
				cond_resched();
		}
		break;
	default:
		while (ktime_get_ns() < r->deadline_ns) {
			for (p = 0; p < 64; p++, done++) {
				u32 x = xorshift(&rnd);
				u64 key = x % r->keys;

				if (r->w == LOOKUP_HIT) {
					op_lookup(r, key);
					continue;
				}
				if (r->w == LOOKUP_MISS) {
					op_lookup(r, key + n);
					continue;
				}
				/* Mixes: lookups over every key, half present. */
				if (x % 1000 < mix_lookup[r->w]) {
					op_lookup(r, x % n);
					continue;
				}
				j = j + 1 < mine ? j + 1 : 0;
				i = t->id + j * step;
				if (x % 1000 < mix_lookup[r->w] + mix_insert[r->w]) {
					if (!present(r, i))
						op_insert(r, i);
				} else if (present(r, i)) {
					op_delete(r, i);
				}
			}
			cond_resched();
		}
		break;
	}
	r->rnd[t->id] = rnd;
	r->pos[t->id] = j;
	r->end_ns[t->id] = ktime_get_ns();
	atomic64_add(done, &r->ops);
	if (atomic_dec_and_test(&r->running))
		complete(&r->done);
	return 0;
}

/* -- One measurement ------------------------------------------------------ */

static int setup_tables(struct bench_run *r)
{
	struct rhashtable_params p = rh_params;
	unsigned long i;

	if (r->rh) {
		/* Growth from small for insert, pre-sized for the others. */
		p.nelem_hint = r->w == INSERT ? 0 : r->keys;
		if (rhashtable_init(&r->rht, &p))
			return -ENOMEM;
		r->rh_ready = true;
	} else {
		/*
		 * Pre-sized to the bytes rhashtable takes for the hint (2^21
		 * 8-byte buckets for 2^20 keys): 2^20 of our 16-byte buckets,
		 * each two 8-byte list heads (LFHT_HEAD_SHIFT).
		 */
		r->lf = cds_lfht_new(r->w == INSERT ? 1 :
				     lfht_roundup_pow2(r->keys), 1, 0,
				     CDS_LFHT_AUTO_RESIZE, NULL);
		if (!r->lf)
			return -ENOMEM;
	}
	for (i = 0; r->w != INSERT && i < r->keys; i++) {
		op_insert(r, i);
		if (!(i & 1023))
			cond_resched();
	}
	return 0;
}

static void teardown_tables(struct bench_run *r)
{
	unsigned long i, n = 2 * r->keys;

	if (r->rh) {
		/* The objects live in one array: nothing to free per entry. */
		if (r->rh_ready)
			rhashtable_destroy(&r->rht);
	} else if (r->lf) {
		for (i = 0; i < n; i++) {
			if (r->objs[i].present[0])
				op_delete(r, i);
			if (!(i & 1023))
				cond_resched();
		}
		WARN_ON(cds_lfht_destroy(r->lf, NULL));
	}
	/* No lookup that could still reach an object has not ended. */
	synchronize_rcu();
}

/* One table on @objs, loaded for workload @w, or NULL. */
static struct bench_run *run_new(bool rh, enum workload w,
				 const struct bench_params *bp,
				 struct bench_obj *objs)
{
	struct bench_run *r = kzalloc(sizeof(*r), GFP_KERNEL);
	unsigned long i;

	if (!r)
		return NULL;
	r->rh = rh;
	r->w = w;
	r->keys = bp->keys;
	r->threads = bp->threads;
	r->objs = objs;
	r->seed = get_random_u32();
	for (i = 0; i < BENCH_MAX_THREADS; i++)
		r->rnd[i] = r->seed ^ (u32)(i * 2654435761u) ^ 1;
	init_completion(&r->go);
	init_completion(&r->done);
	if (setup_tables(r)) {
		teardown_tables(r);
		kfree(r);
		return NULL;
	}
	return r;
}

static void run_free(struct bench_run *r)
{
	if (r) {
		teardown_tables(r);
		kfree(r);
	}
}

/*
 * Run the threads on @r once: for @ms milliseconds (timed workloads) or
 * through their fixed count.  Adds the operations and the nanoseconds
 * taken to @ops and @ns (a fixed count: from when every thread runs to
 * the last one's end); false if a thread could not be started.
 */
static bool run_threads(struct bench_run *r, unsigned long ms, u64 *ops,
			u64 *ns)
{
	struct bench_thread th[BENCH_MAX_THREADS];
	struct task_struct *task;
	u64 start = 0;
	unsigned long i;
	int started = 0;

	atomic_set(&r->ready, 0);
	atomic_set(&r->arrived, 0);
	atomic64_set(&r->ops, 0);
	reinit_completion(&r->go);
	reinit_completion(&r->done);
	/* One count for this function, one per thread started. */
	atomic_set(&r->running, 1);
	for (i = 0; i < r->threads; i++) {
		th[i].r = r;
		th[i].id = i;
		atomic_inc(&r->running);
		task = kthread_create(bench_thread, &th[i], "lfht-bench/%lu", i);
		if (IS_ERR(task)) {
			atomic_dec(&r->running);
			goto stop;
		}
		/* Thread i always on CPU i: each slice finds the same CPU. */
		kthread_bind(task, cpumask_local_spread(i, NUMA_NO_NODE));
		wake_up_process(task);
		started++;
	}
	while (atomic_read(&r->ready) < started)
		usleep_range(100, 200);
	start = ktime_get_ns();
	/* Read by the threads only after complete_all() below. */
	r->deadline_ns = start + ms * NSEC_PER_MSEC;
stop:
	r->started = started;	/* likewise */
	complete_all(&r->go);
	if (!atomic_dec_and_test(&r->running))
		wait_for_completion(&r->done);
	if (fixed_count(r->w)) {
		/* From the last thread's start to the last thread's end. */
		u64 end = r->start_ns;

		for (i = 0; i < started; i++)
			end = max(end, r->end_ns[i]);
		*ns += end - r->start_ns;
	} else {
		*ns += ktime_get_ns() - start;
	}
	*ops += atomic64_read(&r->ops);
	return started == r->threads;
}

static u64 rate_of(u64 ops, u64 ns)
{
	return div64_u64(ops * NSEC_PER_SEC, ns ? ns : 1);
}

/* Insert and delete: one table at a time, @rh_first or lfht first. */
static void round_fixed(enum workload w, const struct bench_params *bp,
			struct bench_obj *objs, bool rh_first, u64 rate[2])
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		bool rh = rh_first ^ i;
		struct bench_run *r = run_new(rh, w, bp, objs);
		u64 ops = 0, ns = 0;

		rate[rh] = r && run_threads(r, 0, &ops, &ns) ? rate_of(ops, ns) : 0;
		run_free(r);
	}
}

/*
 * Timed workloads: both tables loaded at once, then BENCH_SLICES slices of
 * ms / BENCH_SLICES each, alternating the tables (and which goes first),
 * so that a change in the host's speed during the round reaches both.
 */
static void round_timed(enum workload w, const struct bench_params *bp,
			struct bench_obj *objs, bool rh_first, u64 rate[2])
{
	unsigned long slices = min_t(unsigned long, BENCH_SLICES, bp->ms);
	struct bench_run *r[2];
	u64 ops[2] = { 0, 0 }, ns[2] = { 0, 0 };
	unsigned long s;
	unsigned int i;
	bool ok;

	r[rh_first] = run_new(rh_first, w, bp, objs);
	r[!rh_first] = run_new(!rh_first, w, bp, objs);
	ok = r[0] && r[1];
	for (s = 0; ok && s < slices; s++) {
		for (i = 0; ok && i < 2; i++) {
			bool rh = rh_first ^ (s & 1) ^ i;

			ok = run_threads(r[rh], bp->ms / slices, &ops[rh], &ns[rh]);
		}
	}
	for (i = 0; i < 2; i++) {
		rate[i] = ok ? rate_of(ops[i], ns[i]) : 0;
		run_free(r[i]);
	}
}

/* One round of workload @w: rate[0] is lfht's, rate[1] rhashtable's. */
static void bench_round(enum workload w, const struct bench_params *bp,
			bool rh_first, u64 rate[2])
{
	unsigned long i, n = 2 * bp->keys;
	struct bench_obj *objs = vzalloc(n * sizeof(*objs));

	rate[0] = 0;
	rate[1] = 0;
	if (!objs)
		return;
	for (i = 0; i < n; i++)
		objs[i].key = i;
	if (fixed_count(w))
		round_fixed(w, bp, objs, rh_first, rate);
	else
		round_timed(w, bp, objs, rh_first, rate);
	/* Both tables are gone, each after a grace period. */
	vfree(objs);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* -- The debugfs file ----------------------------------------------------- */

static void run_all(const struct bench_params *bp, struct lfht_report *o)
{
	u64 ratio[BENCH_MAX_ROUNDS], rate[2], med;
	unsigned int w, k;

	lfht_report_put(o, "# keys=%lu threads=%lu ms=%lu rounds=%lu, %u CPUs\n",
		bp->keys, bp->threads, bp->ms, bp->rounds, num_online_cpus());
	for (w = 0; w < NR_WORKLOADS; w++) {
		for (k = 0; k < bp->rounds; k++) {
			/* Alternate which table goes first. */
			bench_round(w, bp, k & 1, rate);
			ratio[k] = rate[1] ? div64_u64(rate[0] * 1000, rate[1]) : 0;
			lfht_report_put(o, "# %s round %u: lfht %llu ops/s, rhashtable %llu ops/s\n",
				workload_names[w], k, rate[0], rate[1]);
		}
		sort(ratio, bp->rounds, sizeof(ratio[0]), cmp_u64, NULL);
		med = ratio[bp->rounds / 2];
		lfht_report_put(o, "RATIO %s %lu %lu lfht/rhashtable %llu.%03llu\n",
			workload_names[w], bp->keys, bp->threads, med / 1000,
			med % 1000);
	}
}

static int bench_open(struct inode *inode, struct file *file)
{
	struct bench_params bp;
	struct lfht_report *o;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	o = lfht_report_new(BENCH_OUT_MAX);
	if (!o)
		return -ENOMEM;
	mutex_lock(&bench_lock);
	bp = params;
	run_all(&bp, o);
	mutex_unlock(&bench_lock);
	file->private_data = o;
	return 0;
}

/* "keys=N threads=N ms=N rounds=N", any subset; anything else is -EINVAL. */
static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	struct bench_params bp;
	char buf[128], *s, *tok, *val;
	unsigned long v;
	int ret = 0;

	if (!len || len >= sizeof(buf))
		return len ? -E2BIG : -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	mutex_lock(&bench_lock);
	bp = params;
	s = strim(buf);
	while (!ret && (tok = strsep(&s, " \t\n"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val || kstrtoul(val + 1, 0, &v) || !v) {
			ret = -EINVAL;
			break;
		}
		*val = 0;
		if (!strcmp(tok, "keys") && v <= (1UL << 24))
			bp.keys = v;
		else if (!strcmp(tok, "threads") && v <= BENCH_MAX_THREADS)
			bp.threads = v;
		else if (!strcmp(tok, "ms") && v <= 60000)
			bp.ms = v;
		else if (!strcmp(tok, "rounds") && v <= BENCH_MAX_ROUNDS)
			bp.rounds = v;
		else
			ret = -EINVAL;
	}
	if (!ret)
		params = bp;
	mutex_unlock(&bench_lock);
	if (ret)
		pr_warn_ratelimited("lfht: bench: bad parameters\n");
	return ret ? ret : len;
}

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
	.open = bench_open,
	.read = lfht_report_read,
	.write = bench_write,
	.llseek = default_llseek,
	.release = lfht_report_release,
};

void lfht_bench_init(struct dentry *dir)
{
	debugfs_create_file("bench", 0600, dir, NULL, &bench_fops);
}
