// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * KUnit suite of lfht.ko, through its exported API only (insmod lfht.ko
 * first):
 *
 *  - every case of the embedded test vectors, one parameter each;
 *  - readers, writers and a resizer at once in kthreads, checking the
 *    guarantees of tests/unit/stress_guarantees.c, and growth from one
 *    bucket with readers looking up every key published;
 *  - add_unique races, a table destroyed while its resize work is queued,
 *    destroy of a non-empty table, and the ACCOUNTING counters;
 *  - allocation failure through lfht.ko's fault hook: each allocation of a
 *    creation, an explicit growth and the worker's growth failed in turn.
 *
 * Threads only count what they see; the test asserts on the counts once
 * they have stopped, outside any read-side section.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "lfht.h"
#include "lfht_inline.h"
#include "lfht_kernel.h"
#include "lfht_vector.h"

/* ------------------------------------------------------------------------
 * Test vectors: one parameter per "case NAME" block of each embedded file.
 */

struct vec_case {
	unsigned int file;	/* index in lfht_vec_files[] */
	size_t start, end;	/* byte range of the case in the file */
	unsigned int line;	/* line of the file the range starts at */
	char name[64];
};

static struct vec_case *vec_cases;
static unsigned int vec_nr_cases;

static bool vec_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool vec_tok_end(char c)
{
	return vec_space(c) || c == '#' || c == '\n';
}

/*
 * The first two tokens of the line at text[pos..end), split as the
 * interpreter splits them.  Returns the number of tokens found (0-2).
 */
static int vec_tokens(const char *text, size_t pos, size_t end,
		      size_t tok[2], size_t tok_len[2])
{
	int n = 0;

	while (n < 2 && pos < end) {
		while (pos < end && vec_space(text[pos]))
			pos++;
		if (pos == end || text[pos] == '#')
			break;
		tok[n] = pos;
		while (pos < end && !vec_tok_end(text[pos]))
			pos++;
		tok_len[n] = pos - tok[n];
		n++;
		if (pos < end && text[pos] == '#')
			break;
	}
	return n;
}

/*
 * Walk every file and find its cases; fill @out when not NULL.  Returns the
 * number of cases.  Operations before the first case make a case of their
 * own, "preamble", as the interpreter reports them.
 */
static unsigned int vec_scan(struct vec_case *out)
{
	unsigned int nr = 0, f;

	for (f = 0; f < lfht_vec_nr_files; f++) {
		const char *text = lfht_vec_files[f].text;
		size_t len = lfht_vec_files[f].len, pos = 0, eol, i;
		size_t tok[2], tok_len[2];
		struct vec_case *cur = NULL;
		unsigned int line = 1;
		bool open = false;
		int n;

		for (; pos < len; pos = eol + 1, line++) {
			for (eol = pos; eol < len && text[eol] != '\n'; eol++)
				;
			n = vec_tokens(text, pos, eol, tok, tok_len);
			if (!n)
				continue;
			if (tok_len[0] == 4 && !memcmp(text + tok[0], "case", 4)) {
				if (open && cur)
					cur->end = pos;
				cur = out ? &out[nr] : NULL;
				if (cur) {
					cur->file = f;
					cur->start = pos;
					cur->line = line;
					for (i = 0; n > 1 && i < tok_len[1] &&
					     i < sizeof(cur->name) - 1; i++)
						cur->name[i] = text[tok[1] + i];
					cur->name[i] = 0;
				}
				nr++;
				open = true;
			} else if (!open) {
				cur = out ? &out[nr] : NULL;
				if (cur) {
					cur->file = f;
					cur->start = 0;
					cur->line = 1;
					strscpy(cur->name, "preamble",
						sizeof(cur->name));
				}
				nr++;
				open = true;
			}
		}
		if (open && cur)
			cur->end = len;
	}
	return nr;
}

static int lfht_kunit_suite_init(struct kunit_suite *suite)
{
	unsigned int nr = vec_scan(NULL);

	vec_cases = kvcalloc(nr ? nr : 1, sizeof(*vec_cases), GFP_KERNEL);
	if (!vec_cases)
		return -ENOMEM;
	vec_nr_cases = vec_scan(vec_cases);
	return 0;
}

static void lfht_kunit_suite_exit(struct kunit_suite *suite)
{
	kvfree(vec_cases);
	vec_cases = NULL;
	vec_nr_cases = 0;
}

static const void *vec_gen_params(const void *prev, char *desc)
{
	const struct vec_case *c = prev;

	c = c ? c + 1 : vec_cases;
	if (!vec_cases || c >= vec_cases + vec_nr_cases)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: %s",
		 lfht_vec_files[c->file].name, c->name);
	return c;
}

struct vec_result {
	unsigned int calls, failed;
	int passed;
	char name[64];
	char why[256];
};

static void vec_report(void *ctx, const char *file, const char *name,
		       int passed, const char *why)
{
	struct vec_result *r = ctx;

	if (!r->calls++) {
		r->passed = passed;
		strscpy(r->name, name, sizeof(r->name));
		strscpy(r->why, why ? why : "", sizeof(r->why));
	}
	r->failed += !passed;
}

static void lfht_vector_case(struct kunit *test)
{
	const struct vec_case *c = test->param_value;
	const struct lfht_vec_file *f = &lfht_vec_files[c->file];
	struct lfht_env_config cfg = { .wq = NULL };
	struct vec_result *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct lfht_vec_report report = { .result = vec_report, .ctx = r };
	int failed;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	failed = lfht_vec_run(f->name, f->text + c->start, c->end - c->start,
			      &cfg, &report);
	KUNIT_EXPECT_EQ(test, r->calls, 1U);
	KUNIT_EXPECT_STREQ(test, r->name, c->name);
	KUNIT_EXPECT_EQ(test, failed, 0);
	KUNIT_EXPECT_TRUE_MSG(test, r->passed,
			      "%s: %s: %s (line numbers count from line %u of the file)",
			      f->name, c->name, r->why, c->line);
}

/*
 * The whole files through the interpreter, which counts the cases itself:
 * its count must be the number of parameters above.
 */
static void lfht_vector_count(struct kunit *test)
{
	struct lfht_env_config cfg = { .wq = NULL };
	struct vec_result *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct lfht_vec_report report = { .result = vec_report, .ctx = r };
	unsigned int f;
	int failed = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	for (f = 0; f < lfht_vec_nr_files; f++)
		failed += lfht_vec_run(lfht_vec_files[f].name,
				       lfht_vec_files[f].text,
				       lfht_vec_files[f].len, &cfg, &report);
	kunit_info(test, "%u vector cases in %u files\n", vec_nr_cases,
		   lfht_vec_nr_files);
	KUNIT_EXPECT_GT(test, vec_nr_cases, 0U);
	KUNIT_EXPECT_EQ(test, r->calls, vec_nr_cases);
	KUNIT_EXPECT_EQ(test, r->failed, 0U);
	KUNIT_EXPECT_EQ(test, failed, 0);
}

/* ------------------------------------------------------------------------
 * Shared helpers of the table tests.
 */

struct knode {
	unsigned long key, value;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static unsigned long hash_of(unsigned long key)
{
	return (unsigned long)((u64)key * GOLDEN_RATIO_64);
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return container_of(node, struct knode, node)->key ==
		*(const unsigned long *)key;
}

static struct knode *knode_new(unsigned long key, unsigned long value)
{
	struct knode *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (n) {
		n->key = key;
		n->value = value;
	}
	return n;
}

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Delete every node (freed after a grace period); returns how many. */
static unsigned long drain(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct knode *n;
	unsigned long nr = 0;

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, n, node) {
		if (!cds_lfht_del(ht, &n->node)) {
			kfree_rcu(n, rcu);
			nr++;
		}
	}
	rcu_read_unlock();
	return nr;
}

/* ------------------------------------------------------------------------
 * cds_lfht_lookup_inline() (kernel/lfht_inline.h) against cds_lfht_lookup():
 * the same node and the same duplicates for every key, present or not, at
 * several sizes, with duplicate keys (some copies deleted again) and
 * distinct keys sharing one hash (the path where match() fails).
 */

#define INLINE_KEYS	512

/* Keys from INLINE_KEYS / 2 up share eight hashes. */
static unsigned long inline_hash(unsigned long key)
{
	return hash_of(key < INLINE_KEYS / 2 ? key : key % 8);
}

