import Benchmark
import Foundation
import PitchDSP

#if KissFFT
  import CKissFFTDirect
#endif

/// Sizes timed for every FFT backend.
let fftBenchmarkSizes = [256, 512, 1024, 2048, 4096, 8192]

/// Scratch memory for one real transform of `size` points.
struct RealTransformBuffers {
  let input: UnsafeMutableBufferPointer<Float>
  let real: UnsafeMutableBufferPointer<Float>
  let imaginary: UnsafeMutableBufferPointer<Float>

  init(size: Int) {
    input = .allocate(capacity: size)
    for i in 0..<size { input[i] = Float((i * 7919) % 1000) / 500 - 1 }
    real = .allocate(capacity: size)
    real.initialize(repeating: 0)
    imaginary = .allocate(capacity: size)
    imaginary.initialize(repeating: 0)
  }
}

/// Registers real and complex forward transforms of `Backend` at every size.
func registerFFT<Backend: FFTBackend>(_ backend: Backend.Type) {
  for size in fftBenchmarkSizes {
    Benchmark(
      "FFT real forward \(Backend.name) \(size)",
      configuration: .init(thresholds: noAllocations)
    ) { benchmark in
      let fft = try Backend(size: size)
      let buffers = RealTransformBuffers(size: size)
      let half = size / 2 + 1
      let re = UnsafeMutableBufferPointer(rebasing: buffers.real[0..<half])
      let im = UnsafeMutableBufferPointer(rebasing: buffers.imaginary[0..<half])
      let input = UnsafeBufferPointer(buffers.input)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        fft.forwardReal(input, real: re, imaginary: im)
      }
      benchmark.stopMeasurement()
      blackHole(re[1])
    }
    Benchmark(
      "FFT complex forward \(Backend.name) \(size)",
      configuration: .init(thresholds: noAllocations)
    ) { benchmark in
      let fft = try Backend(size: size)
      let buffers = RealTransformBuffers(size: size)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        fft.forward(real: buffers.real, imaginary: buffers.imaginary)
      }
      benchmark.stopMeasurement()
      blackHole(buffers.real[1])
    }
  }
}

func fftBenchmarks() {
  registerFFT(SwiftFFTBackend.self)
  #if KissFFT
    registerFFT(KissFFTBackend.self)
    // kiss_fftr called directly on its own interleaved layout: the library's own speed,
    // without the conversion to Etude's split layout.
    for size in fftBenchmarkSizes {
      Benchmark(
        "FFT real forward kissfft-native \(size)",
        configuration: .init(thresholds: noAllocations)
      ) { benchmark in
        guard let config = kiss_fftr_alloc(Int32(size), 0, nil, nil) else { return }
        let input = UnsafeMutablePointer<Float>.allocate(capacity: size)
        for i in 0..<size { input[i] = Float((i * 7919) % 1000) / 500 - 1 }
        let output = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: size / 2 + 1)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
          kiss_fftr(config, input, output)
        }
        benchmark.stopMeasurement()
        blackHole(output[1].r)
        free(UnsafeMutableRawPointer(config))
        input.deallocate()
        output.deallocate()
      }
    }
  #endif
}
