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
#
# KCSAN (tools/qemu/kcsan.config) watches the whole kernel, and in strict
# mode it also reports races of the kernel's own that its maintainers
# tolerate: seen here were atime_needs_update / generic_update_time (exec
# of busybox on tmpfs), ps2_do_sendbyte / ps2_handle_ack (the PS/2 probe)
# and native_stop_other_cpus (power-off).  A KCSAN report none of whose
# frames is in lfht.ko or lfht_kunit.ko ("[lfht]", "[lfht_kunit]": a call
# chain through our code, even into the kernel, has one) is therefore
# listed as accepted, not failed.  So is one race of the workqueue's own
# that our call chains reach through queue_work() and cancel_work_sync():
# set_work_data() (kernel/workqueue.c) reads work->data plainly in
# work_static() (include/linux/workqueue.h, with DEBUG_OBJECTS_WORK) while
# another CPU's atomic bit operation sets PENDING in the same word, which
# the workqueue allows (queueing a running item); the STATIC bit it wants
# never changes.  Every other KCSAN report fails; LFHT_KCSAN_ALL=1 fails
# on those too.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 LOG" >&2; exit 2; }
log=$1
[ -s "$log" ] || { echo "$0: missing or empty log: $log" >&2; exit 2; }

pattern='BUG:|WARNING:|suspicious RCU usage|Oops|Call Trace|KASAN|KCSAN|UBSAN|kernel BUG|general protection fault'
# lockdep (most of its reports also start with "WARNING:")
pattern="$pattern"'|possible circular locking dependency|possible recursive locking|inconsistent lock state|lock held when returning|DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|INFO: lockdep is turned off|bad unlock balance|held lock freed'
pattern="$pattern"'|Kernel panic|detected stalls|rcu_preempt self-detected|blocked for more than|list_add corruption|list_del corruption|ODEBUG:|refcount_t:|segfault at|invalid opcode'

hits=$(tr -d '\r' <"$log" | grep -nE -- "$pattern" || true)
# Line numbers of the "BUG: KCSAN:" titles of reports with no frame of ours
# or of the workqueue race above (a report runs to the next line of "="s).
kernel_only=""
if [ "${LFHT_KCSAN_ALL:-0}" != 1 ]; then
	kernel_only=$(tr -d '\r' <"$log" | awk '
	function done() { if (title && (!ours || wq)) print title; title = 0 }
	/BUG: KCSAN: / {
		done(); title = NR; ours = 0
		wq = /data-race in ([^ ]+ \/ )?set_work_data( \/ [^ ]+)?$/
		next
	}
	title && / \[lfht(_kunit)?\]$/	{ ours = 1 }
	title && /^(\[ *[0-9.]+\] )?=+$/	{ done() }
	END				{ done() }')
fi
if [ -n "$hits" ] && [ -n "$kernel_only" ]; then
	for nr in $kernel_only; do
		echo "check-log: accepted, the kernel's own race: $(printf '%s\n' "$hits" |
			grep "^$nr:" | sed 's/^[0-9]*:\[ *[0-9.]*\] *//')" >&2
	done
	hits=$(printf '%s\n' "$hits" | awk -v skip="$kernel_only" '
		BEGIN { n = split(skip, a, "\n"); for (i = 1; i <= n; i++) s[a[i]] = 1 }
		{ nr = $0; sub(/:.*/, "", nr) } !(nr in s)')
fi
if [ -n "$hits" ] && [ -n "${LFHT_CHECK_IGNORE:-}" ]; then
	hits=$(printf '%s\n' "$hits" | grep -vE -- "$LFHT_CHECK_IGNORE" || true)
fi
if [ -n "$hits" ]; then
	echo "check-log: kernel problems in $log:" >&2
	printf '%s\n' "$hits"
	exit 1
fi
echo "check-log: $log is clean" >&2
