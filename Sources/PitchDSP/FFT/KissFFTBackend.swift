#if KissFFT
  import CKissFFT
  import Foundation

  /// The FFT of the kiss_fft C library (Debian `libkissfft-dev`), behind the package trait `KissFFT`.
  ///
  /// Follows the ``FFTBackend`` conventions: split complex data, an unscaled forward transform and
  /// an inverse scaled by `1/N`. Data is converted to kiss_fft's interleaved layout in buffers
  /// allocated in `init`, and every call is out of place, so kiss_fft never allocates a temporary.
  ///
  /// Enable it with `swift build --traits KissFFT` after `apt-get install libkissfft-dev`.
  public final class KissFFTBackend: FFTBackend {
    /// The backend's name in reports: `"kissfft"`.
    public static let name = "kissfft"

    /// The number of points, `N`.
    public let size: Int

    private let forwardConfig: kiss_fft_cfg
    private let inverseConfig: kiss_fft_cfg
    private let forwardRealConfig: kiss_fftr_cfg
    private let inverseRealConfig: kiss_fftr_cfg
    /// Interleaved scratch of `size` complex values, in and out.
    private let input: UnsafeMutablePointer<kiss_fft_cpx>
    private let output: UnsafeMutablePointer<kiss_fft_cpx>
    /// Scratch for real transforms: `size` samples.
    private let samples: UnsafeMutablePointer<Float>

    /// Creates a transform of `size` points.
    ///
    /// - Parameter size: A power of two from 2 to 65536·256.
    /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` otherwise, or when
    ///   kiss_fft cannot allocate its state.
    public init(size: Int) throws(PitchDSPError) {
      try Self.validateSize(size, in: 2...(1 << 24))
      guard let f = kiss_fft_alloc(Int32(size), 0, nil, nil),
        let i = kiss_fft_alloc(Int32(size), 1, nil, nil),
        let fr = kiss_fftr_alloc(Int32(size), 0, nil, nil),
        let ir = kiss_fftr_alloc(Int32(size), 1, nil, nil)
      else {
        throw .invalidParameter(
          name: "FFT size", value: String(size), expected: "a size kiss_fft can allocate")
      }
      self.size = size
      forwardConfig = f
      inverseConfig = i
      forwardRealConfig = fr
      inverseRealConfig = ir
      input = .allocate(capacity: size)
      input.initialize(repeating: kiss_fft_cpx(r: 0, i: 0), count: size)
      output = .allocate(capacity: size)
      output.initialize(repeating: kiss_fft_cpx(r: 0, i: 0), count: size)
      samples = .allocate(capacity: size)
      samples.initialize(repeating: 0, count: size)
    }

    deinit {
      free(UnsafeMutableRawPointer(forwardConfig))
      free(UnsafeMutableRawPointer(inverseConfig))
      free(UnsafeMutableRawPointer(forwardRealConfig))
      free(UnsafeMutableRawPointer(inverseRealConfig))
      input.deallocate()
      output.deallocate()
      samples.deallocate()
    }

    /// Transforms `N` complex values in place, forward (unscaled).
    /// - Note: Real-time safe.
    @_noLocks
    public func forward(
      real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>
    ) {
      transform(config: forwardConfig, real: real, imaginary: imaginary, scale: 1)
    }

    /// Transforms `N` complex values in place, inverse (scaled by `1/N`).
    /// - Note: Real-time safe.
    @_noLocks
    public func inverse(
      real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>
    ) {
      transform(config: inverseConfig, real: real, imaginary: imaginary, scale: 1 / Float(size))
    }

    @_noLocks
    private func transform(
      config: kiss_fft_cfg, real: UnsafeMutableBufferPointer<Float>,
      imaginary: UnsafeMutableBufferPointer<Float>, scale: Float
    ) {
      // Precondition, a programmer error: buffers hold size values (no message: building one would allocate).
      guard real.count == size, imaginary.count == size else { fatalError() }
      for k in 0..<size { input[k] = kiss_fft_cpx(r: real[k], i: imaginary[k]) }
      // RT-audited: kiss_fft with distinct input and output buffers does not allocate.
      let fin = input, fout = output
      _unsafePerformance { kiss_fft(config, fin, fout) }
      for k in 0..<size {
        real[k] = output[k].r * scale
        imaginary[k] = output[k].i * scale
      }
    }

    /// Transforms `N` real samples to the `N/2 + 1` bins of their spectrum (unscaled).
    /// - Note: Real-time safe.
    @_noLocks
    public func forwardReal(
      _ input: UnsafeBufferPointer<Float>,
      real: UnsafeMutableBufferPointer<Float>,
      imaginary: UnsafeMutableBufferPointer<Float>
    ) {
      let half = size / 2
      // Precondition, a programmer error: input holds size samples (no message: building one would allocate).
      guard input.count == size else { fatalError() }
      // Precondition, a programmer error: outputs need size/2 + 1 bins (no message: building one would allocate).
      guard real.count >= half + 1, imaginary.count >= half + 1 else { fatalError() }
      guard let x = input.baseAddress else { return }
      // RT-audited: kiss_fftr uses the scratch allocated with its state.
      let config = forwardRealConfig, fout = output
      _unsafePerformance { kiss_fftr(config, x, fout) }
      for k in 0...half {
        real[k] = output[k].r
        imaginary[k] = output[k].i
      }
    }

    /// Transforms the `N/2 + 1` bins of a real signal's spectrum back to `N` samples (scaled by `1/N`).
    /// - Note: Real-time safe.
    @_noLocks
    public func inverseReal(
      real: UnsafeBufferPointer<Float>,
      imaginary: UnsafeBufferPointer<Float>,
      output: UnsafeMutableBufferPointer<Float>
    ) {
      let half = size / 2
      // Precondition, a programmer error: inputs need size/2 + 1 bins (no message: building one would allocate).
      guard real.count >= half + 1, imaginary.count >= half + 1 else { fatalError() }
      // Precondition, a programmer error: output holds size samples (no message: building one would allocate).
      guard output.count == size else { fatalError() }
      for k in 0...half { input[k] = kiss_fft_cpx(r: real[k], i: imaginary[k]) }
      input[0].i = 0
      input[half].i = 0
      // RT-audited: kiss_fftri uses the scratch allocated with its state.
      let config = inverseRealConfig, fin = input, fout = samples
      _unsafePerformance { kiss_fftri(config, fin, fout) }
      let scale = 1 / Float(size)
      for k in 0..<size { output[k] = samples[k] * scale }
    }
  }
#endif
