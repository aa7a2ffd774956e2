/// A note letter, C through B, in scale order from C.
public enum Letter: Int, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
  /// C, the letter of pitch class 0.
  case c
  /// D.
  case d
  /// E.
  case e
  /// F.
  case f
  /// G.
  case g
  /// A.
  case a
  /// B.
  case b

  /// The pitch class of the natural note (C = 0, D = 2, …, B = 11).
  public var naturalPitchClass: Int { [0, 2, 4, 5, 7, 9, 11][rawValue] }

  /// The natural note's place on the line of fifths (F = −1, C = 0, G = 1, …, B = 5).
  public var fifths: Int { [0, 2, 4, -1, 1, 3, 5][rawValue] }

  /// The letter `steps` letters up (or down, when negative), wrapping from B to C.
  ///
  /// - Parameter steps: Letter steps; 2 is a third up.
  public func advanced(by steps: Int) -> Letter {
    // The remainder is in 0...6, so the raw value always exists.
    Letter(rawValue: ((rawValue + steps) % 7 + 7) % 7)!
  }

  /// Parses an upper- or lower-case letter, or `nil` for any other character.
  ///
  /// - Parameter character: `C`, `D`, `E`, `F`, `G`, `A` or `B`, in either case.
  public init?(character: Character) {
    switch character.uppercased() {
    case "C": self = .c
    case "D": self = .d
    case "E": self = .e
    case "F": self = .f
    case "G": self = .g
    case "A": self = .a
    case "B": self = .b
    default: return nil
    }
  }

  /// The upper-case letter.
  public var description: String { ["C", "D", "E", "F", "G", "A", "B"][rawValue] }

  /// Orders letters from C to B.
  public static func < (a: Letter, b: Letter) -> Bool { a.rawValue < b.rawValue }
}
