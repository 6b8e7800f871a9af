/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfht_inline.h - cds_lfht_lookup_inline(), a lookup compiled into its
 * caller, for kernel hot paths.  Include it after (or instead of) lfht.h.
 */
#ifndef LFHT_INLINE_H
#define LFHT_INLINE_H

#include "lfht_env.h"
#include "../common/lfht_lookup.h"

/**
 * cds_lfht_lookup_inline - cds_lfht_lookup() compiled into the caller
 * @ht: the table
 * @hash: the key's hash
 * @match: key comparison; a function the compiler sees is inlined as well
 * @key: the key
 * @iter: receives the node, or NULL
 *
 * The same wait-free lookup as cds_lfht_lookup() (the two share their
 * code), without the call and, for a constant @match, without the indirect
 * call (a retpoline where Spectre v2 mitigations are on); in the way of
 * rhashtable_lookup_fast() and its constant params.  Call within
 * rcu_read_lock(); acts as rcu_dereference() for the node.
 */
static __always_inline void cds_lfht_lookup_inline(struct cds_lfht *ht,
						   unsigned long hash,
						   cds_lfht_match_fct match,
						   const void *key,
						   struct cds_lfht_iter *iter)
{
	lfht_check_rcu_reader();
	/* struct lfht_index is the first member of struct cds_lfht. */
	lfht_index_lookup((const struct lfht_index *)ht, hash, match, key, iter);
}

#endif /* LFHT_INLINE_H */
