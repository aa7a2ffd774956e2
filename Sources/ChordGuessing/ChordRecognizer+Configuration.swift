import PitchDSP
import ScoreModel

extension ChordRecognizer {
  /// The parameters of a ``ChordRecognizer`` (and of a ``ChordTranscriber``).
  public struct Configuration: Sendable, Hashable, Codable {
    /// The chromagram: sample rate, spectrum, chroma method, tuning.
    public var chroma: Chromagram.Configuration
    /// Every chord type the recognizer can report, enabled or not (at most 32). By default the
    /// issue's vocabulary: `maj`, `min`, `dim`, `aug`, `sus2`, `sus4`, `maj7`, `min7`, `7`,
    /// `dim7`, `hdim7`, `minmaj7`, `maj6`, `min6`, `9`, `5`. Any ``ChordType`` works: its
    /// template is its pitch classes.
    public var types: [ChordType]
    /// The types enabled at the start (a subset of ``types``); change them while running with
    /// ``ChordRecognizer/setEnabledTypes(_:)``. By default the nine of ``standardTypes``.
    public var enabledTypes: [ChordType]
    /// How chords are scored.
    public var decision: ChordDecision
    /// How scores become changes (live use; ``ChordTranscriber`` always uses Viterbi).
    public var smoothing: ChordSmoothing
    /// The mean duration of a chord the hidden Markov model expects, in seconds (0.2...60;
    /// 2 by default): the probability per frame of a new chord is `hop / this`, and that of a
    /// new bass under the same chord is the same.
    public var meanChordSeconds: Double
    /// Whether chords may be reported over a chord tone other than the root (`G:7/3`); when
    /// `false` every chord is in root position.
    public var allowsInversions: Bool

    /// The nine types on by default: `maj`, `min`, `dim`, `aug`, `sus2`, `sus4`, `maj7`,
    /// `min7`, `7`.
    public static let standardTypes: [ChordType] = [
      .major, .minor, .diminished, .augmented, .suspendedSecond, .suspendedFourth, .majorSeventh,
      .minorSeventh, .dominantSeventh,
    ]

    /// The sixteen types of the default vocabulary: ``standardTypes`` then `dim7`, `hdim7`,
    /// `minmaj7`, `maj6`, `min6`, `9`, `5`.
    public static let allTypes: [ChordType] =
      standardTypes + [
        .diminishedSeventh, .halfDiminishedSeventh, .minorMajorSeventh, .majorSixth, .minorSixth,
        .dominantNinth, .power,
      ]

    /// Creates a configuration; everything but the chromagram has a default.
    ///
    /// - Parameters:
    ///   - chroma: The chromagram configuration (its sample rate is the input's).
    ///   - types: Every type the recognizer can report (``allTypes``).
    ///   - enabledTypes: The types on at the start (``standardTypes``).
    ///   - decision: How chords are scored (likelihood).
    ///   - smoothing: How scores become changes (hidden Markov model).
    ///   - meanChordSeconds: The expected chord duration (2 s).
    ///   - allowsInversions: Whether inversions are reported (yes).
    public init(
      chroma: Chromagram.Configuration, types: [ChordType] = allTypes,
      enabledTypes: [ChordType] = standardTypes, decision: ChordDecision = .likelihood,
      smoothing: ChordSmoothing = .hiddenMarkov, meanChordSeconds: Double = 2, allowsInversions: Bool = true
    ) {
      self.chroma = chroma
      self.types = types
      self.enabledTypes = enabledTypes
      self.decision = decision
      self.smoothing = smoothing
      self.meanChordSeconds = meanChordSeconds
      self.allowsInversions = allowsInversions
    }

    /// A configuration with every default for input at `sampleRate`.
    ///
    /// - Parameter sampleRate: The input's sample rate, in Hz.
    public init(sampleRate: Double) {
      self.init(chroma: .init(sampleRate: sampleRate))
    }

    /// Checks every parameter, the chromagram's included.
    ///
    /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming the first
    ///   parameter out of range.
    public func validate() throws(PitchDSPError) {
      try chroma.validate()
      guard (1...32).contains(types.count), Set(types).count == types.count else {
        throw .invalidParameter(
          name: "chord types", value: types.map(\.description).joined(separator: ","),
          expected: "1 to 32 distinct chord types")
      }
      for type in enabledTypes where !types.contains(type) {
        throw .invalidParameter(
          name: "enabled chord type", value: type.description,
          expected: "one of " + types.map(\.description).joined(separator: ","))
      }
      guard meanChordSeconds.isFinite, (0.2...60).contains(meanChordSeconds) else {
        throw .invalidParameter(
          name: "mean chord duration", value: "\(meanChordSeconds)", expected: "0.2...60 s")
      }
      if case .repeated(let count) = smoothing, !(1...100).contains(count) {
        throw .invalidParameter(name: "repeat count", value: "\(count)", expected: "1...100 frames")
      }
    }
  }
}
