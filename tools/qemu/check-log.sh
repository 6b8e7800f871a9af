#!/bin/sh
# Fail when a kernel console log shows a kernel problem.
#
# Usage: tools/qemu/check-log.sh LOG
#
# Looks for: lockdep splats, "BUG:", "WARNING:", "suspicious RCU usage",
# "Oops", "Call Trace", KASAN, KCSAN, UBSAN, "kernel BUG",
# "general protection fault", kernel panics, RCU stalls, hung tasks,
# DEBUG_LIST corruption and debugobjects reports.
# Prints each offending line with its line number and exits 1; exits 0 on
# a clean log, 2 when the log is missing or empty.
# LFHT_CHECK_IGNORE: an extended regex of lines to accept anyway.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 LOG" >&2; exit 2; }
log=$1
[ -s "$log" ] || { echo "$0: missing or empty log: $log" >&2; exit 2; }

pattern='BUG:|WARNING:|suspicious RCU usage|Oops|Call Trace|KASAN|KCSAN|UBSAN|kernel BUG|general protection fault'
# lockdep (most of its reports also start with "WARNING:")
pattern="$pattern"'|possible circular locking dependency|possible recursive locking|inconsistent lock state|lock held when returning|DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|INFO: lockdep is turned off|bad unlock balance|held lock freed'
pattern="$pattern"'|Kernel panic|detected stalls|rcu_preempt self-detected|blocked for more than|list_add corruption|list_del corruption|ODEBUG:|refcount_t:|segfault at|invalid opcode'

hits=$(tr -d '\r' <"$log" | grep -nE -- "$pattern" || true)
if [ -n "$hits" ] && [ -n "${LFHT_CHECK_IGNORE:-}" ]; then
	hits=$(printf '%s\n' "$hits" | grep -vE -- "$LFHT_CHECK_IGNORE" || true)
fi
if [ -n "$hits" ]; then
	echo "check-log: kernel problems in $log:" >&2
	printf '%s\n' "$hits"
	exit 1
fi
echo "check-log: $log is clean" >&2
