import PerformanceTracking

/// Every threshold and weight the grader uses: pitch zones in cents, timing zones in
/// milliseconds, duration zones as ratios, and the severity of each rating.
///
/// A value type loaded from JSON (``init(json:level:)``), so that an app or a teacher retunes the
/// grader without recompiling; ``beginner``, ``intermediate`` (the default) and ``advanced``
/// are built in. See the tolerances JSON article for the format.
public struct Tolerances: Sendable, Hashable, Codable {
  /// Pitch zones, in cents from the expected note.
  public struct Pitch: Sendable, Hashable, Codable {
    /// Within this, the pitch is correct.
    public var correctCents: Double
    /// Beyond this (and up to ``wrongNoteCents``), very flat or sharp; between ``correctCents``
    /// and this, a bit flat or sharp.
    public var veryCents: Double
    /// Beyond this the nearest note is another one: a wrong note, an octave or a partial
    /// (50: the nearest-semitone test).
    public var wrongNoteCents: Double
    /// How near a partial's natural-harmonic pitch a note must be to count as that partial.
    public var partialCents: Double
    /// A note whose smoothed pitch moves over a wider range than this wavers.
    public var waveringCents: Double
    /// The time over which the pitch is smoothed before judging wavering (vibrato averages
    /// out), in seconds.
    public var waveringSmoothingSeconds: Double
    /// The frequency of A4, in Hz.
    public var a4Hz: Double
  }

  /// Attack zones, in milliseconds from the expected start.
  public struct Timing: Sendable, Hashable, Codable {
    /// Which offset sets the severity of a timing error.
    public enum Reference: String, Sendable, Hashable, Codable {
      /// The offset from the score's time.
      case absolute
      /// The offset from the student's local tempo.
      case local
      /// The smaller of the two: a note is early or late only when it is so against both.
      case lesser
    }
    /// Within this, on time.
    public var correctMs: Double
    /// Beyond this, very early or late; between ``correctMs`` and this, a bit.
    public var veryMs: Double
    /// Which offset sets the severity.
    public var severityReference: Reference
  }

  /// Duration zones, as ratios of the sounded length to the written value, divided by the
  /// ratio the articulation expects.
  public struct Duration: Sendable, Hashable, Codable {
    /// The sounded/written ratio each articulation expects (keys: the
    /// ``PerformanceNote/Articulation`` names).
    public var expectedRatios: [String: Double]
    /// Below this relative ratio, a bit short.
    public var shortRatio: Double
    /// Below this, very short.
    public var veryShortRatio: Double
    /// Below this, too short.
    public var tooShortRatio: Double
    /// Above this relative ratio, a bit long.
    public var longRatio: Double
    /// Above this, very long.
    public var veryLongRatio: Double
    /// Above this, too long.
    public var tooLongRatio: Double
    /// Notes written shorter than this are not judged for duration, in seconds.
    public var shortestJudgedSeconds: Double
    /// An allowance in seconds added to both sides of the correct zone (a note's length is
    /// felt to within some tens of milliseconds, whatever its value): the boundaries move by
    /// this over the written value.
    public var allowanceSeconds: Double

    /// The ratio an articulation expects (1 when the table has none).
    public func expectedRatio(for articulation: PerformanceNote.Articulation) -> Double {
      expectedRatios[articulation.rawValue] ?? 1
    }
  }

  /// What counts as sound during a rest.
  public struct Rest: Sendable, Hashable, Codable {
    /// An unclaimed sound must overlap the rest by this much, in seconds.
    public var minimumSeconds: Double
  }

  /// How sure a missed note is. A note no sound was linked to, whose pitch the tracker
  /// nevertheless heard over much of its span (a repeat slurred into the note before, a note
  /// an octave above the previous one under the ring of the room), may have been played with
  /// no attack of its own: it stays missed, at a lower severity, so that the issues the grader
  /// is sure of rank first.
  ///
  /// The share heard is taken over the note's first 300 ms (at least 60 ms), from 30 ms after
  /// it was due on the local tempo: the pitch track's frames at the note's sounding pitch, or
  /// an octave above or below it, within 60 cents, among all its frames there.
  public struct Missed: Sendable, Hashable, Codable {
    /// The share heard from which a missed note is uncertain, 0...1 (above 1: never).
    public var heardShare: Double
    /// The factor on the missed severity of an uncertain missed note, 0...1.
    public var heardSeverityFactor: Double

