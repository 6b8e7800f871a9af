// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * debugfs interface of lfht.ko, under /sys/kernel/debug/lfht/:
 *
 *   control        write "new NAME [init=N] [min=N] [max=N] [auto_resize]
 *                  [accounting]", "destroy NAME", or "fault N" (the test
 *                  hook lfht_fault_inject(): the N-th allocation from now
 *                  fails; 0 fails none)
 *   vectors        read: runs every embedded test vector, prints TAP
 *   bench          lfht against rhashtable (lfht_bench.c)
 *   NAME/control   write "add K V", "add_unique K V", "add_replace K V",
 *                  "replace K V", "del K", "lookup K" (each with an optional
 *                  "hash=H"), "resize N", "clear"
 *   NAME/result    read: the outcome of the last command on this table
 *   NAME/entries   read: "KEY VALUE" per entry, in list order
 *   NAME/stats     read: sizes, counts, resizes, chain lengths
 *
 * Commands are parsed by common/lfht_cmd.c.  A write is parsed whole before
 * anything runs, so bad input leaves every table as it was.  Keys hash with
 * SipHash under a per-table random key unless "hash=H" forces the hash.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "lfht_core.h"
#include "lfht_cmd.h"
#include "lfht_kernel.h"
#include "lfht_vector.h"

#define RESULT_MAX	256
#define CLEAR_BATCH	1024
#define VECTORS_OUT_MAX	(256 * 1024)

struct dbg_entry {
	struct cds_lfht_node node;
	u64 key, value;
	struct rcu_head rcu;
};

struct dbg_table {
	struct list_head link;		/* on tables, under tables_lock */
	char name[LFHT_CMD_NAME_MAX + 1];
	struct cds_lfht *ht;
	struct dentry *dir;
	siphash_key_t hash_key;
	struct mutex result_lock;
	char result[RESULT_MAX];
};

static DEFINE_MUTEX(tables_lock);	/* the list, creation and destruction */
static LIST_HEAD(tables);
static struct dentry *lfht_dir;

static struct dbg_entry *to_entry(struct cds_lfht_node *node)
{
	return container_of(node, struct dbg_entry, node);
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return to_entry(node)->key == *(const u64 *)key;
}

static unsigned long cmd_hash(struct dbg_table *t, const struct lfht_cmd *cmd)
{
	return cmd->has_hash ? cmd->hash :
	       (unsigned long)siphash_1u64(cmd->key, &t->hash_key);
}

static struct dbg_entry *new_entry(const struct lfht_cmd *cmd)
{
	struct dbg_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (e) {
		e->key = cmd->key;
		e->value = cmd->value;
	}
	return e;
}

/* -- Table commands ------------------------------------------------------- */

struct outcome {
	char s[RESULT_MAX];
	size_t n;
};

static __printf(2, 3) void say(struct outcome *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	o->n += vscnprintf(o->s + o->n, sizeof(o->s) - o->n, fmt, ap);
	va_end(ap);
}

/* Every value of @key, in chain order; "not found" when there is none. */
static void do_lookup(struct dbg_table *t, const struct lfht_cmd *cmd,
		      struct outcome *o)
{
	unsigned long hash = cmd_hash(t, cmd);
	struct cds_lfht_iter iter;
	struct dbg_entry *e;
	int found = 0;

	rcu_read_lock();
	cds_lfht_for_each_entry_duplicate(t->ht, hash, match_key, &cmd->key,
					  &iter, e, node) {
		say(o, found++ ? " %llu" : "found %llu", e->value);
	}
	rcu_read_unlock();
	if (!found)
		say(o, "not found");
}

static int do_add(struct dbg_table *t, const struct lfht_cmd *cmd,
		  struct outcome *o)
{
	unsigned long hash = cmd_hash(t, cmd);
	struct cds_lfht_node *got;
	struct dbg_entry *e = new_entry(cmd);
	u64 old = 0;

