/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Declarations shared by the files of lfht.ko and its KUnit suite. */
#ifndef LFHT_KERNEL_INTERNAL_H
#define LFHT_KERNEL_INTERNAL_H

#include <linux/types.h>

/* tests/vectors/ *.vec, embedded at build time (lfht_vectors_data.c). */
struct lfht_vec_file {
	const char *name;
	const char *text;
	size_t len;
};

extern const struct lfht_vec_file lfht_vec_files[];
extern const unsigned int lfht_vec_nr_files;

struct dentry;

int lfht_debugfs_init(void);
void lfht_debugfs_exit(void);
void lfht_bench_init(struct dentry *dir);

#endif /* LFHT_KERNEL_INTERNAL_H */
