/*
 * libFuzzer target: the debugfs command parser (common/lfht_cmd.c, the
 * very source lfht.ko parses control-file writes with) on arbitrary bytes,
 * as a write to the top-level control file and to a table's.  Beyond not
 * crashing: every accepted line must hold a valid command, and the
 * command printed back in canonical form must parse to the same command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lfht_cmd.h"

static int same(const struct lfht_cmd *a, const struct lfht_cmd *b)
{
	return a->op == b->op && a->key == b->key && a->value == b->value &&
	       a->has_hash == b->has_hash && (!a->has_hash || a->hash == b->hash) &&
	       a->size == b->size && !strcmp(a->name, b->name) &&
	       a->init == b->init && a->min == b->min && a->max == b->max &&
	       a->flags == b->flags && a->nth == b->nth;
}

static int valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > LFHT_CMD_NAME_MAX || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-.", name[i]))
			return 0;
	return 1;
}

/* The command in canonical form: what a person would have written. */
static int print_cmd(const struct lfht_cmd *c, char *buf, size_t len)
{
	const char *op = lfht_cmd_op_name(c->op);

	switch (c->op) {
	case LFHT_CMD_NEW:
		return snprintf(buf, len, "new %s init=%lu min=0x%lx max=%lu%s%s",
				c->name, c->init, c->min, c->max,
				c->flags & CDS_LFHT_AUTO_RESIZE ? " auto_resize" : "",
				c->flags & CDS_LFHT_ACCOUNTING ? "\taccounting" : "");
	case LFHT_CMD_DESTROY:
		return snprintf(buf, len, "destroy %s", c->name);
	case LFHT_CMD_FAULT:
		return snprintf(buf, len, "fault 0x%lx", c->nth);
	case LFHT_CMD_RESIZE:
		return snprintf(buf, len, "resize %lu", c->size);
	case LFHT_CMD_CLEAR:
		return snprintf(buf, len, "clear");
	case LFHT_CMD_DEL:
	case LFHT_CMD_LOOKUP:
		return c->has_hash ?
		       snprintf(buf, len, "%s %llu hash=%lu", op, c->key, c->hash) :
		       snprintf(buf, len, "%s 0x%llx", op, c->key);
	default:
		return c->has_hash ?
		       snprintf(buf, len, "%s %llu %llu hash=0x%lx", op, c->key,
				c->value, c->hash) :
		       snprintf(buf, len, "%s %llu %llu", op, c->key, c->value);
	}
}

static void check_line(const char *line, size_t n, enum lfht_cmd_file file)
{
	struct lfht_cmd cmd, again;
	char buf[256];
	int len;

	if (lfht_cmd_parse(line, n, file, &cmd))
		return;
	if (file == LFHT_CMD_TOP) {
		if (cmd.op == LFHT_CMD_FAULT) {
			if (cmd.nth > LFHT_CMD_FAULT_MAX || cmd.name[0])
				abort();
		} else if ((cmd.op != LFHT_CMD_NEW && cmd.op != LFHT_CMD_DESTROY) ||
			   !valid_name(cmd.name)) {
			abort();
		}
	} else if (cmd.op < LFHT_CMD_ADD || cmd.op > LFHT_CMD_CLEAR ||
		   (cmd.op == LFHT_CMD_RESIZE && !cmd.size)) {
		abort();
	}
	len = print_cmd(&cmd, buf, sizeof(buf));
	if (len <= 0 || (size_t)len >= sizeof(buf) ||
	    lfht_cmd_parse(buf, (size_t)len, file, &again) || !same(&cmd, &again))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly @size bytes: ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	const char *line;
	size_t pos = 0, n, lines = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	while ((n = lfht_cmd_next_line(text, size, &pos, &line))) {
		if (line < text || line + n > text + size || ++lines > size)
			abort();
		check_line(line, n, LFHT_CMD_TOP);
		check_line(line, n, LFHT_CMD_TABLE);
	}
	free(text);
	return 0;
}
