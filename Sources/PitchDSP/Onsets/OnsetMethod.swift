/// The onset detectors Etude ships, by name (as the command-line tool takes them).
public enum OnsetMethod: String, Sendable, Hashable, Codable, CaseIterable {
  /// ``AmplitudeOnsetDetector``: the level rising above a running noise floor, or rising sharply
  /// while a sound goes on.
  case amplitude
  /// ``SpectralFluxOnsetDetector``: SuperFlux, spectral flux with a maximum filter that ignores
  /// vibrato.
  case superflux

  /// A detector of this kind with its default configuration for `sampleRate`.
  ///
  /// - Parameter sampleRate: The input sample rate, in Hz (8 kHz...384 kHz).
  /// - Returns: A new detector; its memory is allocated.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a sample rate the
  ///   detector cannot analyze.
  public func makeDetector(sampleRate: Double) throws(PitchDSPError) -> any OnsetDetector {
    switch self {
    case .amplitude: try AmplitudeOnsetDetector(configuration: .init(sampleRate: sampleRate))
    case .superflux: try SpectralFluxOnsetDetector(configuration: .init(sampleRate: sampleRate))
    }
  }
}
