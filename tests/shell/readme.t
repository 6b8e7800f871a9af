#!/bin/sh
# The README's typical-usage example is examples/typical.c, compiles with
# -Werror and runs as shown.
cd "${LFHT_ROOT:?run from make check}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 1..3
awk '/^```c$/{on=1; next} /^```$/{on=0} on' README >"$tmp/readme.c"
if cmp -s "$tmp/readme.c" examples/typical.c; then
	echo "ok 1 - README shows examples/typical.c verbatim"
else
	echo "not ok 1 - README example differs from examples/typical.c"
fi
if cc -Wall -Wextra -Werror -Iinclude "$tmp/readme.c" build/gcc/liblfht.a \
	-lurcu -pthread -o "$tmp/typical" 2>"$tmp/log"; then
	echo "ok 2 - README example compiles"
else
	echo "not ok 2 - README example compiles"; sed 's/^/# /' "$tmp/log"
fi
"$tmp/typical" >"$tmp/out"
if grep -q '^table:\( -\?[0-9]*\)\{5\}$' "$tmp/out" &&
   grep -qx 'removing every 42' "$tmp/out" &&
   grep -qx 'lookup 42: not found' "$tmp/out" &&
   grep -qx 'destroy: 0' "$tmp/out"; then
	echo "ok 3 - README example output as shown"
else
	echo "not ok 3 - README example output as shown"; sed 's/^/# /' "$tmp/out"
fi
