// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test-vector interpreter: runs the operations of the tests/vectors files on a
 * table and compares each result with the one the file states.  Built into
 * the user library and the kernel module alike, so it calls nothing but the
 * table API and the environment layer.
 */
#include "lfht_vector.h"

#define MAX_TOKENS	160
#define MSG_LEN		512
/*
 * Largest size a vector may ask for (new init=, resize): the kernel module
 * runs this interpreter on files written to debugfs, so a file must not
 * make it allocate without bound.  Larger sizes give `error: too large`.
 */
#define VEC_MAX_BUCKETS	(1ULL << 20)

struct vnode {
	struct cds_lfht_node node;
	unsigned long long key, value;
	struct vnode *free_next;	/* on the to-free list once removed */
};

struct buf {
	char s[MSG_LEN];
	size_t n;
};

/*
 * Working memory of a run, allocated once: kernel stacks are small, and
 * the buffers below would take most of one.
 */
struct scratch {
	char line[MSG_LEN];
	char *tok[MAX_TOKENS];		/* of line */
	char *result_tok[MAX_TOKENS];	/* of got, in results_match() */
	struct vnode *sorted[MAX_TOKENS];
	struct buf got, want, msg;
	char why[MSG_LEN];		/* the first failure of the case */
};

struct vcase {
	struct cds_lfht *ht;
	const struct lfht_env_config *cfg;
	struct scratch *s;
	struct vnode *removed;		/* unlinked, freed after a grace period */
	struct vnode *last_removed;
	long nodes_alive;		/* allocated minus freed */
	int failed;
};

static void put_str(struct buf *b, const char *s)
{
	while (*s && b->n < MSG_LEN - 1)
		b->s[b->n++] = *s++;
	b->s[b->n] = 0;
}

static void put_num(struct buf *b, unsigned long long v)
{
	char tmp[24];
	int i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i && b->n < MSG_LEN - 1)
		b->s[b->n++] = tmp[--i];
	b->s[b->n] = 0;
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static int starts_with(const char *s, const char *prefix, const char **rest)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	*rest = s;
	return 1;
}

