import Foundation

/// Operations on test signals (`[Float]`): mixing, clipping, corruption, envelopes, and the
/// measurements tests assert on (RMS, peak, dBFS, single-frequency amplitude, SNR).
///
/// All functions are pure; measurements are computed in `Double`.
public enum Signal {
  // MARK: - Combining and shaping

  /// The sample-wise sum of two signals; the shorter one is treated as zero-padded.
  ///
  /// - Parameters:
  ///   - a: A signal.
  ///   - b: Another signal.
  /// - Returns: A signal as long as the longer input.
  public static func added(_ a: [Float], _ b: [Float]) -> [Float] {
    var out = a.count >= b.count ? a : b
    let other = a.count >= b.count ? b : a
    for i in other.indices { out[i] += other[i] }
    return out
  }

  /// The signal multiplied by a constant gain.
  ///
  /// - Parameters:
  ///   - signal: The samples.
  ///   - gain: A linear gain.
  public static func scaled(_ signal: [Float], by gain: Double) -> [Float] {
    signal.map { Float(Double($0) * gain) }
  }

  /// Adds noise to a signal, scaled so the result has the requested signal-to-noise ratio.
  ///
  /// The noise is scaled so that `20·log₁₀(rms(signal) / rms(scaled noise)) = snrDB` over the
  /// length of `signal` (only the first `signal.count` noise samples are used).
  ///
  /// - Parameters:
  ///   - signal: The clean signal; not silent.
  ///   - noise: At least `signal.count` samples of noise (any level); not silent.
  ///   - snrDB: The target SNR in dB (may be negative).
  /// - Returns: `signal + g · noise`.
  public static func mixed(_ signal: [Float], noise: [Float], snrDB: Double) -> [Float] {
    precondition(noise.count >= signal.count, "the noise is shorter than the signal")
    let used = Array(noise.prefix(signal.count))
    let signalRMS = rms(signal)
    let noiseRMS = rms(used)
    precondition(signalRMS > 0 && noiseRMS > 0, "mixing at an SNR needs non-silent inputs")
    let gain = signalRMS / (noiseRMS * pow(10, snrDB / 20))
    return zip(signal, used).map { Float(Double($0) + gain * Double($1)) }
  }

  /// Hard-clips every sample to `-level ... level`.
  ///
  /// - Parameters:
  ///   - signal: The samples.
  ///   - level: The clip level, > 0 (e.g. 0.5 clips a full-scale sine at half scale).
  public static func hardClipped(_ signal: [Float], level: Float) -> [Float] {
    precondition(level > 0, "clip level must be positive")
    return signal.map { min(max($0, -level), level) }
  }

  /// Replaces the samples at `indices` with `value` (NaN, ±∞, or any other value).
  ///
  /// - Parameters:
  ///   - value: The value to inject, e.g. `.nan` or `.infinity`.
  ///   - indices: Frame indices within the signal.
  ///   - signal: The samples.
  /// - Returns: The corrupted copy.
  public static func injecting(_ value: Float, at indices: [Int], into signal: [Float]) -> [Float] {
    var out = signal
    for i in indices { out[i] = value }
    return out
  }

  /// Replaces the samples in `range` with `value`: a burst of corruption.
  ///
  /// - Parameters:
  ///   - value: The value to inject, e.g. `.nan`.
  ///   - range: A range of frame indices within the signal.
  ///   - signal: The samples.
  public static func injecting(_ value: Float, in range: Range<Int>, into signal: [Float])
    -> [Float]
  {
    injecting(value, at: Array(range), into: signal)
  }

  /// Multiplies a signal by an ``ADSREnvelope``.
  ///
  /// - Parameters:
  ///   - signal: The samples (the note lasts the whole signal).
  ///   - envelope: The envelope.
  ///   - sampleRate: Frames per second, in Hz.
  public static func enveloped(
    _ signal: [Float], by envelope: ADSREnvelope, sampleRate: Double
  ) -> [Float] {
    let gains = envelope.gains(frameCount: signal.count, sampleRate: sampleRate)
    return zip(signal, gains).map { $0 * $1 }
  }

  /// The signals one after another.
  ///
  /// - Parameter parts: The signals in order.
  public static func concatenated(_ parts: [[Float]]) -> [Float] {
    Array(parts.joined())
  }

  /// The signal delayed by `frames` zeros at the start (same length + `frames`).
  ///
  /// - Parameters:
  ///   - signal: The samples.
  ///   - frames: The delay in frames, ≥ 0.
  public static func delayed(_ signal: [Float], by frames: Int) -> [Float] {
    [Float](repeating: 0, count: frames) + signal
  }

  // MARK: - Measurements

  /// The root-mean-square value; 0 for an empty signal.
  public static func rms(_ signal: some Collection<Float>) -> Double {
    guard !signal.isEmpty else { return 0 }
    let energy = signal.reduce(0.0) { $0 + Double($1) * Double($1) }
    return (energy / Double(signal.count)).squareRoot()
  }

  /// The largest absolute sample value; 0 for an empty signal. NaN samples are ignored.
  public static func peak(_ signal: some Collection<Float>) -> Double {
    signal.reduce(0.0) { max($0, Double(abs($1))) }
  }

  /// A linear amplitude in dB relative to full scale (1.0): `20·log₁₀(amplitude)`.
  ///
  /// - Parameter amplitude: A linear amplitude (≥ 0); 0 gives `-infinity`.
  public static func dBFS(_ amplitude: Double) -> Double {
    20 * log10(amplitude)
  }

  /// The level of a signal in dBFS RMS (a full-scale sine is −3.01 dBFS).
  public static func rmsDBFS(_ signal: some Collection<Float>) -> Double {
    dBFS(rms(signal))
  }

