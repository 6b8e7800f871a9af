#!/bin/sh
# make demo, kernel half: build lfht.ko for the installed Debian kernel,
# boot it under QEMU and show a debugfs session (tools/demo-kernel-guest.sh).
set -eu
cd "$(dirname "$0")/.."
OUT=build/demo-kernel
mkdir -p "$OUT"
tools/qemu/deps.sh
krel=$(ls /lib/modules | sort -V | tail -n 1)
make -s kernel-clean KDIR="/lib/modules/$krel/build" >/dev/null 2>&1 || true
make -s kernel KDIR="/lib/modules/$krel/build" >"$OUT/build.log" 2>&1 || {
	cat "$OUT/build.log" >&2
	exit 1
}
cp lfht.ko "$OUT/"
tools/qemu/mkinitramfs.sh "$OUT/initrd.gz" tools/demo-kernel-guest.sh "$OUT/lfht.ko"
echo "--- lfht.ko under QEMU (kernel $krel), a debugfs session:"
tools/qemu/run.sh --kernel "/boot/vmlinuz-$krel" --initrd "$OUT/initrd.gz" \
	--timeout 600 --log "$OUT/console.log" >/dev/null 2>&1 || {
	echo "demo-kernel: the guest failed; see $OUT/console.log" >&2
	exit 1
}
sed -n '/^LFHT-DEMO-BEGIN/,/^LFHT-DEMO-END/p' "$OUT/console.log" | sed '1d;$d'
