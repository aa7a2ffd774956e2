// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Etude",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ScoreModel", targets: ["ScoreModel"]),
    .library(name: "PitchDSP", targets: ["PitchDSP"]),
    .library(name: "MIDIJSON", targets: ["MIDIJSON"]),
    .library(name: "ChordGuessing", targets: ["ChordGuessing"]),
    .library(name: "PerformanceTracking", targets: ["PerformanceTracking"]),
    .library(name: "PerformanceAnalysis", targets: ["PerformanceAnalysis"]),
    .library(name: "IssueRanking", targets: ["IssueRanking"]),
    .library(name: "Synthesis", targets: ["Synthesis"]),
    .library(name: "Harmonizer", targets: ["Harmonizer"]),
    .executable(name: "etude", targets: ["etude"]),
  ],
  traits: [
    .trait(
      name: "KissFFT",
      description: "Adds the KissFFT FFT backend (needs libkissfft-dev / pkg-config kissfft-float)."
    )
  ],
  dependencies: [
    // The command-line tool only; no library target depends on it.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // Music theory: pitches, spelled notes, intervals, keys, scales, chords, transposition.
    .target(name: "ScoreModel"),

    // Audio core: buffers, WAV, raw PCM, resampling, windows, FFT.
    .target(
      name: "PitchDSP",
      dependencies: [
        .target(name: "CKissFFT", condition: .when(traits: ["KissFFT"]))
      ]
    ),

    // Standard MIDI Files, MIDI JSON (compact and full), tempo maps.
    .target(name: "MIDIJSON", dependencies: ["ScoreModel"]),

    // Chord recognition: chromagrams, tuning, approximate transcription, chord decisions, smoothing.
    .target(name: "ChordGuessing", dependencies: ["ScoreModel", "PitchDSP"]),

    // A student's take against a score: notes, sounds, segmentation, linking, score following.
    .target(name: "PerformanceTracking", dependencies: ["ScoreModel", "PitchDSP"]),

    // Grading linked notes: tolerances, frequency and partial tables, analyzers, scores.
    .target(name: "PerformanceAnalysis", dependencies: ["PerformanceTracking", "PitchDSP"]),

    // Issues worst first, help videos, score navigation.
    .target(name: "IssueRanking", dependencies: ["PerformanceAnalysis"]),

    // Sound out: oscillators, voices, the plucked guitar, tab notation, SoundFont 2, renderers.
    .target(name: "Synthesis", dependencies: ["ScoreModel", "MIDIJSON", "PitchDSP"]),

    // A live voice into a chord: pitch shifters, harmonizer voices, auto-tune, effects rack, presets.
    .target(name: "Harmonizer", dependencies: ["ScoreModel", "PitchDSP"]),

    // The optional KissFFT backend (Debian: libkissfft-dev).
    .systemLibrary(
      name: "CKissFFT",
      pkgConfig: "kissfft-float",
      providers: [.apt(["libkissfft-dev"]), .brew(["kissfft"])]
    ),

    // Deterministic test signals, shared by tests and benchmarks.
    .target(name: "_TestSupport", dependencies: ["PitchDSP"]),

    .executableTarget(
      name: "etude",
      dependencies: [
        "ScoreModel",
        "PitchDSP",
        "MIDIJSON",
        "ChordGuessing",
        "PerformanceTracking",
        "PerformanceAnalysis",
        "IssueRanking",
        "Synthesis",
        "Harmonizer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    .testTarget(name: "ScoreModelTests", dependencies: ["ScoreModel"], resources: [.copy("Fixtures")]),
    .testTarget(
      name: "MIDIJSONTests", dependencies: ["MIDIJSON"], resources: [.copy("Fixtures")]),
    .testTarget(name: "EtudeCLITests", dependencies: ["etude", "PitchDSP", "MIDIJSON", "_TestSupport"]),
    .testTarget(name: "ChordGuessingTests", dependencies: ["ChordGuessing", "_TestSupport"]),
    .testTarget(
      name: "PitchDSPTests",
      dependencies: ["PitchDSP", "_TestSupport"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "PerformanceTrackingTests", dependencies: ["PerformanceTracking", "ScoreModel", "_TestSupport"]),
    .testTarget(
      name: "PerformanceAnalysisTests",
      dependencies: ["PerformanceAnalysis", "PerformanceTracking", "ScoreModel"]),
    .testTarget(
      name: "IssueRankingTests", dependencies: ["IssueRanking", "PerformanceAnalysis", "PerformanceTracking"]),
    .testTarget(name: "SynthesisTests", dependencies: ["Synthesis", "PitchDSP", "MIDIJSON", "ScoreModel", "_TestSupport"]),
    .testTarget(name: "HarmonizerTests", dependencies: ["Harmonizer", "PitchDSP", "ScoreModel", "_TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
