# Shared helpers for tools/qemu/*.sh.  Sourced, not executed.
# shellcheck shell=sh

LFHT_CACHE=${LFHT_CACHE:-/var/cache/lfht}

lfht_die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

lfht_log() {
	echo "${0##*/}: $*" >&2
}

# The linux-source tarball to use.  LFHT_LINUX_SOURCE (a package name such
# as linux-source-6.1) picks one; otherwise linux-source-6.1 if present
# (it matches Debian bookworm's kernel and headers), else the highest
# version found in /usr/src.
lfht_src_tarball() {
	if [ -n "${LFHT_LINUX_SOURCE:-}" ]; then
		t=/usr/src/${LFHT_LINUX_SOURCE}.tar.xz
	elif [ -f /usr/src/linux-source-6.1.tar.xz ]; then
		t=/usr/src/linux-source-6.1.tar.xz
	else
		t=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	fi
	[ -n "$t" ] && [ -f "$t" ] ||
		lfht_die "no /usr/src/linux-source-*.tar.xz (run tools/qemu/deps.sh)"
	echo "$t"
}

# "package version" of the package owning the tarball, e.g.
# "linux-source-6.1 6.1.192-3".
lfht_src_pkgver() {
	pkg=$(dpkg-query -S "$1" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] || lfht_die "$1 belongs to no Debian package"
	ver=$(dpkg-query -W -f '${Version}' "$pkg")
	echo "$pkg $ver"
}

lfht_sha() {
	sha256sum | cut -c1-16
}

# Unpack tarball $1 into directory $2 (created; must not exist), dropping
# the top-level linux-source-X.Y/ component.
lfht_unpack() {
	mkdir -p "$2"
	tar -xJf "$1" -C "$2" --strip-components=1
}
