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
struct file;
struct inode;

/*
 * Output of a debugfs file that does its work at open (vectors, bench):
 * printed into one buffer, read back, freed at release.
 */
struct lfht_report {
	char *buf;
	size_t len, cap;
	bool truncated;		/* something did not fit */
};

struct lfht_report *lfht_report_new(size_t cap);
__printf(2, 3) void lfht_report_put(struct lfht_report *r, const char *fmt, ...);
ssize_t lfht_report_read(struct file *file, char __user *ubuf, size_t len,
			 loff_t *ppos);
int lfht_report_release(struct inode *inode, struct file *file);

/*
 * Test hooks of lfht_main.c, for the KUnit suite (the twin of
 * user/lfht_fault.h): fail allocation number @nth counted from now (0:
 * none); allocations attempted since; allocations made and not freed yet.
 */
void lfht_fault_inject(long nth);
long lfht_fault_allocations(void);
long lfht_fault_live(void);

int lfht_debugfs_init(void);
void lfht_debugfs_exit(void);
void lfht_bench_init(struct dentry *dir);

#endif /* LFHT_KERNEL_INTERNAL_H */
