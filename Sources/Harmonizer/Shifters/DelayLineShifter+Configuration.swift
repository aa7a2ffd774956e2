extension DelayLineShifter {
  /// The delay-line shifter's parameters: the seed's "Window Size" and "Crossfade Length", and
  /// how fast a new shift is reached.
  ///
  /// The window trades latency for smoothness: a read tap sweeps a span of ``windowSeconds``,
  /// and the shifter's latency is half of it (plus 3 samples). Longer windows splice less often;
  /// windows under two periods of the lowest pitch splice less cleanly. The crossfade is how long
  /// two taps sound together at a splice.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The span the read taps sweep, in seconds (default 0.04 s: 1764 samples and 885 samples of
    /// latency at 44.1 kHz; 0.005...0.5 s).
    public var windowSeconds: Double
    /// How long two taps are crossfaded at a splice, in seconds (default 0.01 s; at most half
    /// the window). At large shifts the crossfade is shortened so that it fits in a quarter of
    /// the window.
    public var crossfadeSeconds: Double
    /// The time constant with which ``DelayLineShifter/semitones`` glides to a new value, in
    /// seconds (default 0.02 s; 0 jumps, which can click).
    public var glideSeconds: Double
    /// The largest shift accepted, in semitones either way (default 24; larger values clamp).
    public var maximumSemitones: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - windowSeconds: The span the read taps sweep, in seconds.
    ///   - crossfadeSeconds: The crossfade at a splice, in seconds.
    ///   - glideSeconds: The glide time constant for shift changes, in seconds.
    ///   - maximumSemitones: The largest shift either way, in semitones.
    public init(
      windowSeconds: Double = 0.04, crossfadeSeconds: Double = 0.01, glideSeconds: Double = 0.02,
      maximumSemitones: Double = 24
    ) {
      self.windowSeconds = windowSeconds
      self.crossfadeSeconds = crossfadeSeconds
      self.glideSeconds = glideSeconds
      self.maximumSemitones = maximumSemitones
    }

    /// Checks that the values can be used at `sampleRate`.
    ///
    /// - Parameter sampleRate: The sample rate, in Hz.
    /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` naming the first
    ///   value out of range.
    public func validate(sampleRate: Double) throws(HarmonizerError) {
      guard sampleRate.isFinite, (8000...384_000).contains(sampleRate) else {
        throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "8000...384000 Hz")
      }
      guard windowSeconds.isFinite, (0.005...0.5).contains(windowSeconds) else {
        throw .invalidParameter(name: "window", value: "\(windowSeconds) s", expected: "0.005...0.5 s")
      }
      guard crossfadeSeconds.isFinite, crossfadeSeconds > 0, crossfadeSeconds <= windowSeconds / 2 else {
        throw .invalidParameter(
          name: "crossfade", value: "\(crossfadeSeconds) s", expected: "above 0 and at most half the window")
      }
      guard glideSeconds.isFinite, (0...10).contains(glideSeconds) else {
        throw .invalidParameter(name: "glide", value: "\(glideSeconds) s", expected: "0...10 s")
      }
      guard maximumSemitones.isFinite, (0...48).contains(maximumSemitones) else {
        throw .invalidParameter(name: "maximum semitones", value: "\(maximumSemitones)", expected: "0...48")
      }
    }
  }
}
