/*
 * libFuzzer target: a random operation sequence on one table and on a plain
 * reference (for each of 16 keys, the list of its nodes' values in table
 * order), compared after every step.  Single thread, mb flavor; the
 * library sources are built into the fuzzer (make fuzz).
 *
 * Input: byte 0 picks the table (initial, minimum and maximum size, flags,
 * hash function); then each operation is an opcode byte and an argument
 * byte.  Any difference aborts with a message.  Nodes removed are freed a
 * grace period later, at the end of the input; LeakSanitizer checks that
 * everything is freed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flavor.h"
#include "lfht_fault.h"

#define NR_KEYS		16
#define MAX_STEPS	600

struct fnode {
	unsigned long key, value;
	struct cds_lfht_node node;
	struct fnode *gone;	/* removed nodes, freed at the end */
};

struct ref {
	unsigned long *v[NR_KEYS];
	unsigned long len[NR_KEYS], cap[NR_KEYS];
	unsigned long total;
};

static struct cds_lfht *ht;
static struct ref ref;
static struct fnode *gone;
static int hash_mode, flags;
static unsigned long step, min_size, max_size;

#define FAIL(...) do {							\
		fprintf(stderr, "fuzz_ops: step %lu: ", step);		\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	} while (0)

static unsigned long hash_of(unsigned long key)
{
	switch (hash_mode) {
	case 0:
		return key * 0x9e3779b97f4a7c15UL;
	case 1:
		return key;			/* identity: neighbours in order */
	case 2:
		return 0x1234;			/* one chain for every key */
	default:
		return (key & 3) << 60;		/* 4 hashes, high bits only */
	}
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct fnode, node)->key ==
		*(const unsigned long *)key;
}

static struct fnode *fnode_of(struct cds_lfht_node *node)
{
	return node ? caa_container_of(node, struct fnode, node) : NULL;
}

static struct fnode *fnode_new(unsigned long key, unsigned long value)
{
	struct fnode *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->key = key;
	n->value = value;
	return n;
}

static void retire(struct fnode *n)
{
	n->gone = gone;
	gone = n;
}

static void ref_insert(unsigned long k, unsigned long at, unsigned long value)
{
	if (ref.len[k] == ref.cap[k]) {
		ref.cap[k] = ref.cap[k] ? 2 * ref.cap[k] : 8;
		ref.v[k] = realloc(ref.v[k], ref.cap[k] * sizeof(*ref.v[k]));
		if (!ref.v[k])
			abort();
	}
	memmove(&ref.v[k][at + 1], &ref.v[k][at],
		(ref.len[k] - at) * sizeof(*ref.v[k]));
	ref.v[k][at] = value;
	ref.len[k]++;
	ref.total++;
}

static void ref_remove(unsigned long k, unsigned long at)
{
	memmove(&ref.v[k][at], &ref.v[k][at + 1],
		(ref.len[k] - at - 1) * sizeof(*ref.v[k]));
	ref.len[k]--;
	ref.total--;
}

static unsigned long ref_first(unsigned long k)
{
	return ref.len[k] ? ref.v[k][0] : 0;
}

/* The i-th node of @key in table order, through lookup + next_duplicate. */
static struct fnode *nth_node(unsigned long key, unsigned long i,
			      struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *node;

	cds_lfht_for_each_duplicate(ht, hash_of(key), match, &key, iter, node)
		if (!i--)
			return fnode_of(node);
	return NULL;
}

/* The whole table against the reference. */
static void compare(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long k, i, n = 0, count, prev_rev = 0, size;
	long before, after;

	rcu_read_lock();
	for (k = 0; k < NR_KEYS; k++) {
		i = 0;
		cds_lfht_for_each_duplicate(ht, hash_of(k), match, &k, &iter, node) {
			struct fnode *f = fnode_of(node);

			if (i >= ref.len[k] || f->value != ref.v[k][i])
				FAIL("key %lu: node %lu is value %lu, reference %lu",
				     k, i, f->value, i < ref.len[k] ? ref.v[k][i] : 0);
			if (f->key != k)
				FAIL("key %lu: lookup gave a node of key %lu", k, f->key);
			i++;
		}
		if (i != ref.len[k])
			FAIL("key %lu: %lu nodes, reference %lu", k, i, ref.len[k]);
	}
	cds_lfht_for_each(ht, &iter, node) {
		unsigned long rev = node->reverse_hash;

		if (n++ && rev < prev_rev)
			FAIL("traversal out of split order");
		prev_rev = rev;
	}
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	if (n != ref.total || count != ref.total)
		FAIL("traversal %lu, count %lu, reference %lu", n, count, ref.total);
	if ((flags & CDS_LFHT_ACCOUNTING) &&
	    (before != (long)ref.total || after != (long)ref.total))
		FAIL("split counters %ld %ld, reference %lu", before, after, ref.total);
	size = lfht_nr_buckets(ht);
	if (size < min_size || size > max_size || (size & (size - 1)))
		FAIL("%lu buckets outside [%lu, %lu]", size, min_size, max_size);
}

