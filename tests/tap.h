/*
 * tests/tap.h - minimal TAP (Test Anything Protocol) producer.
 *
 * Usage:
 *	plan(N);              optional; without it done_testing() prints
 *	                      the plan at the end ("1..N" trailer is valid TAP)
 *	ok(cond, "fmt", ...); one test point, returns cond
 *	is_ul(a, b, "name");  unsigned long equality, prints both on failure
 *	is_l(a, b, "name");   signed long equality
 *	diag("fmt", ...);     "# ..." comment on stderr (failure details)
 *	note("fmt", ...);     "# ..." comment on stdout (shown by prove -v)
 *	return done_testing();  exit status: 0 iff every test passed and the
 *	                      number run matches the plan
 *
 * There is deliberately no skip support: every test point must run.
 * All functions are thread-safe (a mutex serialises output), although the
 * tests normally only report from the main thread.
 */
#ifndef LFHT_TESTS_TAP_H
#define LFHT_TESTS_TAP_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct tap_state {
	pthread_mutex_t lock;
	unsigned long planned;	/* 0: no plan printed yet */
	unsigned long run;
	unsigned long failed;
};

static struct tap_state tap_state __attribute__((unused)) = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static inline void plan(unsigned long n)
{
	pthread_mutex_lock(&tap_state.lock);
	tap_state.planned = n;
	printf("1..%lu\n", n);
	fflush(stdout);
	pthread_mutex_unlock(&tap_state.lock);
}

static inline void vdiag(const char *fmt, va_list ap)
{
	/* stderr, like Test::More: visible even when prove is not verbose. */
	fflush(stdout);
	fputs("# ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static inline __attribute__((format(printf, 1, 2)))
void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&tap_state.lock);
	vdiag(fmt, ap);
	pthread_mutex_unlock(&tap_state.lock);
	va_end(ap);
}

static inline __attribute__((format(printf, 1, 2)))
void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&tap_state.lock);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&tap_state.lock);
	va_end(ap);
}

static inline __attribute__((format(printf, 2, 3)))
int ok(int cond, const char *fmt, ...)
{
	va_list ap;
	unsigned long n;

	pthread_mutex_lock(&tap_state.lock);
	n = ++tap_state.run;
	if (!cond)
		tap_state.failed++;
	printf("%s %lu - ", cond ? "ok" : "not ok", n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&tap_state.lock);
	return cond;
}

static inline int is_ul(unsigned long got, unsigned long expected,
			const char *name)
{
	int r = ok(got == expected, "%s", name);

	if (!r)
		diag("  %s: got %lu, expected %lu", name, got, expected);
	return r;
}

static inline int is_l(long got, long expected, const char *name)
{
	int r = ok(got == expected, "%s", name);

	if (!r)
		diag("  %s: got %ld, expected %ld", name, got, expected);
	return r;
}

/* Returns the process exit status. */
static inline int done_testing(void)
{
	int status;

	pthread_mutex_lock(&tap_state.lock);
	if (!tap_state.planned) {
		printf("1..%lu\n", tap_state.run);
		tap_state.planned = tap_state.run;
	}
	fflush(stdout);
	status = tap_state.failed != 0 || tap_state.run != tap_state.planned
		|| tap_state.run == 0;
	if (tap_state.run != tap_state.planned)
		fprintf(stderr, "# planned %lu tests but ran %lu\n",
			tap_state.planned, tap_state.run);
	if (tap_state.failed)
		fprintf(stderr, "# failed %lu of %lu tests\n",
			tap_state.failed, tap_state.run);
	pthread_mutex_unlock(&tap_state.lock);
	return status;
}

#endif /* LFHT_TESTS_TAP_H */
