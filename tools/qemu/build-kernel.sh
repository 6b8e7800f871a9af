#!/bin/sh
# Build (once) a debug kernel with KUnit + lockdep/RCU debugging from
# Debian's linux-source package, cached outside the repo.
#
# Usage:
#   tools/qemu/build-kernel.sh              build if needed, print tree path
#   tools/qemu/build-kernel.sh --print-dir  print tree path only (no build)
#   tools/qemu/build-kernel.sh --is-built   exit 0 if the cached tree exists
#
# The tree is ${LFHT_CACHE:-/var/cache/lfht}/kunit-<key>, with
#   <key> = sha256(kunit.config + linux-source package+version + this
#           script + lib.sh + gcc version), first 16 hex digits.
# In it: arch/x86/boot/bzImage, vmlinux, vmlinux.symvers, Module.symvers,
# scripts/checkpatch.pl, tools/testing/kunit/kunit.py.
# Build external modules with:  make -C "$TREE" M=$PWD
#
# Env: LFHT_KVARIANT=kasan adds kasan.config to kunit.config (tree
#      kunit-kasan-<key>), LFHT_CACHE (cache root), LFHT_JOBS (default nproc),
#      LFHT_LINUX_SOURCE (e.g. linux-source-6.1), LFHT_VERBOSE=1 (show make).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

mode=build
case "${1:-}" in
"") ;;
--print-dir) mode=print ;;
--is-built) mode=check ;;
-h | --help)
	sed -n '2,20p' "$0"
	exit 0
	;;
*) lfht_die "unknown argument: $1 (try --help)" ;;
esac

fragment=$here/kunit.config
[ -f "$fragment" ] || lfht_die "missing $fragment"
name=kunit
if [ -n "${LFHT_KVARIANT:-}" ]; then
	[ -f "$here/$LFHT_KVARIANT.config" ] ||
		lfht_die "missing $here/$LFHT_KVARIANT.config"
	name=kunit-$LFHT_KVARIANT
	mkdir -p "$LFHT_CACHE"
	combined=$(mktemp "${TMPDIR:-/tmp}/lfht-$name.XXXXXX.config")
	trap 'rm -f "$combined"' EXIT
	cat "$fragment" "$here/$LFHT_KVARIANT.config" >"$combined"
	fragment=$combined
fi
tarball=$(lfht_src_tarball)
pkgver=$(lfht_src_pkgver "$tarball")
gccver=$(gcc --version 2>/dev/null | head -n 1 || echo none)

key=$({
	echo "fragment:"
	cat "$fragment"
	echo "source: $pkgver"
	echo "gcc: $gccver"
	echo "script:"
	cat "$0"
	cat "$here/lib.sh"
} | lfht_sha)

tree=$LFHT_CACHE/$name-$key
stamp=$tree/.lfht-built

case $mode in
print)
	echo "$tree"
	exit 0
	;;
check)
	[ -f "$stamp" ]
	exit $?
	;;
esac

if [ -f "$stamp" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$LFHT_CACHE"

# Serialise concurrent builds of the same key (two CI jobs, make -j).
lock=$LFHT_CACHE/$name-$key.lock
if command -v flock >/dev/null 2>&1; then
	exec 9>"$lock"
	flock -x 9
	if [ -f "$stamp" ]; then # built by whoever held the lock
		echo "$tree"
		exit 0
	fi
fi

# Leftovers of interrupted builds of this key, and a tree without stamp
# (cannot normally happen: the stamp is written before the rename).
rm -rf "$LFHT_CACHE/$name-$key.tmp."* "$tree"

tmp=$LFHT_CACHE/$name-$key.tmp.$$
log=$tmp.log
jobs=${LFHT_JOBS:-$(nproc)}
start=$(date +%s)

lfht_log "building debug kernel ($pkgver, key $key, -j$jobs)"
lfht_log "tree: $tree   log: $log"

run() {
	if [ "${LFHT_VERBOSE:-0}" = 1 ]; then
		"$@" 2>&1 | tee -a "$log"
		return
	fi
	if ! "$@" >>"$log" 2>&1; then
		echo "--- last lines of $log ---" >&2
		tail -n 40 "$log" >&2
		lfht_die "failed: $*"
	fi
}

# An interrupted or failed build leaves no tree (only its log, removed by
# the next build of the same key).
trap 'rm -rf "$tmp" ${combined:+"$combined"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$log"
lfht_log "unpacking $tarball"
lfht_unpack "$tarball" "$tmp"
cd "$tmp"

run make tinyconfig
run ./scripts/kconfig/merge_config.sh -m .config "$fragment"
run make olddefconfig

# merge_config.sh and olddefconfig silently drop options whose
# dependencies are unmet: check each requested value really made it.
missing=""
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" .config ||
			missing="$missing
  wanted $line, got: $(grep -E "^(# )?${line%%=*}[= ]" .config || echo '(absent)')"
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" .config ||
			missing="$missing
  wanted $line, got: $(grep "^$sym=" .config)"
		;;
	esac
done <"$fragment"
if [ -n "$missing" ]; then
	echo "${0##*/}: error: kconfig options from $fragment not in .config:$missing" >&2
	echo "${0##*/}: (unmet dependencies; fix the fragment)" >&2
	exit 1
fi
lfht_log "config OK ($(grep -c '=y' .config) options =y); compiling (several minutes)"

run make -j"$jobs" bzImage modules_prepare

[ -f arch/x86/boot/bzImage ] || lfht_die "no bzImage after build"
# No modules are built (=m) in this config, so Module.symvers would be just
# vmlinux.symvers; provide it so `make -C TREE M=...` resolves exported
# symbols (KUnit's) without KBUILD_EXTRA_SYMBOLS.
if [ ! -f Module.symvers ] && [ -f vmlinux.symvers ]; then
	cp vmlinux.symvers Module.symvers
fi

end=$(date +%s)
{
	echo "key=$key"
	echo "source=$pkgver"
	echo "gcc=$gccver"
	echo "kernelrelease=$(make -s kernelrelease)"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "build_seconds=$((end - start))"
} >.lfht-built
cd /
mv "$log" "$tmp/lfht-build.log"
mv "$tmp" "$tree"
trap - EXIT
lfht_log "done in $((end - start)) s"
echo "$tree"
