import Foundation
import PitchDSP

/// Deterministic test signals at one sample rate.
///
/// Every generator is a pure function of its arguments (noise takes an explicit seed), computed in
/// `Double` and returned as `[Float]`; wrap a result with ``buffer(_:)`` for an `AudioBuffer`.
/// Time starts at 0 at the first frame. Frequencies are in Hz, amplitudes are linear peak values
/// (1 = full scale), phases in radians.
///
/// ```swift
/// let g = SignalGenerator(sampleRate: 48_000)
/// let a4 = g.sine(frequencyHz: 440, amplitude: 0.5, length: .seconds(0.25))
/// let noisy = Signal.mixed(a4, noise: g.whiteNoise(length: .frames(a4.count), seed: 7), snrDB: 20)
/// ```
public struct SignalGenerator: Sendable, Hashable {
  /// Frames per second, in Hz.
  public var sampleRate: Double

  /// Creates a generator.
  ///
  /// - Parameter sampleRate: Frames per second, in Hz; positive.
  public init(sampleRate: Double) {
    precondition(sampleRate > 0, "sample rate must be positive")
    self.sampleRate = sampleRate
  }

  /// Wraps mono samples in an `AudioBuffer` at this generator's rate.
  ///
  /// - Parameter samples: The samples.
  /// - Returns: A mono buffer.
  public func buffer(_ samples: [Float]) -> AudioBuffer {
    AudioBuffer(sampleRate: sampleRate, mono: samples)
  }

  /// The number of frames of `length` at this rate.
  public func frameCount(_ length: SignalLength) -> Int {
    length.frameCount(sampleRate: sampleRate)
  }

  // MARK: - Tones

  /// A sine `amplitude · sin(2π · frequencyHz · t + phase)`.
  ///
  /// - Parameters:
  ///   - frequencyHz: The frequency in Hz.
  ///   - amplitude: The peak value; 1 by default.
  ///   - phase: The phase at `t = 0`, radians; 0 by default (the signal starts at 0).
  ///   - length: Duration or frame count.
  /// - Returns: The samples.
  public func sine(
    frequencyHz: Double, amplitude: Double = 1, phase: Double = 0, length: SignalLength
  ) -> [Float] {
    let omega = 2 * Double.pi * frequencyHz / sampleRate
    return (0..<frameCount(length)).map { n in Float(amplitude * sin(omega * Double(n) + phase)) }
  }

  /// A cosine `amplitude · cos(2π · frequencyHz · t)`; starts at its peak.
  ///
  /// - Parameters:
  ///   - frequencyHz: The frequency in Hz.
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  public func cosine(frequencyHz: Double, amplitude: Double = 1, length: SignalLength) -> [Float] {
    sine(frequencyHz: frequencyHz, amplitude: amplitude, phase: Double.pi / 2, length: length)
  }

  /// A harmonic (or stiff-string, slightly inharmonic) tone: a sum of sine partials.
  ///
  /// Partial `k` (1-based: `partialAmplitudes[0]` is the fundamental) has frequency
  /// `k · fundamentalHz · √(1 + inharmonicity · k²)` (the piano-string model; 0 = harmonic) and
  /// peak amplitude `partialAmplitudes[k − 1]`. Partials at or above Nyquist are left out. The
  /// sum is not normalized: its peak can exceed the largest partial amplitude.
  ///
  /// - Parameters:
  ///   - fundamentalHz: The fundamental frequency in Hz (present or not).
  ///   - partialAmplitudes: Peak amplitudes of partials 1, 2, 3, …; `[0, 1, 0.8, 0.5]` is a
  ///     missing-fundamental tone.
  ///   - inharmonicity: The coefficient `B` (≥ 0; pianos ≈ 1e-4 … 1e-3); 0 by default.
  ///   - length: Duration or frame count.
  /// - Returns: The samples.
  public func harmonicTone(
    fundamentalHz: Double, partialAmplitudes: [Double], inharmonicity: Double = 0,
    length: SignalLength
  ) -> [Float] {
    let count = frameCount(length)
    var sum = [Double](repeating: 0, count: count)
    for (index, amplitude) in partialAmplitudes.enumerated() where amplitude != 0 {
      let k = Double(index + 1)
      let frequency = k * fundamentalHz * (1 + inharmonicity * k * k).squareRoot()
      guard frequency < sampleRate / 2 else { continue }
      let omega = 2 * Double.pi * frequency / sampleRate
      for n in 0..<count { sum[n] += amplitude * sin(omega * Double(n)) }
    }
    return sum.map { Float($0) }
  }

