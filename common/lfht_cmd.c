// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The debugfs command language:
 *
 *   control:       new NAME [init=N] [min=N] [max=N] [auto_resize] [accounting]
 *                  destroy NAME
 *                  fault N (a test hook: the core's N-th allocation from
 *                  now fails; 0 fails none)
 *   NAME/control:  add KEY VALUE, add_unique KEY VALUE, add_replace KEY VALUE,
 *                  replace KEY VALUE, del KEY, lookup KEY (each with an
 *                  optional hash=H), resize N, clear
 *
 * Numbers are decimal or 0x-prefixed hexadecimal; keys and values are
 * unsigned 64-bit, sizes and hashes unsigned long.  Tokens are separated by
 * spaces or tabs.  Anything else is -EINVAL.
 */
#include "lfht_cmd.h"

#define MAX_TOKENS	8

struct token {
	const char *s;
	size_t n;
};

static const char *const op_names[] = {
	[LFHT_CMD_NEW] = "new",
	[LFHT_CMD_DESTROY] = "destroy",
	[LFHT_CMD_FAULT] = "fault",
	[LFHT_CMD_ADD] = "add",
	[LFHT_CMD_ADD_UNIQUE] = "add_unique",
	[LFHT_CMD_ADD_REPLACE] = "add_replace",
	[LFHT_CMD_REPLACE] = "replace",
	[LFHT_CMD_DEL] = "del",
	[LFHT_CMD_LOOKUP] = "lookup",
	[LFHT_CMD_RESIZE] = "resize",
	[LFHT_CMD_CLEAR] = "clear",
};

const char *lfht_cmd_op_name(enum lfht_cmd_op op)
{
	return op_names[op];
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int tok_is(const struct token *t, const char *word)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!word[i] || word[i] != t->s[i])
			return 0;
	return !word[i];
}

/* "word=" prefix: points *@val past it. */
static int tok_opt(const struct token *t, const char *word, struct token *val)
{
	size_t i;

	for (i = 0; word[i]; i++)
		if (i >= t->n || t->s[i] != word[i])
			return 0;
	if (i >= t->n || t->s[i] != '=')
		return 0;
	val->s = t->s + i + 1;
	val->n = t->n - i - 1;
	return 1;
}

static int digit(char c, unsigned int base)
{
	unsigned int d;

	if (c >= '0' && c <= '9')
		d = (unsigned int)(c - '0');
	else if (c >= 'a' && c <= 'f')
		d = (unsigned int)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		d = (unsigned int)(c - 'A' + 10);
	else
		return -1;
	return d < base ? (int)d : -1;
}

/* An unsigned number no larger than @max; -EINVAL otherwise. */
static int parse_num(const struct token *t, unsigned long long max,
		     unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned int base = 10;
	size_t i = 0;
	int d;

	if (t->n > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= t->n)
		return -EINVAL;
	for (; i < t->n; i++) {
		d = digit(t->s[i], base);
		if (d < 0 || v > (max - (unsigned long long)d) / base)
			return -EINVAL;
		v = v * base + (unsigned long long)d;
	}
	*out = v;
	return 0;
}

