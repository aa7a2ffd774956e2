/// One of the twelve pitch classes of equal temperament: 0 = C, 1 = C♯/D♭, …, 11 = B.
public struct PitchClass: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The pitch class, `0...11`.
  public let rawValue: Int

  /// Creates the pitch class of any integer (taken modulo 12, so −1 is B).
  ///
  /// - Parameter value: Any number of semitones above a C.
  public init(_ value: Int) { rawValue = ((value % 12) + 12) % 12 }

  /// Creates the pitch class of any integer (taken modulo 12).
  public init(rawValue: Int) { self.rawValue = ((rawValue % 12) + 12) % 12 }

  /// All twelve, from C.
  public static let all = (0..<12).map { PitchClass($0) }

  /// The pitch class `semitones` higher, wrapping around the octave.
  public func transposed(by semitones: Int) -> PitchClass { PitchClass(rawValue + semitones) }

  /// The semitones up from `other` to this pitch class, `0...11`.
  public func semitones(above other: PitchClass) -> Int { PitchClass(rawValue - other.rawValue).rawValue }

  /// The pitch class spelled with sharps (`C`, `C#`, …); use ``SpelledNote`` with a key for proper spelling.
  public var description: String {
    ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"][rawValue]
  }

  public static func < (a: PitchClass, b: PitchClass) -> Bool { a.rawValue < b.rawValue }
}
