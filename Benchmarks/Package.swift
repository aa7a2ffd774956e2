// swift-tools-version: 6.1
// Etude's benchmarks, in their own package so that library users never resolve the benchmark
// dependency. Run from this folder: `swift package benchmark` (see the root README).
import PackageDescription

let package = Package(
  name: "EtudeBenchmarks",
  platforms: [.macOS(.v15)],
  traits: [
    .default(enabledTraits: ["KissFFT"]),
    .trait(
      name: "KissFFT",
      description: "Benchmark the KissFFT backend beside the pure-Swift FFT (needs libkissfft-dev)."),
  ],
  dependencies: [
    .package(
      name: "Etude", path: "..",
      traits: [.trait(name: "KissFFT", condition: .when(traits: ["KissFFT"]))]),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .systemLibrary(
      name: "CKissFFTDirect", path: "Sources/CKissFFTDirect", pkgConfig: "kissfft-float",
      providers: [.apt(["libkissfft-dev"])]),
    .executableTarget(
      name: "PitchDSPBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "PitchDSP", package: "Etude"),
        .target(name: "CKissFFTDirect", condition: .when(traits: ["KissFFT"])),
      ],
      path: "Benchmarks/PitchDSPBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "ChordGuessingBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ChordGuessing", package: "Etude"),
      ],
      path: "Benchmarks/ChordGuessingBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "MIDIJSONBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "MIDIJSON", package: "Etude"),
      ],
      path: "Benchmarks/MIDIJSONBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "PerformanceTrackingBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "PerformanceTracking", package: "Etude"),
        .product(name: "ScoreModel", package: "Etude"),
      ],
      path: "Benchmarks/PerformanceTrackingBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "SynthesisBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Synthesis", package: "Etude"),
      ],
      path: "Benchmarks/SynthesisBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "HarmonizerBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Harmonizer", package: "Etude"),
      ],
      path: "Benchmarks/HarmonizerBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "ScoreModelBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ScoreModel", package: "Etude"),
      ],
      path: "Benchmarks/ScoreModelBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