	if (!e)
		return -ENOMEM;
	rcu_read_lock();
	switch (cmd->op) {
	case LFHT_CMD_ADD:
		cds_lfht_add(t->ht, hash, &e->node);
		got = NULL;
		break;
	case LFHT_CMD_ADD_UNIQUE:
		got = cds_lfht_add_unique(t->ht, hash, match_key, &cmd->key,
					  &e->node);
		if (got == &e->node)
			got = NULL;
		break;
	default:	/* LFHT_CMD_ADD_REPLACE */
		got = cds_lfht_add_replace(t->ht, hash, match_key, &cmd->key,
					   &e->node);
		break;
	}
	if (got)
		old = to_entry(got)->value;
	/* A replaced node may still be read by others: free it after a GP. */
	if (got && cmd->op == LFHT_CMD_ADD_REPLACE)
		kfree_rcu(to_entry(got), rcu);
	rcu_read_unlock();
	if (cmd->op == LFHT_CMD_ADD_UNIQUE && got) {
		kfree(e);	/* never linked */
		say(o, "exists %llu", old);
		return -EEXIST;
	}
	if (got)
		say(o, "replaced %llu", old);
	else
		say(o, "added");
	return 0;
}

/* replace and del act on the first node of the key. */
static int do_replace_del(struct dbg_table *t, const struct lfht_cmd *cmd,
			  struct outcome *o)
{
	unsigned long hash = cmd_hash(t, cmd);
	struct dbg_entry *e = NULL, *old;
	struct cds_lfht_iter iter;
	u64 value = 0;
	int ret;

	if (cmd->op == LFHT_CMD_REPLACE) {
		e = new_entry(cmd);
		if (!e)
			return -ENOMEM;
	}
	rcu_read_lock();
	cds_lfht_lookup(t->ht, hash, match_key, &cmd->key, &iter);
	old = cds_lfht_entry(cds_lfht_iter_get_node(&iter), struct dbg_entry,
			     node);
	if (!old)
		ret = -ENOENT;
	else if (e)
		ret = cds_lfht_replace(t->ht, &iter, hash, match_key,
				       &cmd->key, &e->node);
	else
		ret = cds_lfht_del(t->ht, &old->node);
	if (!ret) {
		value = old->value;
		kfree_rcu(old, rcu);
	}
	rcu_read_unlock();
	if (ret) {
		kfree(e);	/* never linked */
		say(o, "not found");
		return ret;
	}
	say(o, e ? "replaced %llu" : "deleted %llu", value);
	return 0;
}

/* Delete every entry, in batches so that no read-side section is long. */
static void do_clear(struct dbg_table *t, struct outcome *o)
{
	struct cds_lfht_iter iter;
	struct dbg_entry *e;
	unsigned long total = 0, n;

	do {
		n = 0;
		rcu_read_lock();
		cds_lfht_for_each_entry(t->ht, &iter, e, node) {
			if (!cds_lfht_del(t->ht, &e->node)) {
				kfree_rcu(e, rcu);
				n++;
			}
			if (n == CLEAR_BATCH)
				break;
		}
		rcu_read_unlock();
		total += n;
		cond_resched();
	} while (n);
	say(o, "deleted %lu", total);
}

static int run_table_cmd(struct dbg_table *t, const struct lfht_cmd *cmd,
			 const char *line, size_t len)
{
	struct outcome *o = kzalloc(sizeof(*o), GFP_KERNEL);
	int ret = 0;

	if (!o)
		return -ENOMEM;
	say(o, "%.*s: ", (int)min_t(size_t, len, 96), line);
	switch (cmd->op) {
	case LFHT_CMD_LOOKUP:
		do_lookup(t, cmd, o);
		break;
	case LFHT_CMD_ADD:
	case LFHT_CMD_ADD_UNIQUE:
	case LFHT_CMD_ADD_REPLACE:
		ret = do_add(t, cmd, o);
		break;
	case LFHT_CMD_REPLACE:
	case LFHT_CMD_DEL:
		ret = do_replace_del(t, cmd, o);
		break;
	case LFHT_CMD_RESIZE:
		cds_lfht_resize(t->ht, cmd->size);
		say(o, "%lu buckets", lfht_nr_buckets(t->ht));
		break;
	default:	/* LFHT_CMD_CLEAR */
		do_clear(t, o);
		break;
	}
	if (ret)
		say(o, " (error %d)", ret);
	say(o, "\n");
	mutex_lock(&t->result_lock);
	memcpy(t->result, o->s, o->n + 1);
	mutex_unlock(&t->result_lock);
	kfree(o);
	return ret;
}

