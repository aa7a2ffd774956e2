#!/usr/bin/env bash
# Builds the `etude` CLI the evaluations run and prints its path (the build's log goes to stderr).
#
# Release mode, in its own scratch path (.build-eval) so that it does not disturb a debug build.
# On Linux the Swift runtime and Foundation are linked statically (--static-swift-stdlib), as a
# Swift command-line tool is shipped there: the dynamic linker then resolves no symbols in
# Foundation's libraries at start-up. The evaluations charge every tool its process's CPU time,
# start-up included; on this project's 2-core VM (stop 40) the flag took `etude pitch`'s start-up
# on a 0.1 s file from 14.2 to 8.4 ms and its run on Evaluation/pitch's 30 s file from 120 to
# 113 ms (best of 30 and of 25 runs, interleaved). Apple platforms ship the runtime in the OS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATIC=()
[ "$(uname -s)" = Linux ] && STATIC=(--static-swift-stdlib)
(cd "$ROOT" && swift build -c release --product etude --scratch-path .build-eval "${STATIC[@]}") >&2
echo "$ROOT/.build-eval/release/etude"