/* Decimal or 0x hexadecimal, the whole token; no sign, no overflow. */
static int parse_num(const char *s, unsigned long long *out)
{
	unsigned long long v = 0, base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned long long)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned long long)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned long long)(*s - 'A' + 10);
		else
			return -EINVAL;
		if (v > (~0ULL - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* Tokens equal as numbers, as K=V pairs of numbers, or as words. */
static int token_eq(const char *a, const char *b)
{
	unsigned long long x, y;
	char ka[40], kb[40];
	const char *va = a, *vb = b;
	int i;

	if (!parse_num(a, &x) && !parse_num(b, &y))
		return x == y;
	for (i = 0; *va && *va != '=' && i < 39; va++)
		ka[i++] = *va;
	ka[i] = 0;
	for (i = 0; *vb && *vb != '=' && i < 39; vb++)
		kb[i++] = *vb;
	kb[i] = 0;
	if (*va == '=' && *vb == '=')
		return token_eq(ka, kb) && token_eq(va + 1, vb + 1);
	return str_eq(a, b);
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	const struct vnode *v = (const struct vnode *)node;

	return v->key == *(const unsigned long long *)key;
}

static struct vnode *vnode_new(struct vcase *c, unsigned long long key,
			       unsigned long long value)
{
	struct vnode *v = lfht_env_zalloc(sizeof(*v));

	if (v) {
		v->key = key;
		v->value = value;
		c->nodes_alive++;
	}
	return v;
}

/* Fill and hand out the node allocated ahead, *@spare. */
static struct vnode *vnode_take(struct vnode **spare, unsigned long long key,
				unsigned long long value)
{
	struct vnode *v = *spare;

	*spare = NULL;
	v->key = key;
	v->value = value;
	return v;
}

static void vnode_free(struct vcase *c, struct vnode *v)
{
	lfht_env_free(v);
	c->nodes_alive--;
}

static void retire(struct vcase *c, struct cds_lfht_node *node)
{
	struct vnode *v = (struct vnode *)node;

	v->free_next = c->removed;
	c->removed = v;
	c->last_removed = v;
}

static void free_retired(struct vcase *c)
{
	struct vnode *v;

	if (!c->removed)
		return;
	lfht_env_synchronize(&c->ht->env);
	while ((v = c->removed)) {
		c->removed = v->free_next;
		vnode_free(c, v);
	}
	c->last_removed = NULL;
}

static unsigned long delete_all(struct vcase *c)
{
	struct cds_lfht_iter iter;
	unsigned long n = 0;

	lfht_env_read_lock(&c->ht->env);
	for (cds_lfht_first(c->ht, &iter); iter.node;
	     cds_lfht_next(c->ht, &iter)) {
		if (!cds_lfht_del(c->ht, iter.node)) {
			retire(c, iter.node);
			n++;
		}
	}
	lfht_env_read_unlock(&c->ht->env);
	return n;
}

static void drop_table(struct vcase *c)
{
	if (!c->ht)
		return;
	delete_all(c);
	free_retired(c);
	lfht_table_destroy(c->ht);
	c->ht = NULL;
}

/* Arguments of one operation: numbers, hash=H, and option words. */
struct args {
	unsigned long long num[2];
	int nnum;
	unsigned long long hash;
	int has_hash;
	unsigned long long init, min, max;
	int flags;
};

static int parse_args(char **tok, int ntok, struct args *a)
{
	const char *rest;
	int i;

	*a = (struct args){ .init = 1, .min = 1 };
	for (i = 0; i < ntok; i++) {
		if (starts_with(tok[i], "hash=", &rest)) {
			if (parse_num(rest, &a->hash))
				return -EINVAL;
			a->has_hash = 1;
		} else if (starts_with(tok[i], "init=", &rest)) {
			if (parse_num(rest, &a->init))
				return -EINVAL;
		} else if (starts_with(tok[i], "min=", &rest)) {
			if (parse_num(rest, &a->min))
				return -EINVAL;
		} else if (starts_with(tok[i], "max=", &rest)) {
			if (parse_num(rest, &a->max))
				return -EINVAL;
		} else if (str_eq(tok[i], "auto_resize")) {
			a->flags |= CDS_LFHT_AUTO_RESIZE;
		} else if (str_eq(tok[i], "accounting")) {
			a->flags |= CDS_LFHT_ACCOUNTING;
		} else if (a->nnum < 2 && !parse_num(tok[i], &a->num[a->nnum])) {
			a->nnum++;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

static unsigned long hash_of(const struct args *a)
{
	return (unsigned long)(a->has_hash ? a->hash : a->num[0]);
}

static void put_entry(struct buf *out, struct vnode *v)
{
	if (out->n)
		put_str(out, " ");
	put_num(out, v->key);
	put_str(out, "=");
	put_num(out, v->value);
}

/* `contents`: nodes sorted by key then value (insertion sort, small sets). */
static void put_sorted(struct vcase *c, struct buf *out)
{
	struct vnode **sorted = c->s->sorted;
	struct cds_lfht_iter iter;
	int n = 0, i, j;

	for (cds_lfht_first(c->ht, &iter); iter.node && n < MAX_TOKENS;
	     cds_lfht_next(c->ht, &iter)) {
		struct vnode *v = (struct vnode *)iter.node;

		for (j = n++; j > 0 && (sorted[j - 1]->key > v->key ||
			(sorted[j - 1]->key == v->key &&
			 sorted[j - 1]->value > v->value)); j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = v;
	}
	for (i = 0; i < n; i++)
		put_entry(out, sorted[i]);
}

static int need(struct vcase *c, const struct args *a, int nums, struct buf *out)
{
	if (!c->ht) {
		put_str(out, "error: no table");
		return 0;
	}
	if (a->nnum != nums) {
		put_str(out, "error: wrong number of arguments");
		return 0;
	}
	return 1;
}

/* Run one operation; its result goes to @out as space-separated tokens. */
static void run_op(struct vcase *c, const char *op, const struct args *a,
		   int nexpect, struct buf *out)
{
	unsigned long long key = a->num[0], max;
	struct cds_lfht_node *found;
	struct cds_lfht_iter iter;
	struct vnode *v, *spare = NULL;
	long before, after;
	unsigned long n;
	int ret;

	if (str_eq(op, "new")) {
		drop_table(c);
		/* Sizes lfht_table_new() rejects still give null. */
		if (a->init > VEC_MAX_BUCKETS && lfht_is_pow2(a->init) &&
		    lfht_is_pow2(a->min) && a->min <= a->init &&
		    (!a->max || (lfht_is_pow2(a->max) && a->max >= a->init))) {
			put_str(out, "error: too large");
			return;
		}
		/*
		 * The bound holds for automatic growth too: a chain of
		 * distinct hashes equal in their low bits (hash=H) asks for
		 * growth after growth.  A valid larger max, or none, is 2^20.
		 */
		max = a->max;
		if (!max || (lfht_is_pow2(max) && max > VEC_MAX_BUCKETS))
			max = VEC_MAX_BUCKETS;
		c->ht = lfht_table_new((unsigned long)a->init, (unsigned long)a->min,
				       (unsigned long)max, a->flags, c->cfg);
		put_str(out, c->ht ? "ok" : "null");
		return;
	}
	if (str_eq(op, "destroy")) {
		if (!need(c, a, 0, out))
			return;
		free_retired(c);
		ret = lfht_table_destroy(c->ht);
		if (!ret)
			c->ht = NULL;
		put_str(out, !ret ? "ok" : ret == -EPERM ? "eperm" : "error");
		return;
	}
	if (str_eq(op, "resize")) {
		if (!need(c, a, 1, out))
			return;
		if (key > VEC_MAX_BUCKETS) {
			put_str(out, "error: too large");
			return;
		}
		cds_lfht_resize(c->ht, (unsigned long)key);
		put_str(out, "ok");
		return;
	}
	if (str_eq(op, "clear")) {
		if (need(c, a, 0, out))
			put_num(out, delete_all(c));
		return;
	}

	if (!c->ht) {
		put_str(out, "error: no table");
		return;
	}
	/*
	 * Allocate a new node before the read-side section: the kernel's
	 * allocator may sleep, which a kernel RCU reader must not.
	 */
	if (str_eq(op, "add") || str_eq(op, "add_unique") ||
	    str_eq(op, "add_replace") || str_eq(op, "replace") ||
	    str_eq(op, "replace_removed")) {
		spare = vnode_new(c, 0, 0);
		if (!spare) {
			put_str(out, "error: out of memory");
			return;
		}
	}
	lfht_env_read_lock(&c->ht->env);
	if (str_eq(op, "add") || str_eq(op, "add_unique") ||
	    str_eq(op, "add_replace") || str_eq(op, "replace")) {
		if (!need(c, a, 2, out))
			goto unlock;
		v = vnode_take(&spare, key, a->num[1]);
		if (!v) {
			put_str(out, "error: out of memory");
			goto unlock;
		}
		if (str_eq(op, "add")) {
			cds_lfht_add(c->ht, hash_of(a), &v->node);
			put_str(out, "ok");
		} else if (str_eq(op, "add_unique")) {
			found = cds_lfht_add_unique(c->ht, hash_of(a), match_key,
						    &key, &v->node);
			if (found == &v->node) {
				put_str(out, "ok");
			} else {
				put_str(out, "exists ");
				put_num(out, ((struct vnode *)found)->value);
				vnode_free(c, v);	/* never visible */
			}
		} else if (str_eq(op, "add_replace")) {
			found = cds_lfht_add_replace(c->ht, hash_of(a), match_key,
						     &key, &v->node);
			if (!found) {
				put_str(out, "added");
			} else {
				put_str(out, "replaced ");
				put_num(out, ((struct vnode *)found)->value);
				retire(c, found);
			}
		} else {
			cds_lfht_lookup(c->ht, hash_of(a), match_key, &key, &iter);
			found = iter.node;
			ret = cds_lfht_replace(c->ht, &iter, hash_of(a), match_key,
					       &key, &v->node);
			if (!ret) {
				put_str(out, "ok");
				retire(c, found);
			} else {
				put_str(out, ret == -ENOENT ? "enoent" : "einval");
				vnode_free(c, v);
			}
		}
	} else if (str_eq(op, "del")) {
		if (!need(c, a, 1, out))
			goto unlock;
		cds_lfht_lookup(c->ht, hash_of(a), match_key, &key, &iter);
		ret = cds_lfht_del(c->ht, iter.node);
		put_str(out, !ret ? "ok" : ret == -ENOENT ? "enoent" : "error");
		if (!ret)
			retire(c, iter.node);
	} else if (str_eq(op, "del_removed") || str_eq(op, "replace_removed") ||
		   str_eq(op, "is_deleted_removed")) {
		if (!need(c, a, str_eq(op, "replace_removed"), out))
			goto unlock;
		if (!c->last_removed) {
			put_str(out, "error: nothing removed");
			goto unlock;
		}
		if (str_eq(op, "is_deleted_removed")) {
			put_num(out, !!cds_lfht_is_node_deleted(&c->last_removed->node));
			goto unlock;
		}
		if (str_eq(op, "del_removed")) {
			ret = cds_lfht_del(c->ht, &c->last_removed->node);
		} else {
			v = vnode_take(&spare, c->last_removed->key, key);
			if (!v) {
				put_str(out, "error: out of memory");
				goto unlock;
			}
			iter.node = &c->last_removed->node;
			iter.next = NULL;
			ret = cds_lfht_replace(c->ht, &iter,
				(unsigned long)lfht_bit_reverse(iter.node->reverse_hash),
				match_key, &v->key, &v->node);
			if (ret)
				vnode_free(c, v);
		}
		put_str(out, !ret ? "ok" : ret == -ENOENT ? "enoent" : "einval");
	} else if (str_eq(op, "lookup")) {
		if (!need(c, a, 1, out))
			goto unlock;
		cds_lfht_lookup(c->ht, hash_of(a), match_key, &key, &iter);
		if (iter.node)
			put_num(out, ((struct vnode *)iter.node)->value);
		else
			put_str(out, "none");
	} else if (str_eq(op, "dups")) {
		if (!need(c, a, 1, out))
			goto unlock;
		cds_lfht_for_each_duplicate(c->ht, hash_of(a), match_key, &key,
					    &iter, found) {
			if (out->n)
				put_str(out, " ");
			put_num(out, ((struct vnode *)found)->value);
		}
		if (!out->n)
			put_str(out, "none");
	} else if (str_eq(op, "entries") || str_eq(op, "contents")) {
		if (!need(c, a, 0, out))
			goto unlock;
		if (str_eq(op, "contents"))
			put_sorted(c, out);
		else
			cds_lfht_for_each(c->ht, &iter, found)
				put_entry(out, (struct vnode *)found);
		if (!out->n)
			put_str(out, "none");
	} else if (str_eq(op, "count")) {
		if (!need(c, a, 0, out))
			goto unlock;
		cds_lfht_count_nodes(c->ht, &before, &n, &after);
		if (nexpect == 3) {
			put_num(out, (unsigned long long)before);
			put_str(out, " ");
		}
		put_num(out, n);
		if (nexpect == 3) {
			put_str(out, " ");
			put_num(out, (unsigned long long)after);
		}
	} else if (str_eq(op, "buckets")) {
		if (need(c, a, 0, out))
			put_num(out, lfht_nr_buckets(c->ht));
	} else {
		put_str(out, "error: unknown operation");
	}
unlock:
	lfht_env_read_unlock(&c->ht->env);
	if (spare)
		vnode_free(c, spare);	/* never used */
}

/* Split @line in place at blanks; a `#` ends it. */
static int tokenize(char *line, char **tok)
{
	int n = 0;

	while (*line && n < MAX_TOKENS) {
		while (*line == ' ' || *line == '\t' || *line == '\r')
			*line++ = 0;
		if (!*line || *line == '#')
			break;
		tok[n++] = line;
		while (*line && *line != ' ' && *line != '\t' &&
		       *line != '\r' && *line != '#')
			line++;
		if (*line == '#') {
			*line = 0;
			break;
		}
	}
	return n;
}

/* Compare the result tokens in @got with the expected ones. */
static int results_match(struct buf *got, char **exp, int nexp,
			 char **tok)
{
	int n, i;

	n = tokenize(got->s, tok);
	if (n != nexp)
		return 0;
	for (i = 0; i < n; i++)
		if (!token_eq(tok[i], exp[i]))
			return 0;
	return 1;
}

static void fail(struct vcase *c, unsigned long line, const char *what,
		 const char *detail)
{
	struct buf *b = &c->s->msg;

	if (c->failed++)
		return;		/* report the first failure of a case */
	b->n = 0;
	put_str(b, "line ");
	put_num(b, line);
	put_str(b, ": ");
	put_str(b, what);
	put_str(b, detail);
	for (b->n = 0; b->s[b->n]; b->n++)
		c->s->why[b->n] = b->s[b->n];
	c->s->why[b->n] = 0;
}

static void run_line(struct vcase *c, char **tok, int n, unsigned long lineno)
{
	struct buf *got = &c->s->got, *want = &c->s->want;
	struct args a;
	int arrow, i;

	for (arrow = 0; arrow < n && !str_eq(tok[arrow], "->"); arrow++)
		;
	if (arrow == 0 || arrow == n || arrow == n - 1) {
		fail(c, lineno, "malformed line, want: OP ARGS -> RESULT", "");
		return;
	}
	if (parse_args(tok + 1, arrow - 1, &a)) {
		fail(c, lineno, "bad argument to ", tok[0]);
		return;
	}
	got->n = 0;
	got->s[0] = 0;
	want->n = 0;
	run_op(c, tok[0], &a, n - arrow - 1, got);
	for (i = arrow + 1; i < n; i++) {
		put_str(want, i > arrow + 1 ? " " : "");
		put_str(want, tok[i]);
	}
	put_str(want, ", got ");
	put_str(want, got->s);	/* before results_match() splits got */
	if (!results_match(got, tok + arrow + 1, n - arrow - 1,
			   c->s->result_tok))
		fail(c, lineno, "expected ", want->s);
}

static void finish_case(struct vcase *c, const char *file, const char *name,
			const struct lfht_vec_report *report, int *failed)
{
	drop_table(c);
	if (!c->failed && c->nodes_alive)
		fail(c, 0, "nodes leaked", "");
	report->result(report->ctx, file, name, !c->failed,
		       c->failed ? c->s->why : NULL);
	*failed += !!c->failed;
}

/**
 * lfht_vec_run - run every case of one test-vector file
 * @file: its name, for the report
 * @text: its contents (need not end in a NUL)
 * @len: their length
 * @cfg: the environment each case's table is made with
 * @report: called once per case with its verdict
 *
 * Return: the number of cases that failed.
 */
int lfht_vec_run(const char *file, const char *text, size_t len,
		 const struct lfht_env_config *cfg,
		 const struct lfht_vec_report *report)
{
	struct scratch *s = lfht_env_zalloc(sizeof(*s));
	struct vcase c = { .cfg = cfg, .s = s };
	char name[64] = "", *line, **tok;
	unsigned long lineno = 0;
	size_t pos = 0, n;
	int ntok, failed = 0, in_case = 0, i;

	if (!s) {
		report->result(report->ctx, file, "(all)", 0, "out of memory");
		return 1;
	}
	line = s->line;
	tok = s->tok;
	while (pos < len) {
		for (n = 0; pos < len && text[pos] != '\n'; pos++)
			if (n < MSG_LEN - 1)
				line[n++] = text[pos];
		line[n] = 0;
		pos++;
		lineno++;
		ntok = tokenize(line, tok);
		if (!ntok)
			continue;
		if (str_eq(tok[0], "case")) {
			if (in_case)
				finish_case(&c, file, name, report, &failed);
			c = (struct vcase){ .cfg = cfg, .s = s };
			in_case = 1;
			for (i = 0; ntok > 1 && tok[1][i] && i < 63; i++)
				name[i] = tok[1][i];
			name[i] = 0;
			if (ntok != 2)
				fail(&c, lineno, "want: case NAME", "");
			continue;
		}
		if (!in_case) {
			c = (struct vcase){ .cfg = cfg, .s = s };
			in_case = 1;
			for (i = 0; "preamble"[i]; i++)
				name[i] = "preamble"[i];
			name[i] = 0;
			fail(&c, lineno, "operation before the first case", "");
		}
		if (!c.failed)
			run_line(&c, tok, ntok, lineno);
	}
	if (in_case)
		finish_case(&c, file, name, report, &failed);
	lfht_env_free(s);
	return failed;
}
LFHT_EXPORT(lfht_vec_run);	/* for the kernel's KUnit suite */
