/// One of the twelve pitch classes of equal temperament: 0 = C, 1 = C♯/D♭, …, 11 = B.
public struct PitchClass: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The pitch class, `0...11`.
  public let rawValue: Int

  /// Creates the pitch class of any integer (taken modulo 12, so −1 is B).
  ///
  /// - Parameter value: Any number of semitones above a C.
  public init(_ value: Int) { rawValue = ((value % 12) + 12) % 12 }

  /// Creates the pitch class of any integer (taken modulo 12, so −1 is B).
  ///
  /// - Parameter rawValue: Any number of semitones above a C.
  public init(rawValue: Int) { self.rawValue = ((rawValue % 12) + 12) % 12 }

  /// All twelve, from C.
  public static let all = (0..<12).map { PitchClass($0) }

  /// The pitch class `semitones` higher, wrapping around the octave.
  ///
  /// - Parameter semitones: The distance in semitones, negative for down.
  public func transposed(by semitones: Int) -> PitchClass { PitchClass(rawValue + semitones) }

  /// The semitones up from `other` to this pitch class, `0...11`.
  ///
  /// - Parameter other: The lower pitch class.
  public func semitones(above other: PitchClass) -> Int { PitchClass(rawValue - other.rawValue).rawValue }

  /// A plain name (`C`, `C#`, `D`, `Eb`, `E`, `F`, `F#`, `G`, `Ab`, `A`, `Bb`, `B`) for logs; use
  /// ``Key/spelling(of:)`` or ``SpelledNote/init(midi:in:)`` for spelling that belongs to a key.
  public var description: String {
    ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"][rawValue]
  }

  /// Orders pitch classes from C to B.
  public static func < (a: PitchClass, b: PitchClass) -> Bool { a.rawValue < b.rawValue }
}
