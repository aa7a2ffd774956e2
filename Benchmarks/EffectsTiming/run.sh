#!/bin/sh
# Times the effects rack without the benchmark package: builds the Harmonizer module in release,
# compiles EffectsTiming.swift against it, and runs it with a malloc-counting LD_PRELOAD shim
# (Linux). Prints CPU seconds per audio second of the five-effect chain at 48 kHz for 64...512-frame
# blocks, mallocs inside `process` (must be 0), and each effect's cost.
# Usage (from the repository root): sh Benchmarks/EffectsTiming/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
(cd "$root" && swift build -c release --target Harmonizer)
release="$root/.build/release"
clang -O2 -shared -fPIC "$here/malloc-count.c" -o "$out/libcount.so" -ldl
swiftc -O -swift-version 5 -I "$release/Modules" "$here/EffectsTiming.swift" "$release"/Harmonizer.build/*.o \
  -o "$out/effects-timing"
LD_PRELOAD="$out/libcount.so" "$out/effects-timing"
rm -rf "$out"
