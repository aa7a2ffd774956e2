import Benchmark

/// The entry point of a stand-alone `EffectsBenchmarks` target (not needed when the effects
/// benchmarks move into `HarmonizerBenchmarks`).
let benchmarks: @Sendable () -> Void = {
  effectsBenchmarks()
}
