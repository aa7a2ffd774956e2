extension PSOLASynthesizer {
  /// How a synthesizer moves between shifts and between voiced and unvoiced input.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The time constant with which ``PSOLASynthesizer/semitones`` glides to a new value, in
    /// seconds (default 0.02 s; 0 jumps).
    public var glideSeconds: Double
    /// How long the crossfade between the shifted voice and the unshifted input takes where the
    /// input turns voiced or unvoiced, in seconds (default 0.01 s).
    public var voicingFadeSeconds: Double
    /// The largest shift accepted, in semitones either way (default 24; larger values clamp).
    public var maximumSemitones: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - glideSeconds: The glide time constant for shift changes, in seconds.
    ///   - voicingFadeSeconds: The voiced/unvoiced crossfade, in seconds.
    ///   - maximumSemitones: The largest shift either way, in semitones.
    public init(glideSeconds: Double = 0.02, voicingFadeSeconds: Double = 0.01, maximumSemitones: Double = 24) {
      self.glideSeconds = glideSeconds
      self.voicingFadeSeconds = voicingFadeSeconds
      self.maximumSemitones = maximumSemitones
    }

    /// Checks the values.
    ///
    /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` naming the first
    ///   value out of range.
    public func validate() throws(HarmonizerError) {
      guard glideSeconds.isFinite, (0...10).contains(glideSeconds) else {
        throw .invalidParameter(name: "glide", value: "\(glideSeconds) s", expected: "0...10 s")
      }
      guard voicingFadeSeconds.isFinite, (0.0005...0.1).contains(voicingFadeSeconds) else {
        throw .invalidParameter(name: "voicing fade", value: "\(voicingFadeSeconds) s", expected: "0.0005...0.1 s")
      }
      guard maximumSemitones.isFinite, (0...36).contains(maximumSemitones) else {
        throw .invalidParameter(name: "maximum semitones", value: "\(maximumSemitones)", expected: "0...36")
      }
    }
  }
}
