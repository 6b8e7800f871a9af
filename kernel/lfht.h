/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfht.h - the cds_lfht API for kernel modules (lfht.ko).
 *
 * The same RCU-protected, lock-free, resizable hash table as the user-space
 * liblfht: lookups and traversals are wait-free, updates lock-free.  Every
 * lookup, traversal and update runs under rcu_read_lock(); with
 * CONFIG_PROVE_RCU each such call checks that it does.  Free a removed node
 * after a grace period (kfree_rcu() or call_rcu()).  Resizes run in process
 * context: cds_lfht_resize() directly, CDS_LFHT_AUTO_RESIZE from a work item.
 */
#ifndef LFHT_KERNEL_H
#define LFHT_KERNEL_H

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/types.h>

struct workqueue_struct;

#define LFHT_API
#define LFHT_NODE_ALIGN __aligned(8)
#define LFHT_CONTAINER_OF(ptr, type, member) container_of(ptr, type, member)
#include "../include/lfht/lfht_api.h"

struct cds_lfht *cds_lfht_new(unsigned long init_size,
			      unsigned long min_nr_alloc_buckets,
			      unsigned long max_nr_buckets, int flags,
			      struct workqueue_struct *wq);
int cds_lfht_destroy(struct cds_lfht *ht, struct workqueue_struct **wq);

#endif /* LFHT_KERNEL_H */
