#!/usr/bin/env bash
# Builds a libFuzzer target with AddressSanitizer and runs it.
#   Fuzz/run.sh wav [seconds]      fuzz the WAV parser (default 60 s)
#   Fuzz/run.sh midi [seconds]     fuzz the Standard MIDI File reader and writer
# Crashing inputs land in fuzz-out/<target>/ (git-ignored); turn each into a regression test
# under Tests/PitchDSPTests/Fixtures/fuzz/ (see Tests/PitchDSPTests/IO/WAVFuzzRegressionTests.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-wav}"
seconds="${2:-60}"
out="fuzz-out/$target"
mkdir -p "$out/corpus" "$out/crashes"
case "$target" in
  wav)
    sources=(Sources/PitchDSP/IO/*.swift Sources/PitchDSP/PitchDSPError.swift Sources/PitchDSP/Audio/*.swift Fuzz/WAVFuzz/WAVFuzz.swift)
    cp Tests/PitchDSPTests/Fixtures/*.wav "$out/corpus/" 2>/dev/null || true
    cp Tests/PitchDSPTests/Fixtures/fuzz/*.wav "$out/corpus/" 2>/dev/null || true
    ;;
  midi)
    # FullMIDIJSON imports ScoreModel, a separate module; the reader, writer, tempo map and note
    # pairing are fuzzed here.
    sources=($(ls Sources/MIDIJSON/*.swift | grep -v FullMIDIJSON.swift) Fuzz/MIDIFuzz/MIDIFuzz.swift)
    cp Tests/MIDIJSONTests/Fixtures/*.mid "$out/corpus/" 2>/dev/null || true
    cp Tests/MIDIJSONTests/Fixtures/fuzz/*.mid "$out/corpus/" 2>/dev/null || true
    ;;
  *) echo "unknown fuzz target: $target (known: wav, midi)" >&2; exit 2 ;;
esac
module=$([ "$target" = midi ] && echo MIDIJSON || echo PitchDSP)
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$module" "${sources[@]}" -o "$out/fuzzer"
"$out/fuzzer" "$out/corpus" -max_total_time="$seconds" -artifact_prefix="$out/crashes/" -max_len=65536 -print_final_stats=1