/* -- Tables --------------------------------------------------------------- */

static struct dbg_table *find_table(const char *name)
{
	struct dbg_table *t;

	lockdep_assert_held(&tables_lock);
	list_for_each_entry(t, &tables, link)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static void free_table(struct dbg_table *t)
{
	struct outcome o = { .n = 0 };

	/* No file of the table is in use: debugfs_remove() waited for them. */
	do_clear(t, &o);
	WARN_ON(cds_lfht_destroy(t->ht, NULL));
	mutex_destroy(&t->result_lock);
	kfree(t);
}

static const struct file_operations table_control_fops;

/* Made by DEFINE_SHOW_ATTRIBUTE() below. */
static const struct file_operations result_fops;
static const struct file_operations entries_fops;
static const struct file_operations stats_fops;

static int create_table(const struct lfht_cmd *cmd)
{
	struct dbg_table *t;

	lockdep_assert_held(&tables_lock);
	if (find_table(cmd->name))
		return -EEXIST;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	strscpy(t->name, cmd->name, sizeof(t->name));
	mutex_init(&t->result_lock);
	get_random_bytes(&t->hash_key, sizeof(t->hash_key));
	t->ht = cds_lfht_new(cmd->init, cmd->min, cmd->max, cmd->flags, NULL);
	if (!t->ht) {
		kfree(t);
		/* The sizes were checked by lfht_table_new(); say which. */
		return lfht_is_pow2(cmd->init) && lfht_is_pow2(cmd->min) &&
		       (!cmd->max || lfht_is_pow2(cmd->max)) &&
		       cmd->min <= cmd->init &&
		       (!cmd->max || cmd->max >= cmd->init) ? -ENOMEM : -EINVAL;
	}
	t->dir = debugfs_create_dir(t->name, lfht_dir);
	if (IS_ERR(t->dir)) {
		int ret = PTR_ERR(t->dir);

		cds_lfht_destroy(t->ht, NULL);
		kfree(t);
		return ret;
	}
	debugfs_create_file("control", 0200, t->dir, t, &table_control_fops);
	debugfs_create_file("result", 0400, t->dir, t, &result_fops);
	debugfs_create_file("entries", 0400, t->dir, t, &entries_fops);
	debugfs_create_file("stats", 0400, t->dir, t, &stats_fops);
	list_add_tail(&t->link, &tables);
	return 0;
}

static int destroy_table(const struct lfht_cmd *cmd)
{
	struct dbg_table *t;

	lockdep_assert_held(&tables_lock);
	t = find_table(cmd->name);
	if (!t)
		return -ENOENT;
	list_del(&t->link);
	debugfs_remove(t->dir);
	free_table(t);
	return 0;
}

/* "fault N": from the shell, what the KUnit suite does with the hook. */
static int arm_fault(const struct lfht_cmd *cmd)
{
	lfht_fault_inject((long)cmd->nth);
	return 0;
}

/* -- Writes --------------------------------------------------------------- */

static void log_rejected(const char *where, const char *line, size_t len,
			 int err)
{
	pr_warn_ratelimited("lfht: %s: \"%*pE\": error %d\n", where,
			    (int)min_t(size_t, len, 64), line, err);
}

/*
 * Parse every line of a write, then run them in order.  A line that does
 * not parse fails the whole write with -EINVAL before anything ran.  When
 * a command fails, the bytes of the lines before it are reported written,
 * so the caller's retry of the rest meets the error.
 */
static ssize_t run_write(const char __user *ubuf, size_t len,
			 struct dbg_table *t, const char *where)
{
	enum lfht_cmd_file file = t ? LFHT_CMD_TABLE : LFHT_CMD_TOP;
	size_t pos = 0, done = 0, n;
	struct lfht_cmd cmd;
	const char *line;
	ssize_t ret;
	char *buf;
	int err = 0;