  /// A tone whose instantaneous frequency follows `frequencyHz(t)`, phase-continuous.
  ///
  /// The phase is integrated per sample at the midpoint of each sample period, in `Double`.
  ///
  /// - Parameters:
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  ///   - frequencyHz: The instantaneous frequency in Hz at time `t` seconds.
  /// - Returns: The samples; the first is 0.
  public func tone(
    amplitude: Double = 1, length: SignalLength, frequencyHz: (Double) -> Double
  ) -> [Float] {
    let count = frameCount(length)
    var out = [Float](repeating: 0, count: count)
    var phase = 0.0
    for n in 0..<count {
      out[n] = Float(amplitude * sin(phase))
      phase += 2 * Double.pi * frequencyHz((Double(n) + 0.5) / sampleRate) / sampleRate
      if phase > 2 * Double.pi { phase -= 2 * Double.pi }
    }
    return out
  }

  /// A linear chirp from `fromHz` at the first frame to `toHz` at the end, phase-continuous.
  ///
  /// - Parameters:
  ///   - fromHz: The start frequency in Hz.
  ///   - toHz: The end frequency in Hz (reached at `t = duration`).
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  /// - Returns: The samples (closed-form phase `2π(f₀t + (f₁ − f₀)t²/2T)`).
  public func linearChirp(
    fromHz: Double, toHz: Double, amplitude: Double = 1, length: SignalLength
  ) -> [Float] {
    let count = frameCount(length)
    let duration = Double(max(count, 1)) / sampleRate
    let slope = (toHz - fromHz) / duration
    return (0..<count).map { n in
      let t = Double(n) / sampleRate
      return Float(amplitude * sin(2 * Double.pi * (fromHz * t + 0.5 * slope * t * t)))
    }
  }

  /// An exponential (log-frequency) chirp from `fromHz` to `toHz`, phase-continuous: equal
  /// time per octave.
  ///
  /// - Parameters:
  ///   - fromHz: The start frequency in Hz, > 0.
  ///   - toHz: The end frequency in Hz, > 0 (reached at `t = duration`).
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  /// - Returns: The samples.
  public func exponentialChirp(
    fromHz: Double, toHz: Double, amplitude: Double = 1, length: SignalLength
  ) -> [Float] {
    precondition(fromHz > 0 && toHz > 0, "exponential chirp frequencies must be positive")
    let count = frameCount(length)
    let duration = Double(max(count, 1)) / sampleRate
    let growth = log(toHz / fromHz) / duration  // per second
    guard abs(growth) > 1e-12 else {
      return sine(frequencyHz: fromHz, amplitude: amplitude, length: length)
    }
    return (0..<count).map { n in
      let t = Double(n) / sampleRate
      return Float(amplitude * sin(2 * Double.pi * fromHz * (exp(growth * t) - 1) / growth))
    }
  }

  /// A tone with sinusoidal vibrato: `centerHz · 2^(depthCents/1200 · sin(2π · rateHz · t))`.
  ///
  /// - Parameters:
  ///   - centerHz: The centre frequency in Hz.
  ///   - rateHz: Vibrato rate in Hz (5–7 Hz is typical).
  ///   - depthCents: Peak deviation in cents (±; 20–50 is typical).
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  /// - Returns: The samples.
  public func vibrato(
    centerHz: Double, rateHz: Double, depthCents: Double, amplitude: Double = 1,
    length: SignalLength
  ) -> [Float] {
    tone(amplitude: amplitude, length: length) { t in
      centerHz * pow(2, depthCents / 1200 * sin(2 * Double.pi * rateHz * t))
    }
  }

