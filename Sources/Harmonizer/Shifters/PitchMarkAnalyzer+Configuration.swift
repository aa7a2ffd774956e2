import PitchDSP

extension PitchMarkAnalyzer {
  /// What the pitch-mark analysis looks for: the pitch range of the voice or instrument and how
  /// often the pitch tracker reports.
  ///
  /// The lowest pitch sets most of the latency: a grain spans two of the longest periods, and
  /// the analysis must see one more before it places a mark.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The lowest pitch, in Hz (default 75 Hz, below a bass singer's low E).
    public var minimumFrequencyHz: Double
    /// The highest pitch, in Hz (default 1100 Hz, above a soprano's high C).
    public var maximumFrequencyHz: Double
    /// The pitch tracker's hop, in seconds (default 5 ms).
    public var hopSeconds: Double
    /// The pitch tracker's integration window, in seconds (default 20 ms).
    public var windowSeconds: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - minimumFrequencyHz: The lowest pitch, in Hz.
    ///   - maximumFrequencyHz: The highest pitch, in Hz.
    ///   - hopSeconds: The tracker's hop, in seconds.
    ///   - windowSeconds: The tracker's window, in seconds.
    public init(
      minimumFrequencyHz: Double = 75, maximumFrequencyHz: Double = 1100, hopSeconds: Double = 0.005,
      windowSeconds: Double = 0.02
    ) {
      self.minimumFrequencyHz = minimumFrequencyHz
      self.maximumFrequencyHz = maximumFrequencyHz
      self.hopSeconds = hopSeconds
      self.windowSeconds = windowSeconds
    }

    /// The pitch tracker's configuration at `sampleRate`.
    public func pitchConfiguration(sampleRate: Double) -> PitchConfiguration {
      PitchConfiguration(
        sampleRate: sampleRate, minimumFrequencyHz: minimumFrequencyHz, maximumFrequencyHz: maximumFrequencyHz,
        hopSeconds: hopSeconds, windowSeconds: windowSeconds)
    }

    /// Checks that the values can be used at `sampleRate`.
    ///
    /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` naming the first
    ///   value out of range.
    public func validate(sampleRate: Double) throws(HarmonizerError) {
      guard minimumFrequencyHz.isFinite, minimumFrequencyHz >= 30 else {
        throw .invalidParameter(name: "minimum frequency", value: "\(minimumFrequencyHz) Hz", expected: "at least 30 Hz")
      }
      guard hopSeconds.isFinite, (0.001...0.02).contains(hopSeconds) else {
        throw .invalidParameter(name: "hop", value: "\(hopSeconds) s", expected: "0.001...0.02 s")
      }
      do {
        try pitchConfiguration(sampleRate: sampleRate).validate()
      } catch {
        throw .invalidParameter(name: "pitch tracking", value: "\(error)", expected: "a configuration PitchDSP accepts")
      }
    }
  }
}
