extension SpectralFluxOnsetDetector {
  /// What a ``SpectralFluxOnsetDetector`` analyzes and how it picks peaks.
  ///
  /// The defaults follow Böck and Widmer (DAFx 2013) at 44.1 kHz — a 2048-point Hann window,
  /// 200 frames per second, 24 bands per octave from 30 Hz to 17 kHz, `log₁₀(1 + X)`, a maximum
  /// filter over 3 bands, the difference to the frame μ = 2 hops back, a threshold δ = 1.1 above
  /// the mean of the last 150 ms, onsets at least 30 ms apart — and scale the frame with the
  /// sample rate (the nearest power of two to 46 ms), so the bands and thresholds mean the same
  /// at every rate. Where the paper's offline peak picker looks 50 ms ahead, this one looks
  /// ``lookAheadSeconds`` ahead (15 ms by default), which bounds the latency.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The input sample rate, in Hz (8 kHz...384 kHz).
    public var sampleRate: Double
    /// The STFT frame (Hann window) in frames: a power of two, 256...16384.
    public var frameSize: Int
    /// Input frames between STFT frames (default 5 ms).
    public var hopSize: Int
    /// Filterbank bands per octave (default 24: quarter tones, what the maximum filter assumes).
    public var bandsPerOctave: Int
    /// The lowest band corner, in Hz (default 30).
    public var minimumFrequencyHz: Double
    /// The highest band corner, in Hz (default 17000; lowered to the Nyquist frequency).
    public var maximumFrequencyHz: Double
    /// λ in `log₁₀(1 + λ·X)`, where `X` is a band's magnitude on the scale of a 2048-point FFT
    /// (a full-scale sine peaks near 512) (default 1). Scaling the input by `g` is the same as
    /// scaling λ by `g`: `1 / peak` normalizes a file to full scale.
    public var logScale: Double
    /// The width of the maximum filter over bands (odd, default 3): a partial that moves by up
    /// to one band between frames — vibrato — does not count as new energy.
    public var maximumFilterBands: Int
    /// μ: the difference is taken to the frame this many hops back (default: the hops in a
    /// quarter frame, rounded, at least 1 — where the Hann window falls to half; 2 at 44.1 kHz).
    public var differenceFrames: Int
    /// δ: how far above the local mean a peak of the detection function must rise (default 1.1).
    public var threshold: Double
    /// The past a peak must be the maximum of, in seconds (default 0.01).
    public var peakWindowSeconds: Double
    /// The past whose mean the threshold is added to, in seconds (default 0.15).
    public var averageWindowSeconds: Double
    /// The future a peak must be the maximum of, in seconds (default 0.015, 3 hops): the peak
    /// picker's look-ahead, part of ``SpectralFluxOnsetDetector/latencySeconds``.
    public var lookAheadSeconds: Double
    /// The shortest time between two onsets, in seconds (default 0.03).
    public var minimumIntervalSeconds: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - sampleRate: The input sample rate, in Hz.
    ///   - frameSize: The STFT frame in frames; `nil` for the power of two nearest to
    ///     `2048 × sampleRate / 44100`.
    ///   - hopSeconds: The time between frames, in seconds (rounded to frames).
    ///   - bandsPerOctave: Filterbank bands per octave.
    ///   - minimumFrequencyHz: The lowest band corner, in Hz.
    ///   - maximumFrequencyHz: The highest band corner, in Hz.
    ///   - logScale: λ in `log₁₀(1 + λ·X)`.
    ///   - maximumFilterBands: The maximum filter's width in bands (odd).
    ///   - differenceFrames: μ, in hops; `nil` for a quarter frame.
    ///   - threshold: δ.
    ///   - peakWindowSeconds: The past a peak must dominate, in seconds.
    ///   - averageWindowSeconds: The past of the moving mean, in seconds.
    ///   - lookAheadSeconds: The future a peak must dominate, in seconds.
    ///   - minimumIntervalSeconds: The shortest time between onsets, in seconds.
    public init(
      sampleRate: Double, frameSize: Int? = nil, hopSeconds: Double = 0.005, bandsPerOctave: Int = 24,
      minimumFrequencyHz: Double = 30, maximumFrequencyHz: Double = 17000, logScale: Double = 1,
      maximumFilterBands: Int = 3, differenceFrames: Int? = nil, threshold: Double = 1.1,
      peakWindowSeconds: Double = 0.01, averageWindowSeconds: Double = 0.15, lookAheadSeconds: Double = 0.015,
      minimumIntervalSeconds: Double = 0.03
    ) {
      self.sampleRate = sampleRate
      let scaled = sampleRate.isFinite && sampleRate > 0 ? 2048 * sampleRate / 44100 : 2048
      var size = 256
      // The power of two nearest to `scaled` on a log scale: double while 2·size ≤ scaled·√2.
      while size < 16384, Double(size) * 2 <= scaled * 2.0.squareRoot() { size *= 2 }
      self.frameSize = frameSize ?? size
      let hop = hopSeconds * sampleRate
      self.hopSize = hop.isFinite && hop >= 1 && hop < 1e9 ? Int(hop + 0.5) : 0
      self.bandsPerOctave = bandsPerOctave
      self.minimumFrequencyHz = minimumFrequencyHz
      self.maximumFrequencyHz = maximumFrequencyHz
      self.logScale = logScale
      self.maximumFilterBands = maximumFilterBands
      self.differenceFrames =
        differenceFrames
        ?? (hopSize > 0 ? max(1, Int(Double(self.frameSize / 4) / Double(hopSize) + 0.5)) : 1)
      self.threshold = threshold
      self.peakWindowSeconds = peakWindowSeconds
      self.averageWindowSeconds = averageWindowSeconds
      self.lookAheadSeconds = lookAheadSeconds
      self.minimumIntervalSeconds = minimumIntervalSeconds
    }