static void lfht_lookup_inline_same(struct kunit *test)
{
	static const unsigned long sizes[] = { 1, 16, 1024 };
	unsigned long key, found = 0, dups = 0, bad = 0;
	struct cds_lfht_iter a, b;
	struct cds_lfht *ht;
	struct knode *n;
	unsigned int i;

	ht = cds_lfht_new(1, 1, 0, 0, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
	for (key = 0; key < INLINE_KEYS; key++) {
		for (i = 0; i < (key % 7 ? 1 : 2) + (key % 5 ? 0 : 1); i++) {
			n = knode_new(key, i);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, n);
			rcu_read_lock();
			cds_lfht_add(ht, inline_hash(key), &n->node);
			/* Keys divisible by 5 have one copy removed again. */
			if (i == 1 && !(key % 5) &&
			    !cds_lfht_del(ht, &n->node))
				kfree_rcu(n, rcu);
			rcu_read_unlock();
		}
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		cds_lfht_resize(ht, sizes[i]);
		rcu_read_lock();
		for (key = 0; key < 2 * INLINE_KEYS; key++) {
			cds_lfht_lookup(ht, inline_hash(key), match, &key, &a);
			cds_lfht_lookup_inline(ht, inline_hash(key), match, &key,
					       &b);
			found += a.node != NULL;
			while (a.node || b.node) {
				if (a.node != b.node) {
					bad++;
					break;
				}
				dups++;
				cds_lfht_next_duplicate(ht, match, &key, &a);
				cds_lfht_next_duplicate(ht, match, &key, &b);
			}
		}
		rcu_read_unlock();
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	/* Every present key at each of the three sizes. */
	KUNIT_EXPECT_EQ(test, found, ARRAY_SIZE(sizes) * INLINE_KEYS);
	KUNIT_EXPECT_GT(test, dups, found);
	kunit_info(test, "%lu lookups, %lu found, %lu nodes compared\n",
		   ARRAY_SIZE(sizes) * 2 * INLINE_KEYS, found, dups);
	drain(ht);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
}

/* Nodes in a traversal, and the table's own three figures. */
struct counts {
	long before, after;
	unsigned long count, walked;
};

static void count_all(struct cds_lfht *ht, struct counts *c)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	c->walked = 0;
	rcu_read_lock();
	cds_lfht_count_nodes(ht, &c->before, &c->count, &c->after);
	cds_lfht_for_each(ht, &iter, node)
		c->walked++;
	rcu_read_unlock();
}

/* kthreads that signal their end on a completion the test waits for. */
struct worker {
	struct completion done;
	void (*fn)(struct worker *w);
	void *ctx;
	unsigned int id;
	int cpu;		/* bind to it when >= 0 and online */
	bool started;
};

static int worker_main(void *arg)
{
	struct worker *w = arg;

	w->fn(w);
	kthread_complete_and_exit(&w->done, 0);
}

/* Start @n workers; returns how many started. */
static unsigned int workers_start(struct worker *w, unsigned int n)
{
	struct task_struct *t;
	unsigned int i, ok = 0;

	for (i = 0; i < n; i++) {
		init_completion(&w[i].done);
		t = kthread_create(worker_main, &w[i], "lfht_kunit/%u", i);
		w[i].started = !IS_ERR(t);
		if (!w[i].started)
			continue;
		if (w[i].cpu >= 0 && cpu_online(w[i].cpu))
			kthread_bind(t, w[i].cpu);
		wake_up_process(t);
		ok++;
	}
	return ok;
}

static void workers_wait(struct worker *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (w[i].started)
			wait_for_completion(&w[i].done);
}

/* ------------------------------------------------------------------------
 * Readers, writers and a resizer at once.
 */

#define NR_REPLACE	64	/* keys 0..63: add_replace only, always present */
#define NR_UNIQUE	64	/* keys 1000..1063: add_unique and del */
#define NR_STABLE	256	/* keys 5000..5255: never touched */
#define UNIQUE_BASE	1000UL
#define STABLE_BASE	5000UL
#define NR_WRITERS	2
#define NR_READERS	2
#define STRESS_MS	2000
#define STRESS_MAX_OPS	2000000UL	/* per writer, whatever the time */

struct stress {
	struct cds_lfht *ht;
	bool stop;
	atomic_t resize_seq;		/* odd while a resize runs */
	atomic_long_t balance[NR_UNIQUE];	/* successful adds - dels */
	atomic_long_t violations;	/* two live nodes of one key */
	atomic_long_t missing;		/* a replaced key not found */
	atomic_long_t bad_traversals, traversals, traversals_in_resize;
	atomic_long_t lookups, lookups_in_resize;
	atomic_long_t replaces, unique_adds, unique_losses, dels, resizes;
	atomic_long_t nomem;
};

static bool stress_stopped(struct stress *s)
{
	return READ_ONCE(s->stop);
}

static void stress_writer(struct worker *w)
{
	struct stress *s = w->ctx;
	unsigned long seed = w->id * 7919 + 1, seq = 0, ops;

	for (ops = 0; ops < STRESS_MAX_OPS && !stress_stopped(s); ops++) {
		unsigned long r = xorshift(&seed), key;
		struct cds_lfht_node *old;
		struct cds_lfht_iter iter;
		struct knode *n = NULL;

		if (r & 3) {	/* an add: allocate outside the read side */
			key = r & 1 ? (r >> 2) % NR_REPLACE :
				      UNIQUE_BASE + (r >> 2) % NR_UNIQUE;
			n = knode_new(key, ++seq);
			if (!n) {
				atomic_long_inc(&s->nomem);
				continue;
			}
		} else {
			key = UNIQUE_BASE + (r >> 2) % NR_UNIQUE;
		}
		rcu_read_lock();
		if (n && key < NR_REPLACE) {
			old = cds_lfht_add_replace(s->ht, hash_of(key), match,
						   &key, &n->node);
			if (!old)
				atomic_long_inc(&s->violations);
			else
				kfree_rcu(container_of(old, struct knode, node),
					  rcu);
			atomic_long_inc(&s->replaces);
		} else if (n) {
			old = cds_lfht_add_unique(s->ht, hash_of(key), match,
						  &key, &n->node);
			if (old == &n->node) {
				atomic_long_inc(&s->balance[key - UNIQUE_BASE]);
				atomic_long_inc(&s->unique_adds);
			} else {
				kfree(n);	/* never visible */
				atomic_long_inc(&s->unique_losses);
			}
		} else {
			cds_lfht_lookup(s->ht, hash_of(key), match, &key,
					&iter);
			old = cds_lfht_iter_get_node(&iter);
			if (old && !cds_lfht_del(s->ht, old)) {
				atomic_long_dec(&s->balance[key - UNIQUE_BASE]);
				atomic_long_inc(&s->dels);
				kfree_rcu(container_of(old, struct knode, node),
					  rcu);
			}
		}
		rcu_read_unlock();
		cond_resched();
	}
}

/* Live nodes of @key seen by one lookup walk; under rcu_read_lock(). */
static unsigned long walk_hash(struct cds_lfht *ht, unsigned long hash,
			       unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	cds_lfht_for_each_duplicate(ht, hash, match, &key, &iter, node)
		n++;
	return n;
}

static unsigned long walk_key(struct cds_lfht *ht, unsigned long key)
{
	return walk_hash(ht, hash_of(key), key);
}

static bool in_resize(int before, int after)
{
	return (before & 1) || before != after;
}

static void stress_reader(struct worker *w)
{
	struct stress *s = w->ctx;
	unsigned char seen[NR_STABLE + NR_REPLACE];

	do {	/* at least one pass, however late the thread gets a CPU */
		struct cds_lfht_iter iter;
		unsigned long key, i, bad = 0, missing = 0, dups = 0;
		struct knode *n;
		int seq;

		seq = atomic_read(&s->resize_seq);
		rcu_read_lock();
		for (key = 0; key < NR_REPLACE; key++) {
			i = walk_key(s->ht, key);
			missing += i == 0;
			dups += i > 1;
		}
		for (key = UNIQUE_BASE; key < UNIQUE_BASE + NR_UNIQUE; key++)
			dups += walk_key(s->ht, key) > 1;
		rcu_read_unlock();
		atomic_long_add(missing, &s->missing);
		atomic_long_add(dups, &s->violations);
		atomic_long_add(NR_REPLACE + NR_UNIQUE, &s->lookups);
		if (in_resize(seq, atomic_read(&s->resize_seq)))
			atomic_long_add(NR_REPLACE + NR_UNIQUE,
					&s->lookups_in_resize);
		cond_resched();

		memset(seen, 0, sizeof(seen));
		seq = atomic_read(&s->resize_seq);
		rcu_read_lock();
		cds_lfht_for_each_entry(s->ht, &iter, n, node) {
			if (n->key >= STABLE_BASE &&
			    n->key < STABLE_BASE + NR_STABLE)
				bad += seen[n->key - STABLE_BASE]++ != 0;
			else if (n->key < NR_REPLACE)
				bad += seen[NR_STABLE + n->key]++ != 0;
		}
		rcu_read_unlock();
		for (i = 0; i < sizeof(seen); i++)
			bad += seen[i] != 1;
		if (bad)
			atomic_long_inc(&s->bad_traversals);
		atomic_long_inc(&s->traversals);
		if (in_resize(seq, atomic_read(&s->resize_seq)))
			atomic_long_inc(&s->traversals_in_resize);
		cond_resched();
	} while (!stress_stopped(s));
}