    /// Creates the rule.
    ///
    /// - Parameters:
    ///   - heardShare: The share heard from which a missed note is uncertain (default a half).
    ///   - heardSeverityFactor: The factor on its severity (default a half).
    public init(heardShare: Double = 0.5, heardSeverityFactor: Double = 0.5) {
      self.heardShare = heardShare
      self.heardSeverityFactor = heardSeverityFactor
    }
  }

  /// The level's name.
  public var name: String
  /// Pitch zones.
  public var pitch: Pitch
  /// Attack zones.
  public var timing: Timing
  /// Duration zones.
  public var duration: Duration
  /// Rests.
  public var rest: Rest
  /// The severity score of each rating (by its name); a rating not listed scores 1, `correct` 0.
  public var severity: [String: Double]
  /// How sure a missed note is.
  public var missed = Missed()

  /// The severity of a rating.
  public func score(for rating: Rating) -> Double {
    rating == .correct ? 0 : severity[rating.rawValue] ?? 1
  }
}

extension Tolerances {
  /// The severities of the original app (attack 3/6, duration 1/2/3, pitch a bit 1, wrong
  /// note 5, partial 6), with very flat/sharp 3, octave 5, wavering 2, a sound during a rest 4
  /// and a missed note 10.
  public static let defaultSeverity: [String: Double] = [
    "aBitEarly": 3, "veryEarly": 6, "aBitLate": 3, "veryLate": 6,
    "aBitShort": 1, "veryShort": 2, "tooShort": 3, "aBitLong": 1, "veryLong": 2, "tooLong": 3,
    "aBitFlat": 1, "veryFlat": 3, "aBitSharp": 1, "verySharp": 3, "wrongNote": 5, "octave": 5,
    "upperPartial": 6, "lowerPartial": 6, "wavering": 2, "missed": 10, "soundDuringRest": 4,
  ]

  static let expectedRatios: [String: Double] = [
    "normal": 0.92, "legato": 1, "tenuto": 1, "staccato": 0.5, "staccatissimo": 0.3,
  ]

  /// Wide zones for a beginner: ±30 cents, ±70 ms, durations from 0.7 to 1.4 of the expected.
  public static let beginner = Tolerances(
    name: "beginner",
    pitch: .init(
      correctCents: 30, veryCents: 42, wrongNoteCents: 50, partialCents: 40, waveringCents: 70,
      waveringSmoothingSeconds: 0.15, a4Hz: 440),
    timing: .init(correctMs: 70, veryMs: 150, severityReference: .lesser),
    duration: .init(
      expectedRatios: expectedRatios, shortRatio: 0.7, veryShortRatio: 0.5, tooShortRatio: 0.3, longRatio: 1.4,
      veryLongRatio: 1.7, tooLongRatio: 2.2, shortestJudgedSeconds: 0.15, allowanceSeconds: 0.06),
    rest: .init(minimumSeconds: 0.1), severity: defaultSeverity)

  /// The default: ±20 cents, ±40 ms, durations from 0.85 to 1.25 of the expected.
  public static let intermediate = Tolerances(
    name: "intermediate",
    pitch: .init(
      correctCents: 20, veryCents: 35, wrongNoteCents: 50, partialCents: 40, waveringCents: 60,
      waveringSmoothingSeconds: 0.15, a4Hz: 440),
    timing: .init(correctMs: 40, veryMs: 100, severityReference: .lesser),
    duration: .init(
      expectedRatios: expectedRatios, shortRatio: 0.85, veryShortRatio: 0.6, tooShortRatio: 0.35, longRatio: 1.25,
      veryLongRatio: 1.5, tooLongRatio: 2, shortestJudgedSeconds: 0.12, allowanceSeconds: 0.03),
    rest: .init(minimumSeconds: 0.08), severity: defaultSeverity)