    /// The time between frames, in seconds.
    public var hopSeconds: Double { Double(hopSize) / sampleRate }

    /// Checks that the values can be analyzed.
    ///
    /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming the first value
    ///   out of range.
    public func validate() throws(PitchDSPError) {
      guard sampleRate.isFinite, (8000...384_000).contains(sampleRate) else {
        throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "8000...384000 Hz")
      }
      guard (256...16384).contains(frameSize), frameSize & (frameSize - 1) == 0 else {
        throw .invalidParameter(
          name: "STFT frame size", value: "\(frameSize)", expected: "a power of two from 256 to 16384")
      }
      guard hopSize >= 1, hopSize <= frameSize else {
        throw .invalidParameter(
          name: "onset hop size", value: "\(hopSize) frames", expected: "1 frame...the frame size")
      }
      guard (1...96).contains(bandsPerOctave) else {
        throw .invalidParameter(name: "bands per octave", value: "\(bandsPerOctave)", expected: "1...96")
      }
      guard minimumFrequencyHz.isFinite, minimumFrequencyHz > 0,
        maximumFrequencyHz.isFinite, maximumFrequencyHz > minimumFrequencyHz * 2
      else {
        throw .invalidParameter(
          name: "filterbank range", value: "\(minimumFrequencyHz)...\(maximumFrequencyHz) Hz",
          expected: "a positive minimum and a maximum above twice the minimum")
      }
      guard LogFrequencyFilterbank(configuration: self).bandCount >= 3 else {
        throw .invalidParameter(
          name: "filterbank range", value: "\(minimumFrequencyHz)...\(maximumFrequencyHz) Hz",
          expected: "at least 3 bands below the Nyquist frequency at this frame size")
      }
      guard logScale.isFinite, logScale > 0 else {
        throw .invalidParameter(name: "log scale", value: "\(logScale)", expected: "more than 0")
      }
      guard maximumFilterBands >= 1, maximumFilterBands <= 15, maximumFilterBands % 2 == 1 else {
        throw .invalidParameter(
          name: "maximum filter width", value: "\(maximumFilterBands) bands", expected: "an odd number 1...15"
        )
      }
      guard (1...64).contains(differenceFrames) else {
        throw .invalidParameter(name: "difference frames", value: "\(differenceFrames)", expected: "1...64")
      }
      guard threshold.isFinite, threshold > 0 else {
        throw .invalidParameter(name: "flux threshold", value: "\(threshold)", expected: "more than 0")
      }
      guard peakWindowSeconds.isFinite, peakWindowSeconds >= 0, peakWindowSeconds <= 1 else {
        throw .invalidParameter(name: "peak window", value: "\(peakWindowSeconds) s", expected: "0...1 s")
      }
      guard averageWindowSeconds.isFinite, averageWindowSeconds >= 0, averageWindowSeconds <= 2 else {
        throw .invalidParameter(
          name: "average window", value: "\(averageWindowSeconds) s", expected: "0...2 s")
      }
      guard lookAheadSeconds.isFinite, lookAheadSeconds >= 0, lookAheadSeconds <= 1 else {
        throw .invalidParameter(name: "look-ahead", value: "\(lookAheadSeconds) s", expected: "0...1 s")
      }
      guard minimumIntervalSeconds.isFinite, minimumIntervalSeconds >= 0, minimumIntervalSeconds <= 10 else {
        throw .invalidParameter(
          name: "minimum onset interval", value: "\(minimumIntervalSeconds) s", expected: "0...10 s")
      }
    }

    /// Whole hops in `seconds`, rounded.
    func hops(_ seconds: Double) -> Int { Int(seconds / hopSeconds + 0.5) }
  }
}
