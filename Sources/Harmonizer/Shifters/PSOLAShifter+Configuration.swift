extension PSOLAShifter {
  /// The PSOLA shifter's parameters: the analysis (pitch range, tracker) and the synthesis
  /// (glide, voicing fade).
  public struct Configuration: Sendable, Hashable, Codable {
    /// The pitch range and the pitch tracker's settings.
    public var analysis: PitchMarkAnalyzer.Configuration
    /// The glide, the voicing fade and the shift range.
    public var synthesis: PSOLASynthesizer.Configuration

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - analysis: The pitch range and tracker settings.
    ///   - synthesis: The glide, voicing fade and shift range.
    public init(analysis: PitchMarkAnalyzer.Configuration = .init(), synthesis: PSOLASynthesizer.Configuration = .init()) {
      self.analysis = analysis
      self.synthesis = synthesis
    }
  }
}