  /// The window applied by ``goertzelAmplitude(_:frequencyHz:sampleRate:window:)``.
  public enum MeasurementWindow: Sendable, Hashable {
    /// No window: exact for whole numbers of cycles, leaky otherwise (side lobes −13 dB).
    case rectangular
    /// Hann: side lobes −31 dB, main lobe ±2 bins.
    case hann
    /// Four-term Blackman–Harris: side lobes −92 dB, main lobe ±4 bins. The default.
    case blackmanHarris

    func value(_ n: Int, _ count: Int) -> Double {
      guard count > 1 else { return 1 }
      let x = 2 * Double.pi * Double(n) / Double(count - 1)
      switch self {
      case .rectangular: return 1
      case .hann: return 0.5 - 0.5 * cos(x)
      case .blackmanHarris:
        return 0.35875 - 0.48829 * cos(x) + 0.14128 * cos(2 * x) - 0.01168 * cos(3 * x)
      }
    }
  }

  /// The amplitude of the sinusoidal component at one frequency: a windowed single-bin DFT
  /// evaluated with the Goertzel recursion (any frequency, not only bin centres).
  ///
  /// Normalized so that a sine of peak amplitude `A` at exactly `frequencyHz` measures `A`
  /// (to within the window's leakage from other components). With the default Blackman–Harris
  /// window, components more than `4 · sampleRate / count` Hz away leak in below −92 dB; use
  /// at least a few hundred frames so the main lobe is narrow.
  ///
  /// - Parameters:
  ///   - signal: The samples.
  ///   - frequencyHz: The frequency to measure, in Hz (0 ..< sampleRate / 2).
  ///   - sampleRate: Frames per second, in Hz.
  ///   - window: The analysis window; Blackman–Harris by default.
  /// - Returns: The estimated peak amplitude (linear).
  /// - Complexity: O(n).
  public static func goertzelAmplitude(
    _ signal: [Float], frequencyHz: Double, sampleRate: Double,
    window: MeasurementWindow = .blackmanHarris
  ) -> Double {
    let weights = (0..<signal.count).map { window.value($0, signal.count) }
    return goertzel(signal, omega: 2 * Double.pi * frequencyHz / sampleRate, weights: weights)
  }

  /// The Goertzel recursion over `signal · weights` at `omega` radians per sample, normalized to
  /// a peak amplitude.
  static func goertzel(_ signal: [Float], omega: Double, weights: [Double]) -> Double {
    let coefficient = 2 * cos(omega)
    var s1 = 0.0
    var s2 = 0.0
    var weightSum = 0.0
    for n in signal.indices {
      weightSum += weights[n]
      let s0 = Double(signal[n]) * weights[n] + coefficient * s1 - s2
      s2 = s1
      s1 = s0
    }
    guard weightSum > 0 else { return 0 }
    let power = max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)
    return 2 * power.squareRoot() / weightSum
  }

  /// The frequency of the strongest sinusoid within `searchHz` of `nearHz`: a grid search over
  /// ``goertzelAmplitude(_:frequencyHz:sampleRate:window:)`` refined by golden-section search.
  ///
  /// - Parameters:
  ///   - signal: The samples (a few hundred frames or more).
  ///   - sampleRate: Frames per second, in Hz.
  ///   - nearHz: The centre of the search, in Hz.
  ///   - searchHz: The half-width of the search, in Hz.
  /// - Returns: The frequency in Hz, typically accurate to well under 0.01 bin for a clean sine.
  public static func estimatedFrequency(
    _ signal: [Float], sampleRate: Double, nearHz: Double, searchHz: Double
  ) -> Double {
    let weights = (0..<signal.count).map {
      MeasurementWindow.blackmanHarris.value($0, signal.count)
    }
    let amplitude = { (f: Double) in
      goertzel(signal, omega: 2 * Double.pi * f / sampleRate, weights: weights)
    }
    let step = sampleRate / Double(max(signal.count, 1)) / 2
    var best = nearHz
    var bestValue = amplitude(nearHz)
    var f = nearHz - searchHz
    while f <= nearHz + searchHz {
      let v = amplitude(f)
      if v > bestValue { (best, bestValue) = (f, v) }
      f += step
    }
    var (lo, hi) = (best - step, best + step)
    let ratio = (5.0.squareRoot() - 1) / 2
    var a = hi - ratio * (hi - lo)
    var b = lo + ratio * (hi - lo)
    var (valueA, valueB) = (amplitude(a), amplitude(b))
    for _ in 0..<40 {
      if valueA > valueB {
        (hi, b, valueB) = (b, a, valueA)
        a = hi - ratio * (hi - lo)
        valueA = amplitude(a)
      } else {
        (lo, a, valueA) = (a, b, valueB)
        b = lo + ratio * (hi - lo)
        valueB = amplitude(b)
      }
    }
    return (lo + hi) / 2
  }

  /// The signal-to-noise ratio of `signal` against a clean `reference`:
  /// `10·log₁₀(Σ reference² / Σ (signal − reference)²)`, over the common length.
  ///
  /// - Parameters:
  ///   - signal: The processed or noisy signal.
  ///   - reference: The clean signal it should equal.
  /// - Returns: The SNR in dB; `+infinity` when they are identical.
  public static func snrDB(_ signal: [Float], reference: [Float]) -> Double {
    var signalEnergy = 0.0
    var errorEnergy = 0.0
    for (x, r) in zip(signal, reference) {
      signalEnergy += Double(r) * Double(r)
      let e = Double(x) - Double(r)
      errorEnergy += e * e
    }
    return 10 * log10(signalEnergy / errorEnergy)
  }
}
