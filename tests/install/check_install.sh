#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds two consumers from it:
# one with pkg-config (librknnrt.pc), one with CMake find_package(npurt).
set -euo pipefail
build_dir=$1
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name librknnrt.so | head -n1)")
test -f "$prefix/include/rknn_api.h"
test -e "$libdir/librknn_api.so"
test "$(readlink -f "$libdir/librknn_api.so")" = "$(readlink -f "$libdir/librknnrt.so")"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c99 -Wall -Werror "$here/consumer/main.c" $(pkg-config --cflags --libs librknnrt) -o "$prefix/consumer_pc"
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_pc"

cmake -S "$here/consumer" -B "$prefix/consumer_build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer_build" >/dev/null
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_build/consumer"
# The Python toolkit, when built: importable from the prefix, librknnrt found through the module's rpath.
site=$(find "$prefix" -type d -path '*/python3*/dist-packages' | head -n1)
if [ -n "$site" ]; then
  PYTHONPATH="$site" /usr/bin/python3 -c 'from rknn.api import RKNN; from rknnlite.api import RKNNLite; import npurt; print("python toolkit", npurt.__version__)'
fi
echo "install check passed"
