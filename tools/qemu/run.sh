#!/bin/bash
# Boot a kernel + initramfs under QEMU/TCG (no KVM), serial console on
# stdout and in a log file, under a hard timeout.
#
# Usage: tools/qemu/run.sh --kernel BZIMAGE --initrd INITRD [--smp N]
#          [--mem MB] [--timeout SECS] [--log FILE] [--append ARGS]
#          [-- EXTRA QEMU ARGS...]
#
# Defaults: --smp 2 --mem 512 --timeout 300, log in $TMPDIR/lfht-qemu.XXX.log
# Exit status:
#   124   timeout (QEMU killed)
#   125   guest ended without the "lfht-init: test.sh exit status N" line
#         (kernel panic, crash, not an lfht initramfs)
#   N     otherwise the exit status of the guest's test.sh (0 = ok)
# Note that KUnit results are not in that status (insmod returns 0 when
# tests fail): use kunit-parse.sh and check-log.sh on the log.
set -eu
set -o pipefail

kernel="" initrd="" smp=2 mem=512 tmo=300 log="" append=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--) shift; break ;;
	-h | --help) sed -n '2,18p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] || {
	echo "usage: run.sh --kernel BZIMAGE --initrd INITRD [--smp N] [--mem MB] [--timeout S] [--log FILE]" >&2
	exit 2
}
[ -r "$kernel" ] || { echo "run.sh: cannot read kernel $kernel" >&2; exit 2; }
[ -r "$initrd" ] || { echo "run.sh: cannot read initrd $initrd" >&2; exit 2; }
if [ -z "$log" ]; then
	log=$(mktemp "${TMPDIR:-/tmp}/lfht-qemu.XXXXXX.log")
fi
mkdir -p "$(dirname "$log")"

qemu=${QEMU:-qemu-system-x86_64}
# shellcheck disable=SC2054 # the commas are QEMU's
cmd=("$qemu" -accel tcg,thread=multi -cpu max -smp "$smp" -m "$mem"
	-nographic -no-reboot
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 no_timer_check $append"
	"$@")

echo "run.sh: ${cmd[*]}" >&2
echo "run.sh: timeout ${tmo}s, log $log" >&2
start=$(date +%s.%N)
set +e
# stdin from /dev/null: QEMU must not grab a terminal (and CI has none).
# tr: the serial console ends lines with \r\n.
timeout -k 10 "$tmo" "${cmd[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$log"
st=("${PIPESTATUS[@]}")
set -e
end=$(date +%s.%N)
qst=${st[0]}
echo >&2 # the console's last line has no newline
secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", b-a}')

if [ "$qst" = 124 ] || [ "$qst" = 137 ]; then
	echo "run.sh: TIMEOUT after ${tmo}s (QEMU killed); log $log" >&2
	exit 124
fi
guest=$(sed -n 's/^.*lfht-init: test.sh exit status \([0-9][0-9]*\).*$/\1/p' "$log" | tail -n 1)
if [ -z "$guest" ]; then
	echo "run.sh: guest did not finish its test script (QEMU status $qst, ${secs}s); log $log" >&2
	exit 125
fi
echo "run.sh: guest test.sh exit status $guest, QEMU status $qst, ${secs}s" >&2
exit "$guest"