static void stress_resizer(struct worker *w)
{
	struct stress *s = w->ctx;
	unsigned long size = 1;

	while (!stress_stopped(s)) {
		atomic_inc(&s->resize_seq);
		cds_lfht_resize(s->ht, size);	/* never under rcu_read_lock */
		atomic_inc(&s->resize_seq);
		atomic_long_inc(&s->resizes);
		size = size == 1 ? 1UL << 12 : size == 1UL << 12 ? 16 : 1;
		cond_resched();
	}
}

static const int stress_flags[] = {
	0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
};

static void stress_flags_desc(const int *flags, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s",
		 *flags & CDS_LFHT_AUTO_RESIZE ? "auto_resize " : "",
		 *flags & CDS_LFHT_ACCOUNTING ? "accounting" : "plain");
}

KUNIT_ARRAY_PARAM(stress_flags, stress_flags, stress_flags_desc);

struct stress_final {
	unsigned long wrong_unique, bad_balance;
	unsigned long seen_bad, expected;
	struct counts c;
};

/* After the threads: contents = what the successful adds and dels left. */
static void stress_final_check(struct stress *s, struct stress_final *f)
{
	unsigned char seen[NR_STABLE + NR_REPLACE + NR_UNIQUE];
	struct cds_lfht_iter iter;
	unsigned long key, i;
	struct knode *n;
	long b;

	memset(f, 0, sizeof(*f));
	memset(seen, 0, sizeof(seen));
	f->expected = NR_REPLACE + NR_STABLE;
	for (i = 0; i < NR_UNIQUE; i++) {
		b = atomic_long_read(&s->balance[i]);
		f->bad_balance += b < 0 || b > 1;
		f->expected += b == 1;
	}
	rcu_read_lock();
	for (i = 0; i < NR_UNIQUE; i++) {
		key = UNIQUE_BASE + i;
		f->wrong_unique += walk_key(s->ht, key) !=
				   (atomic_long_read(&s->balance[i]) == 1);
	}
	cds_lfht_for_each_entry(s->ht, &iter, n, node) {
		if (n->key < NR_REPLACE)
			seen[n->key]++;
		else if (n->key >= UNIQUE_BASE &&
			 n->key < UNIQUE_BASE + NR_UNIQUE)
			seen[NR_REPLACE + n->key - UNIQUE_BASE]++;
		else if (n->key >= STABLE_BASE &&
			 n->key < STABLE_BASE + NR_STABLE)
			seen[NR_REPLACE + NR_UNIQUE + n->key - STABLE_BASE]++;
		else
			f->seen_bad++;
	}
	rcu_read_unlock();
	for (i = 0; i < NR_REPLACE; i++)
		f->seen_bad += seen[i] != 1;
	for (i = 0; i < NR_UNIQUE; i++)
		f->seen_bad += seen[NR_REPLACE + i] !=
			       (atomic_long_read(&s->balance[i]) == 1);
	for (i = 0; i < NR_STABLE; i++)
		f->seen_bad += seen[NR_REPLACE + NR_UNIQUE + i] != 1;
	count_all(s->ht, &f->c);
}

static void lfht_stress_guarantees(struct kunit *test)
{
	const int flags = *(const int *)test->param_value;
	struct worker *w;
	struct stress *s;
	struct stress_final *f;
	unsigned int i, nr = NR_WRITERS + NR_READERS + 1;
	unsigned long key;
	struct knode *n;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	w = kunit_kcalloc(test, nr, sizeof(*w), GFP_KERNEL);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	s->ht = cds_lfht_new(1, 1, 0, flags, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s->ht);

	for (key = 0; key < NR_REPLACE + NR_STABLE; key++) {
		unsigned long k = key < NR_REPLACE ? key :
				  STABLE_BASE + key - NR_REPLACE;

		n = knode_new(k, 0);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, n);
		rcu_read_lock();
		cds_lfht_add(s->ht, hash_of(k), &n->node);
		rcu_read_unlock();
	}

	for (i = 0; i < nr; i++) {
		w[i].ctx = s;
		w[i].id = i + 1;
		w[i].cpu = -1;
		w[i].fn = i < NR_WRITERS ? stress_writer :
			  i < NR_WRITERS + NR_READERS ? stress_reader :
			  stress_resizer;
	}
	i = workers_start(w, nr);
	if (i == nr)
		msleep(STRESS_MS);
	WRITE_ONCE(s->stop, true);
	workers_wait(w, nr);
	KUNIT_ASSERT_EQ(test, i, nr);

	stress_final_check(s, f);
	kunit_info(test,
		   "%ld lookups (%ld in resizes), %ld traversals (%ld in resizes), %ld resizes, %ld replaces, %ld unique adds, %ld losses, %ld dels, %lu buckets at the end\n",
		   atomic_long_read(&s->lookups),
		   atomic_long_read(&s->lookups_in_resize),
		   atomic_long_read(&s->traversals),
		   atomic_long_read(&s->traversals_in_resize),
		   atomic_long_read(&s->resizes),
		   atomic_long_read(&s->replaces),
		   atomic_long_read(&s->unique_adds),
		   atomic_long_read(&s->unique_losses),
		   atomic_long_read(&s->dels), lfht_nr_buckets(s->ht));

	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->nomem), 0L);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&s->violations), 0L,
			    "two live nodes of one key, or add_replace found none");
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&s->missing), 0L,
			    "a key under add_replace was missing for a lookup");
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&s->bad_traversals), 0L,
			    "a traversal did not see each stable key once");
	/* The interesting windows were exercised. */
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->traversals_in_resize), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->lookups_in_resize), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->replaces), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->unique_losses), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->dels), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->resizes), 2L);

	/* Final contents: adds minus dels. */
	KUNIT_EXPECT_EQ(test, f->bad_balance, 0UL);
	KUNIT_EXPECT_EQ(test, f->wrong_unique, 0UL);
	KUNIT_EXPECT_EQ(test, f->seen_bad, 0UL);
	KUNIT_EXPECT_EQ(test, f->c.count, f->expected);
	KUNIT_EXPECT_EQ(test, f->c.walked, f->expected);
	if (flags & CDS_LFHT_ACCOUNTING) {
		KUNIT_EXPECT_EQ(test, f->c.before, (long)f->expected);
		KUNIT_EXPECT_EQ(test, f->c.after, (long)f->expected);
	}

	KUNIT_EXPECT_EQ(test, drain(s->ht), f->expected);
	count_all(s->ht, &f->c);
	KUNIT_EXPECT_EQ(test, f->c.count, 0UL);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(s->ht, NULL), 0);
}

/* ------------------------------------------------------------------------
 * Growth from one bucket while readers look up every key published so far.
 */

#define GROW_KEYS	(1UL << 14)

struct grow {
	struct cds_lfht *ht;
	struct knode **nodes;
	unsigned long published[2];	/* keys below, of each half, are in */
	bool stop;
	atomic_long_t missing, lookups, lookups_in_growth;
	unsigned long sizes_seen;	/* OR of the sizes lookups ran at */
};

/*
 * Every 256 adds, wait (10 ms at most) until the reader has looked up
 * something: on a loaded host the two writers could otherwise fill the
 * table before the reader first runs, and it would see only one size.
 */
static void let_reader_run(struct grow *g)
{
	long seen = atomic_long_read(&g->lookups);
	unsigned long until = jiffies + msecs_to_jiffies(10);

	while (atomic_long_read(&g->lookups) == seen &&
	       time_before(jiffies, until))
		usleep_range(50, 100);
}