static void op(unsigned int code, unsigned int arg, unsigned long value)
{
	unsigned long key = arg % NR_KEYS, i;
	struct cds_lfht_node *r;
	struct cds_lfht_iter iter;
	struct fnode *n, *old;
	int rc;

	switch (code % 11) {
	case 0:
	case 1:
		n = fnode_new(key, value);
		rcu_read_lock();
		cds_lfht_add(ht, hash_of(key), &n->node);
		rcu_read_unlock();
		ref_insert(key, ref.len[key], value);
		break;
	case 2:
		n = fnode_new(key, value);
		rcu_read_lock();
		r = cds_lfht_add_unique(ht, hash_of(key), match, &key, &n->node);
		rcu_read_unlock();
		if (ref.len[key]) {
			if (fnode_of(r)->value != ref_first(key))
				FAIL("add_unique %lu gave %lu, not %lu", key,
				     fnode_of(r)->value, ref_first(key));
			free(n);	/* never visible */
		} else {
			if (r != &n->node)
				FAIL("add_unique %lu on an absent key did not add", key);
			ref_insert(key, 0, value);
		}
		break;
	case 3:
		n = fnode_new(key, value);
		rcu_read_lock();
		old = fnode_of(cds_lfht_add_replace(ht, hash_of(key), match, &key,
						    &n->node));
		rcu_read_unlock();
		if ((old ? old->value : 0) != ref_first(key))
			FAIL("add_replace %lu replaced %lu, not %lu", key,
			     old ? old->value : 0, ref_first(key));
		if (old) {
			retire(old);
			ref.v[key][0] = value;
		} else {
			ref_insert(key, 0, value);
		}
		break;
	case 4:	/* replace the (arg / 16 % 4)-th duplicate */
		i = arg / NR_KEYS % 4;
		n = fnode_new(key, value);
		rcu_read_lock();
		old = nth_node(key, i, &iter);
		rc = cds_lfht_replace(ht, &iter, hash_of(key), match, &key, &n->node);
		rcu_read_unlock();
		if (rc != (i < ref.len[key] ? 0 : -ENOENT))
			FAIL("replace %lu #%lu: %d", key, i, rc);
		if (rc) {
			free(n);
		} else {
			retire(old);
			ref.v[key][i] = value;
		}
		break;
	case 5:
	case 6:	/* delete the (arg / 16 % 4)-th duplicate, then again */
		i = arg / NR_KEYS % 4;
		rcu_read_lock();
		old = nth_node(key, i, &iter);
		rc = cds_lfht_del(ht, old ? &old->node : NULL);
		if (rc != (i < ref.len[key] ? 0 : -ENOENT))
			FAIL("del %lu #%lu: %d", key, i, rc);
		if (old && cds_lfht_del(ht, &old->node) != -ENOENT)
			FAIL("second del of a node succeeded");
		if (old && !cds_lfht_is_node_deleted(&old->node))
			FAIL("deleted node not marked deleted");
		rcu_read_unlock();
		if (old) {
			retire(old);
			ref_remove(key, i);
		}
		break;
	case 7:
		rcu_read_lock();
		cds_lfht_lookup(ht, hash_of(key), match, &key, &iter);
		n = fnode_of(cds_lfht_iter_get_node(&iter));
		rcu_read_unlock();
		if ((n ? n->value : 0) != ref_first(key))
			FAIL("lookup %lu gave %lu, not %lu", key,
			     n ? n->value : 0, ref_first(key));
		break;
	case 8:
		cds_lfht_resize(ht, 1UL << (arg % 11));	/* up to 1024 */
		break;
	case 9:	/* a growth that runs out of memory keeps the old size */
		i = lfht_nr_buckets(ht);
		if ((flags & CDS_LFHT_AUTO_RESIZE) || i > 128)
			break;	/* the worker would take the fault; size bound */
		lfht_fault_inject(1 + arg % 4);
		cds_lfht_resize(ht, i << (1 + arg / 4 % 3));
		if (lfht_fault_allocations() >= 1 + (long)(arg % 4) &&
		    lfht_nr_buckets(ht) != i)
			FAIL("failed resize left %lu buckets, not %lu",
			     lfht_nr_buckets(ht), i);
		lfht_fault_inject(0);
		break;
	case 10:
		if (!ref.total)
			break;
		if (cds_lfht_destroy(ht, NULL) != -EPERM)
			FAIL("destroy of a non-empty table did not say -EPERM");
		break;
	}
}

static void cleanup(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long k;
	struct fnode *n;

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node)
		if (!cds_lfht_del(ht, node))
			retire(fnode_of(node));
	rcu_read_unlock();
	synchronize_rcu();
	while ((n = gone)) {
		gone = n->gone;
		free(n);
	}
	if (cds_lfht_destroy(ht, NULL))
		FAIL("destroy of the emptied table failed");
	for (k = 0; k < NR_KEYS; k++)
		free(ref.v[k]);
	memset(&ref, 0, sizeof(ref));
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	rcu_register_thread();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long init, value = 0;
	size_t i;

	if (size < 1)
		return 0;
	/*
	 * Byte 0, bits 0-1: log2 of the initial size; 2-3: hash function;
	 * 4: auto_resize; 5: accounting; 6: min = init (else 1); 7: max =
	 * 4 * init (else 2^14).
	 */
	init = 1UL << (data[0] & 3);
	hash_mode = (data[0] >> 2) & 3;
	flags = ((data[0] & 16) ? CDS_LFHT_AUTO_RESIZE : 0) |
		((data[0] & 32) ? CDS_LFHT_ACCOUNTING : 0);
	min_size = (data[0] & 64) ? init : 1;
	/*
	 * Automatic growth is not bounded by the node count: nodes whose
	 * hashes are equal in their low bits (hash functions 2 and 3) ask
	 * for growth at every add, up to max.  2^14 keeps each run short.
	 */
	max_size = (data[0] & 128) ? 4 * init : 1UL << 14;
	ht = cds_lfht_new(init, min_size, max_size, flags, NULL);
	if (!ht)
		FAIL("cds_lfht_new(%lu, %lu, %lu) failed", init, min_size, max_size);
	for (i = 1, step = 0; i + 1 < size && step < MAX_STEPS; i += 2, step++) {
		op(data[i], data[i + 1], ++value);
		compare();
	}
	cleanup();
	return 0;
}
