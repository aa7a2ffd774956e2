import Benchmark
import Foundation
import PitchDSP

/// WAV decoding throughput: 10 s of 44.1 kHz stereo decoded from memory in 4096-frame blocks.
/// (File reading, not the audio path: allocations here are expected.)
func wavBenchmarks() {
  for encoding in [SampleEncoding.signed16, .signed24, .float32] {
    Benchmark(
      "WAV decode 10 s stereo \(encoding.rawValue)",
      configuration: .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds,
        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 100)
    ) { benchmark in
      let frames = 441_000
      let channel = (0..<frames).map { Float(sin(Double($0) * 0.01) * 0.5) }
      let data = try WAVWriter.encode(
        AudioBuffer(sampleRate: 44_100, channels: [channel, channel]), encoding: encoding)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        let reader = try WAVReader(data: data)
        var total = 0
        while let block = try reader.read(maxFrames: 4096) { total += block.frameCount }
        blackHole(total)
      }
      benchmark.stopMeasurement()
    }
  }
}