/* Writers insert disjoint halves, the even and the odd keys. */
static void grow_writer(struct worker *w)
{
	struct grow *g = w->ctx;
	unsigned long half = w->id, i;

	for (i = half; i < GROW_KEYS; i += 2) {
		rcu_read_lock();
		cds_lfht_add(g->ht, hash_of(i), &g->nodes[i]->node);
		rcu_read_unlock();
		/* Pairs with the reader's acquire: linked, then published. */
		smp_store_release(&g->published[half], i + 2);
		if (!(i & 255))
			let_reader_run(g);
	}
}

static void grow_reader(struct worker *w)
{
	struct grow *g = w->ctx;
	unsigned long seed = 12345, limit, key, b0, b1, ops = 0, sizes = 0;
	struct cds_lfht_iter iter;
	bool found;

	while (!READ_ONCE(g->stop)) {
		unsigned int half = xorshift(&seed) & 1;

		if (!(++ops & 255))
			cond_resched();
		/* Pairs with the writer's release: keys below are linked. */
		limit = smp_load_acquire(&g->published[half]);
		if (limit < 2)
			continue;
		key = half + 2 * (xorshift(&seed) % (limit / 2));
		if (key >= limit)
			continue;
		b0 = lfht_nr_buckets(g->ht);
		rcu_read_lock();
		cds_lfht_lookup(g->ht, hash_of(key), match, &key, &iter);
		found = cds_lfht_iter_get_node(&iter) != NULL;
		rcu_read_unlock();
		b1 = lfht_nr_buckets(g->ht);
		if (!found)
			atomic_long_inc(&g->missing);
		atomic_long_inc(&g->lookups);
		if (b0 != b1)
			atomic_long_inc(&g->lookups_in_growth);
		sizes |= b0 | b1;
	}
	g->sizes_seen = sizes;	/* read after the completion */
}

static void lfht_growth(struct kunit *test)
{
	struct worker w[3] = {};
	unsigned long i, auto_size;
	struct counts c;
	struct grow *g;
	unsigned int started;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	g->nodes = kunit_kcalloc(test, GROW_KEYS, sizeof(*g->nodes),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g->nodes);
	for (i = 0; i < GROW_KEYS; i++) {
		g->nodes[i] = knode_new(i, i);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g->nodes[i]);
	}
	g->ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g->ht);

	/* The reader first, so that it sees the table grow. */
	for (i = 0; i < 3; i++) {
		w[i].ctx = g;
		w[i].id = i ? i - 1 : 0;
		w[i].cpu = -1;
		w[i].fn = i ? grow_writer : grow_reader;
	}
	started = workers_start(w, 3);
	workers_wait(&w[1], 2);
	auto_size = lfht_nr_buckets(g->ht);
	cds_lfht_resize(g->ht, GROW_KEYS);
	KUNIT_EXPECT_GE(test, lfht_nr_buckets(g->ht), GROW_KEYS);
	msleep(20);	/* the reader, at the final size */
	WRITE_ONCE(g->stop, true);
	workers_wait(w, 1);
	KUNIT_ASSERT_EQ(test, started, 3U);

	count_all(g->ht, &c);
	kunit_info(test, "%ld lookups at %d sizes (%ld while the size changed), %lu buckets after the adds\n",
		   atomic_long_read(&g->lookups), (int)hweight_long(g->sizes_seen),
		   atomic_long_read(&g->lookups_in_growth), auto_size);
	KUNIT_EXPECT_GT(test, auto_size, 1UL);
	KUNIT_EXPECT_LE(test, auto_size, 4 * GROW_KEYS);
	KUNIT_EXPECT_EQ(test, c.count, GROW_KEYS);
	KUNIT_EXPECT_EQ(test, c.walked, GROW_KEYS);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&g->missing), 0L,
			    "a published key was not found during growth");
	/* Not vacuous: lookups ran at two sizes or more as the table grew. */
	KUNIT_EXPECT_GE(test, hweight_long(g->sizes_seen & (GROW_KEYS - 1)), 2);

	KUNIT_EXPECT_EQ(test, drain(g->ht), GROW_KEYS);
	cds_lfht_resize(g->ht, 1);
	KUNIT_EXPECT_EQ(test, lfht_nr_buckets(g->ht), 1UL);
	count_all(g->ht, &c);
	KUNIT_EXPECT_EQ(test, c.count, 0UL);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(g->ht, NULL), 0);
}

/* ------------------------------------------------------------------------
 * Concurrent add_unique of the same keys: one winner per key.
 */

#define RACE_KEYS	256
#define RACE_THREADS	3
#define RACE_ROUNDS	24

struct race {
	struct cds_lfht *ht;
	struct knode **nodes[RACE_THREADS];	/* preallocated per thread */
	atomic_t winners[RACE_KEYS];
	unsigned int winner_of[RACE_KEYS];
	atomic_t arrived;
	atomic_t step;			/* lockstep rounds: keys met by adders 0, 1 */
	bool lockstep;
	atomic_t adders_left;
	unsigned long wins[RACE_THREADS];
	atomic_long_t wrong_winner;	/* loser told of a node of another key */
	atomic_long_t dup_in_traversal;
	atomic_long_t traversals;
	bool colliding;			/* all keys in one chain */
};

static unsigned long race_hash(struct race *r, unsigned long key)
{
	return r->colliding ? key << 20 : hash_of(key);
}

static void race_adder(struct worker *w)
{
	struct race *r = w->ctx;
	unsigned int t = w->id;
	struct cds_lfht_node *got;
	unsigned long key, seed = t * 104729 + 17;

	atomic_inc(&r->arrived);
	while (atomic_read(&r->arrived) < RACE_THREADS + 1)
		cpu_relax();
	for (key = 0; key < RACE_KEYS; key++) {
		struct knode *n = r->nodes[t][key];
		unsigned long spin = xorshift(&seed) % 64;

		/*
		 * Lockstep rounds: adders 0 and 1, on two CPUs, meet before
		 * every key and add it at once, so that the race happens even
		 * where one thread would otherwise run far ahead (KASAN, TCG).
		 */
		if (r->lockstep && t < 2) {
			atomic_inc(&r->step);
			while (atomic_read(&r->step) < 2 * (int)(key + 1))
				cpu_relax();
		}

		/* Jitter, so that threads running together overtake each other. */
		while (spin--)
			cpu_relax();
		rcu_read_lock();
		got = cds_lfht_add_unique(r->ht, race_hash(r, key), match, &key,
					  &n->node);
		if (got == &n->node) {
			r->wins[t]++;
			r->winner_of[key] = t;
			atomic_inc(&r->winners[key]);
			r->nodes[t][key] = NULL;	/* the table's now */
		} else if (container_of(got, struct knode, node)->key != key) {
			atomic_long_inc(&r->wrong_winner);
		}
		rcu_read_unlock();
	}
	atomic_dec(&r->adders_left);
}

/* Traverses while the adders run: never two nodes of one key. */
static void race_reader(struct worker *w)
{
	struct race *r = w->ctx;
	unsigned char seen[RACE_KEYS];

	atomic_inc(&r->arrived);
	while (atomic_read(&r->arrived) < RACE_THREADS + 1)
		cpu_relax();
	do {
		struct cds_lfht_iter iter;
		unsigned long dups = 0;
		struct knode *n;

		memset(seen, 0, sizeof(seen));
		rcu_read_lock();
		cds_lfht_for_each_entry(r->ht, &iter, n, node)
			if (n->key < RACE_KEYS)
				dups += seen[n->key]++ != 0;
		rcu_read_unlock();
		atomic_long_add(dups, &r->dup_in_traversal);
		atomic_long_inc(&r->traversals);
	} while (atomic_read(&r->adders_left) > 0);
}

