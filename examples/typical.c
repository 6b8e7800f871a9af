#include <stdio.h>
#include <stdlib.h>
#include <urcu.h>		/* RCU flavor: choose it first */
#include <lfht/rculfhash.h>	/* RCU lock-free hash table */

struct mynode {
	int value;			/* key */
	struct cds_lfht_node node;	/* chaining in the hash table */
	struct rcu_head rcu_head;	/* for call_rcu() */
};

static int match(struct cds_lfht_node *ht_node, const void *key)
{
	struct mynode *n = caa_container_of(ht_node, struct mynode, node);

	return n->value == *(const int *)key;
}

static void free_node(struct rcu_head *head)
{
	free(caa_container_of(head, struct mynode, rcu_head));
}

int main(void)
{
	static const int values[] = { -5, 42, 42, 36, 24 };
	struct lfht_hash_key hkey;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *ht_node;
	struct mynode *n;
	struct cds_lfht *ht;
	unsigned int i;
	int key = 42;

	rcu_register_thread();	/* every thread using the table */
	lfht_hash_key_random(&hkey);	/* secret hash key: no flooding */
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
			  NULL);
	if (!ht)
		return 1;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		n = malloc(sizeof(*n));
		if (!n)
			return 1;
		cds_lfht_node_init(&n->node);
		n->value = values[i];
		rcu_read_lock();
		cds_lfht_add(ht, lfht_hash(&n->value, sizeof(n->value), &hkey),
			     &n->node);
		rcu_read_unlock();
	}

	rcu_read_lock();
	printf("table:");
	cds_lfht_for_each_entry(ht, &iter, n, node)
		printf(" %d", n->value);
	printf("\n");

	printf("removing every %d\n", key);
	cds_lfht_for_each_duplicate(ht, lfht_hash(&key, sizeof(key), &hkey),
				    match, &key, &iter, ht_node) {
		if (!cds_lfht_del(ht, ht_node)) {
			n = caa_container_of(ht_node, struct mynode, node);
			call_rcu(&n->rcu_head, free_node);
		}
	}
	rcu_read_unlock();

	rcu_read_lock();
	cds_lfht_lookup(ht, lfht_hash(&key, sizeof(key), &hkey), match, &key,
			&iter);
	printf("lookup %d: %s\n", key,
	       cds_lfht_iter_get_node(&iter) ? "found" : "not found");
	cds_lfht_for_each_entry(ht, &iter, n, node) {	/* empty the table */
		if (!cds_lfht_del(ht, &n->node))
			call_rcu(&n->rcu_head, free_node);
	}
	rcu_read_unlock();

	printf("destroy: %d\n", cds_lfht_destroy(ht, NULL));
	rcu_barrier();		/* wait for the call_rcu() callbacks */
	rcu_unregister_thread();
	return 0;
}
