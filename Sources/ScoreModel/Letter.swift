/// A note letter, C through B.
public enum Letter: Int, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
  case c, d, e, f, g, a, b

  /// The pitch class of the natural note (C = 0, D = 2, …, B = 11).
  public var naturalPitchClass: Int { [0, 2, 4, 5, 7, 9, 11][rawValue] }

  /// The letter `steps` letters up (or down), wrapping from B to C.
  public func advanced(by steps: Int) -> Letter { Letter(rawValue: ((rawValue + steps) % 7 + 7) % 7)! }

  /// Parses an upper- or lower-case letter.
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

  public static func < (a: Letter, b: Letter) -> Bool { a.rawValue < b.rawValue }
}
