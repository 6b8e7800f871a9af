/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Allocation fault injection for tests (internal to liblfht.a, not exported
 * from liblfht.so).
 */
#ifndef LFHT_FAULT_H
#define LFHT_FAULT_H

/*
 * Make allocation number @nth (1-based, counted from now) fail; 0: none.
 * Creating a table's resize worker thread counts as an allocation.
 */
void lfht_fault_inject(long nth);
/* Allocations attempted since the last lfht_fault_inject(). */
long lfht_fault_allocations(void);

#endif