static void lfht_add_unique_race(struct kunit *test)
{
	struct worker w[RACE_THREADS + 1];
	unsigned long contended = 0, bad_winners = 0, bad_walk = 0;
	unsigned long key, round, bad_count = 0, flips = 0;
	struct counts c;
	struct race *r;
	unsigned int t, started;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	for (t = 0; t < RACE_THREADS; t++) {
		r->nodes[t] = kunit_kcalloc(test, RACE_KEYS, sizeof(void *),
					    GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->nodes[t]);
	}

	for (round = 0; round < RACE_ROUNDS; round++) {
		unsigned int winning_threads = 0;

		r->colliding = round & 1;
		r->ht = cds_lfht_new(1, 1, 0,
				     round & 2 ? CDS_LFHT_AUTO_RESIZE : 0, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->ht);
		for (t = 0; t < RACE_THREADS; t++) {
			for (key = 0; key < RACE_KEYS; key++) {
				r->nodes[t][key] = knode_new(key, t);
				KUNIT_ASSERT_NOT_ERR_OR_NULL(test,
							     r->nodes[t][key]);
			}
			r->wins[t] = 0;
		}
		for (key = 0; key < RACE_KEYS; key++)
			atomic_set(&r->winners[key], 0);
		atomic_set(&r->arrived, 0);
		atomic_set(&r->step, 0);
		r->lockstep = round % 4 == 3 && num_online_cpus() > 1;
		atomic_set(&r->adders_left, RACE_THREADS);
		memset(w, 0, sizeof(w));
		for (t = 0; t <= RACE_THREADS; t++) {
			w[t].ctx = r;
			w[t].id = t;
			/* Adders spread over the CPUs, the reader anywhere. */
			w[t].cpu = t < RACE_THREADS ?
				   (int)(t % num_online_cpus()) : -1;
			w[t].fn = t < RACE_THREADS ? race_adder : race_reader;
		}
		started = workers_start(w, RACE_THREADS + 1);
		if (started != RACE_THREADS + 1) {
			/* Release whoever waits for the missing ones. */
			atomic_add(RACE_THREADS + 1, &r->arrived);
			atomic_add(2 * RACE_KEYS, &r->step);
			atomic_set(&r->adders_left, 0);
		}
		workers_wait(w, RACE_THREADS + 1);
		KUNIT_ASSERT_EQ(test, started, RACE_THREADS + 1);

		for (key = 0; key < RACE_KEYS; key++)
			bad_winners += atomic_read(&r->winners[key]) != 1;
		for (t = 0; t < RACE_THREADS; t++) {
			winning_threads += r->wins[t] > 0;
			for (key = 0; key < RACE_KEYS; key++)
				kfree(r->nodes[t][key]);	/* losers */
		}
		contended += winning_threads > 1;
		for (key = 1; key < RACE_KEYS; key++)
			flips += r->winner_of[key] != r->winner_of[key - 1];
		rcu_read_lock();
		for (key = 0; key < RACE_KEYS; key++)
			bad_walk += walk_hash(r->ht, race_hash(r, key), key) != 1;
		rcu_read_unlock();
		count_all(r->ht, &c);
		bad_count += c.count != RACE_KEYS || c.walked != RACE_KEYS;
		drain(r->ht);
		KUNIT_EXPECT_EQ(test, cds_lfht_destroy(r->ht, NULL), 0);
	}
	kunit_info(test, "%lu of %d rounds with more than one winning thread, %lu changes of winner, %ld traversals during the adds\n",
		   contended, RACE_ROUNDS, flips,
		   atomic_long_read(&r->traversals));
	KUNIT_EXPECT_EQ_MSG(test, bad_winners, 0UL,
			    "keys without exactly one winner");
	KUNIT_EXPECT_EQ(test, atomic_long_read(&r->wrong_winner), 0L);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&r->dup_in_traversal), 0L,
			    "a traversal saw two nodes of one key");
	KUNIT_EXPECT_EQ(test, bad_walk, 0UL);
	KUNIT_EXPECT_EQ(test, bad_count, 0UL);
	/* Not vacuous: the threads did race for the same keys. */
	KUNIT_EXPECT_GT(test, contended, 0UL);
}

/* ------------------------------------------------------------------------
 * Destroy: with resize work queued, and of a non-empty table.
 */

#define DESTROY_ROUNDS	300
#define DESTROY_NODES	64

/*
 * Delays the work items queued after it on an ordered workqueue: for @ms,
 * or, when @ht is set, until a destroy of @ht has begun (at most 10 s).
 */
struct blocker {
	struct work_struct work;
	unsigned int ms;
	struct cds_lfht *ht;
};

static void blocker_fn(struct work_struct *work)
{
	struct blocker *b = container_of(work, struct blocker, work);
	int i;

	/* White box: the flag cds_lfht_destroy() sets before it waits. */
	for (i = 0; b->ht && i < 500 && !READ_ONCE(b->ht->destroying); i++)
		msleep(20);
	if (!b->ht)
		msleep(b->ms);
}

/*
 * Add @nr nodes hashed by their key: in a one-bucket table they make one
 * chain that a larger table splits, so the adds ask for growth.  (Hashes
 * sharing their low bits would not: growing cannot split those.)
 */
static int add_colliding(struct cds_lfht *ht, unsigned long first,
			 unsigned long nr)
{
	unsigned long key;
	struct knode *n;

	for (key = first; key < first + nr; key++) {
		n = knode_new(key, key);
		if (!n)
			return -ENOMEM;
		rcu_read_lock();
		cds_lfht_add(ht, key, &n->node);
		rcu_read_unlock();
	}
	return 0;
}

static void lfht_destroy_with_resize_queued(struct kunit *test)
{
	struct workqueue_struct *wq, *got;
	struct blocker *b;
	unsigned long round, queued = 0, blocked = 0, bad_ret = 0, bad_wq = 0;
	unsigned long bad_drain = 0;
	struct cds_lfht *ht;
	unsigned int busy;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	wq = alloc_ordered_workqueue("lfht_kunit", 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wq);
	INIT_WORK(&b->work, blocker_fn);
	b->ms = 1;

	for (round = 0; round < DESTROY_ROUNDS; round++) {
		/*
		 * Odd rounds: our ordered queue, the resize work held behind a
		 * blocker, so it is certainly pending at destroy.  Even
		 * rounds: lfht's own queue, free to race.
		 */
		bool own = round & 1;
		int flags = CDS_LFHT_AUTO_RESIZE |
			    (round & 2 ? CDS_LFHT_ACCOUNTING : 0);

		if (own)
			queue_work(wq, &b->work);
		ht = cds_lfht_new(1, 1, 0, flags, own ? wq : NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
		KUNIT_ASSERT_EQ(test, add_colliding(ht, 0, DESTROY_NODES), 0);
		bad_drain += drain(ht) != DESTROY_NODES;
		/* White box: is the table's resize work queued or running? */
		busy = work_busy(&ht->env.work.work);
		queued += !!busy;
		blocked += own && (busy & WORK_BUSY_PENDING);
		got = ERR_PTR(-EINVAL);
		bad_ret += cds_lfht_destroy(ht, &got) != 0;
		bad_wq += got != (own ? wq : NULL);
		flush_work(&b->work);
	}
	destroy_workqueue(wq);
	kunit_info(test, "resize work busy at destroy in %lu of %d rounds (%lu held pending)\n",
		   queued, DESTROY_ROUNDS, blocked);
	KUNIT_EXPECT_EQ(test, bad_drain, 0UL);
	KUNIT_EXPECT_EQ(test, bad_ret, 0UL);
	KUNIT_EXPECT_EQ(test, bad_wq, 0UL);
	/* Not vacuous: destroy did meet queued work. */
	KUNIT_EXPECT_GT(test, blocked, 0UL);
}

/*
 * 40 + 8 nodes: every add walks fewer than 64 nodes, so the adds after the
 * failed destroy ask for no more than the adds before it did.
 */
#define NONEMPTY_NODES	40

/*
 * A non-empty table: destroy says -EPERM and leaves it usable, automatic
 * resizing included, even when its resize work ran during the destroy.
 */
static void lfht_destroy_nonempty(struct kunit *test)
{
	struct workqueue_struct *wq, *got = NULL;
	unsigned long key, found = 0, buckets;
	struct cds_lfht_iter iter;
	struct blocker *b;
	struct cds_lfht *ht;
	struct counts c;
	int i;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	wq = alloc_ordered_workqueue("lfht_kunit", 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wq);
	INIT_WORK(&b->work, blocker_fn);

	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, wq);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
	/* The growth the adds ask for waits behind the blocker... */
	b->ht = ht;
	queue_work(wq, &b->work);
	KUNIT_ASSERT_EQ(test, add_colliding(ht, 0, NONEMPTY_NODES), 0);
	KUNIT_EXPECT_EQ(test, lfht_nr_buckets(ht), 1UL);
	/* ...and runs during the destroy, which then fails. */
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, &got), -EPERM);
	KUNIT_EXPECT_PTR_EQ(test, got, (struct workqueue_struct *)NULL);

	/* Still usable: lookups, adds, dels, counts. */
	rcu_read_lock();
	for (key = 0; key < NONEMPTY_NODES; key++) {
		cds_lfht_lookup(ht, key, match, &key, &iter);
		found += cds_lfht_iter_get_node(&iter) != NULL;
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, found, (unsigned long)NONEMPTY_NODES);
	KUNIT_ASSERT_EQ(test, add_colliding(ht, NONEMPTY_NODES, 8), 0);
	count_all(ht, &c);
	KUNIT_EXPECT_EQ(test, c.count, NONEMPTY_NODES + 8UL);
	KUNIT_EXPECT_EQ(test, c.walked, NONEMPTY_NODES + 8UL);

	/* The growth asked for before and after the destroy does happen. */
	for (i = 0; i < 50 && lfht_nr_buckets(ht) == 1; i++) {
		flush_workqueue(wq);
		msleep(20);
	}
	buckets = lfht_nr_buckets(ht);
	kunit_info(test, "%lu buckets after %d waits\n", buckets, i);
	KUNIT_EXPECT_GT_MSG(test, buckets, 1UL,
			    "automatic growth lost after a failed destroy");

	/* An explicit resize works too. */
	cds_lfht_resize(ht, 256);
	KUNIT_EXPECT_EQ(test, lfht_nr_buckets(ht), 256UL);

	KUNIT_EXPECT_EQ(test, drain(ht), NONEMPTY_NODES + 8UL);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, wq);
	destroy_workqueue(wq);
}

