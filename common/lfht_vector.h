/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test-vector interpreter shared by both builds (format: tests/vectors/FORMAT).
 * It uses no libc: only the table API and the environment layer.
 */
#ifndef LFHT_VECTOR_H
#define LFHT_VECTOR_H

#include "lfht_core.h"

struct lfht_vec_report {
	/* Called once per case; @why is NULL when it passed. */
	void (*result)(void *ctx, const char *file, const char *name,
		       int passed, const char *why);
	void *ctx;
};

/* Run every case of one vector file; returns the number that failed. */
int lfht_vec_run(const char *file, const char *text, size_t len,
		 const struct lfht_env_config *cfg,
		 const struct lfht_vec_report *report);

#endif
