// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /sys/kernel/debug/lfht/bench: lfht against the kernel's rhashtable, same
 * boot, same keys, same hash (jhash2 with a random seed), same kthreads.
 *
 *   echo 'keys=65536 threads=2 ms=200 rounds=5' > bench   (the defaults)
 *   cat bench        runs every workload, prints one line per comparison:
 *                    RATIO <workload> <keys> <threads> lfht/rhashtable <r>
 *
 * r is the median over the rounds of lfht's throughput over rhashtable's,
 * the two run alternately; higher is better for lfht.  Workloads:
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

struct bench_params {
	unsigned long keys, threads, ms, rounds;
};

static struct bench_params params = {
	.keys = 65536, .threads = 2, .ms = 200, .rounds = 5,
};
static DEFINE_MUTEX(bench_lock);	/* params and one run at a time */

/* One object type per table, the same size, in one array per run. */
struct lf_obj {
	struct cds_lfht_node node;
	u64 key;
	bool present;
};

struct rh_obj {
	struct rhash_head node;
	u64 key;
	bool present;
};

static const struct rhashtable_params rh_params = {
	.key_len = sizeof(u64),
	.key_offset = offsetof(struct rh_obj, key),
	.head_offset = offsetof(struct rh_obj, node),
	.automatic_shrinking = true,
};

enum workload { LOOKUP_HIT, LOOKUP_MISS, INSERT, DELETE, MIX90, MIX50, NR_WORKLOADS };

static const char *const workload_names[] = {
	"lookup_hit", "lookup_miss", "insert", "delete", "mix90", "mix50",
};

/* Per-mille lookups and inserts of the mixes; the rest are deletes. */
static const unsigned int mix_lookup[] = { [MIX90] = 900, [MIX50] = 500 };
static const unsigned int mix_insert[] = { [MIX90] = 50, [MIX50] = 250 };

struct bench_run {
	bool rh;			/* rhashtable, else lfht */
	bool rh_ready;			/* rht initialised */
	enum workload w;
	unsigned long keys, threads;
	u64 deadline_ns;
	u32 seed;
	struct cds_lfht *lf;
	struct rhashtable rht;
	struct lf_obj *lf_objs;		/* 2 * keys: [0, keys) start present */
	struct rh_obj *rh_objs;
	atomic_t ready;
	struct completion go, done;
	atomic_t running;
	atomic64_t ops;
};

static u32 key_hash(const struct bench_run *r, u64 key)
{
	return jhash2((const u32 *)&key, 2, r->seed);
}

static int lf_match(struct cds_lfht_node *node, const void *key)
{
	return container_of(node, struct lf_obj, node)->key == *(const u64 *)key;
}

static u32 xorshift(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* -- The operations, one per table ---------------------------------------- */

static bool op_lookup(struct bench_run *r, u64 key)
{
	struct cds_lfht_iter iter;
	bool found;

	if (r->rh)	/* takes rcu_read_lock() itself */
		return rhashtable_lookup_fast(&r->rht, &key, rh_params) != NULL;
	rcu_read_lock();
	cds_lfht_lookup_inline(r->lf, key_hash(r, key), lf_match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter);
	rcu_read_unlock();
	return found;
}

static void op_insert(struct bench_run *r, unsigned long i)
{
	if (r->rh) {
		WARN_ON_ONCE(rhashtable_insert_fast(&r->rht, &r->rh_objs[i].node,
						    rh_params));
		r->rh_objs[i].present = true;
		return;
	}
	rcu_read_lock();
	WARN_ON_ONCE(cds_lfht_add_unique(r->lf, key_hash(r, r->lf_objs[i].key),
					 lf_match, &r->lf_objs[i].key,
					 &r->lf_objs[i].node) !=
		     &r->lf_objs[i].node);
	rcu_read_unlock();
	r->lf_objs[i].present = true;
}

/* Both look the object up first, as a caller holding only a key would. */
static void op_delete(struct bench_run *r, unsigned long i)
{
	struct cds_lfht_iter iter;
	struct rh_obj *o;
	u64 key;

	if (r->rh) {
		key = r->rh_objs[i].key;
		rcu_read_lock();
		o = rhashtable_lookup(&r->rht, &key, rh_params);
		WARN_ON_ONCE(!o || rhashtable_remove_fast(&r->rht, &o->node,
							  rh_params));
		rcu_read_unlock();
		r->rh_objs[i].present = false;
		return;
	}
	key = r->lf_objs[i].key;
	rcu_read_lock();
	cds_lfht_lookup_inline(r->lf, key_hash(r, key), lf_match, &key, &iter);
	WARN_ON_ONCE(cds_lfht_del(r->lf, cds_lfht_iter_get_node(&iter)));
	rcu_read_unlock();
	r->lf_objs[i].present = false;
}

static bool present(struct bench_run *r, unsigned long i)
{
	return r->rh ? r->rh_objs[i].present : r->lf_objs[i].present;
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
 * Keys 2 * keys and up are never present (lookup_miss).
 */
static int bench_thread(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_run *r = t->r;
	unsigned long n = 2 * r->keys, step = r->threads, i, done = 0;
	unsigned long j = 0, mine = n / step;	/* own objects id + j * step */
	u32 rnd = r->seed ^ (u32)(t->id * 2654435761u) ^ 1;
	unsigned int p;

	atomic_inc(&r->ready);
	wait_for_completion(&r->go);
	switch (r->w) {
	case INSERT:		/* objects [keys, 2 keys) */
		for (i = r->keys + t->id; i < n; i += step, done++)
			op_insert(r, i);
		break;
	case DELETE:		/* objects [0, keys) */
		for (i = t->id; i < r->keys; i += step, done++)
			op_delete(r, i);
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
		}
		break;
	}
	atomic64_add(done, &r->ops);
	if (atomic_dec_and_test(&r->running))
		complete(&r->done);
	return 0;
}

/* -- One measurement ------------------------------------------------------ */

static int setup_tables(struct bench_run *r)
{
	unsigned long i, n = 2 * r->keys;
	struct rhashtable_params p = rh_params;

	if (r->rh) {
		/* Growth from small for insert, pre-sized for the others. */
		p.nelem_hint = r->w == INSERT ? 0 : r->keys;
		if (rhashtable_init(&r->rht, &p))
			return -ENOMEM;
		r->rh_ready = true;
		r->rh_objs = vzalloc(n * sizeof(*r->rh_objs));
		if (!r->rh_objs)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			r->rh_objs[i].key = i;
	} else {
		r->lf = cds_lfht_new(r->w == INSERT ? 1 :
				     lfht_roundup_pow2(r->keys), 1, 0,
				     CDS_LFHT_AUTO_RESIZE, NULL);
		if (!r->lf)
			return -ENOMEM;
		r->lf_objs = vzalloc(n * sizeof(*r->lf_objs));
		if (!r->lf_objs)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			r->lf_objs[i].key = i;
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
			if (r->lf_objs[i].present)
				op_delete(r, i);
			if (!(i & 1023))
				cond_resched();
		}
		WARN_ON(cds_lfht_destroy(r->lf, NULL));
	}
	/* No lookup that could still reach an object has not ended. */
	synchronize_rcu();
	vfree(r->rh_objs);
	vfree(r->lf_objs);
}

