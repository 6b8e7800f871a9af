/*
 * libFuzzer target: the test-vector interpreter (common/lfht_vector.c, the
 * parser the kernel module also runs on files written to debugfs) on
 * arbitrary text.  It must not crash, hang or leak, whatever it reports;
 * it checks itself that every node it allocated was freed, and a case
 * reported as failing for a leak of its own nodes aborts here.
 */
#include <stdlib.h>
#include <string.h>
#include "flavor.h"
#include "lfht_vector.h"

static void result(void *ctx, const char *file, const char *name, int passed,
		   const char *why)
{
	(void)ctx;
	(void)file;
	(void)name;
	(void)passed;
	/* The interpreter's own leak check (finish_case in lfht_vector.c). */
	if (why && !strcmp(why, "line 0: nodes leaked"))
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	rcu_register_thread();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lfht_env_config cfg = { .flavor = &rcu_flavor, .attr = NULL };
	struct lfht_vec_report report = { .result = result };
	/* A copy of exactly @size bytes: ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	lfht_vec_run("fuzz.vec", text, size, &cfg, &report);
	free(text);
	return 0;
}
