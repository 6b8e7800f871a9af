#!/bin/sh
# Install every Debian package the QEMU/KUnit harness needs.
# Idempotent: when everything is already installed it only runs dpkg -s
# and exits (well under a second).
#
# Usage: tools/qemu/deps.sh
# Env:   LFHT_LINUX_SOURCE=linux-source-6.1   force a linux-source package
set -eu

# Source package: the one matching Debian's stable kernel (6.1 on bookworm)
# is preferred, because linux-headers-amd64 / linux-image-amd64 are 6.1 too.
LINUX_SOURCE=${LFHT_LINUX_SOURCE:-}

PKGS="linux-headers-amd64 linux-image-amd64 flex bison bc libelf-dev \
libssl-dev qemu-system-x86 busybox-static cpio sparse python3 xz-utils \
gcc make gzip coreutils kmod"

# dpkg -s also succeeds for removed packages whose config files remain:
# ask for the status itself.
installed() {
	[ "$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done

# Any linux-source-X.Y already installed satisfies us (unless forced).
if [ -n "$LINUX_SOURCE" ]; then
	installed "$LINUX_SOURCE" || missing="$missing $LINUX_SOURCE"
elif ! ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1; then
	missing="$missing @linux-source"
fi

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: need root to install:$missing" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_updated=""
apt_update() {
	if [ -z "$apt_updated" ]; then
		apt-get update -qq
		apt_updated=1
	fi
}

case "$missing" in
*@linux-source*)
	apt_update
	if apt-cache show linux-source-6.1 >/dev/null 2>&1; then
		LINUX_SOURCE=linux-source-6.1
	else
		# Highest versioned linux-source-X.Y the archive offers.
		LINUX_SOURCE=$(apt-cache search --names-only '^linux-source-[0-9]' |
			awk '{print $1}' | sort -V | tail -n 1)
	fi
	if [ -z "$LINUX_SOURCE" ]; then
		echo "deps.sh: no linux-source-* package in the archive" >&2
		exit 1
	fi
	missing=$(echo "$missing" | sed "s/@linux-source/$LINUX_SOURCE/")
	;;
esac

echo "deps.sh: installing:$missing" >&2
# Try without update first (fast path on a machine with fresh lists),
# then with it.
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
	apt_update
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi

# Sanity checks of what the other scripts rely on.
ls /usr/src/linux-source-*.tar.xz >/dev/null
command -v qemu-system-x86_64 >/dev/null
[ -x /bin/busybox ]