  /// A held tone that glides (linearly in cents) from one frequency to another: `fromHz` until
  /// `startSeconds`, a glide lasting `glideSeconds`, then `toHz`.
  ///
  /// - Parameters:
  ///   - fromHz: The first frequency in Hz, > 0.
  ///   - toHz: The second frequency in Hz, > 0.
  ///   - startSeconds: When the glide starts, seconds.
  ///   - glideSeconds: How long it lasts, seconds (0 = a jump, still phase-continuous).
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  /// - Returns: The samples.
  public func glide(
    fromHz: Double, toHz: Double, startSeconds: Double, glideSeconds: Double,
    amplitude: Double = 1, length: SignalLength
  ) -> [Float] {
    tone(amplitude: amplitude, length: length) { t in
      if t <= startSeconds { return fromHz }
      if t >= startSeconds + glideSeconds { return toHz }
      let progress = (t - startSeconds) / glideSeconds
      return fromHz * pow(toHz / fromHz, progress)
    }
  }

  /// A single impulse of `amplitude` at frame `index` in silence.
  ///
  /// - Parameters:
  ///   - index: The frame of the impulse, in `0..<count`.
  ///   - amplitude: Its value; 1 by default.
  ///   - length: Duration or frame count.
  public func impulse(at index: Int, amplitude: Float = 1, length: SignalLength) -> [Float] {
    var out = silence(length: length)
    out[index] = amplitude
    return out
  }

  /// Digital silence (all zeros).
  ///
  /// - Parameter length: Duration or frame count.
  public func silence(length: SignalLength) -> [Float] {
    [Float](repeating: 0, count: frameCount(length))
  }

  // MARK: - Noise

  /// White noise, uniformly distributed in `-amplitude ..< amplitude` (RMS `amplitude / √3`).
  ///
  /// - Parameters:
  ///   - amplitude: The peak value; 1 by default.
  ///   - length: Duration or frame count.
  ///   - seed: The ``SeededRandom`` seed; the same seed gives the same noise.
  public func whiteNoise(amplitude: Double = 1, length: SignalLength, seed: UInt64) -> [Float] {
    var random = SeededRandom(seed: seed)
    let a = Float(amplitude)
    return (0..<frameCount(length)).map { _ in a * random.nextUniform() }
  }

  /// White Gaussian noise with mean 0.
  ///
  /// - Parameters:
  ///   - standardDeviation: The standard deviation (= RMS); 1 by default. Values are not clipped.
  ///   - length: Duration or frame count.
  ///   - seed: The ``SeededRandom`` seed.
  public func gaussianNoise(
    standardDeviation: Double = 1, length: SignalLength, seed: UInt64
  ) -> [Float] {
    var random = SeededRandom(seed: seed)
    return (0..<frameCount(length)).map { _ in Float(standardDeviation * random.nextGaussian()) }
  }

  /// Pink (1/f, −3 dB per octave) noise scaled to an exact RMS.
  ///
  /// Uniform white noise through Paul Kellet's economy three-pole filter (within ±0.5 dB of
  /// 1/f from about 0.001 × to 0.2 × the sample rate), then scaled so the whole signal has the
  /// requested RMS.
  ///
  /// - Parameters:
  ///   - rms: The RMS of the result; 0.1 by default.
  ///   - length: Duration or frame count.
  ///   - seed: The ``SeededRandom`` seed.
  public func pinkNoise(rms: Double = 0.1, length: SignalLength, seed: UInt64) -> [Float] {
    var random = SeededRandom(seed: seed)
    var (b0, b1, b2) = (0.0, 0.0, 0.0)
    let raw = (0..<frameCount(length)).map { _ -> Double in
      let white = 2 * random.nextUnitDouble() - 1
      b0 = 0.99765 * b0 + white * 0.0990460
      b1 = 0.96300 * b1 + white * 0.2965164
      b2 = 0.57000 * b2 + white * 1.0526913
      return b0 + b1 + b2 + white * 0.1848
    }
    let current = (raw.reduce(0) { $0 + $1 * $1 } / Double(max(raw.count, 1))).squareRoot()
    let gain = current > 0 ? rms / current : 0
    return raw.map { Float($0 * gain) }
  }
}
