/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Drop-in for liburcu's <urcu/rculfhash.h>: the lfht-compat pkg-config module
 * puts this directory first on the include path, so programs written for
 * liburcu's hash table build unchanged against liblfht.
 */
#ifndef _URCU_RCULFHASH_H
#define _URCU_RCULFHASH_H
#include <lfht/rculfhash.h>
#endif