	if (!len || len > LFHT_CMD_WRITE_MAX) {
		ret = len ? -E2BIG : -EINVAL;
		pr_warn_ratelimited("lfht: %s: write of %zu bytes: error %zd\n",
				    where, len, ret);
		return ret;
	}
	buf = vmemdup_user(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = -EINVAL;
	while ((n = lfht_cmd_next_line(buf, len, &pos, &line))) {
		err = lfht_cmd_parse(line, n, file, &cmd);
		if (err) {
			log_rejected(where, line, n, err);
			ret = err;
			goto out;
		}
		ret = 0;
	}
	if (ret) {
		log_rejected(where, buf, len, -EINVAL);
		goto out;
	}
	pos = 0;
	while ((n = lfht_cmd_next_line(buf, len, &pos, &line))) {
		lfht_cmd_parse(line, n, file, &cmd);
		if (t) {
			err = run_table_cmd(t, &cmd, line, n);
		} else {
			mutex_lock(&tables_lock);
			err = cmd.op == LFHT_CMD_NEW ? create_table(&cmd) :
			      cmd.op == LFHT_CMD_DESTROY ? destroy_table(&cmd) :
			      arm_fault(&cmd);
			mutex_unlock(&tables_lock);
		}
		if (err) {
			log_rejected(where, line, n, err);
			break;
		}
		done = pos;
	}
	if (!err)
		ret = len;
	else
		ret = done ? done : err;
out:
	kvfree(buf);
	return ret;
}

static ssize_t top_control_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	return run_write(ubuf, len, NULL, "control");
}

static ssize_t table_control_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct dbg_table *t = file_inode(file)->i_private;

	return run_write(ubuf, len, t, t->name);
}

static const struct file_operations top_control_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = top_control_write,
	.llseek = noop_llseek,
};

static const struct file_operations table_control_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = table_control_write,
	.llseek = noop_llseek,
};

/* -- Reads ---------------------------------------------------------------- */

