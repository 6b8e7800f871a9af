#!/bin/sh
# Kernel benchmark: lfht against rhashtable in one boot of Debian's kernel
# under QEMU (TCG: emulated, so only the ratios mean anything).
#
# Usage: tools/qemu/bench-kernel.sh [PARAMS...]
#   PARAMS are written to /sys/kernel/debug/lfht/bench, e.g. keys=1048576
#   threads=2 ms=500 rounds=5 (see kernel/lfht_bench.c); one run per
#   PARAMS argument ("keys=1024 threads=1" "keys=65536 threads=2" ...).
# Prints the RATIO lines (and the per-round figures as # comments) and
# keeps them in build/bench/kernel.txt.
set -eu
cd "$(dirname "$0")/../.."
OUT=build/bench-kernel
mkdir -p "$OUT" build/bench
[ $# -gt 0 ] || set -- "keys=65536 threads=1" "keys=65536 threads=2"
tools/qemu/deps.sh >&2
krel=$(ls /lib/modules | sort -V | tail -n 1)
make -s kernel KDIR="/lib/modules/$krel/build" >"$OUT/build.log" 2>&1 || {
	cat "$OUT/build.log" >&2
	exit 1
}
{
	echo 'dmesg -n 1'
	echo 'insmod lfht.ko || exit 1'
	for p in "$@"; do
		echo "echo '$p' > /sys/kernel/debug/lfht/bench || exit 1"
		echo 'sed "s/^/BENCH: /" /sys/kernel/debug/lfht/bench'
	done
	echo 'rmmod lfht'
} >"$OUT/guest.sh"
cp lfht.ko "$OUT/"
tools/qemu/mkinitramfs.sh "$OUT/initrd.gz" "$OUT/guest.sh" "$OUT/lfht.ko"
tools/qemu/run.sh --kernel "/boot/vmlinuz-$krel" --initrd "$OUT/initrd.gz" \
	--smp 2 --mem 2048 --timeout 3000 --log "$OUT/console.log" >/dev/null 2>&1 || {
	echo "bench-kernel: the guest failed; see $OUT/console.log" >&2
	exit 1
}
sed -n 's/^BENCH: //p' "$OUT/console.log" | tee build/bench/kernel.txt
tools/qemu/check-log.sh "$OUT/console.log" >&2
