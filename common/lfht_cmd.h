/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Parser of the debugfs command language (see README, "debugfs"), shared by
 * the kernel module and the user-space fuzzer.  No libc, no allocation:
 * it turns one line into a struct lfht_cmd or rejects it with -EINVAL.
 */
#ifndef LFHT_CMD_H
#define LFHT_CMD_H

#include "lfht_core.h"

#define LFHT_CMD_NAME_MAX	31	/* table name length */
#define LFHT_CMD_WRITE_MAX	65536	/* longest write; more is -E2BIG */

enum lfht_cmd_op {
	/* in /sys/kernel/debug/lfht/control */
	LFHT_CMD_NEW,
	LFHT_CMD_DESTROY,
	LFHT_CMD_FAULT,
	/* in /sys/kernel/debug/lfht/NAME/control */
	LFHT_CMD_ADD,
	LFHT_CMD_ADD_UNIQUE,
	LFHT_CMD_ADD_REPLACE,
	LFHT_CMD_REPLACE,
	LFHT_CMD_DEL,
	LFHT_CMD_LOOKUP,
	LFHT_CMD_RESIZE,
	LFHT_CMD_CLEAR,
};

/* Which control file a line was written to. */
enum lfht_cmd_file {
	LFHT_CMD_TOP,
	LFHT_CMD_TABLE,
};

struct lfht_cmd {
	enum lfht_cmd_op op;
	unsigned long long key, value;
	unsigned long hash;		/* when has_hash */
	int has_hash;
	unsigned long size;		/* resize */
	char name[LFHT_CMD_NAME_MAX + 1];	/* new, destroy */
	unsigned long init, min, max;	/* new; defaults 1, 1, 0 */
	int flags;			/* new: CDS_LFHT_* */
	unsigned long nth;		/* fault: at most LFHT_CMD_FAULT_MAX */
};

/* Largest N of "fault N": lfht.ko's hook counts in a long. */
#define LFHT_CMD_FAULT_MAX	(~0UL >> 1)

/* Parse one line (no newline needed); returns 0 or -EINVAL. */
int lfht_cmd_parse(const char *line, size_t len, enum lfht_cmd_file file,
		   struct lfht_cmd *cmd);

/*
 * The next non-blank line of @buf at or after *@pos: sets *@line and returns
 * its length (without the newline), advancing *@pos past it; returns 0 at
 * the end.
 */
size_t lfht_cmd_next_line(const char *buf, size_t len, size_t *pos,
			  const char **line);

/* Name of a command's operation, as written. */
const char *lfht_cmd_op_name(enum lfht_cmd_op op);

#endif /* LFHT_CMD_H */
