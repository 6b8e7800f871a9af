#!/bin/sh
# The KUnit suite again on the KASAN debug kernel (tools/qemu/kasan.config):
# any KASAN report in the console log fails it.
cd "${LFHT_ROOT:?run from make check}" || exit 1
LFHT_KVARIANT=kasan exec sh tests/shell/kunit.t