/* ------------------------------------------------------------------------
 * ACCOUNTING: the split counters agree with a traversal when quiescent.
 */

#define ACCT_KEYS	1000UL

struct acct {
	struct cds_lfht *ht;
	unsigned long first, nr;
	bool del;
	atomic_long_t failed;
};

/* Adds or deletes keys [first, first + nr) on the CPU it is bound to. */
static void acct_worker(struct worker *w)
{
	struct acct *a = w->ctx;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long key;
	struct knode *n;

	for (key = a->first; key < a->first + a->nr; key++) {
		n = a->del ? NULL : knode_new(key, key);
		if (!a->del && !n) {
			atomic_long_inc(&a->failed);
			continue;
		}
		rcu_read_lock();
		if (n) {
			node = cds_lfht_add_unique(a->ht, hash_of(key), match,
						   &key, &n->node);
			if (node != &n->node) {
				kfree(n);
				atomic_long_inc(&a->failed);
			}
		} else {
			cds_lfht_lookup(a->ht, hash_of(key), match, &key, &iter);
			node = cds_lfht_iter_get_node(&iter);
			if (node && !cds_lfht_del(a->ht, node))
				kfree_rcu(container_of(node, struct knode, node),
					  rcu);
			else
				atomic_long_inc(&a->failed);
		}
		rcu_read_unlock();
	}
}

static const int acct_flags[] = {
	CDS_LFHT_ACCOUNTING, CDS_LFHT_ACCOUNTING | CDS_LFHT_AUTO_RESIZE,
};

KUNIT_ARRAY_PARAM(acct_flags, acct_flags, stress_flags_desc);

/* Run one worker on @cpu (unbound when it is offline) and wait for it. */
static void acct_step(struct acct *a, int cpu, unsigned long first,
		      unsigned long nr, bool del)
{
	struct worker w = { .fn = acct_worker, .ctx = a, .cpu = cpu };

	a->first = first;
	a->nr = nr;
	a->del = del;
	if (workers_start(&w, 1) != 1)
		atomic_long_inc(&a->failed);
	workers_wait(&w, 1);
}

static void lfht_accounting(struct kunit *test)
{
	const int flags = *(const int *)test->param_value;
	int cpu1 = num_online_cpus() > 1 ? 1 : 0;
	struct counts c[3];
	struct acct *a;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	a->ht = cds_lfht_new(1, 1, 0, flags, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a->ht);

	/* Adds on CPU 0, deletes of some of them on CPU 1: slots of both signs. */
	acct_step(a, 0, 0, ACCT_KEYS, false);
	acct_step(a, cpu1, ACCT_KEYS, ACCT_KEYS, false);
	acct_step(a, cpu1, 0, ACCT_KEYS / 2, true);
	acct_step(a, 0, ACCT_KEYS, ACCT_KEYS / 4, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&a->failed), 0L);
	count_all(a->ht, &c[0]);

	cds_lfht_resize(a->ht, 1UL << 12);
	count_all(a->ht, &c[1]);
	cds_lfht_resize(a->ht, 1);
	count_all(a->ht, &c[2]);

	for (int i = 0; i < 3; i++) {
		long want = 2 * ACCT_KEYS - ACCT_KEYS / 2 - ACCT_KEYS / 4;

		KUNIT_EXPECT_EQ(test, c[i].before, want);
		KUNIT_EXPECT_EQ(test, (long)c[i].count, want);
		KUNIT_EXPECT_EQ(test, (long)c[i].walked, want);
		KUNIT_EXPECT_EQ(test, c[i].after, want);
	}
	drain(a->ht);
	count_all(a->ht, &c[0]);
	KUNIT_EXPECT_EQ(test, c[0].before, 0L);
	KUNIT_EXPECT_EQ(test, c[0].count, 0UL);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(a->ht, NULL), 0);
}

/* ------------------------------------------------------------------------
 * Allocation failure through lfht.ko's fault hook (lfht_fault_inject(),
 * kernel/lfht_kernel.h): every allocation of a creation, of an explicit
 * growth and of the resize worker's growth fails in turn, until a run
 * makes no allocation that the hook failed.
 */

#define FAIL_MAX_K	256	/* a sweep longer than this never ends */
#define FAIL_NODES	300	/* explicit resizes: keys i % 97, duplicates */
#define FAIL_KEYS	97
#define FAIL_AUTO_NODES	512	/* automatic growth: distinct keys */

/*
 * Each of items[0..n) found once among its key's duplicates, a traversal
 * sees those n nodes once each and no other, and the table counts n.
 */
static bool fail_contents_ok(struct cds_lfht *ht, struct knode *items,
			     unsigned long n, unsigned char *mark)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, seen = 0, bad = 0, count;
	long before, after, want;

	memset(mark, 0, n);
	rcu_read_lock();
	for (i = 0; i < n; i++) {
		unsigned long found = 0;

		cds_lfht_for_each_duplicate(ht, hash_of(items[i].key), match,
					    &items[i].key, &iter, node)
			found += node == &items[i].node;
		bad += found != 1;
	}
	cds_lfht_for_each(ht, &iter, node) {
		struct knode *it = container_of(node, struct knode, node);

		if (it < items || it >= items + n || mark[it - items]++)
			bad++;
		seen++;
	}
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	/* White box: the split counters count only with ACCOUNTING. */
	want = ht->flags & CDS_LFHT_ACCOUNTING ? (long)n : 0;
	return !bad && seen == n && count == n && before == want &&
	       after == want;
}

static void fail_add(struct cds_lfht *ht, struct knode *items,
		     unsigned long from, unsigned long to, unsigned long keys)
{
	unsigned long i;

	for (i = from; i < to; i++) {
		items[i].key = keys ? i % keys : i;
		rcu_read_lock();
		cds_lfht_add(ht, hash_of(items[i].key), &items[i].node);
		rcu_read_unlock();
	}
}

/* Delete items[0..n); returns how many deletes failed. */
static unsigned long fail_del(struct cds_lfht *ht, struct knode *items,
			      unsigned long n)
{
	unsigned long i, bad = 0;

	rcu_read_lock();
	for (i = 0; i < n; i++)
		bad += cds_lfht_del(ht, &items[i].node) != 0;
	rcu_read_unlock();
	synchronize_rcu();	/* the items are reused */
	return bad;
}

struct fail_new_cfg {
	unsigned long init, min, max;
	int flags;
};

static const struct fail_new_cfg fail_new_cfgs[] = {
	{ 1, 1, 0, 0 },
	{ 64, 1, 0, 0 },
	{ 64, 4, 0, 0 },
	{ 64, 4, 0, CDS_LFHT_ACCOUNTING },
	{ 1024, 16, 0, 0 },
	{ 1, 1, 0, CDS_LFHT_AUTO_RESIZE },
	{ 64, 4, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING },
	{ 1024, 1024, 0, CDS_LFHT_ACCOUNTING },
	{ 1UL << 16, 2, 1UL << 20, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING },
};

static void fail_new_desc(const struct fail_new_cfg *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "init=%lu min=%lu max=%lu%s%s",
		 c->init, c->min, c->max,
		 c->flags & CDS_LFHT_AUTO_RESIZE ? " auto_resize" : "",
		 c->flags & CDS_LFHT_ACCOUNTING ? " accounting" : "");
}

