/// An accidental: how many semitones a note is raised (sharps) or lowered (flats), −3...3.
///
/// Prints in ASCII as `bb`, `b`, `` (natural), `#`, `##`; parsing also accepts `♭`, `♯`, `x` and
/// `𝄪` (double sharp), `𝄫` (double flat) and `♮`.
public struct Accidental: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// Semitones of alteration: −2 double flat, −1 flat, 0 natural, 1 sharp, 2 double sharp.
  public let semitones: Int

  /// The alterations accepted, −3...3 (triple flat to triple sharp).
  public static let range = -3...3

  /// Creates an accidental, or `nil` outside ``range``.
  ///
  /// - Parameter semitones: The alteration in semitones.
  public init?(semitones: Int) {
    guard Self.range.contains(semitones) else { return nil }
    self.semitones = semitones
  }

  /// Three flats, −3 semitones (`bbb`).
  public static let tripleFlat = Accidental(unchecked: -3)
  /// Double flat, −2 semitones (`bb`).
  public static let doubleFlat = Accidental(unchecked: -2)
  /// Flat, −1 semitone (`b`).
  public static let flat = Accidental(unchecked: -1)
  /// Natural, no alteration (prints as nothing).
  public static let natural = Accidental(unchecked: 0)
  /// Sharp, +1 semitone (`#`).
  public static let sharp = Accidental(unchecked: 1)
  /// Double sharp, +2 semitones (`##`).
  public static let doubleSharp = Accidental(unchecked: 2)
  /// Three sharps, +3 semitones (`###`).
  public static let tripleSharp = Accidental(unchecked: 3)

  private init(unchecked semitones: Int) { self.semitones = semitones }

  /// Decodes an accidental from its semitones, a bare integer in ``range``.
  ///
  /// - Throws: `DecodingError.dataCorrupted` outside ``range``.
  public init(from decoder: any Decoder) throws {
    let semitones = try decoder.singleValueContainer().decode(Int.self)
    guard let accidental = Accidental(semitones: semitones) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "accidental \(semitones) is outside -3...3"))
    }
    self = accidental
  }

  /// Encodes the accidental as its semitones, a bare integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(semitones)
  }

  /// ASCII spelling: `bb`, `b`, `` (natural), `#`, `##`.
  public var description: String {
    semitones < 0
      ? String(repeating: "b", count: -semitones) : String(repeating: "#", count: semitones)
  }

  /// Parses accidental characters at the start of `text`: `b`/`♭`, `#`/`♯`, `x`/`𝄪` (double sharp),
  /// `𝄫` (double flat), `♮`. Returns the accidental and the number of characters used, or `nil`
  /// when they add up to more than three sharps or flats.
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

  /// Orders accidentals from flattest to sharpest.
  public static func < (a: Accidental, b: Accidental) -> Bool { a.semitones < b.semitones }
}