static int result_show(struct seq_file *m, void *v)
{
	struct dbg_table *t = m->private;

	mutex_lock(&t->result_lock);
	seq_puts(m, t->result);
	mutex_unlock(&t->result_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(result);

static int entries_show(struct seq_file *m, void *v)
{
	struct dbg_table *t = m->private;
	struct cds_lfht_iter iter;
	struct dbg_entry *e;

	rcu_read_lock();
	cds_lfht_for_each_entry(t->ht, &iter, e, node) {
		seq_printf(m, "%llu %llu\n", e->key, e->value);
		if (seq_has_overflowed(m))
			break;	/* seq_file retries with a larger buffer */
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(entries);

static int stats_show(struct seq_file *m, void *v)
{
	static const char *const slots[] = {
		"0", "1", "2", "3", "4-7", "8-15", "16-31", "32+"
	};
	struct dbg_table *t = m->private;
	struct lfht_stats st;
	long before, after;
	unsigned long count;
	unsigned int i;

	rcu_read_lock();
	cds_lfht_count_nodes(t->ht, &before, &count, &after);
	lfht_get_stats(t->ht, &st);
	rcu_read_unlock();
	seq_printf(m, "buckets %lu\n", st.buckets);
	seq_printf(m, "nodes %ld %lu %ld\n", before, count, after);
	seq_printf(m, "resizes %lu %lu\n", st.grows, st.shrinks);
	seq_printf(m, "longest_chain %lu\n", st.longest_chain);
	seq_puts(m, "chains");
	for (i = 0; i < ARRAY_SIZE(slots); i++)
		seq_printf(m, " %s:%lu", slots[i], st.chain_hist[i]);
	seq_printf(m, "\nresize_pending %d\n",
		   st.resize_pending || (t->ht->env.has_work &&
					 delayed_work_pending(&t->ht->env.work)));
	seq_printf(m, "chain_alert %d\n", st.chain_alert);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* -- Output made at open: vectors and bench ------------------------------- */

struct lfht_report *lfht_report_new(size_t cap)
{
	struct lfht_report *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->buf = kvmalloc(cap, GFP_KERNEL);
	if (!r->buf) {
		kfree(r);
		return NULL;
	}
	r->cap = cap;
	return r;
}

void lfht_report_put(struct lfht_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->len + 1 >= r->cap) {
		r->truncated = true;
		return;
	}
	va_start(ap, fmt);
	r->len += vscnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
	va_end(ap);
}

/* The file's private_data is its report, or NULL (nothing to read). */
ssize_t lfht_report_read(struct file *file, char __user *ubuf, size_t len,
			 loff_t *ppos)
{
	struct lfht_report *r = file->private_data;

	return r ? simple_read_from_buffer(ubuf, len, ppos, r->buf, r->len) : 0;
}

int lfht_report_release(struct inode *inode, struct file *file)
{
	struct lfht_report *r = file->private_data;

	if (r) {
		kvfree(r->buf);
		kfree(r);
	}
	return 0;
}

/* -- vectors: the embedded test vectors, run at open, read as TAP --------- */

struct tap_tally {
	struct lfht_report *out;
	unsigned int cases, failed;
};

static void tap_result(void *ctx, const char *file, const char *name,
		       int passed, const char *why)
{
	struct tap_tally *t = ctx;

	t->cases++;
	t->failed += !passed;
	if (why)
		lfht_report_put(t->out, "not ok %u - kernel %s: %s # %s\n",
				t->cases, file, name, why);
	else
		lfht_report_put(t->out, "%s %u - kernel %s: %s\n",
				passed ? "ok" : "not ok", t->cases, file, name);
}

static int vectors_open(struct inode *inode, struct file *file)
{
	struct lfht_env_config cfg = { .wq = NULL };
	struct tap_tally t = { .out = lfht_report_new(VECTORS_OUT_MAX) };
	struct lfht_vec_report report = { .result = tap_result, .ctx = &t };
	struct lfht_report *out = t.out;
	unsigned int i;

	if (!out)
		return -ENOMEM;
	for (i = 0; i < lfht_vec_nr_files; i++)
		lfht_vec_run(lfht_vec_files[i].name, lfht_vec_files[i].text,
			     lfht_vec_files[i].len, &cfg, &report);
	if (out->truncated) {
		out->len = min_t(size_t, out->len, out->cap - 64);
		out->len += scnprintf(out->buf + out->len, out->cap - out->len,
				      "Bail out! output truncated\n");
	}
	lfht_report_put(out, "1..%u\n# %u vector cases, %u failed\n", t.cases,
			t.cases, t.failed);
	file->private_data = out;
	return 0;
}

static const struct file_operations vectors_fops = {
	.owner = THIS_MODULE,
	.open = vectors_open,
	.read = lfht_report_read,
	.llseek = default_llseek,
	.release = lfht_report_release,
};

/* -- Module hooks --------------------------------------------------------- */

int lfht_debugfs_init(void)
{
	lfht_dir = debugfs_create_dir("lfht", NULL);
	if (IS_ERR(lfht_dir))
		return PTR_ERR(lfht_dir);
	debugfs_create_file("control", 0200, lfht_dir, NULL, &top_control_fops);
	debugfs_create_file("vectors", 0400, lfht_dir, NULL, &vectors_fops);
	lfht_bench_init(lfht_dir);
	return 0;
}

/* rmmod: every table left is destroyed with its entries. */
void lfht_debugfs_exit(void)
{
	struct dbg_table *t, *tmp;

	debugfs_remove(lfht_dir);
	mutex_lock(&tables_lock);
	list_for_each_entry_safe(t, tmp, &tables, link) {
		list_del(&t->link);
		free_table(t);
	}
	mutex_unlock(&tables_lock);
	/* Entries still waiting in kfree_rcu() need no code of this module. */
}
