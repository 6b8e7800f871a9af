#!/bin/sh
# One shot: boot the cached debug kernel with KUnit test modules, then
# check the console log for kernel problems and the KTAP for failures.
#
# Usage: tools/qemu/kunit-run.sh [--smp N] [--mem MB] [--timeout S]
#          [--log FILE] [--script TEST.sh] MODULE.ko [MORE.ko|FILES...]
#
# Without --script, the guest runs `insmod` then `rmmod` for every .ko
# given, in order (KUnit suites run during insmod).  With --script, that
# script runs instead (files are in /lib/lfht/, the current directory).
# The modules must be built against the tree of build-kernel.sh:
#   make kbuild KDIR="$(tools/qemu/build-kernel.sh)"  (the module copy is in build/kbuild-*)
# Exit status 0 only when the guest finished, its script exited 0,
# check-log.sh found nothing and kunit-parse.sh saw tests and no failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
smp=2 mem=512 tmo=600 log="" script=""
while [ $# -gt 0 ]; do
	case $1 in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--script) script=$2; shift 2 ;;
	-h | --help) sed -n '2,15p' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) echo "kunit-run: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [options] MODULE.ko..." >&2; exit 2; }

tree=$("$here/build-kernel.sh")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lfht-kunit-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -n "$log" ] || log=$tmp/console.log

if [ -z "$script" ]; then
	script=$tmp/test.sh
	{
		echo 'rc=0'
		for f in "$@"; do
			case $f in
			*.ko)
				b=$(basename "$f")
				m=${b%.ko}
				echo "echo \"kunit-run: insmod $b\""
				echo "insmod /lib/lfht/$b || rc=1"
				echo "rmmod $m || rc=1"
				;;
			esac
		done
		echo 'exit $rc'
	} >"$script"
fi

"$here/mkinitramfs.sh" "$tmp/initrd.cpio.gz" "$script" "$@"
status=0
"$here/run.sh" --kernel "$tree/arch/x86/boot/bzImage" \
	--initrd "$tmp/initrd.cpio.gz" --smp "$smp" --mem "$mem" \
	--timeout "$tmo" --log "$log" || status=$?
echo "--- check-log"
"$here/check-log.sh" "$log" || status=1
echo "--- kunit.py parse"
LFHT_KUNIT_PY=$tree/tools/testing/kunit/kunit.py \
	"$here/kunit-parse.sh" "$log" || status=1
exit $status
