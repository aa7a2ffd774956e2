#!/usr/bin/env bash
# Builds a libFuzzer target with AddressSanitizer and runs it.
#   Fuzz/run.sh wav [seconds]      fuzz the WAV parser (default 60 s)
#   Fuzz/run.sh midi [seconds]     fuzz the Standard MIDI File reader and writer, and MIDI JSON
#   Fuzz/run.sh zip [seconds]      fuzz the ZIP reader and the DEFLATE decoder (ScoreModel)
#   Fuzz/run.sh musicxml [seconds] fuzz the XML reader and the MusicXML importer (ScoreModel)
#   Fuzz/run.sh grading [seconds]  fuzz the grading JSON: tolerances, partial tables, help videos
#   Fuzz/run.sh soundfont [seconds] fuzz the SoundFont 2 reader and player (Synthesis)
#   Fuzz/run.sh preset [seconds]   fuzz the preset JSON decoder (Harmonizer)
# Crashing inputs land in fuzz-out/<target>/crashes/ (git-ignored); turn each into a regression
# test under the module's Tests/<Module>Tests/Fixtures/fuzz/ (the WAV and MIDI suites replay them;
# for zip, Tests/ScoreModelTests/Fixtures/zip/fuzz/, replayed by ZipFuzzRegressionTests; for
# grading, a named test in the module's suite, the input inline; for soundfont, an inline byte
# array in SoundFontFuzzRegressions, Tests/SynthesisTests/SoundFontMalformedTests.swift; for
# preset, an inline case in PresetFuzzRegressionTests, Tests/HarmonizerTests/).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-wav}"
seconds="${2:-60}"
out="fuzz-out/$target"
mkdir -p "$out/corpus" "$out/crashes"
# -package-name: sources use `package` access across the package's modules.
flags=(-sanitize=fuzzer,address -parse-as-library -O -package-name Etude)
options=()

# Compiles a dependency module into an object file and a .swiftmodule under $out.
dependency() {
  local name="$1"
  shift
  swiftc "${flags[@]}" -I "$out" -wmo -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -c "$@" -o "$out/$name.o"
}

case "$target" in
  wav)
    module=PitchDSP
    sources=(Sources/PitchDSP/IO/*.swift Sources/PitchDSP/PitchDSPError.swift Sources/PitchDSP/Audio/*.swift Fuzz/WAVFuzz/WAVFuzz.swift)
    objects=()
    cp Tests/PitchDSPTests/Fixtures/*.wav "$out/corpus/" 2>/dev/null || true
    cp Tests/PitchDSPTests/Fixtures/fuzz/*.wav "$out/corpus/" 2>/dev/null || true
    ;;
  midi)
    module=MIDIJSON
    dependency ScoreModel $(find Sources/ScoreModel -name '*.swift' | sort)
    sources=(Sources/MIDIJSON/*.swift Fuzz/MIDIFuzz/MIDIFuzz.swift)
    objects=("$out/ScoreModel.o")
    cp Tests/MIDIJSONTests/Fixtures/*.mid Tests/MIDIJSONTests/Fixtures/*.json "$out/corpus/" 2>/dev/null || true
    cp Tests/MIDIJSONTests/Fixtures/fuzz/* "$out/corpus/" 2>/dev/null || true
    ;;
  zip)
    # The ZIP and DEFLATE sources need nothing else of ScoreModel but its error type.
    module=ScoreModel
    sources=(Sources/ScoreModel/Zip/*.swift Sources/ScoreModel/ScoreModelError.swift Fuzz/ZipFuzz/ZipFuzz.swift)
    objects=()
    options=(-dict=Fuzz/ZipFuzz/zip.dict)
    cp Tests/ScoreModelTests/Fixtures/zip/*.zip "$out/corpus/" 2>/dev/null || true
    cp Tests/ScoreModelTests/Fixtures/zip/fuzz/* "$out/corpus/" 2>/dev/null || true
    ;;
  musicxml)
    module=ScoreModel
    sources=($(find Sources/ScoreModel -name '*.swift' | sort) Fuzz/MusicXMLFuzz/MusicXMLFuzz.swift)
    objects=()
    cp Tests/ScoreModelTests/Fixtures/musicxml/*.xml Tests/ScoreModelTests/Fixtures/musicxml/*.musicxml \
      Tests/ScoreModelTests/Fixtures/musicxml/*.mxl "$out/corpus/" 2>/dev/null || true
    cp Tests/ScoreModelTests/Fixtures/musicxml/fuzz/* "$out/corpus/" 2>/dev/null || true
    ;;
  grading)
    # Built into IssueRanking; the modules it grades with are compiled beside it, leaves first.
    module=IssueRanking
    dependency ScoreModel $(find Sources/ScoreModel -name '*.swift' | sort)
    dependency PitchDSP $(find Sources/PitchDSP -name '*.swift' | sort)
    dependency PerformanceTracking Sources/PerformanceTracking/*.swift
    dependency PerformanceAnalysis Sources/PerformanceAnalysis/*.swift
    sources=(Sources/IssueRanking/*.swift Fuzz/GradingFuzz/GradingFuzz.swift)
    objects=("$out/ScoreModel.o" "$out/PitchDSP.o" "$out/PerformanceTracking.o" "$out/PerformanceAnalysis.o")
    options=(-dict=Fuzz/GradingFuzz/grading.dict)
    cp Fuzz/GradingFuzz/seeds/* "$out/corpus/"
    ;;
  soundfont)
    # The SoundFont sources need only Synthesis's seam (voice, instrument, error), and PitchDSP
    # (its copy-on-write memory) compiled beside them.
    module=Synthesis
    dependency PitchDSP $(find Sources/PitchDSP -name '*.swift' | sort)
    sources=(Sources/Synthesis/SoundFont/*.swift Sources/Synthesis/SynthVoice.swift Sources/Synthesis/Instrument.swift
      Sources/Synthesis/SynthesisError.swift Fuzz/SoundFontFuzz/SoundFontFuzz.swift)
    objects=("$out/PitchDSP.o")
    options=(-dict=Fuzz/SoundFontFuzz/soundfont.dict)
    python3 Fuzz/SoundFontFuzz/make_seeds.py "$out/corpus"
    ;;
  preset)
    # The whole Harmonizer module (presets build engines and racks), with ScoreModel (keys,
    # chords) and PitchDSP (WAV, resampling, pitch tracking) compiled beside it.
    module=Harmonizer
    dependency ScoreModel $(find Sources/ScoreModel -name '*.swift' | sort)
    dependency PitchDSP $(find Sources/PitchDSP -name '*.swift' | sort)
    sources=($(find Sources/Harmonizer -name '*.swift' | sort) Fuzz/PresetFuzz/PresetFuzz.swift)
    objects=("$out/ScoreModel.o" "$out/PitchDSP.o")
    options=(-dict=Fuzz/PresetFuzz/preset.dict)
    cp Fuzz/PresetFuzz/seeds/* "$out/corpus/"
    ;;
  *) echo "unknown fuzz target: $target (known: wav, midi, zip, musicxml, grading, soundfont, preset)" >&2; exit 2 ;;
esac
swiftc "${flags[@]}" -I "$out" -module-name "$module" "${sources[@]}" "${objects[@]}" -o "$out/fuzzer"
"$out/fuzzer" "$out/corpus" -max_total_time="$seconds" -artifact_prefix="$out/crashes/" -max_len=65536 -print_final_stats=1 \
  "${options[@]}"