/* Operations per second of one workload on one table, or 0 on failure. */
static u64 measure(bool rh, enum workload w, const struct bench_params *bp)
{
	struct bench_thread th[BENCH_MAX_THREADS];
	struct bench_run *r = kzalloc(sizeof(*r), GFP_KERNEL);
	u64 start = 0, ns, rate = 0;
	unsigned long i;
	int started = 0;

	if (!r)
		return 0;
	r->rh = rh;
	r->w = w;
	r->keys = bp->keys;
	r->threads = bp->threads;
	r->seed = get_random_u32();
	init_completion(&r->go);
	init_completion(&r->done);
	/* One count for this function, one per thread started. */
	atomic_set(&r->running, 1);
	if (setup_tables(r))
		goto out;
	for (i = 0; i < bp->threads; i++) {
		th[i].r = r;
		th[i].id = i;
		atomic_inc(&r->running);
		if (IS_ERR(kthread_run(bench_thread, &th[i], "lfht-bench/%lu", i))) {
			atomic_dec(&r->running);
			goto stop;
		}
		started++;
	}
	while (atomic_read(&r->ready) < started)
		usleep_range(100, 200);
	start = ktime_get_ns();
	/* Read by the threads only after complete_all() below. */
	r->deadline_ns = start + bp->ms * NSEC_PER_MSEC;
stop:
	complete_all(&r->go);
	if (!atomic_dec_and_test(&r->running))
		wait_for_completion(&r->done);
	ns = ktime_get_ns() - start;
	if (started == bp->threads)
		rate = div64_u64(atomic64_read(&r->ops) * NSEC_PER_SEC,
				 ns ? ns : 1);
out:
	teardown_tables(r);
	kfree(r);
	return rate;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* -- The debugfs file ----------------------------------------------------- */

static void run_all(const struct bench_params *bp, struct lfht_report *o)
{
	u64 ratio[BENCH_MAX_ROUNDS], lf, rh, med;
	unsigned int w, k;

	lfht_report_put(o, "# keys=%lu threads=%lu ms=%lu rounds=%lu, %u CPUs\n",
		bp->keys, bp->threads, bp->ms, bp->rounds, num_online_cpus());
	for (w = 0; w < NR_WORKLOADS; w++) {
		for (k = 0; k < bp->rounds; k++) {
			/* Alternate which table goes first. */
			if (k & 1) {
				rh = measure(true, w, bp);
				lf = measure(false, w, bp);
			} else {
				lf = measure(false, w, bp);
				rh = measure(true, w, bp);
			}
			ratio[k] = rh ? div64_u64(lf * 1000, rh) : 0;
			lfht_report_put(o, "# %s round %u: lfht %llu ops/s, rhashtable %llu ops/s\n",
				workload_names[w], k, lf, rh);
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
