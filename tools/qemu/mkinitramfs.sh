#!/bin/sh
# Build a busybox initramfs that runs one test script and powers off.
#
# Usage: tools/qemu/mkinitramfs.sh OUT.cpio.gz SCRIPT [FILES...]
#
#   SCRIPT   shell script, copied to /test.sh and run by /init with
#            busybox sh (cwd /lib/lfht).  Its exit status is printed as
#            "lfht-init: test.sh exit status N" (run.sh reads it back).
#   FILES    copied into /lib/lfht/ (e.g. *.ko; directories are copied
#            recursively).
#
# In the guest: busybox applets in /bin, proc on /proc, sysfs on /sys,
# devtmpfs on /dev, debugfs on /sys/kernel/debug, tmpfs on /tmp.
# Ways out, in order: `poweroff -f` when the kernel has ACPI (QEMU exits 0);
# else isa-debug-exit via /dev/port (run.sh adds the device; QEMU exits 1);
# else init exits -> panic -> panic=-1 reboot -> -no-reboot quits QEMU
# (that prints "Kernel panic" and a Call Trace, which check-log.sh flags).
# Force one with run.sh --append lfht_exit=poweroff|debugexit|exit.
set -eu

[ $# -ge 2 ] || {
	echo "usage: $0 OUT.cpio.gz SCRIPT [FILES...]" >&2
	exit 2
}
out=$1
script=$2
shift 2

BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -f "$script" ] || { echo "$0: no such script: $script" >&2; exit 1; }
[ -x "$BUSYBOX" ] || { echo "$0: no $BUSYBOX (apt-get install busybox-static)" >&2; exit 1; }
if ! file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked'; then
	# `file` may be missing; ldd is a second opinion.
	if ldd "$BUSYBOX" >/dev/null 2>&1; then
		echo "$0: $BUSYBOX is dynamically linked; install busybox-static" >&2
		exit 1
	fi
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/lfht-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

mkdir -p "$stage/bin" "$stage/sbin" "$stage/dev" "$stage/proc" \
	"$stage/sys" "$stage/tmp" "$stage/lib/lfht" "$stage/etc" "$stage/root"
cp "$BUSYBOX" "$stage/bin/busybox"
cp "$script" "$stage/test.sh"
chmod 755 "$stage/test.sh"
for f in "$@"; do
	cp -R "$f" "$stage/lib/lfht/"
done
# The kernel opens /dev/console for init before devtmpfs is mounted.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$stage/dev/console" c 5 1
	mknod -m 666 "$stage/dev/null" c 1 3
fi

cat >"$stage/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s /bin
export PATH=/bin:/sbin HOME=/root
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null || true
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
mount -t tmpfs tmpfs /tmp
# In case the kernel found no /dev/console before devtmpfs was mounted.
[ -c /dev/console ] && exec </dev/console >/dev/console 2>&1
echo "lfht-init: kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/{print $2" kB"}' /proc/meminfo)"
cd /lib/lfht
sh /test.sh
rc=$?
echo "lfht-init: test.sh exit status $rc"
sync
# lfht_exit=poweroff|debugexit|exit on the kernel command line (passed to
# init as an environment variable) forces one way out; default: the first
# one that works.
way=${lfht_exit:-auto}
if [ "$way" = auto ] || [ "$way" = poweroff ]; then
	[ -d /sys/firmware/acpi ] && poweroff -f
fi
if [ "$way" = auto ] || [ "$way" = debugexit ]; then
	# isa-debug-exit at 0xf4: QEMU exits with status (value << 1) | 1.
	[ -c /dev/port ] && printf '\000' | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
fi
# Last resort: init exits, the kernel panics, panic=-1 reboots at once and
# QEMU's -no-reboot turns the reboot into an exit.
exit $rc
EOF
chmod 755 "$stage/init"

outdir=$(dirname "$out")
mkdir -p "$outdir"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