  /// Narrow zones for an advanced player: ±12 cents, ±25 ms, durations from 0.9 to 1.15.
  public static let advanced = Tolerances(
    name: "advanced",
    pitch: .init(
      correctCents: 12, veryCents: 25, wrongNoteCents: 50, partialCents: 40, waveringCents: 45,
      waveringSmoothingSeconds: 0.15, a4Hz: 440),
    timing: .init(correctMs: 25, veryMs: 60, severityReference: .lesser),
    duration: .init(
      expectedRatios: expectedRatios, shortRatio: 0.9, veryShortRatio: 0.7, tooShortRatio: 0.4, longRatio: 1.15,
      veryLongRatio: 1.35, tooLongRatio: 1.8, shortestJudgedSeconds: 0.1, allowanceSeconds: 0.03),
    rest: .init(minimumSeconds: 0.06), severity: defaultSeverity)

  /// The built-in levels.
  public static let builtInLevels: [Tolerances] = [.beginner, .intermediate, .advanced]

  /// A built-in level by name, or `nil`.
  public static func level(named name: String) -> Tolerances? {
    builtInLevels.first { $0.name == name }
  }

  /// Checks that zones are ordered and values in range.
  ///
  /// - Throws: ``PerformanceAnalysisError/invalidValue(path:reason:)`` naming the first bad value.
  public func validate() throws(PerformanceAnalysisError) {
    func check(_ ok: Bool, _ path: String, _ reason: String) throws(PerformanceAnalysisError) {
      if !ok { throw .invalidValue(path: path, reason: reason) }
    }
    try check(pitch.correctCents > 0, "pitch.correctCents", "must be positive")
    try check(pitch.veryCents >= pitch.correctCents, "pitch.veryCents", "must be at least correctCents")
    try check(
      pitch.wrongNoteCents >= pitch.veryCents && pitch.wrongNoteCents <= 100, "pitch.wrongNoteCents",
      "must lie between veryCents and 100")
    try check(pitch.partialCents > 0 && pitch.partialCents <= 100, "pitch.partialCents", "must lie in 0...100")
    try check(pitch.waveringCents > 0, "pitch.waveringCents", "must be positive")
    try check(
      pitch.waveringSmoothingSeconds >= 0 && pitch.waveringSmoothingSeconds <= 1, "pitch.waveringSmoothingSeconds",
      "must lie in 0...1")
    try check(pitch.a4Hz >= 300 && pitch.a4Hz <= 600, "pitch.a4Hz", "must lie in 300...600 Hz")
    try check(timing.correctMs > 0, "timing.correctMs", "must be positive")
    try check(timing.veryMs >= timing.correctMs, "timing.veryMs", "must be at least correctMs")
    try check(
      duration.tooShortRatio <= duration.veryShortRatio && duration.veryShortRatio <= duration.shortRatio
        && duration.shortRatio <= 1,
      "duration.shortRatio", "must satisfy tooShortRatio ≤ veryShortRatio ≤ shortRatio ≤ 1")
    try check(
      duration.longRatio >= 1 && duration.longRatio <= duration.veryLongRatio
        && duration.veryLongRatio <= duration.tooLongRatio,
      "duration.longRatio", "must satisfy 1 ≤ longRatio ≤ veryLongRatio ≤ tooLongRatio")
    for (name, ratio) in duration.expectedRatios {
      try check(
        PerformanceNote.Articulation(rawValue: name) != nil, "duration.expectedRatios.\(name)", "is not an articulation")
      try check(ratio > 0 && ratio <= 2, "duration.expectedRatios.\(name)", "must lie in 0...2")
    }
    try check(
      duration.allowanceSeconds >= 0 && duration.allowanceSeconds <= 1, "duration.allowanceSeconds", "must lie in 0...1")
    try check(rest.minimumSeconds >= 0, "rest.minimumSeconds", "must not be negative")
    for (name, value) in severity {
      try check(value.isFinite && value >= 0, "severity.\(name)", "must be a non-negative number")
    }
    try check(missed.heardShare >= 0, "missed.heardShare", "must not be negative")
    try check(
      missed.heardSeverityFactor >= 0 && missed.heardSeverityFactor <= 1, "missed.heardSeverityFactor",
      "must lie in 0...1")
  }
}
