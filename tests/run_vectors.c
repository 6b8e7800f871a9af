/*
 * run_vectors FILE...: run the test vectors through the user-space build of
 * the shared interpreter (common/lfht_vector.c) and print one TAP line per
 * case.  Built once per RCU flavor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flavor.h"
#include <lfht/rculfhash.h>
#include "lfht_vector.h"

static int case_no;

static void result(void *ctx, const char *file, const char *name, int passed,
		   const char *why)
{
	(void)ctx;
	printf("%s %d - %s %s: %s%s%s\n", passed ? "ok" : "not ok", ++case_no,
	       FLAVOR_NAME, file, name, why ? " # " : "", why ? why : "");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) &&
	    fread(text, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

int main(int argc, char **argv)
{
	struct lfht_env_config cfg = { .flavor = &rcu_flavor, .attr = NULL };
	struct lfht_vec_report report = { .result = result };
	int failed = 0, i;

	rcu_register_thread();
	for (i = 1; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');
		size_t len;
		char *text = slurp(argv[i], &len);

		if (!text) {
			printf("not ok %d - cannot read %s\n", ++case_no, argv[i]);
			failed++;
			continue;
		}
		failed += lfht_vec_run(base ? base + 1 : argv[i], text, len,
				       &cfg, &report);
		free(text);
	}
	printf("1..%d\n# %d vector cases, %d failed\n", case_no, case_no, failed);
	rcu_unregister_thread();
	return failed || !case_no;
}