KUNIT_ARRAY_PARAM(fail_new, fail_new_cfgs, fail_new_desc);

#define FAIL_NEW_NODES	64

/* A table from a run the hook did not fail: it works, then it is freed. */
static bool fail_new_works(struct cds_lfht *ht, struct knode *items,
			   unsigned char *mark)
{
	bool ok;

	fail_add(ht, items, 0, FAIL_NEW_NODES, 0);
	ok = fail_contents_ok(ht, items, FAIL_NEW_NODES, mark);
	ok &= fail_del(ht, items, FAIL_NEW_NODES) == 0;
	ok &= fail_contents_ok(ht, items, 0, mark);
	return ok && cds_lfht_destroy(ht, NULL) == 0;
}

static struct cds_lfht *fail_new_one(const struct fail_new_cfg *c, int flags)
{
	return cds_lfht_new(c->init, c->min, c->max, flags, NULL);
}

/*
 * (a) cds_lfht_new, failing its k-th allocation for k = 1, 2, ... until a
 * run completes with no failure: NULL with nothing left allocated, and the
 * run that completes gives a working table.
 */
static void lfht_alloc_fail_new(struct kunit *test)
{
	const struct fail_new_cfg *c = test->param_value;
	const int acct = !!(c->flags & CDS_LFHT_ACCOUNTING);
	long n, n_plain, live, seen, k, nulls = 0, leaks = 0, silent = 0;
	bool fired = true, works = false;
	unsigned char *mark;
	struct knode *items;
	struct cds_lfht *ht;

	items = kunit_kcalloc(test, FAIL_NEW_NODES, sizeof(*items), GFP_KERNEL);
	mark = kunit_kzalloc(test, FAIL_NEW_NODES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, items);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mark);
	KUNIT_ASSERT_EQ_MSG(test, lfht_fault_live(), 0L,
			    "lfht.ko memory left by earlier cases");

	/* The allocations of a creation, with and without the counter. */
	lfht_fault_inject(0);
	ht = fail_new_one(c, c->flags & ~CDS_LFHT_ACCOUNTING);
	n_plain = lfht_fault_allocations();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
	lfht_fault_inject(0);
	ht = fail_new_one(c, c->flags);
	n = lfht_fault_allocations();
	live = lfht_fault_live();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
	KUNIT_EXPECT_EQ_MSG(test, live, n, "every allocation is counted live");
	KUNIT_EXPECT_EQ(test, lfht_fault_live(), 0L);
	/* The table and its first buckets; more for larger tables. */
	KUNIT_EXPECT_GE(test, n, 2L + acct);
	if (c->init >= 4 * c->min && c->init >= 8)
		KUNIT_EXPECT_GE(test, n, 3L + acct);
	KUNIT_EXPECT_EQ_MSG(test, n, n_plain + acct,
			    "the per-CPU counter goes through the hook");

	for (k = 1; fired && k <= FAIL_MAX_K; k++) {
		lfht_fault_inject(k);
		ht = fail_new_one(c, c->flags);
		seen = lfht_fault_allocations();
		lfht_fault_inject(0);
		fired = seen >= k;
		if (ht && fired) {
			silent++;	/* a failure not reported */
			KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
		} else if (ht) {
			works = fail_new_works(ht, items, mark);
		} else {
			nulls++;
			silent += !fired;	/* NULL with no failure */
			leaks += lfht_fault_live() != 0;
		}
	}
	kunit_info(test, "%ld allocations, each failed in turn: %ld NULL, %ld leaked\n",
		   n, nulls, leaks);
	KUNIT_EXPECT_FALSE_MSG(test, fired, "the sweep did not end");
	KUNIT_EXPECT_EQ(test, nulls, n);
	KUNIT_EXPECT_EQ(test, k - 1, n + 1);
	KUNIT_EXPECT_EQ(test, silent, 0L);
	KUNIT_EXPECT_EQ(test, leaks, 0L);
	KUNIT_EXPECT_TRUE_MSG(test, works, "the run with no failure works");
	KUNIT_EXPECT_EQ(test, lfht_fault_live(), 0L);
}

/* Looks up every item while the sweep resizes; counts the misses. */
struct fail_reader {
	struct cds_lfht *ht;
	struct knode *items;
	unsigned long n;
	bool stop;
	atomic_t failing_seq;	/* odd while a growth of the sweep runs */
	atomic_long_t passes, passes_in_failure, bad;
};

static void fail_reader_fn(struct worker *w)
{
	struct fail_reader *r = w->ctx;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, bad;
	int seq;

	do {
		bad = 0;
		seq = atomic_read(&r->failing_seq);
		rcu_read_lock();
		for (i = 0; i < r->n; i++) {
			unsigned long found = 0;

			cds_lfht_for_each_duplicate(r->ht, hash_of(r->items[i].key),
						    match, &r->items[i].key,
						    &iter, node)
				found += node == &r->items[i].node;
			bad += found != 1;
		}
		rcu_read_unlock();
		atomic_long_add(bad, &r->bad);
		atomic_long_inc(&r->passes);
		if (in_resize(seq, atomic_read(&r->failing_seq)))
			atomic_long_inc(&r->passes_in_failure);
		/*
		 * A pause outside the read side: a reader that is almost
		 * always inside one makes every grace period of the sweep's
		 * shrinks wait for the tick (slow under TCG).
		 */
		usleep_range(50, 100);
	} while (!READ_ONCE(r->stop));
}

struct fail_resize_cfg {
	unsigned long init, min, target;
	int flags;
};

static const struct fail_resize_cfg fail_resize_cfgs[] = {
	{ 1, 1, 1024, 0 },
	{ 8, 4, 4096, 0 },
	{ 16, 16, 256, CDS_LFHT_ACCOUNTING },
	{ 1, 1, 1UL << 14, CDS_LFHT_ACCOUNTING },
};

static void fail_resize_desc(const struct fail_resize_cfg *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%lu to %lu, min %lu%s",
		 c->init, c->target, c->min,
		 c->flags & CDS_LFHT_ACCOUNTING ? ", accounting" : "");
}

KUNIT_ARRAY_PARAM(fail_resize, fail_resize_cfgs, fail_resize_desc);

/*
 * (b) An explicit growth of a table with nodes (duplicates among them),
 * failing its k-th allocation for k = 1, 2, ... until one completes, with
 * a reader looking every node up meanwhile.  A failed growth leaves the
 * table at its old size, every node found once, the count right and no
 * bucket table more allocated than before; the same growth then succeeds,
 * and shrinking back allocates nothing, so the hook cannot fail it.
 */