static int parse_ulong(const struct token *t, unsigned long *out)
{
	unsigned long long v;
	int ret = parse_num(t, (unsigned long)-1, &v);

	if (!ret)
		*out = (unsigned long)v;
	return ret;
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* 1 to LFHT_CMD_NAME_MAX of [A-Za-z0-9_.-], not "." or "..", not a file. */
static int parse_name(const struct token *t, char *name)
{
	size_t i;

	if (!t->n || t->n > LFHT_CMD_NAME_MAX || t->s[0] == '.' ||
	    tok_is(t, "control") || tok_is(t, "vectors") || tok_is(t, "bench"))
		return -EINVAL;
	for (i = 0; i < t->n; i++) {
		if (!name_char(t->s[i]))
			return -EINVAL;
		name[i] = t->s[i];
	}
	name[i] = 0;
	return 0;
}

static int parse_new(const struct token *tok, int n, struct lfht_cmd *cmd)
{
	struct token val;
	int i, ret = 0;

	cmd->init = 1;
	cmd->min = 1;
	cmd->max = 0;
	cmd->flags = 0;
	for (i = 2; i < n && !ret; i++) {
		if (tok_opt(&tok[i], "init", &val))
			ret = parse_ulong(&val, &cmd->init);
		else if (tok_opt(&tok[i], "min", &val))
			ret = parse_ulong(&val, &cmd->min);
		else if (tok_opt(&tok[i], "max", &val))
			ret = parse_ulong(&val, &cmd->max);
		else if (tok_is(&tok[i], "auto_resize"))
			cmd->flags |= CDS_LFHT_AUTO_RESIZE;
		else if (tok_is(&tok[i], "accounting"))
			cmd->flags |= CDS_LFHT_ACCOUNTING;
		else
			ret = -EINVAL;
	}
	return ret;
}

/* Table commands: positional numbers, then an optional hash=H. */
static int parse_table_cmd(const struct token *tok, int n,
			   struct lfht_cmd *cmd)
{
	static const struct {
		const char *name;
		enum lfht_cmd_op op;
		int nums;	/* KEY [VALUE], or the size for resize */
		int hash;	/* takes hash=H */
	} ops[] = {
		{ "add", LFHT_CMD_ADD, 2, 1 },
		{ "add_unique", LFHT_CMD_ADD_UNIQUE, 2, 1 },
		{ "add_replace", LFHT_CMD_ADD_REPLACE, 2, 1 },
		{ "replace", LFHT_CMD_REPLACE, 2, 1 },
		{ "del", LFHT_CMD_DEL, 1, 1 },
		{ "lookup", LFHT_CMD_LOOKUP, 1, 1 },
		{ "resize", LFHT_CMD_RESIZE, 1, 0 },
		{ "clear", LFHT_CMD_CLEAR, 0, 0 },
		{ .name = NULL },
	};
	unsigned long long *num[2] = { &cmd->key, &cmd->value };
	struct token val;
	unsigned int k;
	int i;

	for (k = 0; ops[k].name; k++)
		if (tok_is(&tok[0], ops[k].name))
			break;
	if (!ops[k].name || n < 1 + ops[k].nums ||
	    n > 1 + ops[k].nums + ops[k].hash)
		return -EINVAL;
	cmd->op = ops[k].op;
	if (cmd->op == LFHT_CMD_RESIZE)
		return parse_ulong(&tok[1], &cmd->size) || !cmd->size ?
		       -EINVAL : 0;
	for (i = 0; i < ops[k].nums; i++)
		if (parse_num(&tok[1 + i], ~0ULL, num[i]))
			return -EINVAL;
	if (n == 2 + ops[k].nums) {
		if (!tok_opt(&tok[n - 1], "hash", &val) ||
		    parse_ulong(&val, &cmd->hash))
			return -EINVAL;
		cmd->has_hash = 1;
	}
	return 0;
}

int lfht_cmd_parse(const char *line, size_t len, enum lfht_cmd_file file,
		   struct lfht_cmd *cmd)
{
	struct token tok[MAX_TOKENS];
	size_t i = 0;
	int n = 0;

	*cmd = (struct lfht_cmd){ .op = LFHT_CMD_CLEAR };
	while (i < len) {
		while (i < len && is_blank(line[i]))
			i++;
		if (i == len)
			break;
		if (n == MAX_TOKENS)
			return -EINVAL;
		tok[n].s = line + i;
		while (i < len && !is_blank(line[i])) {
			/* NUL and other control characters are not words. */
			if ((unsigned char)line[i] < ' ')
				return -EINVAL;
			i++;
		}
		tok[n].n = (size_t)(line + i - tok[n].s);
		n++;
	}
	if (!n)
		return -EINVAL;
	if (file == LFHT_CMD_TABLE)
		return parse_table_cmd(tok, n, cmd);
	if (tok_is(&tok[0], "fault")) {
		cmd->op = LFHT_CMD_FAULT;
		if (n != 2 || parse_ulong(&tok[1], &cmd->nth) ||
		    cmd->nth > LFHT_CMD_FAULT_MAX)
			return -EINVAL;
		return 0;
	}
	if (n < 2 || parse_name(&tok[1], cmd->name))
		return -EINVAL;
	if (tok_is(&tok[0], "destroy")) {
		cmd->op = LFHT_CMD_DESTROY;
		return n == 2 ? 0 : -EINVAL;
	}
	if (!tok_is(&tok[0], "new"))
		return -EINVAL;
	cmd->op = LFHT_CMD_NEW;
	return parse_new(tok, n, cmd);
}

size_t lfht_cmd_next_line(const char *buf, size_t len, size_t *pos,
			  const char **line)
{
	size_t start, end;

	for (;;) {
		start = *pos;
		if (start >= len)
			return 0;
		end = start;
		while (end < len && buf[end] != '\n')
			end++;
		*pos = end < len ? end + 1 : end;
		*line = buf + start;
		while (start < end && is_blank(buf[start]))
			start++;
		if (start < end)
			return end - (size_t)(*line - buf);
	}
}
