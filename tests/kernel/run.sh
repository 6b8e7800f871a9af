#!/bin/sh
# tests/kernel/run.sh: build lfht.ko for the installed Debian kernel, boot
# that kernel under QEMU (TCG) with tests/kernel/debugfs.sh as its test,
# and print TAP: every check the guest made, each embedded vector case, the
# guest's exit status and a clean kernel log (no WARNING, BUG, lockdep or
# RCU report).  Used by make check (tests/shell/debugfs.t).
set -eu
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=$ROOT/build/kernel-test
rm -rf "$OUT"
mkdir -p "$OUT"

tools/qemu/deps.sh >&2
if [ -n "${LFHT_KVARIANT:-}" ]; then
	# A debug kernel of tools/qemu (e.g. kasan): built once, cached.
	OUT=$OUT-$LFHT_KVARIANT
	rm -rf "$OUT" && mkdir -p "$OUT"
	kdir=$(tools/qemu/build-kernel.sh) || { echo "1..1"; echo "not ok 1 - build the $LFHT_KVARIANT kernel"; exit 1; }
	krel="$LFHT_KVARIANT debug kernel"
	vmlinuz=$kdir/arch/x86/boot/bzImage
else
	krel=$(ls /lib/modules | sort -V | tail -n 1)
	kdir=/lib/modules/$krel/build
	vmlinuz=/boot/vmlinuz-$krel
fi
[ -r "$vmlinuz" ] && [ -d "$kdir" ] || {
	echo "1..1"
	echo "not ok 1 - no kernel image and headers for $krel"
	exit 1
}

# C=1: every file also goes through sparse; any warning fails.
if ! make -s kernel KDIR="$kdir" C=1 >"$OUT/build.log" 2>&1 ||
	grep -q 'warning:' "$OUT/build.log"; then
	echo "1..1"
	echo "not ok 1 - lfht.ko builds with no gcc or sparse warning against $krel"
	sed 's/^/# /' "$OUT/build.log"
	exit 1
fi
gcc -Wall -Wextra -Werror -O2 -static tests/kernel/dwrite.c -o "$OUT/dwrite"
# The cases the user-space runner counts: one per "case" line.
cat tests/vectors/*.vec | grep -c '^case ' >"$OUT/expected_vectors"
cp lfht.ko "$OUT/"
tools/qemu/mkinitramfs.sh "$OUT/initrd.gz" tests/kernel/debugfs.sh \
	"$OUT/lfht.ko" "$OUT/dwrite" "$OUT/expected_vectors"

rc=0
tools/qemu/run.sh --kernel "$vmlinuz" --initrd "$OUT/initrd.gz" --smp 2 \
	--mem 1024 --timeout 900 --log "$OUT/console.log" >/dev/null || rc=$?

# The build, the guest's checks (renumbered), then the host's own.
echo "ok 1 - lfht.ko builds with no gcc or sparse warning against $krel"
n=1
while IFS= read -r line; do
	case $line in
	"ok "* | "not ok "*)
		n=$((n + 1))
		verdict=${line%% [0-9]*}
		echo "$verdict $n ${line#"$verdict" [0-9]* }" ;;
	"# vector ok "* | "# vector not ok "*)
		n=$((n + 1))
		v=${line#"# vector "}
		verdict=${v%% [0-9]*}
		echo "$verdict $n - ${v#"$verdict" [0-9]* - }" ;;
	"#"*) echo "$line" ;;
	esac
done <<TAP
$(sed -n 's/^.*TAP: //p' "$OUT/console.log")
TAP
n=$((n + 1))
if [ "$rc" -eq 0 ]; then
	echo "ok $n - guest test script exited 0"
else
	echo "not ok $n - guest test script exited $rc (124 timeout, 125 crash)"
	tail -n 40 "$OUT/console.log" | sed 's/^/# /'
fi
n=$((n + 1))
sed -n '/^LFHT-DMESG-BEGIN/,/^LFHT-DMESG-END/p' "$OUT/console.log" >"$OUT/dmesg.log"
if [ ! -s "$OUT/dmesg.log" ]; then
	echo "not ok $n - guest printed its kernel log"
elif tools/qemu/check-log.sh "$OUT/dmesg.log" >"$OUT/check-log.out" 2>&1 &&
	tools/qemu/check-log.sh "$OUT/console.log" >>"$OUT/check-log.out" 2>&1; then
	echo "ok $n - kernel log has no WARNING, BUG, lockdep or RCU report"
	# KCSAN reports of the kernel's own code (see tools/qemu/check-log.sh).
	grep '^check-log: accepted' "$OUT/check-log.out" | sed 's/^/# /' || true
else
	echo "not ok $n - kernel log has a report"
	sed 's/^/# /' "$OUT/check-log.out"
fi
echo "1..$n"
