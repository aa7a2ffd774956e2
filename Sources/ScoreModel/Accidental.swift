/// An accidental: how many semitones a note is raised (sharps) or lowered (flats), −3...3.
public struct Accidental: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// Semitones of alteration: −2 double flat, −1 flat, 0 natural, 1 sharp, 2 double sharp.
  public let semitones: Int

  /// The alterations accepted.
  public static let range = -3...3

  /// Creates an accidental, or `nil` outside ``range``.
  ///
  /// - Parameter semitones: The alteration in semitones.
  public init?(semitones: Int) {
    guard Self.range.contains(semitones) else { return nil }
    self.semitones = semitones
  }

  public static let tripleFlat = Accidental(unchecked: -3)
  public static let doubleFlat = Accidental(unchecked: -2)
  public static let flat = Accidental(unchecked: -1)
  public static let natural = Accidental(unchecked: 0)
  public static let sharp = Accidental(unchecked: 1)
  public static let doubleSharp = Accidental(unchecked: 2)
  public static let tripleSharp = Accidental(unchecked: 3)

  private init(unchecked semitones: Int) { self.semitones = semitones }

  /// ASCII spelling: `bb`, `b`, `` (natural), `#`, `##`.
  public var description: String {
    semitones < 0 ? String(repeating: "b", count: -semitones) : String(repeating: "#", count: semitones)
  }

  /// Parses accidental characters at the start of `text`: `b`/`♭`, `#`/`♯`, `x`/`𝄪` (double sharp),
  /// `𝄫` (double flat), `♮`. Returns the accidental and the number of characters used.
  static func parsePrefix(_ text: Substring) -> (Accidental, Int)? {
    var total = 0
    var used = 0
    for character in text {
      switch character {
      case "b", "♭": total -= 1
      case "#", "♯": total += 1
      case "x", "𝄪": total += 2
      case "𝄫": total -= 2
      case "♮": break
      default:
        return Accidental(semitones: total).map { ($0, used) }
      }
      used += 1
    }
    return Accidental(semitones: total).map { ($0, used) }
  }

  public static func < (a: Accidental, b: Accidental) -> Bool { a.semitones < b.semitones }
}