static void lfht_alloc_fail_resize(struct kunit *test)
{
	const struct fail_resize_cfg *c = test->param_value;
	const unsigned long n = FAIL_NODES;
	long allocs, k, live, fired_nr = 0, kept = 0, leaks = 0, correct = 0;
	long regrown = 0, shrink_allocs = 0, shrunk = 0;
	struct worker w = { .fn = fail_reader_fn, .cpu = -1 };
	bool fired = true, done = false;
	struct fail_reader *r;
	unsigned char *mark;
	struct cds_lfht *ht;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	r->items = kunit_kcalloc(test, n, sizeof(*r->items), GFP_KERNEL);
	mark = kunit_kzalloc(test, n, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->items);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mark);
	KUNIT_ASSERT_EQ_MSG(test, lfht_fault_live(), 0L,
			    "lfht.ko memory left by earlier cases");
	ht = cds_lfht_new(c->init, c->min, 0, c->flags, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
	fail_add(ht, r->items, 0, n, FAIL_KEYS);
	r->ht = ht;
	r->n = n;
	w.ctx = r;

	/* How many allocations the growth makes. */
	lfht_fault_inject(0);
	cds_lfht_resize(ht, c->target);
	allocs = lfht_fault_allocations();
	KUNIT_EXPECT_EQ(test, lfht_nr_buckets(ht), c->target);
	KUNIT_EXPECT_GT(test, allocs, 0L);
	cds_lfht_resize(ht, c->init);
	KUNIT_EXPECT_EQ(test, lfht_nr_buckets(ht), c->init);

	KUNIT_ASSERT_EQ(test, workers_start(&w, 1), 1U);
	for (k = 1; fired && k <= FAIL_MAX_K; k++) {
		live = lfht_fault_live();
		lfht_fault_inject(k);
		atomic_inc(&r->failing_seq);
		cds_lfht_resize(ht, c->target);
		atomic_inc(&r->failing_seq);
		fired = lfht_fault_allocations() >= k;
		lfht_fault_inject(0);
		if (fired) {
			fired_nr++;
			kept += lfht_nr_buckets(ht) == c->init;
			leaks += lfht_fault_live() != live;
		} else {
			done = lfht_nr_buckets(ht) == c->target;
		}
		correct += fail_contents_ok(ht, r->items, n, mark);
		/* Asked again, with no failure, the growth happens. */
		cds_lfht_resize(ht, c->target);
		regrown += lfht_nr_buckets(ht) == c->target &&
			   fail_contents_ok(ht, r->items, n, mark);
		/* Shrinking, the hook armed: it allocates nothing to fail. */
		lfht_fault_inject(1);
		cds_lfht_resize(ht, c->init);
		shrink_allocs += lfht_fault_allocations();
		lfht_fault_inject(0);
		shrunk += lfht_nr_buckets(ht) == c->init &&
			  fail_contents_ok(ht, r->items, n, mark);
	}
	WRITE_ONCE(r->stop, true);
	workers_wait(&w, 1);
	k--;	/* runs made */
	kunit_info(test, "%ld allocations, each failed in turn: %ld kept the old size, %ld leaked; reader: %ld passes (%ld during the growths with a failure armed), %ld misses\n",
		   allocs, kept, leaks, atomic_long_read(&r->passes),
		   atomic_long_read(&r->passes_in_failure),
		   atomic_long_read(&r->bad));
	KUNIT_EXPECT_FALSE_MSG(test, fired, "the sweep did not end");
	KUNIT_EXPECT_EQ(test, fired_nr, allocs);
	KUNIT_EXPECT_EQ(test, k, allocs + 1);
	KUNIT_EXPECT_EQ_MSG(test, kept, fired_nr, "a failed growth moved the size");
	KUNIT_EXPECT_TRUE(test, done);
	KUNIT_EXPECT_EQ(test, leaks, 0L);
	KUNIT_EXPECT_EQ(test, correct, k);
	KUNIT_EXPECT_EQ(test, regrown, k);
	KUNIT_EXPECT_EQ(test, shrink_allocs, 0L);
	KUNIT_EXPECT_EQ(test, shrunk, k);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&r->bad), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&r->passes_in_failure), 0L);

	KUNIT_EXPECT_EQ(test, fail_del(ht, r->items, n), 0UL);
	KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
	KUNIT_EXPECT_EQ(test, lfht_fault_live(), 0L);
}

static const int fail_auto_flags[] = {
	CDS_LFHT_AUTO_RESIZE, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
};

KUNIT_ARRAY_PARAM(fail_auto, fail_auto_flags, stress_flags_desc);

/*
 * Growth from one bucket to 1/4 bucket per node at least: one bucket table
 * per order from 2 (the block holds buckets 0 and 1) to log2(nodes / 4).
 */
#define FAIL_AUTO_MIN_ALLOCS	(ilog2(FAIL_AUTO_NODES / 4) - 1)

/*
 * (b) Automatic growth in the resize worker (on our own workqueue, so that
 * flushing it waits for every run), failing its k-th allocation for
 * k = 1, 2, ... until a table grows with no failure: the table stays
 * correct, grows when more adds ask again, shrinks (accounting) without
 * allocating, resizes on request, and its destroy frees everything.
 */
static void lfht_alloc_fail_auto(struct kunit *test)
{
	const int flags = *(const int *)test->param_value;
	const unsigned long n = FAIL_AUTO_NODES;
	long k, fired_nr = 0, correct = 0, grew = 0, shrink_allocs = 0;
	long resized = 0, leaks = 0, bad_del = 0;
	unsigned long size, least = ~0UL, most = 0;
	struct workqueue_struct *wq;
	unsigned char *mark;
	struct knode *items;
	struct cds_lfht *ht;
	bool fired = true;

	items = kunit_kcalloc(test, 2 * n, sizeof(*items), GFP_KERNEL);
	mark = kunit_kzalloc(test, 2 * n, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, items);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mark);
	KUNIT_ASSERT_EQ_MSG(test, lfht_fault_live(), 0L,
			    "lfht.ko memory left by earlier cases");
	wq = alloc_ordered_workqueue("lfht_kunit_fault", 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wq);

	for (k = 1; fired && k <= FAIL_MAX_K; k++) {
		ht = cds_lfht_new(1, 1, 0, flags, wq);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ht);
		lfht_fault_inject(k);
		fail_add(ht, items, 0, n, 0);
		flush_workqueue(wq);
		fired = lfht_fault_allocations() >= k;
		lfht_fault_inject(0);
		fired_nr += fired;
		size = lfht_nr_buckets(ht);
		least = min(least, size);
		most = max(most, size);
		correct += is_power_of_2(size) &&
			   fail_contents_ok(ht, items, n, mark);
		/*
		 * More adds ask again, and now the worker's growth succeeds.
		 * Without accounting the adds' walks (one list head, half a
		 * bucket) may leave 4 nodes per head, 8 per bucket.
		 */
		fail_add(ht, items, n, 2 * n, 0);
		flush_workqueue(wq);
		grew += lfht_nr_buckets(ht) >=
			2 * n / (flags & CDS_LFHT_ACCOUNTING ? 4 : 8) &&
			fail_contents_ok(ht, items, 2 * n, mark);
		/* Deletes (with accounting) shrink it: no allocation. */
		lfht_fault_inject(1);
		bad_del += fail_del(ht, items, 2 * n);
		flush_workqueue(wq);
		shrink_allocs += lfht_fault_allocations();
		lfht_fault_inject(0);
		cds_lfht_resize(ht, 1024);
		resized += lfht_nr_buckets(ht) == 1024;
		KUNIT_EXPECT_EQ(test, cds_lfht_destroy(ht, NULL), 0);
		leaks += lfht_fault_live() != 0;
	}
	destroy_workqueue(wq);
	k--;	/* runs made */
	kunit_info(test, "%ld allocations of the worker failed in turn, in %ld runs: %lu to %lu buckets after the failing adds, %ld leaked\n",
		   fired_nr, k, least, most, leaks);
	KUNIT_EXPECT_FALSE_MSG(test, fired, "the sweep did not end");
	KUNIT_EXPECT_GE(test, fired_nr, (long)FAIL_AUTO_MIN_ALLOCS);
	KUNIT_EXPECT_EQ(test, fired_nr, k - 1);
	KUNIT_EXPECT_EQ(test, correct, k);
	KUNIT_EXPECT_EQ_MSG(test, grew, k, "no growth after a failed one");
	KUNIT_EXPECT_EQ(test, bad_del, 0L);
	KUNIT_EXPECT_EQ(test, shrink_allocs, 0L);
	KUNIT_EXPECT_EQ(test, resized, k);
	KUNIT_EXPECT_EQ(test, leaks, 0L);
}

static struct kunit_case lfht_kunit_cases[] = {
	KUNIT_CASE_PARAM(lfht_vector_case, vec_gen_params),
	KUNIT_CASE(lfht_vector_count),
	KUNIT_CASE_PARAM(lfht_stress_guarantees, stress_flags_gen_params),
	KUNIT_CASE(lfht_growth),
	KUNIT_CASE(lfht_lookup_inline_same),
	KUNIT_CASE(lfht_add_unique_race),
	KUNIT_CASE(lfht_destroy_with_resize_queued),
	KUNIT_CASE(lfht_destroy_nonempty),
	KUNIT_CASE_PARAM(lfht_accounting, acct_flags_gen_params),
	KUNIT_CASE_PARAM(lfht_alloc_fail_new, fail_new_gen_params),
	KUNIT_CASE_PARAM(lfht_alloc_fail_resize, fail_resize_gen_params),
	KUNIT_CASE_PARAM(lfht_alloc_fail_auto, fail_auto_gen_params),
	{}
};

/* After every case: the fault hook disarmed, even when an assertion ended it. */
static void lfht_kunit_exit(struct kunit *test)
{
	lfht_fault_inject(0);
}

static struct kunit_suite lfht_kunit_suite = {
	.name = "lfht",
	.suite_init = lfht_kunit_suite_init,
	.suite_exit = lfht_kunit_suite_exit,
	.exit = lfht_kunit_exit,
	.test_cases = lfht_kunit_cases,
};

kunit_test_suite(lfht_kunit_suite);

MODULE_DESCRIPTION("KUnit tests of lfht.ko");
MODULE_LICENSE("GPL");
